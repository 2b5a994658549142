"""The state hash after an entry at a sealed table does not depend on when a peer seals it
(docs/protocol.md §10.4, §10.7).

The hash after an entry covers the cards its resting point shows to every seat, and no
card opened after it.  A peer hashed its last entry with its table's state at the time
it sealed it, so a peer whose seal ran late (beside load), while the next action (a
Mandala claim reads the hidden tiles) or a chance (a reshuffle) waited for a card being
opened to all, hashed that card in too, and its peers did not: the table halted on a
desync although every peer held the same entries (about 1 game in 120 beside load).
Here one peer seals nothing while a card is being opened to all, deterministically; the
other seals as soon as it may.  Two peers in one process over real CURVE sockets
(tests/departing.py), random bots, whole games until such an entry was sealed late.
"""

from __future__ import annotations

import asyncio
from typing import Any

from departing import WAIT, close_all, fast, run, sealed_table

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.peer import Peer

GAMES = 6
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


def test_an_entry_sealed_after_the_next_has_come_hashes_as_at_its_resting_point() -> None:
    spec = PluginHost().bot("random")

    async def game() -> list[int]:
        peers = await sealed_table("mandala", (), 2)
        fast(peers)
        late: list[int] = []
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            seal_late(peers[1], late)
            bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.0)) for p in peers]
            try:
                def done() -> bool:
                    return (any(p.problem() is not None for p in peers)
                            or all(p.ctx.table is not None and p.ctx.table.over()
                                   and not p.sync._unsealed for p in peers))
                finished = await peers[0].wait_until(done, 3 * WAIT)
                for p in peers:
                    assert p.problem() is None, p.problem()
                assert finished, f"the game stalled at #{peers[0].index}"
                assert peers[0].entries() == peers[1].entries()
                books = [p.ctx.hashes for p in peers]
                assert books[0] is not None and books[1] is not None
                assert books[0].own == books[1].own
                assert len(books[0].own) == peers[0].index
            finally:
                for b in bots:
                    b.cancel()
                await asyncio.gather(*bots, return_exceptions=True)
        finally:
            await close_all(peers)
        return late

    async def main() -> Any:
        for _ in range(GAMES):
            if await game():
                return
        raise AssertionError(f"no entry was sealed late in {GAMES} games: the test did not "
                             "test it")

    run(main())
