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
  has been handled, so the state hash is compared then: the hash after the cards shown to
  everyone at that point, as the peer computed it when it sealed the entry.

The same replay serves a peer that resumes (`hedgerow resume`: with its secret, so that its
`Sealing` goes on from there) and anyone who verifies a finished log (`hedgerow replay
--verify`: with no secret, every pass and key from the records, and the verdict once every
secret is disclosed, `hedgerow.net.sealverify`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hedgerow.core.errors import Refusal, RulesError
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.sealedtable import SealedTable, Waiting
from hedgerow.core.table import Applied
from hedgerow.net import mentalpoker as mp
from hedgerow.net.logfile import LogReadResult, Mismatch
from hedgerow.net.messages import (
    SealBody,
    SealRecord,
)
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
    try:
        table = SealedTable(ruleset, header.players, header.seed, seats=seats)
    except RulesError as exc:
        return SealedReplay(None, None, 0, Mismatch("refused", 0, f"the rules failed: {exc}"))
    out = Silent()
    sealing = Sealing(table, table_id=header.table_id, parties=parties, me=me,
                      secret=mp.PeerSecret(secret) if secret is not None else None,
                      party_of=party_of, out=out)
    logged = list(result.entries)
    made: dict[int, Applied] = {}
    history: list[Applied] = []
    state = _State()

    def take(applied: Sequence[Applied]) -> None:
        made.update((a.entry.index, a) for a in applied)

    take(table.opening)  # chance the table resolved as it was built (no deck to shuffle)

    def feed_record(record: SealRecord) -> Mismatch | None:
        body = record.body
        refused = sealing.on_body(record.party, body)
        sealing.pump()  # (a pass for a deck not registered yet is only held by `on_body`)
        if refused is not None:
            return Mismatch("refused", None, f"a sealed record is refused: {refused}")
        if out.problem is not None:
            return Mismatch("refused", None, out.problem)
        return None

    def apply_next(upto: int) -> Mismatch | None:
        """Feed the next logged entry, up to entry ``upto``, that the table has not made
        itself."""
        while state.next < len(logged) and logged[state.next].index < table.index:
            state.next += 1  # a chance entry the table made itself: compared in check
        if state.next >= len(logged) or state.next > upto:
            return None
        item = logged[state.next]
        state.next += 1
        entry = item.entry
        if entry.is_chance:
            return Mismatch("refused", entry.index, "a chance entry the table did not resolve "
                                                    "(its shuffle is missing from the log)")
        faces = sealing.open_attached(party_of(entry.seat), item.reveals) if item.reveals \
            else {}
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
        take(done)
        return None

    def check(upto: int) -> Mismatch | None:
        """Compare every made entry up to ``upto`` with the log."""
        while state.checked <= upto and state.checked in made:
            applied, item = made.pop(state.checked), logged[state.checked]
            entry = item.entry
            if (applied.entry.seat, applied.entry.action) != (entry.seat, entry.action):
                return Mismatch("refused", state.checked,
                                f"the log has {entry.action} where the table has "
                                f"{applied.entry.action}")
            if applied.entry.digest != entry.digest:
                return Mismatch("digest", state.checked,
                                "the replayed entry's digest differs from the log's",
                                entry.digest, applied.entry.digest)
            after = table.state if entry.index == table.index - 1 else applied.after
            actual = table.entry_hash(applied.entry, after)
            if actual != item.state_hash:
                return Mismatch("state_hash", state.checked,
                                f"the state hash after entry #{entry.index} is {actual.hex()}, "
                                f"the log says {item.state_hash.hex()}",
                                item.state_hash, actual)
            history.append(applied)
            state.checked += 1
        return None

    mismatch: Mismatch | None = None
    for kind, position, record in _file_order(result):
        if kind == "record":
            assert record is not None
            while table.index < record.index and state.next < len(logged):
                mismatch = apply_next(len(logged) - 1)
                take(out.entries)
                out.entries.clear()
                if mismatch is not None:
                    break
            if mismatch is None:
                mismatch = feed_record(record)
        else:
            while state.next <= position and state.next < len(logged):
                mismatch = apply_next(position)
                if mismatch is not None:
                    break
            sealing.pump()
        take(out.entries)
        out.entries.clear()
        if mismatch is None and kind == "entry":
            mismatch = check(position)
        if mismatch is not None:
            break
    if mismatch is None:
        take(out.entries)
        out.entries.clear()
        mismatch = check(len(logged) - 1)
    unlogged = tuple(made[i] for i in sorted(made) if i >= len(logged))
    in_log = [record.body for _, record in result.seals]
    own = tuple((body, party) for body, party in out.kept
                if me >= 0 and party == me and body not in in_log)
    return SealedReplay(table, sealing, state.checked, mismatch,
                        () if mismatch is not None else unlogged, history, own)


@dataclass
class _State:
    next: int = 0  # the next logged entry to feed
    checked: int = 0  # entries compared with the log


def _file_order(result: LogReadResult) -> list[tuple[str, int, SealRecord | None]]:
    """Entries (by index) and records in the order the file holds them."""
    out: list[tuple[str, int, SealRecord | None]] = []
    seals = list(result.seals)
    at = 0
    for index in range(len(result.entries)):
        while at < len(seals) and seals[at][0] <= index:
            out.append(("record", at, seals[at][1]))
            at += 1
        out.append(("entry", index, None))
    out += [("record", i, record) for i, (_, record) in enumerate(seals[at:], start=at)]
    return out



def is_sealed(result: LogReadResult) -> bool:
    """True for the log of a sealed table: networked, two seats or more, not an open deck."""
    from hedgerow.net.rulesmatch import split_deck

    header = result.header
    return (header is not None and bool(header.table_id) and header.players > 1
            and not split_deck(header.fingerprint)[1])
