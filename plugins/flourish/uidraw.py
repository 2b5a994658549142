"""The Flourish screen's drawings, from a seat's `View`: fragments with their targets.

* `draw_table`: the match's game, the round and turn, the piles, and how the variant
  stands (`variant_pieces`: the team's total or your margin over McGregor with the medals,
  every seat's match total), flowed into the width (`flow`);
* `draw_gardens`: every garden in rows by round (`garden_row`): each card's symbols
  (`symbols_of`, coloured) and name on one line, its abilities in short form under it, the
  round's points at the left; where a row's cells have no room for the names (an
  80-column terminal), a line per card (`garden_list`), every name whole or shortened as
  botanists do (`short_name`); a heading per garden (`garden_heading`) with its points and
  ribbons.  Yours first, then your left and right neighbours', then the others; the garden
  a pass being chosen goes to comes first (`passing_to`);
* `draw_endgame` (the results): each garden's end-of-game points, card by card;
* `draw_hand`: your cards numbered, each with its abilities or its part in the turn being
  composed, where last turn's new cards came from (`hand_heading`), and what you passed
  last turn.

Cards in gardens carry ``Target("planted", id)``, cards in the hand ``Target("card", id)``
and a seat named in a drawing ``Target("seat", n)`` (`seat_ref`); the card being read
(``i``) is drawn reversed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hedgerow.core.ui import Drawing, Fragment, Target, side_by_side
from hedgerow.plugins.flourish.abilities import left_of, right_of
from hedgerow.plugins.flourish.cards import PLANT, SYMBOL_CODES, card
from hedgerow.plugins.flourish.garden_show import KINDS
from hedgerow.plugins.flourish.scoring import CARDS_PER_ROUND, ROUNDS, card_points
from hedgerow.plugins.flourish.state import OVER, View
from hedgerow.plugins.flourish.uiwords import (
    NAME_WIDTH,
    abilities_short,
    arrivals,
    card_roles,
    fit,
    match_totals,
    passed_line,
    scored,
    short_name,
    turn_words,
)

CARD = "card"  # a card of the seat's hand
PLANTED = "planted"  # a card in a garden (read only)
SEAT = "seat"  # a seat named in the drawing (a client may show the player's name there)

COLOUR_STYLES = ("fg:ansigreen", "fg:ansired", "fg:ansiblue", "fg:ansiyellow",
                 "fg:ansimagenta")
WHITE_STYLE = "fg:ansiwhite bold"
STONE_STYLE = "fg:ansicyan"
READING = "reverse"
HEADING = "bold"
DIM = "fg:ansibrightblack"
MINE = "bold fg:ansigreen"


def symbols_of(ident: int) -> Drawing:
    """A card's symbols, coloured: its stone (``Tree``), then its plants (``G3``, ``W1``)."""
    c = card(ident)
    out: Drawing = []
    if c.kind != PLANT:
        out.append((STONE_STYLE, SYMBOL_CODES[c.kind]))
    for colour, n in enumerate(c.plants):
        if n:
            out += [("", " ")] if out else []
            out.append((COLOUR_STYLES[colour], f"{SYMBOL_CODES[colour]}{n}"))
    if c.white:
        out += [("", " ")] if out else []
        out.append((WHITE_STYLE, f"W{c.white}"))
    return out


def fit_drawing(drawing: Drawing, width: int) -> Drawing:
    """A one-line drawing cut to ``width`` columns and padded to it."""
    out: Drawing = []
    room = width
    for fragment in drawing:
        if room <= 0:
            break
        text = fragment[1]
        if len(text) > room:
            text = text[: room - 1] + "…"
        out.append((fragment[0], text))
        room -= len(text)
    if room > 0:
        out.append(("", " " * room))
    return out


def with_target(drawing: Drawing, target: Target, extra: str = "") -> Drawing:
    """Every fragment of ``drawing`` given ``target`` (and ``extra`` style)."""
    return [((f[0] + " " + extra).strip(), f[1], target) for f in drawing]


def flow(pieces: Sequence[Drawing], width: int, sep: str = " · ") -> Drawing:
    """One-line drawings joined by ``sep``, a new line started where the next would not
    fit in ``width`` columns."""
    out: Drawing = []
    used = 0
    for piece in pieces:
        size = sum(len(f[1]) for f in piece)
        if used and used + len(sep) + size > width:
            out.append(("", "\n"))
            used = 0
        elif used:
            out.append((DIM, sep))
            used += len(sep)
        out += piece
        used += size
    return out


def seat_ref(seat: int, style: str = "", capital: bool = False, width: int = 0) -> Fragment:
    """A seat named in a drawing: ``"seat 1"``, carrying ``Target("seat", 1)`` so that a
    client that knows the players' names can show the name instead (fitted to ``width``
    columns when given: blocks side by side stay aligned)."""
    return (style, f"{'S' if capital else 's'}eat {seat}".ljust(width), Target(SEAT, seat))


