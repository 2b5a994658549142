"""A test double for ``hedgerow check-peer``: our peer, except that the state hashes in the
`CatchUpReply` it sends are not its own (docs/protocol.md §5.6: each entry's `state_hash`
is the replier's hash after that entry); everything else it says is true.

Loaded into a peer process with ``HEDGEROW_PLUGINS=badcatchup``: importing it replaces the
`LoggedEntry` that `hedgerow.net.sync` builds its replies from, in that process.
"""

from __future__ import annotations

from typing import Any

from hedgerow.core.canon import digest
from hedgerow.net import sync
from hedgerow.net.messages import LoggedEntry


def _lying_entry(entry: Any, state_hash: bytes, *rest: Any) -> LoggedEntry:
    return LoggedEntry(entry, digest(b"badcatchup", state_hash), *rest)


sync.LoggedEntry = _lying_entry  # type: ignore[attr-defined,assignment]
