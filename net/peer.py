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

The phases are objects composed here, each with its own state and a narrow constructor:
`hedgerow.net.seating.Seating` (1, and returning peers), `hedgerow.net.startup.Startup`
(2) and `hedgerow.net.sync.Sync` (3 and catch-up).  What they share — the seating, the
table, the log, and how to send, refuse and halt — is one `hedgerow.net.context.PeerContext`;
whatever one phase needs of another is a callable (or a small protocol) passed to its
constructor in `Peer.__init__`, so that is the one place that shows how they connect.  A
new phase (a spectator, a seat taken over) is another such object, registered for the
bodies it handles in the dispatch table.  This module adds the intake (decode, who sent
it, hold or dispatch), the sockets, the heartbeats (4) and the `Seat` interface.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.datadir import logs_dir
from hedgerow.core.errors import Code, HedgerowError, Refusal, RulesError
from hedgerow.core.game import BotSpec, Outcome
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, LogEntry, Table
from hedgerow.net import openfile, rulesmatch, tablefile
from hedgerow.net.address import TableAddress, advertised_host, endpoint, split_endpoint
from hedgerow.net.codec import CodecError, decode_envelope
from hedgerow.net.context import (
    HEARTBEAT_S,
    LOST_AFTER_S,
    JoinRefused,
    PeerContext,
    RefusalRecord,
)
from hedgerow.net.departures import Departures
from hedgerow.net.dispatch import Dispatch
from hedgerow.net.keys import Identity, key_text
from hedgerow.net.logfile import LogWriter
from hedgerow.net.members import Member, Roster, Takeovers
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
    MotionVote,
    PeerInfo,
    SeatAssignment,
    SeatHandback,
    SeatMotion,
    SeatTaken,
    SeedCommit,
    SeedReveal,
    Start,
    StateHash,
)
from hedgerow.net.seat import HistoryLine, Link, Phase, SeatInfo
from hedgerow.net.seating import Seating
from hedgerow.net.shown import shown
from hedgerow.net.startup import Startup
from hedgerow.net.sync import Sync
from hedgerow.net.transport import Node, Received

log = logging.getLogger(__name__)


