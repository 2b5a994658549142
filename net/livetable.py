"""`LiveTable`: a table followed from its log's records as they come (a spectator's table).

A spectator (docs/protocol.md §3.4) holds no seat, no key and no secret: the host streams it
the public records of its log — the header, the entries, the seat events and, at a sealed
table, the shuffle passes and the card keys shown to everyone — in file order, and the
spectator replays them as they arrive, exactly as ``hedgerow replay`` replays a whole file
(`hedgerow.net.logfile.replay_log` for an open deck, `hedgerow.net.sealreplay.SealedFollower`
for a sealed one): every entry is checked (chain, rules, chance against the seed or the
deck digests, the state hash the host logged), so a spectator's table is the public state
every player holds, and its state hash after the last entry is theirs.

At a sealed table it opens only what the records open: cards shown to everyone.  It never
receives a card key meant for one seat (the host does not stream those), so a seat's hand
stays sealed tokens; nobody's secret is in the stream (no ``Disclose``, no escrow).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hedgerow.core.errors import HedgerowError, Refusal, RulesError
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, Table
from hedgerow.net.logfile import Mismatch
from hedgerow.net.messages import (
    LoggedEntry,
    LogHeader,
    PeerInfo,
    SealRecord,
    SeatEvent,
    SeatEventKind,
)
from hedgerow.net.rulesmatch import OPEN_DECK
from hedgerow.net.sealing import Sealing
from hedgerow.net.sealreplay import SealedFollower

Record = LogHeader | LoggedEntry | SeatEvent | SealRecord


class LiveTable:
    """The records of one table's log, replayed as they come (see the module docstring).

    ``peers`` are the seating (from the host's ``SeatAssignment``): at a sealed table they
    number the parties.  ``history`` is every checked entry in order; ``table`` the table
    after the last one (None before the header, or when the rules cannot build it);
    ``events`` the seat events so far; ``mismatch`` the first record that did not replay
    (nothing after it is taken).
    """

    def __init__(self, ruleset: Ruleset, header: LogHeader, peers: Sequence[PeerInfo]) -> None:
        self.ruleset = ruleset
        self.header = header
        self.peers = tuple(peers)
        self._records: list[Record] = []  # every record taken (a rollback replays them)
        self._start()

    def _start(self) -> None:
        """The table as the header builds it, before any record."""
        ruleset, header, peers = self.ruleset, self.header, self.peers
        self.events: list[SeatEvent] = []
        self.mismatch: Mismatch | None = None
        self._runs: dict[int, int] = {}  # seat -> the seat whose peer runs its bot
        self._open: list[Applied] = []
        self._made: dict[int, Applied] = {}
        self._items: list[LoggedEntry] = []
        self.sealed = bool(header.table_id) and header.players > 1 and \
            not header.fingerprint.endswith(OPEN_DECK)
        self._follower: SealedFollower | None = None
        self._table: Table | None = None
        if ruleset.fingerprint != header.fingerprint.removesuffix(OPEN_DECK):
            self.mismatch = Mismatch("rules", None, f"the table plays {header.fingerprint}, "
                                                    f"but these rules are {ruleset.fingerprint}")
            return
        if self.sealed:
            keys: list[bytes] = []
            for info in sorted(peers, key=lambda p: p.seat):
                if info.public_key not in keys:
                    keys.append(info.public_key)
            by_seat = {info.seat: keys.index(info.public_key) for info in peers}
            self._follower = SealedFollower(
                ruleset, header, parties=len(keys),
                party_of=lambda seat: by_seat[self._runs.get(seat, seat)])
            self.mismatch = self._follower.mismatch
            return
        try:
            self._table = Table(ruleset, header.players, header.seed,
                                fingerprint=header.fingerprint)
        except (HedgerowError, RulesError) as exc:
            self.mismatch = Mismatch("rules", None, str(exc))
            return
        self._made = {a.entry.index: a for a in self._table.opening}

    @property
    def table(self) -> Table | None:
        """The table as far as the records go (its state: the public state)."""
        return self._follower.table if self._follower is not None else self._table

    @property
    def history(self) -> Sequence[Applied]:
        """Every entry checked so far, in log order."""
        return self._follower.history if self._follower is not None else self._open

    def add(self, record: Record) -> None:
        """Take the next record of the stream (a second header is refused: `mismatch`)."""
        if self.mismatch is not None:
            return
        self._records.append(record)
        if isinstance(record, SeatEvent) and record.kind == SeatEventKind.ROLLBACK:
            self._roll_back()
            return
        self._take(record)

    def _roll_back(self) -> None:
        """A ``ROLLBACK`` seat event (docs/protocol.md §5.9, §6): the entries from its index
        on, before it in the stream, are void; the table is replayed without them, as a
        reader of the log file reads it."""
        kept: list[Record] = []
        for record in self._records:
            if isinstance(record, SeatEvent) and record.kind == SeatEventKind.ROLLBACK:
                kept = [r for r in kept if not (isinstance(r, LoggedEntry)
                                                and r.index >= record.index)]
            kept.append(record)
        self._start()
        for record in kept:
            if self.mismatch is None:
                self._take(record)

    def _take(self, record: Record) -> None:
        if isinstance(record, LogHeader):
            self.mismatch = Mismatch("no_header", None, "a second log header in the stream")
        elif isinstance(record, SeatEvent):
            self.events.append(record)
            if record.kind == SeatEventKind.TAKEOVER:
                self._runs[record.seat] = record.runner
            elif record.kind == SeatEventKind.RECLAIM:
                self._runs.pop(record.seat, None)
        elif self._follower is not None:
            if isinstance(record, SealRecord):
                self._follower.record(record)
            else:
                self._follower.entry(record)
            self.mismatch = self._follower.mismatch
        elif isinstance(record, SealRecord):
            self.mismatch = Mismatch("refused", None, "a sealed record at an open-deck table")
        else:
            self.mismatch = self._follow_open(record)

    def _follow_open(self, item: LoggedEntry) -> Mismatch | None:
        """An open deck's entry, checked as `hedgerow.net.logfile.replay_log` checks it."""
        table = self._table
        assert table is not None
        entry = item.entry
        if entry.index != len(self._items):
            return Mismatch("refused", entry.index, f"entry #{entry.index} where "
                                                    f"#{len(self._items)} was due")
        self._items.append(item)
        if entry.index >= table.index:  # (a chance entry the table made itself is compared)
            try:
                result = table.follow(entry.index, entry.seat, entry.action, prev=entry.prev)
            except RulesError as exc:
                return Mismatch("refused", entry.index, f"the rules failed: {exc}")
            if isinstance(result, Refusal):
                return Mismatch("refused", entry.index, f"the rules refuse {entry.action}: "
                                                        f"{result}")
            self._made.update((a.entry.index, a) for a in result)
        while len(self._open) < len(self._items) and len(self._open) in self._made:
            at = len(self._open)  # (a simultaneous step is checked once it applied whole)
            applied, logged = self._made.pop(at), self._items[at]
            if (applied.entry.seat, applied.entry.action, applied.entry.digest) != \
                    (logged.entry.seat, logged.entry.action, logged.entry.digest):
                return Mismatch("refused", at, f"the stream has {logged.entry.action} where "
                                               f"the table has {applied.entry.action}")
            if table.entry_hash(applied.entry, applied.after) != logged.state_hash:
                return Mismatch("state_hash", at, "the state hash differs from the log's")
            self._open.append(applied)
        return None

    @property
    def _sealing(self) -> Sealing | None:
        """The sealed deck followed (None at an open table, or with no table)."""
        return self._follower.sealing if self._follower is not None else None

    def state_hash(self) -> bytes | None:
        """The state hash after the last checked entry, as the players report it (and as
        it was checked against the log's): at a sealed table the public state at that
        entry's resting point (docs/protocol.md §10.4), never with the cards the stream
        opened since for a later entry (a public reveal round for the next action comes
        before its entry, §10.7), which ``table.reported_hash()`` would hash in."""
        table, sealing = self.table, self._sealing
        if table is None or not self.history:
            return None
        last = self.history[-1]
        if sealing is not None:
            return sealing.hash_after(last)
        return table.entry_hash(last.entry, last.after)

    def state(self) -> Any:
        """The public state after the last checked entry, as every seat sees it: the
        table's now (at a sealed table with any card opened to all since, for the next
        entry, as each seat's screen shows it), or, while entries the table applied wait
        behind their records (a host that sealed late), the last checked entry's at its
        resting point (with the cards that showed to all, `Sealing.state_after`)."""
        table, sealing = self.table, self._sealing
        if table is None:
            return None
        history = self.history
        if history and history[-1].entry.index < table.index - 1:
            last = history[-1]
            return sealing.state_after(last) if sealing is not None else last.after
        return table.state
