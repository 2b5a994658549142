"""A test double for ``hedgerow check-peer``: our peer, except that it does not tell a seat
that comes back after the table agreed to end the game that the game is over
(docs/protocol.md §5.9 *An agreed end*: the end is outside the hash chain, so a peer at
which it is in force answers a returning seat with ``Leave(why = GAME_OVER)``); it answers
as if play went on.

Loaded into a peer process with ``HEDGEROW_PLUGINS=untoldend``: importing it patches
`Departures.returned` in that process.
"""

from __future__ import annotations

from typing import Any

from hedgerow.net.departures import Departures

_returned = Departures.returned


def _untold(self: Departures, member: Any, *, resumed: bool = True) -> None:
    ended, self.ended = self.ended, None  # (forgotten for the moment it answers)
    try:
        _returned(self, member, resumed=resumed)
    finally:
        self.ended = ended


Departures.returned = _untold  # type: ignore[method-assign]
