"""Replaying a sealed table's log: the entries and the sealed records, each at its point.

A sealed log (format 4, docs/protocol.md §10.8) holds the table's entries and, between them,
the `SealRecord`s this peer made or received: shuffle passes, card keys, escrow, disclosed
secrets, each with the log index this peer had reached when it handled it.  Replaying means
doing again what the peer did, in the same order:

* records are handed to a `Sealing` in file order, each once the table has reached its
  index (a record kept after the table applied entry ``i`` waits until the replay has
  applied entry ``i`` too: the cards it opens are the ones entry ``i`` dealt);
* each entry is fed to the table (`SealedTable.follow`) with the cards its action showed
  (``LoggedEntry.reveals``); chance entries are made by the table itself once the
  shuffle's passes are in, and compared with the log's;
* when the replay reaches an entry's record in the file, every record written before it
  has been handled, so the state hash is compared then: the hash of the public state at
  the entry's resting point (docs/protocol.md §10.4, `Sealing.hash_after`), as every peer
  computes it however late it sealed the entry (the cards of a read round for the next
  action, logged before the entry by a peer that sealed it late, are not in it).

The same replay serves a peer that resumes (`hedgerow resume`: with its secret, so that its
`Sealing` goes on from there) and anyone who verifies a finished log (`hedgerow replay
--verify`: with no secret, every pass and key from the records, and the verdict once every
secret is disclosed, `hedgerow.net.sealverify`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hedgerow.core.errors import Refusal, RulesError
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.sealedtable import SealedTable, Waiting
from hedgerow.core.table import Applied
from hedgerow.net import mentalpoker as mp
from hedgerow.net.logfile import LogReadResult, Mismatch
from hedgerow.net.messages import LoggedEntry, LogHeader, SealBody, SealRecord
from hedgerow.net.sealing import Sealing


class Silent:
    """A `SealOut` that sends nothing (a replay does not speak); it keeps what it was asked
    to halt for, the entries the table added, and what the replayed party was asked to keep
    in the log (to tell what it made that the log lacks)."""

    def __init__(self) -> None:
        self.problem: str | None = None
        self.entries: list[Applied] = []
        self.kept: list[tuple[SealBody, int]] = []

    def send(self, party: int, body: SealBody) -> None:
        pass

    def broadcast(self, body: SealBody) -> None:
        pass

    def halt(self, message: str, party: int | None) -> None:
        if self.problem is None:
            self.problem = message if party is None else f"party {party}: {message}"

    def keep(self, body: SealBody, party: int) -> None:
        self.kept.append((body, party))

    def applied(self, entries: Sequence[Applied]) -> None:
        self.entries.extend(entries)

    def opened(self) -> None:
        pass

    def recovered(self, party: int) -> None:
        pass


@dataclass
class SealedReplay:
    """What replaying a sealed log gave: the table and its `Sealing` (to go on from), how
    many entries checked out, the first mismatch, and the entries the table added after
    the last logged one (chance resolved once its shuffle was in, not sealed yet)."""

    table: SealedTable | None
    sealing: Sealing | None
    applied: int
    mismatch: Mismatch | None
    unlogged: tuple[Applied, ...] = ()
    history: list[Applied] = field(default_factory=list)
    made: tuple[tuple[SealBody, int], ...] = ()
    """What the resuming party made as its log was replayed that the log does not hold
    (a pass it sent, or was about to send, when its process died): its peer writes them to
    the log as it goes on (`SealPlay.start`), as it would have."""


def replay_sealed(ruleset: Ruleset, result: LogReadResult, *, parties: int,
                  party_of: Callable[[int], int], me: int = -1, secret: bytes | None = None,
                  seats: Sequence[int] = ()) -> SealedReplay:
    """Replay the sealed log ``result`` (see the module docstring).  ``me`` and ``secret``
    are this peer's party and secret when it resumes (-1 and None to verify a log)."""
    header = result.header
    assert header is not None
    follower = SealedFollower(ruleset, header, parties=parties, party_of=party_of, me=me,
                              secret=secret, seats=seats)
    seals = list(result.seals)
    at = 0
    for item in result.entries:
        while at < len(seals) and seals[at][0] <= item.index:
            follower.record(seals[at][1])
            at += 1
        follower.entry(item)
    for _, record in seals[at:]:
        follower.record(record)
    return follower.finish()


