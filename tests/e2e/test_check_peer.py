"""``hedgerow check-peer`` between real processes, in both modes (``host``: the checker joins
our host; ``join``: our joiner joins the checker's table): against our own peer every
scenario passes; against deliberately broken peers (tests/e2e/silentpeer.py: no Error for
an out-of-turn action; tests/e2e/wronghash.py: state hashes that are not the rules';
tests/e2e/badreveal.py: a seed share that breaks its commitment; tests/e2e/norepeat.py: no
seed repeats after a stall; tests/e2e/revealcheat.py: a step's reveal that breaks its
commitment; tests/e2e/badcatchup.py: catch-up replies with hashes not its own;
tests/e2e/believer.py: a forged SeatTaken believed; tests/e2e/novote.py: no vote on a
motion; tests/e2e/untold.py: a handback without SeatTaken; tests/e2e/greedywatch.py: a
spectator that takes a feed with a hole) the deviation is caught, in the right scenario,
with the right docs/protocol.md section, and the rest of the report is unaffected."""

from __future__ import annotations

import atexit
import json
import shlex
import shutil
import tempfile
from pathlib import Path
from typing import Any

from e2e.helpers import Table, hedgerow, peer_env

from hedgerow.net.conformance import hosted, hosting, watching
from hedgerow.net.conformance.ending import ENDING
from hedgerow.net.conformance.report import Result, Verdict
from hedgerow.net.conformance.sealed import SEALED

#: The probes of a simultaneous step, which do not apply to Petals (no such step).
STEP_PROBES = {"refuse-step-action", "refuse-early-reveal", "refuse-second-commit",
               "step-repeat"}


def not_passed(results: dict[str, Any]) -> set[str]:
    """The scenarios that did not pass, the step probes (checked here not to apply) aside;
    every report line (but a failure's expected and got) fits 80 columns."""
    assert {results[n]["verdict"] for n in STEP_PROBES} == {"n/a"}
    for r in results.values():
        head = Result(r["name"], r["section"], Verdict(r["verdict"]), r["summary"]).line()
        assert len(head.splitlines()[0]) <= 80, head
    return {n for n, r in results.items() if r["verdict"] != "pass"} - STEP_PROBES


#: Our peers seat a bot for the departed checker this long after they see it lost (more
#: than a moment: a checker starved of CPU for 5 s on a loaded machine is seen lost too).
TAKE_OVER_AFTER = "3"


def check(table: Table, *, plugins: str = "") -> tuple[int, dict[str, Any], Any]:
    """Host petals (2 seats, open deck, a random bot) with ``plugins`` loaded into the host
    and run the checker against it; (exit status, results by scenario, the host)."""
    host, address = table.host("petals", 2, "--open-deck", "--bot", "random",
                               "--take-over-after", TAKE_OVER_AFTER, env=peer_env(plugins=plugins))
    run = hedgerow("check-peer", "host", address, "--json", "--timeout", "10",
                   "--log", str(host.home / "logs"), env=peer_env(), timeout=120)
    assert run.stdout, run.stderr
    report = json.loads(run.stdout)
    assert report["target"] == address
    return run.returncode, {r["name"]: r for r in report["results"]}, host


def test_our_own_peer_passes_every_scenario(table: Table) -> None:
    status, results, host = check(table)
    assert not_passed(results) == set(), [results[n] for n in not_passed(results)]
    assert status == 0
    assert list(results) == [n for n in hosted.SCENARIOS if n not in SEALED and n not in ENDING]
    assert results["seed-repeat"]["summary"] == "SeedCommit, SeedReveal again, identical"
    assert results["start-repeat"]["summary"] == "Start again, identical; the barrier held"
    assert results["play"]["checks"] > 10  # every action of the peer's was checked
    assert results["return"]["summary"] == "Hello, Start taken; the host sent the same seats"
    assert results["vote-not-departed"]["summary"] == "a no to a takeover and to an end"
    assert results["takeover"]["summary"].startswith("seen lost, a random bot from #")
    assert results["reclaim"]["summary"].startswith("SeatTaken first; the seat again from #")
    assert results["spectator"]["summary"] == "a SeatAssignment without seat; the seats told"
    assert results["spectator-refused"]["summary"] == "refused WRONG_SEAT"
    entries = int(results["play"]["summary"].split()[0])  # the whole game, to its last entry
    # The stream holds the takeover and the reclaim of the departure scenarios too.
    assert results["spectator-feed"]["summary"] == (f"the header, all {entries} entries, 2 "
                                                    "seat events")
    assert results["catch-up"]["checks"] > 16  # entry and hash of each of 8 or more entries
    assert results["log-file"]["summary"].endswith("entries and the header agree; verified")
    assert results["refuse-illegal"]["summary"] == "refused ILLEGAL (petals.unknown_action)"
    assert host.wait_event("over")  # the peer under test played on to the end


