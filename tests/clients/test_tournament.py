"""``hedgerow tournament`` on this machine: its table, its JSON, bad arguments, failures,
Ctrl-C, and the same results in this process and on a pool of worker processes.

Dask's backends are checked in test_tournament_dask.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from tournament_helpers import ARGS, run_json, without_timing

from hedgerow.clients import tournament_backends
from hedgerow.clients.cli import main
from hedgerow.clients.progress import Progress
from hedgerow.clients.tournament_play import Job, run_batch
from hedgerow.core.tournament_stats import wilson


@pytest.fixture
def no_dask(monkeypatch: pytest.MonkeyPatch) -> None:
    """Several workers mean a `concurrent.futures` process pool, as without hedgerow[cluster]."""
    monkeypatch.setattr(tournament_backends, "dask_installed", lambda: False)


def test_json_is_a_header_every_game_in_order_and_a_summary() -> None:
    lines = run_json("--games", "6", "--workers", "1")
    header, games, summary = lines[0], lines[1:-1], lines[-1]
    assert header["type"] == "tournament" and header["game"] == "petals"
    assert header["bots"] == ["random", "random#2"] and header["players"] == 2
    assert (header["games"], header["seed"], header["block"], header["cycle"]) == (6, 40, 2, 2)
    assert [g["type"] for g in games] == ["game"] * 6
    assert [g["index"] for g in games] == list(range(6))
    assert [g["seed"] for g in games] == list(range(40, 46))
    assert [g["bots"] for g in games[:2]] == [["random", "random#2"], ["random#2", "random"]]
    for g in games:
        assert set(g) == {"type", "index", "seed", "bots", "actions", "state_hash", "outcome",
                          "moves", "seconds"}
        assert g["outcome"]["kind"] == "ranked" and len(g["state_hash"]) == 64
        assert sum(g["moves"]) <= g["actions"] and len(g["seconds"]) == 2
    assert summary["type"] == "summary" and summary["finished"] == 6
    assert not summary["interrupted"]
    bots = summary["bots"]
    assert bots["games"] == 6 and bots["kind"] == "ranked"
    assert [row["label"] for row in bots["lines"]] == ["random", "random#2"]
    assert [row["label"] for row in summary["seats"]["lines"]] == ["seat 0", "seat 1"]
    assert all(row["games"] == 6 and len(row["win_ci95"]) == 2 for row in bots["lines"])


def test_a_bot_in_two_seats_that_wins_every_game_shows_100_percent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two bots at four seats sit A B A B: greedy beats random in every game, so greedy has
    won every game it played (not half its seats) and random none."""
    args = ["--players", "4", "--bots", "greedy,random", "--games", "20", "--workers", "1"]
    lines = run_json(*args)
    games, summary = lines[1:-1], lines[-1]
    for g in games:
        greedy_seats = {s for s, bot in enumerate(g["bots"]) if bot == "greedy"}
        assert len(greedy_seats) == 2
        assert g["outcome"]["winners"] and set(g["outcome"]["winners"]) <= greedy_seats
    greedy, random_ = summary["bots"]["lines"]
    assert (greedy["games"], greedy["seats"], greedy["decided"], greedy["wins"]) == (20, 40, 20, 20)
    assert greedy["win_rate"] == 1.0
    assert greedy["win_ci95"] == list(wilson(20, 20)) and greedy["win_ci95"][1] == 1.0
    assert (random_["games"], random_["wins"], random_["win_rate"]) == (20, 0, 0.0)
    assert "counted once per game" in summary["bots"]["win"]
    # a seat is one seat of each game: its figures are per seat and per game alike
    assert [row["games"] for row in summary["seats"]["lines"]] == [20] * 4
    assert sum(row["wins"] for row in summary["seats"]["lines"]) >= 20

    assert main([*ARGS, *args]) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines())
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.split()[:1] in (["greedy"], ["random"]) and "%" in line}
    low = f"{100 * wilson(20, 20)[0]:.1f}"
    assert rows["greedy"][1:6] == ["20", "40", "20", "100.0%", f"{low}-100.0%"]
    assert rows["random"][1:5] == ["20", "40", "0", "0.0%"]


