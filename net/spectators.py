"""`Spectators`: the host's side of watching a table (docs/protocol.md §3.4).

A spectator says ``Hello`` with ``spectator`` set to the host, in any phase.  The host
takes at most `MAX_SPECTATORS` (unless it refuses them all: ``hedgerow host
--no-spectators``), dials the spectator's ``address`` as it dials a joiner, and sends it

* a ``SeatAssignment`` without ``seat``: the seating (names, keys, the round), again
  whenever it changes, with every spectator's name in ``watchers`` (the seated peers get
  the same list on their ``SeatAssignment``, so every player sees who watches);
* ``SpectatorFeed``s: the host's **public record stream** — its log file's records in file
  order (the header, the entries, the seat events) without anything private: at a sealed
  table the shuffle passes, the card keys shown to everyone and the escrow (public keys,
  shares sealed to their holders, and the shares opened for a takeover: they recover the
  departed party's secret, which opens no card without every other party's key, §10.11),
  never a ``CardKeys`` meant for one seat or a disclosed secret — each feed the records
  from where the spectator is, and which seats are lost or left, and why the table halted.
  The records written within `FLUSH_S` (50 ms) go out together, and a feed goes at every
  heartbeat (so the spectator knows the host is there).

**Fan-out and cost.**  Only the host serves spectators, and it sends them the records it
has already encoded for its own log (the payload the log writer wrote), gathered for 50 ms
off the moment it handles a move, in one envelope for every spectator at the same point
(encoded once): a spectator costs the host one send per feed, and the other players nothing
at all.  The stream is
kept only while someone watches (read back from the log file when the first spectator
arrives: a spectator can arrive before the game or in the middle of it).

**What a spectator may send**: ``Heartbeat`` (``next_index``: how many records of the stream
it holds; a spectator that stays behind what it was sent for two beats is sent the rest
again), ``Leave`` (it stops watching; nothing else changes), ``Hello`` again (it starts over
from the first record), and ``Error`` (logged, never answered).  Anything else — an action,
a vote, a motion, a state hash, a seed or sealed-deck message, a catch-up request — is
refused with ``WRONG_SEAT`` ("a spectator holds no seat") and changes nothing: a spectator
is no voter, cannot act and cannot halt the table.  A spectator silent for the lost time
(5 s) is dropped.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from hedgerow.net.codec import CodecError, LogRecord, decode_log_record
from hedgerow.net.keys import key_text
from hedgerow.net.logfile import MAGIC, LogWriter
from hedgerow.net.members import Roster
from hedgerow.net.messages import (
    MAX_FEED_RECORDS,
    Body,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    Leave,
    LeaveReason,
    LoggedEntry,
    LogHeader,
    SealRecord,
    SeatAssignment,
    SeatEvent,
    SpectatorFeed,
)
from hedgerow.net.seat import Link, Phase
from hedgerow.net.shown import shown
from hedgerow.net.transport import Node, Received

log = logging.getLogger(__name__)

#: The most spectators a table takes: enough for a room of friends, few enough that the
#: host's sends to them stay small beside the players' own traffic (bench/spectators.py).
MAX_SPECTATORS = 8
#: At most this many bytes of records in one feed (an envelope holds at most 4 MiB).
FEED_BYTES = 2 * 1024 * 1024
#: Records written within this many seconds go out in one feed: the host's sends to its
#: spectators stay off the moment it handles a move (a spectator sees the move 50 ms later).
FLUSH_S = 0.05
NO_SEAT = "a spectator holds no seat: it cannot act, vote, propose or report at this table"


def public(record: LogRecord) -> bool:
    """Whether ``record`` of a log belongs in the public record stream (module docstring)."""
    if isinstance(record, SealRecord):  # not a key for one seat's card, not a secret
        return record.disclose is None and (record.keys is None or record.keys.public)
    return isinstance(record, (LogHeader, LoggedEntry, SeatEvent))


def public_payloads(path: Path) -> list[bytes]:
    """The public records of the log file at ``path``, as payloads, in file order (the
    intact ones: a live log has no damage, and a reader stops at the first)."""
    data = path.read_bytes()
    frame = struct.Struct("<II")
    out: list[bytes] = []
    at = len(MAGIC) if data.startswith(MAGIC) else len(data)
    while at + frame.size <= len(data):
        length, _ = frame.unpack_from(data, at)
        payload = data[at + frame.size:at + frame.size + length]
        if len(payload) < length:
            break
        try:
            record = decode_log_record(payload)
        except CodecError:
            break
        if public(record):
            out.append(payload)
        at += frame.size + length
    return out


class SpectatorsContext(Protocol):
    """What the host's spectators read of the peer (`hedgerow.net.context.PeerContext`)."""

    watchers: tuple[str, ...]
    on_writer: Callable[[LogWriter | None], None] | None

    @property
    def is_host(self) -> bool: ...

    @property
    def roster(self) -> Roster | None: ...

    @property
    def players(self) -> int: ...

    @property
    def fingerprint(self) -> str: ...

    @property
    def round(self) -> int: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def problem(self) -> str | None: ...

    @property
    def writer(self) -> LogWriter | None: ...

    @property
    def node(self) -> Node: ...

    def now(self) -> float: ...

    def encode(self, body: Body, *, table_id: bytes | None = None) -> bytes: ...

    def refuse(self, rx: Received, env: Envelope | None, code: ErrorCode, message: str, *,
               ref_index: int | None = None, ref_seq: int | None = None,
               refusal: str = "") -> None: ...

    def note(self, sender: bytes, kind: bytes, level: int, msg: str, *args: object) -> None: ...

    def notify(self) -> None: ...


