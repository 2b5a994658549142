"""The score rule every screen shows comes from the variant in force (``petals_score_rule``).

The help, the players table and the results chart of a Harmony table show the spread (the
smallest wins), never the standard game's two lowest trackers; the worked examples of
docs/rules/petals.md (17 and 21) give the numbers.
"""

from __future__ import annotations

from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.ui import DrawContext, Target
from hedgerow.plugins.petals.scorerule import HARMONY, STANDARD
from hedgerow.plugins.petals.state import OVER, View
from hedgerow.plugins.petals.ui import PetalsUI

EX17 = ((12, 9, 7, 15), (10, 11, 9, 8), (6, 11, 4, 20))  # rules example 17, F/W/E/A
EX21 = ((10, 12, 11, 13), (14, 12, 13, 11))  # example 21: a Harmony tie-break


def over(trackers, direct=None) -> View:
    n = len(trackers)
    return View(seat=0, players=n, hand=(), garden=((0, 0, 1, 0),), trackers=trackers,
                pile_count=0, hand_sizes=(0,) * n, active=-1, pending=None, phase=OVER,
                final_left=0, out_of_play=(), set_aside_count=0,
                scored_directly=((38,),) * n,
                direct=direct or ((3, 1, 2, 3),) * n)


def text(fragments) -> str:
    return "".join(f[1] for f in fragments)


def test_each_table_answers_the_rule_of_its_variant(standard: Ruleset, harmony: Ruleset) -> None:
    assert standard.ext.petals_score_rule() is STANDARD
    assert harmony.ext.petals_score_rule() is HARMONY
    assert [STANDARD.figure(t) for t in EX17] == [16, 17, 10]
    assert [HARMONY.figure(t) for t in EX17] == [8, 3, 16]
    assert HARMONY.lower_wins and not STANDARD.lower_wins
    assert STANDARD.sum_words(EX17[0]) == "7 + 9" and HARMONY.sum_words(EX17[0]) == "15 - 7"


def test_the_ui_of_a_harmony_table_speaks_of_the_spread(plugins: PluginHost, standard: Ruleset,
                                                       harmony: Ruleset) -> None:
    plain, balanced = plugins.game_ui("petals", standard), plugins.game_ui("petals", harmony)
    assert isinstance(plain, PetalsUI) and isinstance(balanced, PetalsUI)
    assert "two LOWEST trackers added" in plain.help
    assert "SMALLEST" in balanced.help and "spread" in balanced.help
    assert "two LOWEST" not in balanced.help and "lowest trackers added" not in balanced.help
    assert len(plain.help) < 600 and len(balanced.help) < 600
    view = over(EX17)
    assert [(c.label, c.values) for c in plain.score_columns(view)][-1] == ("Score", (16, 17, 10))
    assert [(c.label, c.values) for c in balanced.score_columns(view)][-1] == ("Spread",
                                                                             (8, 3, 16))


def chart_rows(ui, view: View, width: int = 80) -> list[str]:
    return text(ui.draw("chart", DrawContext(view, 0, width))).split("\n")


def test_the_results_chart_explains_each_figure(plugins: PluginHost, standard: Ruleset,
                                                harmony: Ruleset) -> None:
    rows = chart_rows(plugins.game_ui("petals", standard), over(EX17))
    assert rows[0] == "Where the points came from" and "Score" in rows[2]
    # By rank (seat 1 wins with 17), each figure as the sum that makes it.
    assert [r.split()[:2] for r in rows[3:]] == [["Seat", "1"], ["Seat", "0"], ["Seat", "2"]]
    assert rows[3].endswith("8 + 9 = 17") and rows[4].endswith("7 + 9 = 16")
    # A star on each tracker won: Fire seat 0; Water seats 1 and 2; Earth seat 1; Air seat 2.
    assert [r.count("★") for r in rows[3:]] == [2, 1, 2]
    assert "▒" in rows[3]  # the last card's share of each bar
    rows = chart_rows(plugins.game_ui("petals", harmony), over(EX17))
    assert "Spread" in rows[2] and "in the spread" in rows[1]
    assert rows[3].endswith("11 - 8 = 3") and rows[4].endswith("15 - 7 = 8")
    assert rows[5].endswith("20 - 4 = 16")


def test_the_chart_names_players_through_seat_targets_and_marks_the_eliminated(
        plugins: PluginHost, harmony: Ruleset) -> None:
    ui = plugins.game_ui("petals", harmony)
    drawing = ui.draw("chart", DrawContext(over(((10, 10, 10, 10), (20, 2, 3, 25),
                                                 (5, 12, 11, 3))), 0, 80))
    seats = [f[2] for f in drawing if len(f) > 2]
    assert seats == [Target("seat", 2), Target("seat", 1), Target("seat", 0)]  # example 18
    rows = text(drawing).split("\n")
    assert rows[-1].startswith("Seat 0") and rows[-1].endswith("out: led no tracker")
    tie = chart_rows(ui, over(EX21))
    assert tie[3].startswith("Seat 1") and tie[3].endswith("14 - 11 = 3")  # wins the tie-break
