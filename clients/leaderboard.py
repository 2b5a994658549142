"""The weekly leaderboard of solo games: the SQLite store, ISO weeks and the week's standings.

Every finished solo game of a game that declares a solo leaderboard (``GameSpec.leaderboard``:
FLOWERS; `boards` lists them) is kept in one SQLite file
in the user data directory (`hedgerow.core.datadir.leaderboard_path`), one row per game:
the player, the rules, the score and rank, the finishing moment (UTC), its ISO week and the
complete table log.  A row is only written after `hedgerow.clients.leaderboard_check`
replayed the log and reached the same score; a log counts once (its last entry's digest is
the row's unique key).  Decisions and the file's layout: docs/leaderboard.md.

* `IsoWeek`: ``YYYY-Www`` as ISO 8601 defines it (weeks start on Monday; week 1 holds the
  year's first Thursday), parsed with a clear error, or taken from a moment in UTC.
* `Leaderboard`: the store: `add` a checked game, `standings` of one board for one week.
* `submit`: check a log and add it; `record_played`: what ``hedgerow play`` calls when a
  game ends (a line to print, or None for a game no board takes).

The current time is never read inside: callers pass ``finished_at``, or a ``clock``
(`utc_now` by default) that tests replace with a fixed one.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from hedgerow.clients.leaderboard_check import Checked, Refused, check_log
from hedgerow.core.datadir import leaderboard_path
from hedgerow.core.errors import HedgerowError
from hedgerow.core.game import GameSpec
from hedgerow.core.outcome import Solo
from hedgerow.core.ruleset import Ruleset
from hedgerow.net.messages import LogHeader

if TYPE_CHECKING:
    from hedgerow.net.seat import Seat

#: The store's layout version (SQLite ``user_version``).
SCHEMA = 1

Clock = Callable[[], datetime]

_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS games (
    game_id     TEXT PRIMARY KEY,   -- the log's last entry digest (hex): one log counts once
    game        TEXT NOT NULL,      -- "flowers"
    variants    TEXT NOT NULL,      -- sorted variant names joined by "+", "" for none
    fingerprint TEXT NOT NULL,      -- the rules with their versions
    player      TEXT NOT NULL,      -- the name the log gives the seat
    score       INTEGER NOT NULL,   -- the replayed score
    rank        TEXT NOT NULL,      -- the replayed rank ("Expert")
    finished_at TEXT NOT NULL,      -- ISO 8601 in UTC, "2026-12-03T14:05:09+00:00"
    week        TEXT NOT NULL,      -- the ISO week of finished_at, "2026-W49"
    log         BLOB NOT NULL       -- the complete table log (docs/protocol.md "Log file")
);
CREATE INDEX IF NOT EXISTS games_by_week ON games (game, variants, week);
"""

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


def board_name(variants: Sequence[str]) -> str:
    """How a board's variant set is stored: sorted names joined by ``+``, ``""`` for none."""
    return "+".join(sorted(variants))


@dataclass(frozen=True, slots=True)
class Entry:
    """One accepted game: what `Checked` proved, and when it finished."""

    checked: Checked
    finished_at: datetime
    week: IsoWeek


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line on a board for one week.

    ``place`` is 1 for the best average (players on the same average share a place);
    ``rank`` is the rank their best game of the week earned.
    """

    place: int
    player: str
    games: int
    total: int
    best: int
    rank: str

    @property
    def average(self) -> float:
        """The mean score of the week's games."""
        return self.total / self.games

    def data(self) -> dict[str, Any]:
        """JSON-ready (the average rounded to 2 decimals; ``total`` gives it exactly)."""
        return {"place": self.place, "player": self.player, "games": self.games,
                "average": round(self.average, 2), "total": self.total, "best": self.best,
                "best_rank": self.rank}