class Peer:
    """One seat at a networked table; see the module docstring for the protocol."""

    def __init__(self, identity: Identity, *, seat_name: str = "", bot: str | None = None,
                 plugins: PluginHost | None = None, log_dir: Path | None = None,
                 heartbeat: float = HEARTBEAT_S, lost_after: float = LOST_AFTER_S) -> None:
        self.plugins = plugins
        self.heartbeat = heartbeat
        self.lost_after = lost_after
        self.endpoint = ""
        self.address = ""
        self.ctx = PeerContext(identity, Node(identity, self._on_frame), seat_name=seat_name,
                               bot=bot, log_dir=log_dir)
        self._dispatch = Dispatch(self.ctx.refuse)
        takeovers = Takeovers()
        self.sync = Sync(self.ctx, redeliver=self._dispatch, author_of=takeovers.author_of)
        self.departures = Departures(self.ctx, self.sync, takeovers, find_bot=self._find_bot)
        self.startup = Startup(self.ctx, self.sync)
        self.seating = Seating(self.ctx, plugins=plugins, begin_seeding=self.startup.begin,
                               redeliver=self._accept, peer_back=self._peer_back,
                               restartable=self.startup.restartable,
                               restart=self.startup.restart,
                               enter_round=self.startup.enter_round)
        # Who handles each body once its sender is known to hold a seat.
        on = self._dispatch.on
        on(SeatAssignment, self.seating.on_seat_assignment)
        on(SeedCommit, self.startup.on_seed_commit)
        on(SeedReveal, self.startup.on_seed_reveal)
        on(Start, self.startup.on_start)
        on(ActionMsg, self.sync.on_action)
        on(StateHash, self.sync.on_state_hash)
        on(ActionCommit, self.sync.on_action_commit)
        on(ActionReveal, self.sync.on_action_reveal)
        on(CatchUpRequest, self.sync.on_catch_up_request)
        on(CatchUpReply, self._on_catch_up_reply)
        on(SeatMotion, self.departures.on_motion)
        on(MotionVote, self.departures.on_vote)
        on(SeatTaken, self.departures.on_taken)
        on(SeatHandback, self.departures.on_handback)
        on(Heartbeat, self._on_heartbeat)
        on(Leave, self._on_leave)
        on(ErrorMsg, self._on_error)
        self._index_at_tick = -1
        self._tasks: list[asyncio.Task[None]] = []
        self._closers: list[Callable[[], Awaitable[None]]] = []
        self._closed = False

    # -- the shared state, as callers know it --------------------------------------------

    @property
    def identity(self) -> Identity:
        """This peer's key pair (its public key is its identity at the table)."""
        return self.ctx.identity

    @property
    def node(self) -> Node:
        """This peer's sockets."""
        return self.ctx.node

    @property
    def seat_name(self) -> str:
        """The player's name at the table."""
        return self.ctx.seat_name

    @property
    def bot(self) -> str | None:
        """The strategy playing this seat, if a bot does."""
        return self.ctx.bot

    @property
    def key_file(self) -> str | None:
        """The key file this seat was played with (saved in the table file)."""
        return self.ctx.key_file

    @key_file.setter
    def key_file(self, value: str | None) -> None:
        self.ctx.key_file = value

    @property
    def seat(self) -> int:
        """This peer's seat (-1 before it is seated)."""
        return self.ctx.seat

    @property
    def players(self) -> int:
        """The table's seat count (0 before seated)."""
        return self.ctx.players

    @property
    def ruleset(self) -> Ruleset:
        """The table's rules (once seated)."""
        return self.ctx.ruleset

    @property
    def table_id(self) -> bytes:
        """The table's 16-byte id (empty before seated)."""
        return self.ctx.table_id

    @property
    def table(self) -> Table | None:
        """The table being played (None before the seed is agreed)."""
        return self.ctx.table

    @property
    def is_host(self) -> bool:
        """True for the peer that opened the table."""
        return self.ctx.is_host

    @property
    def roster(self) -> Roster | None:
        """Who sits where, as this peer knows it."""
        return self.ctx.roster

    @property
    def refusals(self) -> deque[RefusalRecord]:
        """The latest messages this peer refused."""
        return self.ctx.refusals

    @property
    def syncing(self) -> bool:
        """True while a returning seat catches up before it may act."""
        return self.sync.syncing

    @property
    def ready(self) -> bool:
        """True once every other seat's Start matched ours: this seat may act."""
        return self.startup.ready

    @property
    def fixed_seed(self) -> bytes | None:
        """The seed the host dictates (None: agreed by commit-reveal)."""
        return self.startup.fixed_seed

    @property
    def accept_host_seed(self) -> bool:
        """A joiner that accepts a seed its host dictates."""
        return self.startup.accept_host_seed

    @accept_host_seed.setter
    def accept_host_seed(self, value: bool) -> None:
        self.startup.accept_host_seed = value

    # ==================================================================================
    # Starting: open, join, resume

    async def _listen(self, bind: str, port: int, toward: str | None = None) -> None:
        bound = await self.node.start(bind, port)
        host, port = split_endpoint(bound)
        self.endpoint = endpoint(advertised_host(host, toward), port)
        self.address = str(TableAddress(*split_endpoint(self.endpoint), self.identity.public))
        self._tasks.append(asyncio.create_task(self._heartbeat_loop()))

    async def open(self, ruleset: Ruleset, players: int, *, bind: str = "127.0.0.1",
                   port: int = 0, seed: bytes | None = None, name: str = "") -> None:
        """Open a table of ``ruleset`` for ``players`` seats and take seat 0 (the host).

        ``seed`` dictates the table seed instead of the commit-reveal (a reproducible deal);
        only joiners that accept a dictated seed (``accept_host_seed``) will play it.
        ``name`` is the table's name on the LAN.  Until the seed is agreed the table is
        saved in an open-table file (``open_path``), from which `reopen` brings it back
        after a crash.
        """
        ruleset.check_players(players)
        self.startup.fixed_seed = seed
        await self._listen(bind, port)
        ctx = self.ctx
        ctx.is_host = True
        ctx.host_key = self.identity.public
        ctx.table_id = secrets.token_bytes(16)
        ctx.table_name = name
        ctx.seated(ruleset, players, 0)
        self._seat_self()
        if seed is None:  # (a dictated seed is for tables one user runs: nothing to re-open)
            ctx.open_path = openfile.path_for(ctx.log_dir or logs_dir(), ruleset.spec.name,
                                              time.strftime("%Y%m%d-%H%M%S"), ctx.table_id)
            ctx.save_open_table()
        log.info("table open at %s", self.address)
        if ctx.roster is not None and ctx.roster.full:
            self.startup.begin()
        self.ctx.notify()

    async def reopen(self, path: Path, *, bind: str | None = None) -> None:
        """Re-open, as its host, the table of the open-table file ``path`` after this host
        was lost before the seed was agreed (docs/protocol.md §3.2, "A host lost before
        play"): the same table id, key and address; the seats as they were, each sent the
        seating of the next seed round.  A seat that does not answer within the lost time
        is freed, as while seating."""
        if self.plugins is None:
            raise ValueError("a re-opening host needs the plugin host to bind the table's rules")
        saved = openfile.load(path)
        me = next(p for p in saved.peers if p.seat == 0)
        if me.public_key != self.identity.public:
            raise HedgerowError(f"{path} is the table of another identity (key "
                                f"{key_text(me.public_key)[:8]}…); use its key file "
                                "(--key-file, or --as NAME)")
        ruleset = rulesmatch.ruleset_for(self.plugins, saved.fingerprint, saved.players)
        host, port = split_endpoint(me.address)
        try:
            await self._listen(bind or host, port)  # the joiners dial this very endpoint
        except OSError as exc:
            raise HedgerowError(f"cannot listen at {me.address} again ({exc}): the joiners "
                                "only know the table there") from None
        ctx = self.ctx
        ctx.is_host = True
        ctx.host_key = self.identity.public
        ctx.table_id = saved.table_id
        ctx.table_name = saved.name
        ctx.bot = ctx.bot or saved.bot
        ctx.seated(ruleset, saved.players, 0)
        ctx.round = saved.round + 1  # the round the crash abandoned is over for everyone
        ctx.open_path = Path(path)
        ctx.seat_name = ctx.seat_name or me.display_name
        assert ctx.roster is not None
        now = ctx.now()
        for info in saved.peers:
            if info.seat == 0:
                info = PeerInfo(0, info.public_key, self.endpoint, ctx.seat_name[:64],
                                ctx.bot is not None)
                ctx.roster.add(info, now, ctx.bot)
                continue
            ctx.roster.add(info, now, "bot" if info.bot else None)  # silent for the lost
            self.node.connect(info.public_key, info.address)  # time: freed, as in seating
        log.info("table re-opened at %s (seed round %d)", self.address, ctx.round)
        self.seating.send_roster()
        if ctx.roster.full:
            self.startup.begin()
        ctx.notify()

    def host_gone(self) -> bool:
        """True for a joiner whose host is lost or left before play began: it waits for the
        host to re-open the table (docs/protocol.md §3.2)."""
        ctx = self.ctx
        host = ctx.roster.by_key(ctx.host_key) if ctx.roster and ctx.host_key else None
        return (not ctx.is_host and host is not None and host.link in (Link.LOST, Link.LEFT)
                and not self.startup.ready)

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
        self.ctx.host_key = address.key
        joined = self.seating.joined = asyncio.get_running_loop().create_future()
        self.node.connect(address.key, address.endpoint)
        hello = Hello(fingerprint, rulesmatch.installed(self.plugins), self.seat_name[:64],
                      wanted_seat, self.bot is not None, self.endpoint)
        self.node.send(address.key, self.ctx.encode(hello, table_id=b""))
        try:
            await asyncio.wait_for(asyncio.shield(joined), timeout)
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
            self.sync.history.append(HistoryLine(entry.index, entry.seat, text))

        report = replay_log(ruleset, header, result.entries, on_step=describe)
        if report.mismatch is not None or report.table is None:
            raise HedgerowError(f"{log_path} does not replay: {report.mismatch}")
        host, port = split_endpoint(me.address)
        try:
            await self._listen(bind or host, port)  # same address: others reconnect by themselves
        except OSError:
            await self._listen(bind or host, 0)
        ctx = self.ctx
        ctx.table_id = header.table_id
        ctx.host_key = next((p.public_key for p in saved.peers if p.seat == 0), None)
        ctx.is_host = ctx.host_key == self.identity.public
        ctx.bot = ctx.bot or saved.bot
        ctx.seated(ruleset, header.players, saved.own_seat)
        ctx.round = saved.round  # the seed round of the log's seed (its Start says so)
        assert ctx.roster is not None and ctx.hashes is not None
        now = ctx.now()
        for info in saved.peers:
            if info.seat == ctx.seat:
                info = PeerInfo(info.seat, info.public_key, self.endpoint, info.display_name,
                                info.bot)
            member = ctx.roster.add(info, now, "bot" if info.bot else None)
            if member.key != self.identity.public:
                member.link = Link.WAITING
        table = ctx.table = report.table
        for item in result.entries:
            ctx.hashes.record_own(item.index, item.state_hash)
        self.startup.resumed(table)
        # Damage in the middle: the intact prefix goes on, the damaged file is kept aside,
        # and catch-up refills the rest from the other peers, entry by checked entry.
        ctx.writer, aside = LogWriter.recover(log_path)
        if aside is not None:
            log.warning("%s is damaged (%s); kept as %s, continuing from entry #%d and "
                        "fetching the rest from the table", log_path, result.problem, aside.name,
                        len(result.entries))
        ctx.log_path = Path(log_path)
        ctx.save_table_file()
        ctx.enter(Phase.PLAYING if table.active_seats() else Phase.FINISHED)
        self.departures.resume()
        self.departures.restore(result.events)  # takeovers in force, an agreed end (§5.9)
        self.sync.syncing = True
        # Chance the rules resolved after the last logged entry (the process died before
        # sealing it): sealed now, like any entry.
        self.sync.applied(report.unlogged)
        hello = Hello(ruleset.fingerprint, rulesmatch.installed(self.plugins),
                      self.seat_name[:64] or me.display_name, ctx.seat, ctx.bot is not None,
                      self.endpoint)
        for m in ctx.roster.others():
            self.node.connect(m.key, m.info.address)
        ctx.broadcast(hello)
        # Our Start again: it may never have reached the others before we went away.
        assert self.startup.setup_hash is not None
        ctx.broadcast(Start(table.header, self.startup.setup_hash))
        self.sync.request_catch_up(None)
        log.info("resumed seat %d at action #%d; catching up", ctx.seat, table.index)
        ctx.notify()

    def _seat_self(self) -> None:
        assert self.roster is not None
        info = PeerInfo(self.seat, self.identity.public, self.endpoint,
                        self.seat_name[:64], self.bot is not None)
        self.roster.add(info, self.ctx.now(), self.bot)

    # ==================================================================================
    # The Seat interface

    def phase(self) -> Phase:
        """Where the table is now."""
        return self.ctx.phase

    def view(self) -> Any:
        """This seat's view of the current state (None before play)."""
        return None if self.table is None else self.table.view(self.seat)

    def active_seats(self) -> tuple[int, ...]:
        """Seats that must act now."""
        return () if self.table is None else self.table.active_seats()

    def chosen_seats(self) -> tuple[int, ...]:
        """The seats whose choice for the open simultaneous step is in (§4.5's commitments)."""
        return self.sync.committed()

    def legal_actions(self) -> Sequence[Action]:
        """What this seat may do now (empty when it is not its turn, or it already chose)."""
        if self.table is None or self.ctx.phase != Phase.PLAYING or self.syncing or not self.ready:
            return []
        if not self.departures.may_act():
            return []
        active = self.table.active_seats()
        if self.seat not in active:
            return []
        if len(active) > 1 and self.sync.chose():
            return []
        # The game's own (possibly lazy) sequence, as `hedgerow simulate` uses it: listing a
        # Petals placement turn in full costs far more than picking one action from it.
        return self.ruleset.gamedef.legal_actions(self.table.state, self.seat)

    def outcome(self) -> Outcome | None:
        """The result, once the game is over."""
        return None if self.table is None else self.table.outcome()

    def seats(self) -> Sequence[SeatInfo]:
        """Every seat, with its player's name and link, and who runs a seat taken over."""
        if self.roster is None:
            return []
        runs = self.departures.runs
        return [replace(info, run_by=runs[info.seat].runner) if info.seat in runs else info
                for info in self.roster.seat_infos(self.seat)]

    def history(self) -> Sequence[HistoryLine]:
        """Every accepted action so far, in plain words."""
        self.sync.seal()
        return list(self.sync.history)

    def problem(self) -> str | None:
        """Why the table halted, or None."""
        return self.ctx.problem

    def log_path(self) -> Path | None:
        """Where this seat's copy of the table log is saved."""
        return self.ctx.log_path

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change."""
        self.ctx.changes.subscribe(callback)

    async def submit(self, action: Action) -> Refusal | None:
        """Play ``action`` for this seat: None once accepted locally and sent, or why not."""
        table = self.table
        if table is None or self.ctx.phase != Phase.PLAYING:
            return Refusal("wrong_phase", f"the table is {self.ctx.phase.value}, not playing")
        if self.syncing:
            return Refusal("syncing", "this seat is still catching up with the table")
        if not self.ready:
            return Refusal("starting", "waiting for every peer to start the table")
        if not self.departures.may_act():
            return Refusal("taken_over", "a bot plays this seat until it hands it back")
        active = table.active_seats()
        if self.seat not in active:
            who = ", ".join(str(s) for s in active)
            return Refusal(Code.NOT_YOUR_TURN, f"seat {self.seat} may not act now "
                                               f"(waiting for seat {who})")
        if len(active) > 1:
            refused = self.sync.commit_step(action)
            if refused is None:
                self.departures.authored_own(table.index)
            return refused
        try:
            result = table.submit(self.seat, action, index=table.index, prev=table.head)
        except RulesError as exc:
            self.ctx.rules_failed(exc)
            return Refusal("rules_failed", str(exc))
        if isinstance(result, Refusal):
            return result
        own = result[0].entry
        self.departures.authored_own(own.index)
        self.sync.applied(result, announce=ActionMsg(own.index, own.prev, self.seat, action))
        self.sync.drain()
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
                   Phase.HALTED: LeaveReason.HALTED}.get(self.ctx.phase, LeaveReason.QUIT)
        self.sync.seal()
        self._closed = True
        if self.roster is not None and self.table_id:
            for m in self.roster.others():
                if m.link in (Link.LEFT, Link.LOST):
                    self.node.disconnect(m.key)  # nothing to deliver there: no lingering
            self.ctx.broadcast(Leave(reason[:200], why))
        await self.departures.close()
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
        if self.ctx.writer is not None:
            self.ctx.writer.close()
        if self.ctx.log_path is None:
            self.ctx.drop_open_table()  # a host that leaves on purpose: nothing to re-open
        self.ctx.notify()

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

    @property
    def index(self) -> int:
        """The number of log entries so far (0 before play)."""
        return 0 if self.table is None else self.table.index

    def entries(self) -> Sequence[LogEntry]:
        """Every log entry so far, in order."""
        return () if self.table is None else self.table.entries

    def state_hash(self) -> bytes | None:
        """The canonical hash of the current state (None before play)."""
        return None if self.table is None else self.table.state_hash()

    def confirmed_end(self) -> bool:
        """True when the game is over here and no connected seat still owes its final hash.

        A seat that confirmed the final state, left, is lost (its last StateHash and Leave
        may have died with its process) or never came back (a resumed finished game) is not
        waited for: a finished game ends for everyone who holds its final hash, at once
        (docs/protocol.md §5.8).
        """
        if self.table is None or self.ctx.hashes is None or self.roster is None:
            return False
        if self.ctx.phase != Phase.FINISHED:
            return False
        last = self.table.index - 1
        # (A seat a bot plays for a departed player, or one an agreed end left out, is not
        # connected: not waited for either, §5.9.)
        return all(m.link != Link.CONNECTED or self.ctx.hashes.reported(m.seat, last)
                   for m in self.roster.others())

    def desync_settled(self) -> bool:
        """False while a desync's naming may still change (reports for it are on the way)."""
        divergence = self.ctx.hashes.divergence if self.ctx.hashes is not None else None
        if divergence is None or self.roster is None:
            return True
        return all(m.seat in divergence.hashes or m.link != Link.CONNECTED for m in self.roster)

    def members(self) -> list[Member]:
        """The seated peers (this one included), by seat."""
        return [] if self.roster is None else list(self.roster)

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None
                         ) -> bool:
        """Wait until ``predicate()`` holds (checked after every change); False on timeout."""
        return await self.ctx.changes.wait_until(predicate, timeout)

    def changed(self) -> Awaitable[bool]:
        """An awaitable for the next change (bound now, so no change slips in between)."""
        return self.ctx.changes.changed()

    # ==================================================================================
    # Receiving

    def _on_frame(self, rx: Received) -> None:
        if self._closed:
            return
        if rx.data is None:
            self.ctx.refuse(rx, None, ErrorCode.MALFORMED, "a message must be exactly one frame")
            return
        try:
            env = decode_envelope(rx.data)
        except CodecError as exc:
            self.ctx.refuse(rx, None, exc.code, exc.message, ref_seq=exc.ref_seq,
                            ref_index=exc.ref_index)
            return
        self._accept(rx, env)

    def _accept(self, rx: Received, env: Envelope) -> None:
        """Check who sent ``env`` and whether it belongs to this table, then handle it."""
        if env.sender != rx.sender:
            self.ctx.refuse(rx, env, ErrorCode.STRANGER,
                            "the envelope names a sender other than the link's CURVE key")
            return
        body = env.body
        if isinstance(body, Hello):
            self.seating.on_hello(rx, env, body)
            return
        joining = self.seating.joining
        if (joining and isinstance(body, (SeatAssignment, ErrorMsg))
                and rx.sender == self.ctx.host_key):
            self.seating.on_join_answer(rx, env, body)
            return
        if joining and self.seating.hold(rx, env):
            return  # from a peer seated before the host answered us
        if joining:  # more than the hold takes: no table here yet, so nobody holds a seat
            self.ctx.refuse(rx, env, ErrorCode.STRANGER, "the sender holds no seat at this table")
            return
        if env.table_id != self.table_id:
            self.ctx.refuse(rx, env, ErrorCode.WRONG_TABLE, "this is not the table of that id")
            return
        member = self.roster.by_key(rx.sender) if self.roster is not None else None
        if member is None:
            if (self.ctx.phase == Phase.SEATING and not self.is_host
                    and self.seating.hold(rx, env)):
                return  # maybe a peer seated after us: see the roster
            self.ctx.refuse(rx, env, ErrorCode.STRANGER, "the sender holds no seat at this table")
            return
        self._alive(member, body)
        self._dispatch(rx, env, member)

    def _alive(self, member: Member, body: Body) -> None:
        member.last_seen = self.ctx.now()
        if isinstance(body, Leave) or member.link in (Link.CONNECTED, Link.LEFT):
            return
        was_lost = member.link == Link.LOST
        if was_lost:
            log.info("%s is back", member.label())
        member.link = Link.CONNECTED
        if member.seat in self.departures.runs and not isinstance(body, Hello):
            # back without a resume: its seat is handed back too
            self._peer_back(member, resumed=False)
        elif was_lost and not isinstance(body, Hello):
            # Only its link was down: our step messages sent meanwhile may be lost.
            self.sync.peer_back(member, restarted=False)
        self.departures.expire()  # a motion about its seat is moot now
        self.ctx.notify()

    # -- links --------------------------------------------------------------------------

    def _on_catch_up_reply(self, rx: Received, env: Envelope, member: Member,
                           body: CatchUpReply) -> None:
        self.departures.answered_by(member)  # after any SeatTaken it had for us (§5.9)
        self.sync.on_catch_up_reply(rx, env, member, body)

    def _peer_back(self, member: Member, *, resumed: bool = True) -> None:
        """A seated peer returned (§5.7) — ``resumed`` with a ``Hello``, or only its link
        came back: a bot that runs its seat hands it back, telling it first (§5.9); play
        re-sends our step messages.  A restarted process lost any commitment it had not
        revealed, unless that commitment was a bot's that plays its seat."""
        bot_seat = member.seat in self.departures.runs
        self.departures.peer_back(member, resumed=resumed)
        self.sync.peer_back(member, restarted=resumed and not bot_seat)
        self.departures.expire()

    def _find_bot(self, name: str) -> BotSpec | None:
        """The bot strategy ``name`` if this process can run it at this table."""
        if not name or self.ctx.ruleset is None:
            return None
        if self.plugins is None:  # a host is opened with its rules only: load the bots now
            self.plugins = PluginHost()
        try:
            spec = self.plugins.bot(name, self.ctx.ruleset.spec.name)
        except HedgerowError:
            return None
        return spec if spec.plays(self.ctx.ruleset.spec.name) else None

    def _on_heartbeat(self, rx: Received, env: Envelope, member: Member,
                      body: Heartbeat) -> None:
        member.next_index = body.next_index

    def _on_leave(self, rx: Received, env: Envelope, member: Member, body: Leave) -> None:
        if member.link == Link.LEFT:
            return
        member.link = Link.LEFT
        member.left_why = body.why
        log.info("%s left the table (%s: %s)", member.label(), body.why.name.lower(),
                 shown(body.reason) or "no reason given")
        self.seating.seat_gone(member)
        self.departures.expire()
        self.ctx.notify()

    def _on_error(self, rx: Received, env: Envelope, member: Member, body: ErrorMsg) -> None:
        if body.code == ErrorCode.DESYNC:
            log.warning("%s halted the table: %s", member.label(), shown(body.message))
            return
        log.warning("%s refused our message (seq %s): %s: %s", member.label(), body.ref_seq,
                    body.code.name, shown(body.message))

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
        self.ctx.broadcast(Heartbeat(index))
        now = self.ctx.now()
        changed = False
        for m in self.roster.others():
            if m.link == Link.CONNECTED and now - m.last_seen > self.lost_after:
                m.link = Link.LOST
                changed = True
                log.warning("%s is lost (silent for %.0f s)", m.label(), now - m.last_seen)
                self.departures.saw_lost(m)
                self.seating.seat_gone(m)
        self.departures.expire()  # motions that can no longer pass (§5.9)
        self.departures.hearing_out()  # resumed: the wait for the others' answers ends
        # A seed agreement or a step that stands still: our messages may have been lost
        # across a reconnect.
        self.startup.resend_stalled()
        self.sync.resend_stalled_step()
        # Behind another peer for a whole beat (a message lost across a reconnect): fetch.
        if self.table is not None and self.ctx.phase == Phase.PLAYING:
            ahead = [m for m in self.roster.others()
                     if m.next_index > index and m.link == Link.CONNECTED]
            asked = self.sync.catch_up_at
            stale = asked is None or now - asked > self.heartbeat * 2
            if ahead and index == self._index_at_tick and stale:
                self.sync.request_catch_up(max(ahead, key=lambda m: m.next_index))
        self._index_at_tick = index
        if changed:
            self.ctx.notify()
