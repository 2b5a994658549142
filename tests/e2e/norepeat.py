"""A test double for ``hedgerow check-peer``: our peer, except that it never sends its
`SeedCommit` and `SeedReveal` again while the seed agreement stands still
(docs/protocol.md §3.2 step 2, §5.8 *Repeats*); the `Start` barrier's repeats stay.

Loaded into a peer process with ``HEDGEROW_PLUGINS=norepeat``: importing it patches
`Startup.resend_stalled` in that process.
"""

from __future__ import annotations

from hedgerow.net.startup import STALL_BEATS, Startup


def _no_seed_repeats(self: Startup, every: int = STALL_BEATS) -> None:
    self._beat += 1
    self._resend_start(every)


Startup.resend_stalled = _no_seed_repeats  # type: ignore[method-assign]
