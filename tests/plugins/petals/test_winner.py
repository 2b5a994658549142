"""Winner examples 17, 18, 20, 21 (rules §10), tie-breaks, and the winner hook per table."""

from __future__ import annotations

import pytest

from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.petals.harmony import harmony_outcome
from hedgerow.plugins.petals.ranking import (
    eligible,
    rank,
    standard_outcome,
    tracker_winners,
    two_lowest,
)
from hedgerow.plugins.petals.state import OVER, State

EX17 = ((12, 9, 7, 15), (10, 11, 9, 8), (6, 11, 4, 20))
EX18 = ((10, 10, 10, 10), (20, 2, 3, 25), (5, 12, 11, 3))
EX20 = ((10, 10, 10, 0), (11, 11, 11, 0))
EX21 = ((10, 12, 11, 13), (14, 12, 13, 11))


def test_example_17_three_players() -> None:
    assert tracker_winners(EX17) == ((0,), (1, 2), (1,), (2,))
    assert eligible(EX17) == (0, 1, 2)
    result = standard_outcome(EX17)
    assert result.scores == (16, 17, 10)
    assert result.winners == (1,) and result.ranking == (2, 1, 3)
    assert result.eliminated == ()
    assert harmony_outcome(EX17).winners == (1,)
    assert dict(harmony_outcome(EX17).breakdown)["Spread"] == (8, 3, 16)


def test_example_18_elimination() -> None:
    assert tracker_winners(EX18) == ((1,), (2,), (2,), (1,))
    result = standard_outcome(EX18)
    assert result.eliminated == (0,)
    assert result.scores == (20, 5, 8)  # seat 0 keeps its score, but cannot win
    assert result.winners == (2,)
    assert result.ranking == (3, 2, 1)
    assert "seat 0 won no tracker" in result.explanation.lower()
    harmony = harmony_outcome(EX18)
    assert dict(harmony.breakdown)["Spread"] == (0, 23, 9)
    assert harmony.winners == (2,) and harmony.eliminated == (0,)


def test_example_20_tracker_tied_at_zero() -> None:
    assert tracker_winners(EX20)[3] == (0, 1)
    assert eligible(EX20) == (0, 1)
    result = standard_outcome(EX20)
    assert result.scores == (10, 11) and result.winners == (1,)


def test_example_21_harmony_tie_break() -> None:
    assert tracker_winners(EX21) == ((1,), (0, 1), (1,), (0,))
    harmony = harmony_outcome(EX21)
    assert dict(harmony.breakdown)["Spread"] == (3, 3)
    assert dict(harmony.breakdown)["Two lowest"] == (21, 23)
    assert harmony.winners == (1,)
    assert "two lowest" in harmony.explanation


def test_breakdown_columns_per_element() -> None:
    columns = dict(standard_outcome(EX17).breakdown)
    assert columns["Fire"] == (12, 10, 6)
    assert columns["Water"] == (9, 11, 11)
    assert columns["Earth"] == (7, 9, 4)
    assert columns["Air"] == (15, 8, 20)
    assert list(columns)[:4] == ["Fire", "Water", "Earth", "Air"]


@pytest.mark.parametrize(("trackers", "winners", "why"), [
    # equal score 10; lowest tracker 5 beats 4
    (((5, 5, 9, 9), (4, 6, 9, 9)), (0,), "lowest tracker"),
    # equal on score, lowest tracker, trackers won (3 each) and total: shared
    (((5, 5, 9, 8), (5, 5, 8, 9)), (0, 1), "share"),
    (((5, 5, 9, 9), (5, 5, 8, 8)), (0,), "score"),
    # identical: shared victory
    (((3, 3, 3, 3), (3, 3, 3, 3)), (0, 1), "share"),
])
def test_standard_tie_breaks(trackers, winners, why: str) -> None:
    result = standard_outcome(trackers)
    assert result.winners == winners
    assert why in result.explanation


def test_tie_break_on_trackers_won_then_total() -> None:
    # Seats 0 and 1: score 4+4=8, lowest 4; seat 0 wins Fire and Earth, seat 1 only Fire.
    trackers = ((4, 4, 9, 9), (4, 4, 8, 8), (0, 5, 0, 10))
    assert standard_outcome(trackers).winners == (0,)
    assert "wins on the number of trackers won" in standard_outcome(trackers).explanation
    # Equal won counts: the total decides.
    trackers = ((4, 4, 9, 9), (4, 4, 9, 8), (0, 5, 0, 10))
    result = standard_outcome(trackers)
    assert result.winners == (0,) and "total" in result.explanation


def test_harmony_tie_break_on_total_then_shared() -> None:
    assert harmony_outcome(((5, 5, 6, 7), (5, 5, 7, 7))).winners == (1,)
    assert harmony_outcome(((5, 5, 6, 7), (5, 5, 7, 6))).winners == (0, 1)


def test_rank_is_competition_ranking_with_eliminated_last() -> None:
    assert rank([(3,), (5,), (5,), (9,)], can_win=(0, 1, 2)) == (3, 1, 1, 4)
    assert two_lowest((9, 1, 4, 2)) == 3


def test_harmony_scores_are_minus_the_spread() -> None:
    assert harmony_outcome(EX17).scores == (-8, -3, -16)


def _over(trackers: tuple[tuple[int, int, int, int], ...]) -> State:
    n = len(trackers)
    return State(players=n, garden={}, frontier=(), hands=((),) * n, pile=(),
                 trackers=trackers, active=-1, phase=OVER, scored_directly=((),) * n)


def test_winner_hook_is_chosen_per_table(standard: Ruleset, harmony: Ruleset) -> None:
    # Standard: seat 0 wins on score (8+8=16 vs 5+10=15); Harmony: seat 1 (spread 5 vs 10).
    trackers = ((8, 8, 18, 18), (5, 10, 10, 10))
    assert standard.gamedef.outcome(_over(trackers)).winners == (0,)
    assert harmony.gamedef.outcome(_over(trackers)).winners == (1,)
    # A table without Harmony built after one with it is still standard.
    assert standard.gamedef.outcome(_over(trackers)).winners == (0,)


def test_examples_through_the_tables(standard: Ruleset, harmony: Ruleset) -> None:
    assert standard.gamedef.outcome(_over(EX17)).winners == (1,)
    assert standard.gamedef.outcome(_over(EX18)).winners == (2,)
    assert standard.gamedef.outcome(_over(EX20)).winners == (1,)
    assert harmony.gamedef.outcome(_over(EX17)).winners == (1,)
    assert harmony.gamedef.outcome(_over(EX18)).winners == (2,)
    assert harmony.gamedef.outcome(_over(EX21)).winners == (1,)
