"""Faults a live table survives, between real peer processes (issue 10, points 9 to 12).

* a byte flipped in the middle of a killed peer's log: ``hedgerow resume`` keeps the damaged
  file aside, continues from the intact prefix and refills the rest from the other peers;
* a stranger flooding the host with huge ``Hello``s: the host's memory, stderr and terminal
  stay bounded and clean, and the table still plays;
* a peer killed during seed agreement: the table goes back to seating, the peer joins again
  and the game starts;
* a peer killed as it prints the result: the others end within seconds, not the give-up;
* a ``Hello`` signed with the host's own key is refused saying so.
"""

from __future__ import annotations

import signal
import struct
from pathlib import Path

import pytest
from e2e.helpers import Table, hedgerow, peer_env

pytestmark = pytest.mark.e2e

SLOW = ("--bot", "random", "--delay", "0.05")


def record_offsets(data: bytes) -> list[tuple[int, int]]:
    """(payload start, payload length) of every record of a log file's bytes."""
    from hedgerow.net.logfile import MAGIC

    out, pos = [], len(MAGIC)
    while pos + 8 <= len(data):
        length, _ = struct.unpack_from("<II", data, pos)
        out.append((pos + 8, length))
        pos += 8 + length
    return out


@pytest.mark.parametrize("damage", ["payload byte", "length past the end"])
def test_a_byte_flipped_in_a_live_peers_log_is_refilled_from_the_table(table: Table,
                                                                       damage: str) -> None:
    from hedgerow.net.logfile import read_log

    host, address = table.host("petals", 3, *SLOW, env=peer_env())
    joiners = [table.join(address, *SLOW, "-v", env=peer_env()) for _ in range(2)]
    victim = joiners[1]
    start = victim.wait_event("start")
    victim.wait_event(lambda e: e.get("event") == "action" and e["index"] >= 8)
    victim.kill()
    log = Path(start["log"])
    data = bytearray(log.read_bytes())
    records = record_offsets(bytes(data))  # the header, then entries #0, #1, ...
    assert len(records) >= 8
    payload, length = records[3]  # entry #2: damage with intact entries after it
    if damage == "payload byte":
        data[payload + length // 2] ^= 0x55
    else:  # a length field that points past the end of the file: not a torn tail
        struct.pack_into("<I", data, payload - 8, len(data) - payload + 100)
    log.write_bytes(bytes(data))
    assert not read_log(log).problem.at_tail
    back = table.start(["resume", str(log), "--bot", "random", "--json"], victim.env)
    back.wait_event("resumed")
    results = []
    for peer in [host, joiners[0], back]:
        code, result = peer.finish()
        assert code == 0, peer.stderr
        results.append(result)
    assert len({r["state_hash"] for r in results}) == 1
    # Every entry is back, in a log that verifies, and the damaged bytes were kept aside.
    healed = read_log(log)
    assert healed.ok
    assert len(healed.entries) == results[0]["actions"]
    theirs = read_log(results[0]["log"]).entries
    assert [e.entry for e in healed.entries] == [e.entry for e in theirs]
    assert (log.parent / (log.name + ".damaged")).read_bytes() == bytes(data)
    done = hedgerow("replay", str(log), "--verify", env=victim.env)
    assert done.returncode == 0, done.stdout + done.stderr


def last_moves(game: str, players: int, seed: int) -> tuple[int, dict[int, int]]:
    """The final entry's index of the game random bots play from ``seed``, and each seat's
    last entry."""
    from hedgerow.core.playout import play
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.core.seeding import seed_from_int

    plugins = PluginHost()
    finished = play(plugins.ruleset(game, (), players), players, seed_from_int(seed),
                    [plugins.bot("random")])
    last = {e.seat: e.index for e in finished.entries}
    return len(finished.entries) - 1, last


def test_a_peer_gone_as_the_game_ends_does_not_hold_the_others(table: Table) -> None:
    """A peer whose last StateHash and Leave never go out is lost, not left: the others
    still end within seconds of the last move, not after the give-up (120 s)."""
    final, last = last_moves("petals", 3, 1)
    victim_seat = next(s for s in (1, 2) if last[s] < final)
    slow = ("--bot", "random", "--delay", "0.2")
    host, address = table.host("petals", 3, "--seed", "1", *slow, env=peer_env())
    others = [host]
    victim = None
    for seat in (1, 2):
        extra = ("--seat", str(seat), "--accept-host-seed")
        if seat == victim_seat:
            victim = table.join(address, *extra, "--bot", "random", "-v", env=peer_env())
        else:
            others.append(table.join(address, *extra, *slow, env=peer_env()))
    assert victim is not None
    # Frozen right after its own last move: it sends nothing more, ever.
    victim.wait_event(lambda e: e.get("event") == "action" and e["index"] == last[victim_seat],
                      timeout=60)
    victim.proc.send_signal(signal.SIGSTOP)
    try:
        for peer in others:
            code, result = peer.finish(timeout=20)
            assert code == 0, peer.stderr
            assert result is not None and result["phase"] == "finished"
            assert result["actions"] == final + 1
    finally:
        victim.kill()


def test_a_peer_killed_as_it_prints_the_result_does_not_hold_the_others(table: Table) -> None:
    host, address = table.host("petals", 3, "--bot", "random", env=peer_env())
    joiners = [table.join(address, "--bot", "random", "-v", env=peer_env()) for _ in range(2)]
    seats = [j.wait_event("joined")["seat"] for j in joiners]
    # The victim is killed as it prints the result, and it must be a peer that did not make
    # the last move: a peer killed with its own last action still unsent leaves a game that
    # is not over for the others (they wait for the seat, or seat a bot in it).
    first = joiners[0]
    first.wait_event("over", timeout=60)
    last = [e for e in first.events if e.get("event") == "action"][-1]
    victim = joiners[1] if last["seat"] == seats[0] else first
    if victim is not first:
        victim.wait_event("over", timeout=30)
    victim.kill()
    # The give-up is 120 s; the others end once the victim is seen as lost (5 s), or at
    # once if its final StateHash got out.
    for peer in [p for p in [host, *joiners] if p is not victim]:
        code, result = peer.finish(timeout=15)
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished"
    assert "did not confirm" not in host.stderr + "".join(host.lines)


def rss_mb(pid: int) -> float:
    """A process's resident memory, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_strangers_flood_of_huge_hellos_leaves_the_host_bounded(table: Table) -> None:
    import asyncio

    from e2e.stranger import flood

    host, address = table.host("petals", 2, "--bot", "random", env=peer_env())
    before = rss_mb(host.proc.pid)
    answered = asyncio.run(flood(address, 60, 2 * 1024 * 1024))
    assert answered == 60  # each one refused, and told so
    assert rss_mb(host.proc.pid) < before + 100
    # The table still plays.
    joiner = table.join(address, "--bot", "random", env=peer_env())
    for peer in (host, joiner):
        code, result = peer.finish()
        assert code == 0, peer.stderr[-2000:]
        assert result is not None and result["phase"] == "finished"
    terminal = host.stderr + "".join(host.lines)
    assert len(host.stderr.encode()) < 1024 * 1024
    assert not any(c in terminal for c in "\x1b\x00\x07"), repr(terminal[:500])
    assert "refused Hello" in host.stderr or "refused a message" in host.stderr


def test_a_peer_killed_during_seed_agreement_rejoins_and_the_game_starts(table: Table) -> None:
    host, address = table.host("petals", 3, "--bot", "random", env=peer_env())
    doomed = peer_env()
    k = table.join(address, "--bot", "random", env=doomed)
    k.wait_event("joined")
    k.proc.send_signal(signal.SIGSTOP)  # frozen before it can commit to a share...
    a = table.join(address, "--bot", "random", env=peer_env())
    a.wait_event("joined")
    host.wait_event("seeding")  # ...so the seed cannot be agreed without it
    k.kill()  # and it dies: no log, no share
    # Seen lost (5 s of silence): the table goes back to seating, waiting for one more.
    host.wait_event(lambda e: e.get("event") == "seated" and "1 more" in e["text"])
    # The same player joins again, and the game starts.
    again = table.join(address, "--bot", "random", env=doomed)
    assert again.wait_event("joined")["seat"] == 1
    results = []
    for peer in (host, a, again):
        code, result = peer.finish(timeout=60)
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished"
        results.append(result)
    assert len({r["state_hash"] for r in results}) == 1
    seating = [e["event"] for e in host.events if e.get("event") in ("seated", "seeding")]
    assert seating == ["seated", "seeding", "seated", "seeding"]
