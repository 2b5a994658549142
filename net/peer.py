"""`Peer`: one seat at a networked table, implementing `hedgerow.net.seat.Seat`.

A peer owns a `Node` (its sockets) and runs the table protocol of docs/protocol.md on the
event loop.  Its life:

1. **Seating.**  The host opens the table (`open`) and takes seat 0.  A joiner (`join`)
   dials the host's table address and sends ``Hello`` (its rules, name and ROUTER address);
   the host checks the rules (`hedgerow.net.rulesmatch`), gives it a seat and sends every
   seated peer the roster (``SeatAssignment``).  Every peer keeps a DEALER to every other
   one as soon as it knows it (full mesh).
2. **Seeding.**  With every seat taken, each peer sends its ``SeedCommit``, then, holding
   every commitment, its ``SeedReveal`` (`hedgerow.net.seedround`).  The seed comes from
   all shares; every peer sends ``Start`` and acts only once every other ``Start`` matched.
3. **Play.**  The seat the rules name sends ``ActionMsg(index, prev, seat, action)`` to
   every peer; each checks author (the link's CURVE key must hold that seat), index, chain
   and legality (`Table.submit` with ``index=``/``prev=``), applies it and the chance
   entries the rules ask for after it (every peer resolves chance itself from the seed;
   the deal is entry #0), then appends each entry to its log file and sends ``StateHash``
   to everyone (`hedgerow.net.hashbook`); a mismatch halts the table naming the divergent
   peer.  Actions that arrive early wait in a bounded buffer.  Several active seats make a
   simultaneous step: commit, reveal, applied whole (`hedgerow.net.stepround`); a reveal
   that breaks its commitment or the rules halts the table naming the seat.
4. **Links.**  Heartbeats every second; a seat silent for 5 s is LOST and the table waits
   for it.  A peer that comes back (`resume`, from its own log and table file) says
   ``Hello`` again, and fetches what it missed with ``CatchUpRequest``/``CatchUpReply``.

Everything that comes in is checked before it changes anything; a refused message gets an
``Error`` reply with its code and a log line, and changes nothing.  All methods run on the
event loop's thread.

The phases live in mixins over one shared state (`hedgerow.net.peercore.PeerCore`):
`hedgerow.net.lobby` (1, and returning peers), `hedgerow.net.startup` (2) and
`hedgerow.net.sync` (3 and catch-up); this module adds the sockets, the heartbeats (4)
and the `Seat` interface.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, cast

from hedgerow.core.actions import Action
from hedgerow.core.errors import Code, HedgerowError, Refusal, RulesError
from hedgerow.core.game import Outcome
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, Table
from hedgerow.net import rulesmatch, tablefile
from hedgerow.net.address import TableAddress, advertised_host, endpoint, split_endpoint
from hedgerow.net.codec import CodecError, decode_envelope
from hedgerow.net.keys import key_text
from hedgerow.net.lobby import Lobby
from hedgerow.net.logfile import LogWriter
from hedgerow.net.members import Member
from hedgerow.net.messages import (
    ActionCommit,
    ActionMsg,
    ActionReveal,
    Body,
    CatchUpReply,
    CatchUpRequest,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    Leave,
    LeaveReason,
    PeerInfo,
    SeatAssignment,
    SeedCommit,
    SeedReveal,
    Start,
    StateHash,
)
from hedgerow.net.peercore import (  # noqa: F401 - JoinRefused and RefusalRecord are public here
    HELD_LIMIT,
    JoinRefused,
    RefusalRecord,
    body_name,
)
from hedgerow.net.seat import HistoryLine, Link, Phase, SeatInfo
from hedgerow.net.startup import Startup, setup_hash
from hedgerow.net.sync import Sync
from hedgerow.net.transport import Received

log = logging.getLogger(__name__)


class Peer(Lobby, Startup, Sync):
    """One seat at a networked table; see the module docstring for the protocol."""

    # The shared state (`PeerCore`) read here beyond the obvious.
    bot: str | None
    _closed: bool
    _index_at_tick: int

    # ==================================================================================
    # Starting: open, join, resume

    async def _listen(self, bind: str, port: int, toward: str | None = None) -> None:
        bound = await self.node.start(bind, port)
        host, port = split_endpoint(bound)
        self.endpoint = endpoint(advertised_host(host, toward), port)
        self.address = str(TableAddress(*split_endpoint(self.endpoint), self.identity.public))
        self._tasks.append(asyncio.create_task(self._heartbeat_loop()))

    async def open(self, ruleset: Ruleset, players: int, *, bind: str = "127.0.0.1",
                   port: int = 0, seed: bytes | None = None) -> None:
        """Open a table of ``ruleset`` for ``players`` seats and take seat 0 (the host).

        ``seed`` dictates the table seed instead of the commit-reveal (a reproducible deal);
        only joiners that accept a dictated seed (``accept_host_seed``) will play it.
        """
        ruleset.check_players(players)
        self.fixed_seed = seed
        await self._listen(bind, port)
        self.is_host = True
        self.host_key = self.identity.public
        self.table_id = secrets.token_bytes(16)
        self._seated(ruleset, players, 0)
        self._seat_self()
        log.info("table open at %s", self.address)
        if self.roster is not None and self.roster.full:
            self._begin_seeding()
        self._notify()

    async def join(self, address: TableAddress, *, bind: str = "127.0.0.1",
                   fingerprint: str = rulesmatch.ANY_RULES, wanted_seat: int | None = None,
                   timeout: float = 10.0) -> None:
        """Ask the table at ``address`` for a seat; returns once seated.

        Raises `JoinRefused` with the host's reason (rules that differ, a full table...),
        or when no answer comes within ``timeout`` seconds.
        """
        if self.plugins is None:
            raise ValueError("a joining peer needs the plugin host to bind the table's rules")
        await self._listen(bind, 0, toward=address.host)
        self.host_key = address.key
        self._joined = asyncio.get_running_loop().create_future()
        self.node.connect(address.key, address.endpoint)
        hello = Hello(fingerprint, rulesmatch.installed(self.plugins), self.seat_name[:64],
                      wanted_seat, self.bot is not None, self.endpoint)
        self.node.send(address.key, self._encode(hello, table_id=b""))
        try:
            await asyncio.wait_for(asyncio.shield(self._joined), timeout)
        except TimeoutError:
            raise JoinRefused(
                f"no answer from the table at {address.host}:{address.port} within {timeout:g} s "
                f"(is it running, and can it reach this machine at {self.endpoint}?)"
            ) from None

    async def resume(self, log_path: Path, *, bind: str | None = None) -> None:
        """Come back to the table whose log is ``log_path``: rebuild, reconnect, catch up."""
        from hedgerow.net.logfile import read_log, replay_log

        if self.plugins is None:
            raise ValueError("a resuming peer needs the plugin host to bind the table's rules")
        result = read_log(log_path)
        if result.header is None:
            raise HedgerowError(f"{log_path} is not a table log: {result.problem}")
        header = result.header
        if header.own_seat is None or not header.table_id:
            raise HedgerowError(f"{log_path} is not the log of a networked seat")
        saved = tablefile.load(log_path)
        me = next((p for p in saved.peers if p.seat == saved.own_seat), None)
        if me is None or me.public_key != self.identity.public:
            raise HedgerowError(
                f"{log_path} was played by another identity (key {key_text(me.public_key)[:8]}"
                f"…); use the key file of that seat (--key-file)" if me else
                f"{log_path}'s table file does not list its own seat")
        ruleset = rulesmatch.ruleset_for(self.plugins, header.fingerprint, header.players)

        def describe(table: Table, applied: Applied) -> None:
            entry = applied.entry
            text = table.describe_entry(entry, applied.before)
            self._history.append(HistoryLine(entry.index, entry.seat, text))

        report = replay_log(ruleset, header, result.entries, on_step=describe)
        if report.mismatch is not None or report.table is None:
            raise HedgerowError(f"{log_path} does not replay: {report.mismatch}")
        host, port = split_endpoint(me.address)
        try:
            await self._listen(bind or host, port)  # same address: others reconnect by themselves
        except OSError:
            await self._listen(bind or host, 0)
        self.table_id = header.table_id
        self.host_key = next((p.public_key for p in saved.peers if p.seat == 0), None)
        self.is_host = self.host_key == self.identity.public
        self.bot = self.bot or saved.bot
        self._seated(ruleset, header.players, saved.own_seat)
        assert self.roster is not None and self._hashes is not None
        now = self._now()
        for info in saved.peers:
            if info.seat == self.seat:
                info = PeerInfo(info.seat, info.public_key, self.endpoint, info.display_name,
                                info.bot)
            member = self.roster.add(info, now, "bot" if info.bot else None)
            if member.key != self.identity.public:
                member.link = Link.WAITING
        self.table = report.table
        for item in result.entries:
            self._hashes.record_own(item.index, item.state_hash)
        self._setup_hash = setup_hash(Table(ruleset, header.players, header.seed))
        self._writer = LogWriter.resume(log_path, sync=False)
        self._log_path = Path(log_path)
        self._save_table_file()
        self._phase = Phase.PLAYING if self.table.active_seats() else Phase.FINISHED
        self.syncing = True
        self._resumed = True
        # Chance the rules resolved after the last logged entry (the process died before
        # sealing it): sealed now, like any entry.
        self._applied(report.unlogged)
        hello = Hello(ruleset.fingerprint, rulesmatch.installed(self.plugins),
                      self.seat_name[:64] or me.display_name, self.seat, self.bot is not None,
                      self.endpoint)
        for m in self.roster.others():
            self.node.connect(m.key, m.info.address)
        self._broadcast(hello)
        # Our Start again: it may never have reached the others before we went away.
        self._broadcast(Start(self.table.header, self._setup_hash))
        self._request_catch_up(None)
        log.info("resumed seat %d at action #%d; catching up", self.seat, self.table.index)
        self._notify()

    def _seat_self(self) -> None:
        assert self.roster is not None
        info = PeerInfo(self.seat, self.identity.public, self.endpoint,
                        self.seat_name[:64], self.bot is not None)
        self.roster.add(info, self._now(), self.bot)

    # ==================================================================================
    # The Seat interface

    def phase(self) -> Phase:
        """Where the table is now."""
        return self._phase

    def view(self) -> Any:
        """This seat's view of the current state (None before play)."""
        return None if self.table is None else self.table.view(self.seat)

    def active_seats(self) -> tuple[int, ...]:
        """Seats that must act now."""
        return () if self.table is None else self.table.active_seats()

    def legal_actions(self) -> Sequence[Action]:
        """What this seat may do now (empty when it is not its turn, or it already chose)."""
        if self.table is None or self._phase != Phase.PLAYING or self.syncing or not self.ready:
            return []
        active = self.table.active_seats()
        if self.seat not in active:
            return []
        step = self._step
        if len(active) > 1 and step is not None and step.index == self.table.index and step.own:
            return []
        # The game's own (possibly lazy) sequence, as `hedgerow simulate` uses it: listing a
        # Petals placement turn in full costs far more than picking one action from it.
        return self.ruleset.gamedef.legal_actions(self.table.state, self.seat)

    def outcome(self) -> Outcome | None:
        """The result, once the game is over."""
        return None if self.table is None else self.table.outcome()

    def seats(self) -> Sequence[SeatInfo]:
        """Every seat, with its player's name and link."""
        if self.roster is None:
            return []
        return self.roster.seat_infos(self.seat)

    def history(self) -> Sequence[HistoryLine]:
        """Every accepted action so far, in plain words."""
        self._seal()
        return list(self._history)

    def problem(self) -> str | None:
        """Why the table halted, or None."""
        return self._problem

    def log_path(self) -> Path | None:
        """Where this seat's copy of the table log is saved."""
        return self._log_path

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change."""
        self._subscribers.append(callback)

    async def submit(self, action: Action) -> Refusal | None:
        """Play ``action`` for this seat: None once accepted locally and sent, or why not."""
        table = self.table
        if table is None or self._phase != Phase.PLAYING:
            return Refusal("wrong_phase", f"the table is {self._phase.value}, not playing")
        if self.syncing:
            return Refusal("syncing", "this seat is still catching up with the table")
        if not self.ready:
            return Refusal("starting", "waiting for every peer to start the table")
        active = table.active_seats()
        if self.seat not in active:
            who = ", ".join(str(s) for s in active)
            return Refusal(Code.NOT_YOUR_TURN, f"seat {self.seat} may not act now "
                                               f"(waiting for seat {who})")
        if len(active) > 1:
            return self._commit_step(action)
        try:
            result = table.submit(self.seat, action, index=table.index, prev=table.head)
        except RulesError as exc:
            self._rules_failed(exc)
            return Refusal("rules_failed", str(exc))
        if isinstance(result, Refusal):
            return result
        own = result[0].entry
        self._applied(result, announce=ActionMsg(own.index, own.prev, self.seat, action))
        self._drain()
        return None

    async def close(self, reason: str = "left the table", why: LeaveReason | None = None) -> None:
        """Leave the table (telling the others why) and release every socket and file.

        ``why`` defaults to what the table's phase says: GAME_OVER once finished, HALTED once
        halted, QUIT before.
        """
        if self._closed:
            return
        if why is None:
            why = {Phase.FINISHED: LeaveReason.GAME_OVER,
                   Phase.HALTED: LeaveReason.HALTED}.get(self._phase, LeaveReason.QUIT)
        self._seal()
        self._closed = True
        if self.roster is not None and self.table_id:
            for m in self.roster.others():
                if m.link in (Link.LEFT, Link.LOST):
                    self.node.disconnect(m.key)  # nothing to deliver there: no lingering
            self._broadcast(Leave(reason[:200], why))
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for closer in self._closers:
            try:
                await closer()
            except Exception:
                log.exception("closing %r failed", closer)
        await self.node.close()
        if self._writer is not None:
            self._writer.close()
        self._notify()

    # ==================================================================================
    # Extras beyond the Seat interface (bot runner, launch, tests)

    def on_close(self, closer: Callable[[], Awaitable[None]]) -> None:
        """Await ``closer()`` when the peer closes (e.g. to stop announcing the table)."""
        self._closers.append(closer)

    @property
    def closed(self) -> bool:
        """True once `close` ran."""
        return self._closed

    @property
    def seed(self) -> bytes | None:
        """The table seed, once agreed."""
        return None if self.table is None else self.table.header.seed

    def state_hash(self) -> bytes | None:
        """The canonical hash of the current state (None before play)."""
        return None if self.table is None else self.table.state_hash()

    def confirmed_end(self) -> bool:
        """True when every other seat has confirmed the final state (or left)."""
        if self.table is None or self._hashes is None or self.roster is None:
            return False
        last = self.table.index - 1
        return all(m.link == Link.LEFT or self._hashes.reported(m.seat, last)
                   for m in self.roster.others())

    def desync_settled(self) -> bool:
        """False while a desync's naming may still change (reports for it are on the way)."""
        divergence = self._hashes.divergence if self._hashes is not None else None
        if divergence is None or self.roster is None:
            return True
        return all(m.seat in divergence.hashes or m.link != Link.CONNECTED for m in self.roster)

    def members(self) -> list[Member]:
        """The seated peers (this one included), by seat."""
        return [] if self.roster is None else list(self.roster)

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None
                         ) -> bool:
        """Wait until ``predicate()`` holds (checked after every change); False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not predicate():
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                return False
            tick = self._tick
            try:
                await asyncio.wait_for(tick.wait(), remaining)
            except TimeoutError:
                return predicate()
        return True

    def changed(self) -> Awaitable[bool]:
        """An awaitable for the next change (bound now, so no change slips in between)."""
        return self._tick.wait()

    # ==================================================================================
    # Receiving

    def _on_frame(self, rx: Received) -> None:
        if self._closed:
            return
        if rx.data is None:
            self._refuse(rx, None, ErrorCode.MALFORMED, "a message must be exactly one frame")
            return
        try:
            env = decode_envelope(rx.data)
        except CodecError as exc:
            self._refuse(rx, None, exc.code, exc.message, ref_seq=exc.ref_seq,
                         ref_index=exc.ref_index)
            return
        self._accept(rx, env)

    def _accept(self, rx: Received, env: Envelope) -> None:
        """Check who sent ``env`` and whether it belongs to this table, then handle it."""
        if env.sender != rx.sender:
            self._refuse(rx, env, ErrorCode.STRANGER,
                         "the envelope names a sender other than the link's CURVE key")
            return
        body = env.body
        if isinstance(body, Hello):
            self._on_hello(rx, env)
            return
        if (isinstance(body, (SeatAssignment, ErrorMsg)) and rx.sender == self.host_key
                and self._joined is not None and not self._joined.done()):
            self._on_join_answer(rx, env)
            return
        joining = self._joined is not None and not self._joined.done()
        if joining and len(self._held) < HELD_LIMIT:
            self._held.append((rx, env))  # from a peer seated before the host answered us
            return
        if joining:  # more than the hold takes: no table here yet, so nobody holds a seat
            self._refuse(rx, env, ErrorCode.STRANGER, "the sender holds no seat at this table")
            return
        if env.table_id != self.table_id:
            self._refuse(rx, env, ErrorCode.WRONG_TABLE, "this is not the table of that id")
            return
        member = self.roster.by_key(rx.sender) if self.roster is not None else None
        if member is None:
            if (self._phase == Phase.SEATING and not self.is_host
                    and len(self._held) < HELD_LIMIT):
                self._held.append((rx, env))  # maybe a peer seated after us: see the roster
                return
            self._refuse(rx, env, ErrorCode.STRANGER, "the sender holds no seat at this table")
            return
        self._alive(member, body)
        self._dispatch(rx, env, member)

    def _alive(self, member: Member, body: Body) -> None:
        member.last_seen = self._now()
        if isinstance(body, Leave) or member.link in (Link.CONNECTED, Link.LEFT):
            return
        if member.link == Link.LOST:
            log.info("%s is back", member.label())
        member.link = Link.CONNECTED
        self._notify()

    def _dispatch(self, rx: Received, env: Envelope, member: Member) -> None:
        body = env.body
        handler = self._handlers.get(type(body))
        if handler is None:
            self._refuse(rx, env, ErrorCode.WRONG_PHASE, f"{body_name(env)} is not expected here")
            return
        handler(self, rx, env, member)

    # -- links --------------------------------------------------------------------------

    def _on_heartbeat(self, rx: Received, env: Envelope, member: Member) -> None:
        body = cast(Heartbeat, env.body)
        member.next_index = body.next_index

    def _on_leave(self, rx: Received, env: Envelope, member: Member) -> None:
        body = cast(Leave, env.body)
        if member.link == Link.LEFT:
            return
        member.link = Link.LEFT
        member.left_why = body.why
        log.info("%s left the table (%s: %s)", member.label(), body.why.name.lower(),
                 body.reason or "no reason given")
        if self.is_host and self._phase == Phase.SEATING:
            self._free_seat(member)
        self._notify()

    def _on_error(self, rx: Received, env: Envelope, member: Member) -> None:
        body = cast(ErrorMsg, env.body)
        if body.code == ErrorCode.DESYNC:
            log.warning("%s halted the table: %s", member.label(), body.message)
            return
        log.warning("%s refused our message (seq %s): %s: %s", member.label(), body.ref_seq,
                    body.code.name, body.message)

    async def _heartbeat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                self._beat()
            except Exception:
                log.exception("heartbeat failed")

    def _beat(self) -> None:
        if self.roster is None or not self.table_id:
            return
        index = self.table.index if self.table is not None else 0
        self._broadcast(Heartbeat(index))
        now = self._now()
        changed = False
        for m in self.roster.others():
            if m.link == Link.CONNECTED and now - m.last_seen > self.lost_after:
                m.link = Link.LOST
                changed = True
                log.warning("%s is lost (silent for %.0f s)", m.label(), now - m.last_seen)
                if self.is_host and self._phase == Phase.SEATING:
                    self._free_seat(m)
        # Behind another peer for a whole beat (a message lost across a reconnect): fetch.
        if self.table is not None and self._phase == Phase.PLAYING:
            ahead = [m for m in self.roster.others()
                     if m.next_index > index and m.link == Link.CONNECTED]
            stale = self._catch_up_at is None or now - self._catch_up_at > self.heartbeat * 2
            if ahead and index == self._index_at_tick and stale:
                self._request_catch_up(max(ahead, key=lambda m: m.next_index))
        self._index_at_tick = index
        if changed:
            self._notify()

    _handlers: dict[type, Callable[[Peer, Received, Envelope, Member], None]] = {
        SeatAssignment: Lobby._on_seat_assignment,
        SeedCommit: Startup._on_seed_commit,
        SeedReveal: Startup._on_seed_reveal,
        Start: Startup._on_start,
        ActionMsg: Sync._on_action,
        StateHash: Sync._on_state_hash,
        ActionCommit: Sync._on_action_commit,
        ActionReveal: Sync._on_action_reveal,
        CatchUpRequest: Sync._on_catch_up_request,
        CatchUpReply: Sync._on_catch_up_reply,
        Heartbeat: _on_heartbeat,
        Leave: _on_leave,
        ErrorMsg: _on_error,
    }

