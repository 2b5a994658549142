"""Every worked example of the spec (§13): F1-F16, the mode results, the tie-break.

The spec numbers its examples F1-F10 and F13-F16 (there is no F11 or F12).  Gardens are
written (you, left, right) for three players — left is seat + 1, right is seat - 1 — and
(you, neighbour) for two.
"""

from __future__ import annotations

import pytest

from hedgerow.core import Cooperative, Ranked, Solo
from hedgerow.core.pluginhost import PluginHost
from hedgerow.plugins.flourish.abilities import score
from hedgerow.plugins.flourish.cards import card
from hedgerow.plugins.flourish.ranking import solo_result
from hedgerow.plugins.flourish.scoring import end_points, round_points, tallies
from hedgerow.plugins.flourish.state import OVER, Config, GameRecord, Result

from .conftest import make_state, ruleset


def eor(ident: int, gardens: list[list[int]], garden: int = 0) -> int:
    c = card(ident)
    assert c.eor is not None
    return score(c.eor, c.kind, garden, tallies([tuple(g) for g in gardens]))


def eog(ident: int, gardens: list[list[int]], garden: int = 0) -> int:
    c = card(ident)
    assert c.eog is not None
    return score(c.eog, c.kind, garden, tallies([tuple(g) for g in gardens]))


ROUND1 = [53, 43, 91]
ROUND2 = [83, 65, 10]
LEFT = [17, 18, 21]


def test_f1_round_one_only_the_oak_scores() -> None:
    assert round_points([tuple(ROUND1), (), ()], 1)[0] == 5


def test_f2_round_two_lawn_hive_and_rosa_gallica() -> None:
    gardens = [ROUND1 + ROUND2, LEFT, [1]]
    assert [eor(c, gardens) for c in ROUND2] == [5, 6, 7]
    assert round_points([tuple(g) for g in gardens], 2)[0] == 18


def test_f3_end_of_game() -> None:
    gardens = [ROUND1 + ROUND2, LEFT, [44, 1]]
    assert [eog(c, gardens) for c in (53, 43, 91, 83)] == [3, 4, 9, 5]
    assert end_points([tuple(g) for g in gardens])[0] == 21


def test_f4_walls_and_a_wall_majority() -> None:
    gardens = [[73, 74, 79], [12], []]
    assert (eog(73, gardens), eog(74, gardens), eor(79, gardens)) == (9, 9, 6)


@pytest.mark.parametrize(("left", "expected"), [([20], 9), ([20, 19], 0)])
def test_f5_majority_over_both_neighbours(left: list[int], expected: int) -> None:
    assert eog(22, [[22], left, [17]]) == expected


@pytest.mark.parametrize(("right", "expected"), [([], 6), ([23], 0)])
def test_f6_majority_over_one_neighbour(right: list[int], expected: int) -> None:
    assert eog(21, [[21], [20, 17], right]) == expected


def test_f7_rosa_alba_counts_once_in_a_sum() -> None:
    assert eor(10, [[10, 1, 44, 41], [], []]) == 5


@pytest.mark.parametrize(("garden", "expected"), [
    ([97, 1, 9, 17, 25, 41], 9),
    ([97, 1, 9, 17, 25], 0),
])
def test_f8_one_of_each_with_rosa_alba(garden: list[int], expected: int) -> None:
    assert eog(97, [garden, [], []]) == expected


@pytest.mark.parametrize(("garden", "expected"), [([95, 20, 22, 42], 9), ([95, 20, 22], 0)])
def test_f9_five_of_one_colour_with_rosa_alba(garden: list[int], expected: int) -> None:
    assert eog(95, [garden, [], []]) == expected


def test_f10_the_two_player_path_exception() -> None:
    assert eog(53, [[53, 43], [44, 45]]) == 9
    assert eog(53, [[53, 43], [44, 45], []]) == 6


def test_f13_either_with_rosa_alba() -> None:
    assert eor(88, [[88, 43, 20, 22, 41], [], []]) == 5


def test_f14_green_paths() -> None:
    assert eog(43, [[43, 53, 54, 55], [], []]) == 8


