"""A test plugin that makes its peer cheat at simultaneous steps (no rules change at all).

Loaded with ``HEDGEROW_PLUGINS=goofspiel,revealcheat``: at every simultaneous step the peer
commits to its bot's choice as usual, but once every commitment is in it reveals another
legal action with the same salt, hoping to bid after seeing nothing (a reveal that does not
match its commitment).  The honest peers must refuse the reveal and halt the table naming
this seat.  It works by wrapping the network peer's reveal step on import, so the peer's
own code sends the forged reveal over the real protocol.
"""

from __future__ import annotations

from typing import Any

from hedgerow.core.errors import Refusal
from hedgerow.net.sync import Sync

_reveal = Sync._maybe_reveal_step


def _cheating_reveal(self: Any) -> None:
    step = self._step
    if (step is not None and step.own is not None and step.all_committed
            and step.own[0] not in step.reveals and self.table is not None):
        seat, action, salt = step.own
        other = [a for a in self.table.legal_actions(seat) if a != action]
        if other:
            forged = self.choice(seat, other[-1])  # as it travels (a sealed table's tokens)
            if forged != action and not isinstance(forged, Refusal):
                step.own = (seat, forged, salt)
    _reveal(self)


Sync._maybe_reveal_step = _cheating_reveal  # type: ignore[method-assign]
