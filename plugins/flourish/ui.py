"""Flourish in the seat client: its `GameUI` object, one per table (it knows the variants).

The host asks for it through ``hedgerow_game_ui`` (registered by the Flourish plugin,
``hedgerow.plugins.flourish``) and gets a `FlourishUI` built for the table's `Ruleset`:
which variants are on (the cooperative team total and medals, the Garden Show's match
and ribbons, compost), and how far the medals are raised.  The object declares:

* the parts: ``table`` (board: round, turn, piles, and the variant's line: team total and
  medals, McGregor and your margin, the Garden Show's game), ``gardens`` (board: every
  garden in rows by round, each card's symbols and abilities in short form, each round's
  points), ``hand`` (hand: your cards, each marked with the part it has in the turn being
  composed and where it came from, and what you passed last turn);
* the roles: ``"card"`` (a card of your hand, by id: what the forms choose),
  ``"planted"`` (a card in a garden: only read in full, `details`, with the ``i`` key) and
  ``"seat"`` (a seat named in the drawing, so that a client can show the player's name);
* the forms: ``turn`` = the card to plant, then the card passed left and the card passed
  right (with one neighbour or McGregor: the two cards passed, chosen together), then
  with compost an optional card to compost; ``final`` = the three cards to plant;
* the words: a turn in words, a prompt for each kind of turn, how to play, score columns
  by round (the Garden Show: this game, ribbons, the match), and any card in full.

It reads only the seat's `View` and never imports the client.
"""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Sequence
from typing import Any

from hedgerow.core import Action
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.ui import (
    BOARD,
    HAND,
    Choose,
    ChooseMany,
    Column,
    DrawContext,
    Drawing,
    Form,
    Fragment,
    GameUI,
    Part,
    Target,
)
from hedgerow.plugins.flourish.abilities import left_of, right_of
from hedgerow.plugins.flourish.cards import (
    BOTH_NB,
    ONE_NB,
    PATH,
    PLANT,
    SYMBOL_CODES,
    card,
)
from hedgerow.plugins.flourish.cooperative import MEDALS, medals
from hedgerow.plugins.flourish.garden_show import KINDS, RIBBON_POINTS
from hedgerow.plugins.flourish.knowledge import MCG
from hedgerow.plugins.flourish.ranking import SOLO_GRADES, game_totals, raised
from hedgerow.plugins.flourish.scoring import CARDS_PER_ROUND, ROUNDS, card_points
from hedgerow.plugins.flourish.state import FINAL, OVER, View
from hedgerow.plugins.flourish.words import ability_short, ability_text, kind_name

GAME = "flourish"
CARD = "card"  # a card of the seat's hand
PLANTED = "planted"  # a card in a garden (read only)
SEAT = "seat"  # a seat named in the drawing (a client may show the player's name there)

PLAY = Choose(CARD, ("play",), "card to plant")
LEFT = Choose(CARD, ("left",), "card to pass left")
RIGHT = Choose(CARD, ("right",), "card to pass right")
PASSED = ChooseMany(CARD, "passed", "two cards to pass")
COMPOST = Choose(CARD, ("compost",), "card to compost (Backspace: none)")
THREE = ChooseMany(CARD, "play", "three cards to plant")
TURN_LABEL = "plant and pass"
#: A card in full fits the client's message lines: three lines of an 80-column terminal.
DETAILS_WIDTH, DETAILS_LINES = 80, 3

COLOUR_STYLES = ("fg:ansigreen", "fg:ansired", "fg:ansiblue", "fg:ansiyellow",
                 "fg:ansimagenta")
WHITE_STYLE = "fg:ansiwhite bold"
STONE_STYLE = "fg:ansicyan"
READING = "reverse"
HEADING = "bold"
DIM = "fg:ansibrightblack"
MINE = "bold fg:ansigreen"