class Leaderboard:
    """The store in one SQLite file.

    ``Leaderboard(path)`` opens it, creating the file and its table when missing; with
    ``create=False`` a missing file reads as an empty store and nothing is written.  A file
    that is not a leaderboard (or is from a newer Hedgerow) raises `HedgerowError`.
    """

    def __init__(self, path: Path | None = None, *, create: bool = True) -> None:
        self.path = path if path is not None else leaderboard_path()
        self._db: sqlite3.Connection | None = None
        if not create and not self.path.exists():
            return
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path)
            else:
                self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA:
                raise HedgerowError(f"{self.path} was written by a newer Hedgerow "
                                    f"(layout {version}, this one reads {SCHEMA})")
            if create and version < SCHEMA:
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

    def add(self, checked: Checked, log: bytes, finished_at: datetime) -> Entry:
        """Keep a checked game with its log; `Refused` if this game is already kept."""
        db = self._require()
        moment = _utc(finished_at).replace(microsecond=0)
        week = IsoWeek.of(moment)
        try:
            with db:
                db.execute(
                    "INSERT INTO games (game_id, game, variants, fingerprint, player, score, "
                    "rank, finished_at, week, log) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (checked.game_id, checked.game, board_name(checked.variants),
                     checked.fingerprint, checked.player, checked.score, checked.rank,
                     moment.isoformat(), str(week), log))
        except sqlite3.IntegrityError:
            row = db.execute("SELECT player, finished_at FROM games WHERE game_id = ?",
                             (checked.game_id,)).fetchone()
            who, when = row if row is not None else ("?", "?")
            raise Refused(f"this game is already on the leaderboard ({who}, finished "
                          f"{when}): a log counts once") from None
        except sqlite3.Error as exc:
            raise HedgerowError(f"cannot write the leaderboard {self.path}: {exc}") from None
        return Entry(checked, moment, week)

    def standings(self, game: str, variants: Sequence[str], week: IsoWeek) -> list[Standing]:
        """Each player's line for ``week`` on the board of ``game`` with ``variants``,
        best average first (then best score, more games, name)."""
        if self._db is None:
            return []
        try:
            rows = self._db.execute(
                "SELECT player, score, rank FROM games WHERE game = ? AND variants = ? "
                "AND week = ? ORDER BY player, score DESC",
                (game, board_name(variants), str(week))).fetchall()
        except sqlite3.Error as exc:
            raise HedgerowError(f"cannot read the leaderboard {self.path}: {exc}") from None
        players: dict[str, list[tuple[int, str]]] = {}
        for player, score, rank in rows:
            players.setdefault(player, []).append((score, rank))
        lines = [(name, len(games), sum(s for s, _ in games), games[0])
                 for name, games in players.items()]
        lines.sort(key=lambda x: (-x[2] / x[1], -x[3][0], -x[1], x[0]))
        result: list[Standing] = []
        for name, count, total, (best, rank) in lines:
            ahead = sum(1 for _, c, t, _ in lines if t / c > total / count)
            result.append(Standing(ahead + 1, name, count, total, best, rank))
        return result

    def _require(self) -> sqlite3.Connection:
        if self._db is None:
            raise HedgerowError(f"the leaderboard {self.path} is not open for writing")
        return self._db


def submit(log: bytes, rules: Callable[[LogHeader], Ruleset], *, game: str,
           finished_at: datetime, claimed: int | None = None,
           path: Path | None = None) -> Entry:
    """Check ``log`` (`check_log`) and keep it; `Refused` (nothing written) if it fails."""
    checked = check_log(log, rules, game=game, claimed=claimed)
    with Leaderboard(path) as board:
        return board.add(checked, log, finished_at)


def boards(games: Mapping[str, GameSpec]) -> tuple[str, ...]:
    """The games (of ``games``, by name) with a weekly leaderboard of solo games, sorted:
    those whose spec declares one (``GameSpec.leaderboard``)."""
    return tuple(sorted(name for name, spec in games.items() if spec.leaderboard))


def leaderboard_command(game: str, variants: Sequence[str]) -> str:
    """The command that shows the board of ``game`` with ``variants``."""
    return " ".join(["hedgerow leaderboard", game, *(f"--variant {v}" for v in variants)])


def record_played(seat: Seat, *, clock: Clock | None = None,
                  path: Path | None = None) -> str | None:
    """Keep the game ``seat`` just finished.

    Returns a line for the player (recorded, or why not), or None when no board takes the
    game: not finished, not solo, or of a game without a solo leaderboard.  The log is the
    seat's own log file (a networked seat and ``hedgerow play --local`` both write one);
    the score shown to the player is the claimed score.  ``clock`` gives the finishing
    moment (default: `utc_now`, looked up at each call).
    """
    outcome = seat.outcome()
    if not isinstance(outcome, Solo) or seat.players != 1:
        return None
    ruleset = seat.ruleset
    if not ruleset.spec.leaderboard:
        return None
    game = ruleset.spec.name
    written = seat.log_path()
    if written is None:
        return "Not recorded on the leaderboard: this seat kept no log"
    try:
        log = Path(written).read_bytes()
        entry = submit(log, lambda _header: ruleset, game=game,
                       finished_at=(clock or utc_now)(), claimed=outcome.score, path=path)
    except OSError as exc:
        return f"Not recorded on the leaderboard: cannot read the log: {exc}"
    except HedgerowError as exc:
        return f"Not recorded on the leaderboard: {exc.message}"
    checked = entry.checked
    return (f"Recorded on the leaderboard for {entry.week}: {checked.player}, "
            f"{checked.score} points ({checked.rank}). "
            f"See: {leaderboard_command(game, checked.variants)}")
