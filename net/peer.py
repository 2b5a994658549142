"""`Peer`: one seat at a networked table, implementing `hedgerow.net.seat.Seat`.

A peer owns a `Node` (its sockets) and runs the protocol of docs/protocol.md on the event
loop, as phase objects composed here, each with its own state and a narrow constructor:
1. `hedgerow.net.seating.Seating`: the host opens the table (`open`) and seats joiners
   (`join`: ``Hello``, the rules checked, ``SeatAssignment``); a full mesh of DEALERs.
2. `hedgerow.net.startup.Startup`: the seed by commit-reveal, the log, the ``Start`` barrier.
3. `hedgerow.net.sync.Sync`: play — each action checked, applied with the chance after it,
   logged, its state hash compared (`hedgerow.net.hashbook`); simultaneous steps; catch-up.
4. `hedgerow.net.links.Links`: heartbeats, lost and returning seats, ``Leave``, ``Error``;
   `hedgerow.net.departures.Departures`: what the table does about a departed seat (§5.9).
5. `hedgerow.net.returning.Returning`: back from its log (`resume`) or open-table file.
6. `hedgerow.net.sealplay.SealedPlay`: the sealed deck (§10): passes, keys, escrow, the end.
7. `hedgerow.net.spectators.Spectators`: at the host, who watches and what they get (§3.4).

What they share — the seating, the table, the log, how to send, refuse and halt — is one
`hedgerow.net.context.PeerContext`; its phase changes only through `PeerContext.enter`.
Whatever one phase needs of another is a callable or a small protocol
passed to its constructor in `Peer.__init__`, the one place that shows how they connect;
each registers there, with `hedgerow.net.dispatch.Dispatch`, the bodies it handles, typed.
What comes in passes `hedgerow.net.intake.Intake` (decode, who sent it, hold or dispatch)
and is checked before it changes anything; this module adds the sockets and the `Seat`
interface.  All methods run on the event loop's thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import typing
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.errors import HedgerowError, Refusal
from hedgerow.core.game import BotSpec, Outcome
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.sealed import PlainActions
from hedgerow.core.sealedtable import SealedTable
from hedgerow.core.table import LogEntry
from hedgerow.net import deckwait, holdback, rulesmatch
from hedgerow.net import messages as msg
from hedgerow.net.address import TableAddress, advertised_host, endpoint, split_endpoint
from hedgerow.net.context import HEARTBEAT_S, LOST_AFTER_S, PeerContext
from hedgerow.net.departures import Departures
from hedgerow.net.dispatch import Dispatch
from hedgerow.net.intake import Intake
from hedgerow.net.keys import Identity
from hedgerow.net.links import Links
from hedgerow.net.members import Member, Takeovers
from hedgerow.net.returning import Returning
from hedgerow.net.sealplay import SealedPlay
from hedgerow.net.seat import DeckWait, HistoryLine, Link, Phase, SeatInfo
from hedgerow.net.seating import Seating
from hedgerow.net.spectators import Spectators
from hedgerow.net.startup import Startup
from hedgerow.net.sync import Sync
from hedgerow.net.transport import Node, Received

log = logging.getLogger(__name__)

class Peer:
    """One seat at a networked table; see the module docstring for the protocol."""

    def __init__(self, identity: Identity, *, seat_name: str = "", bot: str | None = None,
                 plugins: PluginHost | None = None, log_dir: Path | None = None,
                 key_file: str | None = None, accept_host_seed: bool = False,
                 heartbeat: float = HEARTBEAT_S, lost_after: float = LOST_AFTER_S) -> None:
        self.identity = identity
        self.plugins = plugins
        self.endpoint = ""
        self.address = ""
        ctx = self.ctx = PeerContext(identity, Node(identity, self._on_frame),
                                     seat_name=seat_name, bot=bot, log_dir=log_dir,
                                     key_file=key_file)
        dispatch = self._dispatch = Dispatch(ctx.refuse)
        takeovers = Takeovers()
        self.sealing = SealedPlay(ctx, applied=lambda entries: self.sync.applied(entries),
                                 opened=lambda: self.sync.opened(), author_of=takeovers.author_of)
        self.sync = Sync(ctx, redeliver=dispatch, author_of=takeovers.author_of,
                         sealed=self.sealing)
        self.departures = Departures(ctx, self.sync, takeovers, find_bot=self._find_bot,
                                     sealed=self.sealing)
        self.startup = Startup(ctx, self.sync, self.sealing, accept_host_seed=accept_host_seed)
        self.seating = Seating(ctx, plugins=plugins, begin_seeding=self.startup.begin,
                               redeliver=self._accept, peer_back=self.departures.returned,
                               restartable=self.startup.restartable, restart=self.startup.restart,
                               enter_round=self.startup.enter_round,
                               spectate=lambda *hello: self.spectators.on_hello(*hello))
        self.links = Links(ctx, heartbeat=heartbeat, lost_after=lost_after, play=self.sync,
                           departures=self.departures, seat_gone=self.seating.seat_gone,
                           resend_stalled=self._resend_stalled, deck_waiting=self.sealing.waiting,
                           sealed=self.sealing)
        self.spectators = Spectators(ctx, send_roster=self.seating.send_roster, beat=self.links)
        self.returning = Returning(ctx, plugins=plugins, listen=self._listen, play=self.sync,
                                   start=self.startup, departures=self.departures,
                                   send_roster=self.seating.send_roster, sealed=self.sealing)
        # Who handles each body once its sender is known to hold a seat.
        on = dispatch.on
        on(msg.SeatAssignment, self.seating.on_seat_assignment)
        on(msg.SeedCommit, self.startup.on_seed_commit)
        on(msg.SeedReveal, self.startup.on_seed_reveal)
        on(msg.Start, self.startup.on_start)
        on(msg.ActionMsg, self.sync.on_action)
        on(msg.StateHash, self.startup.on_state_hash)  # (of this seed round) to play
        on(msg.ActionCommit, self.sync.on_action_commit)
        on(msg.ActionReveal, self.sync.on_action_reveal)
        on(msg.CatchUpRequest, self.sync.on_catch_up_request)
        on(msg.CatchUpReply, self.links.on_catch_up_reply)
        on(msg.SeatMotion, self.departures.on_motion)
        on(msg.MotionVote, self.departures.on_vote)
        on(msg.SeatTaken, self.departures.on_taken)
        on(msg.SeatHandback, self.departures.on_handback)
        on(msg.Heartbeat, self.links.on_heartbeat)
        on(msg.Leave, self.links.on_leave)
        on(msg.ErrorMsg, self.links.on_error)
        for sealed in typing.get_args(msg.SealBody):  # ShuffleStep, CardKeys, Disclose, escrow
            on(sealed, self.sealing.on_body)
        self._intake = Intake(ctx, seating=self.seating, links=self.links, dispatch=dispatch,
                              spectators=self.spectators)
        self._tasks: list[asyncio.Task[None]] = []
        self._closers: list[Callable[[], Awaitable[None]]] = []
        self._closed = False

    # -- the table's facts (the `Seat` protocol) -----------------------------------------

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
    def is_host(self) -> bool:
        """True for the peer that opened the table."""
        return self.ctx.is_host

    @property
    def ready(self) -> bool:
        """True once every other seat's Start matched ours and, at a sealed table, this seat's
        cards are open to it and no shuffle or card holds the table: this seat may act."""
        return self.startup.ready and not self.sealing.owed_to_me() and not self.sync.held()

    # ==================================================================================
    # Starting: open, join, resume, reopen

    async def _listen(self, bind: str, port: int, toward: str | None = None) -> str:
        """Bind the sockets, start the heartbeats; the endpoint others reach us at."""
        bound = await self.ctx.node.start(bind, port)
        host, port = split_endpoint(bound)
        self.endpoint = endpoint(advertised_host(host, toward), port)
        self.address = str(TableAddress(*split_endpoint(self.endpoint),
                                        self.ctx.identity.public))
        self._tasks += [asyncio.create_task(self.links.run()),
                        asyncio.create_task(self.spectators.run())]
        return self.endpoint

    async def open(self, ruleset: Ruleset, players: int, *, bind: str = "127.0.0.1",
                   port: int = 0, seed: bytes | None = None, name: str = "",
                   open_deck: bool = False) -> None:
        """Open a table of ``ruleset`` for ``players`` seats and take seat 0 (the host).

        ``seed`` dictates the table seed instead of the commit-reveal (a reproducible deal);
        only joiners that accept a dictated seed (``accept_host_seed``) will play it.  The
        deck is sealed (docs/protocol.md §10) unless ``open_deck``.
        ``name`` is the table's name on the LAN.  Until the seed is agreed the table is
        saved in an open-table file, from which `reopen` brings it back after a crash (a
        dictated seed is for tables one user runs: nothing to re-open).
        """
        ruleset.check_players(players)
        self.startup.dictate(seed)
        where = await self._listen(bind, port)
        log.info("table open at %s", self.address)
        self.seating.open_table(ruleset, players, name=name, where=where,
                                reopenable=seed is None, open_deck=open_deck)

    async def join(self, address: TableAddress, *, bind: str = "127.0.0.1",
                   fingerprint: str = rulesmatch.ANY_RULES, wanted_seat: int | None = None,
                   timeout: float = 10.0) -> None:
        """Ask the table at ``address`` for a seat; returns once seated.

        Raises `JoinRefused` with the host's reason (rules that differ, a full table...),
        within a few seconds when nothing at ``address`` holds its key or nothing listens
        there (`unreachable`), or when no answer comes within ``timeout`` seconds.
        """
        if self.plugins is None:
            raise ValueError("a joining peer needs the plugin host to bind the table's rules")
        where = await self._listen(bind, 0, toward=address.host)
        await self.seating.join(address, where=where, fingerprint=fingerprint,
                                wanted_seat=wanted_seat, timeout=timeout)

    async def resume(self, log_path: Path, *, bind: str | None = None) -> None:
        """Come back to the table whose log is ``log_path``: rebuild, reconnect, catch up
        (`hedgerow.net.returning.Returning.resume`)."""
        await self.returning.resume(log_path, bind=bind)

    async def reopen(self, path: Path, *, bind: str | None = None) -> None:
        """Re-open, as its host, the table of the open-table file ``path`` (a host lost
        before the seed was agreed: `hedgerow.net.returning.Returning.reopen`)."""
        await self.returning.reopen(path, bind=bind)

    def host_gone(self) -> bool:
        """True for a joiner whose host is lost or left before play began: it waits for the
        host to re-open the table (docs/protocol.md §3.2)."""
        ctx = self.ctx
        host = ctx.roster.by_key(ctx.host_key) if ctx.roster and ctx.host_key else None
        return (not ctx.is_host and host is not None and host.link in (Link.LOST, Link.LEFT)
                and not self.startup.ready)

    # ==================================================================================
    # The Seat interface

    def phase(self) -> Phase:
        """Where the table is now."""
        return self.ctx.phase

    def view(self) -> Any:
        """This seat's view of the current state (None before play)."""
        return None if self.ctx.table is None else self.ctx.table.view(self.seat)

    def active_seats(self) -> tuple[int, ...]:
        """Seats that must act now (at a sealed table, while no seat acts, the seats whose
        peers the table waits for: a shuffle pass, a card's key)."""
        table = self.ctx.table
        if table is None:
            return ()
        return table.active_seats() or self.sealing.waiting_seats()

    def chosen_seats(self) -> tuple[int, ...]:
        """The seats whose choice for the open simultaneous step is in (§4.5's commitments)."""
        return self.sync.committed()

    def legal_actions(self) -> Sequence[Action]:
        """What this seat may do now (empty when it is not its turn, or it already chose)."""
        table = self.ctx.table
        if table is None or self._barred() is not None:
            return []
        active = table.active_seats()
        if self.seat not in active:
            return []
        if len(active) > 1 and self.sync.chose():
            return []
        # The game's own lazy sequence (a Petals turn listed in full costs); sealed: plain.
        listed = table.legal_actions(self.seat)
        return PlainActions(listed) if isinstance(table, SealedTable) else listed

    def held_back(self) -> Refusal | None:
        """Why this seat may not act now while play is on (`_barred`), or None."""
        if self.ctx.table is None or self.ctx.phase != Phase.PLAYING:
            return None
        return self._barred()

    def outcome(self) -> Outcome | None:
        """The result, once the game is over."""
        return None if self.ctx.table is None else self.ctx.table.outcome()

    def seats(self) -> Sequence[SeatInfo]:
        """Every seat, with its player's name and link, and who runs a seat taken over."""
        if self.ctx.roster is None:
            return []
        runs = self.departures.runs
        return [replace(info, run_by=runs[info.seat].runner) if info.seat in runs else info
                for info in self.ctx.roster.seat_infos(self.seat)]

    def history(self) -> Sequence[HistoryLine]:
        """Every accepted action so far, in plain words."""
        self.sync.seal()
        return list(self.sync.history)

    def problem(self) -> str | None:
        """Why the table halted, or None."""
        return self.ctx.problem

    def watchers(self) -> tuple[str, ...]:
        """The names of the spectators watching the table (docs/protocol.md §3.4)."""
        return self.ctx.watchers

    def log_path(self) -> Path | None:
        """Where this seat's copy of the table log is saved."""
        return self.ctx.log_path

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change."""
        self.ctx.changes.subscribe(callback)

    async def submit(self, action: Action) -> Refusal | None:
        """Play ``action`` for this seat: None once accepted locally and sent, or why not
        (at once, with nothing sent or queued, while `held_back` says why: a move that
        still waits for a card's keys, say; `hedgerow.net.holdback`)."""
        return self._barred() or self.sync.play_own(action,
                                                     authored=self.departures.authored_own)

    def _barred(self) -> Refusal | None:
        """Why this seat may not act at all now, whatever the rules say (None: it may)."""
        if self.ctx.table is None or self.ctx.phase != Phase.PLAYING:
            return Refusal("wrong_phase", f"the table is {self.ctx.phase.value}, not playing")
        return holdback.held_back(
            self.seat, play=self.sync, deck=self.sealing, started=self.startup.ready,
            catching_up=lambda: self.departures.catching_up(self.sync.syncing),
            may_act=self.departures.may_act)

    async def close(self, reason: str = "left the table", why: msg.LeaveReason | None = None
                    ) -> None:
        """Leave the table (telling the others why: by default GAME_OVER once finished,
        HALTED once halted, QUIT before) and release every socket and file."""
        if self._closed:
            return
        if why is None:
            why = {Phase.FINISHED: msg.LeaveReason.GAME_OVER, Phase.HALTED: msg.LeaveReason.HALTED
                   }.get(self.ctx.phase, msg.LeaveReason.QUIT)
        if why == msg.LeaveReason.HALTED and self.ctx.problem and reason == "left the table":
            reason = self.ctx.problem  # why it stopped, for the others' log lines
        self.sync.seal()
        self._closed = True
        if self.ctx.roster is not None and self.ctx.table_id:
            for m in self.ctx.roster.others():
                if m.link in (Link.LEFT, Link.LOST):
                    self.ctx.node.disconnect(m.key)  # nothing to deliver there: no lingering
            self.ctx.broadcast(msg.Leave(reason[:200], why))
            self.spectators.close(reason)
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
        await self.ctx.node.close()
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
        return None if self.ctx.table is None else self.ctx.table.header.seed

    @property
    def sealed(self) -> bool:
        """True at a sealed table (docs/protocol.md §10), from the seating on."""
        return self.ctx.sealed

    def verdict(self) -> str | None:
        """At a sealed table once every secret is in: the verification's finding, in words."""
        return deckwait.verdict(self.sealing)

    def deck_wait(self) -> DeckWait | None:
        """What a sealed deck holds the table up for (`hedgerow.net.deckwait`)."""
        return deckwait.deck_wait(self.sealing, self.ctx.phase, reading=self.sync.reading())

    @property
    def index(self) -> int:
        """The number of log entries so far (0 before play)."""
        return 0 if self.ctx.table is None else self.ctx.table.index

    def entries(self) -> Sequence[LogEntry]:
        """Every log entry so far, in order."""
        return () if self.ctx.table is None else self.ctx.table.entries

    def state_hash(self) -> bytes | None:
        """The state hash after the last entry, as the peers report it (None before play;
        `Sync.reported_hash`: at a sealed table the resting point's, docs/protocol.md §10.4)."""
        return self.sync.reported_hash()

    def confirmed_end(self) -> bool:
        """True when the game is over here, no connected seat owes its final hash, and a
        sealed deck is verified or every connected peer disclosed (`Sync.confirmed_end`)."""
        return self.sync.confirmed_end() and self.sealing.settled_end()

    def desync_settled(self) -> bool:
        """False while a desync's naming may still change (reports for it are on the way)."""
        return self.sync.desync_settled()

    def members(self) -> list[Member]:
        """The seated peers (this one included), by seat."""
        return [] if self.ctx.roster is None else list(self.ctx.roster)

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None
                         ) -> bool:
        """Wait until ``predicate()`` holds (checked after every change); False on timeout."""
        return await self.ctx.changes.wait_until(predicate, timeout)

    def changed(self) -> Awaitable[bool]:
        """An awaitable for the next change (bound now, so no change slips in between)."""
        return self.ctx.changes.changed()

    # -- receiving ---------------------------------------------------------------------

    def _on_frame(self, rx: Received) -> None:
        if not self._closed:
            env = self._intake.decode(rx)
            if env is not None:
                self._accept(rx, env)

    def _resend_stalled(self) -> None:
        """Once a heartbeat: the seed agreement and the sealed deck resend if they stall."""
        self.startup.resend_stalled()
        self.sealing.resend_stalled()

    def _accept(self, rx: Received, env: msg.Envelope) -> None:
        """Check ``env`` and handle it (`hedgerow.net.intake.Intake`)."""
        self._intake.accept(rx, env)

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
