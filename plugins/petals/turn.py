"""Applying one decision (``GameDef.apply``): play, score, resolve an effect, draw, end.

A turn (rules §5) is one ``place``, then, if it made a symbol pair and a legal move
exists, one effect choice (``score``, ``move`` or ``decline``) by the same seat; then the
seat draws (not in the final round) and play passes on.  A turn whose effect offers no
legal move resolves at once: the different case scores the played card, the identical case
skips the move.  When the last final-round turn ends, ``finish`` (the table's final
scoring hook) scores every card left in hand and the game is over.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.core import Action, Refusal
from hedgerow.plugins.petals.choices import MOVE_ARGS, int_args, place_args
from hedgerow.plugins.petals.geometry import Cell, Garden, grow_frontier, moved_frontier, placed
from hedgerow.plugins.petals.legality import check_move, check_place, has_move
from hedgerow.plugins.petals.scoring import (
    IDENTICAL,
    NO_SYMBOLS,
    Points,
    add,
    evaluate_placed,
    score_at,
)
from hedgerow.plugins.petals.state import FINAL, OVER, PLAY, LastTurn, Pending, State

#: ``finish(trackers, remaining_hands) -> trackers``: the final direct scoring.
Finish = Callable[[tuple[Points, ...], tuple[tuple[int, ...], ...]], tuple[Points, ...]]


def _refuse(code: str, message: str) -> Refusal:
    return Refusal(f"petals.{code}", message)


def apply(state: State, seat: int, action: Action, finish: Finish) -> State | Refusal:
    """The state after ``seat`` takes ``action``, or why it may not."""
    if state.phase == OVER:
        return _refuse("game_over", "the game is over")
    if seat != state.active:
        return _refuse("not_your_turn", f"it is seat {state.active}'s turn, not seat {seat}'s "
                       "(rule 5: players take turns in seat order)")
    kind = action.kind
    pending = state.pending
    if pending is None:
        if kind == "place":
            return _place(state, seat, action, finish)
        if kind in ("score", "move", "decline"):
            return _refuse("no_effect", f"{kind} answers a symbol effect, and none is waiting "
                           "(rule 5.3); play a card with place")
    else:
        if kind == "move":
            return _move(state, seat, pending, action, finish)
        if kind == "score":
            if pending.kind != "different" or action.args:
                return _refuse("wrong_choice", "score is a choice only after different "
                               "symbols (rule 5.3); here move a card or decline")
            played = score_at(state.garden, pending.played)
            return end_turn(state, seat, state.garden, state.frontier, state.hands[seat],
                             credit(state.trackers, seat, played), finish)
        if kind == "decline":
            if pending.kind != "identical" or action.args:
                return _refuse("wrong_choice", "decline is a choice only after identical "
                               "symbols (rule 5.3); here score the card or move one")
            return end_turn(state, seat, state.garden, state.frontier, state.hands[seat],
                             state.trackers, finish)
        if kind == "place":
            return _refuse("effect_pending", f"resolve the {pending.kind}-symbols effect "
                           "first (rule 5.3: the turn ends once the effect is resolved)")
    return _refuse("unknown_action", f"Petals has no action {kind!r} (it knows place, score, "
                   "move and decline)")


def credit(trackers: tuple[Points, ...], seat: int, points: Points) -> tuple[Points, ...]:
    """``trackers`` with ``points`` added to ``seat``'s."""
    if points == (0, 0, 0, 0):
        return trackers
    out = list(trackers)
    out[seat] = add(out[seat], points)
    return tuple(out)


