"""A test double for ``hedgerow check-peer``: our host, except that its spectators are
never told why the table halted (docs/protocol.md §3.4: a `SpectatorFeed` at every
heartbeat carries ``halted``, why the table halted at the host; this one always sends it
empty, and leaves its spectators with a plain `Leave`).

Loaded into a peer process with ``HEDGEROW_PLUGINS=mutehalt``: importing it patches
`Spectators._feed` in that process.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hedgerow.net.codec import decode_envelope, encode_envelope
from hedgerow.net.spectators import Spectators

_feed = Spectators._feed


def _mute(self: Spectators, first: int, stream: Any, gone: Any) -> tuple[bytes, int]:
    data, count = _feed(self, first, stream, gone)
    env = decode_envelope(data)
    body = dataclasses.replace(env.body, halted="")  # type: ignore[type-var]
    return encode_envelope(dataclasses.replace(env, body=body)), count


Spectators._feed = _mute  # type: ignore[method-assign]
