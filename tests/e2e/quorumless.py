"""A test double for ``hedgerow check-peer``: our peer, except that its own no counts for
nothing when it is not among a motion's voters, so a motion passes there once its voters
said yes, whatever this peer found (docs/protocol.md §5.9: a non-voter makes the same
checks and votes no, and "the motion then fails at that peer (its own no is there),
whatever the voters say").  A proposer that names itself the only voter ends the game
there alone, with no quorum.

Loaded into a peer process with ``HEDGEROW_PLUGINS=quorumless``: importing it patches
`Departures.vote` in that process.
"""

from __future__ import annotations

from typing import Any

from hedgerow.net.departures import Departures

_vote = Departures.vote


def _voters_only(self: Departures, motion: Any, accept: bool, reason: str = "") -> None:
    _vote(self, motion, accept, reason)  # its vote goes out as ours does
    if self.ctx.seat not in motion.body.voters and not accept:
        del motion.votes[self.ctx.seat]  # ... and is forgotten here
        self.motions[(motion.proposer, motion.body.number)] = motion
        self._maybe_pass(motion)


Departures.vote = _voters_only  # type: ignore[method-assign]
