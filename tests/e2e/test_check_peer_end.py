"""``hedgerow check-peer join GAME --players 3`` and ``check-peer host`` at a table of
three: the agreed end (docs/protocol.md §5.9), between real processes.  The checker's table
of three holds seats 0 and 2 (two keys); our joiner holds seat 1 (at our host's table of
three the checker holds seats 1 and 2).  Seat 2 leaves, a motion of seat 0's alone is
voted down, the end of both remaining seats passes, and the table is over: against our own
peer every scenario passes; against broken peers (tests/e2e/endless.py: an agreed end that
never takes effect; tests/e2e/quorumless.py: a non-voter whose own no counts for nothing,
so an end with no quorum passes; tests/e2e/untoldend.py: a seat that comes back is not
told the game is over) the deviation is caught in the right scenario with
section 5.9."""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from e2e.helpers import Table, hedgerow, peer_env

from hedgerow.net.conformance import hosted, hosting
from hedgerow.net.conformance.departures import SCENARIOS as DEPARTURES
from hedgerow.net.conformance.ending import ENDING
from hedgerow.net.conformance.report import Result, Verdict
from hedgerow.net.conformance.sealed import SEALED

#: The probes of a simultaneous step, which do not apply to Petals (no such step).
STEP_PROBES = {"refuse-step-action", "refuse-early-reveal", "refuse-second-commit",
               "step-repeat"}


def check_three(table: Table, *, plugins: str = "") -> tuple[int, dict[str, Any], Any]:
    """``check-peer join petals --players 3 --open-deck`` and our joiner (a random bot that
    would seat a bot for a departed seat if it were the lowest remaining one, which it is
    not: it waits), ``plugins`` loaded into it; (exit status, results by scenario, the
    joiner)."""
    home = Path(tempfile.mkdtemp(prefix="hedgerow-joiner-"))  # its log is checked (--log)
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    checker = table.start(["check-peer", "join", "petals", "--players", "3", "--open-deck",
                           "--bind", "127.0.0.1", "--json", "--timeout", "10", "--wait", "60",
                           "--log", str(home / "logs")], peer_env())
    opened = checker.wait_event("open")
    assert opened["players"] == 3 and opened["deck"] == "open"
    joiner = table.join(opened["address"], "--bot", "random", "--take-over-after", "3",
                        env=peer_env(home, plugins=plugins))
    status, _ = checker.finish(timeout=120)
    report = json.loads(checker.lines[-1])
    return status, {r["name"]: r for r in report["results"]}, joiner


def test_our_joiner_agrees_to_end_at_a_table_of_three(table: Table) -> None:
    status, results, joiner = check_three(table)
    bad = [r for r in results.values() if r["verdict"] not in ("pass", "n/a")]
    assert not bad, bad
    assert status == 0
    assert {n for n, r in results.items() if r["verdict"] == "n/a"} == STEP_PROBES
    for r in results.values():  # every report line fits 80 columns
        head = Result(r["name"], r["section"], Verdict(r["verdict"]), r["summary"]).line()
        assert len(head.splitlines()[0]) <= 80, head
    # Every scenario of a table of two but its departures, and the agreed end's.
    assert list(results) == [n for n in hosting.SCENARIOS
                             if n not in SEALED and n not in DEPARTURES]
    assert set(ENDING) <= set(results)
    assert results["seating"]["summary"] == "seat 1 of 3, round 1"
    assert results["end-no-quorum"]["summary"] == "voted no; still plays (an action: ILLEGAL)"
    assert results["agreed-end"]["summary"].startswith("voted yes; over at #")
    assert results["end-return"]["summary"] == "Leave(GAME_OVER); catch-up answered"
    assert results["end-exit"]["summary"] == "no action after the end; Leave(GAME_OVER)"
    assert results["log-file"]["verdict"] == "pass"
    # The joiner saw the end as a person would: the seat event, then the game over.
    event = joiner.wait_event("seat_event")
    assert event["kind"] == "end" and event["seat"] == 2
    assert joiner.wait_event("over")["text"].startswith(
        "game over: the table agreed to end it, no winner; state ")
    status, result = joiner.finish()
    assert status == 0 and result is not None and result["outcome"] is None
    assert result["seat_events"] == [{"kind": "end", "seat": 2, "runner": 0, "bot": "",
                                      "index": event["index"]}]


def test_a_peer_whose_agreed_end_never_takes_effect_is_caught_at_5_9(table: Table) -> None:
    status, results, _ = check_three(table, plugins="endless")
    assert status == 1
    bad = results["agreed-end"]
    assert bad["verdict"] == "fail" and bad["section"] == "5.9", bad
    assert bad["expected"] == "Error(GAME_OVER)"
    assert bad["got"].startswith("no answer")
    assert results["end-no-quorum"]["verdict"] == "pass"


def test_a_peer_that_ends_with_no_quorum_is_caught_at_5_9(table: Table) -> None:
    status, results, _ = check_three(table, plugins="quorumless")
    assert status == 1
    bad = results["end-no-quorum"]
    assert bad["verdict"] == "fail" and bad["section"] == "5.9", bad
    assert bad["expected"] == "Error(ILLEGAL)"
    assert bad["got"].startswith("Error(GAME_OVER")


def test_a_peer_that_does_not_tell_a_returning_seat_the_game_is_over_is_caught_at_5_9(
        table: Table) -> None:
    status, results, _ = check_three(table, plugins="untoldend")
    assert status == 1
    bad = results["end-return"]
    assert bad["verdict"] == "fail" and bad["section"] == "5.9", bad
    assert bad["expected"].startswith("Leave(GAME_OVER) answering the Hello of seat 2")
    assert bad["got"].startswith("nothing of the kind within 10 s")
    assert results["agreed-end"]["verdict"] == "pass"


def test_our_host_of_three_agrees_to_end_with_the_checkers_two_seats(table: Table) -> None:
    """``check-peer host`` at a table of three our host opened: the checker takes seats 1
    and 2 (two Hellos), and the same agreed end follows; the spectator's stream holds the
    END seat event too."""
    host, address = table.host("petals", 3, "--open-deck", "--bot", "random",
                               "--take-over-after", "3", env=peer_env())
    run = hedgerow("check-peer", "host", address, "--json", "--timeout", "10",
                   "--log", str(host.home / "logs"), env=peer_env(), timeout=180)
    assert run.stdout, run.stderr
    results = {r["name"]: r for r in json.loads(run.stdout)["results"]}
    bad = [r for r in results.values() if r["verdict"] not in ("pass", "n/a")]
    assert not bad, bad
    assert run.returncode == 0
    assert list(results) == [n for n in hosted.SCENARIOS
                             if n not in SEALED and n not in DEPARTURES]
    assert results["seating"]["summary"] == "seat 1 of 3, round 1"
    assert results["agreed-end"]["summary"].startswith("voted yes; over at #")
    assert results["spectator-feed"]["summary"].endswith("1 seat events")


def test_a_sealed_table_of_three_is_refused_for_now() -> None:
    run = hedgerow("check-peer", "join", "petals", "--players", "3", env=peer_env())
    assert run.returncode == 2
    assert "--players 3 needs --open-deck" in run.stderr