HELP = ("Everyone chooses at once. Each turn: plant a card of your hand in your garden "
        "and pass one card to each neighbour (one neighbour, or McGregor: pass two); then "
        "you get the cards passed to you and draw back to six. Every third turn ends a "
        "round: the cards planted in it score their round ability (r). In round 4 plant "
        "three of your last five; then every game ability (e) scores. Symbols: G R B Y P "
        "plants, W Rosa alba (any colour), and each other card's stone (Tree Path Wall "
        "Hive Lawn Feat). 1/G: 1 point per green symbol; nb: a neighbour's garden; >=: at "
        "least as many as.")
COOPERATIVE_HELP = " Cooperative: the team adds its scores and aims for a medal."
SHOW_HELP = (" Garden Show: three games, scores carry over; a ribbon of yours is worth "
             f"{RIBBON_POINTS} if your garden has strictly the most of its symbol.")
COMPOST_HELP = (" Compost: each turn you may also compost a card and draw one more.")


# -- cards in a few characters ------------------------------------------------------------------


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


def abilities_short(ident: int) -> str:
    """``r1/G e4/G-Path``: the end-of-round ability after ``r``, the end-of-game after ``e``."""
    c = card(ident)
    parts = []
    if c.eor is not None:
        parts.append("r" + ability_short(c.eor))
    if c.eog is not None:
        parts.append("e" + ability_short(c.eog))
    return " ".join(parts)


def symbols_text(ident: int) -> str:
    """A card's symbols as plain text: ``"Tree G3"``."""
    return "".join(f[1] for f in symbols_of(ident))


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns (an ellipsis shows the cut), padded to it."""
    if width <= 0:
        return ""
    if len(text) > width:
        text = text[: width - 1] + "…"
    return text.ljust(width)


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


def short_name(ident: int, width: int = 24) -> str:
    """A card's name, cut to ``width``."""
    return fit(card(ident).name, width).rstrip()


def with_target(drawing: Drawing, target: Target, extra: str = "") -> Drawing:
    """Every fragment of ``drawing`` given ``target`` (and ``extra`` style)."""
    return [((f[0] + " " + extra).strip(), f[1], target) for f in drawing]


# -- the table ---------------------------------------------------------------------------------


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


def seat_ref(seat: int, style: str = "", capital: bool = False) -> Fragment:
    """A seat named in a drawing: ``"seat 1"``, carrying ``Target("seat", 1)`` so that a
    client that knows the players' names can show the name instead."""
    return (style, f"{'S' if capital else 's'}eat {seat}", Target(SEAT, seat))


def garden_name(view: View, garden: int, style: str = "") -> Drawing:
    """``You``, ``Seat 1 (your left)``, ``Seat 1 (your neighbour)``, ``McGregor``."""
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
    out = [seat_ref(garden, style, capital=True)]
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


def scored(view: View, rnd: int) -> bool:
    """True once round ``rnd`` (1-4) of this game has been scored."""
    return view.turn >= (OVER if rnd == ROUNDS else CARDS_PER_ROUND * rnd)


def turn_words(view: View) -> str:
    """``"Round 2 of 4, turn 2 of 3"``, ``"Final round"``, ``"Game over"``."""
    if view.turn >= OVER:
        return "Game over"
    if view.turn == FINAL:
        return "Final round"
    return f"Round {view.round} of 4, turn {view.turn % CARDS_PER_ROUND + 1} of 3"


