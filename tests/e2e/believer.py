"""A test double for ``hedgerow check-peer``: our peer, except that it believes every
`SeatTaken` for its own seat (docs/protocol.md §5.9: a peer believes one only when it can
be true; a seated peer cannot make a playing peer stop by claiming its seat).  It then
waits for the claimed runner's handback, as a returning peer does.

Loaded into a peer process with ``HEDGEROW_PLUGINS=believer``: importing it patches
`Departures.on_taken` in that process.
"""

from __future__ import annotations

from typing import Any

from hedgerow.net.departures import Departures
from hedgerow.net.members import Takeover
from hedgerow.net.messages import SeatEvent, SeatEventKind, SeatTaken


def _believe(self: Departures, rx: Any, env: Any, member: Any, body: SeatTaken) -> None:
    if body.seat == self.ctx.seat and self.held is None:
        self.held = Takeover(body.seat, body.runner, body.bot, body.index)
        self.runs[body.seat] = self.held
        self._log(SeatEvent(SeatEventKind.TAKEOVER, body.seat, body.runner, body.bot,
                            body.index))
        self.ctx.notify()


Departures.on_taken = _believe  # type: ignore[method-assign]
