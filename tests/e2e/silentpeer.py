"""A test double for ``hedgerow check-peer``: our peer, except that it refuses an
out-of-turn action without telling its sender (no ``Error(OUT_OF_TURN)``, docs/protocol.md
§3.3 step 5).

Loaded into a peer process with ``HEDGEROW_PLUGINS=silentpeer``: importing it patches
`PeerContext.refuse` in that process (a plugin module with no hooks is still imported).
"""

from __future__ import annotations

from typing import Any

from hedgerow.net.context import PeerContext
from hedgerow.net.messages import ErrorCode

_refuse = PeerContext.refuse


def _quiet_refuse(self: PeerContext, rx: Any, env: Any, code: ErrorCode, message: str,
                  **kwargs: Any) -> None:
    if code == ErrorCode.OUT_OF_TURN:
        return  # refused, but the sender is never told
    _refuse(self, rx, env, code, message, **kwargs)


PeerContext.refuse = _quiet_refuse  # type: ignore[method-assign]
