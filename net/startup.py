"""`Startup`: from a full table to play — seed commit-reveal, the log file, the Start barrier.

Each seat commits to a share, reveals once every commitment is in, and the seed comes
from all shares (`hedgerow.net.seedround`).  Each peer then opens its log and table file
and sends ``Start``; it acts only once every other seat's ``Start`` matched its own
(docs/protocol.md §3.2), so no action can reach a peer that does not know the seed yet.
A host may dictate the seed instead (``hedgerow play --seed``), for joiners that accept it.
A seat lost before anyone can have acted takes its share with it: `restart` goes back to
seating, and the agreement starts over once every seat is taken again, as the next *round*.
Every SeedCommit, SeedReveal and Start names its round (``ctx.round``, which the host sets
and sends in every SeatAssignment): one from an abandoned round is ignored (logged once per
seat and round), one from a round this peer has not reached yet is kept until it does.

This phase reads and writes the shared `PeerContext` as a `StartContext` (it builds
``table``, opens the log); of play it needs only a `Play`: somewhere to put the opening
chance entries, a nudge to handle actions that came early, and a reset when the agreement
starts over.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from hedgerow.core.datadir import logs_dir
from hedgerow.core.errors import HedgerowError, RulesError
from hedgerow.core.sealedtable import SealedTable
from hedgerow.core.table import Applied, Table, TableHeader
from hedgerow.net import sealfile, tablefile
from hedgerow.net.context import STALL_BEATS, Decked, Keyed, Living, Seated, Speaking, Stall
from hedgerow.net.hashbook import HashBook
from hedgerow.net.logfile import LogFileError, LogWriter
from hedgerow.net.members import Member
from hedgerow.net.messages import (
    Envelope,
    ErrorCode,
    LogHeader,
    SeedCommit,
    SeedReveal,
    Start,
    StateHash,
)
from hedgerow.net.seat import Link, Phase
from hedgerow.net.seedround import SeedRound, SeedRoundError
from hedgerow.net.transport import Node, Received

log = logging.getLogger(__name__)

#: Seed messages of a round this peer has not reached yet, kept until it does.
LATER_LIMIT = 64
#: The messages of a seed round (each names its round).
SeedMessage = SeedCommit | SeedReveal | Start


def setup_hash(table: Table) -> bytes:
    """What ``Start.setup_hash`` carries: the state hash of the game's initial state, before
    any log entry (before the chance entries of `Table.opening`, which follow as entries)."""
    return table.hash_of(table.opening[0].before) if table.opening else table.state_hash()


class Sealed(Protocol):
    """What `Startup` needs of the sealed deck (`hedgerow.net.sealplay.SealedPlay`)."""

    def begin(self, table: SealedTable, log_path: Path, *, resumed: bool = False) -> None:
        """The table is built and its log open: draw and keep the table's secret."""

    def start(self) -> None:
        """Every peer has started the table: the sealed messages may flow."""

    def reset(self) -> None:
        """The seed agreement starts over."""


class Play(Protocol):
    """What `Startup` needs of the play phase (`hedgerow.net.sync.Sync`)."""

    def applied(self, applied: Sequence[Applied]) -> None:
        """Entries the table added: show them and seal them."""

    def drain(self) -> None:
        """Handle the early messages whose turn has come."""

    def reset(self) -> None:
        """Forget every entry and early message: the seed agreement starts over."""

    def on_state_hash(self, rx: Received, env: Envelope, member: Member,
                      body: StateHash) -> None:
        """A seat's state hash after an entry (of this seed round)."""


class StartContext(Speaking, Keyed, Seated, Decked, Living, Protocol):
    """What the start of play reads and writes of the peer's shared state
    (`hedgerow.net.context.PeerContext`): it builds the table, opens the log and its table
    file (or drops them when the agreement starts over), and counts the seed rounds."""

    table: Table | None
    hashes: HashBook | None
    writer: LogWriter | None
    log_path: Path | None
    round: int

    @property
    def table_id(self) -> bytes: ...

    @property
    def host_key(self) -> bytes | None: ...

    @property
    def log_dir(self) -> Path | None: ...

    @property
    def node(self) -> Node: ...

    def names(self) -> dict[int, str]: ...

    def save_table_file(self) -> None: ...

    def drop_open_table(self) -> None: ...


