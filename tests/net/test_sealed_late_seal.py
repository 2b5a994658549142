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

from typing import Any

from departing import WAIT, close_all, fast, run, sealed_table
from latesealing import play_out, seal_late

GAMES = 6


def test_an_entry_sealed_after_the_next_has_come_hashes_as_at_its_resting_point() -> None:
    async def game() -> list[int]:
        peers = await sealed_table("mandala", (), 2)
        fast(peers)
        late: list[int] = []
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            seal_late(peers[1], late)
            await play_out(peers, 3 * WAIT)
            assert peers[0].entries() == peers[1].entries()
            books = [p.ctx.hashes for p in peers]
            assert books[0] is not None and books[1] is not None
            assert books[0].own == books[1].own
            assert len(books[0].own) == peers[0].index
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
