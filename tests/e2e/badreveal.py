"""A test double for ``hedgerow check-peer``: our peer, except that the commitment it sends
for its seed share is not that share's (docs/protocol.md §4.4), so its `SeedReveal` breaks
its `SeedCommit`.

Loaded into a peer process with ``HEDGEROW_PLUGINS=badreveal``: importing it patches the
commitment `SeedRound` makes of its own share in that process (the others' reveals are
still checked by `hedgerow.core.seeding.verify_reveal`).
"""

from __future__ import annotations

from hedgerow.core.canon import digest
from hedgerow.core.seeding import commitment
from hedgerow.net import seedround


def _wrong_commitment(share: bytes) -> bytes:
    return digest(b"badreveal", commitment(share))


seedround.commitment = _wrong_commitment  # type: ignore[attr-defined]
