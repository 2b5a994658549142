"""A test double for ``hedgerow check-peer``: our peer, except that an agreed end never
takes effect (docs/protocol.md §5.9 *An agreed end*: from the moment the motion passes the
table is over at its index, no further action is accepted).  It votes on an end as ours
does, but once every voter said yes it drops the motion and plays on.

Loaded into a peer process with ``HEDGEROW_PLUGINS=endless``: importing it patches
`Departures._maybe_pass` in that process.
"""

from __future__ import annotations

from typing import Any

from hedgerow.net.departures import Departures
from hedgerow.net.messages import MotionKind

_maybe_pass = Departures._maybe_pass


def _never_ends(self: Departures, motion: Any) -> None:
    body = motion.body
    if body.kind == MotionKind.END and all(motion.votes.get(s) for s in body.voters):
        self.motions.pop((motion.proposer, body.number), None)  # passed: and forgotten
        return
    _maybe_pass(self, motion)


Departures._maybe_pass = _never_ends  # type: ignore[method-assign]
