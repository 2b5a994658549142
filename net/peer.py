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
   all shares; the host also sends ``Start`` so every peer checks it agrees before play.
3. **Play.**  The seat the rules name sends ``ActionMsg(index, prev, seat, action)`` to
   every peer; each checks author (the link's CURVE key must hold that seat), index, chain
   and legality (`Table.submit` with ``index=``/``prev=``), applies it, appends it to its
   log file and sends ``StateHash`` to everyone (`hedgerow.net.hashbook`); a mismatch halts
   the table naming the divergent peer.  Actions that arrive early wait in a bounded buffer.
   Several active seats make a simultaneous step (`hedgerow.net.stepround`).
4. **Links.**  Heartbeats every second; a seat silent for 5 s is LOST and the table waits
   for it.  A peer that comes back (`resume`, from its own log and table file) says
   ``Hello`` again, and fetches what it missed with ``CatchUpRequest``/``CatchUpReply``.

Everything that comes in is checked before it changes anything; a refused message gets an
``Error`` reply with its code and a log line, and changes nothing.  All methods run on the
event loop's thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.canon import state_hash as canon_state_hash
from hedgerow.core.datadir import logs_dir
from hedgerow.core.errors import Code, HedgerowError, Refusal
from hedgerow.core.game import Outcome
from hedgerow.core.host import Host
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import LogEntry, Table
from hedgerow.net import rulesmatch, tablefile
from hedgerow.net.address import TableAddress, advertised_host, endpoint, split_endpoint
from hedgerow.net.codec import CodecError, decode_envelope, encode_envelope
from hedgerow.net.hashbook import HashBook
from hedgerow.net.keys import Identity, key_text
from hedgerow.net.logfile import LogWriter
from hedgerow.net.members import Member, Roster
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
    LoggedEntry,
    LogHeader,
    PeerInfo,
    SeatAssignment,
    SeedCommit,
    SeedReveal,
    Start,
    StateHash,
    error_code_for_refusal,
)
from hedgerow.net.seat import HistoryLine, Link, Phase, SeatInfo
from hedgerow.net.seedround import SeedRound, SeedRoundError
from hedgerow.net.stepround import StepError, StepRound
from hedgerow.net.transport import Received

log = logging.getLogger(__name__)

#: Seconds between heartbeats, and of silence after which a seat is lost.
HEARTBEAT_S = 1.0
LOST_AFTER_S = 5.0
#: Messages for later log indices kept until their turn comes (more are dropped and
#: fetched again by catch-up).
AHEAD_LIMIT = 256
#: Messages from peers not yet in the roster kept while seats fill.
HELD_LIMIT = 64
#: Entries per CatchUpReply.
CATCH_UP_BATCH = 256
#: Refusals remembered for `Peer.refusals`.
REFUSALS_KEPT = 256
NO_TABLE = bytes(16)


