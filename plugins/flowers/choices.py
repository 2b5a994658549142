"""The actions of FLOWERS and the ones a seat may take now (``GameDef.legal_actions``).

A turn takes one card from a stack and plants it (rules §4).  How that is split into
actions follows what the player can see (OUR DECISION):

* ``plant(stack, x, y)``: plant the card of stack ``stack`` (0 = A, 1 = B, 2 = C) at
  ``(x, y)`` of your own garden: on an empty cell that shares a side with one of your
  cards, or on top of one of them.  From a face-up stack this is the whole turn: the card is
  in view, so taking it and choosing its place are one decision.
* ``take(stack)``: take the top card of the face-down stack.  You see it only now, so you
  choose where it goes afterwards, with ``plant(stack, x, y)`` naming that same stack.

Why not one action for every turn: a combined action from the face-down stack would make
you choose the place blind, which the rules do not.  Why not always two: from a face-up
stack the second decision adds nothing but a step, doubles the decisions of a game (a
searching bot's plies, the log, the per-move cost) and gains nothing.  The lists stay
short: at the start of a turn one planting per (face-up stack, target cell) then one take,
about 40 with 3 stacks; after a take, one planting per target cell.  A preview is simple:
every planting names a card in view (the face-up top, or the card just taken).

The actions are built once and reused (a cache by stack and cell), and `TurnChoices` is a
read-only sequence over the target cells that makes an action only when asked for (a random
pick costs one index).  Order: by stack, then by cell (``x`` then ``y``), the take last.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hedgerow.core import Action
from hedgerow.core.lazyactions import LazyActions
from hedgerow.plugins.flowers.garden import Cell, cell, inside, key
from hedgerow.plugins.flowers.state import PLANT, TAKE, State

#: ``take(stack=i)`` for each stack index.
TAKES: tuple[Action, ...] = tuple(Action("take", (("stack", i),)) for i in range(3))
_PLANTS: tuple[dict[int, Action], ...] = ({}, {}, {})  # per stack: cell key -> action


def take_action(stack: int) -> Action:
    """``take(stack)``."""
    return TAKES[stack] if 0 <= stack < len(TAKES) else Action("take", (("stack", stack),))


def planting(stack: int, k: int) -> Action:
    """``plant(stack, x, y)`` for cell key ``k`` (one shared object per stack and cell)."""
    cache = _PLANTS[stack]
    action = cache.get(k)
    if action is None:
        x, y = cell(k)
        action = cache[k] = Action("plant", (("stack", stack), ("x", x), ("y", y)))
    return action


def plant_action(stack: int, x: int, y: int) -> Action:
    """``plant(stack, x, y)``."""
    if 0 <= stack < len(_PLANTS) and inside(x, y):
        return planting(stack, key(x, y))
    return Action("plant", (("stack", stack), ("x", x), ("y", y)))


def take_args(action: Action) -> int | None:
    """The stack of a well-formed ``take`` action, else None."""
    args = action.args
    if len(args) == 1 and args[0][0] == "stack" and type(args[0][1]) is int:
        return args[0][1]
    return None


def plant_args(action: Action) -> tuple[int, Cell] | None:
    """The stack and cell of a well-formed ``plant`` action, else None."""
    args = action.args
    if len(args) != 3:
        return None
    (ks, stack), (kx, x), (ky, y) = args
    if (ks == "stack" and kx == "x" and ky == "y" and type(stack) is int and type(x) is int
            and type(y) is int):
        return stack, (x, y)
    return None


class TurnChoices(LazyActions):
    """``plant(stack, x, y)`` for each of ``stacks`` and each target cell key, in that
    order, then ``last`` (the take of the face-down stack, when it is offered)."""

    __slots__ = ("_keys", "_last", "_size", "_stacks")

    def __init__(self, stacks: tuple[int, ...], keys: tuple[int, ...],
                 last: tuple[Action, ...] = ()) -> None:
        self._stacks = stacks
        self._keys = keys
        self._last = last
        self._size = len(stacks) * len(keys) + len(last)

    def __len__(self) -> int:
        return self._size

    def _at(self, index: int) -> Action:
        keys = self._keys
        n = len(keys)
        if index < self._size - len(self._last):
            if len(self._stacks) == 1:
                return planting(self._stacks[0], keys[index])
            s, i = divmod(index, n)
            return planting(self._stacks[s], keys[i])
        return self._last[index - (self._size - len(self._last))]

    def __iter__(self) -> Iterator[Action]:
        for stack in self._stacks:
            for k in self._keys:
                yield planting(stack, k)
        yield from self._last

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        if action.kind != "plant":
            return action in self._last
        found = plant_args(action)
        if found is None:
            return False
        stack, (x, y) = found
        return stack in self._stacks and inside(x, y) and key(x, y) in self._keys


#: The face-up stacks when every one of ``n`` stacks has a card (all but the last).
_UP: tuple[tuple[int, ...], ...] = tuple(tuple(range(n - 1)) for n in range(4))


def legal_actions(state: State, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may take now, in a fixed order; empty when it is not its turn."""
    if seat != state.active:
        return ()
    phase = state.phase
    if phase == TAKE:
        stacks = state.stacks
        down = len(stacks) - 1
        if all(stacks):
            return TurnChoices(_UP[len(stacks)], state.targets[seat], (TAKES[down],))
        return TurnChoices(tuple(i for i in range(down) if stacks[i]), state.targets[seat],
                           (TAKES[down],) if stacks[down] else ())
    if phase == PLANT:
        return TurnChoices((state.source,), state.targets[seat])
    return ()
