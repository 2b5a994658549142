"""The state hash a seated peer shows (`Peer.state_hash`: the ``state_hash`` of a seat's
``result`` record, and of the bot runner's "game over" line) is the one it reported for its
last entry: at a sealed table the public state at that entry's resting point
(docs/protocol.md §10.4), even while cards opened to all for the next entry are in its
table (a public reveal round: Mandala's take reads the hidden tiles, §10.7).

A seat that stops in that moment (a halt, an agreed end, a player who quits) printed a
hash no peer reported and its log's replay does not give.  Here each peer is looked at
right after every card it opens to all; two peers over real CURVE sockets in one process
(tests/departing.py), random bots, whole Mandala games until such a look came.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from departing import WAIT, close_all, fast, run, sealed_table
from latesealing import play_out

from hedgerow.core.sealed import Key
from hedgerow.core.sealedtable import SealedTable
from hedgerow.net.peer import Peer

GAMES = 6


def look_at_every_opening(peer: Peer, looks: list[tuple[int, bool]],
                          wrong: list[str]) -> None:
    """After each card ``peer``'s table opens to all, compare the hash ``peer`` shows with
    the one it reported for its last entry (when every entry is sealed); ``looks`` gets
    (index, whether the table then held cards its last entry's hash does not cover)."""
    table, sealing, hashes = peer.ctx.table, peer.sealing.sealing, peer.ctx.hashes
    assert isinstance(table, SealedTable) and sealing is not None and hashes is not None
    reveal = table.reveal_public

    def opened(faces: Mapping[Key, object]) -> None:
        reveal(faces)
        sync = peer.sync
        if not table.index or len(hashes.own) != table.index or sync._unsealed:
            return
        last = hashes.own[-1]
        later = table.reported_hash() != last
        looks.append((table.index - 1, later))
        if peer.state_hash() != last:
            wrong.append(f"peer {peer.seat} after #{table.index - 1}")

    table.reveal_public = opened  # type: ignore[method-assign]


def test_a_peer_shows_the_hash_it_reported_while_a_read_round_is_open() -> None:
    async def game() -> tuple[list[tuple[int, bool]], list[str]]:
        peers = await sealed_table("mandala", (), 2)
        fast(peers)
        looks: list[tuple[int, bool]] = []
        wrong: list[str] = []
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
                look_at_every_opening(p, looks, wrong)
            await play_out(peers, 3 * WAIT)
            assert peers[0].state_hash() == peers[1].state_hash()
        finally:
            await close_all(peers)
        return looks, wrong

    async def main() -> Any:
        for _ in range(GAMES):
            looks, wrong = await game()
            assert not wrong, f"{len(wrong)} of {len(looks)} looks: {wrong[:4]}"
            if any(later for _, later in looks):
                return
        raise AssertionError(f"no peer held a read round's cards in {GAMES} games: the "
                             "test did not test it")

    run(main())
