"""A player on a slow link (issue 30): a 4-player open-deck table finishes with one peer
shaped to 8 kbit/s each way (``tc tbf`` on its link and on the bridge's port towards it),
and an idle table leaves that link most of its room.

What made it fail before: an idle table moved 2.5 KB/s each way per peer (heartbeats on
every ZMTP connection, their PONGs and acknowledgements, a table Heartbeat every second),
more than the whole link, and a ZMTP PONG stuck behind the data in the queue cut a healthy
connection after 5 s.  Now an idle link carries one small Heartbeat every 2 s and TCP judges
a connection (docs/protocol.md §1, §5.8).

A *sealed* table on such a link does not finish in the time a test may take (measured by
hand, bench/README.md "Idle traffic and a slow link"): its deal needs about 30 KB each way
on the slow link, and while the deal waits for that link every party sends again all it
made (its passes: 3.5 KB at Petals) to every peer, which fills it; repeats back off now
(§5.8 *Repeats*), so the deal completes in about three minutes instead of never, but a game
takes far longer than this test's limit.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from e2e.helpers import PeerProcess, peer_env
from reliability.chaos import TIMEOUT, TrialResult, check_finished
from reliability.lan import Lan, run_in

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("lan_ok")]

Env = dict[str, str]
PLAYERS = 4
SLOW = 3  # the joiner on the slow link


def _sent_bytes(lan: Lan, index: int) -> int:
    out = run_in(lan[index], ["cat", "/sys/class/net/eth0/statistics/tx_bytes"])
    return int(out.stdout)


@contextmanager
def slow_table(bot: tuple[str, ...]) -> Iterator[tuple[Lan, list[PeerProcess], list[Env]]]:
    """A 4-player open-deck Petals table of bot peers, each on a host of its own, seat
    `SLOW`'s link shaped to 8 kbit/s each way; every peer stopped afterwards."""
    with Lan(PLAYERS) as lan:
        lan.limit_rate(SLOW, "8kbit", both=True)
        envs = [peer_env() for _ in range(PLAYERS)]
        peers = [PeerProcess(["host", "petals", "--players", str(PLAYERS), "--json",
                              "--open-deck", *bot], envs[0], lan[0].prefix())]
        try:
            address = peers[0].wait_event("open")["address"]
            peers += [PeerProcess(["join", address, "--json", *bot], envs[i], lan[i].prefix())
                      for i in range(1, PLAYERS)]
            yield lan, peers, envs
        finally:
            for peer in peers:
                peer.stop()


def test_an_open_table_finishes_with_one_peer_on_an_8_kbit_link() -> None:
    result = TrialResult("petals", PLAYERS, "8kbit", 0)
    with slow_table(("--bot", "random", "-v")) as (_, peers, envs):
        started = time.monotonic()
        check_finished(peers, envs, result)
        result.seconds = time.monotonic() - started
    assert result.held, result.summary()
    assert result.seconds < TIMEOUT


def test_an_idle_link_carries_a_heartbeat_every_two_seconds() -> None:
    """Four seated peers, nobody acting (a table of people who have not moved yet): what the
    slow peer's link carries is a few hundred bytes a second, a small part of 8 kbit/s."""
    # a bot that thinks for ten minutes
    with slow_table(("--bot", "random", "--delay", "600")) as (lan, peers, _):
        for peer in peers:
            peer.wait_event("start", timeout=120)
        time.sleep(3)  # the last Starts and the deal's messages go out
        before, t0 = _sent_bytes(lan, SLOW), time.monotonic()
        time.sleep(10)
        rate = (_sent_bytes(lan, SLOW) - before) / (time.monotonic() - t0)
    # Three links, a Heartbeat every 2 s on each with its TCP acknowledgement: about 350 B/s
    # (it was 2.5 KB/s); 8 kbit/s is 1000 B/s.
    assert rate < 600, f"an idle peer sends {rate:.0f} B/s"