def garden_name(view: View, garden: int, style: str = "", width: int = 0) -> Drawing:
    """``You``, ``Seat 1 (your left)``, ``Seat 1 (your neighbour)``, ``McGregor`` (a
    player's name in ``width`` columns when given)."""
    if view.solo and garden == view.players:
        return [(style, "McGregor")]
    if garden == view.seat:
        return [(style, "You")]
    gardens = view.players
    where = []
    if gardens == 2:
        where.append("your neighbour")
    else:
        if garden == left_of(view.seat, gardens):
            where.append("your left")
        if garden == right_of(view.seat, gardens):
            where.append("your right")
    out = [seat_ref(garden, style, capital=True, width=width)]
    return out + ([(style, f" ({' and '.join(where)})")] if where else [])


def passing_to(view: View, partial: Any) -> int | None:
    """The garden of the neighbour that the card being chosen goes to, if a pass is being
    chosen (the last argument filled so far is ``left``, ``right`` or ``passed``)."""
    args = list(dict(partial or {}))
    if not args or view.solo:
        return None
    last = args[-1] if args[-1] != "compost" else None
    if last == "left" or last == "passed":
        return left_of(view.seat, view.players)
    if last == "right":
        return right_of(view.seat, view.players)
    return None


def garden_order(view: View, first: int | None = None) -> list[int]:
    """The gardens in the order drawn: ``first`` if given, yours, your left, your right,
    then the others clockwise from your left; McGregor's after yours."""
    count = len(view.gardens)
    if view.solo:
        return [view.seat, *range(view.players, count)]
    order = [first] if first is not None else []
    order.append(view.seat)
    if view.players > 1:
        order.append(left_of(view.seat, view.players))
        order.append(right_of(view.seat, view.players))
    for step in range(1, view.players):
        order.append((view.seat + step) % view.players)
    return list(dict.fromkeys(order))


def draw_table(view: View, width: int, cooperative: bool = False,
               grades: Sequence[tuple[str, int]] = ()) -> Drawing:
    """Where the game stands (the match's game, round and turn, the piles), then how the
    variant stands (`variant_pieces`), each flowed into ``width`` columns."""
    head: list[Drawing] = []
    if view.games > 1:
        head.append([(HEADING, f"Game {view.game + 1} of {view.games}")])
    head.append([(HEADING, turn_words(view))])
    head.append([(DIM, f"deck {view.deck_count}")])
    if view.compost:
        head.append([(DIM, f"compost {view.compost_count}")])
    out = flow(head, width)
    more = variant_pieces(view, cooperative, grades)
    if more:
        out += [("", "\n"), *flow(more, width)]
    return out

def variant_pieces(view: View, cooperative: bool, grades: Sequence[tuple[str, int]],
                   ) -> list[Drawing]:
    """Cooperative: the team's total and the medals (``grades``); solo: you, McGregor, the
    margin and the medals; Garden Show: every seat's match total."""
    totals = [sum(p) for p in view.points]
    medals = [[("", "Medals:"), *medal_words(goal(view), grades, " ")]]
    if view.solo:
        mine, his = totals[0], totals[-1]
        return [[("", f"You {mine} - McGregor {his} = "), (HEADING, f"{mine - his:+d}")],
                *(medals if grades else [])]
    if cooperative:
        return [[("", "Team total "), (HEADING, str(sum(totals[:view.players])))],
                *(medals if grades else [])]
    if view.games > 1:
        pieces: list[Drawing] = []
        for s, t in enumerate(match_totals(view)):
            who: Fragment = ("", "you") if s == view.seat else seat_ref(s, capital=True)
            piece: Drawing = [("", "Match: ")] if s == 0 else []
            pieces.append([*piece, who, ("", f" {t}")])
        return pieces
    return []

def goal(view: View) -> int:
    """What the medals are won with: the team's total, or your margin over McGregor."""
    totals = [sum(p) for p in view.points]
    if view.solo:
        return totals[0] - totals[-1]
    return sum(totals[:view.players])

def medal_words(value: int, grades: Sequence[tuple[str, int]], sep: str = " · ",
                ) -> Drawing:
    """`` · Bronze 30 ✓ · Silver 40 · Gold 50``: each medal's threshold, ticked when
    reached."""
    out: Drawing = []
    for n, (label, at) in enumerate(grades):
        out.append(("", sep if n == 0 else " · "))
        out.append((MINE if value >= at else "", f"{label} {at}"
                    + (" ✓" if value >= at else "")))
    return out