def test_a_peer_that_does_not_refuse_out_of_turn_is_caught_at_3_3(table: Table) -> None:
    status, results, _ = check(table, plugins="silentpeer")
    assert status == 1
    bad = results["refuse-out-of-turn"]
    assert bad["verdict"] == "fail" and bad["section"] == "3.3"
    assert bad["expected"] == "Error(OUT_OF_TURN)"
    assert bad["got"].startswith("no answer")
    # Only that scenario: the peer plays the whole game correctly otherwise.
    assert not_passed(results) == {"refuse-out-of-turn"}


def test_a_peer_with_wrong_state_hashes_is_caught_at_4_2(table: Table) -> None:
    status, results, _ = check(table, plugins="wronghash")
    assert status == 1
    play = results["play"]
    assert play["verdict"] == "fail" and play["section"] == "4.2"
    assert "state hash after entry #1" in play["expected"]
    assert results["end"]["verdict"] == "skip"
    # Seeding and every probe before the first wrong hash is reported still pass.
    assert results["seeding"]["verdict"] == results["start"]["verdict"] == "pass"


def test_a_bad_address_is_one_line_and_status_2() -> None:
    run = hedgerow("check-peer", "host", "not-an-address", env=peer_env())
    assert run.returncode == 2
    assert run.stderr.startswith("hedgerow: error: 'not-an-address' is not a table address")
    assert run.stdout == ""


def test_a_peer_whose_reveal_breaks_its_commitment_is_caught_at_4_4(table: Table) -> None:
    status, results, _ = check(table, plugins="badreveal")
    assert status == 1
    seeding = results["seeding"]
    assert seeding["verdict"] == "fail" and seeding["section"] == "4.4"
    assert seeding["expected"].startswith("seat 0's share to match its commitment")
    assert seeding["got"].startswith('digest("hedgerow-commit-v1", share) = ')
    # Nothing after the seed can run; the Hello probes and the seating still passed.
    assert {n for n, r in results.items() if r["verdict"] == "pass"} == {
        "hello-wrong-table", "hello-rules-mismatch", "hello-wrong-seat", "seating"}
    assert all(results[n]["verdict"] == "skip" for n in ("start", "play", "end"))


def check_joiner(table: Table, *, game: str = "petals", plugins: str = "",
                 rules: str = "") -> tuple[int, dict[str, Any], Any]:
    """``hedgerow check-peer join GAME`` and our joiner (a random bot, ``plugins`` loaded
    into it) at the address it printed; ``rules``: the game plugin both load.  (Exit status,
    results by scenario, the joiner.)"""
    home = Path(tempfile.mkdtemp(prefix="hedgerow-joiner-"))  # its log is checked (--log)
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    checker = table.start(["check-peer", "join", game, "--bind", "127.0.0.1", "--json",
                           "--timeout", "10", "--wait", "60", "--log", str(home / "logs"),
                           "--open-deck"],
                          peer_env(plugins=rules))
    opened = checker.wait_event("open")
    assert opened["fingerprint"].startswith(f"{game}@")
    assert opened["fingerprint"].endswith("#open-deck") and opened["players"] == 2
    assert opened["deck"] == "open"
    joiner = table.join(opened["address"], "--bot", "random", "--take-over-after",
                        TAKE_OVER_AFTER,
                        env=peer_env(home, plugins=",".join(p for p in (rules, plugins) if p)))
    status, _ = checker.finish(timeout=120)
    report = json.loads(checker.lines[-1])
    assert report["target"] == f"join {opened['address']}"
    return status, {r["name"]: r for r in report["results"]}, joiner


def test_our_own_joiner_passes_every_scenario(table: Table) -> None:
    status, results, joiner = check_joiner(table)
    assert not_passed(results) == set(), [results[n] for n in not_passed(results)]
    assert status == 0
    assert list(results) == [n for n in hosting.SCENARIOS
                             if n not in SEALED and n not in ENDING]
    assert results["hello"]["summary"].endswith("nothing before its seat")
    assert results["refuse-seat-moved"]["summary"] == "refused WRONG_PHASE"
    assert results["refuse-seat-count"]["summary"] == "refused WRONG_SEAT"
    assert results["return"]["summary"] == "Hello, Start taken"
    assert results["catch-up"]["verdict"] == "pass"
    assert results["log-file"]["verdict"] == "pass"
    assert results["play"]["checks"] > 10
    assert joiner.wait_event("over")  # the peer under test played on to the end


