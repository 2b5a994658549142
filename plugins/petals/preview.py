"""``evaluate_each`` (``GameDef.evaluate_each``): the judgement after each placement of a
turn, without building the state after it.

A bot that models another seat judges every placement it has (a hundred or more a turn):
`apply` copies the garden, grows the frontier and builds a new state each time, and
``evaluate`` then reads only the trackers, the hands, the pile and whose turn it is.  Here
a placement that makes no symbol pair (most of them) is scored from its four neighbours
(`scoring.evaluate_placed`), and ``evaluate`` is asked about a state that holds what the
rules would put in those fields, its garden and frontier left as they were (``evaluate``
reads them only while an effect waits, and none does after such a placement).  The figure
is the same float ``evaluate(apply(state, seat, action), seat)`` gives: the same function
on the same inputs (a test and the conformance kit compare the two).  Placements with the
same card and the same points are judged once.

None (the caller applies the action itself) for: a placement that makes a symbol pair (its
turn may wait for an effect choice, which a move search decides); the last turn of the
game (the table's final scoring runs); anything but a placement with nothing pending; and
any action `apply` would refuse.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hedgerow.core import Action
from hedgerow.plugins.petals.choices import place_args
from hedgerow.plugins.petals.geometry import placed
from hedgerow.plugins.petals.legality import check_place
from hedgerow.plugins.petals.scoring import NO_SYMBOLS, Points, evaluate_placed
from hedgerow.plugins.petals.state import FINAL, PLAY, State

Evaluate = Callable[[State, int], float]
EvaluateEach = Callable[[State, int, Sequence[Action]], list[float | None]]


def previewer(evaluate: Evaluate) -> EvaluateEach:
    """``evaluate_each(state, seat, actions)`` for a table judged by ``evaluate``."""

    def evaluate_each(state: State, seat: int, actions: Sequence[Action]) -> list[float | None]:
        out: list[float | None] = [None] * len(actions)
        phase = state.phase
        if (seat != state.active or state.pending is not None or phase not in (PLAY, FINAL)
                or (phase == FINAL and state.final_left <= 1)):
            return out
        players, garden, pile = state.players, state.garden, state.pile
        hand = state.hands[seat]
        nxt = seat + 1 if seat + 1 < players else 0
        if phase == PLAY:  # draw, unless the pile is out; the final round once it is
            drawn = bool(pile)
            after_pile = pile[:-1] if drawn else pile
            after_phase, after_left = (PLAY, 0) if after_pile else (FINAL, players)
        else:
            drawn, after_pile, after_phase, after_left = False, pile, FINAL, state.final_left - 1
        judged: dict[tuple[int, Points], float] = {}
        for i, action in enumerate(actions):
            if action.kind != "place":
                continue
            values = place_args(action)
            if values is None:
                continue
            card, rot, x, y = values
            cell = (x, y)
            if check_place(garden, hand, card, cell, rot):
                continue
            points, effect, _ = evaluate_placed(garden, cell, placed(card, rot))
            if effect != NO_SYMBOLS:
                continue
            key = (card, points)
            value = judged.get(key)
            if value is None:
                value = judged[key] = evaluate(
                    _after(state, seat, card, points, nxt, after_pile, after_phase,
                           after_left, drawn), seat)
            out[i] = value
        return out

    return evaluate_each


def _after(state: State, seat: int, card: int, points: Points, nxt: int,
           pile: tuple[int, ...], phase: str, final_left: int, drawn: bool) -> State:
    """What ``evaluate`` reads of the state after ``seat`` lays ``card`` for ``points`` with
    no symbol pair (as `turn._place` then `turn._end_turn` build it; garden and frontier
    as before, which ``evaluate`` does not read with nothing pending)."""
    hand = state.hands[seat]
    i = hand.index(card)
    hand = hand[:i] + hand[i + 1:]
    if drawn:
        hand = (*hand, state.pile[-1])
    hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
    trackers = state.trackers
    if points != (0, 0, 0, 0):
        mine = trackers[seat]
        trackers = (*trackers[:seat], (mine[0] + points[0], mine[1] + points[1],
                                       mine[2] + points[2], mine[3] + points[3]),
                    *trackers[seat + 1:])
    return State(state.players, state.garden, state.frontier, hands, pile, trackers, nxt,
                 None, phase, final_left, state.out_of_play, state.set_aside,
                 state.scored_directly, state.last)
