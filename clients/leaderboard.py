"""The weekly leaderboard of solo games: the store every machine keeps, ISO weeks, standings.

The board is shared (docs/leaderboard.md): every machine keeps, in one SQLite file in the user
data directory (`hedgerow.core.datadir.leaderboard_path`), the signed game records
(`hedgerow.net.boardrecord.GameRecord`) it has verified, its own and those received from
other machines, one row per record, and computes each week's standings from them.  A row is
written only after `hedgerow.clients.leaderboard_check.check_record` proved it: signed by its
player's key, dealt from the board's seed for its slot, and replayed with the installed rules.

* `IsoWeek`: ``YYYY-Www`` as ISO 8601 defines it (weeks start on Monday; week 1 holds the
  year's first Thursday), parsed with a clear error, or taken from a moment in UTC.
* `Leaderboard`: the store: `Leaderboard.add` a checked record (one slot, one game: a
  later record of the same game replaces an earlier one; two different games in one slot
  are both kept and the slot counts the floor), `Leaderboard.standings` of one board for
  one week, and what the exchange reads (`index`, `ids`, `records`) and keeps (`saw`,
  refusal counts).

The current time is never read inside: callers pass moments, or a ``clock`` (`utc_now` by
default) that tests replace with a fixed one.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from enum import Enum
from pathlib import Path
from types import TracebackType
from typing import Any

from hedgerow.clients.leaderboard_check import Checked, Refused, board_name
from hedgerow.core.datadir import leaderboard_path
from hedgerow.core.errors import HedgerowError
from hedgerow.core.game import GameSpec
from hedgerow.net.boardrecord import GameRecord
from hedgerow.net.boardwire import MAX_GROUPS, Group, decode_game, encode_game, group_digest
from hedgerow.net.keys import key_text

__all__ = ["Added", "Clock", "IsoWeek", "Leaderboard", "Refused", "Standing", "board_name",
           "boards", "fingerprint", "leaderboard_command", "utc_now"]

#: The store's layout version (SQLite ``user_version``).  Layout 1 (before the shared board)
#: had only the ``games`` table; it is kept as it was (docs/leaderboard.md, "The file").
SCHEMA = 2

Clock = Callable[[], datetime]

_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS records (
    record_id   BLOB PRIMARY KEY,   -- GameRecord.id (32 bytes)
    player      BLOB NOT NULL,      -- the player's public key (32 bytes)
    game        TEXT NOT NULL,      -- "flowers"
    variants    TEXT NOT NULL,      -- sorted variant names joined by "+", "" for none
    week        TEXT NOT NULL,      -- the deal's ISO week, "2026-W49"
    number      INTEGER NOT NULL,   -- the player's game number in that week, from 0
    name        TEXT NOT NULL,      -- the name the log gives the player
    fingerprint TEXT NOT NULL,      -- the rules with their versions
    over        INTEGER NOT NULL,   -- 1: the game is over; 0: unfinished
    score       INTEGER NOT NULL,   -- the replayed score (the floor when unfinished)
    rank        TEXT NOT NULL,      -- the replayed rank ("Expert", "unfinished")
    floor       INTEGER NOT NULL,   -- what an unfinished or missing game of the board counts
    genesis     BLOB NOT NULL,      -- the chain's start (rules and seed)
    chain       BLOB NOT NULL,      -- every logged entry's digest, 32 bytes each
    received_at TEXT NOT NULL,      -- ISO 8601 in UTC
    via         TEXT NOT NULL,      -- "here" (played on this machine) or the peer's address
    record      BLOB NOT NULL       -- the record as BoardGame bytes (docs/protocol.md §11)
);
CREATE INDEX IF NOT EXISTS records_by_group ON records (game, variants, week, player, number);
CREATE TABLE IF NOT EXISTS seen (
    player      BLOB PRIMARY KEY,   -- a key whose own machine this one exchanged with
    address     TEXT NOT NULL,      -- that machine's address
    at          TEXT NOT NULL       -- ISO 8601 in UTC
);
CREATE TABLE IF NOT EXISTS own_logs (
    player      BLOB NOT NULL,      -- this machine's player key
    week        TEXT NOT NULL,
    number      INTEGER NOT NULL,   -- an unfinished game of that key ...
    path        TEXT NOT NULL,      -- ... and the log file its seat writes
    PRIMARY KEY (player, week, number)
);
CREATE TABLE IF NOT EXISTS refusals (
    sender      BLOB NOT NULL,      -- the machine's key (its CURVE key on the link)
    week        TEXT NOT NULL,      -- the week (of this machine's clock) they count in
    count       INTEGER NOT NULL,
    PRIMARY KEY (sender, week)
);
CREATE TABLE IF NOT EXISTS refused_records (
    record_id   BLOB PRIMARY KEY,   -- a record refused here: never asked for again
    why         TEXT NOT NULL
);
"""

