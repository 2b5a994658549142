"""``hedgerow check-peer`` at sealed tables (docs/protocol.md §10), between real processes,
in both modes: against our own peer every scenario passes (the shuffle and its repeats, the
cards' keys, the sealed probes, the disclosure that verifies the whole game, the secrecy of
every key, the log's seal records); each hostile fault (``--halt``) halts our peer; and
broken peers (tests/e2e/sealcheat.py: a lock pass with a card duplicated, card keys that
are not the ones committed to; tests/e2e/mutehalt.py: a host whose spectators' feeds never
say the table halted) are caught in the right scenario with the right section.

The short set that CI runs; docs/check-peer.md has the full run over every game."""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from e2e.helpers import Table, hedgerow, peer_env

from hedgerow.net.conformance import hosted, hosting
from hedgerow.net.conformance.ending import ENDING
from hedgerow.net.conformance.report import Result, Verdict

#: The scenarios that do not apply to a sealed Petals table: no simultaneous step, an
#: illegal action halts a sealed table rather than being refused (§10.7), and at a sealed
#: table of two nobody can take a departed seat over (§10.11).
NOT_HERE = {"refuse-illegal", "refuse-step-action", "refuse-early-reveal",
            "refuse-second-commit", "step-repeat", "takeover", "return-lost", "reclaim"}


def by_name(report: dict[str, Any]) -> dict[str, Any]:
    """The results by scenario; every report line (but a failure's expected and got) fits
    80 columns."""
    results = {r["name"]: r for r in report["results"]}
    for r in results.values():
        head = Result(r["name"], r["section"], Verdict(r["verdict"]), r["summary"]).line()
        assert len(head.splitlines()[0]) <= 80, head
    return results


def check_host(table: Table, *args: str, cheat: str = "", plugins: str = ""
               ) -> tuple[int, dict[str, Any]]:
    """Host sealed Petals (2 seats, a random bot; with ``cheat``, tests/e2e/sealcheat.py
    loaded that way; ``plugins`` loaded into it) and run ``check-peer host`` with ``args``
    against it."""
    env = (peer_env(plugins="sealcheat", HEDGEROW_SEALCHEAT=cheat) if cheat
           else peer_env(plugins=plugins))
    host, address = table.host("petals", 2, "--bot", "random", "--take-over-after", "3",
                               env=env)
    run = hedgerow("check-peer", "host", address, "--json", "--timeout", "10",
                   "--log", str(host.home / "logs"), *args, env=peer_env(), timeout=180)
    assert run.stdout, run.stderr
    return run.returncode, by_name(json.loads(run.stdout))


def check_join(table: Table, *args: str, game: str = "petals", cheat: str = ""
               ) -> tuple[int, dict[str, Any], Any]:
    """``check-peer join GAME`` (a sealed table) with ``args``, and our joiner (a random
    bot) at the address it printed; (exit status, results by scenario, the joiner)."""
    home = Path(tempfile.mkdtemp(prefix="hedgerow-joiner-"))
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    checker = table.start(["check-peer", "join", game, "--bind", "127.0.0.1", "--json",
                           "--timeout", "10", "--wait", "60", "--log", str(home / "logs"),
                           *args], peer_env())
    opened = checker.wait_event("open")
    assert opened["deck"] == "sealed" and "#" not in opened["fingerprint"]
    env = (peer_env(home, plugins="sealcheat", HEDGEROW_SEALCHEAT=cheat) if cheat
           else peer_env(home))
    joiner = table.join(opened["address"], "--bot", "random", "--take-over-after", "3",
                        env=env)
    status, _ = checker.finish(timeout=180)
    return status, by_name(json.loads(checker.lines[-1])), joiner


def test_our_sealed_host_passes_every_scenario(table: Table) -> None:
    status, results = check_host(table)
    verdicts = {n: r["verdict"] for n, r in results.items()}
    assert {n for n, v in verdicts.items() if v != "pass"} == NOT_HERE
    assert status == 0
    assert list(results) == [n for n in hosted.SCENARIOS
                             if not n.startswith("halt-") and n not in ENDING]
    assert results["sealed-shuffle"]["summary"] == ("2 passes of the peer's checked, "
                                                    "1 deck(s) made")
    assert results["sealed-repeat"]["summary"] == ("its lock pass again; waiting; held as "
                                                   "it stands")
    assert results["sealed-keys"]["summary"].startswith("2 cards of seat 1's, 3 public")
    assert results["refuse-bad-points"]["summary"] == "refused MALFORMED"
    assert results["refuse-escrow"]["summary"] == "refused WRONG_PHASE"
    assert results["sealed-disclose"]["summary"] == "1 deck(s) and every action verify"
    assert results["sealed-secrecy"]["summary"].endswith("keys: all cards shown")
    assert results["log-file"]["summary"].endswith("seal records agree; verified")


