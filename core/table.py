"""The table engine: (ruleset, seats, seed, action log) -> state, with a hash chain.

A table's state is a pure function of its header and its log.  Every accepted action
becomes a `LogEntry` that commits to the previous entry's digest, so a log can be checked
link by link, and the canonical state hash after each entry is what peers compare.

Three kinds of step fill the log (the game contract, `hedgerow.core.game`):

* a **turn**: one active seat, its action applied at once (`Table.submit`, `Table.play`);
* a **simultaneous step**: several active seats each choose against the step's starting
  state; once every choice is in, they are applied and logged in ascending seat order
  (`Table.submit_step`, `Table.play_step`);
* **chance**: after setup and after every turn or step, while the rules ask for luck
  (``GameDef.chance``), the engine resolves it from its `ChanceSource` (the table seed by
  default) and logs it as an entry of `CHANCE_SEAT`.  Nobody submits chance.

`Table.submit` and `Table.submit_step` are the gates every live action passes: they refuse
(with a `Refusal`, the table unchanged) an action for a finished game, from a seat that is
not active, with the wrong index or previous digest, or that the rules refuse.
`Table.follow` feeds a table from a log (a file, a catch-up, a replay), one entry at a time
in log order, whatever kind of step each belongs to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.canon import digest, encode, encode_entry, state_hash
from hedgerow.core.chance import (
    CHANCE_SEAT,
    ChanceSource,
    SeededChance,
    chance_action,
    problem,
)
from hedgerow.core.errors import Code, Refusal, RulesError
from hedgerow.core.game import SetupContext
from hedgerow.core.outcome import Outcome
from hedgerow.core.ruleset import Ruleset

#: More chance nodes than this in a row is a rules bug (a chance that never settles).
CHANCE_RUN_LIMIT = 64


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
    """One logged step: its index, its seat (`CHANCE_SEAT` for chance), the action, and the
    chain digests."""

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

    @classmethod
    def after(cls, prev: bytes, index: int, seat: int, action: Action) -> LogEntry:
        """The entry (index, seat, action) chained to ``prev``."""
        return cls(index, seat, action, prev, cls.chain(prev, index, seat, action))

    @property
    def intact(self) -> bool:
        """True when ``digest`` is the chain digest of the entry's own fields and ``prev``."""
        return self.digest == LogEntry.chain(self.prev, self.index, self.seat, self.action)

    @property
    def is_chance(self) -> bool:
        """True for an entry the engine resolved from chance."""
        return self.seat == CHANCE_SEAT


@dataclass(frozen=True, slots=True)
class Applied:
    """A log entry now in the table, with the state it applied to and the state after it."""

    entry: LogEntry
    before: Any
    after: Any


