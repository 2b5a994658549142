"""Seed agreement by commit-reveal, and seeds for local play.

Each seated peer draws a 32-byte share, publishes ``commitment(share)``, and reveals the
share once every commitment is in.  The table seed is ``table_seed(shares in seat order)``.
No single peer chooses it: changing a share after seeing others' commitments is caught by
`verify_reveal`.  Drawing the share is the network layer's job (this module does no I/O).
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence

from hedgerow.core.canon import digest

SHARE_SIZE = 32


def commitment(share: bytes) -> bytes:
    """The 32-byte commitment to a share: ``BLAKE2b-256("hedgerow-commit-v1", share)``."""
    if len(share) != SHARE_SIZE:
        raise ValueError(f"a seed share is {SHARE_SIZE} bytes")
    return digest(b"hedgerow-commit-v1", share)


def verify_reveal(commit: bytes, share: bytes) -> bool:
    """True when ``share`` is the one ``commit`` committed to."""
    return len(share) == SHARE_SIZE and hmac.compare_digest(commitment(share), commit)


def table_seed(shares: Sequence[bytes]) -> bytes:
    """The table seed from every seat's share, in seat order."""
    if not shares or any(len(s) != SHARE_SIZE for s in shares):
        raise ValueError(f"a table seed needs one {SHARE_SIZE}-byte share per seat")
    return digest(b"hedgerow-seed-v1", *shares)


def seed_from_int(n: int) -> bytes:
    """The table seed for local play with a number (``hedgerow simulate --seed N``)."""
    return digest(b"hedgerow-seed-int-v1", str(n).encode("ascii"))