class Beat(Protocol):
    """The peer's heartbeat and the silence after which a link is lost, in seconds."""

    heartbeat: float
    lost_after: float


@dataclass
class Watcher:
    """One spectator: its key, name and address, when it was last heard, how far the
    stream was sent to it and how far it says it holds (``held``, from its heartbeat)."""

    key: bytes
    name: str
    address: str
    last_seen: float
    sent: int = 0
    held: int = 0
    behind: int = 0  # heartbeats in a row it held less than it was sent


class Spectators:
    """The host's spectators (see the module docstring).  ``send_roster()`` sends every
    seated peer the seating again (with the watchers' names); ``beat`` times the feeds and
    drops the silent; ``allowed`` is False at a table that refuses spectators."""

    def __init__(self, ctx: SpectatorsContext, *, send_roster: Callable[[], None],
                 beat: Beat, limit: int = MAX_SPECTATORS) -> None:
        self.ctx = ctx
        self.allowed = True
        self.limit = limit
        self._beat = beat  # the peer's heartbeat and lost time (`hedgerow.net.links.Links`)
        self._send_roster = send_roster
        self.watchers: dict[bytes, Watcher] = {}
        self._stream: list[bytes] | None = None  # the public payloads, while anyone watches
        self._gone: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self._told: SeatAssignment | None = None  # the seating the spectators were sent
        self._flush: asyncio.TimerHandle | None = None  # records waiting to go out
        ctx.on_writer = self._new_writer

    # -- the stream ------------------------------------------------------------------------

    def _new_writer(self, writer: LogWriter | None) -> None:
        """A log begins (or goes: a seed round abandoned): the stream starts over."""
        self._stream = None
        if writer is not None:
            writer.on_record = self._written
        if self.watchers:
            self._load()
            for w in self.watchers.values():
                w.sent = w.held = 0
            self._push()

    def _load(self) -> list[bytes]:
        if self._stream is None:
            writer = self.ctx.writer
            self._stream = public_payloads(writer.path) if writer is not None else []
        return self._stream

    def _written(self, record: LogRecord, payload: bytes) -> None:
        if self._stream is not None and public(record):
            self._stream.append(payload)
            if self._flush is None:  # the records of the next moments go out together
                loop = asyncio.get_running_loop()
                self._flush = loop.call_later(FLUSH_S, self._flushed)

    def _flushed(self) -> None:
        self._flush = None
        if self.watchers:  # (the last one may have left meanwhile)
            self._push()

    def _push(self, *, beat: bool = False) -> None:
        """Send every spectator the records it lacks (with ``beat``: every spectator a feed,
        records or not).  Spectators at the same point get the same envelope, encoded once."""
        self._seating()  # (before any record of a table it does not know the seats of)
        stream = self._load()
        gone = self._away()
        changed = gone != self._gone
        self._gone = gone
        made: dict[int, tuple[bytes, int]] = {}  # first record -> (envelope, records in it)
        for w in self.watchers.values():
            if w.sent < len(stream) or beat or changed:
                if w.sent not in made:
                    made[w.sent] = self._feed(w.sent, stream, gone)
                data, count = made[w.sent]
                w.sent += count
                self.ctx.node.send(w.key, data)

    def _feed(self, first: int, stream: Sequence[bytes],
              gone: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[bytes, int]:
        """The feed of the records from ``first`` on (as many as one takes), encoded, and
        how many records it holds."""
        batch: list[bytes] = []
        size = 0
        for payload in stream[first:first + MAX_FEED_RECORDS]:
            if batch and size + len(payload) > FEED_BYTES:
                break
            batch.append(payload)
            size += len(payload)
        problem = self.ctx.problem if self.ctx.phase == Phase.HALTED else None
        feed = SpectatorFeed(first, tuple(batch), gone[0], gone[1],
                             shown(problem or "", None)[:1000])
        return self.ctx.encode(feed), len(batch)

    def _feed_one(self, w: Watcher) -> None:
        data, count = self._feed(w.sent, self._load(), self._away())
        w.sent += count
        self.ctx.node.send(w.key, data)

    def _away(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        roster = self.ctx.roster
        if roster is None:
            return (), ()
        return (tuple(m.seat for m in roster if m.link == Link.LOST),
                tuple(m.seat for m in roster if m.link == Link.LEFT))

    def _send(self, w: Watcher, body: Body) -> None:
        self.ctx.node.send(w.key, self.ctx.encode(body))

    # -- arriving, speaking, leaving -----------------------------------------------------------

    def has(self, key: bytes) -> bool:
        """True for a spectator's key."""
        return key in self.watchers

    def on_hello(self, rx: Received, env: Envelope, hello: Hello, address: str) -> None:
        """A spectator's ``Hello`` (its rules already checked by seating), listening at
        ``address``."""
        ctx = self.ctx
        if not self.allowed:
            ctx.refuse(rx, env, ErrorCode.WRONG_PHASE, "this table takes no spectators")
            return
        known = self.watchers.get(rx.sender)
        if known is None and len(self.watchers) >= self.limit:
            ctx.refuse(rx, env, ErrorCode.TABLE_FULL,
                       f"this table already has {self.limit} spectators")
            return
        name = hello.display_name or f"spectator {key_text(rx.sender)[:8]}"
        if known is not None:
            ctx.node.disconnect(rx.sender)
        w = self.watchers[rx.sender] = Watcher(rx.sender, name, address, ctx.now())
        ctx.node.connect(w.key, address)
        log.info("%s is watching the table", name)
        self._announce()
        self._feed_one(w)

    def _announce(self) -> None:
        """Every player and spectator learns who watches (a ``SeatAssignment``)."""
        ctx = self.ctx
        ctx.watchers = tuple(w.name for w in self.watchers.values())
        self._send_roster()
        self._seating(always=True)
        ctx.notify()

    def _seating(self, *, always: bool = False) -> None:
        """The seating to every spectator, when it changed since they were last sent it
        (a seat taken or freed, a new round, new addresses)."""
        ctx = self.ctx
        roster = ctx.roster
        peers = roster.peer_infos() if roster is not None else ()
        seating = SeatAssignment(None, ctx.players, ctx.fingerprint, peers, ctx.round,
                                 ctx.watchers)
        if seating == self._told and not always:
            return
        self._told = seating
        for w in self.watchers.values():
            self._send(w, seating)

    def on_body(self, rx: Received, env: Envelope) -> None:
        """Anything a spectator sends after its ``Hello`` (see the module docstring)."""
        w = self.watchers[rx.sender]
        w.last_seen = self.ctx.now()
        body = env.body
        if isinstance(body, Heartbeat):
            behind = body.next_index < w.sent
            w.behind = w.behind + 1 if behind and body.next_index == w.held else 0
            w.held = body.next_index
            if w.behind >= 2:  # a feed lost on the way: the rest again
                w.sent, w.behind = min(body.next_index, w.sent), 0
                self._feed_one(w)
        elif isinstance(body, Leave):
            self.ctx.note(w.key, b"leave", logging.INFO, "spectator %s stopped watching (%s)",
                          w.name, shown(body.reason) or "no reason given")
            self._drop(w)
        elif isinstance(body, ErrorMsg):
            self.ctx.note(w.key, b"error", logging.WARNING,
                          "spectator %s refused our message: %s: %s", w.name, body.code.name,
                          shown(body.message))
        else:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_SEAT, NO_SEAT)

    def _drop(self, w: Watcher) -> None:
        self.watchers.pop(w.key, None)
        self.ctx.node.disconnect(w.key)
        if not self.watchers:
            self._stream = None
        self._announce()

    # -- the beat ------------------------------------------------------------------------

    async def run(self) -> None:
        """Each heartbeat: a feed to every spectator, and the silent ones dropped."""
        while True:
            await asyncio.sleep(self._beat.heartbeat)
            try:
                self.beat()
            except Exception:
                log.exception("the spectators' beat failed")

    def beat(self) -> None:
        """One heartbeat (see `run`)."""
        now = self.ctx.now()
        for w in list(self.watchers.values()):
            if now - w.last_seen > self._beat.lost_after:
                log.info("spectator %s is gone (silent for %.0f s)", w.name, now - w.last_seen)
                self._drop(w)
        if self.watchers:
            self._push(beat=True)

    def close(self, reason: str) -> None:
        """The host leaves: every spectator gets the records of the last moments (a flush
        still pending) and is told."""
        halted = self.ctx.phase == Phase.HALTED
        pending = self._flush is not None
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if self.watchers and (pending or halted):
            # The last records (found by check-peer's spectator-feed: they were lost) and,
            # at a table that halted, why (found by check-peer --halt: a bot host left
            # before the next heartbeat's feed could say it, §3.4).
            self._push(beat=halted)
        why = (LeaveReason.GAME_OVER if self.ctx.phase == Phase.FINISHED
               else LeaveReason.HALTED if halted else LeaveReason.QUIT)  # (§5.8)
        for w in self.watchers.values():
            self._send(w, Leave(reason[:200], why))