@pytest.mark.parametrize(("garden", "expected"), [([63, 64, 65], 9), ([63, 64], 0)])
def test_f15_three_hives(garden: list[int], expected: int) -> None:
    assert eog(64, [garden, [], []]) == expected


def test_f16_lawn_counts_stone_symbols() -> None:
    assert eog(83, [[83, 73, 43, 1, 91], [], []]) == 4


# -- §13.3 mode results ---------------------------------------------------------------------


def _record(totals: list[int], gardens: list[tuple[int, ...]] | None = None) -> GameRecord:
    gardens = gardens or [()] * len(totals)
    return GameRecord(tuple(gardens), tuple((t, 0, 0, 0, 0) for t in totals),
                      (0,) * len(totals))


@pytest.mark.parametrize(("you", "mcgregor", "raise_", "medal"), [
    (87, 50, 0, "Bronze"),
    (87, 50, 5, "Bronze"),
    (99, 48, 0, "Gold"),
    (99, 48, 5, "Silver"),
])
def test_solo_medals(you: int, mcgregor: int, raise_: int, medal: str) -> None:
    result = solo_result(Result(Config(1, solo=True), (_record([you, mcgregor]),), (), raise_))
    assert (result.score, result.grade, result.won, result.opponent) == (
        you - mcgregor, medal, True, mcgregor)


def _finished(plugins: PluginHost, variants: tuple[str, ...], players: int, totals: list[int]):
    """The outcome the real rules give a finished table with these totals."""
    rules = ruleset(plugins, *variants, players=players)
    cfg = rules.gamedef.setup(_ctx(players)).cfg
    state = make_state(cfg, [()] * players)
    record = _record(totals)
    state = state._replace(turn=OVER, points=record.points, history=(record,))
    return rules.gamedef.outcome(state)


def _ctx(players: int):
    from hedgerow.core import SetupContext

    return SetupContext(players)


@pytest.mark.parametrize(("variants", "medal"), [((), "Bronze"), (("compost",), "Bronze")])
def test_solo_through_the_rules(plugins: PluginHost, variants: tuple[str, ...], medal: str) -> None:
    outcome = _finished(plugins, variants, 1, [87, 50])
    assert isinstance(outcome, Solo)
    assert (outcome.score, outcome.grade, outcome.won, outcome.opponent) == (37, medal, True, 50)


@pytest.mark.parametrize(("variants", "medal", "grades"), [
    (("cooperative",), "Silver", (("Bronze", 255), ("Silver", 285), ("Gold", 315))),
    (("cooperative", "compost"), "Bronze", (("Bronze", 270), ("Silver", 300), ("Gold", 330))),
])
def test_cooperative_three_players(plugins: PluginHost, variants: tuple[str, ...], medal: str,
                                   grades: tuple[tuple[str, int], ...]) -> None:
    outcome = _finished(plugins, variants, 3, [90, 95, 100])
    assert isinstance(outcome, Cooperative)
    assert (outcome.total, outcome.grade, outcome.won, outcome.grades) == (285, medal, True,
                                                                           grades)
    assert outcome.winners == (0, 1, 2)


def test_tie_break_on_unique_stone_symbols(plugins: PluginHost) -> None:
    a = (1, 9, 17, 25, 41, 44, 53, 73, 64, 83)  # G R B Y + Rosa Alba; 5 stone types
    b = (1, 9, 17, 25, 33, 44, 53, 73, 64, 83, 91)  # all five colours; 6 stone types
    rules = ruleset(plugins, players=2)
    record = _record([80, 80], [a, b])
    state = make_state(Config(2), [(), ()], [a, b])._replace(
        turn=OVER, points=record.points, history=(record,))
    outcome = rules.gamedef.outcome(state)
    assert isinstance(outcome, Ranked)
    assert outcome.scores == (80, 80) and outcome.winners == (1,) and outcome.ranking == (2, 1)
    assert dict(outcome.breakdown)["unique plant symbols"] == (5, 5)
    assert dict(outcome.breakdown)["unique stone symbols"] == (5, 6)
    assert "unique stone symbols" in outcome.explanation
