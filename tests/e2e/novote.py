"""A test double for ``hedgerow check-peer``: our peer, except that it never votes on a
motion (docs/protocol.md §5.9: every seated peer that receives a `SeatMotion` makes the
checks and sends its `MotionVote`, a peer outside the voters included); its own motions
still go out, and pass with the votes of the others.

Loaded into a peer process with ``HEDGEROW_PLUGINS=novote``: importing it patches
`Departures.vote` in that process.
"""

from __future__ import annotations

from typing import Any

from hedgerow.net.departures import Departures


def _silent(self: Departures, motion: Any, accept: bool, reason: str = "") -> None:
    return None


Departures.vote = _silent  # type: ignore[method-assign]