def test_a_tournament_game_is_the_simulate_game_with_the_same_seed_and_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    games = run_json("--games", "2", "--workers", "1")[1:-1]
    assert main(["simulate", "petals", "--players", "2", "--seed", "41", "--json"]) == 0
    simulated = json.loads(capsys.readouterr().out)
    assert simulated["state_hash"] == games[1]["state_hash"]


def test_the_same_results_in_this_process_and_on_two_worker_processes(no_dask: None) -> None:
    alone = run_json("--games", "30", "--workers", "1")
    pooled = run_json("--games", "30", "--workers", "2")
    assert "2 worker processes" in pooled[0]["backend"]
    assert without_timing(alone) == without_timing(pooled)
    assert len({g["state_hash"] for g in alone[1:-1]}) == 30


def test_the_table_fits_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "petals", "--players", "4", "--games", "9", "--workers", "1",
                 "--bots", "random,random,random"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    # no --seed: the first seed was drawn for the run, and the table says which
    assert lines[0].startswith("petals@2.1.0, 4 players: 9 games, seeds ")
    first, last = (int(n) for n in lines[0].rpartition(" ")[2].split("-"))
    assert last == first + 8 and first >= 0
    head = next(line for line in lines if line.startswith("bot "))
    for column in ("games", "seats", "wins", "win rate", "95% CI", "score", "sd", "ms/move"):
        assert column in head
    rows = lines[lines.index(head) + 1: lines.index(head) + 4]
    assert [row.split()[0] for row in rows] == ["random", "random#2", "random#3"]
    assert [row.split()[1:3] for row in rows] == [["9", "12"]] * 3  # 4 seats of 3 bots
    assert "win: a game where any of its seats ranked first" in out  # 4 seats, 3 bots
    histogram = lines[lines.index(next(x for x in lines if x.startswith("score distribution"))):]
    assert any(ch in "".join(histogram[1:4]) for ch in "▁▂▃▄▅▆▇█")


def test_cooperative_games_report_team_wins_and_grades(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tournament", "flourish", "--variant", "cooperative", "--players", "2",
                 "--games", "4", "--workers", "1", "--bots", "random,random"]) == 0
    out = capsys.readouterr().out
    assert "win: the team reached a grade" in out
    assert "grades" in out and "none" in out
    assert all(len(line) <= 80 for line in out.splitlines())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,deep"], "unknown bot 'deep' for petals (choose from: "),
        (["--bots", "random"], "--bots needs at least two bots to compare"),
        (["--bots", "random,,random"], "--bots 'random,,random' has an empty name"),
        (["--bots", "random,random", "--games", "0"], "--games must be at least 1, not 0"),
        (["--bots", "random,random", "--workers", "0"], "--workers must be at least 1, not 0"),
        (["--bots", "random,random", "--players", "9"], "petals is for 2 to 5 players, not 9"),
        (["--bots", "random,random", "--scheduler", "nonsense"],
         "--scheduler 'nonsense' is not a scheduler address like tcp://HOST:8786"),
        (["--bots", "random,random", "--scheduler", "http://host:8786"],
         "--scheduler 'http://host:8786' is not a scheduler address"),
        (["--bots", "random,random", "--scheduler", "tcp://127.0.0.1:1"],
         "no Dask scheduler answers at tcp://127.0.0.1:1"),
        (["--bots", "random,random", "--worker-timeout", "5"],
         "--worker-timeout is for a cluster named with --scheduler"),
        (["--bots", "random,random", "--worker-timeout", "0", "--scheduler", "tcp://h:1"],
         "--worker-timeout must be a number of seconds above 0, not 0"),
        (["--bots", "random,random", "--worker-timeout", "nan", "--scheduler", "tcp://h:1"],
         "--worker-timeout must be a number of seconds above 0, not nan"),
        (["--bots", "random,random", "--dashboard", "--workers", "1"],
         "--dashboard shows a Dask cluster's dashboard, and this run plays in this process"),
    ],
)
def test_bad_arguments_are_one_clear_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["tournament", "petals", "--games", "2", *args]) == 2
    out = capsys.readouterr()
    assert out.err.startswith(f"hedgerow: error: {message}"), out.err
    assert len(out.err.splitlines()) == 1 and out.out == ""


def test_no_bots_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "petals"])
    assert exit_.value.code == 2
    assert "the following arguments are required: --bots" in capsys.readouterr().err


