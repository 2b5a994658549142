"""A test plugin that makes its peer cheat at a sealed table (no rules change at all).

Loaded with ``HEDGEROW_PLUGINS=sealcheat``; ``HEDGEROW_SEALCHEAT`` says how:

* ``duplicate``: its lock pass of every shuffle puts the first card's point in the second
  position too (a card duplicated, another dropped);
* ``wrongkey``: every key it sends for a card (to a seat that drew it, or to everyone) is
  another scalar than the one its rekey pass committed to;
* ``unheld``: its seat's first action that names a sealed card names, in its place, a
  sealed card of the same deck that its seat was never shown (one in the draw pile or in
  another hand), and is sent as it is, not applied here first;
* ``die-in-shuffle``: the process kills itself (SIGKILL, as ``kill -9``) right after it
  sends its first lock pass: a peer lost in the middle of a shuffle, to resume from its
  log (the variable is cleared for the resumed process by the test).

The honest peers must name this seat and halt the table (or, for the last, wait for it and
go on once it resumes).  It works by wrapping the sealed deck's own code on import, so the
forged messages go out over the real protocol.
"""

from __future__ import annotations

import dataclasses
import os
import signal
from typing import Any

from hedgerow.core.sealed import Sealed
from hedgerow.core.sealedtable import SealedTable
from hedgerow.net import mentalpoker as mp
from hedgerow.net.messages import ActionMsg, CardKey
from hedgerow.net.sealing import Sealing
from hedgerow.net.sync import Sync

HOW = os.environ.get("HEDGEROW_SEALCHEAT", "")

_make_step = mp.make_step
_key = Sealing._key
_author = Sync.author


def _duplicating_step(secret: Any, phase: str, *args: Any, **kwargs: Any) -> Any:
    step = _make_step(secret, phase, *args, **kwargs)
    if phase == "lock" and len(step.points) > 1:
        points = list(step.points)
        points[1] = points[0]
        step = dataclasses.replace(step, points=tuple(points))
    return step


def _dying_step(secret: Any, phase: str, *args: Any, **kwargs: Any) -> Any:
    step = _make_step(secret, phase, *args, **kwargs)
    if phase == "rekey":
        # The lock pass went out with the previous call; die before this one is sent.
        os.kill(os.getpid(), signal.SIGKILL)
    return step


def _wrong_key(self: Any, card: Any) -> CardKey:
    honest = _key(self, card)
    wrong = mp.smul(honest.key, mp.reduce64(b"\x02" + bytes(63)))  # twice the right key
    return dataclasses.replace(honest, key=wrong)


def _unheld_author(self: Any, seat: int, action: Any) -> Any:
    table = self.table
    if (not isinstance(table, SealedTable) or getattr(self, "_cheated", False)
            or self.held()):
        return _author(self, seat, action)
    ready = self._ready(table, seat, action)
    if not isinstance(ready, tuple):
        return _author(self, seat, action)
    wire, _faces, _reveals = ready
    seen = table.seen_by(seat)  # its hand and what every seat sees
    unseen = [t for t in _tokens(table.state) if t.key not in seen]  # the pile, other hands
    swapped = []
    for name, value in wire.args:
        if isinstance(value, Sealed) and unseen:
            value = next((t for t in unseen if (t.entry, t.draw) == (value.entry, value.draw)),
                         unseen[0])
        swapped.append((name, value))
    forged = dataclasses.replace(wire, args=tuple(swapped))
    if forged == wire:  # no sealed card in it: played honestly
        return _author(self, seat, action)
    self._cheated = True
    # Sent as the honest author sends an action, but not applied here: this table would
    # refuse it.
    self.ctx.broadcast(ActionMsg(table.index, table.head, seat, forged, ()))
    return None


def _tokens(state: Any) -> list[Sealed]:
    from hedgerow.core.sealed import tokens_in

    return list(tokens_in(state))


if HOW == "duplicate":
    mp.make_step = _duplicating_step
elif HOW == "wrongkey":
    Sealing._key = _wrong_key  # type: ignore[method-assign]
elif HOW == "unheld":
    Sync.author = _unheld_author  # type: ignore[method-assign]
elif HOW == "die-in-shuffle":
    mp.make_step = _dying_step
elif HOW:
    raise ValueError(f"HEDGEROW_SEALCHEAT={HOW!r}: duplicate, wrongkey, unheld or die-in-shuffle")
