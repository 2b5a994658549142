"""`Intake`: what comes in to a peer, before any phase sees it (docs/protocol.md §5.1 to §5.3).

A frame is decoded into an `Envelope` (a frame that is not exactly one well-formed
envelope is refused with its code); then the envelope is checked against the link it came
on (the sender it names must be the link's CURVE key), handed to seating while this peer
joins (the host's answer, or held: a peer seated before the host answered us), checked for
this table's id, and finally dispatched, typed, to the phase that handles its body
(`hedgerow.net.dispatch.Dispatch`), once its sender is known to hold a seat; a
spectator's go to `hedgerow.net.spectators.Spectators` (§3.4).  Anything
refused gets an ``Error`` reply and a log line, and changes nothing.
"""

from __future__ import annotations

from typing import Protocol

from hedgerow.net import messages as msg
from hedgerow.net.codec import CodecError, decode_envelope
from hedgerow.net.dispatch import Dispatch
from hedgerow.net.links import Links
from hedgerow.net.members import Roster
from hedgerow.net.seat import Phase
from hedgerow.net.seating import Seating
from hedgerow.net.spectators import Spectators
from hedgerow.net.transport import Received

NO_SEAT = "the sender holds no seat at this table"


class IntakeContext(Protocol):
    """What the intake reads of the peer's shared state (`hedgerow.net.context.PeerContext`):
    the seating (host key, table id, roster, whether this peer hosts), the phase, and how
    to refuse."""

    host_key: bytes | None
    table_id: bytes
    is_host: bool

    @property
    def roster(self) -> Roster | None: ...

    @property
    def phase(self) -> Phase: ...

    def refuse(self, rx: Received, env: msg.Envelope | None, code: msg.ErrorCode, message: str,
               *, ref_index: int | None = None, ref_seq: int | None = None,
               refusal: str = "") -> None: ...


class Intake:
    """Decodes, checks and routes what a peer receives."""

    def __init__(self, ctx: IntakeContext, *, seating: Seating, links: Links,
                 dispatch: Dispatch, spectators: Spectators | None = None) -> None:
        self.ctx = ctx
        self.spectators = spectators
        self.seating = seating
        self.links = links
        self.dispatch = dispatch

    def decode(self, rx: Received) -> msg.Envelope | None:
        """The envelope in ``rx``, or None (refused: not one frame, or malformed)."""
        if rx.data is None:
            self.ctx.refuse(rx, None, msg.ErrorCode.MALFORMED,
                            "a message must be exactly one frame")
            return None
        try:
            return decode_envelope(rx.data)
        except CodecError as exc:
            self.ctx.refuse(rx, None, exc.code, exc.message, ref_seq=exc.ref_seq,
                            ref_index=exc.ref_index)
            return None

    def accept(self, rx: Received, env: msg.Envelope) -> None:
        """Check who sent ``env`` and whether it belongs to this table, then handle it."""
        ctx, seating = self.ctx, self.seating
        if env.sender != rx.sender:
            ctx.refuse(rx, env, msg.ErrorCode.STRANGER,
                       "the envelope names a sender other than the link's CURVE key")
            return
        body = env.body
        if isinstance(body, msg.Hello):
            seating.on_hello(rx, env, body)
            return
        joining = seating.joining
        if (joining and isinstance(body, (msg.SeatAssignment, msg.ErrorMsg))
                and rx.sender == ctx.host_key):
            seating.on_join_answer(rx, env, body)
            return
        if joining and seating.hold(rx, env):
            return  # from a peer seated before the host answered us
        if joining:  # more than the hold takes: no table here yet, so nobody holds a seat
            ctx.refuse(rx, env, msg.ErrorCode.STRANGER, NO_SEAT)
            return
        if env.table_id != ctx.table_id:
            ctx.refuse(rx, env, msg.ErrorCode.WRONG_TABLE, "this is not the table of that id")
            return
        member = ctx.roster.by_key(rx.sender) if ctx.roster is not None else None
        if member is None:
            if self.spectators is not None and self.spectators.has(rx.sender):
                self.spectators.on_body(rx, env)  # a spectator: no seat, no vote (§3.4)
                return
            if ctx.phase == Phase.SEATING and not ctx.is_host and seating.hold(rx, env):
                return  # maybe a peer seated after us: see the roster
            ctx.refuse(rx, env, msg.ErrorCode.STRANGER, NO_SEAT)
            return
        self.links.alive(member, body, env.seq)
        self.dispatch(rx, env, member)
