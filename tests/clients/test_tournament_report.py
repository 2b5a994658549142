"""The printed summary of a tournament: the table, grades and histograms fit 80 columns and
say what the counts say."""

from __future__ import annotations

from typing import Any

from hedgerow.clients.tournament_report import BLOCKS, grades_table, histograms, report
from hedgerow.core.tournament_stats import Tally


def game(index: int, scores: list[int], winners: list[int], **extra: Any) -> dict[str, Any]:
    kind = extra.pop("kind", "ranked")
    return {"index": index, "moves": [3] * len(scores), "seconds": [0.003] * len(scores),
            "outcome": {"kind": kind, "scores": scores, "winners": winners, **extra}}


def tally_of(labels: list[str], games: list[dict[str, Any]]) -> Tally:
    tally = Tally(labels)
    for record in games:
        tally.add(record, range(len(labels)))
    return tally


def test_the_table_counts_and_fits() -> None:
    long = "ismcts:iterations=20000,c=0.7"
    tally = tally_of([long, "greedy"], [game(i, [10 + i % 3, 9], [0] if i % 4 else [1])
                                        for i in range(40)])
    lines = report(tally)
    assert all(len(line) <= 80 for line in lines)
    head = next(i for i, line in enumerate(lines) if line.startswith("bot "))
    first, second = lines[head + 1].split(), lines[head + 2].split()
    assert first[0].endswith("…") and long.startswith(first[0][:-1])
    assert first[1:4] == ["40", "30", "75.0%"] and first[4] == "59.8-85.8%"
    assert second[:4] == ["greedy", "40", "10", "25.0%"]
    assert first[-1] == second[-1] == "1.00"  # ms per move


def test_histograms_share_an_axis_and_scale_each_line_to_its_tallest_bar() -> None:
    tally = tally_of(["a", "b"], [game(0, [-3, 5], [1]), game(1, [-3, 6], [1]),
                                  game(2, [0, 5], [1])])
    title, a, b, axis = histograms(tally)
    assert "one column per score" in title
    bars_a, bars_b = a[len("a") + 9:], b[len("b") + 9:]  # labels are padded to 8, then 2
    assert bars_a == BLOCKS[8] + "  " + BLOCKS[4]  # -3 twice, 0 once
    assert bars_b == " " * 8 + BLOCKS[8] + BLOCKS[4]  # 5 twice, 6 once
    assert axis.split() == ["-3", "6"]


def test_a_wide_range_puts_several_scores_in_a_column_and_one_score_is_one_column() -> None:
    wide = tally_of(["a"], [game(i, [i * 7], [0]) for i in range(100)])
    lines = histograms(wide)
    assert "one column per 10 scores" in lines[0]
    assert all(len(line) <= 80 for line in lines)
    single = histograms(tally_of(["a"], [game(0, [4], [0])]))
    assert single[1].endswith(BLOCKS[8]) and single[2].strip() == "4"


def test_grades_best_first_as_a_table_or_as_words_when_too_wide() -> None:
    medals = {"Bronze": 10, "Silver": 20, "Gold": 30}
    coop = tally_of(["a", "b"], [
        game(i, [5, 5], [], kind="cooperative", won=bool(grade), grade=grade, grades=medals,
             total=10)
        for i, grade in enumerate(["Gold", "", "Bronze", "Gold"])])
    table = grades_table(coop)
    assert table[0].split() == ["grades", "Gold", "Bronze", "none"]
    assert table[1].split() == ["a", "50.0%", "25.0%", "25.0%"]
    many = [f"Grade{n:02}" for n in range(9)]
    solo = tally_of(["a"], [game(i, [i], [], kind="solo", won=None, grade=g)
                            for i, g in enumerate(many)])
    words = grades_table(solo)
    assert words[0] == "grades reached"
    assert words[1].startswith("a: Grade08 11.1%, Grade07 11.1%")  # best (highest score) first
    assert all(len(line) <= 80 for line in words)
