"""A seat cut off during its own turn whose process then dies, and whose player resumes it
(docs/protocol.md §5.9, "A seat cut off at its own turn"), on the simulated LAN.

Three hosts, one headless bot peer each (real processes, real ZeroMQ over CURVE), an
open-deck Petals table with ``--take-over-after 3``.  The last joiner's port on the bridge
goes down right after the seat before it played; its bot plays its turn, heard by nobody,
and the process is killed.  The others see the seat lost and seat a bot, which plays
another entry for that turn.  The port comes back and the player runs ``hedgerow resume``:
its log holds its own void entry, which it cannot tell from its log alone that nobody
applied, so it asks every seat what they hold from the takeover's index, takes its entry
back (each holds the bot's), reclaims its seat and plays on.  Every peer finishes with the
same hash, every log verifies and holds the same entries.
"""

from __future__ import annotations

import pytest
from e2e.helpers import PeerProcess, hedgerow, peer_env
from reliability.lan import Lan
from reliability.test_lan_fork import BOT, cut_at_its_turn

from hedgerow.net.logfile import read_log

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("lan_ok")]


def test_a_seat_cut_off_at_its_own_turn_and_restarted_takes_its_entry_back() -> None:
    with Lan(3) as lan:
        envs = [peer_env() for _ in range(3)]
        peers: list[PeerProcess] = []
        try:
            before = cut_at_its_turn(lan, envs, peers)
            host, cut = peers[0], peers[2]
            log = cut.wait_event("start")["log"]
            own = cut.wait_event(lambda e: e.get("event") == "action" and e.get("seat") == 2
                                 and e.get("index", 0) > before["index"], timeout=30)
            cut.kill()  # and the process dies, still cut off
            host.wait_event(lambda e: e.get("event") == "action" and e.get("seat") == 2
                            and e.get("index") == own["index"], timeout=60)  # the bot's
            lan.heal(2)
            back = PeerProcess(["resume", log, "--json", *BOT, "--delay", "0.7"], envs[2],
                               lan[2].prefix())
            peers.append(back)
            results = [p.finish(timeout=180) for p in (host, peers[1], back)]
            assert [code for code, _ in results] == [0, 0, 0], \
                [p.stderr[-3000:] for p in (host, peers[1], back)]
            assert len({r["state_hash"] for _, r in results if r}) == 1
            kinds = [e["kind"] for e in results[2][1]["seat_events"]]  # type: ignore[index]
            assert kinds == ["rollback", "takeover", "reclaim"], kinds
            assert "took back our 1 entry" in back.stderr, back.stderr[-3000:]
            logs = [r["log"] for _, r in results if r]
            for path, env in zip(logs, envs, strict=True):
                verified = hedgerow("replay", path, "--verify", env=env, timeout=120)
                assert verified.returncode == 0, verified.stdout + verified.stderr
            entries = [[e.entry for e in read_log(path).entries] for path in logs]
            assert entries[0] == entries[1] == entries[2]
        finally:
            for p in peers:
                p.stop()
