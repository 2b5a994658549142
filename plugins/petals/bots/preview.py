"""``evaluate_each`` (``BotSupport.evaluate_each``): the judgement after each placement of a
turn, without building the state after it.

A bot that models another seat judges every placement it has (a hundred or more a turn):
`apply` copies the garden, grows the frontier and builds a new state each time, and
``evaluate`` then reads only the trackers, the hands, the pile and whose turn it is.  Here
a placement that makes no symbol pair (most of them) is scored from its four neighbours
(`scoring.evaluate_placed`), and the rules' own end of a turn (`turn.end_turn`: the draw,
the next seat, the final round) builds the state after it from the garden and frontier as
they were, which ``evaluate`` reads only while an effect waits (none does after such a
placement).  The figure
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
from hedgerow.plugins.petals.turn import Finish, credit, end_turn

Evaluate = Callable[[State, int], float]
EvaluateEach = Callable[[State, int, Sequence[Action]], list[float | None]]


def previewer(evaluate: Evaluate, finish: Finish) -> EvaluateEach:
    """``evaluate_each(state, seat, actions)`` for a table judged by ``evaluate`` whose
    final scoring is ``finish``."""

    def evaluate_each(state: State, seat: int, actions: Sequence[Action]) -> list[float | None]:
        out: list[float | None] = [None] * len(actions)
        phase = state.phase
        if (seat != state.active or state.pending is not None or phase not in (PLAY, FINAL)
                or (phase == FINAL and state.final_left <= 1)):
            return out
        garden, hand = state.garden, state.hands[seat]
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
                k = hand.index(card)
                after = end_turn(state, seat, garden, state.frontier, hand[:k] + hand[k + 1:],
                                 credit(state.trackers, seat, points), finish)
                value = judged[key] = evaluate(after, seat)
            out[i] = value
        return out

    return evaluate_each