class Table:
    """One game in progress: the state, the log and the hashes, behind one gate."""

    def __init__(self, ruleset: Ruleset, players: int, seed: bytes, *,
                 chance: ChanceSource | None = None, fingerprint: str | None = None) -> None:
        ruleset.check_players(players)
        self.ruleset = ruleset
        self.gamedef = ruleset.gamedef
        # The table's fingerprint: its rules', plus what else names the table (a networked
        # table with an open deck says so, docs/protocol.md §10.12).
        self.header = TableHeader(fingerprint or ruleset.fingerprint, players, seed)
        self.chance_source: ChanceSource = chance if chance is not None else SeededChance(seed)
        self.state: Any = self.gamedef.setup(SetupContext(players))
        self._entries: list[LogEntry] = []
        self._unchained: list[tuple[int, Action]] = []  # applied by `play`, not chained yet
        self._head: bytes = self.header.genesis
        self._hash: bytes | None = None
        self._active: tuple[int, ...] = ()
        self._active_of: Any = None  # the state `_active` was computed for
        self._following: list[LogEntry] = []  # a simultaneous step being fed by `follow`
        #: The entries resolved from chance right after setup (before any seat acted).
        self.opening: tuple[Applied, ...] = tuple(self._settle(lazy=False))

    # -- reading ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.header.players

    @property
    def index(self) -> int:
        """The index the next entry will have (the number of entries so far)."""
        return len(self._entries) + len(self._unchained)

    @property
    def entries(self) -> list[LogEntry]:
        """Every logged entry, chained (read-only: only the table adds entries)."""
        self._chain_up()
        return self._entries

    @property
    def head(self) -> bytes:
        """The digest of the last entry (the genesis digest before the first one)."""
        self._chain_up()
        return self._head

    def _chain_up(self) -> None:
        """Compute the chain digests of the entries added by `play`, in order."""
        for seat, action in self._unchained:
            entry = LogEntry.after(self._head, len(self._entries), seat, action)
            self._entries.append(entry)
            self._head = entry.digest
        self._unchained.clear()

    def active_seats(self) -> tuple[int, ...]:
        """The seats that must act now; () once the game is over (asked once per state)."""
        state = self.state
        if self._active_of is not state:
            self._active = self.gamedef.active_seats(state)
            self._active_of = state
        return self._active

    def over(self) -> bool:
        """True once the game is over (no seat acts; a sealed table waiting for a shuffle is
        not over)."""
        return not self.active_seats()

    def simultaneous(self) -> bool:
        """True when the current step is simultaneous (several seats choose at once)."""
        return len(self.active_seats()) > 1

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Every action ``seat`` may take now (the game's own sequence, which may be lazy)."""
        return self.gamedef.legal_actions(self.state, seat)

    def view(self, seat: int) -> Any:
        """What ``seat`` may see now."""
        return self.gamedef.view(self.state, seat)

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""
        return self.gamedef.outcome(self.state)

    def describe(self, seat: int, action: Action) -> str:
        """``action`` by ``seat`` in plain words, against the current state."""
        return self.gamedef.describe(self.state, seat, action)

    def describe_entry(self, entry: LogEntry, before: Any) -> str:
        """A logged entry in plain words, given the state it applied to."""
        if entry.is_chance:
            chance = self.gamedef.pending_chance(before)
            return f"chance: {chance.label}" if chance is not None else "chance"
        return self.gamedef.describe(before, entry.seat, entry.action)

    def state_hash(self) -> bytes:
        """The canonical hash of the current state (computed once per state)."""
        if self._hash is None:
            self._hash = self.hash_of(self.state)
        return self._hash

    def entry_hash(self, entry: LogEntry, state: Any) -> bytes:
        """The state hash peers report after ``entry`` (``state`` is the state after it): the
        state's canonical hash (a sealed table binds the entry too,
        `hedgerow.core.sealedtable.SealedTable.entry_hash`)."""
        return self.state_hash() if state is self.state else self.hash_of(state)

    def reported_hash(self) -> bytes:
        """The state hash peers report (and log) after the last entry, for the state now:
        the state hash, bound to the entry at a sealed table; before any entry, the state
        hash.  At a sealed table the reported hash covers the public state at the entry's
        resting point (docs/protocol.md §10.4), which the state now is not once cards were
        opened to all for the next entry: the net layer's `Sealing.hash_after` (a log's
        replay, a spectator) and `Sync.reported_hash` (a seated peer) give it then."""
        entries = self.entries
        return self.entry_hash(entries[-1], self.state) if entries else self.state_hash()

    def hash_of(self, state: Any) -> bytes:
        """The canonical hash of any state of this table's game."""
        gamedef = self.gamedef
        return state_hash(gamedef.hash_data(state) if gamedef.hash_data else state)

    # -- checking -----------------------------------------------------------------------

    def _rules_apply(self, state: Any, seat: int, action: Action) -> Any:
        """The rules' ``apply``: every action the table takes goes through here (a sealed
        table reveals what the action shows first, `hedgerow.core.sealedtable`)."""
        return self.gamedef.apply(state, seat, action)

    def _gate(self, seat: int, action: Action, index: int | None, prev: bytes | None,
              ) -> Refusal | None:
        """What every action is checked for before the rules see it."""
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
        problem_ = action.problem()
        if problem_ is not None:
            return Refusal(Code.MALFORMED, f"malformed action: {problem_}")
        active = self.active_seats()
        if not active:
            return Refusal(Code.GAME_OVER, "the game is over")
        if seat not in active:
            who = ", ".join(str(s) for s in active)
            return Refusal(
                Code.NOT_YOUR_TURN, f"seat {seat} may not act now (waiting for seat {who})"
            )
        return None

    def check(
        self, seat: int, action: Action, *, index: int | None = None, prev: bytes | None = None
    ) -> Refusal | Any:
        """Validate without changing anything: the state ``action`` leads to, or why not.

        In a simultaneous step this checks one seat's choice against the step's starting
        state (what a peer does before committing); the state returned is then internal to
        the step and must not be shown.
        """
        refusal = self._gate(seat, action, index, prev)
        if refusal is not None:
            return refusal
        return self._rules_apply(self.state, seat, action)

    # -- turns --------------------------------------------------------------------------

    def submit(
        self, seat: int, action: Action, *, index: int | None = None, prev: bytes | None = None
    ) -> tuple[Applied, ...] | Refusal:
        """Apply ``action`` by ``seat`` on its turn; the entries it adds, or a `Refusal`.

        The first entry is the action's own; chance entries the rules asked for after it
        follow.  ``index`` and ``prev`` (the entry index and chain head the author saw) are
        checked when given, as the network layer does for every remote action.  In a
        simultaneous step use `submit_step`.
        """
        result = self.check(seat, action, index=index, prev=prev)
        if isinstance(result, Refusal):
            return result
        if self.simultaneous():
            return _step_refusal(self.active_seats())
        before = self.state
        entry = self._append(seat, action, result, lazy=False)
        return (Applied(entry, before, result), *self._settle(lazy=False))

    def play(self, seat: int, action: Action) -> Refusal | None:
        """Apply ``action`` by ``seat`` like `submit`, leaving its chain digest for later.

        For in-process games (simulations, bots, benchmarks) that read the chain at the end
        if at all: the digests are computed in order, identical to `submit`'s, the first
        time `head` or `entries` is read.  Returns None once applied, or the `Refusal`.
        """
        result = self.check(seat, action)
        if isinstance(result, Refusal):
            return result
        if self.simultaneous():
            return _step_refusal(self.active_seats())
        self._append(seat, action, result, lazy=True)
        self._settle(lazy=True)
        return None

    # -- simultaneous steps -------------------------------------------------------------

    def check_step(self, choices: Mapping[int, Action]) -> Refusal | None:
        """Why ``choices`` (one action per active seat) cannot be the current step, or None."""
        active = self.active_seats()
        if not active:
            return Refusal(Code.GAME_OVER, "the game is over")
        if sorted(choices) != sorted(active):
            want = ", ".join(str(s) for s in active)
            got = ", ".join(str(s) for s in sorted(choices)) or "none"
            return Refusal(Code.NOT_YOUR_TURN,
                           f"this step needs one choice from each of seats {want}, got {got}")
        for seat in active:
            result = self.check(seat, choices[seat])
            if isinstance(result, Refusal):
                return result
        return None

    def submit_step(
        self, choices: Mapping[int, Action], *, index: int | None = None,
        prev: bytes | None = None,
    ) -> tuple[Applied, ...] | Refusal:
        """Apply a whole step: one choice per active seat, each checked against the step's
        starting state, then applied and logged in ascending seat order (chance after).

        A turn (one active seat) is a step of one choice, so this also takes ordinary turns.
        """
        if index is not None and index != self.index:
            return Refusal(Code.BAD_INDEX, f"expected action #{self.index}, got #{index}")
        if prev is not None and prev != self.head:
            return Refusal(Code.BROKEN_CHAIN,
                           f"action #{self.index} does not chain to the log head")
        refusal = self.check_step(choices)
        if refusal is not None:
            return refusal
        applied = self._apply_step(choices, lazy=False)
        return (*applied, *self._settle(lazy=False))

    def play_step(self, choices: Mapping[int, Action]) -> Refusal | None:
        """`submit_step` leaving the chain digests for later, like `play`."""
        refusal = self.check_step(choices)
        if refusal is not None:
            return refusal
        self._apply_step(choices, lazy=True)
        self._settle(lazy=True)
        return None

    def _apply_step(self, choices: Mapping[int, Action], *, lazy: bool) -> list[Applied]:
        """Apply checked choices in seat order, holding the game to the step contract."""
        remaining = sorted(choices)
        applied: list[Applied] = []
        gamedef = self.gamedef
        for seat in list(remaining):
            state = self.state
            if remaining != list(gamedef.active_seats(state)):
                raise RulesError(
                    f"{gamedef.name}: inside a simultaneous step the active seats should be "
                    f"{remaining}, the rules say {list(gamedef.active_seats(state))}")
            result = self._rules_apply(state, seat, choices[seat])
            if isinstance(result, Refusal):
                raise RulesError(
                    f"{gamedef.name}: seat {seat}'s choice {choices[seat]} was legal at the start "
                    f"of the step but is refused inside it: {result}")
            entry = self._append(seat, choices[seat], result, lazy=lazy)
            if entry is not None:
                applied.append(Applied(entry, state, result))
            remaining.remove(seat)
            if remaining and gamedef.pending_chance(result) is not None:
                raise RulesError(f"{gamedef.name}: chance inside a simultaneous step (seats "
                                 f"{remaining} still to apply); ask for it after the step")
        return applied

    # -- chance -------------------------------------------------------------------------

    def _settle(self, *, lazy: bool) -> list[Applied]:
        """Resolve every chance the current state waits for, logging each."""
        gamedef = self.gamedef
        applied: list[Applied] = []
        for _ in range(CHANCE_RUN_LIMIT):
            chance = gamedef.pending_chance(self.state)
            if chance is None:
                return applied
            outcome = self.chance_source.resolve(self.index, chance)
            wrong = problem(chance, outcome)
            if wrong is not None:
                raise RulesError(f"the chance source answered {chance.label!r} wrongly: {wrong}")
            assert gamedef.resolve is not None  # GameDef checks chance and resolve come together
            before = self.state
            after = gamedef.resolve(before, outcome)
            entry = self._append(CHANCE_SEAT, chance_action(outcome), after, lazy=lazy)
            if entry is not None:
                applied.append(Applied(entry, before, after))
        raise RulesError(f"{gamedef.name}: more than {CHANCE_RUN_LIMIT} chance nodes in a row")

    def _append(self, seat: int, action: Action, after: Any, *, lazy: bool) -> Any:
        """Make ``after`` the state and log (seat, action); the entry, or None when lazy."""
        self.state = after
        self._hash = None
        if lazy:
            self._unchained.append((seat, action))
            return None
        head = self.head
        entry = LogEntry.after(head, self.index, seat, action)
        self._entries.append(entry)
        self._head = entry.digest
        return entry

    # -- feeding from a log -------------------------------------------------------------

    def follow(self, index: int, seat: int, action: Action, *, prev: bytes | None = None,
               ) -> tuple[Applied, ...] | Refusal:
        """Feed logged entry ``index`` (from a file, a catch-up or a replay), in log order.

        * an entry the table already has (a chance entry it resolved itself, or a repeat)
          must be identical to it: ``()``, or a `Refusal` naming the difference;
        * a turn is submitted;
        * a simultaneous step's entries come in ascending seat order; they are held (``()``)
          until the step is whole, then applied together;
        * a chance entry the table did not resolve itself is refused.
        """
        if index < self.index:
            return self._same_as_ours(index, seat, action, prev)
        expected = self.index + len(self._following)
        if index != expected:
            return Refusal(Code.BAD_INDEX, f"expected entry #{expected}, got #{index}")
        if seat == CHANCE_SEAT:
            return Refusal(Code.ILLEGAL_ACTION,
                           f"entry #{index} is chance where the rules ask none")
        if not self.simultaneous():
            return self.submit(seat, action, index=index, prev=prev)
        return self._follow_step(index, seat, action, prev)

    def _same_as_ours(self, index: int, seat: int, action: Action, prev: bytes | None,
                      ) -> tuple[Applied, ...] | Refusal:
        ours = self.entries[index]
        if ours.seat != seat or ours.action != action or (prev is not None and prev != ours.prev):
            what = "chance outcome" if ours.is_chance or seat == CHANCE_SEAT else "entry"
            return Refusal(Code.BROKEN_CHAIN, f"entry #{index} differs from this table's {what}")
        return ()

    def _follow_step(self, index: int, seat: int, action: Action, prev: bytes | None,
                     ) -> tuple[Applied, ...] | Refusal:
        held = self._following
        head = held[-1].digest if held else self.head
        if prev is not None and prev != head:
            return Refusal(Code.BROKEN_CHAIN, f"entry #{index} does not chain to the log head")
        if held and seat <= held[-1].seat:
            return Refusal(Code.BAD_INDEX, f"entry #{index}: a simultaneous step is logged in "
                                           f"ascending seat order (seat {seat} after "
                                           f"{held[-1].seat})")
        refusal = self._gate(seat, action, None, None)
        if refusal is not None:
            return refusal
        result = self._rules_apply(self.state, seat, action)
        if isinstance(result, Refusal):
            return result
        held.append(LogEntry.after(head, index, seat, action))
        if len(held) < len(self.active_seats()):
            return ()
        choices = {e.seat: e.action for e in held}
        self._following = []
        # Each held choice was checked against the starting state as it came, and the
        # seats are exactly the active ones: apply the step without checking it again.
        applied = self._apply_step(choices, lazy=False)
        return (*applied, *self._settle(lazy=False))

    @property
    def following(self) -> int:
        """How many entries of an incomplete simultaneous step `follow` holds."""
        return len(self._following)

    @classmethod
    def replay(
        cls, ruleset: Ruleset, players: int, seed: bytes, actions: Iterable[tuple[int, Action]]
    ) -> Table:
        """Rebuild a table from its header and its logged (seat, action) pairs, chance
        entries included, in log order.

        Raises `ReplayError` at the first entry that the table refuses.
        """
        table = cls(ruleset, players, seed)
        for at, (seat, action) in enumerate(actions):
            result = table.follow(at, seat, action)
            if isinstance(result, Refusal):
                raise ReplayError(at, result)
        if table.following:
            raise ReplayError(table.index, Refusal(
                Code.BAD_INDEX, "the log ends inside a simultaneous step"))
        return table


def _step_refusal(active: tuple[int, ...]) -> Refusal:
    seats = ", ".join(str(s) for s in active)
    return Refusal(Code.SIMULTANEOUS,
                   f"seats {seats} choose at once: this step takes every choice together")


class ReplayError(Exception):
    """A log entry that the rules refuse on replay."""

    def __init__(self, index: int, refusal: Refusal) -> None:
        super().__init__(f"action #{index} is refused on replay: {refusal}")
        self.index = index
        self.refusal = refusal