def test_a_bot_that_raises_names_the_game_and_its_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["-p", "tournament_plugins", "tournament", "petals", "--players", "2",
            "--bots", "random,seat-zero-fails", "--seed", "7", "--games", "5", "--workers", "1"]
    assert main(args) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == (
        "hedgerow: error: game 1 (seed 8; seats: seat-zero-fails, random) failed: "
        "ValueError: this bot cannot play seat 0"
    )
    assert err[0].startswith("Traceback")  # the worker's traceback, for the bot's author


CTRL_C = (
    "import sys; import hedgerow.clients.tournament_backends as b; "
    "b.dask_installed = lambda: False; "
    "from hedgerow.clients.cli import main; sys.exit(main())"
)


def _gone(pid: int, within: float = 30.0) -> bool:
    """True once process ``pid`` has exited (or after ``within`` seconds, False)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().split(") ")[-1].startswith("Z"):
                    return True  # exited, waiting to be reaped
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_ctrl_c_stops_the_workers_and_summarises_what_finished() -> None:
    games = 5000
    command = [sys.executable, "-c", CTRL_C, *ARGS, "--games", str(games), "--workers", "2",
               "--json"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        seen = [json.loads(proc.stdout.readline()) for _ in range(4)]  # the header, 3 games
        assert seen[0]["type"] == "tournament" and seen[3]["type"] == "game"
        children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True,
                                  text=True).stdout.split()
        assert len(children) >= 2  # the two workers (and multiprocessing's resource tracker)
        proc.send_signal(signal.SIGINT)
        assert proc.stderr is not None
        out, err = proc.stdout.read(), proc.stderr.read()  # what is buffered here included
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = [json.loads(line) for line in out.splitlines()]
    summary = lines[-1]
    assert proc.returncode == 130
    assert summary["type"] == "summary" and summary["interrupted"]
    finished = len(lines) - 1 + 3
    assert summary["finished"] == finished == summary["bots"]["games"] < games
    assert "hedgerow: interrupted after" in err and "Traceback" not in err
    assert all(_gone(int(pid)) for pid in children)  # no worker left behind


def test_help_says_what_tournament_is_for_next_to_simulate() -> None:
    out = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "tournament", "--help"],
                         capture_output=True, text=True, env={**os.environ, "COLUMNS": "100"},
                         timeout=60)
    assert out.returncode == 0
    assert "Compare bots" in out.stdout and "hedgerow simulate" in out.stdout
    assert "--scheduler" in out.stdout and "--workers" in out.stdout


def test_a_worker_with_other_rules_refuses_to_play() -> None:
    job = Job("petals", (), 2, 0, ("random", "random"), fingerprint="petals@0.0.1")
    result = run_batch(job, 4, 6)
    assert result["records"] == [] and result["error"]["index"] == 4
    assert "has the rules petals@" in result["error"]["message"]
    assert "the tournament was set up with petals@0.0.1" in result["error"]["message"]


def test_news_during_a_run_goes_above_the_bar_or_to_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    Progress().say("no Dask worker yet at tcp://h:1: waiting for one\nstart one with: x")
    assert capsys.readouterr().err == ("hedgerow: no Dask worker yet at tcp://h:1: waiting "
                                       "for one\nhedgerow: start one with: x\n")
    titles: list[str | None] = []
    moved: list[int] = []
    bar = Progress(moved.append, titles.append)
    bar.say("every Dask worker has left: waiting for one\nstart one with: x")
    bar(1)  # games came: the news goes
    bar(2)
    assert titles == ["every Dask worker has left: waiting for one", None]
    assert moved == [1, 2] and capsys.readouterr().err == ""


def test_a_bot_with_comma_separated_parameters_is_one_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--bots ismcts:3,top=2,random`` is two bots: ismcts's own parameters are comma
    separated too (`hedgerow.core.botchoice.split_list`)."""
    assert main(["tournament", "petals", "--players", "2", "--bots", "ismcts:3,top=2,random",
                 "--games", "2", "--seed", "5", "--workers", "1", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["bots"] == ["ismcts:3,top=2", "random"]
    assert lines[1]["bots"] == ["ismcts:3,top=2", "random"]
    assert main(["simulate", "petals", "--players", "2", "--bots", "ismcts:3,top=2,random",
                 "--seed", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["state_hash"] == lines[1]["state_hash"]
