"""Why a seat may not act now though play is on: what `hedgerow.net.peer.Peer.submit`
refuses with at once, and what the seat client shows (`Seat.held_back`'s codes).

Read from the peer's phases, never changing them.  Each reason passes by itself, and while
one holds, the seat is offered no action (`Peer.legal_actions`) and a move is refused with
nothing sent or queued: a key pressed twice, or a bot that looks again at every change,
changes nothing, and a bot waits for the next change instead of being refused.

At a sealed table a seat's own move that reads a card nobody was shown (a Mandala take
refills the mandala from the hidden tiles) is sent at once, but its author's table holds
it only once every other player's key to that card is in (docs/protocol.md §10.7).
Meanwhile the table still names the seat to act.  Another move then is refused as
"move_waits" (before, it was refused as "starting", "waiting for every peer to start the
table", which the client showed as the seat's status).  Even when the rules give the seat
the next action too (a take, then its own turn), that action is offered only once the move
is in the table and the card is open: what is legal then may depend on the card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hedgerow.core.errors import Refusal

if TYPE_CHECKING:
    from hedgerow.net.sealplay import SealedPlay
    from hedgerow.net.sync import Sync


def held_back(seat: int, *, play: Sync, deck: SealedPlay, started: bool,
              catching_up: Callable[[], Refusal | None],
              may_act: Callable[[], bool]) -> Refusal | None:
    """Why ``seat`` (this peer's own) may not act now while play is on, whatever the rules
    say, or None: catching up with the table (``catching_up``: "syncing", or "asking" the
    others what they hold of its log), a peer has not started the table ("starting"), a
    bot runs the seat ("taken_over", ``may_act``), its own last move waits for a card's
    keys ("move_waits"), the sealed deck holds the whole table ("deck": a shuffle, cards
    being turned face up), or its own cards are on their way to it ("dealing")."""
    if (caught := catching_up()) is not None:
        return caught
    if not started:
        return Refusal("starting", "waiting for every peer to start the table")
    if not may_act():
        return Refusal("taken_over", "a bot plays this seat until it hands it back")
    if play.waits_own(seat):
        return Refusal("move_waits", "your last move waits for the other players' keys to "
                       "the card it turns face up")
    if deck.chance_waits() or play.held():
        return Refusal("deck", "the table waits for the sealed deck: a shuffle, or cards "
                       "being turned face up")
    if deck.owed_to_me() or deck.unshown(seat):
        return Refusal("dealing", "this seat's cards are being shown to it")
    return None