class JoinRefused(HedgerowError):
    """The table would not seat this peer (the message says why)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="join_refused")


@dataclass(frozen=True, slots=True)
class RefusalRecord:
    """A message this peer refused: from whom, what, and why (also logged)."""

    sender: bytes
    seat: int | None
    what: str
    code: ErrorCode
    message: str
    ref_index: int | None = None


def _out_of_turn(msg: ActionMsg, active: int) -> str:
    """The refusal of an action out of turn: the same words whether it came early or late."""
    return f"seat {msg.seat} may not act at #{msg.index}: it is seat {active}'s turn"


def _kind(env: Envelope | None) -> str:
    return "a message" if env is None else type(env.body).__name__


class Peer:
    """One seat at a networked table; see the module docstring for the protocol."""

    def __init__(self, identity: Identity, *, seat_name: str = "", bot: str | None = None,
                 plugins: Host | None = None, log_dir: Path | None = None,
                 heartbeat: float = HEARTBEAT_S, lost_after: float = LOST_AFTER_S) -> None:
        from hedgerow.net.transport import Node

        self.identity = identity
        self.seat_name = seat_name
        self.bot = bot
        self.plugins = plugins
        self.log_dir = log_dir
        self.heartbeat = heartbeat
        self.lost_after = lost_after
        self.node = Node(identity, self._on_frame)
        self.seat = -1
        self.players = 0
        self.ruleset: Ruleset = None  # type: ignore[assignment]  # set once seated
        self.table_id = b""
        self.table: Table | None = None
        self.is_host = False
        self.host_key: bytes | None = None
        self.roster: Roster | None = None
        self.endpoint = ""
        self.address = ""
        self.syncing = False  # resumed: catching up before acting
        self.refusals: deque[RefusalRecord] = deque(maxlen=REFUSALS_KEPT)
        self.key_file: str | None = None
        self.fixed_seed: bytes | None = None  # host: the seed dictated (hedgerow play --seed)
        self.accept_host_seed = False  # joiner: accept a seed the host dictates
        self._phase = Phase.SEATING
        self._problem: str | None = None
        self._seq = 0  # envelopes created by this process (a reference, docs/protocol.md §5.2)
        self._subscribers: list[Callable[[], None]] = []
        self._tick = asyncio.Event()
        self._history: list[HistoryLine] = []
        self._seed: SeedRound | None = None
        self._revealed = False
        self._hashes: HashBook | None = None
        self._starts: dict[int, Start] = {}  # Starts that came before our own seed
        self._started: set[int] = set()  # seats whose Start matched ours
        self._resumed = False
        self._setup_hash: bytes | None = None
        self._ahead: dict[int, list[tuple[Received, Envelope, Member]]] = {}
        self._ahead_count = 0
        self._held: list[tuple[Received, Envelope]] = []
        self._step: StepRound | None = None
        self._writer: LogWriter | None = None
        self._log_path: Path | None = None
        self._catch_up_at: float | None = None
        self._index_at_tick = -1
        self._joined: asyncio.Future[None] | None = None
        self._draining = False
        self._unsealed: deque[tuple[LogEntry, Any, Any]] = deque()  # applied, not yet hashed
        self._sealing = False
        self._tasks: list[asyncio.Task[None]] = []
        self._closers: list[Callable[[], Awaitable[None]]] = []
        self._closed = False

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
        import secrets

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

        def describe(table: Table, item: LoggedEntry) -> None:
            entry = item.entry
            text = table.describe(entry.seat, entry.action)
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
        self._setup_hash = Table(ruleset, header.players, header.seed).state_hash()
        self._writer = LogWriter.resume(log_path, sync=False)
        self._log_path = Path(log_path)
        self._save_table_file()
        self._phase = Phase.PLAYING if self.table.active_seats() else Phase.FINISHED
        self.syncing = True
        self._resumed = True
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

    def _seated(self, ruleset: Ruleset, players: int, seat: int) -> None:
        self.ruleset = ruleset
        self.players = players
        self.seat = seat
        self.roster = Roster(players, self.identity.public)
        self._hashes = HashBook(players, seat)
        self._seed = SeedRound(players, seat)

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
            return self._commit_step(action, active)
        old = table.state
        result = table.submit(self.seat, action, index=table.index, prev=table.head)
        if isinstance(result, Refusal):
            return result
        self._applied(result, old, announce=ActionMsg(result.index, result.prev, self.seat,
                                                      action))
        self._drain()
        return None

    async def close(self, reason: str = "left the table") -> None:
        """Leave the table (telling the others) and release every socket and file."""
        if self._closed:
            return
        self._seal()
        self._closed = True
        if self.roster is not None and self.table_id:
            for m in self.roster.others():
                if m.link in (Link.LEFT, Link.LOST):
                    self.node.disconnect(m.key)  # nothing to deliver there: no lingering
            self._broadcast(Leave(reason[:200]))
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
    # Sending

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _encode(self, body: Body, *, table_id: bytes | None = None) -> bytes:
        self._seq += 1
        tid = self.table_id if table_id is None else table_id
        if not tid and not isinstance(body, Hello):
            tid = NO_TABLE
        return encode_envelope(Envelope(tid, self.identity.public, self._seq, body))

    def _broadcast(self, body: Body) -> None:
        if self.roster is None:
            return
        data = self._encode(body)
        for m in self.roster.others():
            self.node.send(m.key, data)

    def _send(self, member: Member, body: Body) -> None:
        self.node.send(member.key, self._encode(body))

    def _notify(self) -> None:
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()
        for callback in list(self._subscribers):
            try:
                callback()
            except Exception:
                log.exception("a subscriber failed")

    def _names(self) -> dict[int, str]:
        return {} if self.roster is None else {m.seat: m.info.display_name for m in self.roster}

    def _who(self, key: bytes) -> str:
        member = self.roster.by_key(key) if self.roster is not None else None
        return member.label() if member is not None else f"stranger {key_text(key)[:8]}"

    def _refuse(self, rx: Received, env: Envelope | None, code: ErrorCode, message: str, *,
                ref_index: int | None = None, refusal: str = "") -> None:
        """Log a refused message and answer its sender with an Error; nothing else changes."""
        member = self.roster.by_key(rx.sender) if self.roster is not None else None
        what = _kind(env)
        log.warning("refused %s from %s: %s: %s", what, self._who(rx.sender), code.name, message)
        self.refusals.append(RefusalRecord(rx.sender, member.seat if member else None, what,
                                           code, message, ref_index))
        if env is not None and isinstance(env.body, ErrorMsg):
            return  # never answer an error with an error
        error = ErrorMsg(code, message, env.seq if env is not None else None, ref_index,
                         str(refusal))  # a plain str: the codec takes no StrEnum
        data = self._encode(error)
        if rx.route is not None:
            self.node.reply(rx.route, data)
        else:
            self.node.send(rx.sender, data)

    def _halt(self, message: str, *, tell: bool = False, index: int | None = None) -> None:
        """Stop the table; ``tell`` sends every seated peer Error(DESYNC) saying why."""
        first = self._phase != Phase.HALTED
        self._phase = Phase.HALTED
        self._problem = message
        if first:
            log.error("table halted: %s", message)
            if tell:
                self._broadcast(ErrorMsg(ErrorCode.DESYNC, message, None, index))
        self._notify()

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
            self._refuse(rx, None, exc.code, exc.message)
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
            self._refuse(rx, env, ErrorCode.WRONG_PHASE, f"{_kind(env)} is not expected here")
            return
        handler(self, rx, env, member)

    # -- seating ------------------------------------------------------------------------

    def _on_hello(self, rx: Received, env: Envelope) -> None:
        hello: Hello = env.body  # type: ignore[assignment]
        if env.table_id not in (b"", self.table_id):
            self._refuse(rx, env, ErrorCode.WRONG_TABLE, "this is not the table of that id")
            return
        member = self.roster.by_key(rx.sender) if self.roster is not None else None
        if member is not None:
            self._on_rejoin(rx, env, member)
            return
        if not self.is_host:
            self._refuse(rx, env, ErrorCode.STRANGER, "this peer does not seat anyone")
            return
        # The host's checks, in the order of docs/protocol.md §3.1.
        assert self.roster is not None
        name = hello.display_name or f"peer {key_text(rx.sender)[:8]}"
        problem = rulesmatch.mismatch(self.ruleset, hello.fingerprint, hello.plugins, name)
        if problem is not None:
            self._refuse(rx, env, ErrorCode.RULES_MISMATCH, problem)
            return
        if self._phase != Phase.SEATING or hello.spectator:
            self._refuse(rx, env, ErrorCode.WRONG_PHASE, "this table takes no spectators"
                         if hello.spectator else "the table has started; no seat is free")
            return
        wanted = hello.wanted_seat
        if wanted is not None and wanted >= self.players:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT,
                         f"seat {wanted} does not exist at a {self.players}-seat table")
            return
        seat = self.roster.free_seat(wanted)
        if seat is None:
            code = ErrorCode.SEAT_TAKEN if wanted is not None else ErrorCode.TABLE_FULL
            self._refuse(rx, env, code, f"seat {wanted} is taken" if wanted is not None
                         else "every seat is taken")
            return
        try:
            host, port = split_endpoint(hello.address)
        except ValueError:
            self._refuse(rx, env, ErrorCode.MALFORMED, f"bad address {hello.address!r}")
            return
        if host in ("0.0.0.0", "::") and rx.peer_ip:
            host = rx.peer_ip
        info = PeerInfo(seat, rx.sender, endpoint(host, port), hello.display_name, hello.bot)
        member = self.roster.add(info, self._now(), "bot" if hello.bot else None)
        self.node.connect(rx.sender, info.address)
        log.info("%s took seat %d", name, seat)
        self._send_roster()
        if self.roster.full:
            self._begin_seeding()
        self._notify()

    def _send_roster(self) -> None:
        assert self.roster is not None
        peers = self.roster.peer_infos()
        for m in self.roster.others():
            self._send(m, SeatAssignment(m.seat, self.players, self.ruleset.fingerprint, peers))

    def _on_join_answer(self, rx: Received, env: Envelope) -> None:
        assert self._joined is not None
        body = env.body
        if isinstance(body, ErrorMsg):
            self._joined.set_exception(JoinRefused(f"the table refused: {body.message}"))
            return
        assert isinstance(body, SeatAssignment)
        if body.seat is None:
            self._joined.set_exception(JoinRefused("the table offered no seat"))
            return
        assert self.plugins is not None
        try:
            ruleset = rulesmatch.ruleset_for(self.plugins, body.fingerprint, body.players)
        except HedgerowError as exc:
            self._joined.set_exception(JoinRefused(exc.message))
            return
        self.table_id = env.table_id
        self._seated(ruleset, body.players, body.seat)
        self._joined.set_result(None)
        self._apply_roster(body)

    def _on_seat_assignment(self, rx: Received, env: Envelope, member: Member) -> None:
        body: SeatAssignment = env.body  # type: ignore[assignment]
        if rx.sender != self.host_key or self.is_host:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT, "only the host assigns seats")
            return
        if (body.seat != self.seat or body.players != self.players
                or body.fingerprint != self.ruleset.fingerprint):
            self._refuse(rx, env, ErrorCode.WRONG_SEAT, "the seating contradicts the first one")
            return
        if self._phase != Phase.SEATING:
            self._refresh_addresses(rx, env, body)
            return
        self._apply_roster(body)

    def _refresh_addresses(self, rx: Received, env: Envelope, body: SeatAssignment) -> None:
        """The host's answer to our return (§5.7): the same seats, perhaps new addresses."""
        assert self.roster is not None
        keys = {m.seat: m.key for m in self.roster}
        if {p.seat: p.public_key for p in body.peers} != keys:
            self._refuse(rx, env, ErrorCode.WRONG_PHASE, "the seats are already settled")
            return
        for info in body.peers:
            member = self.roster.by_seat(info.seat)
            if member is not None and member.key != self.identity.public \
                    and info.address != member.info.address:
                self.roster.set_address(member, info.address)
                self.node.connect(member.key, info.address)
                self._save_table_file()

    def _apply_roster(self, body: SeatAssignment) -> None:
        assert self.roster is not None
        mine = next((p for p in body.peers if p.seat == self.seat), None)
        if mine is None or mine.public_key != self.identity.public:
            log.warning("the host's roster does not seat this peer at seat %d", self.seat)
            return
        before = {m.seat: m.key for m in self.roster}
        changed, freed = self.roster.update(body.peers, self._now())
        for seat in freed:
            if before[seat] != self.identity.public:
                self.node.disconnect(before[seat])
        for m in changed:
            if m.key != self.identity.public:
                self.node.connect(m.key, m.info.address)
                log.info("%s is at the table", m.label())
        me = self.roster.by_seat(self.seat)
        if me is not None:
            me.bot_name = self.bot
        held, self._held = self._held, []
        for rx, env in held:
            self._accept(rx, env)  # held again while the sender is still unknown
        if self.roster.full:
            self._begin_seeding()
        self._notify()

    def _on_rejoin(self, rx: Received, env: Envelope, member: Member) -> None:
        hello: Hello = env.body  # type: ignore[assignment]
        if hello.fingerprint != self.ruleset.fingerprint:
            self._refuse(rx, env, ErrorCode.RULES_MISMATCH,
                         f"{member.label()} now runs {hello.fingerprint}, the table runs "
                         f"{self.ruleset.fingerprint}")
            return
        try:
            host, port = split_endpoint(hello.address)
        except ValueError:
            self._refuse(rx, env, ErrorCode.MALFORMED, f"bad address {hello.address!r}")
            return
        if host in ("0.0.0.0", "::") and rx.peer_ip:
            host = rx.peer_ip
        address = endpoint(host, port)
        assert self.roster is not None
        if address != member.info.address:
            self.roster.set_address(member, address)
            self._save_table_file()
        self.node.connect(member.key, address)  # a no-op when unchanged
        was = member.link
        member.link = Link.CONNECTED
        member.last_seen = self._now()
        log.info("%s is back at %s (was %s)", member.label(), address, was.value)
        step = self._step
        if step is not None:
            if member.seat not in step.reveals:
                step.commits.pop(member.seat, None)  # it lost its salt: it commits afresh
            if step.own is not None:
                seat, action, salt = step.own
                self._send(member, ActionCommit(step.index, seat, step.commits[seat]))
                if step.all_committed:
                    self._send(member, ActionReveal(step.index, seat, action, salt))
        if self.is_host:  # the current seating, and everyone's address (§5.7)
            if self._phase == Phase.SEATING:
                self._send_roster()
            else:
                peers = self.roster.peer_infos()
                self._send(member, SeatAssignment(member.seat, self.players,
                                                  self.ruleset.fingerprint, peers))
        self._notify()

    # -- seeding ------------------------------------------------------------------------

    def _begin_seeding(self) -> None:
        if self._phase != Phase.SEATING:
            return
        assert self.roster is not None and self._seed is not None
        self._phase = Phase.SEEDING
        for m in self.roster.others():
            self.node.connect(m.key, m.info.address)
        if self.fixed_seed is not None:
            log.info("every seat is taken; the seed is dictated by this host")
            self._start_play(self.fixed_seed)
        else:
            self._broadcast(SeedCommit(self.seat, self._seed.own_commitment))
            log.info("every seat is taken; agreeing on the seed")
        held, self._held = self._held, []
        for rx, env in held:  # the roster is complete: a sender still unknown is a stranger
            self._accept(rx, env)
        if self.fixed_seed is not None:
            return
        self._maybe_reveal()
        self._notify()

    def _on_seed_commit(self, rx: Received, env: Envelope, member: Member) -> None:
        body: SeedCommit = env.body  # type: ignore[assignment]
        if body.seat != member.seat:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT, f"{member.label()} cannot commit for "
                                                        f"seat {body.seat}")
            return
        if self._late_seed_message(rx, env):
            return
        assert self._seed is not None
        try:
            self._seed.commit(body.seat, body.commitment)
        except SeedRoundError as exc:  # a second, different commitment: the first stands
            self._refuse(rx, env, ErrorCode.BAD_REVEAL, exc.message)
            return
        self._maybe_reveal()

    def _maybe_reveal(self) -> None:
        seed = self._seed
        if (self._phase == Phase.SEEDING and seed is not None and seed.all_committed
                and not self._revealed):
            self._revealed = True
            self._broadcast(SeedReveal(self.seat, seed.share))
            seed.reveal(self.seat, seed.share)
        self._maybe_start()

    def _on_seed_reveal(self, rx: Received, env: Envelope, member: Member) -> None:
        body: SeedReveal = env.body  # type: ignore[assignment]
        if body.seat != member.seat:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT, f"{member.label()} cannot reveal for "
                                                        f"seat {body.seat}")
            return
        if self._late_seed_message(rx, env):
            return
        assert self._seed is not None
        try:
            self._seed.reveal(body.seat, body.share)
        except SeedRoundError as exc:
            self._refuse(rx, env, ErrorCode.BAD_REVEAL, exc.message)
            self._halt(f"cannot agree on the seed: {exc.message}")
            return
        self._maybe_start()

    def _late_seed_message(self, rx: Received, env: Envelope) -> bool:
        """True (after refusing it) for a seed message once the seed is settled."""
        if self._phase in (Phase.SEATING, Phase.SEEDING) and self.table is None:
            return False
        if self.fixed_seed is None:  # with a dictated seed, joiners' commitments are moot
            self._refuse(rx, env, ErrorCode.WRONG_PHASE, "the seed is already agreed")
        return True

    def _maybe_start(self) -> None:
        if self._phase != Phase.SEEDING or self._seed is None:
            return
        seed = self._seed.seed()
        if seed is None:
            return
        self._start_play(seed)

    def _start_play(self, seed: bytes) -> None:
        assert self.roster is not None
        self.table = Table(self.ruleset, self.players, seed)
        self._setup_hash = self.table.state_hash()
        self._open_log()
        self._phase = Phase.PLAYING if self.table.active_seats() else Phase.FINISHED
        log.info("seed %s; play starts", seed.hex())
        self._broadcast(Start(self.table.header, self._setup_hash))
        starts, self._starts = self._starts, {}
        for seat, start in starts.items():
            self._check_start(seat, start)
        self._notify()
        self._drain()

    def _open_log(self) -> None:
        assert self.table is not None and self.roster is not None
        folder = self.log_dir or logs_dir()
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = f"{self.ruleset.game.name}-{stamp}-{self.table_id.hex()[:8]}-seat{self.seat}.hlog"
        self._log_path = folder / name
        names = tuple(self._names().get(s, "") for s in range(self.players))
        header = LogHeader.for_table(self.ruleset, self.players, self.table.header.seed,
                                     table_id=self.table_id, own_seat=self.seat,
                                     seat_names=names)
        # Flushed after every entry (survives a crash of this process); not fsynced, so a
        # power cut may lose the last entries, which catch-up fetches again from the others.
        self._writer = LogWriter(self._log_path, header, sync=False)
        self._save_table_file()

    def _save_table_file(self) -> None:
        if self._log_path is None or self.roster is None:
            return
        tablefile.save(self._log_path, tablefile.TableFile(
            self.table_id, self.seat, self.roster.peer_infos(), self.key_file, self.bot))

    def _on_start(self, rx: Received, env: Envelope, member: Member) -> None:
        body: Start = env.body  # type: ignore[assignment]
        if self.table is not None:
            self._check_start(member.seat, body)
            return
        host_committed = self._seed is not None and 0 in self._seed.commits
        if rx.sender == self.host_key and self._phase == Phase.SEEDING and not host_committed:
            # The host skipped the commit-reveal: it dictates the seed (hedgerow play --seed).
            if not self.accept_host_seed:
                self._halt("the host dictated the table seed instead of agreeing on it; "
                           "join with --accept-host-seed to play such a table")
                return
            if (body.header.fingerprint, body.header.players) != (self.ruleset.fingerprint,
                                                                  self.players):
                self._halt("the host started the table with other rules")
                return
            self.fixed_seed = body.header.seed
            self._starts[member.seat] = body
            self._start_play(body.header.seed)
            return
        self._starts[member.seat] = body

    def _check_start(self, seat: int, start: Start) -> None:
        assert self.table is not None
        if start.header != self.table.header or start.setup_hash != self._setup_hash:
            self._halt(f"seat {seat} started the table with another seed or other rules "
                       f"({start.header.fingerprint}, seed {start.header.seed.hex()[:12]}; "
                       f"here {self.table.header.fingerprint}, seed "
                       f"{self.table.header.seed.hex()[:12]})", tell=True)
            return
        self._started.add(seat)
        if self.ready:
            self._notify()

    @property
    def ready(self) -> bool:
        """True once every other seat's Start matched ours: this seat may act (§3.2)."""
        return self.table is not None and (
            self._resumed or len(self._started) >= self.players - 1)

    # -- play ---------------------------------------------------------------------------

    def _hold_ahead(self, index: int, rx: Received, env: Envelope, member: Member) -> None:
        if self._ahead_count >= AHEAD_LIMIT:
            log.warning("dropped %s #%d from %s: too many early messages (catch-up will "
                        "fetch it)", _kind(env), index, member.label())
            return
        self._ahead.setdefault(index, []).append((rx, env, member))
        self._ahead_count += 1

    def _drain(self) -> None:
        """Process held early messages whose index has come."""
        if self._draining:
            return
        self._draining = True
        try:
            while self.table is not None and self._ahead and self._phase == Phase.PLAYING:
                index = min(self._ahead)
                if index > self.table.index:
                    break
                items = self._ahead.pop(index)
                self._ahead_count -= len(items)
                for rx, env, member in items:
                    self._dispatch(rx, env, member)
        finally:
            self._draining = False

    def _on_action(self, rx: Received, env: Envelope, member: Member) -> None:
        msg: ActionMsg = env.body  # type: ignore[assignment]
        if msg.seat != member.seat:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT,
                         f"{member.label()} cannot act for seat {msg.seat}", ref_index=msg.index)
            return
        table = self.table
        if table is None or msg.index > table.index:
            self._hold_ahead(msg.index, rx, env, member)
            return
        if self._phase == Phase.HALTED:
            return
        if msg.index < table.index:
            self._on_past_action(rx, env, member, msg)
            return
        if len(table.active_seats()) > 1:
            self._refuse(rx, env, ErrorCode.OUT_OF_TURN, f"action #{msg.index} is a "
                         "simultaneous step: commit first (ActionCommit)", ref_index=msg.index)
            return
        old = table.state
        result = table.submit(msg.seat, msg.action, index=msg.index, prev=msg.prev)
        if isinstance(result, Refusal):
            text = result.message
            if result.code == Code.NOT_YOUR_TURN and table.active_seats():
                text = _out_of_turn(msg, table.active_seats()[0])
            self._refuse(rx, env, error_code_for_refusal(result.code), text,
                         ref_index=msg.index, refusal=result.code)
            return
        self._applied(result, old)
        self._drain()

    def _on_past_action(self, rx: Received, env: Envelope, member: Member,
                        msg: ActionMsg) -> None:
        """An action for an index already filled: refused exactly as when it was current."""
        assert self.table is not None
        entry = self.table.entries[msg.index]
        if msg.prev != entry.prev:
            why = Refusal(Code.BROKEN_CHAIN, f"action #{msg.index} does not chain to the log head")
        elif msg.seat != entry.seat:
            why = Refusal(Code.NOT_YOUR_TURN, _out_of_turn(msg, entry.seat))
        elif msg.action == entry.action:
            return  # a repeat of what we have (after a reconnect)
        else:
            why = Refusal(Code.BAD_INDEX, f"seat {msg.seat} already played action #{msg.index}")
        self._refuse(rx, env, error_code_for_refusal(why.code), why.message,
                     ref_index=msg.index, refusal=why.code)

    def _applied(self, entry: LogEntry, old_state: Any, *, announce: ActionMsg | None = None
                 ) -> None:
        """``entry`` is in the table: tell the author's peers (``announce``), show it, and
        seal it (hash, log, report) right after, off the path of the next action.

        What the seat client and a waiting bot see changes at once; the state hash (the
        dearest step) follows in `_seal`, scheduled on the loop.  A peer that dies between
        the two has not reported the entry and fetches it again when it returns.
        """
        table = self.table
        assert table is not None
        if announce is not None:
            self._broadcast(announce)
        first = not self._unsealed
        self._unsealed.append((entry, old_state, table.state))
        if not table.active_seats() and self._phase == Phase.PLAYING:
            self._phase = Phase.FINISHED
            log.info("game over after %d actions", table.index)
        self._notify()  # a bot whose turn it is now is woken before the seal below
        if first:
            asyncio.get_running_loop().call_soon(self._seal)

    def _seal(self) -> None:
        """Hash, log and report every applied entry not sealed yet, in order.

        The entry is in the log file before this peer's StateHash for it is sent, so a
        StateHash always means "applied and saved here".
        """
        if self._sealing or self._hashes is None:
            return
        self._sealing = True
        try:
            game = self.ruleset.gamedef
            while self._unsealed:
                entry, before, after = self._unsealed.popleft()
                if self.table is not None and after is self.table.state:
                    state_hash = self.table.state_hash()  # cached for the current state
                else:  # as Table.state_hash computes it, for a state already superseded
                    state_hash = canon_state_hash(game.hash_data(after) if game.hash_data
                                                  else after)
                if self._writer is not None and not self._writer.closed:
                    self._writer.append(entry, state_hash)
                self._broadcast(StateHash(entry.index, state_hash))
                text = game.describe(before, entry.seat, entry.action)
                self._history.append(HistoryLine(entry.index, entry.seat, text))
                divergence = self._hashes.record_own(entry.index, state_hash)
                if divergence is not None:
                    self._halt(divergence.describe(self._names()), tell=True,
                               index=divergence.index)
        finally:
            self._sealing = False

    def _on_state_hash(self, rx: Received, env: Envelope, member: Member) -> None:
        body: StateHash = env.body  # type: ignore[assignment]
        if self._hashes is None:
            return
        divergence = self._hashes.report(member.seat, body.index, body.state_hash)
        if divergence is not None:
            self._halt(divergence.describe(self._names()), tell=True, index=divergence.index)
        elif self._phase == Phase.FINISHED:
            self._notify()  # one more seat confirmed the end

    # -- simultaneous steps -------------------------------------------------------------

    def _open_step(self) -> StepRound:
        assert self.table is not None
        step = self._step
        if step is None or step.index != self.table.index:
            step = self._step = StepRound(self.table.index, self.table.active_seats())
        return step

    def _commit_step(self, action: Action, active: tuple[int, ...]) -> Refusal | None:
        assert self.table is not None
        step = self._open_step()
        if step.own is not None:
            return Refusal("already_chosen", f"seat {self.seat} already chose for this step")
        result = self.table.check(self.seat, action)
        if isinstance(result, Refusal):
            return result
        commitment = step.choose(self.seat, action)
        self._broadcast(ActionCommit(step.index, self.seat, commitment))
        self._maybe_reveal_step()
        self._notify()
        return None

    def _maybe_reveal_step(self) -> None:
        step = self._step
        if step is None or step.own is None or not step.all_committed:
            return
        seat, action, salt = step.own
        if seat not in step.reveals:
            step.reveals[seat] = action
            self._broadcast(ActionReveal(step.index, seat, action, salt))
        self._maybe_apply_step()

    def _maybe_apply_step(self) -> None:
        step = self._step
        table = self.table
        if step is None or table is None or not step.complete or step.index != table.index:
            return
        self._step = None
        for seat, action in step.actions():
            old = table.state
            result = table.submit(seat, action, index=table.index, prev=table.head)
            if isinstance(result, Refusal):
                log.warning("seat %d's revealed action %s no longer applies: %s",
                            seat, action, result)
                continue
            self._applied(result, old)
        self._drain()

    def _step_message(self, rx: Received, env: Envelope, member: Member) -> StepRound | None:
        body = env.body
        assert isinstance(body, (ActionCommit, ActionReveal))
        if body.seat != member.seat:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT,
                         f"{member.label()} cannot act for seat {body.seat}", ref_index=body.index)
            return None
        table = self.table
        if table is None or body.index > table.index:
            self._hold_ahead(body.index, rx, env, member)
            return None
        if self._phase != Phase.PLAYING:
            return None
        if body.index < table.index:
            self._refuse(rx, env, ErrorCode.BAD_INDEX, f"the step at #{body.index} is over",
                         ref_index=body.index)
            return None
        active = table.active_seats()
        if len(active) < 2 or body.seat not in active:
            self._refuse(rx, env, ErrorCode.OUT_OF_TURN,
                         f"seat {body.seat} has no simultaneous choice at #{body.index}",
                         ref_index=body.index)
            return None
        return self._open_step()

    def _on_action_commit(self, rx: Received, env: Envelope, member: Member) -> None:
        step = self._step_message(rx, env, member)
        if step is None:
            return
        body: ActionCommit = env.body  # type: ignore[assignment]
        try:
            step.commit(body.seat, body.commitment)
        except StepError as exc:
            self._refuse(rx, env, ErrorCode.BAD_REVEAL, exc.message, ref_index=body.index)
            return
        self._maybe_reveal_step()
        self._notify()

    def _on_action_reveal(self, rx: Received, env: Envelope, member: Member) -> None:
        step = self._step_message(rx, env, member)
        if step is None:
            return
        body: ActionReveal = env.body  # type: ignore[assignment]
        try:
            step.reveal(body.seat, body.action, body.salt)
        except StepError as exc:
            self._refuse(rx, env, ErrorCode.BAD_REVEAL, exc.message, ref_index=body.index)
            return
        self._maybe_apply_step()

    # -- catch-up -----------------------------------------------------------------------

    def _request_catch_up(self, member: Member | None) -> None:
        """Ask ``member`` (None: everyone) for the entries after our log's end."""
        if self.table is None or self.roster is None:
            return
        self._catch_up_at = self._now()
        body = CatchUpRequest(self.table.index)
        if member is None:
            self._broadcast(body)
        else:
            self._send(member, body)

    def _on_catch_up_request(self, rx: Received, env: Envelope, member: Member) -> None:
        body: CatchUpRequest = env.body  # type: ignore[assignment]
        table = self.table
        if table is None or self._hashes is None:
            self._refuse(rx, env, ErrorCode.WRONG_PHASE, "play has not started here")
            return
        self._seal()
        start = min(body.from_index, table.index)
        stop = min(table.index, start + CATCH_UP_BATCH)
        items = tuple(LoggedEntry(table.entries[i], self._hashes.own[i])
                      for i in range(start, stop))
        self._send(member, CatchUpReply(table.header, start, items, table.index))

    def _on_catch_up_reply(self, rx: Received, env: Envelope, member: Member) -> None:
        body: CatchUpReply = env.body  # type: ignore[assignment]
        table = self.table
        if table is None or self._hashes is None:
            return
        if body.header != table.header:
            self._refuse(rx, env, ErrorCode.WRONG_TABLE, "the catch-up is for another table")
            return
        self._catch_up_at = None
        for item in body.entries:
            entry = item.entry
            if entry.index < table.index:
                continue
            if self._phase not in (Phase.PLAYING,):
                break
            if entry.digest != LogEntry.chain(entry.prev, entry.index, entry.seat, entry.action):
                self._refuse(rx, env, ErrorCode.BROKEN_CHAIN,
                             f"catch-up entry #{entry.index} has a wrong digest",
                             ref_index=entry.index)
                return
            old = table.state
            result = table.submit(entry.seat, entry.action, index=entry.index, prev=entry.prev)
            if isinstance(result, Refusal):
                self._refuse(rx, env, error_code_for_refusal(result.code),
                             f"catch-up entry #{entry.index}: {result.message}",
                             ref_index=entry.index, refusal=result.code)
                return
            self._step = None
            self._applied(result, old)
            divergence = self._hashes.report(member.seat, entry.index, item.state_hash)
            if divergence is not None:
                self._halt(divergence.describe(self._names()), tell=True, index=divergence.index)
                return
        if body.next_index > table.index and self._phase == Phase.PLAYING:
            self._request_catch_up(member)
        elif self.syncing:
            self.syncing = False
            log.info("caught up with the table at action #%d", table.index)
            self._notify()
        self._drain()

    # -- links --------------------------------------------------------------------------

    def _on_heartbeat(self, rx: Received, env: Envelope, member: Member) -> None:
        body: Heartbeat = env.body  # type: ignore[assignment]
        member.next_index = body.next_index

    def _on_leave(self, rx: Received, env: Envelope, member: Member) -> None:
        body: Leave = env.body  # type: ignore[assignment]
        if member.link == Link.LEFT:
            return
        member.link = Link.LEFT
        log.info("%s left the table (%s)", member.label(), body.reason or "no reason given")
        if self.is_host and self._phase == Phase.SEATING:
            self._free_seat(member)
        self._notify()

    def _free_seat(self, member: Member) -> None:
        assert self.roster is not None
        self.roster.remove(member.seat)
        self.node.disconnect(member.key)
        self._send_roster()

    def _on_error(self, rx: Received, env: Envelope, member: Member) -> None:
        body: ErrorMsg = env.body  # type: ignore[assignment]
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
        SeatAssignment: _on_seat_assignment,
        SeedCommit: _on_seed_commit,
        SeedReveal: _on_seed_reveal,
        Start: _on_start,
        ActionMsg: _on_action,
        StateHash: _on_state_hash,
        ActionCommit: _on_action_commit,
        ActionReveal: _on_action_reveal,
        CatchUpRequest: _on_catch_up_request,
        CatchUpReply: _on_catch_up_reply,
        Heartbeat: _on_heartbeat,
        Leave: _on_leave,
        ErrorMsg: _on_error,
    }
