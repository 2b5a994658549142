"""What the Flourish screen says, read from a seat's `View`: plain text, no drawing.

* cards: `abilities_short` (``r1/G e4/G-Path``: the end-of-round ability after ``r``, the
  end-of-game one after ``e``), `symbols_text`, `short_name` (``N. pseudonarcissus``
  where the whole name does not fit), `card_words` (a card in
  full) and `place_words` (where it is, what it has scored), `fits` (three lines of 80);
* the turn: `turn_words`, `card_roles` (each hand card's part in the turn being composed),
  `arrivals` (where last turn's new cards came from), `passed_line` (with `two_names`),
  `names`, `cards_of`;
* the scores: `scored` (is a round scored yet), `round_points_now` (what planting cards
  would score at the round's end as things stand), `ribbon_points` and `match_totals` (the
  Garden Show).

The words of the abilities themselves are `hedgerow.plugins.flourish.words`'.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from hedgerow.plugins.flourish.abilities import left_of, score
from hedgerow.plugins.flourish.cards import BOTH_NB, ONE_NB, PATH, PLANT, SYMBOL_CODES, card
from hedgerow.plugins.flourish.knowledge import MCG
from hedgerow.plugins.flourish.ranking import game_totals
from hedgerow.plugins.flourish.scoring import CARDS_PER_ROUND, ROUNDS, card_points, tallies
from hedgerow.plugins.flourish.state import FINAL, OVER, View
from hedgerow.plugins.flourish.words import (
    ability_short,
    ability_text,
    kind_name,
    symbols_short,
)

#: A card in full fits the client's message lines: three lines of an 80-column terminal.
DETAILS_WIDTH, DETAILS_LINES = 80, 3


def abilities_short(ident: int) -> str:
    """``r1/G e4/G-Path``: the end-of-round ability after ``r``, the end-of-game after ``e``."""
    c = card(ident)
    parts = []
    if c.eor is not None:
        parts.append("r" + ability_short(c.eor))
    if c.eog is not None:
        parts.append("e" + ability_short(c.eog))
    return " ".join(parts)


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns (an ellipsis shows the cut), padded to it."""
    if width <= 0:
        return ""
    if len(text) > width:
        text = text[: width - 1] + "…"
    return text.ljust(width)


#: The most columns a card's name takes in words (the longest is 25): longer, a plant's
#: name is written as botanists shorten it.
NAME_WIDTH = 24


def short_name(ident: int, width: int = NAME_WIDTH) -> str:
    """A card's name in ``width`` columns: whole when it fits; else a plant's genus as its
    initial, as botanists write it (``N. pseudonarcissus``); else cut with "…"."""
    name = card(ident).name
    if len(name) <= width:
        return name
    genus, _, species = name.partition(" ")
    if card(ident).kind == PLANT and species[:1].islower():
        name = f"{genus[0]}. {species}"
    return fit(name, width).rstrip()


def symbols_text(ident: int) -> str:
    """A card's symbols: its stone, then its plants (``"Tree G3"``, ``"G1 R1"``, ``"W1"``)."""
    stone = [SYMBOL_CODES[card(ident).kind]] if card(ident).kind != PLANT else []
    return " ".join([*stone, *symbols_short(ident).split()])


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


def round_points_now(view: View, plant: Sequence[int]) -> int | None:
    """What the end-of-round abilities of ``plant`` would score if they were planted in
    your garden and the round ended now (the other gardens as they stand); None when none
    of them has such an ability."""
    cards = [card(c) for c in plant]
    if all(c.eor is None for c in cards):
        return None
    gardens = list(view.gardens)
    gardens[view.seat] = (*gardens[view.seat], *plant)
    counts = tallies(gardens)
    return sum(score(c.eor, c.kind, view.seat, counts) for c in cards if c.eor is not None)


def cards_of(value: object) -> tuple[int, ...]:
    """The card ids an action's argument names: one card, or a tuple of them."""
    if isinstance(value, int):
        return (value,)
    if isinstance(value, tuple):
        return tuple(v for v in value if isinstance(v, int))
    return ()


def names(cards: Sequence[int]) -> str:
    """``"Oak, Skep and Statue"`` (a long plant name shortened, `short_name`)."""
    words = [short_name(c) for c in cards]
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
    """What you passed last turn, in ``width`` columns: ``"Passed Oak left, Skep right"``,
    ``"Gave away Oak, Skep"`` (one neighbour), ``"Gave McGregor Oak, Skep"``; ``""``
    before the first pass.  The names whole where they fit (`two_names`)."""
    passed = view.last.passed
    if not passed:
        return ""
    if view.solo or len(view.gardens) == 2:
        head = "Gave McGregor " if view.solo else "Gave away "
        first, second = two_names(passed[0][0], passed[1][0], width - len(head) - 2)
        return f"{head}{first}, {second}"
    head = "Passed "
    first, second = two_names(passed[0][0], passed[1][0],
                              width - len(head) - len(" left, ") - len(" right"))
    return f"{head}{first} left, {second} right"


def two_names(first: int, second: int, room: int) -> tuple[str, str]:
    """Two cards' names in ``room`` columns together: whole where they fit, else the
    longer one shortened first (`short_name`)."""
    a, b = short_name(first), short_name(second)
    if len(a) + len(b) <= room:
        return a, b
    half = max(6, room // 2)
    if len(a) <= half:
        return a, short_name(second, max(6, room - len(a)))
    if len(b) <= half:
        return short_name(first, max(6, room - len(b))), b
    return short_name(first, half), short_name(second, max(6, room - half))


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
    symbols = symbols_short(ident)
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
