"""`seal_late`: a peer that seals its last entry only once cards were opened to every seat
after it (docs/protocol.md §10.4, §10.7), deterministically, as a peer beside load may;
`play_out`: random bots play a seated table's game to its end.  Shared by
tests/net/test_sealed_late_seal.py (the players' hashes) and
tests/net/test_spectator_sealed_hash.py (what a spectator of such a host checks and shows).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from departing import stop_bots

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.peer import Peer

PATIENCE = 300  # looks (10 ms apart) before a deferred seal runs anyway


def seal_late(peer: Peer, late: list[int]) -> None:
    """Make ``peer`` seal its last entry only once cards were opened to every seat after it
    (or the next entry came): when a read round follows the entry (the next action, or a
    chance, reads a card nobody was shown), the entry is sealed with the round's cards
    already in the table, before the entry that read them is applied.  ``late`` gets the
    index of every entry sealed so."""
    sync, sealing = peer.sync, peer.sealing.sealing
    assert sealing is not None
    seal = sync.seal
    looks: dict[int, int] = {}
    read: set[int] = set()

    def later() -> None:
        table = sync.table
        unsealed = sync._unsealed
        if table is None or not unsealed or table.over():
            seal()
            return
        last = unsealed[-1]
        index = last.entry.index
        if index == table.index - 1 and looks.get(index, 0) < PATIENCE:
            if sealing._want_public and not sealing.public_pending():
                read.add(index)  # a read round after the entry, not its resting point's cards
            if sealing._want_public or table.state is last.after:
                looks[index] = looks.get(index, 0) + 1
                asyncio.get_running_loop().call_later(0.01, later)
                return
        if index in read and index == table.index - 1:
            late.append(index)
        seal()

    sync.seal = later  # type: ignore[method-assign]


async def play_out(peers: Sequence[Peer], wait: float) -> None:
    """Random bots (no delay) play the game of ``peers`` (seated, ready) to its end, every
    entry sealed everywhere; fails on a peer's problem, or when the game stalls for
    ``wait`` seconds."""
    spec = PluginHost().bot("random")
    bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.0)) for p in peers]
    try:
        def done() -> bool:
            return (any(p.problem() is not None for p in peers)
                    or all(p.ctx.table is not None and p.ctx.table.over()
                           and not p.sync._unsealed for p in peers))
        finished = await peers[0].wait_until(done, wait)
        for p in peers:
            assert p.problem() is None, p.problem()
        assert finished, f"the game stalled at #{peers[0].index}"
    finally:
        await stop_bots(bots)
