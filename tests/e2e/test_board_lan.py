"""The shared leaderboard between real machines: four ``hedgerow`` homes on the loopback.

Three machines (A, B, C: each its own ``HEDGEROW_HOME``, so its own key and store) play
solo board games (tests/clients/boardgames.py, a bot's moves, in a process of its own;
A also leaves a game at its deal), then each shares its board with ``hedgerow leaderboard
flowers --serve``.  Nobody names anybody: the services find each other by DNS-SD on
127.0.0.1 and exchange what the other lacks, until the three boards are identical.  Then
B stops, and a fourth machine (D), which played one game meanwhile, runs a plain
``hedgerow leaderboard flowers --json``: it catches up (B's games reach it through A and
C), and A and C take D's game.  Every board, and every command's JSON, shows the same
lines.  The week is chosen at random in a far year so that board services of other test
runs on this machine change nothing that is compared.
"""

from __future__ import annotations

import importlib.util
import json
import random
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from datetime import time as day_time
from pathlib import Path
from typing import Any

import pytest
from e2e.helpers import TESTS, hedgerow, peer_env

from hedgerow.clients.leaderboard import IsoWeek, Leaderboard

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

BOARDGAMES = TESTS / "clients" / "boardgames.py"
WAIT = 90.0


def _multicast_problem() -> str | None:
    spec = importlib.util.spec_from_file_location("discovery_probe",
                                                  TESTS / "net" / "test_discovery.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module._loopback_multicast_problem()  # type: ignore[no-any-return]


def machine_env(home: Path) -> dict[str, str]:
    env = peer_env(home, HEDGEROW_DISCOVERY_INTERFACES="127.0.0.1")
    env.pop("HEDGEROW_NO_DISCOVERY")
    return env


def play(home: Path, name: str, games: int, when: datetime, left: int = 0) -> list[dict]:
    """Board games on the machine at ``home``; one ``{"number", "score"}`` a game."""
    done = subprocess.run([sys.executable, str(BOARDGAMES), name, str(games), when.isoformat(),
                           str(left)], env=machine_env(home), capture_output=True, text=True,
                          timeout=WAIT, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def serve(home: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-m", "hedgerow.clients.cli", "leaderboard",
                             "flowers", "--serve", "--bind", "127.0.0.1"],
                            env=machine_env(home), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # blocks until it listens (or ends)
    assert first == "Sharing the flowers leaderboard until Ctrl-C. Its address, for --peer:\n", (
        first, proc.stderr.read() if proc.poll() is not None else "")
    assert proc.stdout.readline().startswith("127.0.0.1:")
    return proc


def stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err
    return out


def board(home: Path, week: IsoWeek) -> list[tuple[Any, ...]]:
    """The board the machine at ``home`` shows, without where each player was seen."""
    with Leaderboard(home / "leaderboard.sqlite3", create=False) as store:
        return [(s.place, s.player, s.name, s.games, s.verified, s.total, s.best, s.rank)
                for s in store.standings("flowers", (), week)]


def until_equal(homes: list[Path], week: IsoWeek, players: int) -> list[tuple[Any, ...]]:
    """Wait until the machines at ``homes`` show one board of ``players`` lines."""
    deadline = time.monotonic() + WAIT
    while True:
        boards = [board(home, week) for home in homes]
        if all(b == boards[0] for b in boards) and len(boards[0]) == players:
            return boards[0]
        assert time.monotonic() < deadline, boards
        time.sleep(0.2)


def shown(home: Path, week: IsoWeek, *extra: str) -> dict:
    done = hedgerow("leaderboard", "flowers", "--json", "--week", str(week), *extra,
                    env=machine_env(home), timeout=WAIT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_three_machines_converge_and_a_fourth_catches_up(tmp_path: Path) -> None:
    if (problem := _multicast_problem()) is not None:
        pytest.skip(f"{problem}; as root, `ip link set lo multicast on` enables it")
    rng = random.Random()
    week = IsoWeek(rng.randrange(2100, 2900), rng.randrange(1, 53))
    when = datetime.combine(week.monday, day_time(12), tzinfo=UTC)
    a, b, c, d = (tmp_path / name for name in "abcd")
    played = {"Ann": play(a, "Ann", 3, when, left=1), "Bob": play(b, "Bob", 2, when),
              "Cy": play(c, "Cy", 1, when)}
    assert [g["score"] is None for g in played["Ann"]] == [False, False, False, True]
    procs = [serve(home) for home in (a, b, c)]
    try:
        lines = until_equal([a, b, c], week, 3)
        totals = {name: sum(-41 if g["score"] is None else g["score"] for g in games)
                  for name, games in played.items()}
        assert {line[2]: (line[3], line[4], line[5]) for line in lines} == {
            "Ann": (4, 3, totals["Ann"]), "Bob": (2, 2, totals["Bob"]),
            "Cy": (1, 1, totals["Cy"])}
        stop(procs.pop(1))  # B goes away; its games live on A and C
        played["Dee"] = play(d, "Dee", 1, when)
        late = shown(d, week, "--bind", "127.0.0.1")
        assert late["exchange"]["machines"] >= 2 and late["exchange"]["refused"] == []
        assert {p["player"] for p in late["players"]} == {"Ann", "Bob", "Cy", "Dee"}
        final = until_equal([a, c, d], week, 4)  # A and C took Dee's game when nudged
        assert {line[2] for line in final} == {"Ann", "Bob", "Cy", "Dee"}
    finally:
        for proc in procs:
            stop(proc)
    boards = [shown(home, week, "--wait", "0") for home in (a, b, c, d)]
    keep = ("place", "player", "key", "games", "verified", "average", "total", "best",
            "best_rank")
    as_shown = [[{k: p[k] for k in keep} for p in shown_board["players"]]
                for shown_board in boards]
    assert as_shown[0] == as_shown[2] == as_shown[3]
    assert len(as_shown[0]) == 4 and len(as_shown[1]) == 3  # B left before Dee played
    seen = {p["player"]: p["seen"] for p in boards[3]["players"]}
    assert seen["Dee"] == "this machine" and seen["Ann"] == "127.0.0.1"
