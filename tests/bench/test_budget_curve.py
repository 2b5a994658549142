"""bench/budget_curve.py: the share table (half wins, one deal counted once), when a run's
file is complete, carrying a stopped run on so that it plays the very same games, and the
Mandala stall count.

The bench scripts are not a package: this puts ``bench/`` on the import path, as running
them from the repository root does.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import budget_curve as bc  # noqa: E402
from ismcts import wilson  # noqa: E402

from hedgerow.core.actions import Action  # noqa: E402
from hedgerow.core.botchoice import resolve  # noqa: E402
from hedgerow.core.playout import play  # noqa: E402
from hedgerow.core.pluginhost import PluginHost  # noqa: E402
from hedgerow.core.seeding import seed_from_int  # noqa: E402
from hedgerow.core.table import Table  # noqa: E402


def header(seed: int = 900000, games: int = 4, bots: tuple[str, ...] = ("ismcts:300", "greedy"),
           players: int = 2) -> dict[str, Any]:
    return {"type": "tournament", "game": "mandala", "variants": [],
            "fingerprint": "mandala@1.1.0", "players": players, "games": games, "seed": seed,
            "bots": list(bots)}


def game(index: int, seed: int, bots: list[str], winners: list[int],
         scores: tuple[int, int] = (10, 8)) -> dict[str, Any]:
    return {"type": "game", "index": index, "seed": seed, "bots": bots,
            "outcome": {"scores": list(scores), "winners": winners},
            "moves": [20, 21], "seconds": [2.0, 0.5]}


def write(path: Path, *lines: dict[str, Any], torn: str = "") -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + torn)
    return path


ISM, GRE = "ismcts:300", "greedy"


def test_a_shared_victory_counts_its_share_and_the_interval_is_of_that_share(
        tmp_path: Path) -> None:
    path = write(tmp_path / "a.jsonl", header(),
                 game(0, 900000, [ISM, GRE], [0]),        # ismcts in seat 0 wins
                 game(1, 900001, [GRE, ISM], [0]),        # ismcts in seat 1 loses
                 game(2, 900002, [ISM, GRE], [0, 1]),     # shared: half
                 game(3, 900003, [GRE, ISM], [1], scores=(7, 9)))
    row = bc.summarise([path])[("mandala", ISM, GRE)]
    assert row["games"] == 4 and row["wins"] == 2.5
    # points are the ismcts seat's whichever seat it sat in
    assert row["mine"] == 10 + 8 + 10 + 9 and row["theirs"] == 8 + 10 + 8 + 7
    assert row["seconds"] == 2.0 + 0.5 + 2.0 + 0.5 and row["moves"] == 20 + 21 + 20 + 21
    low, high = wilson(2.5, 4)
    assert 0 < low < 2.5 / 4 < high < 1
    assert bc.cell_text(row) == f"2.5 of 4, 62.5% ({100 * low:.1f}-{100 * high:.1f}%)"


def test_wilson_matches_the_tournaments_own_interval() -> None:
    from hedgerow.core.tournament_stats import wilson as tournament_wilson

    for wins, games in ((154, 200), (0, 200), (200, 200), (47, 72)):
        assert wilson(wins, games) == pytest.approx(tournament_wilson(wins, games), abs=1e-4)


def test_a_deal_in_two_files_counts_once_and_an_unfinished_file_is_marked(
        tmp_path: Path) -> None:
    first = write(tmp_path / "a.jsonl", header(games=2), game(0, 900000, [ISM, GRE], [0]),
                  game(1, 900001, [GRE, ISM], [1]))
    second = write(tmp_path / "b.partial", header(seed=900001, games=2),
                   game(0, 900001, [ISM, GRE], [1]), game(1, 900002, [GRE, ISM], [1]))
    row = bc.summarise([first, second])[("mandala", ISM, GRE)]
    assert row["games"] == 3 and row["wins"] == 3.0
    assert row["seeds"] == {900000, 900001, 900002}
    assert row["partial"]
    assert not bc.summarise([first])[("mandala", ISM, GRE)]["partial"]
    assert bc.seed_ranges({900000, 900001, 900002, 900005, 900007, 900008}) == (
        "900000-900002, 900005, 900007-900008")


def test_a_file_is_complete_when_it_holds_every_game_it_asks_for(tmp_path: Path) -> None:
    games = [game(i, 900000 + i, [ISM, GRE] if i % 2 == 0 else [GRE, ISM], [0])
             for i in range(4)]
    assert bc.complete(write(tmp_path / "all.jsonl", header(), *games))
    assert not bc.complete(write(tmp_path / "gap.jsonl", header(), *games[:2], games[3]))
    assert not bc.complete(write(tmp_path / "none.jsonl", *games))  # no settings line
    assert not bc.complete(tmp_path / "absent.jsonl")
    # a run killed while writing its last line: the torn line is left out, not an error
    torn = write(tmp_path / "torn.partial", header(), *games[:3], torn='{"type": "ga')
    head, held = bc.read_records(torn)
    assert head == header() and sorted(held) == [0, 1, 2]
    assert not bc.complete(torn)


def test_a_stopped_run_keeps_whole_cycles_of_seatings() -> None:
    two = header()
    assert bc.resume_point(two, {}) == 0
    assert bc.resume_point(two, {key: {} for key in range(5)}) == 4   # seats swap every game
    assert bc.resume_point(two, {key: {} for key in [0, 1, 3, 4]}) == 2  # a gap
    three = header(bots=("ismcts:300", "greedy", "random"))  # 6 orders of 2 of 3 bots
    assert bc.resume_point(three, {key: {} for key in range(13)}) == 12


def test_a_record_that_is_not_its_runs_game_is_refused() -> None:
    bc.check_record(header(), game(3, 900003, [GRE, ISM], [0]))
    with pytest.raises(ValueError, match="game 3"):
        bc.check_record(header(), game(3, 900003, [ISM, GRE], [0]))  # seats swapped
    with pytest.raises(ValueError, match="game 2"):
        bc.check_record(header(), game(2, 900003, [ISM, GRE], [0]))  # another deal


def _games(path: Path) -> dict[int, tuple[Any, ...]]:
    _, held = bc.read_records(path)
    return {i: (g["seed"], g["bots"], g["state_hash"], g["outcome"]) for i, g in held.items()}


def test_a_stopped_run_carries_on_with_the_very_same_games(tmp_path: Path) -> None:
    """Real ``hedgerow tournament`` processes: a run of 4 games in one go, and the same run
    stopped after 3 games (a torn fourth line) then carried on, give the same games."""
    command = [sys.executable, "-m", "hedgerow.clients.cli"]
    bots = "ismcts:4,random"
    whole = tmp_path / "whole" / "run.jsonl"
    whole.parent.mkdir()
    bc.play_tournament(command, whole, "mandala", bots, 2, 700000, 4, 1)
    assert bc.complete(whole) and not whole.with_suffix(".partial").exists()
    lines = whole.read_text().splitlines()
    first = json.loads(lines[0])
    assert first["type"] == "tournament" and first["seed"] == 700000 and first["games"] == 4

    stopped = tmp_path / "stopped" / "run.jsonl"
    stopped.parent.mkdir()
    # the header and games 0-2 as a stopped run left them (the fourth line torn)
    stopped.with_suffix(".partial").write_text("\n".join(lines[:4]) + '\n{"type": "game", "in')
    bc.play_tournament(command, stopped, "mandala", bots, 2, 700000, 4, 1)
    assert bc.complete(stopped)
    assert _games(stopped) == _games(whole)
    head, _ = bc.read_records(stopped)
    assert head is not None and head["seed"] == 700000 and head["games"] == 4
    # game 2 was not kept (seats are kept in whole cycles) and was played again
    summaries = [json.loads(line) for line in stopped.read_text().splitlines()
                 if json.loads(line)["type"] == "summary"]
    assert [s["first"] for s in summaries] == [2] and summaries[0]["finished"] == 2

    # a finished run is not played again; another run's file is refused
    other = tmp_path / "other.jsonl"
    other.with_suffix(".partial").write_text(json.dumps(header(seed=1, games=4)) + "\n")
    with pytest.raises(ValueError, match="not 700000"):
        bc.play_tournament(command, other, "mandala", bots, 2, 700000, 4, 1)


def test_longest_run() -> None:
    assert bc.longest_run([]) == 0
    assert bc.longest_run([False, True, True, False, True, True, True, False]) == 3
    assert bc.longest_run([True] * 5) == 5


def test_face_down_and_completing_plays() -> None:
    ruleset = PluginHost(autoload=False).ruleset("mandala", players=2)
    state = Table(ruleset, 2, seed_from_int(5)).state
    five = 0b011111  # colours 0-4 present
    mandala = state.mandalas[1]._replace(present=five)
    state = state._replace(mandalas=(state.mandalas[0], mandala, *state.mandalas[2:]))

    def play_(colour: int, where: int = 1) -> Action:
        return Action("play", (("colour", colour), ("count", 1), ("mandala", where)))

    assert bc.completes(state, play_(5)) and not bc.face_down(state, play_(5))
    assert bc.face_down(state, play_(2)) and not bc.completes(state, play_(2))
    assert not bc.completes(state, Action("pass", ()))
    assert not bc.face_down(state, Action("pass", ()))


def test_the_stall_count_is_of_the_game_simulate_plays() -> None:
    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset("mandala", players=2)
    for seat in (0, 1):
        result = bc.stall_game(900000 + seat, "ismcts:8", seat)
        specs = [resolve(plugins, "greedy", "mandala")] * 2
        specs[seat] = resolve(plugins, "ismcts:8", "mandala")
        table = play(ruleset, 2, seed_from_int(900000 + seat), specs)
        assert result["state_hash"] == table.state_hash().hex()
        outcome = table.outcome()
        assert outcome is not None and result["scores"] == list(outcome.scores)
        assert result["plays"] > 0 and 0 <= result["longest"] <= result["down"] <= result["plays"]
        assert 0 <= result["missed"] <= result["plays"]


def test_the_sign_test_is_the_exact_binomial_tail() -> None:
    assert bc.sign_test(0, 0) == 1.0
    assert bc.sign_test(5, 5) == 1.0
    assert bc.sign_test(6, 0) == pytest.approx(2 / 64)
    assert bc.sign_test(0, 6) == bc.sign_test(6, 0)
    assert bc.sign_test(8, 2) == pytest.approx(2 * (1 + 10 + 45) / 1024)


def test_compare_pairs_the_deals_both_folders_played(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    before, after = tmp_path / "before", tmp_path / "after"
    before.mkdir()
    after.mkdir()
    write(before / "a.jsonl", header(games=3), game(0, 900000, [ISM, GRE], [1]),
          game(1, 900001, [GRE, ISM], [1]), game(2, 900002, [ISM, GRE], [0, 1]))
    write(after / "a.partial", header(games=4), game(0, 900000, [ISM, GRE], [0]),
          game(1, 900001, [GRE, ISM], [1]), game(2, 900002, [ISM, GRE], [1]),
          game(3, 900003, [GRE, ISM], [1]))  # a deal before did not play: left out
    shares = bc.per_deal(bc.folder_files(str(after)))
    assert shares == {("mandala", ISM, GRE): {900000: 1.0, 900001: 1.0, 900002: 0.0,
                                              900003: 1.0}}
    bc.compare(argparse.Namespace(before=str(before), after=str(after)))
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("| game | against | ismcts | deals in both | before | after |")
    # deal 0: a loss became a win; deal 1 the same; deal 2: a shared victory became a loss
    assert rows[2] == "| mandala | greedy | ismcts:300 | 3 | 1.5 | 2 | 1 / 1 | 1 |"


def test_the_stopping_rule_is_the_one_set_before_the_runs() -> None:
    """bench/README.md's rule against random: met once the lower end is above 90% (35
    straight wins; 53 games with one loss, 69 with two, 84 with three, 99 with four), not
    shown once 100 games can no longer get there (the fifth loss)."""
    assert bc.stop_verdict([1.0] * 34, 100, 0.9) is None
    assert bc.stop_verdict([1.0] * 40, 100, 0.9) == ("met", 35)
    for losses, games in [(1, 53), (2, 69), (3, 84), (4, 99)]:
        shares = [0.0] * losses + [1.0] * 100
        assert bc.stop_verdict(shares, 100, 0.9) == ("met", games)
        assert bc.stop_verdict(shares[:games - 1], 100, 0.9) is None
    assert bc.stop_verdict([1.0] * 30 + [0.0] * 5, 100, 0.9) == ("not shown", 35)
    assert bc.stop_verdict([0.0] * 4 + [0.5], 100, 0.9) == ("not shown", 5)  # a shared win
    assert bc.stop_verdict([1.0] * 94 + [0.0] * 4 + [1.0, 1.0], 100, 0.9) == ("met", 35)
    # every run is decided by its last game at the latest
    for shares in ([1.0] * 10, [0.0] + [1.0] * 9, [1.0, 0.0] * 5, [0.5] * 10):
        for low in (0.3, 0.5, 0.7, 0.9):
            assert bc.stop_verdict(shares, 10, low) is not None
    assert bc.stop_verdict([1.0] * 5, 5, 0.9) == ("not shown", 1)  # 5 of 5: 56.6-100%


def test_a_run_stops_by_its_rule_and_then_counts_as_complete(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A real ``hedgerow tournament`` stopped by its rule as soon as it is decided (a lower
    end above 99% cannot be reached in 4 games: not shown after the first), and a stopped
    run's file, carried on with the rule, decided by the games it holds without playing."""
    command = [sys.executable, "-m", "hedgerow.clients.cli"]
    path = tmp_path / "run.jsonl"
    bc.play_tournament(command, path, "mandala", "ismcts:4,random", 2, 700000, 4, 1, 0.99)
    assert bc.complete(path) and not path.with_suffix(".partial").exists()
    head, held = bc.read_records(path)
    assert head is not None and head["games"] == 1 and sorted(held) == [0]
    assert head["stopped"] == {"verdict": "not shown", "above": 0.99, "of": 4}

    # 36 wins held by a run killed after the rule was met at 35: game 36 is left out
    held_games = [game(i, 900000 + i, [ISM, GRE] if i % 2 == 0 else [GRE, ISM],
                       [i % 2]) for i in range(36)]
    kept = tmp_path / "kept.jsonl"
    write(kept.with_suffix(".partial"), header(games=100), *held_games)
    bc.play_tournament(["false"], kept, "mandala", f"{ISM},{GRE}", 2, 900000, 100, 1, 0.9)
    head, held = bc.read_records(kept)
    assert head is not None and head["games"] == 35 and sorted(held) == list(range(35))
    assert head["stopped"] == {"verdict": "met", "above": 0.9, "of": 100}
    assert bc.complete(kept) and not kept.with_suffix(".partial").exists()
    # 35 held: the rule reads game 35 too, though a carried-on run would play it again
    odd = tmp_path / "odd.jsonl"
    write(odd.with_suffix(".partial"), header(games=100), *held_games[:35])
    bc.play_tournament(["false"], odd, "mandala", f"{ISM},{GRE}", 2, 900000, 100, 1, 0.9)
    head, _ = bc.read_records(odd)
    assert head is not None and head["games"] == 35
    odd.unlink()
    capsys.readouterr()
    bc.table(argparse.Namespace(folders=[str(tmp_path)]))
    rows = capsys.readouterr().out.splitlines()
    assert "| 35 (stopped by the rule: met, lower end above 90%, at most 100) | 35 of 35, " \
           "100.0% (90.1-100.0%) |" in rows[2]
