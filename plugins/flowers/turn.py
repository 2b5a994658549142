"""Applying one action (``GameDef.apply``): take a card, plant it, end the turn or the game.

A turn (rules §4, §5; the actions are in `choices`) is ``plant(stack, x, y)`` from a
face-up stack, or ``take(stack)`` of the face-down stack then ``plant`` of that card.
Taking from a face-up stack turns its next card face up by itself: the top of a face-up
stack is always visible.  Once the card is planted:

* with 2-4 players, the game is over if its stack is now empty (no one gets an extra turn),
  else play passes to the next seat;
* alone, the game is over if a stack is empty; otherwise the top card of the face-up stack
  A is discarded (even when the card planted came from A), and the game is over if that
  emptied A (OUR DECISION, rules §5: end checks after the plant and after the discard).

At a sealed table (`hedgerow.core.sealedtable`) a take moves the face-down card's token
into ``holding`` unread, and a planting reads one card: the one planted (whether it may be
covered in turn), which every seat sees from then on.  A face-up top was shown to everyone
before the turn began; the card taken face down is shown by its holder with the planting.
A refusal reads no hidden card: it names the held card only where it is a face (the open
game, the holder's own peer) and says "card" elsewhere, so a bad action shows nothing.

Planting legality reads the table's ``coverable`` table, built once from the
``flowers_coverable`` hook (in Summer the purple card may not be covered): `make_apply`
binds it, so the per-move path calls no hook.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hedgerow.core import Action, Refusal
from hedgerow.core.sealed import Sealed
from hedgerow.plugins.flowers.cards import card_text
from hedgerow.plugins.flowers.choices import plant_args, take_args
from hedgerow.plugins.flowers.garden import LIMIT, OFFSET, STRIDE, grow_targets, inside, key
from hedgerow.plugins.flowers.setup import stack_name
from hedgerow.plugins.flowers.state import NOBODY, OVER, PLANT, TAKE, State

Apply = Callable[[State, int, Action], "State | Refusal"]

_new = tuple.__new__  # State(...) without the named-argument layer: the hot path's one cost


def _refuse(code: str, message: str) -> Refusal:
    return Refusal(f"flowers.{code}", message)


def make_apply(coverable: Sequence[bool]) -> Apply:
    """``apply(state, seat, action)`` for a table whose coverable cards are ``coverable``.

    The legal cases are written out in the closure, with the state read and built
    positionally (`State` field order); anything else goes to `_refusal`, which names the
    rule broken.  This is the per-move path: every name it reads is a local.
    """
    limit, offset, stride, grow = LIMIT, OFFSET, STRIDE, grow_targets

    def apply(state: State, seat: int, action: Action) -> State | Refusal:
        """The state after ``seat`` takes ``action``, or why it may not."""
        players, gardens, targets, stacks, active, phase, card, source, discards, box, _ = state
        args = action.args
        if seat != active:
            return _refusal(state, seat, action, coverable)
        kind = action.kind
        if kind != "plant":
            if kind != "take" or phase != TAKE or len(args) != 1:
                return _refusal(state, seat, action, coverable)
            ((name, index),) = args  # take(stack): the face-down stack only
            if name != "stack" or index != len(stacks) - 1 or type(index) is not int:
                return _refusal(state, seat, action, coverable)
            pile = stacks[index]
            if not pile:
                return _refusal(state, seat, action, coverable)
            return _new(State, (players, gardens, targets, (*stacks[:-1], pile[:-1]), seat,
                                PLANT, pile[-1], index, discards, box, ()))
        if len(args) != 3:  # plant(stack, x, y)
            return _refusal(state, seat, action, coverable)
        (ks, stack), (kx, x), (ky, y) = args
        if (ks != "stack" or kx != "x" or ky != "y" or type(stack) is not int
                or type(x) is not int or type(y) is not int
                or not (-limit <= x <= limit and -limit <= y <= limit)):
            return _refusal(state, seat, action, coverable)
        if phase == TAKE:  # from a face-up stack: take its top card now
            if not 0 <= stack < len(stacks) - 1 or not stacks[stack]:
                return _refusal(state, seat, action, coverable)
            pile = stacks[stack]
            card = pile[-1]
            left = list(stacks)
            left[stack] = pile[:-1]
            stacks = tuple(left)
            source = stack
        elif phase != PLANT or stack != source:
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
        if not stacks[source]:  # the card emptied its stack: the game ends now
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


def _held(state: State) -> str:
    """The card the active seat took face down, as a refusal names it: at a sealed table
    the peers that have not seen it (every peer but the holder's) say "card" rather than
    read it (a refusal shows no card)."""
    card = state.holding
    return "card" if type(card) is Sealed else card_text(card)


def _refusal(state: State, seat: int, action: Action, coverable: Sequence[bool]) -> Refusal:
    """Why ``action`` by ``seat`` is not legal now (the first rule it breaks)."""
    phase = state.phase
    if seat != state.active:
        if phase == OVER:
            return _refuse("game_over", "the game is over")
        return _refuse("not_your_turn", f"it is seat {state.active}'s turn, not seat {seat}'s "
                       "(rules §4: players take turns in seat order)")
    kind = action.kind
    down = len(state.stacks) - 1
    if kind == "take":
        index = take_args(action)
        if index is None:
            return _refuse("bad_action", "take names one stack: take(stack=...)")
        if phase == PLANT:
            return _refuse("plant_first", f"plant the {_held(state)} you took first (rules §4: "
                           "one card a turn)")
        if not 0 <= index <= down:
            return _refuse("no_stack", f"there is no stack {index} (the stacks are 0 to {down})")
        if index != down:
            return _refuse("face_up", f"the top of stack {stack_name(index)} is face up: plant "
                           f"it straight away with plant(stack={index}, x=..., y=...)")
        return _refuse("empty_stack", f"stack {stack_name(index)} is empty")
    if kind != "plant":
        return _refuse("unknown_action", f"FLOWERS has no action {kind!r} (it knows plant and "
                       "take)")
    found = plant_args(action)
    if found is None:
        return _refuse("bad_action", "plant names a stack and a cell of your own garden: "
                       "plant(stack=..., x=..., y=...)")
    stack, (x, y) = found
    if phase == PLANT and stack != state.source:
        return _refuse("wrong_stack", f"you hold the {_held(state)} taken from stack "
                       f"{stack_name(state.source)}: plant(stack={state.source}, ...)")
    if phase == TAKE:
        if not 0 <= stack <= down:
            return _refuse("no_stack", f"there is no stack {stack} (the stacks are 0 to {down})")
        if stack == down:
            return _refuse("face_down", f"stack {stack_name(stack)} is face down: take its "
                           f"card first with take(stack={stack}), then plant it")
        if not state.stacks[stack]:
            return _refuse("empty_stack", f"stack {stack_name(stack)} is empty")
    below = state.gardens[seat].get(key(x, y)) if inside(x, y) else None
    if below is None:
        return _refuse("not_adjacent", f"cell ({x}, {y}) shares no side with a card of your "
                       "garden (rules §4: plant next to a card, a corner is not enough, or "
                       "on top of one)")
    return _refuse("uncoverable", f"the {card_text(below[-1])} at ({x}, {y}) may not be "
                   "covered (Summer: the purple start card stays visible)")