class Startup:
    """Seed agreement and the start of play.

    ``fixed_seed`` is the seed a host dictates (None: commit-reveal, `dictate`);
    ``accept_host_seed`` lets a joiner play a seed its host dictates.
    """

    def __init__(self, ctx: StartContext, play: Play, sealed: Sealed, *,
                 accept_host_seed: bool = False) -> None:
        self.ctx = ctx
        self.play = play
        self.sealed = sealed
        self.fixed_seed: bytes | None = None
        self.accept_host_seed = accept_host_seed
        self.setup_hash: bytes | None = None
        self._round: SeedRound | None = None
        self._revealed = False
        self._starts: dict[int, Start] = {}  # Starts that came before our own seed
        self._started: set[int] = set()  # seats whose Start matched ours
        self._resumed = False
        #: Seed messages of a round this peer has not reached yet.
        self._later: list[tuple[Received, Envelope, Member, SeedMessage]] = []
        self._stale_logged: set[tuple[int, int]] = set()  # (seat, round) ignored and logged
        self._stall = Stall()  # the seed agreement standing still (`resend_stalled`)
        self._barrier = Stall()  # the Start barrier standing still (`resend_stalled`)
        self._beat = 0  # heartbeats seen (`resend_stalled`)
        self._answered: dict[int, int] = {}  # seat -> the beat we last answered its repeat

    def dictate(self, seed: bytes | None) -> None:
        """This host dictates ``seed`` to the table (None: it is agreed by commit-reveal)."""
        self.fixed_seed = seed

    @property
    def round(self) -> SeedRound:
        """This seat's commit-reveal round (its share is drawn when first needed)."""
        if self._round is None:
            self._round = SeedRound(self.ctx.players, self.ctx.seat)
        return self._round

    @property
    def ready(self) -> bool:
        """True once every other seat's Start matched ours: this seat may act (§3.2)."""
        return self.ctx.table is not None and (
            self._resumed or len(self._started) >= self.ctx.players - 1)

    def on_state_hash(self, rx: Received, env: Envelope, member: Member,
                      body: StateHash) -> None:
        """A seat's state hash counts only once that seat's Start of this seed round is in
        (docs/protocol.md §3.2, "A seat lost before play"): a seat sends its Start before
        its first StateHash, on the same link, so one that comes first was sealed in a
        round abandoned since, after the deal of a seed nobody plays; it is ignored without
        reply.  (A peer that came back from its log does not wait for Starts.)"""
        if self._resumed or member.seat in self._started or member.seat in self._starts:
            self.play.on_state_hash(rx, env, member, body)
        else:
            log.info("ignored StateHash #%d from %s: sealed in an abandoned seed round",
                     body.index, member.label())

    def resumed(self, table: Table) -> None:
        """This seat came back with ``table`` rebuilt from its log: it does not wait for the
        others' Start again."""
        header = table.header
        self.setup_hash = setup_hash(Table(table.ruleset, header.players, header.seed))
        self._resumed = True

    # -- a seat lost before play --------------------------------------------------------

    def restartable(self, seat: int | None = None) -> bool:
        """True while nobody can have acted yet, so the seed agreement may start over
        (docs/protocol.md §3.2, "A seat lost before play"): seeding, or started here
        without every Start (``seat``'s not among them) and no entry beyond the opening."""
        ctx = self.ctx
        if self._resumed or ctx.phase == Phase.SEATING:
            return False
        if ctx.phase == Phase.SEEDING:
            return True
        table = ctx.table
        return (ctx.phase in (Phase.PLAYING, Phase.FINISHED) and table is not None
                and not self.ready and (seat is None or seat not in self._started)
                and table.index == len(table.opening))

    def restart(self, next_round: int | None = None) -> None:
        """Back to seating: the seed agreement of a seat that is gone is abandoned (its
        share died with it).  The table and its log (the opening entries of a seed nobody
        played) are dropped; a new round with fresh shares begins once every seat is
        taken again.  ``next_round`` is that round (the host's SeatAssignment says it; the
        host itself counts one up when None)."""
        ctx = self.ctx
        abandoned = ctx.round
        if ctx.writer is not None:
            ctx.writer.close()
            ctx.writer = None
        if ctx.log_path is not None:
            for path in (ctx.log_path, tablefile.path_for(ctx.log_path),
                         sealfile.path_for(ctx.log_path)):
                path.unlink(missing_ok=True)
            ctx.log_path = None
        ctx.table = None
        ctx.hashes = HashBook(ctx.players, ctx.seat)
        self.play.reset()
        self.sealed.reset()
        self.setup_hash = None
        self._round = None
        self._revealed = False
        self._starts = {}
        self._started = set()
        self._answered = {}
        self._barrier.reset()
        ctx.enter(Phase.SEATING)
        log.warning("seed round %d abandoned before play began: back to seating, the seed "
                    "will be agreed again", abandoned)
        self.enter_round(abandoned + 1 if next_round is None else next_round)
        ctx.notify()

    def enter_round(self, number: int) -> None:
        """The table's seed round is now ``number`` (the host's SeatAssignment says so):
        seed messages of earlier rounds are stale from now on, and those kept for this one
        count now."""
        ctx = self.ctx
        if number <= ctx.round:
            return
        ctx.round = number
        later, self._later = self._later, []
        for rx, env, member, body in later:  # stale now, kept again, or counted
            if isinstance(body, SeedCommit):
                self.on_seed_commit(rx, env, member, body)
            elif isinstance(body, SeedReveal):
                self.on_seed_reveal(rx, env, member, body)
            else:
                self.on_start(rx, env, member, body)

    # -- seeding ------------------------------------------------------------------------

    def begin(self) -> None:
        """Every seat is taken: commit to a share (or start with the dictated seed)."""
        ctx = self.ctx
        if ctx.phase != Phase.SEATING:
            return
        assert ctx.roster is not None
        ctx.enter(Phase.SEEDING)
        for m in ctx.roster.others():
            ctx.node.connect(m.key, m.info.address)
        if self.fixed_seed is not None:
            log.info("every seat is taken; the seed is dictated by this host")
            self._start_play(self.fixed_seed)
            return
        ctx.broadcast(SeedCommit(ctx.seat, self.round.own_commitment, ctx.round))
        log.info("every seat is taken; agreeing on the seed")
        self._maybe_reveal()
        ctx.notify()

    def resend_stalled(self, every: int = STALL_BEATS) -> None:
        """Called once a heartbeat.  While the seed is being agreed and the agreement has
        not moved for ``every`` beats, send our SeedCommit again (and our SeedReveal, once we
        revealed) to every connected peer: a link that was cut and came back may have lost
        them, though neither side saw the other lost.  Identical repeats are ignored by the
        receiver, so this is always safe (docs/protocol.md §3.2).  Likewise at the Start
        barrier (`_resend_start`)."""
        ctx = self.ctx
        self._beat += 1
        self._resend_start(every)
        if ctx.phase != Phase.SEEDING or ctx.roster is None or self.fixed_seed is not None:
            self._stall.reset()
            return
        seed = self.round
        if not self._stall.due((ctx.round, len(seed.commits), len(seed.reveals)), every):
            return
        for member in ctx.roster.others():
            if member.link == Link.CONNECTED:
                ctx.send(member, SeedCommit(ctx.seat, seed.own_commitment, ctx.round))
                if self._revealed:
                    ctx.send(member, SeedReveal(ctx.seat, seed.share, ctx.round))

    def _resend_start(self, every: int) -> None:
        """While this seat waits at the Start barrier (its own Start sent, another seat's
        not matched yet) and the barrier has not moved for ``every`` beats, send our Start
        again to every connected peer: ours may be the one lost, and the repeat tells a
        peer that did get ours that we still wait (it answers with its own, `on_start`)."""
        ctx = self.ctx
        if (ctx.phase not in (Phase.PLAYING, Phase.FINISHED) or ctx.table is None
                or ctx.roster is None or self.ready or self.setup_hash is None):
            self._barrier.reset()
            return
        if not self._barrier.due((ctx.round, len(self._started)), every):
            return
        start = Start(ctx.table.header, self.setup_hash, ctx.round)
        for member in ctx.roster.others():
            if member.link == Link.CONNECTED:
                ctx.send(member, start)

    def on_seed_commit(self, rx: Received, env: Envelope, member: Member,
                       body: SeedCommit) -> None:
        if self._seed_message(rx, env, member, body,
                              lambda seed: seed.commit(body.seat, body.commitment)):
            self._maybe_reveal()

    def _maybe_reveal(self) -> None:
        seed = self.round
        if self.ctx.phase == Phase.SEEDING and seed.all_committed and not self._revealed:
            self._revealed = True
            self.ctx.broadcast(SeedReveal(self.ctx.seat, seed.share, self.ctx.round))
            seed.reveal(self.ctx.seat, seed.share)
        self._maybe_start()

    def on_seed_reveal(self, rx: Received, env: Envelope, member: Member,
                       body: SeedReveal) -> None:
        if self._seed_message(rx, env, member, body,
                              lambda seed: seed.reveal(body.seat, body.share)):
            self._maybe_start()

    def _seed_message(self, rx: Received, env: Envelope, member: Member,
                      body: SeedCommit | SeedReveal, record: Callable[[SeedRound], None]
                      ) -> bool:
        """Check a SeedCommit/SeedReveal (``body``) and ``record`` it; False if refused.

        A share that does not match its commitment halts the table (no seed can be
        agreed); a second, different commitment or share is refused and the first stands.
        """
        ctx = self.ctx
        if body.seat != member.seat:
            ctx.refuse(rx, env, ErrorCode.WRONG_SEAT,
                       f"{member.label()} cannot speak for seat {body.seat}")
            return False
        if ctx.phase != Phase.HALTED and not self._this_round(rx, env, member, body):
            return False
        if self._late_seed_message(rx, env):
            return False
        try:
            record(self.round)
        except SeedRoundError as exc:
            ctx.refuse(rx, env, ErrorCode.BAD_REVEAL, exc.message)
            if exc.fatal:
                ctx.halt(f"cannot agree on the seed: {exc.message}")
            return False
        return True

    def _this_round(self, rx: Received, env: Envelope, member: Member,
                    body: SeedMessage) -> bool:
        """True when ``body`` (a SeedCommit, SeedReveal or Start) belongs to this peer's
        current seed round.  One of an abandoned round is ignored without reply (logged once
        per seat and round): its shares are not this round's.  One of a later round (its
        sender already has the host's next seating) is kept until this peer gets there."""
        number = body.round
        if number == self.ctx.round:
            return True
        if number > self.ctx.round:
            if len(self._later) < LATER_LIMIT:
                self._later.append((rx, env, member, body))
            return False
        if (member.seat, number) not in self._stale_logged and len(self._stale_logged) < 256:
            self._stale_logged.add((member.seat, number))
            log.info("ignored %s from %s: seed round %d was abandoned (this table is at round "
                     "%d)", type(body).__name__, member.label(), number, self.ctx.round)
        return False

    def _late_seed_message(self, rx: Received, env: Envelope) -> bool:
        """True (after refusing it) for a seed message once the seed is settled.

        Once the table has halted (a share that broke its commitment, a desync) seed
        messages are ignored without a reply, as actions are: the seed may never have been
        agreed, and nothing more is (docs/protocol.md §3.2).
        """
        ctx = self.ctx
        if ctx.phase == Phase.HALTED:
            return True
        if ctx.phase in (Phase.SEATING, Phase.SEEDING) and ctx.table is None:
            return False
        if self.fixed_seed is None:  # with a dictated seed, joiners' commitments are moot
            ctx.refuse(rx, env, ErrorCode.WRONG_PHASE, "the seed is already agreed")
        return True

    # -- the start ----------------------------------------------------------------------

    def _maybe_start(self) -> None:
        if self.ctx.phase != Phase.SEEDING:
            return
        seed = self.round.seed()
        if seed is None:
            return
        self._start_play(seed)

    def _start_play(self, seed: bytes) -> None:
        ctx = self.ctx
        assert ctx.roster is not None
        try:
            if ctx.sealed:
                ctx.table = SealedTable(ctx.ruleset, ctx.players, seed,
                                        seats=ctx.roster.seats_of(ctx.identity.public))
            else:
                ctx.table = Table(ctx.ruleset, ctx.players, seed, fingerprint=ctx.fingerprint)
        except RulesError as exc:
            ctx.rules_failed(exc)
            return
        self.setup_hash = setup_hash(ctx.table)
        try:
            self._open_log()
        except (OSError, LogFileError) as exc:
            # (A full disk since `check_room`.)  Never play a seat whose log cannot be kept:
            # stop before the first entry, and leave (the others see the seat go, §5.9).
            self._drop_log()
            ctx.table = None  # nothing was played here, not even the deal
            ctx.halt(f"cannot write this seat's log: {getattr(exc, 'strerror', None) or exc}; "
                     "free some space, or set HEDGEROW_HOME to a folder on another disk")
            return
        if isinstance(ctx.table, SealedTable):
            assert ctx.log_path is not None
            try:
                self.sealed.begin(ctx.table, ctx.log_path)
            except HedgerowError as exc:
                ctx.halt(exc.message)
                return
        ctx.enter(Phase.FINISHED if ctx.table.over() else Phase.PLAYING)
        log.info("seed %s; play starts", seed.hex())
        ctx.broadcast(Start(ctx.table.header, self.setup_hash, ctx.round))
        # The chance entries the rules asked for at setup (the deal) are the first entries:
        # every peer resolved them from the seed; each seals them like any entry.
        self.play.applied(ctx.table.opening)
        starts, self._starts = self._starts, {}
        for seat, start in starts.items():
            self._check_start(seat, start)
        if self.ready:
            self.sealed.start()
        ctx.notify()
        self.play.drain()

    def _open_log(self) -> None:
        ctx = self.ctx
        assert ctx.table is not None and ctx.roster is not None
        folder = ctx.log_dir or logs_dir()
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = f"{ctx.ruleset.spec.name}-{stamp}-{ctx.table_id.hex()[:8]}-seat{ctx.seat}.hlog"
        ctx.log_path = folder / name
        names = tuple(ctx.names().get(s, "") for s in range(ctx.players))
        header = LogHeader.for_table(ctx.ruleset, ctx.players, ctx.table.header.seed,
                                     table_id=ctx.table_id, own_seat=ctx.seat,
                                     seat_names=names, fingerprint=ctx.table.header.fingerprint)
        # Flushed after every entry (survives a crash of this process); this seat's own
        # entries fsynced too, off the event loop (a slow disk must not hold up play), so a
        # power cut may lose the last entries, which catch-up fetches again from the others.
        ctx.writer = LogWriter(ctx.log_path, header, background=True)
        ctx.save_table_file()
        ctx.drop_open_table()  # (the host's) the log and its table file take over

    def _drop_log(self) -> None:
        """Remove what `_open_log` made of a log it could not finish (nothing was played)."""
        ctx = self.ctx
        if ctx.writer is not None:
            with contextlib.suppress(OSError):
                ctx.writer.close()
            ctx.writer = None
        if ctx.log_path is not None:
            for path in (ctx.log_path, tablefile.path_for(ctx.log_path)):
                path.unlink(missing_ok=True)
            ctx.log_path = None

    def on_start(self, rx: Received, env: Envelope, member: Member, body: Start) -> None:
        ctx = self.ctx
        if ctx.phase != Phase.HALTED and not self._resumed \
                and not self._this_round(rx, env, member, body):
            return
        if ctx.table is not None:
            if self._check_start(member.seat, body, rx, env):
                self._answer_repeat(member)
            return
        host_committed = 0 in self.round.commits
        if rx.sender == ctx.host_key and ctx.phase == Phase.SEEDING and not host_committed:
            # The host skipped the commit-reveal: it dictates the seed (hedgerow play --seed).
            if not self.accept_host_seed:
                ctx.halt("the host dictated the table seed instead of agreeing on it; "
                         "join with --accept-host-seed to play such a table")
                return
            if (body.header.fingerprint, body.header.players) != (ctx.fingerprint,
                                                                  ctx.players):
                ctx.halt("the host started the table with other rules")
                return
            self.fixed_seed = body.header.seed
            self._starts[member.seat] = body
            self._start_play(body.header.seed)
            return
        self._starts[member.seat] = body

    def _check_start(self, seat: int, start: Start, rx: Received | None = None,
                     env: Envelope | None = None) -> bool:
        """A seat's Start against our table: the first one that differs halts the table (it
        plays another game); once a seat's Start matched, a different repeat is refused.
        True for an identical repeat of a Start that matched already."""
        ctx = self.ctx
        assert ctx.table is not None
        same = start.header == ctx.table.header and start.setup_hash == self.setup_hash
        if seat in self._started:
            # Its first Start matched and stands: a repeat that differs changes nothing.
            if not same and rx is not None:
                ctx.refuse(rx, env, ErrorCode.WRONG_PHASE,
                           f"seat {seat} already started this table; a different Start "
                           "changes nothing")
            return same
        if not same:
            ctx.halt(f"seat {seat} started the table with other rules or another seed "
                     f"({_differences(start, ctx.table.header, self.setup_hash)})", tell=True)
            return False
        self._started.add(seat)
        if self.ready:
            self.sealed.start()
            ctx.notify()
        return False

    def _answer_repeat(self, member: Member) -> None:
        """A seat sent its Start again after ours matched it: it still waits at the barrier,
        perhaps for our Start, which a cut link may have lost.  Send ours to it, at most
        once every `STALL_BEATS` heartbeats a seat (two peers answering each other's
        answers stop there), and only once this seat is past the barrier itself."""
        ctx = self.ctx
        if (ctx.table is None or self.setup_hash is None or not self.ready
                or ctx.phase == Phase.HALTED):
            return  # (a seat still waiting itself sends its Start on its own, above)
        last = self._answered.get(member.seat)
        if last is not None and self._beat - last < STALL_BEATS:
            return
        self._answered[member.seat] = self._beat
        ctx.send(member, Start(ctx.table.header, self.setup_hash, ctx.round))


def _differences(start: Start, header: TableHeader, setup: bytes | None) -> str:
    """What a peer's Start says that ours does not, for a person: "seed 1a2b... here
    9f8e..., 3 players here 4"."""
    theirs, ours = start.header, header
    out = []
    if theirs.fingerprint != ours.fingerprint:
        out.append(f"rules {theirs.fingerprint}, here {ours.fingerprint}")
    if theirs.players != ours.players:
        out.append(f"{theirs.players} players, here {ours.players}")
    if theirs.seed != ours.seed:
        out.append(f"seed {theirs.seed.hex()[:12]}, here {ours.seed.hex()[:12]}")
    if start.setup_hash != setup:
        out.append("another state after setup")
    return "; ".join(out) or "nothing we can name"
