"""Applying one action (``GameDef.apply``): take a card, plant it, end the turn or the game.

A turn (rules §4, §5) is ``take`` then ``plant`` by the same seat (see `choices`).  After
the planting:

* with 2-4 players, the game is over when a stack is empty (the take emptied it; no one
  gets an extra turn), else play passes to the next seat;
* alone, the game is over when a stack is empty; otherwise the top card of the face-up
  stack A is discarded (even when the card planted came from A), and the game is over if
  that emptied A (OUR DECISION, rules §5: end checks after the plant and after the discard).

Taking from a face-up stack turns its next card face up by itself: the top of a face-up
stack is always visible.  Planting legality reads the table's ``coverable`` table, built
once from the ``flowers_coverable`` hook (in Summer the purple card may not be covered):
`make_apply` binds it, so the per-move path calls no hook.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hedgerow.core import Action, Refusal
from hedgerow.plugins.flowers.cards import card_text
from hedgerow.plugins.flowers.choices import plant_args, take_args
from hedgerow.plugins.flowers.garden import LIMIT, OFFSET, STRIDE, grow_targets, inside, key
from hedgerow.plugins.flowers.setup import stack_name
from hedgerow.plugins.flowers.state import NOBODY, OVER, PLANT, TAKE, State

Apply = Callable[[State, int, Action], "State | Refusal"]


def _refuse(code: str, message: str) -> Refusal:
    return Refusal(f"flowers.{code}", message)


_new = tuple.__new__  # State(...) without the named-argument layer: the hot path's one cost


def make_apply(coverable: Sequence[bool]) -> Apply:
    """``apply(state, seat, action)`` for a table whose coverable cards are ``coverable``.

    The two legal cases (a take in the take phase, a planting in the plant phase) are
    written out in the closure, with the state read and built positionally (`State` field
    order); everything else goes to `_refusal`.  This is the per-move path: every name it
    reads is a local.
    """
    limit, offset, stride, grow = LIMIT, OFFSET, STRIDE, grow_targets

    def apply(state: State, seat: int, action: Action) -> State | Refusal:
        """The state after ``seat`` takes ``action``, or why it may not."""
        players, gardens, targets, stacks, active, phase, card, source, discards, box, _ = state
        args = action.args
        if seat != active or action.kind != phase:
            return _refusal(state, seat, action, coverable)
        if phase == TAKE:  # take(stack)
            if len(args) != 1:
                return _refusal(state, seat, action, coverable)
            ((name, index),) = args
            if name != "stack" or type(index) is not int or not 0 <= index < len(stacks):
                return _refusal(state, seat, action, coverable)
            stack = stacks[index]
            if not stack:
                return _refusal(state, seat, action, coverable)
            left = list(stacks)
            left[index] = stack[:-1]
            return _new(State, (players, gardens, targets, tuple(left), seat, PLANT, stack[-1],
                                index, discards, box, ()))
        if phase != PLANT or len(args) != 2:  # plant(x, y)
            return _refusal(state, seat, action, coverable)
        (kx, x), (ky, y) = args
        if (kx != "x" or ky != "y" or type(x) is not int or type(y) is not int
                or not (-limit <= x <= limit and -limit <= y <= limit)):
            return _refusal(state, seat, action, coverable)
        k = (x + offset) * stride + y + offset
        garden = gardens[seat]
        below = garden.get(k)
        if below is None:
            if not (k + 1 in garden or k - 1 in garden or k + stride in garden
                    or k - stride in garden):
                return _refusal(state, seat, action, coverable)
            new = garden.copy()
            new[k] = (card,)
        else:
            if not coverable[below[-1]]:
                return _refusal(state, seat, action, coverable)
            new = garden.copy()
            new[k] = (*below, card)
        plots = list(gardens)
        plots[seat] = new
        fringes = list(targets)
        fringes[seat] = grow(targets[seat], new, k, below is None, coverable[card])
        if not stacks[source]:  # the take emptied a stack: the game ends now
            active, phase = NOBODY, OVER
        elif players > 1:
            active, phase = (seat + 1 if seat + 1 < players else 0), TAKE
        else:  # solo: discard the top of A, then A's next card is face up
            face_up = stacks[0]
            discards = (*discards, face_up[-1])
            stacks = (face_up[:-1], *stacks[1:])
            active, phase = (seat, TAKE) if stacks[0] else (NOBODY, OVER)
        return _new(State, (players, tuple(plots), tuple(fringes), stacks, active, phase,
                            NOBODY, NOBODY, discards, box, ()))

    return apply


def _refusal(state: State, seat: int, action: Action, coverable: Sequence[bool]) -> Refusal:
    """Why ``action`` by ``seat`` is not legal now (the first rule it breaks)."""
    phase = state.phase
    if seat != state.active:
        if phase == OVER:
            return _refuse("game_over", "the game is over")
        return _refuse("not_your_turn", f"it is seat {state.active}'s turn, not seat {seat}'s "
                       "(rules §4: players take turns in seat order)")
    kind = action.kind
    if kind not in ("take", "plant"):
        return _refuse("unknown_action", f"FLOWERS has no action {kind!r} (it knows take and "
                       "plant)")
    if kind != phase:
        if phase == PLANT:
            return _refuse("plant_first", f"plant the {card_text(state.holding)} you took "
                           "first (rules §4: one card a turn)")
        return _refuse("take_first", "take a card first (rules §4: take a card from a stack, "
                       "then plant it)")
    if kind == "take":
        index = take_args(action)
        if index is None:
            return _refuse("bad_action", "take names one stack: take(stack=0, 1 or 2)")
        if not 0 <= index < len(state.stacks):
            return _refuse("no_stack", f"there is no stack {index} (the stacks are 0 to "
                           f"{len(state.stacks) - 1})")
        return _refuse("empty_stack", f"stack {stack_name(index)} is empty")
    where = plant_args(action)
    if where is None:
        return _refuse("bad_action", "plant names a cell of your own garden: plant(x=..., "
                       "y=...)")
    x, y = where
    below = state.gardens[seat].get(key(x, y)) if inside(x, y) else None
    if below is None:
        return _refuse("not_adjacent", f"cell ({x}, {y}) shares no side with a card of your "
                       "garden (rules §4: plant next to a card, a corner is not enough, or "
                       "on top of one)")
    return _refuse("uncoverable", f"the {card_text(below[-1])} at ({x}, {y}) may not be "
                   "covered (Summer: the purple start card stays visible)")
