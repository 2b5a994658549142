"""The actions of FLOWERS and the ones a seat may take now (``GameDef.legal_actions``).

A turn is two actions by the same seat (OUR DECISION, rules §4):

* ``take(stack)``: take the top card of stack ``stack`` (0 = A, 1 = B, 2 = C);
* ``plant(x, y)``: plant the card taken at ``(x, y)`` of your own garden, on an empty cell
  that shares a side with a card, or on top of a card.

Why two and not one ``take-and-plant``: the face-down stack's card is seen only once it is
taken, and the rules let you choose where it goes after seeing it; one combined action
would make you choose blind.  Two actions also keep the lists short (2 or 3 takes, then one
planting per target cell, about 15-40, instead of their product) and make a preview simple
(the card being planted is known).

The actions are built once and reused: `TAKES` for the takes, a cache by cell for the
plantings, and `PlantChoices`, a read-only sequence over a garden's sorted targets that
makes nothing until asked (a random pick costs one index).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from hedgerow.core import Action
from hedgerow.plugins.flowers.garden import Cell, cell, inside, key
from hedgerow.plugins.flowers.state import PLANT, TAKE, State

#: ``take(stack=i)`` for each stack index.
TAKES: tuple[Action, ...] = tuple(Action("take", (("stack", i),)) for i in range(3))
#: The takes when every one of ``n`` stacks has a card.
ALL_TAKES: tuple[tuple[Action, ...], ...] = tuple(TAKES[:n] for n in range(4))
_PLANTS: dict[int, Action] = {}  # cell key -> plant action, made once


def take_action(stack: int) -> Action:
    """``take(stack)``."""
    return TAKES[stack] if 0 <= stack < len(TAKES) else Action("take", (("stack", stack),))


def planting(k: int) -> Action:
    """The ``plant`` action for cell key ``k`` (one shared object per cell)."""
    action = _PLANTS.get(k)
    if action is None:
        x, y = cell(k)
        action = _PLANTS[k] = Action("plant", (("x", x), ("y", y)))
    return action


def plant_action(x: int, y: int) -> Action:
    """``plant(x, y)``."""
    return planting(key(x, y))


def take_args(action: Action) -> int | None:
    """The stack of a well-formed ``take`` action, else None."""
    args = action.args
    if len(args) == 1 and args[0][0] == "stack" and type(args[0][1]) is int:
        return args[0][1]
    return None


def plant_args(action: Action) -> Cell | None:
    """The cell of a well-formed ``plant`` action, else None."""
    args = action.args
    if len(args) != 2:
        return None
    (kx, x), (ky, y) = args
    if kx == "x" and ky == "y" and type(x) is int and type(y) is int:
        return x, y
    return None


class PlantChoices(Sequence[Action]):
    """Every ``plant`` action for a garden's sorted target cell keys, made when asked for."""

    __slots__ = ("_keys",)
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, keys: tuple[int, ...]) -> None:
        self._keys = keys

    def __len__(self) -> int:
        return len(self._keys)

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [planting(k) for k in self._keys[index]]
        return planting(self._keys[index])

    def __iter__(self) -> Iterator[Action]:
        for k in self._keys:
            yield planting(k)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action) or action.kind != "plant":
            return False
        where = plant_args(action)
        return where is not None and inside(*where) and key(*where) in self._keys

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __repr__(self) -> str:
        return f"<PlantChoices of {len(self)} actions>"


def legal_actions(state: State, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may take now, in a fixed order; empty when it is not its turn.

    Takes in stack order (every stack that still has a card), or plantings in cell order.
    """
    if seat != state.active:
        return ()
    phase = state.phase
    if phase == TAKE:
        stacks = state.stacks
        if all(stacks):
            return ALL_TAKES[len(stacks)]
        return tuple(TAKES[i] for i, s in enumerate(stacks) if s)
    if phase == PLANT:
        return PlantChoices(state.targets[seat])
    return ()
