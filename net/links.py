"""`Links`: whether each seated peer is there — heartbeats, lost and back, leaving, errors.

Every ``heartbeat`` seconds a peer sends ``Heartbeat(next_index, waiting)`` to each other one
that has not had that news from it yet, and to each one it sent no heartbeat for
`IDLE_BEATS` beats (docs/protocol.md §5.8): an idle link carries one small envelope every
two seconds, which is all liveness needs.  At a sealed table each heartbeat also says what
its sender holds of the deck (``held``, §10.8), so that the others repeat only what it lacks.
A seat silent for ``lost_after`` seconds is LOST,
and the table waits for it.  Anything a seated peer sends shows it is there: a lost seat that speaks
again is back (§5.7) — its seat handed back if a bot ran it, our step messages sent
again since what went meanwhile may be lost.  A ``Leave`` marks its seat LEFT with the
reason it gave; an ``Error`` from a seated peer is logged (a ``DESYNC`` one says it
halted).  Each beat also nudges what may stand still across a cut link (the seed
agreement, an open step, a catch-up behind a peer that is ahead).

Of the other phases this needs only what its constructor takes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Protocol

from hedgerow.core.table import Table
from hedgerow.net.members import Member, Roster, Takeover
from hedgerow.net.messages import (
    Body,
    CatchUpReply,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    Leave,
    SealHeld,
)
from hedgerow.net.seat import Link, Phase
from hedgerow.net.shown import shown
from hedgerow.net.transport import Received

log = logging.getLogger(__name__)

#: An idle link (nothing new to say) carries a heartbeat every this many beats: one every
#: 2 s, so a live peer is heard more than twice within the 5 s after which it is lost.
IDLE_BEATS = 2


class LinksContext(Protocol):
    """What links read of the peer's shared state (`hedgerow.net.context.PeerContext`):
    the roster (each member's link is theirs to change), the table's id, phase and length;
    and how to tell everyone, the log (about another peer's message) and the seat's
    watchers."""

    @property
    def roster(self) -> Roster | None: ...

    @property
    def table_id(self) -> bytes: ...

    @property
    def table(self) -> Table | None: ...

    @property
    def phase(self) -> Phase: ...

    def now(self) -> float: ...

    def broadcast(self, body: Body) -> None: ...

    def send(self, member: Member, body: Body) -> None: ...

    def note(self, sender: bytes, kind: bytes, level: int, msg: str, *args: object) -> None:
        """A log line another peer's message caused, rate-limited per sender and kind."""

    def notify(self) -> None: ...


class LinkedPlay(Protocol):
    """What links need of play (`hedgerow.net.sync.Sync`)."""

    @property
    def catch_up_at(self) -> float | None:
        """When this peer last asked for entries (None: not waiting for any)."""

    def peer_back(self, member: Member, *, restarted: bool = True) -> None:
        """``member`` is back: it gets our step messages again."""

    def resend_stalled_step(self) -> None:
        """Once a beat: send our messages of a step that stands still again."""

    def resend_to_laggards(self) -> None:
        """Once a beat: our recent messages again to a peer that stays behind them."""

    def request_catch_up(self, member: Member | None) -> None:
        """Ask ``member`` for the entries after our log's end."""

    def tell(self, index: int) -> None:
        """Send everyone our state hash of entry ``index`` (a peer found a desync there)."""

    def report_end(self) -> None:
        """The game is over here: report our last state hashes, once."""

    def on_catch_up_reply(self, rx: Received, env: Envelope, member: Member,
                          body: CatchUpReply) -> None:
        """Entries we asked for."""


class LinkedDepartures(Protocol):
    """What links need of departures (`hedgerow.net.departures.Departures`)."""

    @property
    def runs(self) -> Mapping[int, Takeover]:
        """The takeovers in force, by seat."""

    def returned(self, member: Member, *, resumed: bool = True) -> None:
        """A seated peer came back (with a Hello when ``resumed``)."""

    def saw_lost(self, member: Member) -> None:
        """``member`` fell silent here."""

    def answered_by(self, member: Member) -> None:
        """``member`` answered our catch-up request."""

    def took_reply(self, member: Member, body: CatchUpReply) -> bool:
        """A catch-up reply departures takes (what a seat holds of a resumed log)."""

    def expire(self) -> None:
        """Drop the motions that can no longer pass."""

    def hearing_out(self) -> bool:
        """True while a resumed process still waits for the other seats' answers."""


class LinkedDeck(Protocol):
    """What heartbeats carry of the sealed deck (`hedgerow.net.sealplay.SealedPlay`,
    docs/protocol.md §10.8)."""

    def held_for(self, member: Member) -> SealHeld | None:
        """What our heartbeat to ``member`` says we hold (None: nothing to say)."""

    def heard_held(self, key: bytes, held: SealHeld | None) -> None:
        """What the peer of ``key`` says it holds (None: it does not say)."""

    def asked_again(self, key: bytes) -> None:
        """The peer of ``key`` says its sealed deck waits: send it again what we made."""


class Links:
    """Heartbeats, lost and returning seats, ``Leave`` and ``Error``.

    ``seat_gone(member)`` tells seating that a seat was lost or left; ``resend_stalled()``
    is the seed agreement's nudge, once a beat.
    """

    def __init__(self, ctx: LinksContext, *, heartbeat: float, lost_after: float,
                 play: LinkedPlay, departures: LinkedDepartures,
                 seat_gone: Callable[[Member], None],
                 resend_stalled: Callable[[], None],
                 deck_waiting: Callable[[], bool] = lambda: False,
                 sealed: LinkedDeck | None = None) -> None:
        self.ctx = ctx
        self.heartbeat = heartbeat  # seconds between our heartbeats
        self.lost_after = lost_after  # seconds of silence after which a seat is lost
        self._play = play
        self._departures = departures
        self._seat_gone = seat_gone
        self._resend_stalled = resend_stalled
        self._deck_waiting = deck_waiting  # our sealed deck stands still (Heartbeat.waiting)
        self._sealed = sealed  # the sealed deck: what heartbeats say of it (None: none)
        self._index_at_tick = -1
        self._beats = 0
        #: key -> what our last heartbeat to it said (next_index, waiting), and its beat
        self._told: dict[bytes, tuple[tuple[int, bool], int]] = {}

    def alive(self, member: Member, body: Body, seq: int = 0) -> None:
        """``member`` sent ``body`` in envelope ``seq``: it is there (a lost seat is back,
        §5.7)."""
        member.last_seen = self.ctx.now()
        member.seq = seq
        if isinstance(body, Leave) or member.link in (Link.CONNECTED, Link.LEFT):
            return
        was_lost = member.link == Link.LOST
        if was_lost:
            log.info("%s is back", member.label())
        member.link = Link.CONNECTED
        if not isinstance(body, Hello) and (was_lost or member.seat in self._departures.runs):
            # Back without a resume, only its link was down: our step messages sent
            # meanwhile may be lost, a seat a bot plays is handed back, an end agreed
            # meanwhile is told (§5.9).
            self._departures.returned(member, resumed=False)
        self._departures.expire()  # a motion about its seat is moot now
        self.ctx.notify()

    def on_heartbeat(self, rx: Received, env: Envelope, member: Member,
                     body: Heartbeat) -> None:
        member.next_index = body.next_index
        member.seen = body.held.seen if body.held is not None else None
        if self._sealed is None:
            return
        self._sealed.heard_held(member.key, body.held)
        if body.waiting:
            self._sealed.asked_again(member.key)

    def on_leave(self, rx: Received, env: Envelope, member: Member, body: Leave) -> None:
        if member.link == Link.LEFT:
            return
        member.link = Link.LEFT
        member.left_why = body.why
        self.ctx.note(member.key, b"leave", logging.INFO, "%s left the table (%s: %s)",
                      member.label(), body.why.name.lower(),
                      shown(body.reason) or "no reason given")
        self._seat_gone(member)
        self._departures.expire()
        self.ctx.notify()

    def on_error(self, rx: Received, env: Envelope, member: Member, body: ErrorMsg) -> None:
        if body.code == ErrorCode.DESYNC:
            self.ctx.note(member.key, b"error", logging.WARNING, "%s halted the table: %s",
                          member.label(), shown(body.message))
            if body.ref_index is not None:
                self._play.tell(body.ref_index)  # so that it holds every seat's hash there
            return
        self.ctx.note(member.key, b"error", logging.WARNING,
                      "%s refused our message (seq %s): %s: %s", member.label(), body.ref_seq,
                      body.code.name, shown(body.message))

    def on_catch_up_reply(self, rx: Received, env: Envelope, member: Member,
                          body: CatchUpReply) -> None:
        self._departures.answered_by(member)  # after any SeatTaken it had for us (§5.9)
        if not self._departures.took_reply(member, body):
            self._play.on_catch_up_reply(rx, env, member, body)

    async def run(self) -> None:
        """Beat every ``heartbeat`` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                self.beat()
            except Exception:
                log.exception("heartbeat failed")

    def _send_heartbeats(self, index: int, waiting: bool) -> None:
        """A heartbeat to each other peer that has not had ``index`` and ``waiting`` from
        us, and to each one that had no heartbeat from us for `IDLE_BEATS` beats; at a
        sealed table it says what we hold of the deck (`SealHeld`), which is not news by
        itself."""
        assert self.ctx.roster is not None
        self._beats += 1
        news = (index, waiting)
        for member in self.ctx.roster.others():
            told = self._told.get(member.key)
            if told is not None and told[0] == news and self._beats - told[1] < IDLE_BEATS:
                continue
            held = self._sealed.held_for(member) if self._sealed is not None else None
            self.ctx.send(member, Heartbeat(index, waiting, held))
            self._told[member.key] = (news, self._beats)

    def beat(self) -> None:
        """One heartbeat: tell everyone where we are, and see who fell silent."""
        ctx = self.ctx
        if ctx.roster is None or not ctx.table_id:
            return
        index = ctx.table.index if ctx.table is not None else 0
        self._send_heartbeats(index, self._deck_waiting())
        now = ctx.now()
        changed = False
        for m in ctx.roster.others():
            if m.link == Link.CONNECTED and now - m.last_seen > self.lost_after:
                m.link = Link.LOST
                changed = True
                log.warning("%s is lost (silent for %.0f s)", m.label(), now - m.last_seen)
                self._departures.saw_lost(m)
                self._seat_gone(m)
        self._departures.expire()  # motions that can no longer pass (§5.9)
        self._departures.hearing_out()  # resumed: the wait for the others' answers ends
        # A seed agreement or a step that stands still: our messages may have been lost
        # across a reconnect.
        self._resend_stalled()
        self._play.resend_stalled_step()
        self._play.resend_to_laggards()
        self._play.report_end()  # (a table that agreed to end: the end report goes now)
        # Behind another peer for a whole beat (a message lost across a reconnect): fetch.
        if ctx.table is not None and ctx.phase == Phase.PLAYING:
            ahead = [m for m in ctx.roster.others()
                     if m.next_index > index and m.link == Link.CONNECTED]
            asked = self._play.catch_up_at
            stale = asked is None or now - asked > self.heartbeat * 2
            if ahead and index == self._index_at_tick and stale:
                self._play.request_catch_up(max(ahead, key=lambda m: m.next_index))
        self._index_at_tick = index
        if changed:
            ctx.notify()
