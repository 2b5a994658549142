"""A departed seat between real peer processes (docs/protocol.md §5.9).

Three headless bot peers play Petals over CURVE on 127.0.0.1 with ``--take-over-after``;
one is killed (SIGKILL) mid-game.  The other two are told who left and what the table can
do; the lowest remaining seat proposes that a bot takes the seat, the other agrees, and the
proposer's process plays it.  First run: the game finishes that way, with one state hash
everywhere and logs that pass ``hedgerow replay --verify``, each holding the takeover as a
seat event.  Second run: the killed player comes back with ``hedgerow resume`` while the
game is on, reclaims the seat and finishes it.
"""

from __future__ import annotations

from typing import Any

import pytest
from e2e.helpers import PeerProcess, Table, hedgerow, peer_env

from hedgerow.net.logfile import read_log
from hedgerow.net.messages import SeatEventKind

pytestmark = pytest.mark.e2e


def killed_and_taken_over(table: Table, delay: str) -> tuple[list[PeerProcess], PeerProcess,
                                                             int, dict[str, Any]]:
    """Three bot peers; the last joiner is killed after a few actions and the others agree
    that a bot takes its seat: (the two others, the killed one, its seat, its start event)."""
    bots = ("--bot", "random", "--delay", delay, "--take-over-after", "1")
    host, address = table.host("petals", 3, *bots, env=peer_env())
    joiners = [table.join(address, *bots, "-v", env=peer_env()) for _ in range(2)]
    victim = joiners[1]
    seat = victim.wait_event("joined")["seat"]
    start = victim.wait_event("start")
    victim.wait_event(lambda e: e.get("event") == "action" and e["index"] >= 3)
    victim.kill()
    others = [host, joiners[0]]
    for peer in others:
        # Told who left, and what the table can do now.
        told = peer.wait_event(lambda e: e.get("event") == "departed" and e["seat"] == seat,
                               timeout=20)
        assert "hedgerow resume" in told["text"] and "bot" in told["text"]
        taken = peer.wait_event(lambda e: e.get("event") == "seat_event"
                                and e["kind"] == "takeover", timeout=20)
        assert taken["seat"] == seat and taken["runner"] == 0 and taken["bot"] == "random"
    return others, victim, seat, start


def check_logs(results: list[dict[str, Any]], peers: list[PeerProcess],
               kinds: list[SeatEventKind]) -> None:
    assert len({r["state_hash"] for r in results}) == 1
    logs = [read_log(r["log"]) for r in results]
    assert all(log.ok for log in logs)
    # (compared as lists: a sealed card in an action is a token, which cannot be hashed)
    assert all([e.entry for e in log.entries] == [e.entry for e in logs[0].entries]
               for log in logs)
    for log in logs:
        assert [e.kind for e in log.events] == kinds
    for peer, result in zip(peers, results, strict=True):
        done = hedgerow("replay", result["log"], "--verify", env=peer.env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert result["state_hash"] in done.stdout


def test_a_killed_peers_seat_is_taken_over_by_agreement_and_the_game_finishes(
        table: Table) -> None:
    others, _victim, seat, _start = killed_and_taken_over(table, "0.02")
    results = []
    for peer in others:
        code, result = peer.finish()
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished"
        assert result["outcome"] is not None  # the rules' own result: a bot played it out
        assert [e["kind"] for e in result["seat_events"]] == ["takeover"]
        results.append(result)
    check_logs(results, others, [SeatEventKind.TAKEOVER])
    # Seat 2's entries after the takeover were authored by seat 0's bot, in the chain as any.
    entries = read_log(results[0]["log"]).entries
    taken_at = read_log(results[0]["log"]).events[0].index
    assert any(e.entry.seat == seat and e.entry.index >= taken_at for e in entries)
    # A replay shows the takeover beside the entries.
    shown = hedgerow("replay", results[0]["log"], env=others[0].env)
    assert shown.returncode == 0, shown.stderr
    header = read_log(results[0]["log"]).header
    assert header is not None
    names = [(header.seat_names[s] if s < len(header.seat_names) else "") or f"Seat {s}"
             for s in range(3)]
    assert (f"-- a random bot run by {names[0]} plays for {names[seat]} "
            f"from entry #{taken_at}") in shown.stdout


def test_the_killed_player_resumes_and_reclaims_the_seat(table: Table) -> None:
    others, victim, seat, start = killed_and_taken_over(table, "0.3")
    back = table.start(["resume", start["log"], "--bot", "random", "--json"], victim.env)
    back.wait_event("resumed")
    reclaimed = back.wait_event(lambda e: e.get("event") == "seat_event"
                                and e["kind"] == "reclaim", timeout=30)
    assert reclaimed["seat"] == seat
    results = []
    for peer in [*others, back]:
        code, result = peer.finish()
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished"
        results.append(result)
    check_logs(results, [*others, back], [SeatEventKind.TAKEOVER, SeatEventKind.RECLAIM])
    # The returning player played its seat again after the handback.
    log = read_log(start["log"])
    handback = log.events[1].index
    assert any(e.entry.seat == seat and e.entry.index >= handback for e in log.entries)
