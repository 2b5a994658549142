"""A sealed table played in one process: every peer's `Sealing` and `SealedTable`, with real
mental poker, exchanging the real sealed messages through an in-memory queue.

What the network peer does around `Sealing` (net/sync.py) is mimicked here in a few lines:
an action travels as `Prepared.action` with its `CardReveal`s, every peer opens the
attached cards and submits it, and an action that waits for a public reveal round is held
until the cards are open.  Tests use it to check the protocol's logic (who sends what, what
each peer can open) apart from sockets and processes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.errors import Refusal
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.sealed import Key
from hedgerow.core.sealedtable import SealedTable, Waiting
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Applied
from hedgerow.net import mentalpoker as mp
from hedgerow.net.messages import (
    CardKeys,
    CardReveal,
    Disclose,
    EscrowKey,
    EscrowOpen,
    EscrowShares,
    ShuffleStep,
)
from hedgerow.net.sealing import SealBody, Sealing

TABLE_ID = bytes(range(16))


@dataclass(frozen=True)
class Play:
    """An action as it travels (what an ActionMsg or a step's reveals carry)."""

    seat: int
    action: Action
    reveals: tuple[CardReveal, ...]


@dataclass(frozen=True)
class Step:
    """A whole simultaneous step, every seat's choice revealed."""

    plays: tuple[Play, ...]


@dataclass
class Wire:
    """The in-memory network: messages in the order they were sent, and everything sent."""

    queue: deque[tuple[int, int, Any]] = field(default_factory=deque)
    sent: list[tuple[int, int, Any]] = field(default_factory=list)
    tamper: Callable[[int, int, Any], Any] | None = None
    gone: set[int] = field(default_factory=set)  # parties cut off (departed)

    def post(self, to: int, sender: int, body: Any) -> None:
        if to in self.gone or sender in self.gone:
            return
        if self.tamper is not None:
            body = self.tamper(to, sender, body)
            if body is None:
                return
        self.queue.append((to, sender, body))
        self.sent.append((to, sender, body))


class LocalPeer:
    """One peer: a sealed table for one seat, its sealing, and a held action."""

    def __init__(self, wire: Wire, party: int, parties: int, ruleset: Ruleset, seed: bytes,
                 secret: bytes, holders: dict[int, int]) -> None:
        self.wire = wire
        self.party = party
        self.parties = parties
        self.table = SealedTable(ruleset, parties, seed, seats=[party])
        self.halted: tuple[str, int | None] | None = None
        self.kept: list[tuple[Any, int]] = []
        self.held: list[Play | Step] = []
        self.sealing = Sealing(self.table, table_id=TABLE_ID, parties=parties, me=party,
                               secret=mp.PeerSecret(secret), party_of=holders.__getitem__,
                               out=self)

    # -- SealOut -----------------------------------------------------------------------------

    def send(self, party: int, body: SealBody) -> None:
        self.wire.post(party, self.party, body)

    def broadcast(self, body: SealBody) -> None:
        for party in range(self.parties):
            if party != self.party:
                self.wire.post(party, self.party, body)

    def halt(self, message: str, party: int | None) -> None:
        if self.halted is None:
            self.halted = (message, party)

    def keep(self, body: SealBody, party: int) -> None:
        self.kept.append((body, party))

    def applied(self, entries: Sequence[Applied]) -> None:
        pass

    def opened(self) -> None:
        held, self.held = self.held, []
        for item in held:
            self._apply(item)

    def recovered(self, party: int) -> None:
        pass

    # -- receiving -----------------------------------------------------------------------------

    def receive(self, sender: int, body: Any) -> None:
        if self.halted is not None and not isinstance(body, Disclose):
            return
        if isinstance(body, ShuffleStep):
            refused = self.sealing.on_shuffle_step(sender, body)
        elif isinstance(body, CardKeys):
            refused = self.sealing.on_card_keys(sender, body)
        elif isinstance(body, Disclose):
            refused = self.sealing.on_disclose(sender, body)
        elif isinstance(body, EscrowKey):
            refused = self.sealing.on_escrow_key(sender, body)
        elif isinstance(body, EscrowShares):
            refused = self.sealing.on_escrow_shares(sender, body)
        elif isinstance(body, EscrowOpen):
            refused = self.sealing.on_escrow_open(sender, body)
        elif isinstance(body, Play | Step):
            refused = None
            self._apply(body)
        else:
            raise AssertionError(body)
        assert refused is None, refused

    def _apply(self, item: Play | Step) -> None:
        plays = item.plays if isinstance(item, Step) else (item,)
        faces: dict[Key, object] = {}
        for play in plays:
            opened = self.sealing.open_attached(play.seat, play.reveals)
            if isinstance(opened, str):
                self.halt(f"seat {play.seat}: {opened}", play.seat)
                return
            faces.update(opened)
        if isinstance(item, Step):
            result = self.table.submit_step({p.seat: p.action for p in plays}, reveals=faces)
        else:
            result = self.table.submit(item.seat, item.action, reveals=faces)
        if isinstance(result, Waiting):
            self.held.append(item)
            self.sealing.share_public(result.reveals)
        elif isinstance(result, Refusal):
            self.halt(f"seat {plays[0].seat}'s action is refused: {result}", plays[0].seat)
            return
        self.sealing.pump()


class LocalTable:
    """``players`` peers, one seat each, playing one sealed game in one process."""

    def __init__(self, ruleset: Ruleset, players: int, seed_number: int = 0, *,
                 wire: Wire | None = None) -> None:
        self.ruleset = ruleset
        self.seed = seed_from_int(seed_number)
        self.rng = Rng(self.seed, "sealnet")
        self.wire = wire or Wire()
        self.holders = {seat: seat for seat in range(players)}  # seat -> the party playing it
        self.peers = [LocalPeer(self.wire, p, players, ruleset, self.seed,
                                bytes([p + 1, seed_number % 256]) * 16, self.holders)
                      for p in range(players)]
        self.actions = 0
        for peer in self.peers:
            peer.sealing.start()
        self.deliver()

    def deliver(self, limit: int = 200_000) -> None:
        """Hand every queued message to its receiver, until the wire is quiet."""
        for _ in range(limit):
            if not self.wire.queue:
                return
            to, sender, body = self.wire.queue.popleft()
            self.peers[to].receive(sender, body)
        raise AssertionError("the peers never fall quiet")

    @property
    def halted(self) -> list[tuple[str, int | None]]:
        return [p.halted for p in self.peers if p.halted is not None]

    def choose(self, seat: int, pick: Callable[[Sequence[Action]], Action] | None = None
               ) -> Play:
        peer = self.peers[self.holders[seat]]
        assert not peer.sealing.owed_to_me(), f"seat {seat} acts before seeing its cards"
        legal = list(peer.table.legal_actions(seat))
        choice = pick(legal) if pick else legal[self.rng.randbelow(len(legal))]
        prepared = peer.table.prepare(seat, choice)
        assert not isinstance(prepared, Refusal), prepared
        return Play(seat, prepared.action, peer.sealing.reveals_for(prepared))

    @property
    def present(self) -> list[LocalPeer]:
        return [p for p in self.peers if p.party not in self.wire.gone]

    def take_over(self, seat: int, runner: int) -> None:
        """``seat``'s peer is gone; the others recover its secret and ``runner`` plays it."""
        self.wire.gone.add(seat)
        self.holders[seat] = runner
        for peer in self.present:
            peer.sealing.recover(seat)
        self.deliver()
        for peer in self.present:
            peer.sealing.seat_moved(seat)
        self.deliver()

    def act(self, plays: Sequence[Play]) -> None:
        item: Play | Step = plays[0] if len(plays) == 1 else Step(tuple(plays))
        for peer in self.present:
            peer.receive(-1, item)
        self.actions += len(plays)
        self.deliver()

    def play(self, max_actions: int = 5000) -> None:
        """Play to the end with random legal actions (every peer discloses at the end)."""
        for _ in range(max_actions):
            if self.halted:
                return
            hashes = {p.table.state_hash() for p in self.present}
            assert len(hashes) == 1, "the peers' public states differ"
            active = self.present[0].table.active_seats()
            if not active:
                return
            self.act([self.choose(seat) for seat in active])
        raise AssertionError("no end")