def _place(state: State, seat: int, action: Action, finish: Finish) -> State | Refusal:
    values = place_args(action)
    if values is None:
        return _refuse("bad_action", "place takes four whole numbers: card, x, y and rot")
    card, rot, x, y = values
    cell = (x, y)
    hand = state.hands[seat]
    bad = check_place(state.garden, hand, card, cell, rot)
    if bad:
        return bad
    code = placed(card, rot)
    points, effect, cells = evaluate_placed(state.garden, cell, code)  # its 4 neighbours
    garden = dict(state.garden)
    garden[cell] = code
    fringe = grow_frontier(state.frontier, garden, cell)
    i = hand.index(card)
    hand = hand[:i] + hand[i + 1:]
    last = LastTurn(seat, cell)
    if effect == NO_SYMBOLS:
        trackers = credit(state.trackers, seat, points)
        return end_turn(state, seat, garden, fringe, hand, trackers, finish, last)
    triggers = (cell, *cells)
    movable = has_move(garden, fringe, triggers)
    if effect == IDENTICAL:
        trackers = credit(state.trackers, seat, points)
        if not movable:
            return end_turn(state, seat, garden, fringe, hand, trackers, finish, last)
        pending = Pending("identical", cell, triggers)
    else:
        if not movable:
            trackers = credit(state.trackers, seat, points)
            return end_turn(state, seat, garden, fringe, hand, trackers, finish, last)
        trackers = state.trackers
        pending = Pending("different", cell, triggers)
    hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
    return State(state.players, garden, fringe, hands, state.pile, trackers, seat,
                 pending, state.phase, state.final_left, state.out_of_play, state.set_aside,
                 state.scored_directly, last)


def _move(state: State, seat: int, pending: Pending, action: Action, finish: Finish,
          ) -> State | Refusal:
    values = int_args(action, MOVE_ARGS)
    if values is None:
        return _refuse("bad_action", "move takes five whole numbers: from_x, from_y, to_x, "
                       "to_y and rot")
    fx, fy, rot, tx, ty = values
    src: Cell = (fx, fy)
    dst: Cell = (tx, ty)
    bad = check_move(state.garden, pending.triggers, src, dst, rot)
    if bad:
        return bad
    garden = dict(state.garden)
    card = garden.pop(src) >> 2
    garden[dst] = placed(card, rot)
    trackers = credit(state.trackers, seat, score_at(garden, dst))
    last = LastTurn(seat, pending.played, (src, dst))
    return end_turn(state, seat, garden, moved_frontier(state.frontier, garden, src, dst),
                    state.hands[seat], trackers, finish, last)


def end_turn(state: State, seat: int, garden: Garden, fringe: tuple[Cell, ...],
              hand: tuple[int, ...], trackers: tuple[Points, ...], finish: Finish,
              last: LastTurn | None = None) -> State:
    """Draw (outside the final round) and pass the turn, or end the game.

    ``hand`` is the seat's hand after its play; the other hands are unchanged.  ``last`` is
    the turn's `LastTurn` (the state's own when the turn began earlier: an effect choice).
    """
    if last is None:
        last = state.last
    players = state.players
    nxt = seat + 1 if seat + 1 < players else 0
    pile = state.pile
    if state.phase == PLAY and pile:
        hand = (*hand, pile[-1])
        pile = pile[:-1]
    old = state.hands
    hands = (*old[:seat], hand, *old[seat + 1:])
    if state.phase == PLAY:
        if pile:
            return State(players, garden, fringe, hands, pile, trackers, nxt, None, PLAY, 0,
                         state.out_of_play, state.set_aside, state.scored_directly, last)
        return State(players, garden, fringe, hands, pile, trackers, nxt, None, FINAL,
                     players, state.out_of_play, state.set_aside, state.scored_directly, last)
    left = state.final_left - 1
    if left > 0:
        return State(players, garden, fringe, hands, pile, trackers, nxt, None, FINAL,
                     left, state.out_of_play, state.set_aside, state.scored_directly, last)
    final = finish(trackers, hands)
    direct = tuple((a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])
                   for a, b in zip(final, trackers, strict=True))
    return State(players, garden, fringe, ((),) * players, pile, final, -1, None, OVER,
                 0, state.out_of_play, state.set_aside, hands, last, direct)
