"""Spectators between real processes (docs/protocol.md §3.4): ``hedgerow watch ADDRESS --json``.

A sealed table of three bot peers (``hedgerow host`` / ``join``) and two spectators: one
watching from the seating, the other arriving in the middle of the game; the first leaves
(Ctrl-C) before the end.  The players play on as if nobody watched (one hash, the deck
verifies); the spectator that stayed saw who came and went, follows every move and ends on
the players' state hash and outcome.  A table opened with ``--no-spectators`` refuses to be
watched, in one line.  A curious spectator process that writes down every frame it
receives learns no card that was not shown to everyone.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from e2e.helpers import PeerProcess, Table, hedgerow, peer_env

pytestmark = pytest.mark.e2e
GAME_WAIT = 120.0


def watcher(table: Table, address: str, name: str) -> PeerProcess:
    return table.start(["watch", address, "--json", "--name", name], peer_env())


def test_two_spectators_of_a_sealed_table_of_processes(table: Table) -> None:
    slow = ("--bot", "random", "--delay", "0.25")
    host, address = table.host("petals", 3, *slow, env=peer_env())
    early = watcher(table, address, "Early")
    assert early.wait_event("watching")["watchers"] == ["Early"]
    joiners = [table.join(address, *slow, env=peer_env()) for _ in range(2)]
    early.wait_event(lambda e: e.get("event") == "entry" and e["index"] >= 8)
    late = watcher(table, address, "Late")  # in the middle of the game
    assert late.wait_event("watching")["watchers"] == ["Early", "Late"]
    late.wait_event(lambda e: e.get("event") == "entry" and e["index"] >= 12)
    early.proc.send_signal(signal.SIGINT)  # it leaves; nothing changes at the table
    early.finish(timeout=20)
    late.wait_event(lambda e: e.get("event") == "watchers" and e["watchers"] == ["Late"])
    results = []
    for peer in (host, *joiners):
        code, result = peer.finish(timeout=GAME_WAIT)
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished"
        results.append(result)
    assert len({r["state_hash"] for r in results}) == 1
    assert {r["verified"] for r in results} == {"every shuffle, key and action checks out"}
    code, seen = late.finish(timeout=30)
    assert code == 0, late.stderr
    assert seen is not None and seen["problem"] is None
    assert seen["state_hash"] == results[0]["state_hash"]
    assert seen["outcome"] == results[0]["outcome"]
    assert seen["entries"] == results[0]["actions"]
    moves = [e["index"] for e in late.events if e.get("event") == "entry"]
    assert moves == list(range(results[0]["actions"]))  # every entry, once, in order


def test_a_table_that_refuses_spectators_says_so(table: Table) -> None:
    _, address = table.host("petals", 2, "--bot", "random", "--no-spectators",
                            env=peer_env())
    done = hedgerow("watch", address, "--json", env=peer_env())
    code, out, err = done.returncode, done.stdout, done.stderr
    assert code == 2 and out == "", done
    assert err.startswith("hedgerow: error: the table refused: this table takes no "
                          "spectators"), err
    assert err.count("\n") == 1


def test_a_curious_spectator_process_learns_no_hidden_card(table: Table, tmp_path: Path) -> None:
    """The curious peer of tests/e2e/test_net_sealed.py, as a spectator: a process that
    writes down every frame it receives (tests/e2e/spyspectator.py).  In the middle of the
    game, and at its end, everything it holds opens no card of any hand that was not shown
    to everyone (tests/spectating.py)."""
    from spectating import check_curious

    from hedgerow.core.pluginhost import PluginHost

    slow = ("--bot", "random", "--delay", "0.4", "-v")
    host, address = table.host("petals", 2, *slow, env=peer_env())
    frames = tmp_path / "frames.txt"
    spy = subprocess.Popen([sys.executable, str(Path(__file__).with_name("spyspectator.py")),
                            address, str(frames)], env=peer_env(), stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not (frames.exists() and frames.read_text().startswith("watching")):
            assert time.monotonic() < deadline and spy.poll() is None, spy.stderr
            time.sleep(0.05)  # a poll, not a wait for something to happen
        joiner = table.join(address, *slow, env=peer_env())
        host.wait_event(lambda e: e.get("event") == "action" and e["index"] >= 6)
        ruleset = PluginHost().ruleset("petals", (), 2)

        def held() -> list[bytes]:
            return [bytes.fromhex(line) for line in frames.read_text().split("\n")[1:]
                    if line]

        checked = check_curious(held(), ruleset, 2, hands=True)  # mid-game
        # Both hands, two cards each at rest; the records may stop between a seat's play
        # and its draw (the spectator's stream runs behind the host's events), one card less.
        assert checked >= 3
        for peer in (host, joiner):
            code, result = peer.finish(timeout=GAME_WAIT)
            assert code == 0 and result is not None, peer.stderr
        assert spy.wait(timeout=60) == 0, spy.stderr.read() if spy.stderr else ""
        check_curious(held(), ruleset, 2, hands=False)  # and all of it, at the end
    finally:
        if spy.poll() is None:
            spy.kill()
            spy.wait()
