"""What a seat tells its client about its table's sealed deck while play is on: what the
deck holds the table up for (a shuffle, cards on their way to this seat, cards turned face
up), whose peers it waits for, and what the check at the end found (docs/protocol.md §10).

Read from the peer's `hedgerow.net.sealplay.SealedPlay`, never changing it: the
`hedgerow.net.seat.Seat` members ``deck_wait`` and ``verdict`` of `hedgerow.net.peer.Peer`
(kept here so the peer stays a composition).
"""

from __future__ import annotations

from hedgerow.net.sealplay import SealedPlay
from hedgerow.net.seat import DeckWait, DeckWaits, Phase


def deck_wait(play: SealedPlay, phase: Phase, *, reading: bool = False) -> DeckWait | None:
    """While play is on at a sealed table and its deck holds the table up: what for (a
    shuffle; cards on their way to this seat; cards being turned face up), the seats whose
    peers it waits for, and whether no seat may act meanwhile; else None.

    ``reading``: an action waits for cards the rules read as they apply it (a public
    reveal round, docs/protocol.md §10.7; `hedgerow.net.sync.Sync.reading`): cards being
    turned face up, and no seat acts until they are (though the table still names the
    action's seat as the one to act: it does not hold the action yet)."""
    sealing = play.sealing
    if sealing is None or phase != Phase.PLAYING:
        return None
    waiting = sealing.table.waiting
    if waiting is not None and waiting.shuffles:
        what = DeckWaits.SHUFFLE
    elif sealing.owed_to_me():
        what = DeckWaits.DEAL
    elif waiting is not None or sealing.public_pending() or reading:
        what = DeckWaits.SHOW
    else:
        return None
    return DeckWait(what, play.waiting_seats(),
                    stops_play=reading or not sealing.table.active_seats())


def verdict(play: SealedPlay) -> str | None:
    """At a sealed table once every secret is in: the verification's finding, in words."""
    found = play.verdict
    return None if found is None else found.message
