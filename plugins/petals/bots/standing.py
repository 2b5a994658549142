"""Where a seat stands if the game were scored now (``BotSupport.score``), for bots.

Petals scores as it goes: every placement adds to the trackers at once, and what ranks the
players at the end is one figure of a seat's four trackers, the table's `ScoreRule` (the
extension hook ``petals_score_rule``: the sum of the two lowest trackers as standard; under
Harmony the spread, where the smallest wins, so the score is minus the spread).  The
score of a seat is that figure of its trackers, signed so that more is better: the very
number ``outcome(state).scores`` gives it once the game is over, when the trackers hold the
final scoring of the cards left in hand.

Before then the cards in hand are not counted: a seat holds two cards until the final
round, and only the one it keeps at the very end is scored directly, so counting both would
reward holding good cards rather than playing them (a greedy player that counted them won
58 of 100 two-player games against one that did not: no clear gain).  Counting them would
also mean calling the table's ``petals_final_scoring`` hook per state, and a call through a
table's extension relay costs several ``apply`` s.  ``score`` is called at every leaf of a
search, so it is one tuple lookup and the figure: no hook is called per state.

A seat that leads no tracker at the end is eliminated, whatever its figure; that is the
ranking's business (``outcome``), and ``score`` still gives its points, as the outcome's
``scores`` do.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.plugins.petals.scorerule import ScoreRule
from hedgerow.plugins.petals.state import State

Score = Callable[[State, int], float]


def scorer(rule: ScoreRule) -> Score:
    """``score(state, seat)``: ``seat``'s figure under ``rule`` (negated when the lowest
    wins), from its trackers as they stand."""
    figure = rule.figure
    if rule.lower_wins:
        def lowest_wins(state: State, seat: int) -> float:
            return float(-figure(state.trackers[seat]))
        return lowest_wins

    def highest_wins(state: State, seat: int) -> float:
        return float(figure(state.trackers[seat]))
    return highest_wins
