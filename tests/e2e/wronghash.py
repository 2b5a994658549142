"""A test double for ``hedgerow check-peer``: our peer, except that every state hash it
reports for an entry after the deal is wrong (docs/protocol.md §4.2), while it plays by
the rules.

Loaded into a peer process with ``HEDGEROW_PLUGINS=wronghash``: importing it patches
`Table.hash_of` in that process, so the hashes it logs and reports (and the setup hash it
sends, which is of the state before any entry) are the rules' only up to entry #0.
"""

from __future__ import annotations

from typing import Any

from hedgerow.core.canon import digest
from hedgerow.core.table import Table

_hash_of = Table.hash_of


def _wrong_hash_of(self: Table, state: Any) -> bytes:
    right = _hash_of(self, state)
    if self.index <= 1:  # the setup and the deal as the rules say; every later entry not
        return right
    return digest(b"wronghash", right)


Table.hash_of = _wrong_hash_of  # type: ignore[method-assign]