#: Senders whose refusals are counted in one week (the fewest-refused go first beyond it).
MAX_SENDERS = 4096
#: Refused record ids remembered (the oldest go first beyond it).
MAX_REFUSED_RECORDS = 10_000

_WEEK = re.compile(r"(\d{4})-W(\d{2})", re.IGNORECASE)


def utc_now() -> datetime:
    """The current moment in UTC (the default clock)."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True, order=True)
class IsoWeek:
    """One ISO 8601 week: ``IsoWeek(2026, 53)`` is Mon 28 Dec 2026 to Sun 3 Jan 2027."""

    year: int
    week: int

    @classmethod
    def parse(cls, text: str) -> IsoWeek:
        """``"2026-W49"`` -> ``IsoWeek(2026, 49)``; `HedgerowError` for anything else."""
        match = _WEEK.fullmatch(text.strip())
        if match is None:
            raise HedgerowError(f"--week takes an ISO week such as 2026-W49, not {text!r}",
                                code="bad_week")
        year, week = int(match[1]), int(match[2])
        weeks = cls.weeks_in(year) if 1 <= year <= 9998 else 0
        if not 1 <= week <= weeks:
            raise HedgerowError(f"{text} is not a week: {year} has weeks W01 to W{weeks:02d}"
                                if weeks else f"{text} is not a week of a supported year",
                                code="bad_week")
        return cls(year, week)

    @staticmethod
    def weeks_in(year: int) -> int:
        """52 or 53: the number of ISO weeks of ``year`` (28 December is always in the last)."""
        return date(year, 12, 28).isocalendar().week

    @classmethod
    def of(cls, moment: datetime) -> IsoWeek:
        """The week ``moment`` falls in, read in UTC (a naive moment is refused)."""
        year, week, _ = _utc(moment).isocalendar()
        return cls(year, week)

    @property
    def monday(self) -> date:
        """The week's first day."""
        return date.fromisocalendar(self.year, self.week, 1)

    @property
    def sunday(self) -> date:
        """The week's last day."""
        return self.monday + timedelta(days=6)

    def __str__(self) -> str:
        return f"{self.year:04d}-W{self.week:02d}"


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("a leaderboard moment must carry its time zone (use UTC)")
    return moment.astimezone(UTC)




#: Characters of a key's fingerprint on the board: 48 bits, so that making a key with the
#: fingerprint of someone else's (to pass for them) takes about 2**47 tries.
FINGERPRINT_CHARS = 8


def fingerprint(player: bytes) -> str:
    """A key's short fingerprint as the board shows it: its first 8 characters of base64url
    (the key as `hedgerow.net.keys.key_text` writes it)."""
    return key_text(player)[:FINGERPRINT_CHARS]


