"""Desync detection: every peer's state hash after every log entry, compared with ours.

After sealing log entry ``i`` (an action or chance) each peer sends ``StateHash(i, h)`` to
every other.  The book keeps this peer's own hash per index and the reports of others; the
first report that differs from ours stops the table.  Who diverged is decided by the
majority of the hashes known for that index (this peer's included), so every honest peer
names the same seat; with no majority (two seats, or an even split) every disagreeing seat
is named.
"""

from __future__ import annotations

from collections import Counter
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
        self.reports.setdefault(index, {})[seat] = state_hash
        return self._check(index)

    def _saw(self, seat: int, index: int) -> None:
        if index > self.latest.get(seat, -1):
            self.latest[seat] = index

    def reported(self, seat: int, index: int) -> bool:
        """True when ``seat`` reported a hash for ``index`` or a later one."""
        return self.latest.get(seat, -1) >= index

    def _check(self, index: int) -> Divergence | None:
        if index >= len(self.own):
            return None
        mine = self.own[index]
        reports = self.reports.get(index, {})
        if self.divergence is not None:
            if self.divergence.index == index:  # a later report refines who is named
                self.divergence = Divergence(index, {**reports, self.own_seat: mine},
                                             self.own_seat)
            return self.divergence
        if any(h != mine for h in reports.values()):
            self.divergence = Divergence(index, {**reports, self.own_seat: mine}, self.own_seat)
            return self.divergence
        if len(reports) >= self.players - 1:
            self.reports.pop(index, None)  # settled: everyone agrees (a 1-seat table: at once)
            self.settled.add(index)
        return None
