"""From a full table to play: seed commit-reveal, the log file, and the Start barrier.

Each seat commits to a share, reveals once every commitment is in, and the seed comes
from all shares (`hedgerow.net.seedround`).  Each peer then opens its log and table file
and sends ``Start``; it acts only once every other seat's ``Start`` matched its own
(docs/protocol.md §3.2), so no action can reach a peer that does not know the seed yet.
A host may dictate the seed instead (``hedgerow play --seed``), for joiners that accept it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import cast

from hedgerow.core.datadir import logs_dir
from hedgerow.core.errors import RulesError
from hedgerow.core.table import Table
from hedgerow.net import tablefile
from hedgerow.net.logfile import LogWriter
from hedgerow.net.members import Member
from hedgerow.net.messages import (
    Envelope,
    ErrorCode,
    LogHeader,
    SeedCommit,
    SeedReveal,
    Start,
)
from hedgerow.net.peercore import PeerCore
from hedgerow.net.seat import Phase
from hedgerow.net.seedround import SeedRound, SeedRoundError
from hedgerow.net.transport import Received

log = logging.getLogger(__name__)


def setup_hash(table: Table) -> bytes:
    """What ``Start.setup_hash`` carries: the state hash of the game's initial state, before
    any log entry (before the chance entries of `Table.opening`, which follow as entries)."""
    return table.hash_of(table.opening[0].before) if table.opening else table.state_hash()


class Startup(PeerCore):
    """Seed agreement and the start of play (a mixin of `hedgerow.net.peer.Peer`)."""

    # The shared state (`PeerCore`) this phase reads and writes beyond the obvious.
    _phase: Phase
    fixed_seed: bytes | None
    _held: list[tuple[Received, Envelope]]
    _revealed: bool
    _starts: dict[int, Start]

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
        body = cast(SeedCommit, env.body)
        if self._seed_message(rx, env, member, body.seat,
                              lambda seed: seed.commit(body.seat, body.commitment)):
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
        body = cast(SeedReveal, env.body)
        if self._seed_message(rx, env, member, body.seat,
                              lambda seed: seed.reveal(body.seat, body.share)):
            self._maybe_start()

    def _seed_message(self, rx: Received, env: Envelope, member: Member, seat: int,
                      record: Callable[[SeedRound], None]) -> bool:
        """Check a SeedCommit/SeedReveal for ``seat`` and ``record`` it; False if refused.

        A share that does not match its commitment halts the table (no seed can be
        agreed); a second, different commitment or share is refused and the first stands.
        """
        if seat != member.seat:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT,
                         f"{member.label()} cannot speak for seat {seat}")
            return False
        if self._late_seed_message(rx, env):
            return False
        assert self._seed is not None
        try:
            record(self._seed)
        except SeedRoundError as exc:
            self._refuse(rx, env, ErrorCode.BAD_REVEAL, exc.message)
            if exc.fatal:
                self._halt(f"cannot agree on the seed: {exc.message}")
            return False
        return True

    def _late_seed_message(self, rx: Received, env: Envelope) -> bool:
        """True (after refusing it) for a seed message once the seed is settled.

        Once the table has halted (a share that broke its commitment, a desync) seed
        messages are ignored without a reply, as actions are: the seed may never have been
        agreed, and nothing more is (docs/protocol.md §3.2).
        """
        if self._phase == Phase.HALTED:
            return True
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
        try:
            self.table = Table(self.ruleset, self.players, seed)
        except RulesError as exc:
            self._rules_failed(exc)
            return
        self._setup_hash = setup_hash(self.table)
        self._open_log()
        self._phase = Phase.PLAYING if self.table.active_seats() else Phase.FINISHED
        log.info("seed %s; play starts", seed.hex())
        self._broadcast(Start(self.table.header, self._setup_hash))
        # The chance entries the rules asked for at setup (the deal) are the first entries:
        # every peer resolved them from the seed; each seals them like any entry.
        self._applied(self.table.opening)
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
        body = cast(Start, env.body)
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