def test_our_sealed_joiner_passes_every_scenario(table: Table) -> None:
    status, results, joiner = check_join(table)
    verdicts = {n: r["verdict"] for n, r in results.items()}
    assert {n for n, v in verdicts.items() if v != "pass"} == NOT_HERE
    assert status == 0
    assert list(results) == [n for n in hosting.SCENARIOS
                             if not n.startswith("halt-") and n not in ENDING]
    assert results["refuse-out-of-turn"]["summary"].startswith("refused OUT_OF_TURN")
    assert joiner.wait_event("over")


def test_a_peer_that_duplicates_a_card_in_its_shuffle_is_caught_at_10_5(table: Table) -> None:
    status, results = check_host(table, cheat="duplicate")
    assert status == 1
    bad = results["sealed-shuffle"]
    assert bad["verdict"] == "fail" and bad["section"] == "10.5"
    assert bad["expected"].startswith("a lock pass of 35 distinct valid points")
    assert "duplicate" in bad["got"] or "alike" in bad["got"] or "same" in bad["got"]
    assert results["play"]["verdict"] == results["end"]["verdict"] == "skip"
    assert results["start"]["verdict"] == "pass"


def test_a_peer_whose_card_keys_break_their_commitments_is_caught_at_10_6(
        table: Table) -> None:
    status, results, _ = check_join(table, cheat="wrongkey")
    assert status == 1
    bad = results["sealed-keys"]
    assert bad["verdict"] == "fail" and bad["section"] == "10.6"
    assert "wrong key" in bad["got"] and "named the peer under test" in bad["got"]
    assert results["sealed-shuffle"]["verdict"] == "pass"  # its passes were honest


def test_our_host_halts_on_a_shuffle_with_a_card_duplicated(table: Table) -> None:
    status, results = check_host(table, "--halt", "bad-shuffle")
    assert status == 0
    halt = results["halt-bad-shuffle"]
    assert halt["verdict"] == "pass" and halt["section"] == "10.5"
    assert halt["summary"] == "halted: Leave(HALTED), naming seat 1"
    assert results["play"]["verdict"] == "n/a"  # the run ends at the halt


def test_our_host_halts_on_a_bad_disclosure_and_its_spectator_is_told(table: Table) -> None:
    status, results = check_host(table, "--halt", "bad-disclosure")
    assert status == 0
    halt = results["halt-bad-disclosure"]
    assert halt["verdict"] == "pass" and halt["section"] == "10.9"
    # The Leave and the spectator's feed (its halted, §3.4) both name the checker's party.
    assert halt["summary"] == "Leave(HALTED), naming party 1; feed too"
    assert results["sealed-disclose"]["verdict"] == "pass"


def test_a_host_that_never_tells_its_spectators_it_halted_is_caught_at_10_9(
        table: Table) -> None:
    status, results = check_host(table, "--halt", "bad-disclosure", plugins="mutehalt")
    assert status == 1
    halt = results["halt-bad-disclosure"]
    assert halt["verdict"] == "fail" and halt["section"] == "10.9"
    assert halt["expected"].startswith("a SpectatorFeed to the checker's spectator whose "
                                       "halted says why the table halted")
    assert halt["got"] == "none with halted within 10 s"


def test_our_joiner_halts_on_an_action_with_a_card_it_does_not_hold(table: Table) -> None:
    status, results, _ = check_join(table, "--halt", "unheld-card")
    assert status == 0
    halt = results["halt-unheld-card"]
    assert halt["verdict"] == "pass" and halt["section"] == "10.7"
    assert halt["summary"] == "halted: Leave(HALTED), naming seat 0"
    assert results["refuse-undealt-key"]["verdict"] == "pass"  # probes before the fault


def test_halt_is_refused_at_an_open_deck() -> None:
    run = hedgerow("check-peer", "join", "petals", "--open-deck", "--halt", "wrong-key",
                   env=peer_env())
    assert run.returncode == 2
    assert "--halt wrong-key provokes a sealed-deck fault: not with --open-deck" in run.stderr
