"""`Dispatch`: who handles each message body, once its sender is known to hold a seat.

Every phase of the peer registers its handlers here, one per body type (`Dispatch.on`); a
handler is called with the envelope's body already typed as the type it was registered for
(checked once, here), so no handler looks at ``env.body`` to cast it.  A body nobody
registered for is refused (``WRONG_PHASE``: not expected here).  A new phase (a spectator,
the sealed deck's shuffle) registers the bodies it handles the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from hedgerow.net.members import Member
from hedgerow.net.messages import Body, Envelope, ErrorCode
from hedgerow.net.transport import Received

B = TypeVar("B", bound=Body)
#: A handler as registered: the message's link, envelope, sender and typed body.
Handler = Callable[[Received, Envelope, Member, B], None]
Refuse = Callable[[Received, Envelope, ErrorCode, str], None]


class Dispatch:
    """The handler of each body type; ``refuse(rx, env, code, message)`` answers the rest."""

    def __init__(self, refuse: Refuse) -> None:
        self._refuse = refuse
        self._handlers: dict[type, Callable[[Received, Envelope, Member], None]] = {}

    def on(self, kind: type[B], handler: Handler[B]) -> None:
        """Hand every body of type ``kind`` to ``handler`` (one handler a type)."""
        if kind in self._handlers:
            raise ValueError(f"{kind.__name__} has a handler already")

        def call(rx: Received, env: Envelope, member: Member) -> None:
            body = env.body
            assert isinstance(body, kind)  # (the table is keyed by the body's type)
            handler(rx, env, member, body)

        self._handlers[kind] = call

    def __call__(self, rx: Received, env: Envelope, member: Member) -> None:
        """Handle ``env`` from seated ``member`` (or refuse a body nobody expects)."""
        handler = self._handlers.get(type(env.body))
        if handler is None:
            self._refuse(rx, env, ErrorCode.WRONG_PHASE,
                         f"{type(env.body).__name__} is not expected here")
            return
        handler(rx, env, member)