class Added(Enum):
    """What `Leaderboard.add` did with a record."""

    NEW = "new"            # the first record of its slot
    REPLACED = "replaced"  # it continues the slot's record (more of the same game)
    HELD = "held"          # nothing new: this record, or a longer one of its game, is kept
    CONFLICT = "conflict"  # a second, different game in one slot: both kept, the slot floors


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line on a board for one week.

    ``place`` is 1 for the best average (players on the same average share a place).
    ``games`` counts every game of the week's sequence up to the player's last one held
    here: ``verified`` of them are finished logs replayed here; the others (unfinished,
    not received, or a slot played twice) count the board's floor.  ``best``/``rank`` are
    the best finished game's (None without one).  ``seen`` is where the player's own
    machine was last seen and when, or the address the latest record came from.
    """

    place: int
    player: bytes
    name: str
    games: int
    verified: int
    total: int
    best: int | None
    rank: str | None
    seen: str
    seen_at: datetime | None

    @property
    def average(self) -> float:
        """The mean score of the week's games."""
        return self.total / self.games

    @property
    def fingerprint(self) -> str:
        """The key's short fingerprint."""
        return fingerprint(self.player)

    def data(self) -> dict[str, Any]:
        """JSON-ready (the average rounded to 2 decimals; ``total`` gives it exactly)."""
        return {"place": self.place, "player": self.name, "key": key_text(self.player),
                "fingerprint": self.fingerprint, "games": self.games,
                "verified": self.verified, "average": round(self.average, 2),
                "total": self.total, "best": self.best, "best_rank": self.rank,
                "seen": self.seen,
                "seen_at": self.seen_at.isoformat() if self.seen_at else None}


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


