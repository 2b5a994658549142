"""The sealed-deck check of the conformance kit: a game plays the same sealed as open.

`check_sealed` plays seeded random games twice at once: on an open `Table`, and on one
`SealedTable` per seat (each peer holding one seat) dealt by an `OpenDealer` that draws
every shuffle from the seed exactly as the open deck does.  At every resting point it
checks that

* every peer holds the same public state (same state hash) and owes the same reveals;
* each seat's view of its information state is its view of the open game, and its legal
  actions are the open game's, in the same order;
* a card the rules read, and so showed to everyone, is not left where only some seats see
  it (a card read as it is drawn into a hand, or read in another seat's hand and left
  there, would give it away): an observer peer keeps every shown card marked and looks for
  it in each seat's view; views and ``hash_data`` never read a sealed card;

and at the end that the outcome is the open game's.  So a game that passes plays at a
sealed table exactly as it plays open, and its rules never look at a card that the seats
have not been shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.errors import Refusal, RulesError
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.sealed import SealedRead, knowns_in, plain
from hedgerow.core.sealedtable import OpenDealer, SealedTable, Waiting
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table


class SealedCheckError(AssertionError):
    """A game that does not play the same sealed as open, with what reproduces it."""


@dataclass(frozen=True, slots=True)
class SealedReport:
    """What a sealed check did."""

    games: int
    actions: int
    reveals: int  # cards shown (to one seat or to all)


class SealedRun:
    """One seeded game played open and sealed side by side."""

    def __init__(self, ruleset: Ruleset, players: int, seed_number: int) -> None:
        self.where = f"{ruleset.fingerprint}, {players} players, seed {seed_number}"
        seed = seed_from_int(seed_number)
        self.rng = Rng(seed, "sealed-check")
        self.players = players
        self.open = Table(ruleset, players, seed)
        self.dealer = OpenDealer(seed)
        self.reveals = 0
        self.actions = 0
        self.read: set[Any] = set()  # keys of the cards shown because the rules read them
        try:
            self.peers = [SealedTable(ruleset, players, seed, seats=[s])
                          for s in range(players)]
            # Holds no seat, marks every shown card: `check_reads` follows them.
            self.observer = SealedTable(ruleset, players, seed, mark_public=True)
        except RulesError as exc:
            raise SealedCheckError(f"{self.where}, setup: {exc}") from exc
        self.pump("setup")

    # -- the dealer's part ------------------------------------------------------------------

    @property
    def everyone(self) -> list[SealedTable]:
        """Every peer, the observer last."""
        return [*self.peers, self.observer]

    def pump(self, step: str) -> None:
        """Answer every shuffle, reveal round and obligation until every peer rests."""
        for _ in range(10_000):
            waiting = [p.waiting for p in self.everyone]
            if waiting[0] is not None:
                if any(w != waiting[0] for w in waiting):
                    raise SealedCheckError(f"{self.where}, {step}: the peers wait for "
                                           f"different things: {waiting}")
                self._answer(waiting[0], step)
                continue
            if any(w is not None for w in waiting):
                raise SealedCheckError(f"{self.where}, {step}: only some peers wait: {waiting}")
            owed = [p.take_obligations() for p in self.everyone]
            if any(o != owed[0] for o in owed):
                raise SealedCheckError(f"{self.where}, {step}: the peers owe different reveals")
            if not owed[0]:
                self.check_reads(step)
                return
            for obligations in owed[0]:
                if obligations.public:
                    faces = {t.key: self.dealer.face(t.key) for t in obligations.public}
                    self.reveals += len(faces)
                    for peer in self.everyone:
                        peer.reveal_public(faces)
                for seat, tokens in obligations.private:
                    faces = {t.key: self.dealer.face(t.key) for t in tokens}
                    self.reveals += len(faces)
                    self.peers[seat].reveal_private(faces)
        raise SealedCheckError(f"{self.where}, {step}: the peers never come to rest")

    def _answer(self, waiting: Waiting, step: str) -> None:
        if waiting.shuffles:
            chance = self.peers[0].pending_chance()
            assert chance is not None
            decks = self.dealer.deal(chance, waiting.shuffles)
            for peer in self.everyone:
                for (entry, draw), deck in decks.items():
                    peer.shuffled(entry, draw, deck)
        if waiting.reveals:
            self._read(waiting.reveals)
        for peer in self.everyone:
            if peer.pending_chance() is not None:
                try:
                    peer.settle()
                except RulesError as exc:
                    raise SealedCheckError(f"{self.where}, {step}: {exc}") from exc

    def _read(self, tokens: Iterable[Any]) -> None:
        """Show the cards the rules read to every peer, and remember them."""
        faces = {t.key: self.dealer.face(t.key) for t in tokens}
        self.reveals += len(faces)
        self.read.update(faces)
        for peer in self.everyone:
            peer.reveal_public(faces)

    def check_reads(self, step: str) -> None:
        """No card the rules read is where only some seats see it (see the module
        docstring); a card read and then consumed (turned into a score, a garden value) is
        found nowhere and passes."""
        if not self.read:
            return
        observer = self.observer
        for seat in range(self.players):
            seen = {k.token.key for k in knowns_in(observer.gamedef.view(observer.state, seat))}
            for other in range(self.players):
                if other == seat:
                    continue
                theirs = {k.token.key for k in knowns_in(
                    observer.gamedef.view(observer.state, other))}
                hidden = (seen & self.read) - theirs
                if hidden and _anywhere(observer.state, hidden):
                    key = min(hidden)
                    raise SealedCheckError(
                        f"{self.where}, {step}: the rules read the card {key} "
                        f"({self.dealer.face(key)}), so every peer was shown it, but seat "
                        f"{other} cannot see it: it is in seat {seat}'s view only")

    # -- comparing --------------------------------------------------------------------------

    def compare(self, step: str) -> None:
        hashes = {p.state_hash() for p in self.peers}
        if len(hashes) != 1:
            raise SealedCheckError(f"{self.where}, {step}: the peers' public states differ")
        if any(p.index != self.open.index for p in self.peers):
            raise SealedCheckError(f"{self.where}, {step}: sealed log at "
                                   f"#{self.peers[0].index}, open at #{self.open.index}")
        for seat, peer in enumerate(self.peers):
            try:
                sealed_view = peer.view(seat)
            except SealedRead as read:
                raise SealedCheckError(f"{self.where}, {step}: seat {seat}'s view reads a "
                                       f"card it has not been shown: {read}") from read
            if sealed_view != self.open.view(seat):
                raise SealedCheckError(
                    f"{self.where}, {step}: seat {seat} sees differently sealed and open:\n"
                    f"  sealed {sealed_view}\n  open   {self.open.view(seat)}")
            if seat in self.open.active_seats():
                sealed_legal = _listed(peer, seat, self.where, step)
                open_legal = list(self.open.legal_actions(seat))
                if sealed_legal != open_legal:
                    raise SealedCheckError(
                        f"{self.where}, {step}: seat {seat}'s legal actions differ sealed "
                        f"({len(sealed_legal)}) and open ({len(open_legal)})")

    # -- playing ----------------------------------------------------------------------------

    def play(self, max_actions: int) -> None:
        for number in range(max_actions):
            step = f"step {number} (entry #{self.open.index})"
            self.compare(step)
            active = self.open.active_seats()
            if not active:
                self._check_end(step)
                return
            choices: dict[int, Action] = {}
            for seat in active:
                legal = list(self.open.legal_actions(seat))
                choices[seat] = legal[self.rng.randbelow(len(legal))]
            prepared = {}
            for seat, choice in choices.items():
                mine = _listed(self.peers[seat], seat, self.where, step)
                made = self.peers[seat].prepare(seat, mine[mine.index(choice)])
                if isinstance(made, Refusal):
                    raise SealedCheckError(f"{self.where}, {step}: seat {seat}'s legal "
                                           f"{choice} is refused sealed: {made}")
                prepared[seat] = made
            reveals = {k: f for made in prepared.values() for k, f in made.attached.items()}
            self.reveals += len(reveals)
            self.read.update(reveals)
            for peer in self.everyone:
                self._submit(peer, prepared, reveals, step)
            if len(active) == 1:
                result = self.open.submit(active[0], choices[active[0]])
            else:
                result = self.open.submit_step(choices)
            assert not isinstance(result, Refusal), result
            self.actions += len(choices)
            self.pump(step)
        raise SealedCheckError(f"{self.where}: no end after {max_actions} actions")

    def _submit(self, peer: SealedTable, prepared: dict[int, Any], reveals: dict[Any, Any],
                step: str) -> None:
        for _ in range(256):
            try:
                if len(prepared) == 1:
                    ((seat, made),) = prepared.items()
                    result = peer.submit(seat, made.action, reveals=reveals)
                else:
                    result = peer.submit_step({s: m.action for s, m in prepared.items()},
                                              reveals=reveals)
            except RulesError as exc:
                raise SealedCheckError(f"{self.where}, {step}: {exc}") from exc
            if isinstance(result, Refusal):
                raise SealedCheckError(f"{self.where}, {step}: a prepared action is refused "
                                       f"sealed: {result}")
            if not isinstance(result, Waiting):
                return
            self._read(result.reveals)
        raise SealedCheckError(f"{self.where}, {step}: an action waits forever")

    def _check_end(self, step: str) -> None:
        try:
            sealed = self.peers[0].outcome()
        except SealedRead as read:
            raise SealedCheckError(f"{self.where}, {step}: the outcome reads a card no view "
                                   f"showed: {read}") from read
        if plain(sealed) != self.open.outcome():
            raise SealedCheckError(f"{self.where}, {step}: the outcome differs sealed and open")


def _anywhere(state: Any, keys: set[Any]) -> bool:
    """True when a marked card of ``keys`` is still in ``state`` as itself."""
    return any(k.token.key in keys for k in knowns_in(state))


def _listed(peer: SealedTable, seat: int, where: str, step: str) -> list[Action]:
    try:
        return list(peer.legal_actions(seat))
    except SealedRead as read:
        raise SealedCheckError(f"{where}, {step}: seat {seat}'s legal actions read a card it "
                               f"has not been shown: {read}") from read


def check_sealed(ruleset: Ruleset, players: int, seeds: Iterable[int], *,
                 max_actions: int = 5000) -> SealedReport:
    """Play a game sealed and open side by side for each seed (see the module docstring);
    raise `SealedCheckError` at the first difference."""
    games = actions = reveals = 0
    for seed in seeds:
        run = SealedRun(ruleset, players, seed)
        run.play(max_actions)
        games += 1
        actions += run.actions
        reveals += run.reveals
    return SealedReport(games, actions, reveals)
