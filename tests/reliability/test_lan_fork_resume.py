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
same hash, every log verifies and holds the same entries.  When the bot happens to make the
very move the cut seat made, nothing is taken back, and another table is played
(test_lan_fork.py).
"""

from __future__ import annotations

import pytest
from e2e.helpers import PeerProcess, peer_env
from reliability.lan import Lan
from reliability.test_lan_fork import BOT, TRIES, cut_at_its_turn, finished_as_one

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("lan_ok")]


def test_a_seat_cut_off_at_its_own_turn_and_restarted_takes_its_entry_back() -> None:
    for _ in range(TRIES):
        if restarted_takes_back():
            return
    pytest.fail(f"in {TRIES} tables the bot made the cut seat's own move every time")


def restarted_takes_back() -> bool:
    """One table (the test above): False when the bot made the very move the cut seat made
    (the table holds it then, so nothing is taken back: test_lan_fork.py says more), once
    the table is seen to finish as one all the same."""
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
            bots = host.wait_event(lambda e: e.get("event") == "action" and e.get("seat") == 2
                                   and e.get("index") == own["index"], timeout=60)
            lan.heal(2)
            back = PeerProcess(["resume", log, "--json", *BOT, "--delay", "0.7"], envs[2],
                               lan[2].prefix())
            peers.append(back)
            table = [host, peers[1], back]
            results = [p.finish(timeout=180) for p in table]
            stderr = finished_as_one(table, results, envs)
            kinds = [e["kind"] for e in results[2][1]["seat_events"]]  # type: ignore[index]
            if bots["text"] == own["text"]:
                assert "took back" not in back.stderr, stderr
                return False
            assert kinds == ["rollback", "takeover", "reclaim"], f"{kinds}\n{stderr}"
            assert "took back our 1 entry" in back.stderr, stderr
            return True
        finally:
            for p in peers:
                p.stop()