class Leaderboard:
    """The store in one SQLite file.

    ``Leaderboard(path)`` opens it, creating the file and its tables when missing (and
    adding layout 2's tables to a layout-1 file); with ``create=False`` a missing file reads
    as an empty store and nothing is written.  A file that is not a leaderboard (or is from
    a newer Hedgerow) raises `HedgerowError`.
    """

    def __init__(self, path: Path | None = None, *, create: bool = True) -> None:
        self.path = path if path is not None else leaderboard_path()
        self._db: sqlite3.Connection | None = None
        self._fresh = False
        if not create and not self.path.exists():
            return
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, timeout=10)
            else:
                self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                           timeout=10)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA:
                raise HedgerowError(f"{self.path} was written by a newer Hedgerow "
                                    f"(layout {version}, this one reads {SCHEMA})")
            if version < SCHEMA:
                if not create:  # an older file read only: nothing of the shared board yet
                    self._fresh = True
                    return
                with self._db:
                    self._db.executescript(_SCHEMA_SQL)
                    self._db.execute(f"PRAGMA user_version = {SCHEMA}")
        except sqlite3.Error as exc:
            self.close()
            raise HedgerowError(f"cannot use the leaderboard {self.path}: {exc}") from None
        except HedgerowError:
            self.close()
            raise

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Leaderboard:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- reading -------------------------------------------------------------------------

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[Any]:
        if self._db is None or self._fresh:
            return []
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise HedgerowError(f"cannot read the leaderboard {self.path}: {exc}") from None

    def _write(self, sql: str, params: Sequence[object] = ()) -> None:
        db = self._require()
        try:
            with db:
                db.execute(sql, params)
        except sqlite3.Error as exc:
            raise HedgerowError(f"cannot write the leaderboard {self.path}: {exc}") from None

    def _require(self) -> sqlite3.Connection:
        if self._db is None or self._fresh:
            raise HedgerowError(f"the leaderboard {self.path} is not open for writing")
        return self._db

    def held(self, record_id: bytes) -> bool:
        """Whether the record ``record_id`` is kept here."""
        return bool(self._rows("SELECT 1 FROM records WHERE record_id = ?", (record_id,)))

    def next_number(self, player: bytes, game: str, variants: Sequence[str],
                    week: IsoWeek) -> int:
        """The number of ``player``'s next game of ``week`` on that board: one more than the
        highest held here (from this machine or received), 0 for the first."""
        rows = self._rows("SELECT MAX(number) FROM records WHERE player = ? AND game = ? "
                          "AND variants = ? AND week = ?",
                          (player, game, board_name(variants), str(week)))
        top = rows[0][0] if rows else None
        return 0 if top is None else top + 1

    def slot_of(self, player: bytes, seed_of: Callable[[str, str, str, int], bytes],
                seed: bytes) -> tuple[str, int] | None:
        """The (week, number) of ``player``'s held slot whose deal is ``seed``, asking
        ``seed_of(game, variants, week, number)`` for each; None if no held slot is."""
        for game, variants, week, number in self._rows(
                "SELECT DISTINCT game, variants, week, number FROM records WHERE player = ? "
                "ORDER BY week DESC, number DESC", (player,)):
            if seed_of(game, variants, week, number) == seed:
                return week, number
        return None

    def records(self, ids: Iterable[bytes]) -> list[GameRecord]:
        """The held records among ``ids``, in the order asked."""
        found = []
        for record_id in ids:
            rows = self._rows("SELECT record FROM records WHERE record_id = ?", (record_id,))
            if rows:
                found.append(decode_game(rows[0][0]))
        return found

    def index(self, limit: int = MAX_GROUPS) -> list[Group]:
        """Every group held (player, board, week), with its count and digest: the latest
        weeks first, at most ``limit``."""
        rows = self._rows("SELECT game, variants, week, player, record_id FROM records "
                          "ORDER BY week DESC, game, variants, player")
        groups: dict[tuple[str, str, str, bytes], list[bytes]] = {}
        for game, variants, week, player, record_id in rows:
            key = (game, variants, week, player)
            if key not in groups and len(groups) >= limit:
                continue
            groups.setdefault(key, []).append(record_id)
        return [Group(*key, count=len(ids), digest=group_digest(ids))
                for key, ids in groups.items()]

    def ids(self, groups: Iterable[Group]) -> list[Group]:
        """The asked ``groups`` that are held, each with its ids (ascending)."""
        found = []
        for group in groups:
            rows = self._rows("SELECT record_id FROM records WHERE game = ? AND variants = ? "
                              "AND week = ? AND player = ? ORDER BY record_id", group.key)
            ids = tuple(row[0] for row in rows)
            if ids:
                found.append(Group(*group.key, count=len(ids), digest=group_digest(ids),
                                   ids=ids))
        return found

    # -- adding --------------------------------------------------------------------------

    def add(self, record: GameRecord, checked: Checked, *, via: str, at: datetime) -> Added:
        """Keep ``record``, which `check_record` proved as ``checked``: what was done.
        `Refused` (nothing written) for the same game as a held one under another name."""
        db = self._require()
        board = board_name(checked.variants)
        slot = (record.player, checked.game, board, record.week, record.number)
        held = self._rows("SELECT record_id, name, genesis, chain FROM records WHERE "
                          "player = ? AND game = ? AND variants = ? AND week = ? AND number = ?",
                          slot)
        record_id = record.id
        if any(row[0] == record_id for row in held):
            return Added.HELD
        others = [Checked("", checked.game, checked.variants, "", name, 0, "", True, 0, b"",
                          genesis, tuple(chain[i:i + 32] for i in range(0, len(chain), 32)))
                  for _, name, genesis, chain in held]
        if any(other.continues(checked) for other in others):
            return Added.HELD  # this record, or a longer one of its game, is kept
        drop = [row[0] for row, other in zip(held, others, strict=True)
                if checked.continues(other)]
        for other in others:
            if not drop and (other.genesis, other.chain) == (checked.genesis, checked.chain):
                raise Refused(f"this game is already on the board as {other.player!r}: a "
                              "game counts once, under one name")
        outcome = Added.NEW if not held else Added.REPLACED if drop else Added.CONFLICT
        if len(held) - len(drop) >= 2:  # a slot played twice keeps its two lowest ids
            highest = max(row[0] for row in held)
            if record_id > highest:
                return Added.HELD
            drop = [highest]
        if len(held) >= 2 and outcome is Added.REPLACED:
            outcome = Added.CONFLICT
        moment = _utc(at).replace(microsecond=0).isoformat()
        try:
            with db:
                for old in drop:
                    db.execute("DELETE FROM records WHERE record_id = ?", (old,))
                db.execute(
                    "INSERT INTO records (record_id, player, game, variants, week, number, "
                    "name, fingerprint, over, score, rank, floor, genesis, chain, received_at, "
                    "via, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (record_id, record.player, checked.game, board, record.week, record.number,
                     checked.player, checked.fingerprint, int(checked.over), checked.score,
                     checked.rank, checked.floor, checked.genesis, b"".join(checked.chain), moment,
                     via, encode_game(record)))
        except sqlite3.Error as exc:
            raise HedgerowError(f"cannot write the leaderboard {self.path}: {exc}") from None
        return outcome

    def saw(self, player: bytes, address: str, at: datetime) -> None:
        """Remember that the machine of ``player``'s key was at ``address`` at ``at``."""
        self._write("INSERT INTO seen (player, address, at) VALUES (?, ?, ?) ON CONFLICT "
                    "(player) DO UPDATE SET address = excluded.address, at = excluded.at",
                    (player, address, _utc(at).replace(microsecond=0).isoformat()))

    def remember_log(self, player: bytes, week: str, number: int, path: Path) -> None:
        """Keep where the log of ``player``'s unfinished game ``number`` of ``week`` is."""
        self._write("INSERT OR REPLACE INTO own_logs (player, week, number, path) "
                    "VALUES (?, ?, ?, ?)", (player, week, number, str(path)))

    def forget_log(self, player: bytes, week: str, number: int) -> None:
        """Forget the log of a game that is over (`remember_log`)."""
        self._write("DELETE FROM own_logs WHERE player = ? AND week = ? AND number = ?",
                    (player, week, number))

    def own_logs(self, player: bytes) -> list[tuple[str, int, Path]]:
        """(week, number, log path) of ``player``'s unfinished games played here."""
        return [(w, n, Path(p)) for w, n, p in self._rows(
            "SELECT week, number, path FROM own_logs WHERE player = ? ORDER BY week, number",
            (player,))]

    def refusals(self, sender: bytes, week: IsoWeek) -> int:
        """How many records from ``sender`` were refused in ``week``."""
        rows = self._rows("SELECT count FROM refusals WHERE sender = ? AND week = ?",
                          (sender, str(week)))
        return int(rows[0][0]) if rows else 0

    def refused(self, sender: bytes, week: IsoWeek) -> int:
        """Count one refused record or request from ``sender`` in ``week``; the new count.

        Only ``week``'s counts are kept (a sender is ignored for one week), for at most
        `MAX_SENDERS` senders: beyond, the sender refused least often is forgotten, so that
        strangers with ever new keys cannot grow the file."""
        db = self._require()
        try:
            with db:
                db.execute("DELETE FROM refusals WHERE week != ?", (str(week),))
                db.execute("INSERT INTO refusals (sender, week, count) VALUES (?, ?, 1) ON "
                           "CONFLICT (sender, week) DO UPDATE SET count = count + 1",
                           (sender, str(week)))
                db.execute("DELETE FROM refusals WHERE rowid IN (SELECT rowid FROM refusals "
                           "ORDER BY count DESC, rowid DESC LIMIT -1 OFFSET ?)",
                           (MAX_SENDERS,))
        except sqlite3.Error as exc:
            raise HedgerowError(f"cannot write the leaderboard {self.path}: {exc}") from None
        return self.refusals(sender, week)

    def refuse_record(self, record_id: bytes, why: str) -> None:
        """Remember that the record ``record_id`` was refused here (`was_refused`), for the
        latest `MAX_REFUSED_RECORDS` records."""
        db = self._require()
        try:
            with db:
                db.execute("INSERT OR REPLACE INTO refused_records (record_id, why) "
                           "VALUES (?, ?)", (record_id, why[:200]))
                db.execute("DELETE FROM refused_records WHERE rowid IN (SELECT rowid FROM "
                           "refused_records ORDER BY rowid DESC LIMIT -1 OFFSET ?)",
                           (MAX_REFUSED_RECORDS,))
        except sqlite3.Error as exc:
            raise HedgerowError(f"cannot write the leaderboard {self.path}: {exc}") from None

    def was_refused(self, record_id: bytes) -> bool:
        """Whether the record ``record_id`` was refused here (`refuse_record`)."""
        return bool(self._rows("SELECT 1 FROM refused_records WHERE record_id = ?",
                               (record_id,)))

    # -- standings -----------------------------------------------------------------------

    def standings(self, game: str, variants: Sequence[str], week: IsoWeek, *,
                  player: bytes | None = None) -> list[Standing]:
        """Each player's line for ``week`` on the board of ``game`` with ``variants`` (only
        ``player``'s, when given), best average first (then best score, more games, name,
        key)."""
        rows = self._rows(
            "SELECT player, number, over, score, rank, floor, via, received_at FROM records "
            "WHERE game = ? AND variants = ? AND week = ? ORDER BY player, number",
            (game, board_name(variants), str(week)))
        slots: dict[bytes, dict[int, list[tuple[int, int, str, int]]]] = {}
        latest: dict[bytes, tuple[str, str]] = {}
        for key, number, over, score, rank, floor, via, received in rows:
            if player is not None and key != player:
                continue
            slots.setdefault(key, {}).setdefault(number, []).append((over, score, rank, floor))
            if key not in latest or received > latest[key][1]:
                latest[key] = (via, received)
        lines = []
        for key, held in slots.items():
            floor = next(iter(held.values()))[0][3]
            count = max(held) + 1
            scores: list[int] = []
            finished: list[tuple[int, str]] = []
            for number in range(count):
                games = held.get(number, [])
                if len(games) == 1 and games[0][0]:
                    scores.append(games[0][1])
                    finished.append((games[0][1], games[0][2]))
                else:  # unfinished, not received, or played twice
                    scores.append(floor)
            best = max(finished, default=None)
            seen, seen_at = self._seen(key, latest[key])
            lines.append((self.name_of(key), key, count, len(finished), sum(scores), best,
                          seen, seen_at))
        lines.sort(key=lambda x: (-x[4] / x[2], -(x[5][0] if x[5] else -2**62), -x[2],
                                  x[0], x[1]))
        result: list[Standing] = []
        for name, key, count, verified, total, best, seen, seen_at in lines:
            ahead = sum(1 for other in lines if other[4] / other[2] > total / count)
            result.append(Standing(ahead + 1, key, name, count, verified, total,
                                   best[0] if best else None, best[1] if best else None,
                                   seen, seen_at))
        return result

    def name_of(self, player: bytes) -> str:
        """The name ``player``'s key last used: the one in its latest game (by week, then
        game number)."""
        rows = self._rows("SELECT name FROM records WHERE player = ? ORDER BY week DESC, "
                          "number DESC, over DESC, record_id LIMIT 1", (player,))
        return rows[0][0] if rows else "?"

    def _seen(self, player: bytes, latest: tuple[str, str]) -> tuple[str, datetime | None]:
        rows = self._rows("SELECT address, at FROM seen WHERE player = ?", (player,))
        if rows:
            return rows[0][0], _moment(rows[0][1])
        via, received = latest
        return ("this machine" if via == "here" else f"via {via}"), _moment(received)


def boards(games: Mapping[str, GameSpec]) -> tuple[str, ...]:
    """The games (of ``games``, by name) with a weekly leaderboard of solo games, sorted:
    those whose spec declares one (``GameSpec.leaderboard``)."""
    return tuple(sorted(name for name, spec in games.items() if spec.leaderboard))


def leaderboard_command(game: str, variants: Sequence[str]) -> str:
    """The command that shows the board of ``game`` with ``variants``."""
    return " ".join(["hedgerow leaderboard", game, *(f"--variant {v}" for v in variants)])
