"""A test double for ``hedgerow check-peer``: our peer, except that when a seat whose bot it
runs comes back it hands the seat back without telling it first (no `SeatTaken`,
docs/protocol.md §5.9 *Reclaim*: every peer at which a takeover is in force answers the
returning peer with `SeatTaken` before anything else it sends it).

Loaded into a peer process with ``HEDGEROW_PLUGINS=untold``: importing it patches
`Departures.peer_back` in that process.
"""

from __future__ import annotations

from typing import Any

from hedgerow.net.departures import Departures
from hedgerow.net.messages import SeatTaken

_peer_back = Departures.peer_back


def _untold(self: Departures, member: Any, *, resumed: bool = True) -> None:
    ctx: Any = self.ctx
    send = ctx.send

    def quiet(to: Any, body: Any) -> None:
        if not isinstance(body, SeatTaken):
            send(to, body)

    ctx.send = quiet
    try:
        _peer_back(self, member, resumed=resumed)
    finally:
        ctx.send = send


Departures.peer_back = _untold  # type: ignore[method-assign]