class FlourishUI(GameUI):
    """Flourish's face in the seat client (see the module docstring)."""

    game = GAME
    parts = (Part("gardens", BOARD), Part("hand", HAND))
    forms = {
        "turn": Form((PLAY, LEFT, RIGHT, COMPOST), TURN_LABEL),
        "final": Form((THREE,), "plant three cards"),
    }
    help = HELP

    def __init__(self, ruleset: Ruleset | None = None) -> None:
        super().__init__(GAME)
        names = ruleset.variant_names if ruleset is not None else ()
        self.cooperative = "cooperative" in names
        self.garden_show = "garden-show" in names
        self.compost = "compost" in names
        self._ext = ruleset.ext if ruleset is not None else None
        self.help = (HELP + (COOPERATIVE_HELP if self.cooperative else "")
                     + (SHOW_HELP if self.garden_show else "")
                     + (COMPOST_HELP if self.compost else ""))

    # -- forms -------------------------------------------------------------------------------

    def declared(self, kind: str, names: Collection[str]) -> Form | None:
        """``turn`` with the arguments this table's turns have: ``left``/``right`` with two
        neighbours, ``passed`` with one (or McGregor), ``compost`` when it is allowed."""
        if kind != "turn":
            return self.forms.get(kind)
        steps: list[Choose | ChooseMany] = [PLAY]
        if "passed" in names:
            steps.append(PASSED)
        else:
            steps += [LEFT, RIGHT]
        if "compost" in names:
            steps.append(COMPOST)
        return Form(tuple(steps), TURN_LABEL)

    # -- medals ------------------------------------------------------------------------------

    def medal_raise(self, players: int) -> int:
        """How far the table's variants raise the medal thresholds (Compost: 5 a player)."""
        if self._ext is None:
            return 0
        try:
            answers = self._ext.flourish_medal_raise(players=players)
        except Exception:  # no such hook on a table of another game: no raise
            return 0
        return sum(r for r in answers if r)

    def medals(self, view: View) -> tuple[tuple[str, int], ...]:
        """The medal thresholds at this table: the team's (cooperative) or your margin's
        over McGregor (solo); () when there are none."""
        up = self.medal_raise(view.players)
        if view.solo:
            return raised(SOLO_GRADES, up)
        if self.cooperative and view.players in MEDALS:
            return medals(view.players, up)
        return ()

    # -- drawing -----------------------------------------------------------------------------

    def draw(self, part: str, ctx: DrawContext) -> Drawing | None:
        """The table's state line, every garden, or your hand."""
        view: View = ctx.view
        if part == "gardens":
            return [*self.draw_table(view, ctx.width), ("", "\n"),
                    *self.draw_gardens(view, ctx.width, ctx.reading, ctx.partial)]
        if part == "hand":
            return self.draw_hand(view, ctx.width, ctx.partial, ctx.reading)
        return None

    def draw_table(self, view: View, width: int) -> Drawing:
        """Where the game stands (the match's game, round and turn, the piles), then how
        the variant stands (`variant_pieces`), each flowed into ``width`` columns."""
        head: list[Drawing] = []
        if view.games > 1:
            head.append([(HEADING, f"Game {view.game + 1} of {view.games}")])
        head.append([(HEADING, turn_words(view))])
        head.append([(DIM, f"deck {view.deck_count}")])
        if view.compost:
            head.append([(DIM, f"compost {view.compost_count}")])
        out = flow(head, width)
        more = self.variant_pieces(view)
        if more:
            out += [("", "\n"), *flow(more, width)]
        return out

    def variant_pieces(self, view: View) -> list[Drawing]:
        """Cooperative: the team's total and the medals; solo: you, McGregor, the margin and
        the medals; Garden Show: every seat's match total."""
        totals = [sum(p) for p in view.points]
        grades = self.medals(view)
        medals = [[("", "Medals:"), *self.medal_words(self.goal(view), grades, " ")]]
        if view.solo:
            mine, his = totals[0], totals[-1]
            return [[("", f"You {mine} - McGregor {his} = "), (HEADING, f"{mine - his:+d}")],
                    *(medals if grades else [])]
        if self.cooperative:
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

    def goal(self, view: View) -> int:
        """What the medals are won with: the team's total, or your margin over McGregor."""
        totals = [sum(p) for p in view.points]
        if view.solo:
            return totals[0] - totals[-1]
        return sum(totals[:view.players])

    @staticmethod
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

    def draw_gardens(self, view: View, width: int, reading: Target | None,
                     partial: Any = None) -> Drawing:
        """Every garden: a heading with its points, then a row of cards per round; the
        garden you are passing a card to comes first while you choose that card."""
        out: Drawing = []
        cell = max(12, min(26, (width - 3 - 2) // 3))
        for n, garden in enumerate(garden_order(view, passing_to(view, partial))):
            if n:
                out.append(("", "\n"))
            out += self.garden_heading(view, garden)
            cards = view.gardens[garden]
            if not cards:
                out.append((DIM, "\n   (nothing planted yet)"))
            for rnd in range(1, ROUNDS + 1):
                row = cards[(rnd - 1) * CARDS_PER_ROUND: rnd * CARDS_PER_ROUND]
                if row:
                    out += self.garden_row(view, garden, rnd, row, cell, reading)
        return out

    def garden_heading(self, view: View, garden: int) -> Drawing:
        """``You (seat 0) · 23 points (end of game 9)``, and the Garden Show's ribbons."""
        points = view.points[garden]
        total = sum(points)
        style = MINE if garden == view.seat else HEADING
        out: Drawing = [*garden_name(view, garden, style),
                        ("", f" · {total} point{'' if total == 1 else 's'}")]
        if view.turn >= OVER:
            out.append((DIM, f" (end of game {points[ROUNDS]})"))
        if view.solo and garden == view.players and view.turn < OVER:
            out.append((DIM, f" · his deck {view.mcg_count}"))
        if self.garden_show and garden < len(view.extras):
            held = view.extras[garden]
            if isinstance(held, tuple) and held:
                words = [KINDS[k].capitalize() + (" (won)" if won else "")
                         for k, won in held]
                out.append((DIM, "\n  ribbons: " + ", ".join(words)))
        return out

    def garden_row(self, view: View, garden: int, rnd: int, row: Sequence[int], cell: int,
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
            head = [*symbols_of(ident), ("", " " + card(ident).name)]
            top += gap + with_target(fit_drawing(head, cell), target, extra)
            bottom += gap + with_target([("", fit(abilities_short(ident), cell))], target,
                                        extra)
        return top + bottom

    def draw_hand(self, view: View, width: int, partial: Any, reading: Target | None,
                  ) -> Drawing:
        """Your cards, numbered for the keys, each with its part in the turn being composed
        (or where it came from); then what you passed last turn."""
        if view.turn >= OVER:
            return [(DIM, "Your hand is empty: the game is over.")]
        roles = card_roles(partial)
        came = arrivals(view)
        tags = {c: roles.get(c) or came.get(c, "") for c in view.hand}
        tag_w = max(7, *(len(t) for t in tags.values()))
        name_w = max(8, min(24, width - 2 - 7 - 1 - 1 - 15 - 1 - tag_w))
        out: Drawing = [(HEADING, "Your hand"), (DIM, f" ({len(view.hand)} cards)")]
        for n, ident in enumerate(view.hand, 1):
            target = Target(CARD, ident)
            extra = READING if target == reading else ""
            line: Drawing = [("", f"{n} "), *fit_drawing(symbols_of(ident), 7),
                             ("", " " + fit(card(ident).name, name_w)),
                             ("", " " + fit(abilities_short(ident), 15))]
            out.append(("", "\n"))
            out += with_target(line, target, extra)
            if tags[ident]:
                out.append((MINE if ident in roles else DIM, " " + tags[ident]))
        passed = passed_line(view, width)
        if passed:
            out += [("", "\n"), (DIM, passed)]
        return out

    # -- words -------------------------------------------------------------------------------

    def score_columns(self, view: Any) -> Sequence[Column]:
        """Each round's points and the total (the end-of-game points count in the total; the
        gardens' headings show them apart); in a Garden Show, this game's total, the ribbon
        points and the match total instead."""
        v: View = view
        seats = range(v.players)
        if v.games > 1:
            game = tuple(sum(v.points[s]) for s in seats)
            bonus = ribbon_points(v)
            match = match_totals(v)
            return [Column("Game", game), Column("Rib", bonus), Column("Match", match, "bold")]
        columns = [Column(f"R{r}", tuple(v.points[s][r - 1] for s in seats))
                   for r in range(1, ROUNDS + 1)]
        columns.append(Column("Tot", tuple(sum(v.points[s]) for s in seats), "bold"))
        return columns

    def preview(self, view: Any, seat: int, action: Action) -> str | None:
        """The turn in words: what is planted, passed to whom, composted or discarded."""
        v: View = view
        args = dict(action.args)
        if action.kind == "final":
            play = cards_of(args.get("play"))
            rest = [c for c in v.hand if c not in play]
            return f"Plant {names(play)}, discard {names(rest)}"
        if action.kind != "turn":
            return None
        words = f"Plant {names(cards_of(args.get('play')))}"
        if "passed" in args:
            to = "McGregor" if v.solo else "your neighbour"
            words += f", give {names(cards_of(args['passed']))} to {to}"
        else:
            words += (f", pass {names(cards_of(args.get('left')))} left and "
                      f"{names(cards_of(args.get('right')))} right")
        if "compost" in args:
            words += f", compost {names(cards_of(args['compost']))}"
        return words

    def prompt(self, view: Any, seat: int) -> str | None:
        """What this turn asks of you, naming who your passes go to."""
        v: View = view
        if v.turn == FINAL:
            return "Final round: Space marks the 3 cards to plant; the other 2 are discarded."
        if v.turn >= OVER:
            return None
        head = f"Round {v.round}, turn {v.turn % CARDS_PER_ROUND + 1}: "
        if v.solo:
            give, short = "give McGregor two (Space marks them)", "give McGregor two (Space)"
        elif v.players == 2:
            give, short = "give your neighbour two (Space marks them)", "pass two (Space)"
        else:
            give, short = "pass one left and one right", "pass left, pass right"
        if v.compost:
            return head + f"plant, {short}, then compost one or none."
        return head + f"plant a card, {'then ' if v.players < 3 else ''}{give}."

    def target_text(self, target: Target) -> str:
        """A card by name."""
        if target.role in (CARD, PLANTED) and isinstance(target.value, int):
            return short_name(target.value, 16)
        return super().target_text(target)

    def details(self, view: Any, seat: int, target: Target) -> str | None:
        """A card in full: name, type, symbols, each ability in words, and where it is."""
        if target.role not in (CARD, PLANTED) or not isinstance(target.value, int):
            return None
        v: View = view
        ident = target.value
        text = card_words(ident, one_neighbour=len(v.gardens) == 2)
        for where in (place_words(v, ident), place_words(v, ident, points=False)):
            if where and fits(f"{text} {where}"):
                return f"{text} {where}"
        return text


# -- helpers on views ----------------------------------------------------------------------


def cards_of(value: object) -> tuple[int, ...]:
    """The card ids an action's argument names: one card, or a tuple of them."""
    if isinstance(value, int):
        return (value,)
    if isinstance(value, tuple):
        return tuple(v for v in value if isinstance(v, int))
    return ()


def names(cards: Sequence[int]) -> str:
    """``"Oak, Skep and Statue"`` (long names cut)."""
    words = [short_name(c, 14) for c in cards]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def card_roles(partial: Any) -> dict[int, str]:
    """Each hand card's part in the turn being composed: ``plant``, ``→ left``, ..."""
    roles: dict[int, str] = {}
    args = dict(partial or {})
    for name, word in (("left", "→ left"), ("right", "→ right"), ("compost", "compost")):
        value = args.get(name)
        if isinstance(value, int):
            roles[value] = word
    passed = args.get("passed")
    if isinstance(passed, tuple):
        roles.update({c: "→ pass" for c in passed if isinstance(c, int)})
    play = args.get("play")
    if isinstance(play, int):
        roles[play] = "plant"
    elif isinstance(play, tuple):
        roles.update({c: "plant" for c in play if isinstance(c, int)})
    return roles


def arrivals(view: View) -> dict[int, str]:
    """The cards of your hand that arrived last turn and where from: ``"← left"`` (your
    left neighbour), ``"← right"``, ``"← passed"`` (your only neighbour), ``"← McGregor"``
    (his deck), ``"drawn"``."""
    came: dict[int, str] = {}
    for ident, zone in view.last.received:
        if zone == MCG:
            came[ident] = "← McGregor"
        elif view.players == 2:
            came[ident] = "← passed"
        else:
            came[ident] = "← left" if zone == left_of(view.seat, view.players) else "← right"
    for ident in view.last.drawn:
        came[ident] = "drawn"
    return {c: w for c, w in came.items() if c in view.hand}


def passed_line(view: View, width: int = 80) -> str:
    """What you passed last turn, in ``width`` columns: ``"You passed Oak left, Skep
    right"``, ``"You gave away Oak, Skep"`` (one neighbour, or McGregor); ``""`` before
    the first pass."""
    passed = view.last.passed
    if not passed:
        return ""
    if view.solo or len(view.gardens) == 2:
        head = "You gave McGregor " if view.solo else "You gave away "
        room = max(6, (width - len(head) - 2) // 2)
        return head + ", ".join(short_name(c, room) for c, _ in passed)
    head = "You passed "
    room = max(6, (width - len(head) - len(" left, ") - len(" right")) // 2)
    left, right = passed[0][0], passed[1][0]
    return f"{head}{short_name(left, room)} left, {short_name(right, room)} right"


def ribbon_points(view: View) -> tuple[int, ...]:
    """Each seat's ribbon points so far (the Garden Show)."""
    done = view.history[: view.game + (1 if view.turn >= OVER else 0)]
    return tuple(sum(r.bonus[s] if s < len(r.bonus) else 0 for r in done)
                 for s in range(view.players))


def match_totals(view: View) -> tuple[int, ...]:
    """Each seat's running total over the match: finished games (ribbons included) and
    this game's points so far."""
    earlier = [game_totals(r) for r in view.history[: view.game]]
    now = [sum(view.points[s]) for s in range(view.players)]
    if view.turn >= OVER and len(view.history) > view.game:
        now = list(game_totals(view.history[view.game])[: view.players])
    return tuple(now[s] + sum(t[s] for t in earlier) for s in range(view.players))


def card_words(ident: int, *, one_neighbour: bool = False) -> str:
    """A card in full: ``"Oak (C43): tree, G3. End of round: 1 point for each ... ."``."""
    c = card(ident)
    symbols = symbols_text(ident) if c.kind == PLANT else " ".join(
        symbols_text(ident).split(" ")[1:])
    kind = kind_name(ident).lower()
    head = f"{c.name} ({c.code}): {kind}" + (f", {symbols}" if symbols else "") + "."
    lines = [head]
    if c.eor is not None:
        lines.append(f"End of round: {ability_text(c.eor)}.")
    if c.eog is not None:
        lines.append(f"End of game: {ability_text(c.eog)}.")
    if (one_neighbour and c.kind == PATH
            and any(a is not None and a.scope in (ONE_NB, BOTH_NB) for a in (c.eor, c.eog))):
        lines.append("With one neighbour: your garden and theirs together.")
    if c.white:
        lines.append("W: one symbol of any colour, the best for each ability.")
    return " ".join(lines)


def fits(text: str) -> bool:
    """True when ``text`` wraps to at most `DETAILS_LINES` lines of `DETAILS_WIDTH`."""
    if len(text) <= (DETAILS_WIDTH - 16) * DETAILS_LINES:  # no word is longer than 16
        return True
    return len(textwrap.wrap(text, DETAILS_WIDTH)) <= DETAILS_LINES


def place_words(view: View, ident: int, *, points: bool = True) -> str:
    """Where a card is and (with ``points``) what it has scored: ``"In your hand."``,
    ``"Seat 1's garden, round 2: scored 5; 4 at game end so far."``."""
    if ident in view.hand:
        return "In your hand."
    for garden, cards in enumerate(view.gardens):
        if ident not in cards:
            continue
        index = cards.index(ident)
        rnd = index // CARDS_PER_ROUND + 1
        if view.solo and garden == view.players:
            owner = "McGregor's garden"
        elif garden == view.seat:
            owner = "Your garden"
        else:
            owner = f"Seat {garden}'s garden"
        eor, eog = card_points(view.gardens, garden, index) if points else (None, None)
        scores = []
        if eor is not None:
            scores.append(f"scored {eor}")
        if eog is not None:
            scores.append(f"{eog} at game end" + ("" if view.turn >= OVER else " so far"))
        return f"{owner}, round {rnd}" + (": " + "; ".join(scores) if scores else "") + "."
    return ""


def ui_for(ruleset: Ruleset | None) -> FlourishUI:
    """The UI object for a table with ``ruleset`` (its variants)."""
    return FlourishUI(ruleset)