def test_a_joiner_that_never_repeats_its_seed_messages_is_caught_at_3_2(table: Table) -> None:
    status, results, _ = check_joiner(table, plugins="norepeat")
    assert status == 1
    bad = results["seed-repeat"]
    assert bad["verdict"] == "fail" and bad["section"] == "3.2"
    assert bad["expected"].startswith("seat 1's SeedCommit again, 3 heartbeats after")
    assert bad["got"].startswith("nothing of the kind within 10 s")
    # Only that scenario: the checker reveals after all, and the game is played through.
    assert not_passed(results) == {"seed-repeat"}


def test_our_joiner_plays_simultaneous_steps_to_the_end(table: Table) -> None:
    """Goofspiel (docs/examples): every bid is a simultaneous step, there is no one-seat
    turn; the step probes pass and the turn probes do not apply."""
    status, results, joiner = check_joiner(table, game="goofspiel", rules="goofspiel")
    verdicts = {name: r["verdict"] for name, r in results.items()}
    assert {n: r for n, r in results.items() if r["verdict"] != "pass"
            and n not in ("refuse-illegal", "refuse-broken-chain", "refuse-out-of-turn")} == {}
    assert status == 0
    assert all(verdicts[n] == "n/a" for n in ("refuse-illegal", "refuse-broken-chain",
                                              "refuse-out-of-turn"))
    assert results["refuse-step-action"]["summary"] == "refused OUT_OF_TURN at #1"
    assert results["refuse-early-reveal"]["summary"] == "refused BAD_REVEAL at #1"
    assert results["refuse-second-commit"]["summary"] == "refused BAD_REVEAL at #1"
    assert results["play"]["summary"] == "24 entries (0 peer turns, 8 steps), all agree"
    assert results["step-repeat"]["summary"] == "ActionCommit again at #4, identical"
    # The checker departs at a step: the bot commits and the runner reveals for its seat.
    assert results["takeover"]["verdict"] == results["reclaim"]["verdict"] == "pass"
    assert joiner.wait_event("over")


def test_a_joiner_whose_step_reveal_breaks_its_commitment_is_caught_at_4_5(
        table: Table) -> None:
    status, results, _ = check_joiner(table, game="goofspiel", rules="goofspiel",
                                      plugins="revealcheat")
    assert status == 1
    play = results["play"]
    assert play["verdict"] == "fail" and play["section"] == "4.5"
    assert play["expected"].startswith("seat 1's reveal at #1 to match its commitment")
    assert play["got"].startswith("action_commitment(1, 1, ")
    assert results["end"]["verdict"] == "skip"
    # The probes at the first step still passed: the reveal is what deviates.
    assert results["refuse-second-commit"]["verdict"] == "pass"


def test_a_host_whose_catch_up_hashes_lie_is_caught_at_5_6(table: Table) -> None:
    status, results, _ = check(table, plugins="badcatchup")
    assert status == 1
    bad = results["catch-up"]
    assert bad["verdict"] == "fail" and bad["section"] == "5.6"
    assert bad["expected"].startswith("the state hash after entry #0: ")
    # And the catch-up of the return after the checker was seen lost when its replies hold
    # entries (the peer may have played on past the checker's index; then its SeatTaken
    # and handback are not checked); the game itself is played correctly.
    lost = results["return-lost"]
    assert lost["verdict"] == "pass" or lost["section"] == "5.6"
    assert not_passed(results) == {"catch-up"} | (
        set() if lost["verdict"] == "pass" else {"return-lost", "reclaim"})


def test_a_joiner_whose_log_file_holds_a_wrong_hash_is_caught_at_6(table: Table) -> None:
    status, results, _ = check_joiner(table, plugins="badlog")
    assert status == 1
    bad = results["log-file"]
    assert bad["verdict"] == "fail" and bad["section"] == "6"
    assert bad["expected"].startswith("the state hash after entry #2: ")
    assert not_passed(results) == {"log-file"}  # on the wire it told the truth


def test_a_joiner_that_believes_a_forged_seat_taken_is_caught_at_5_9(table: Table) -> None:
    status, results, joiner = check_joiner(table, plugins="believer")
    assert status == 1
    bad = results["refuse-seat-taken"]
    assert bad["verdict"] == "fail" and bad["section"] == "5.9"
    assert bad["expected"] == "Error(WRONG_SEAT)" and bad["got"].startswith("no answer")
    # The checker then hands the seat back (the double waited for that) and the game is
    # played through; but the double's log holds the forged takeover and its handback.
    assert not_passed(results) == {"refuse-seat-taken", "log-file"}
    log = results["log-file"]
    assert log["section"] == "6" and log["expected"].startswith("the seat events ")
    assert joiner.wait_event("over")


