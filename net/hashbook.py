"""Desync detection: every peer's state hash after every log entry, compared with ours.

Each peer hashes its state after sealing each log entry (an action or chance).  The book
keeps this peer's own hashes by index and what other seats report: the hashes that ride on
their play messages (``ActionMsg.hashes``, ``ActionCommit.hashes``: each peer reports every
entry once, on the next play message it sends, or at the end) and the ``StateHash`` messages
a peer sends when it finds a disagreement (docs/protocol.md §3.3 "State hashes").  The first
report that differs from ours stops the table.  Who diverged is decided by the majority of
the hashes known for the earliest index at which any differ (this peer's included), so every
honest peer names the same seat; with no majority (two seats, or an even split) every
disagreeing seat is named.

The book also keeps how far this process has reported its own hashes (`unreported`,
`mark_reported`): what the next play message of this peer carries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

#: Reports for indices this far ahead of our log are ignored (a flood cannot grow memory).
AHEAD_LIMIT = 1024


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first index at which state hashes differ, and what each seat reported there."""

    index: int
    hashes: dict[int, bytes]  # seat -> hash at index (this peer's own seat included)
    own_seat: int

    def divergent(self) -> tuple[int, ...]:
        """Seats outside the majority; every seat when there is no strict majority."""
        counts = Counter(self.hashes.values())
        top, n = counts.most_common(1)[0]
        if n * 2 <= len(self.hashes):
            return tuple(sorted(self.hashes))
        return tuple(sorted(s for s, h in self.hashes.items() if h != top))

    def describe(self, names: dict[int, str]) -> str:
        """One sentence naming the divergent peers and the log index."""
        bad = self.divergent()

        def who(seat: int) -> str:
            name = names.get(seat, "")
            you = " (this peer)" if seat == self.own_seat else ""
            return f"seat {seat}" + (f" ({name})" if name else "") + you

        size = shown_size(list(self.hashes.values()))
        if len(bad) == len(self.hashes):
            detail = ", ".join(f"{who(s)} has {self.hashes[s].hex()[:size]}" for s in bad)
            return f"desync after entry #{self.index}: the peers disagree ({detail})"
        good = sorted(set(self.hashes) - set(bad))
        return (f"desync after entry #{self.index}: {' and '.join(who(s) for s in bad)} "
                f"diverged (state {self.hashes[bad[0]].hex()[:size]}, while "
                f"{', '.join(who(s) for s in good)} have {self.hashes[good[0]].hex()[:size]})")


def shown_size(hashes: list[bytes], least: int = 12) -> int:
    """How many hex digits of each hash a message shows: ``least``, or more until every two
    different hashes look different (a claim can differ from the truth only at its end)."""
    texts = {h.hex() for h in hashes}
    size = least
    while len({t[:size] for t in texts}) < len(texts):
        size += 4
    return size


class HashBook:
    """State hashes by index: this peer's own, and those other seats report."""

    def __init__(self, players: int, own_seat: int) -> None:
        self.players = players
        self.own_seat = own_seat
        self.own: list[bytes] = []
        self.reports: dict[int, dict[int, bytes]] = {}  # indices not yet settled
        self.settled: set[int] = set()  # indices every seat reported, all agreeing
        self.latest: dict[int, int] = {}  # seat -> highest index it reported
        self.divergence: Divergence | None = None
        #: A seat's second, different claim about an entry (a peer that contradicts itself
        #: is taken at the claim that differs from ours: it cannot have both states).
        self.second: dict[tuple[int, int], bytes] = {}
        self.sent = 0  # own hashes this process has reported (entries 0 .. sent - 1)
        #: Another peer has shown that it holds our entries before this index (its hash of
        #: one of them equals ours, or it sent an action or entries that chain on them):
        #: they can never be taken back (docs/protocol.md §5.9, a rollback).
        self.agreed = 0

    def record_own(self, index: int, state_hash: bytes) -> Divergence | None:
        """This peer applied entry ``index`` (the next one); check reports already in."""
        if index != len(self.own):
            raise ValueError(f"own hash for #{index}, expected #{len(self.own)}")
        self.own.append(state_hash)
        return self._check(index)

    def report(self, seat: int, index: int, state_hash: bytes) -> Divergence | None:
        """``seat`` says its state after ``index`` hashes to ``state_hash``."""
        if index >= len(self.own) + AHEAD_LIMIT:
            return None
        self._saw(seat, index)
        if index in self.settled and self.divergence is None:
            if state_hash == self.own[index]:
                return None  # a repeat (after a rejoin) of what everyone agreed on
            self.settled.discard(index)
        claims = self.reports.setdefault(index, {})
        first = claims.setdefault(seat, state_hash)
        if first != state_hash:
            self.second.setdefault((index, seat), state_hash)
        return self._check(index)

    def report_all(self, seat: int, reported: Iterable[tuple[int, bytes]]
                   ) -> Divergence | None:
        """``seat`` reports several entries' hashes (oldest first); the divergence, if any
        of them (or an earlier report) differs from ours."""
        found = None
        for index, state_hash in reported:
            found = self.report(seat, index, state_hash) or found
        return found

    def _saw(self, seat: int, index: int) -> None:
        if index > self.latest.get(seat, -1):
            self.latest[seat] = index

    def reported(self, seat: int, index: int) -> bool:
        """True when ``seat`` reported a hash for ``index`` or a later one."""
        return self.latest.get(seat, -1) >= index

    def unreported(self) -> list[bytes]:
        """Our own hashes this process has not reported yet (entries ``sent`` on)."""
        return self.own[self.sent:]

    def mark_reported(self, upto: int) -> None:
        """Our hashes of entries before ``upto`` are reported (or need not be)."""
        self.sent = max(self.sent, min(upto, len(self.own)))

    def confirm(self, upto: int) -> None:
        """Another peer holds our entries before ``upto`` (it chained on them)."""
        self.agreed = max(self.agreed, upto)

    def roll_back(self, index: int) -> None:
        """Forget our hashes of entries ``index`` and later and every report about them (a
        rollback of entries no other peer holds, docs/protocol.md §5.9)."""
        if index < self.agreed:
            raise ValueError(f"entry #{index} is held by another peer: it cannot be rolled back")
        del self.own[index:]
        self.sent = min(self.sent, index)
        self.reports = {i: r for i, r in self.reports.items() if i < index}
        self.settled = {i for i in self.settled if i < index}
        self.latest = {seat: min(i, index - 1) for seat, i in self.latest.items()}
        self.second = {k: h for k, h in self.second.items() if k[0] < index}
        if self.divergence is not None and self.divergence.index >= index:
            self.divergence = None

    def _check(self, index: int) -> Divergence | None:
        if index >= len(self.own):
            return None
        mine = self.own[index]
        if any(h == mine for h in self.reports.get(index, {}).values()) or index in self.settled:
            self.agreed = max(self.agreed, index + 1)
        reports = {seat: self.second.get((index, seat), h) if h == mine else h
                   for seat, h in self.reports.get(index, {}).items()}
        differs = any(h != mine for h in reports.values())
        found = self.divergence
        if found is not None and (found.index == index or (differs and index < found.index)):
            # a later report refines who is named; an earlier difference is the first one
            self.divergence = Divergence(index, {**reports, self.own_seat: mine}, self.own_seat)
            return self.divergence
        if found is not None:
            return found
        if differs:
            self.divergence = Divergence(index, {**reports, self.own_seat: mine}, self.own_seat)
            return self.divergence
        if len(reports) >= self.players - 1:
            self.reports.pop(index, None)  # settled: everyone agrees (a 1-seat table: at once)
            self.settled.add(index)
        return None
