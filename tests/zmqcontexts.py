"""The ZeroMQ contexts a test creates in the test process, closed at its end if it did not.

pyzmq terminates a context it garbage-collects.  When the context and its sockets become
garbage together (a reference cycle: a peer left open by a test that failed half-way), the
collector clears the context's weak set of sockets before ``__del__`` runs, so
``Context.term`` waits for sockets nothing will close, and the test process hangs in C code
where pytest-timeout's alarm cannot end it (``__del__`` swallows the exception).  The hang
strikes a later test, wherever the collector happens to run.

`track` keeps every context made from then on reachable until `close_leftovers` (the end of
each test, tests/conftest.py): one still open is destroyed there with its sockets, and named,
so it can never be collected in a cycle.  A context being terminated by another thread
(``Node.close`` terminates off the event loop) is given time to finish and is left to it.
"""

from __future__ import annotations

import time
from typing import Any

import zmq

_made: list[zmq.Context[Any]] = []
_terminating: set[int] = set()
_installed = False


def track() -> None:
    """Record every `zmq.Context` made in this process from now on (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    init, term = zmq.Context.__init__, zmq.Context.term

    def recording_init(ctx: zmq.Context[Any], *args: Any, **kwargs: Any) -> None:
        init(ctx, *args, **kwargs)
        if not ctx._shadow:
            _made.append(ctx)

    def marking_term(ctx: zmq.Context[Any]) -> None:
        _terminating.add(id(ctx))
        try:
            term(ctx)
        finally:
            _terminating.discard(id(ctx))

    zmq.Context.__init__ = recording_init  # type: ignore[method-assign,assignment]
    zmq.Context.term = marking_term  # type: ignore[method-assign]


def close_leftovers(wait: float = 5.0) -> list[str]:
    """Destroy every tracked context still open (after up to ``wait`` seconds for those
    another thread is terminating); a description of each destroyed one."""
    deadline = time.monotonic() + wait
    while any(id(c) in _terminating for c in _made) and time.monotonic() < deadline:
        time.sleep(0.01)
    left = []
    for ctx in _made:
        if ctx.closed or id(ctx) in _terminating:
            continue
        sockets = [s for s in ctx._sockets if not s.closed]
        left.append(f"{ctx!r} with {len(sockets)} open socket(s)")
        ctx.destroy(linger=0)
    _made.clear()
    return left