#: Where the board has room for two gardens listed a card a line (`garden_list`) side by
#: side, with `GAP` between them (a terminal of about 150 columns), it shows them so; each
#: at most `ROW_WIDTH` wide.
LIST_WIDTH, ROW_WIDTH, GAP = 46, 60, 3
#: A player's name in a heading side by side: the client fits the name there.
NAME_ROOM = 12
#: The narrowest cell of a round's row of cards (symbols, a name, abilities under them):
#: below it the cards of a garden go one a line, each name whole (`garden_list`).
ROW_CELL = 22


def draw_gardens(view: View, width: int, reading: Target | None = None,
                 partial: Any = None, ribbons: bool = False) -> Drawing:
    """Every garden: a heading with its points, then its cards by round (a row of cells
    per round where a cell has room for the names, else a line per card); the garden you
    are passing a card to comes first while you choose that card."""
    if width >= 2 * LIST_WIDTH + GAP:  # room to spare: the gardens side by side, in place
        size = min(ROW_WIDTH, (width - GAP) // 2)
        blocks = []
        for garden in garden_order(view):
            block = garden_heading(view, garden, size, ribbons, NAME_ROOM)
            if view.gardens[garden]:
                block += garden_list(view, garden, size, reading)
            else:
                block += [(DIM, "\n   (nothing planted yet)")]
            blocks.append(block)
        return side_by_side(blocks, width, GAP, size)
    out: Drawing = []
    cell = min(26, (width - 3 - 2) // 3)
    for n, garden in enumerate(garden_order(view, passing_to(view, partial))):
        if n:
            out.append(("", "\n"))
        out += garden_heading(view, garden, width, ribbons)
        cards = view.gardens[garden]
        if not cards:
            out.append((DIM, "\n   (nothing planted yet)"))
        elif cell < ROW_CELL:
            out += garden_list(view, garden, width, reading)
        for rnd in range(1, ROUNDS + 1) if cell >= ROW_CELL else ():
            row = cards[(rnd - 1) * CARDS_PER_ROUND: rnd * CARDS_PER_ROUND]
            if row:
                out += garden_row(view, garden, rnd, row, cell, reading)
    return out


def garden_list(view: View, garden: int, width: int, reading: Target | None) -> Drawing:
    """A garden's cards one a line, for a narrow board: ``R1 G2  Festuca glauca  e9
    G>=all``, the round at the left of its first card and its points under that once
    scored; the columns sized to the garden's cards, the name taking what is left."""
    cards = view.gardens[garden]
    symbols = max(sum(len(f[1]) for f in symbols_of(c)) for c in cards)
    abilities = max(len(abilities_short(c)) for c in cards)
    longest = max(len(short_name(c)) for c in cards)
    name_w = max(8, min(longest, width - 3 - symbols - 1 - 1 - abilities))
    out: Drawing = []
    for index, ident in enumerate(cards):
        rnd, place = divmod(index, CARDS_PER_ROUND)
        points = view.points[garden][rnd]
        if place == 0:
            left = (DIM, f"R{rnd + 1} ")
        elif place == 1 and scored(view, rnd + 1):
            left = (MINE if points else DIM, f"{f'+{points}' if points < 10 else points:<2} ")
        else:
            left = ("", "   ")
        target = Target(PLANTED, ident)
        extra = READING if target == reading else ""
        line: Drawing = [*fit_drawing(symbols_of(ident), symbols),
                         ("", " " + fit(short_name(ident, name_w), name_w)),
                         ("", " " + abilities_short(ident))]
        out += [("", "\n"), left, *with_target(line, target, extra)]
    return out

def garden_heading(view: View, garden: int, width: int = 80, ribbons: bool = False,
                   name: int = 0) -> Drawing:
    """``You · 23 points · 9 at game end`` (flowed into ``width``; a player's name in
    ``name`` columns when given), and with ``ribbons`` the Garden Show's ribbons under
    it."""
    points = view.points[garden]
    total = sum(points)
    style = MINE if garden == view.seat else HEADING
    pieces: list[Drawing] = [garden_name(view, garden, style, name),
                             [("", f"{total} point{'' if total == 1 else 's'}")]]
    if view.turn >= OVER:
        pieces.append([(DIM, f"{points[ROUNDS]} at game end")])
    if view.solo and garden == view.players and view.turn < OVER:
        pieces.append([(DIM, f"his deck {view.mcg_count}")])
    out = flow(pieces, width)
    if ribbons and garden < len(view.extras):
        held = view.extras[garden]
        if isinstance(held, tuple) and held:
            words: list[Drawing] = [[(DIM, KINDS[k].capitalize() + (" (won)" if won else ""))]
                                    for k, won in held]
            words[0].insert(0, (DIM, "  ribbons: "))
            out += [("", "\n"), *flow(words, width, ", ")]
    return out


def garden_row(view: View, garden: int, rnd: int, row: Sequence[int], cell: int,
               reading: Target | None) -> Drawing:
    """One round's cards: names and symbols on one line, abilities under them; the
    round's points at the left once scored."""
    top: Drawing = [("", "\n"), (DIM, f"R{rnd} ")]
    bottom: Drawing = [("", "\n")]
    points = view.points[garden][rnd - 1]
    shown = (f"+{points}" if points < 10 else str(points)) if scored(view, rnd) else ""
    bottom.append((MINE if points else DIM, f"{shown:<2} "))
    for i, ident in enumerate(row):
        target = Target(PLANTED, ident)
        extra = READING if target == reading else ""
        gap: Drawing = [("", " ")] if i else []
        size = sum(len(f[1]) for f in symbols_of(ident))
        head = [*symbols_of(ident), ("", " " + short_name(ident, cell - size - 1))]
        top += gap + with_target(fit_drawing(head, cell), target, extra)
        bottom += gap + with_target([("", fit(abilities_short(ident), cell))], target,
                                    extra)
    return top + bottom

def draw_hand(view: View, width: int, partial: Any = None, reading: Target | None = None,
              ) -> Drawing:
    """Your cards, numbered for the keys: symbols, name, abilities in short form (a card
    given a part in the turn being composed shows that part there instead: ``plant``, ``→
    left``); where last turn's new cards came from on the heading line; then what you
    passed last turn.  The columns are sized to the hand (the same all turn) and the
    name takes the rest, so that names stay whole (`short_name`)."""
    if view.turn >= OVER:
        return [(DIM, "Your hand is empty: the game is over.")]
    roles = card_roles(partial)
    symbols = max((sum(len(f[1]) for f in symbols_of(c)) for c in view.hand), default=2)
    abilities = max(ROLE_WIDTH, *(len(abilities_short(c)) for c in view.hand))
    name_w = max(8, min(NAME_WIDTH, width - 2 - symbols - 1 - 1 - abilities))
    out: Drawing = hand_heading(view, width)
    for n, ident in enumerate(view.hand, 1):
        target = Target(CARD, ident)
        extra = READING if target == reading else ""
        role = roles.get(ident)
        line: Drawing = [("", f"{n} "), *fit_drawing(symbols_of(ident), symbols),
                         ("", " " + fit(short_name(ident, name_w), name_w) + " ")]
        line.append((MINE, role) if role else ("", abilities_short(ident)))
        out.append(("", "\n"))
        out += with_target(line, target, extra)
    passed = passed_line(view, width)
    if passed:
        out += [("", "\n"), (DIM, passed)]
    return out


#: The widest part a hand card can be given (``compost``, ``→ right``).
ROLE_WIDTH = 7


def hand_heading(view: View, width: int) -> Drawing:
    """``Your hand (6 cards) · new: 2 ← left, 5 ← right, 6 drawn``: the cards that
    arrived last turn by their number, and where from (as much as ``width`` holds)."""
    came = arrivals(view)
    new = ", ".join(f"{n} {came[c]}" for n, c in enumerate(view.hand, 1) if c in came)
    count = f" ({len(view.hand)} cards)"
    for heading in (f"Your hand{count} · new: {new}", f"Your hand · new: {new}",
                    f"Hand · new: {new}"):
        if new and len(heading) <= width:
            head, _, rest = heading.partition(" · ")
            return [(HEADING, head), (DIM, " · " + rest)]
    return [(HEADING, "Your hand"), (DIM, count)]


def draw_endgame(view: View, width: int) -> Drawing:
    """Where each garden's end-of-game points came from, card by card (the results):
    ``You 45 = Oak 12 + Festuca glauca 9 + …``, the cards that scored most first and those
    that scored nothing dimmed, so that the total in the results table is explained."""
    out: Drawing = [(HEADING, "End-of-game points, card by card")]
    for garden in garden_order(view):
        cards = view.gardens[garden]
        scored = [(ident, points) for index, ident in enumerate(cards)
                  if (points := card_points(view.gardens, garden, index)[1]) is not None]
        scored.sort(key=lambda item: -item[1])
        total = view.points[garden][ROUNDS]
        pieces: list[Drawing] = [[*garden_name(view, garden, HEADING),
                                  ("", f" {total}" + (" =" if scored else ""))]]
        for n, (ident, points) in enumerate(scored):
            pieces.append([("" if points else DIM,
                            f"{'+ ' if n else ''}{short_name(ident)} {points}")])
        if not scored:
            pieces.append([(DIM, "(no card with an end-of-game ability)")])
        out += [("", "\n"), *flow(pieces, width, " ")]
    return out
