"""A test double for ``hedgerow check-peer``: our peer, except that the log file it writes
holds a state hash that is not its own for entry #2 (docs/protocol.md §6: each entry is
written with this peer's state hash after it); what it says on the wire is true.

Loaded into a peer process with ``HEDGEROW_PLUGINS=badlog``: importing it patches
`LogWriter.append` in that process.
"""

from __future__ import annotations

from typing import Any

from hedgerow.core.canon import digest
from hedgerow.net.logfile import LogWriter

_append = LogWriter.append


def _wrong_hash(self: LogWriter, entry: Any, state_hash: bytes, *args: Any,
                **kwargs: Any) -> Any:
    if entry.index == 2:
        state_hash = digest(b"badlog", state_hash)
    return _append(self, entry, state_hash, *args, **kwargs)


LogWriter.append = _wrong_hash  # type: ignore[method-assign]