def test_a_host_that_never_votes_is_caught_at_5_9(table: Table) -> None:
    status, results, _ = check(table, plugins="novote")
    assert status == 1
    bad = results["vote-not-departed"]
    assert bad["verdict"] == "fail" and bad["section"] == "5.9"
    assert bad["expected"].startswith("the peer's MotionVote on the checker's motion #2")
    # Only that scenario: its own takeover of the departed checker needs no vote of its.
    assert not_passed(results) == {"vote-not-departed"}


def check_spectator(table: Table, *, plugins: str = "") -> tuple[int, dict[str, Any], Any]:
    """``hedgerow check-peer watch petals`` and our spectator (``hedgerow watch ADDRESS
    --json``, ``plugins`` loaded into it) at the address it printed; (exit status, results by
    scenario, the spectator)."""
    checker = table.start(["check-peer", "watch", "petals", "--bind", "127.0.0.1", "--json",
                           "--timeout", "10", "--wait", "60"], peer_env())
    opened = checker.wait_event("open")
    assert opened["fingerprint"].endswith("#open-deck") and opened["players"] == 2
    watcher = table.start(["watch", opened["address"], "--json"], peer_env(plugins=plugins))
    status, _ = checker.finish(timeout=120)
    report = json.loads(checker.lines[-1])
    assert report["target"] == f"watch {opened['address']}"
    return status, {r["name"]: r for r in report["results"]}, watcher


def test_our_spectator_passes_every_watch_scenario(table: Table) -> None:
    status, results, watcher = check_spectator(table)
    assert {n: r for n, r in results.items() if r["verdict"] != "pass"} == {}
    assert status == 0
    assert list(results) == list(watching.SCENARIOS)
    for r in results.values():
        assert len(Result(r["name"], r["section"], Verdict(r["verdict"]),
                          r["summary"]).line()) <= 80
    assert results["watch-gap"]["summary"].startswith("ignored: still ")
    assert results["watch-restart"]["summary"].startswith("over from 1, back to ")
    assert results["watch-stranger"]["summary"] == "refused STRANGER"
    # Ours stops watching once the game is over (its Leave), before the host's.
    assert results["watch-end"]["summary"].startswith("it left once the game was over")
    status, result = watcher.finish()
    assert status == 0 and result is not None and result["problem"] is None


def test_a_spectator_that_takes_a_feed_with_a_hole_is_caught_at_3_4(table: Table) -> None:
    status, results, _ = check_spectator(table, plugins="greedywatch")
    assert status == 1
    bad = results["watch-gap"]
    assert bad["verdict"] == "fail" and bad["section"] == "3.4"
    assert bad["expected"].startswith("its count still ")
    # Ours then stops watching (the hole does not replay): the rest is not reached.
    assert results["watch-stream"]["got"] == "its Leave: it stopped watching"
    assert results["watch-overlap"]["verdict"] == "skip"


def test_a_runner_that_hands_back_without_seat_taken_is_caught_at_5_9(table: Table) -> None:
    status, results, _ = check(table, plugins="untold")
    assert status == 1
    bad = results["reclaim"]
    assert bad["verdict"] == "fail" and bad["section"] == "5.9"
    assert bad["expected"].startswith("SeatTaken from the peer at which a takeover")
    # Only that scenario: the handback came, and the checker's seat is its own again.
    assert not_passed(results) == {"reclaim"}


def test_the_printed_way_to_join_our_own_peer_conforms(table: Table) -> None:
    """Without --json, ``check-peer join`` prints how to join it with our own peer; run as
    printed (a bot peer with a takeover policy: one without leaves when the checker's seat
    departs), every scenario passes."""
    checker = table.start(["check-peer", "join", "petals", "--bind", "127.0.0.1",
                           "--timeout", "10", "--wait", "60"], peer_env())
    line = checker.wait_event(lambda e: "open at" in e.get("text", ""))["text"]
    assert "(sealed deck)" in line, line
    printed = shlex.split(line.split("e.g. ours: ", 1)[1])
    assert printed[:2] == ["hedgerow", "join"] and "--take-over-after" in printed, line
    table.start(printed[1:], peer_env())
    status, _ = checker.finish(timeout=120)
    assert status == 0, checker.lines[-3:]
    assert checker.lines[-1].rstrip().endswith("the peer conforms"), checker.lines[-1]
