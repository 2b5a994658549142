"""The table engine: (ruleset, seats, seed, action log) -> state, with a hash chain.

A table's state is a pure function of its header and its log.  Every accepted action
becomes a `LogEntry` that commits to the previous entry's digest, so a log can be checked
link by link, and the canonical state hash after each action is what peers compare.

`Table.submit` is the single gate every action passes: it refuses (with a `Refusal`, the
table unchanged) an action for a finished game, from a seat that is not active, with the
wrong index or previous digest, or that the game's rules refuse.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.canon import digest, encode, encode_entry, state_hash
from hedgerow.core.errors import Code, Refusal
from hedgerow.core.game import Outcome, SetupContext
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class TableHeader:
    """What a table is before any action: its rules, its seat count and its seed."""

    fingerprint: str
    players: int
    seed: bytes

    @property
    def genesis(self) -> bytes:
        """The digest the first log entry chains to."""
        return digest(b"hedgerow-genesis-v1", encode((self.fingerprint, self.players, self.seed)))


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One accepted action: its index, its seat, the action, and the chain digests."""

    index: int
    seat: int
    action: Action
    prev: bytes
    digest: bytes

    @staticmethod
    def chain(prev: bytes, index: int, seat: int, action: Action) -> bytes:
        """The digest of the entry (index, seat, action) that follows ``prev``."""
        payload = encode_entry(index, seat, action.kind, action.args)
        return digest(b"hedgerow-entry-v1", prev, payload)


class Table:
    """One game in progress: the state, the log and the hashes, behind one gate (`submit`)."""

    def __init__(self, ruleset: Ruleset, players: int, seed: bytes) -> None:
        ruleset.check_players(players)
        self.ruleset = ruleset
        self.game = ruleset.gamedef
        self.header = TableHeader(ruleset.fingerprint, players, seed)
        self.state: Any = self.game.setup(SetupContext(players, Rng(seed, "setup")))
        self._entries: list[LogEntry] = []
        self._unchained: list[tuple[int, Action]] = []  # applied by `play`, not chained yet
        self._head: bytes = self.header.genesis
        self._hash: bytes | None = None
        self._active: tuple[int, ...] = ()
        self._active_of: Any = None  # the state `_active` was computed for

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.header.players

    @property
    def index(self) -> int:
        """The index the next action will have (the number of actions so far)."""
        return len(self._entries) + len(self._unchained)

    @property
    def entries(self) -> list[LogEntry]:
        """Every accepted action, chained (read-only: only `submit` and `play` add entries)."""
        self._chain_up()
        return self._entries

    @property
    def head(self) -> bytes:
        """The digest of the last entry (the genesis digest before the first action)."""
        self._chain_up()
        return self._head

    def _chain_up(self) -> None:
        """Compute the chain digests of the actions applied by `play`, in order."""
        for seat, action in self._unchained:
            at = len(self._entries)
            entry = LogEntry(at, seat, action, self._head,
                             LogEntry.chain(self._head, at, seat, action))
            self._entries.append(entry)
            self._head = entry.digest
        self._unchained.clear()

    def active_seats(self) -> tuple[int, ...]:
        """The seats that must act now; () once the game is over (asked once per state)."""
        state = self.state
        if self._active_of is not state:
            self._active = self.game.active_seats(state)
            self._active_of = state
        return self._active

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Every action ``seat`` may take now (the game's own sequence, which may be lazy)."""
        return self.game.legal_actions(self.state, seat)

    def view(self, seat: int) -> Any:
        """What ``seat`` may see now."""
        return self.game.view(self.state, seat)

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""
        return self.game.outcome(self.state)

    def describe(self, seat: int, action: Action) -> str:
        """``action`` by ``seat`` in plain words, against the current state."""
        return self.game.describe(self.state, seat, action)

    def state_hash(self) -> bytes:
        """The canonical hash of the current state (computed once per state)."""
        if self._hash is None:
            data = self.game.hash_data(self.state) if self.game.hash_data else self.state
            self._hash = state_hash(data)
        return self._hash

    def check(
        self, seat: int, action: Action, *, index: int | None = None, prev: bytes | None = None
    ) -> Refusal | Any:
        """Validate without changing anything: the new state, or why the action is refused."""
        if not 0 <= seat < self.players:
            return Refusal(
                Code.BAD_SEAT, f"seat {seat} does not exist at a {self.players}-seat table"
            )
        if index is not None and index != self.index:
            return Refusal(Code.BAD_INDEX, f"expected action #{self.index}, got #{index}")
        if prev is not None and prev != self.head:
            return Refusal(
                Code.BROKEN_CHAIN, f"action #{self.index} does not chain to the log head"
            )
        problem = action.problem()
        if problem is not None:
            return Refusal(Code.MALFORMED, f"malformed action: {problem}")
        active = self.active_seats()
        if not active:
            return Refusal(Code.GAME_OVER, "the game is over")
        if seat not in active:
            who = ", ".join(str(s) for s in active)
            return Refusal(
                Code.NOT_YOUR_TURN, f"seat {seat} may not act now (waiting for seat {who})"
            )
        return self.game.apply(self.state, seat, action)

    def submit(
        self, seat: int, action: Action, *, index: int | None = None, prev: bytes | None = None
    ) -> LogEntry | Refusal:
        """Apply ``action`` by ``seat`` if it is legal now; the new log entry, or a `Refusal`.

        ``index`` and ``prev`` (the entry index and chain head the author saw) are checked
        when given, as the network layer does for every remote action.
        """
        result = self.check(seat, action, index=index, prev=prev)
        if isinstance(result, Refusal):
            return result
        head, at = self.head, self.index
        entry = LogEntry(at, seat, action, head, LogEntry.chain(head, at, seat, action))
        self.state = result
        self._entries.append(entry)
        self._head = entry.digest
        self._hash = None
        return entry

    def play(self, seat: int, action: Action) -> Refusal | None:
        """Apply ``action`` by ``seat`` like `submit`, leaving its chain digest for later.

        For in-process games (simulations, bots, benchmarks) that read the chain at the end
        if at all: the digests are computed in order, identical to `submit`'s, the first
        time `head` or `entries` is read.  Returns None once applied, or the `Refusal`.
        """
        result = self.check(seat, action)
        if isinstance(result, Refusal):
            return result
        self.state = result
        self._unchained.append((seat, action))
        self._hash = None
        return None

    @classmethod
    def replay(
        cls, ruleset: Ruleset, players: int, seed: bytes, actions: Iterable[tuple[int, Action]]
    ) -> Table:
        """Rebuild a table from its header and its (seat, action) log.

        Raises `ReplayError` at the first action the rules refuse.
        """
        table = cls(ruleset, players, seed)
        for seat, action in actions:
            result = table.play(seat, action)
            if result is not None:
                raise ReplayError(table.index, result)
        return table


class ReplayError(Exception):
    """A log entry that the rules refuse on replay."""

    def __init__(self, index: int, refusal: Refusal) -> None:
        super().__init__(f"action #{index} is refused on replay: {refusal}")
        self.index = index
        self.refusal = refusal
