"""The actions a seat may take now, as lazy sequences (``GameDef.legal_actions``).

A turn offers every (card in hand, frontier cell, rotation), often several hundred actions.
Building them all would cost more than the rest of the turn, so `PlaceChoices` and
`MoveChoices` are read-only sequences that know their length and make an `Action` only when
one is asked for.  They compare equal to any sequence with the same actions in the same
order, and ``in`` is answered without listing anything.

Action kinds and arguments (all ints):

* ``place(card, x, y, rot)``: play ``card`` from your hand at ``(x, y)``, ``rot`` quarter turns;
* ``score()``: after a different-symbols trigger, score the card just played;
* ``move(from_x, from_y, to_x, to_y, rot)``: move a garden card (effect), then score it;
* ``decline()``: after an identical-symbols trigger, move nothing.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import cast

from hedgerow.core import Action
from hedgerow.core.lazyactions import LazyActions
from hedgerow.core.sealed import Known, Sealed
from hedgerow.plugins.petals.geometry import Cell
from hedgerow.plugins.petals.legality import PlanEntry, move_plan, plan_dests
from hedgerow.plugins.petals.state import State

SCORE = Action.of("score")
DECLINE = Action.of("decline")
PLACE_ARGS = ("card", "rot", "x", "y")
MOVE_ARGS = ("from_x", "from_y", "rot", "to_x", "to_y")


def place_action(card: int, x: int, y: int, rot: int) -> Action:
    """``place(card, x, y, rot)``."""
    return Action("place", (("card", card), ("rot", rot), ("x", x), ("y", y)))


def move_action(src: Cell, dst: Cell, rot: int) -> Action:
    """``move(from_x, from_y, to_x, to_y, rot)``."""
    return Action("move", (("from_x", src[0]), ("from_y", src[1]), ("rot", rot),
                           ("to_x", dst[0]), ("to_y", dst[1])))


def int_args(action: Action, names: tuple[str, ...]) -> tuple[int, ...] | None:
    """The values of ``action``'s arguments when they are exactly ``names``, all ints."""
    args = action.args
    if len(args) != len(names):
        return None
    values: list[int] = []
    for (key, value), name in zip(args, names, strict=True):
        if key != name or type(value) is not int:
            return None
        values.append(value)
    return tuple(values)


def place_args(action: Action) -> tuple[int, int, int, int] | None:
    """``(card, rot, x, y)`` of a well-formed ``place`` action, else None (the fast path of
    ``int_args(action, PLACE_ARGS)``, taken on every turn).  At a sealed table the card may
    be a `Sealed` token: the card the seat shows as it places it; or, in a seat's own legal
    actions, a `Known` face (what a bot plays on its sampled states)."""
    args = action.args
    if len(args) != 4:
        return None
    (k0, card), (k1, rot), (k2, x), (k3, y) = args
    if (k0 == "card" and k1 == "rot" and k2 == "x" and k3 == "y"
            and (type(card) is int or type(card) is Sealed or type(card) is Known)
            and type(rot) is int and type(x) is int and type(y) is int):
        # A sealed card stands for a card id: the rules move it, and reading it shows it.
        return cast(int, card), rot, x, y
    return None


class PlaceChoices(LazyActions):
    """Every ``place`` action: card (hand order) x cell (frontier order) x rotation 0-3."""

    __slots__ = ("_cards", "_cells", "_span")

    def __init__(self, cards: tuple[int, ...], cells: tuple[Cell, ...]) -> None:
        self._cards = cards
        self._cells = cells
        self._span = 4 * len(cells)

    def __len__(self) -> int:
        return len(self._cards) * self._span

    def _at(self, index: int) -> Action:
        card, rest = divmod(index, self._span)
        x, y = self._cells[rest >> 2]
        return place_action(self._cards[card], x, y, rest & 3)

    def __iter__(self) -> Iterator[Action]:
        for card in self._cards:
            for x, y in self._cells:
                for rot in range(4):
                    yield place_action(card, x, y, rot)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action) or action.kind != "place":
            return False
        values = place_args(action)
        if values is None:
            return False
        card, rot, x, y = values
        return card in self._cards and 0 <= rot <= 3 and (x, y) in self._cells


class MoveChoices(LazyActions):
    """The choices of a symbol effect: ``first`` actions, then every move, then ``last``.

    The moves are a `move_plan`: each source card with how many destinations it has, so
    that the length is known at once and a card's destinations are listed only when one of
    its moves is asked for (a random pick lists one card's, not every card's)."""

    __slots__ = ("_dests", "_ends", "_first", "_frontier", "_last", "_plan", "_size")

    def __init__(self, plan: tuple[PlanEntry, ...], frontier: tuple[Cell, ...],
                 first: tuple[Action, ...] = (), last: tuple[Action, ...] = ()) -> None:
        self._plan = plan
        self._frontier = frontier
        self._first = first
        self._last = last
        self._dests: dict[int, tuple[Cell, ...]] = {}
        ends, total = [], 0
        for entry in plan:
            total += 4 * entry[1]
            ends.append(total)
        self._ends = tuple(ends)
        self._size = len(first) + total + len(last)

    def __len__(self) -> int:
        return self._size

    def _dests_of(self, which: int) -> tuple[Cell, ...]:
        dests = self._dests.get(which)
        if dests is None:
            dests = self._dests[which] = plan_dests(self._frontier, self._plan[which])
        return dests

    def _at(self, index: int) -> Action:
        if index < len(self._first):
            return self._first[index]
        index -= len(self._first)
        moves = self._ends[-1] if self._ends else 0
        if index >= moves:
            return self._last[index - moves]
        which = bisect_right(self._ends, index)
        dst, rot = divmod(index - (self._ends[which - 1] if which else 0), 4)
        return move_action(self._plan[which][0], self._dests_of(which)[dst], rot)

    def __iter__(self) -> Iterator[Action]:
        yield from self._first
        for which, entry in enumerate(self._plan):
            src = entry[0]
            for dst in self._dests_of(which):
                for rot in range(4):
                    yield move_action(src, dst, rot)
        yield from self._last

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        if action in self._first or action in self._last:
            return True
        values = int_args(action, MOVE_ARGS) if action.kind == "move" else None
        if values is None:
            return False
        fx, fy, rot, tx, ty = values
        if not 0 <= rot <= 3:
            return False
        src, dst = (fx, fy), (tx, ty)
        for entry in self._plan:
            if entry[0] == src:
                dests, alone = entry[2], entry[3]
                if dests is not None:
                    return dst in dests
                return dst not in alone and dst in self._frontier
        return False


def legal_actions(state: State, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may take now, in a fixed order; empty when it is not its turn."""
    if seat != state.active:
        return ()
    pending = state.pending
    if pending is None:
        return PlaceChoices(tuple(sorted(state.hands[seat])), state.frontier)
    fringe = state.frontier
    plan = move_plan(state.garden, fringe, pending.triggers)
    if pending.kind == "different":
        return MoveChoices(plan, fringe, first=(SCORE,))
    return MoveChoices(plan, fringe, last=(DECLINE,))
