"""A tournament's schedule and statistics: fair seats, seeds, batches, Wilson intervals, tallies."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations
from typing import Any

import pytest

from hedgerow.core.tournament import (
    Batcher,
    block_size,
    cycle_size,
    lineup,
    seed_number,
)
from hedgerow.core.tournament_stats import Tally, wilson

SHAPES = [(k, p) for k in range(2, 6) for p in range(1, 8)]


@pytest.mark.parametrize(("bots", "players"), SHAPES)
def test_every_bot_sits_in_every_seat_once_per_block(bots: int, players: int) -> None:
    block = block_size(bots)
    for first in range(0, 3 * cycle_size(bots, players), block):
        games = [lineup(g, bots, players) for g in range(first, first + block)]
        for seat in range(players):
            assert sorted(game[seat] for game in games) == list(range(bots)), (first, seat)


@pytest.mark.parametrize(("bots", "players"), SHAPES)
def test_a_cycle_plays_every_ordered_lineup_once(bots: int, players: int) -> None:
    m = min(bots, players)
    cycle = cycle_size(bots, players)
    seen = Counter(lineup(g, bots, players)[:m] for g in range(cycle))
    assert set(seen) == set(permutations(range(bots), m))
    assert set(seen.values()) == {1}
    # the next cycle is the same schedule again
    assert [lineup(g, bots, players) for g in range(cycle)] == [
        lineup(cycle + g, bots, players) for g in range(cycle)
    ]


def test_bots_repeat_in_order_when_seats_outnumber_them() -> None:
    for game in range(12):
        seats = lineup(game, 3, 7)
        assert all(seats[s] == seats[s % 3] for s in range(7))
        assert len(set(seats[:3])) == 3


def test_two_bots_swap_seats_every_game() -> None:
    assert [lineup(g, 2, 2) for g in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert [lineup(g, 2, 4) for g in range(2)] == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert [lineup(g, 3, 2) for g in range(6)] == [(0, 1), (1, 2), (2, 0), (0, 2), (1, 0), (2, 1)]


def test_lineup_refuses_nonsense() -> None:
    for args in [(-1, 2, 2), (0, 0, 2), (0, 2, 0)]:
        with pytest.raises(ValueError):
            lineup(*args)


def test_game_seeds_follow_simulate() -> None:
    assert [seed_number(100, g) for g in range(3)] == [100, 101, 102]


def test_batches_start_with_single_games_then_hold_about_a_second_of_play() -> None:
    batcher = Batcher(10**6, 2)
    assert [batcher.next() for _ in range(4)] == [(0, 1), (1, 2), (2, 3), (3, 4)]
    batcher.observe(4, 0.04)  # 10 ms a game
    assert batcher.next() == (4, 104)
    batcher.observe(100, 1.0)
    assert batcher.size() == 100
    batcher.observe(1000, 0.001)  # very short games: a task never holds more than 1000
    assert batcher.size() == 1000


def test_batches_cover_every_game_once_and_the_last_ones_spread_over_the_workers() -> None:
    batcher = Batcher(1000, 4)
    batcher.observe(1, 0.0001)
    tasks = []
    while (task := batcher.next()) is not None:
        tasks.append(task)
    assert [g for start, stop in tasks for g in range(start, stop)] == list(range(1000))
    sizes = [stop - start for start, stop in tasks]
    assert sizes[0] == 125  # an eighth of what is left: two tasks for each of 4 workers
    assert sizes[-8:] == sorted(sizes[-8:], reverse=True) and sizes[-1] == 1
    assert Batcher(1, 8).next() == (0, 1)
    with pytest.raises(ValueError):
        Batcher(0, 2)


def test_a_million_short_games_are_about_a_thousand_tasks() -> None:
    batcher = Batcher(10**6, 2)
    count = 0
    while (task := batcher.next()) is not None:
        batcher.observe(task[1] - task[0], 0.0005 * (task[1] - task[0]))
        count += 1
    assert 1000 <= count < 1100


# Newcombe (1998), "Two-sided confidence intervals for the single proportion", method 3.
@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
     (1, 29, 0.0061, 0.1718), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0)],
)
def test_wilson_interval_matches_published_values(
    wins: int, n: int, low: float, high: float
) -> None:
    got = wilson(wins, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_refuses_impossible_counts_and_is_all_for_no_trials() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    for wins, n in [(3, 2), (-1, 5)]:
        with pytest.raises(ValueError):
            wilson(wins, n)


def ranked(index: int, scores: list[int], winners: list[int]) -> dict[str, Any]:
    n = len(scores)
    return {"index": index, "outcome": {"kind": "ranked", "scores": scores, "winners": winners},
            "moves": [10] * n, "seconds": [0.01] * n}


def test_tally_is_the_same_in_any_order_and_counts_each_seat() -> None:
    records = [ranked(i, [i % 5, 4 - i % 5], [0] if i % 5 > 2 else [1]) for i in range(40)]
    records.append(ranked(40, [3, 3], [0, 1]))  # a shared victory: a win for both
    shuffled = records[:]
    random.Random(7).shuffle(shuffled)
    tallies = []
    for order in (records, shuffled):
        tally = Tally(["a", "b"])
        for r in order:
            tally.add(r, lineup(r["index"], 2, 2))
        tallies.append(tally.data())
    assert tallies[0] == tallies[1]
    a, b = tallies[0]["lines"]
    assert a["games"] == b["games"] == 41 and a["seats"] == 41
    assert a["wins"] + b["wins"] == 42
    assert a["win_ci95"] == list(wilson(a["wins"], 41))
    assert tallies[0]["kind"] == "ranked" and "shared victory" in tallies[0]["win"]


def test_tally_mean_and_spread() -> None:
    tally = Tally(["a"])
    for i, score in enumerate([2, 4, 4, 4, 5, 5, 7, 9]):
        tally.add(ranked(i, [score], [0]), [0])
    line = tally.lines[0]
    assert line.score_mean == 5.0
    assert line.score_sd == pytest.approx(2.138089935)  # sample standard deviation
    assert line.seconds_per_move == pytest.approx(0.001)


def test_a_bot_in_two_seats_counts_one_game_two_seats() -> None:
    tally = Tally(["a", "b"])
    tally.add(ranked(0, [1, 2, 3], [2]), (0, 1, 0))
    a, b = tally.lines
    assert (a.games, a.seats, a.wins) == (1, 2, 1)
    assert (b.games, b.seats, b.wins) == (1, 1, 0)


def test_a_bot_counts_each_game_once_however_many_of_its_seats_win() -> None:
    tally = Tally(["a", "b"])
    tally.add(ranked(0, [5, 1, 5, 1], [0, 2]), (0, 1, 0, 1))  # both of a's seats share first
    tally.add(ranked(1, [5, 1, 2, 1], [0]), (0, 1, 0, 1))  # one of a's seats wins
    tally.add(ranked(2, [1, 5, 1, 2], [1]), (0, 1, 0, 1))  # b wins
    a, b = tally.lines
    assert (a.games, a.seats, a.decided, a.wins) == (3, 6, 3, 2)
    assert (b.games, b.seats, b.decided, b.wins) == (3, 6, 3, 1)
    assert tally.data()["lines"][0]["win_ci95"] == list(wilson(2, 3))
    assert a.score_mean == pytest.approx(19 / 6)  # scores stay per seat
    assert "counted once per game" in tally.win_meaning()


def test_a_first_place_shared_between_bots_is_a_win_for_each() -> None:
    tally = Tally(["a", "b", "c"])
    tally.add(ranked(0, [4, 4, 1], [0, 1]), (0, 1, 2))
    assert [line.wins for line in tally.lines] == [1, 1, 0]
    assert "shared victory is a win for each seat" in tally.win_meaning()


def test_a_team_win_counts_once_for_a_bot_in_two_seats_and_grades_per_game() -> None:
    tally = Tally(["a", "b"])
    grades = {"Bronze": 10, "Gold": 30}
    for i, (won, grade) in enumerate([(True, "Gold"), (False, "")]):
        tally.add({"index": i, "moves": [1, 1, 1], "seconds": [0, 0, 0],
                   "outcome": {"kind": "cooperative", "scores": [5, 6, 7], "winners": [],
                               "won": won, "grade": grade, "grades": grades}}, (0, 1, 0))
    a, b = tally.lines
    assert (a.games, a.seats, a.wins, a.decided) == (2, 4, 1, 2)
    assert (b.games, b.seats, b.wins, b.decided) == (2, 2, 1, 2)
    assert a.grades == b.grades == {"Gold": 1, "none": 1}
    assert "counted once per game" in tally.win_meaning()


def test_graded_games_report_grades_best_first_and_what_a_win_is() -> None:
    tally = Tally(["a", "b"])
    grades = {"Bronze": 10, "Silver": 20, "Gold": 30}
    for i, (won, grade) in enumerate([(True, "Gold"), (False, ""), (True, "Bronze")]):
        tally.add({"index": i, "moves": [1, 1], "seconds": [0, 0],
                   "outcome": {"kind": "cooperative", "scores": [5, 6], "winners": [],
                               "won": won, "grade": grade, "grades": grades}}, (0, 1))
    assert tally.grade_order() == ["Gold", "Bronze", "none"]
    assert tally.lines[0].wins == 2 and tally.lines[0].decided == 3
    assert "team" in tally.win_meaning()
    solo = Tally(["a"])
    solo.add({"index": 0, "moves": [1], "seconds": [0],
              "outcome": {"kind": "solo", "scores": [3], "winners": [], "won": None,
                          "grade": "Master"}}, [0])
    assert not solo.decided and "cannot be lost" in solo.win_meaning()
    assert solo.data()["lines"][0]["win_rate"] is None