class SealedFollower:
    """A sealed log replayed as its records come, in file order (`entry`, `record`), then
    `finish`: what `replay_sealed` does with a whole file, and what a spectator does with
    the records a host streams to it (docs/protocol.md §3.4).

    A record is handled once the table has reached its index: when the entries it waits
    for have not come yet, it waits for them (and every item after it waits behind it),
    until `finish`, which handles what is left as the end of the file would.  ``history``
    holds every entry checked so far, ``mismatch`` the first problem (nothing is fed after
    it), ``table`` the public state as far as it goes.
    """

    def __init__(self, ruleset: Ruleset, header: LogHeader, *, parties: int,
                 party_of: Callable[[int], int], me: int = -1, secret: bytes | None = None,
                 seats: Sequence[int] = ()) -> None:
        self.me = me
        self.party_of = party_of
        self.mismatch: Mismatch | None = None
        self.history: list[Applied] = []
        self.logged: list[LoggedEntry] = []
        self.out = Silent()
        self._made: dict[int, Applied] = {}
        self._queue: deque[tuple[int, SealRecord | None]] = deque()  # (entry position, record)
        self._in_log: list[SealBody] = []
        self._next = 0  # the next logged entry to feed
        self._checked = 0  # entries compared with the log
        self.table: SealedTable | None
        self.sealing: Sealing | None
        try:
            self.table = SealedTable(ruleset, header.players, header.seed, seats=seats)
        except RulesError as exc:
            self.table = self.sealing = None
            self.mismatch = Mismatch("refused", 0, f"the rules failed: {exc}")
            return
        self.sealing = Sealing(self.table, table_id=header.table_id, parties=parties, me=me,
                               secret=mp.PeerSecret(secret) if secret is not None else None,
                               party_of=party_of, out=self.out)
        self._take(self.table.opening)  # chance resolved as the table was built (no deck)

    # -- feeding ------------------------------------------------------------------------

    def entry(self, item: LoggedEntry) -> None:
        """The next entry record of the file."""
        self.logged.append(item)
        self._queue.append((len(self.logged) - 1, None))
        self._run(final=False)

    def record(self, record: SealRecord) -> None:
        """The next sealed record of the file."""
        self._in_log.append(record.body)
        self._queue.append((-1, record))
        self._run(final=False)

    def finish(self) -> SealedReplay:
        """The end of the file: what is still waiting is handled, and the replay's result."""
        self._run(final=True)
        if self.mismatch is None:
            self._collect()
            self.mismatch = self._check(len(self.logged) - 1)
        made = self._made
        unlogged = tuple(made[i] for i in sorted(made) if i >= len(self.logged))
        own = tuple((body, party) for body, party in self.out.kept
                    if self.me >= 0 and party == self.me and body not in self._in_log)
        return SealedReplay(self.table, self.sealing, self._checked, self.mismatch,
                            () if self.mismatch is not None else unlogged, self.history, own)

    def _run(self, *, final: bool) -> None:
        table, sealing = self.table, self.sealing
        while self._queue and self.mismatch is None:
            assert table is not None and sealing is not None
            position, record = self._queue[0]
            mismatch = None
            if record is not None:
                while table.index < record.index and self._next < len(self.logged):
                    mismatch = self._apply_next(len(self.logged) - 1)
                    self._collect()
                    if mismatch is not None:
                        break
                if mismatch is None and table.index < record.index and not final:
                    return  # its entries are still to come
                if mismatch is None:
                    mismatch = self._feed_record(record)
            else:
                while self._next <= position and self._next < len(self.logged):
                    mismatch = self._apply_next(position)
                    if mismatch is not None:
                        break
                sealing.pump()
            self._collect()
            if mismatch is None and record is None:
                mismatch = self._check(position)
            self.mismatch = mismatch
            self._queue.popleft()

    def _take(self, applied: Sequence[Applied]) -> None:
        self._made.update((a.entry.index, a) for a in applied)

    def _collect(self) -> None:
        """Take the entries the table added meanwhile (chance once its shuffle was in)."""
        self._take(self.out.entries)
        self.out.entries.clear()

    def _feed_record(self, record: SealRecord) -> Mismatch | None:
        assert self.sealing is not None
        refused = self.sealing.on_body(record.party, record.body)
        self.sealing.pump()  # (a pass for a deck not registered yet is only held by on_body)
        if refused is not None:
            return Mismatch("refused", None, f"a sealed record is refused: {refused}")
        if self.out.problem is not None:
            return Mismatch("refused", None, self.out.problem)
        return None

    def _apply_next(self, upto: int) -> Mismatch | None:
        """Feed the next logged entry, up to entry ``upto``, that the table has not made
        itself."""
        table, sealing, logged = self.table, self.sealing, self.logged
        assert table is not None and sealing is not None
        while self._next < len(logged) and logged[self._next].index < table.index:
            self._next += 1  # a chance entry the table made itself: compared in _check
        if self._next >= len(logged) or self._next > upto:
            return None
        item = logged[self._next]
        self._next += 1
        entry = item.entry
        if entry.is_chance:
            return Mismatch("refused", entry.index, "a chance entry the table did not resolve "
                                                    "(its shuffle is missing from the log)")
        faces = sealing.open_attached(self.party_of(entry.seat), item.reveals) \
            if item.reveals else {}
        if isinstance(faces, str):
            return Mismatch("refused", entry.index, f"the cards its action shows: {faces}")
        try:
            done = table.follow(entry.index, entry.seat, entry.action, prev=entry.prev,
                                reveals=faces)
        except RulesError as exc:
            return Mismatch("refused", entry.index, f"the rules failed: {exc}")
        if isinstance(done, Waiting):
            return Mismatch("refused", entry.index, "the log lacks the keys of the cards "
                                                    "this entry reads")
        if isinstance(done, Refusal):
            return Mismatch("refused", entry.index,
                            f"the rules refuse {entry.action} by seat {entry.seat}: {done}")
        self._take(done)
        return None

    def _check(self, upto: int) -> Mismatch | None:
        """Compare every made entry up to ``upto`` with the log."""
        sealing = self.sealing
        assert sealing is not None
        while self._checked <= upto and self._checked in self._made:
            applied, item = self._made.pop(self._checked), self.logged[self._checked]
            entry = item.entry
            if (applied.entry.seat, applied.entry.action) != (entry.seat, entry.action):
                return Mismatch("refused", self._checked,
                                f"the log has {entry.action} where the table has "
                                f"{applied.entry.action}")
            if applied.entry.digest != entry.digest:
                return Mismatch("digest", self._checked,
                                "the replayed entry's digest differs from the log's",
                                entry.digest, applied.entry.digest)
            actual = sealing.hash_after(applied)
            if actual != item.state_hash:
                return Mismatch("state_hash", self._checked,
                                f"the state hash after entry #{entry.index} is {actual.hex()}, "
                                f"the log says {item.state_hash.hex()}",
                                item.state_hash, actual)
            self.history.append(applied)
            self._checked += 1
        return None


def is_sealed(result: LogReadResult) -> bool:
    """True for the log of a sealed table: networked, two seats or more, not an open deck."""
    from hedgerow.net.rulesmatch import split_deck

    header = result.header
    return (header is not None and bool(header.table_id) and header.players > 1
            and not split_deck(header.fingerprint)[1])
