"""Every FLOWERS action in plain words (``GameDef.describe``), for logs and the client.

The words are computed against the state the action applies to.  A take from the face-down
stack does not name the card (the other seats see it once it is planted).  An action that
is not legal is still described, followed by the reason it would be refused.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.core import Action, Refusal
from hedgerow.plugins.flowers.cards import card_text
from hedgerow.plugins.flowers.choices import plant_args, take_args
from hedgerow.plugins.flowers.garden import key
from hedgerow.plugins.flowers.setup import stack_name
from hedgerow.plugins.flowers.state import NOBODY, OVER, State


def describe(state: State, seat: int, action: Action,
             check: Callable[[State, int, Action], object]) -> str:
    """``action`` by ``seat`` in words; ``check`` is ``apply`` (used to find refusals and
    to say what a planting ended)."""
    who = f"Seat {seat}"
    result = check(state, seat, action)
    if isinstance(result, Refusal):
        return f"{who}: {action} (refused: {result.message})"
    assert isinstance(result, State)
    if action.kind == "take":
        index = take_args(action)
        assert index is not None
        left = len(state.stacks[index]) - 1
        name = stack_name(index)
        text = f"{who} takes the face-down card of stack {name}"
        return text + (f" ({left} left)" if left else f", emptying stack {name}")
    found = plant_args(action)
    assert found is not None
    stack, cell = found
    below = state.gardens[seat].get(key(*cell))
    if state.holding != NOBODY:  # a token equals no face: this reads no sealed card
        text = f"{who} plants {card_text(state.holding)}"
    else:
        text = f"{who} plants {card_text(state.stacks[stack][-1])} from stack {stack_name(stack)}"
    text += (f" at {cell}" if below is None else
             f" on top of {card_text(below[-1])} at {cell} (a stack of {len(below) + 1})")
    if state.players == 1 and len(result.discards) > len(state.discards):
        text += f"; {card_text(result.discards[-1])} is discarded from stack A"
    if result.phase == OVER:
        text += f"; stack {stack_name(stack)} is empty" if not result.stacks[stack] else (
            "; stack A is empty")
        text += ", so the game is over"
    return text
