"""The pure helpers a seat client reads scores from: columns by round, gardens by round."""

from __future__ import annotations

from hedgerow.core import Match
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.plugins.flourish.summary import garden_names, garden_rows, score_columns

from .conftest import ruleset


def test_solo_columns_and_names(plugins: PluginHost) -> None:
    table = play(ruleset(plugins, players=1), 1, seed_from_int(2), [plugins.bot("random")])
    view = table.view(0)
    columns = dict(score_columns(view))
    assert list(columns) == ["Round 1", "Round 2", "Round 3", "Round 4", "End of game", "Game"]
    assert columns["Game"] == tuple(sum(row) for row in view.points)
    assert garden_names(view) == ("seat 0", "McGregor")
    outcome = table.outcome()
    assert outcome is not None and outcome.opponent == columns["Game"][1]  # type: ignore[union-attr]


def test_match_columns_end_on_the_match_totals(plugins: PluginHost) -> None:
    rules = ruleset(plugins, "garden-show", players=3)
    table = play(rules, 3, seed_from_int(4), [plugins.bot("random")])
    outcome = table.outcome()
    assert isinstance(outcome, Match)
    columns = dict(score_columns(table.view(1)))
    assert columns["Match"] == outcome.final.scores
    assert sum(columns["Bonus"]) == sum(sum(r.bonus) for r in table.state.history)


def test_garden_rows_by_round(plugins: PluginHost) -> None:
    table = play(ruleset(plugins, players=4), 4, seed_from_int(5), [plugins.bot("random")])
    view = table.view(2)
    rows = garden_rows(view, 3)
    assert [len(r) for r in rows] == [3, 3, 3, 3]
    assert tuple(c for row in rows for c, _, _ in row) == view.gardens[3]
    round_points = [sum(eor or 0 for _, eor, _ in row) for row in rows]
    assert round_points == list(view.points[3][:4])
    assert sum(eog or 0 for row in rows for _, _, eog in row) == view.points[3][4]
