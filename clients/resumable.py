"""The tables this user can come back to: ``hedgerow resume`` without a log path.

Every networked seat leaves a log and its table file (`hedgerow.net.tablefile`) in the data
directory's ``logs/`` folder.  `find_tables` reads them (newest first) and replays each log
to tell a finished game (ended by its rules or by the table's agreement) from one still
under way; `unfinished` keeps the tables a person
played (a bot seat's log is not offered); `bots_of` finds, for a table, the unfinished logs
of the bot peers this user started for it (``hedgerow play``, the lobby), so that resuming
the person's seat brings those bots back too.  A bot's log is written in ``logs/bots``
(`hedgerow.core.datadir.bot_logs_dir`), so the list and the logs folder show the person's
own tables; `find_table_logs` finds a table's bot logs there by the table's id.
`find_open_tables` finds the tables this user hosted that were lost before their seed was
agreed (no log yet, only the host's open-table file, `hedgerow.net.openfile`), which
``hedgerow resume`` re-opens.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hedgerow.core.datadir import logs_dir
from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.messages import SeatEvent

#: How many of the newest logs are looked at (older ones can still be named on the command line).
NEWEST = 40

_BOT_KEY = re.compile(r"bot-(\d+)\.key_secret$")


@dataclass(frozen=True, slots=True)
class SavedTable:
    """One seat's log, as far as it goes."""

    log: Path
    game: str  # the table's fingerprint, e.g. petals@1.0.0 (``#open-deck`` at an open deck)
    players: int
    names: tuple[str, ...]
    own_seat: int
    table_id: bytes
    modified: float  # the log's modification time (seconds since the epoch)
    actions: int  # entries in the log (the deal included)
    outcome: Any  # the game's `Outcome` once it is over, else None
    my_turn: bool
    bot: str | None  # the strategy, when a bot played this seat
    key_file: str | None
    ended: SeatEvent | None = None  # the table's agreed end, if it agreed to end the game
    sealed: bool = False  # a sealed table's log (docs/protocol.md §10)
    #: What the check of a sealed game found with the secrets its log holds (None: not
    #: every secret is in it, or an open deck).
    checked: str | None = None

    @property
    def finished(self) -> bool:
        """The game is over: by its rules, or by the table's agreement (docs/protocol.md
        §5.9: an agreed end is an end, with no winner)."""
        return self.outcome is not None or self.ended is not None

    @property
    def bot_number(self) -> int | None:
        """For a bot peer started by `hedgerow.clients.spawn`: its number (its key file's)."""
        found = _BOT_KEY.search(self.key_file or "")
        return int(found.group(1)) if found else None


def read_table(path: Path, plugins: PluginHost) -> SavedTable:
    """What ``path`` (a seat's log with its table file) holds; `HedgerowError` if it cannot be
    read, replayed, or has no table file."""
    from hedgerow.net import rulesmatch, tablefile
    from hedgerow.net.logfile import read_log
    from hedgerow.net.logverify import replay
    from hedgerow.net.messages import SeatEventKind

    saved = tablefile.load(path)
    result = read_log(path)
    header = result.header
    if header is None:
        raise HedgerowError(f"{path} is not a table log: {result.problem}")
    ruleset = rulesmatch.ruleset_for(plugins, header.fingerprint, header.players)
    report = replay(ruleset, result)  # (open or sealed; a sealed log as any watcher sees it)
    if report.mismatch is not None or report.table is None:
        raise HedgerowError(f"{path} does not replay: {report.mismatch}")
    table = report.table
    names = {p.seat: p.display_name for p in saved.peers}
    return SavedTable(
        path, header.fingerprint, header.players,
        tuple(names.get(s) or (header.seat_names[s] if s < len(header.seat_names) else "")
              or f"seat {s}" for s in range(header.players)),
        saved.own_seat, saved.table_id, path.stat().st_mtime, len(result.entries),
        table.outcome(), saved.own_seat in table.active_seats(), saved.bot,
        saved.key_file, next((e for e in result.events if e.kind == SeatEventKind.END), None),
        report.sealed, report.verdict.message if report.verdict is not None else None)


def find_tables(plugins: PluginHost, folder: Path | None = None) -> list[SavedTable]:
    """The newest `NEWEST` seat logs of ``folder`` (default: the user's logs), newest first;
    logs that cannot be read or replayed here are left out."""
    folder = folder or logs_dir()
    logs = sorted(folder.glob("*.hlog"), key=lambda p: p.stat().st_mtime, reverse=True)
    found = []
    for path in logs[:NEWEST]:
        try:
            found.append(read_table(path, plugins))
        except (HedgerowError, OSError):
            continue
    return found


def find_table_logs(plugins: PluginHost, table_id: bytes,
                    folders: Sequence[Path]) -> list[SavedTable]:
    """Every seat log of the table ``table_id`` in ``folders`` (found by the id in their
    names, however old), for `bots_of`; logs that cannot be read here are left out."""
    found: dict[Path, SavedTable] = {}
    for folder in folders:
        for path in sorted(folder.glob(f"*-{table_id.hex()[:8]}-seat*.hlog")):
            try:
                saved = read_table(path, plugins)
            except (HedgerowError, OSError):
                continue
            if saved.table_id == table_id:
                found.setdefault(path.resolve(), saved)
    return list(found.values())


def unfinished(tables: Sequence[SavedTable]) -> list[SavedTable]:
    """The games under way that a person (not a bot peer) played."""
    return [t for t in tables if not t.finished and t.bot is None]


def bots_of(table: SavedTable, tables: Sequence[SavedTable]) -> list[tuple[int, Path]]:
    """``(bot number, log)`` of the unfinished bot seats this user started at ``table``."""
    out = []
    for other in tables:
        number = other.bot_number
        if (other.table_id == table.table_id and other.own_seat != table.own_seat
                and other.bot is not None and number is not None and not other.finished):
            out.append((number, other.log))
    return sorted(out)


def when(seconds: float, now: float | None = None) -> str:
    """A modification time for people: ``today 14:02``, ``yesterday 09:30``, ``2026-11-30``."""
    now = time.time() if now is None else now
    day = time.strftime("%Y-%m-%d", time.localtime(seconds))
    if day == time.strftime("%Y-%m-%d", time.localtime(now)):
        return time.strftime("today %H:%M", time.localtime(seconds))
    if day == time.strftime("%Y-%m-%d", time.localtime(now - 86400)):
        return time.strftime("yesterday %H:%M", time.localtime(seconds))
    return day


def game_line(fingerprint: str, players: int) -> str:
    """``petals@2.1.0, 3 players, sealed deck``: a table's rules, seats and deck (a table
    of one seat has no deck to speak of: it plays open)."""
    from hedgerow.net.rulesmatch import split_deck

    rules, open_deck = split_deck(fingerprint)
    deck = "" if players < 2 else (", open deck" if open_deck else ", sealed deck")
    return f"{rules}, {players} player{'s' if players != 1 else ''}{deck}"


def describe(table: SavedTable, now: float | None = None) -> tuple[str, str]:
    """Two short lines: the game, its deck and its players (you marked); when, and how
    far."""
    players = ", ".join(f"{n} (you)" if s == table.own_seat else n
                        for s, n in enumerate(table.names))
    turn = "; your turn" if table.my_turn else ""
    return (f"{game_line(table.game, table.players)}: {players}",
            f"{when(table.modified, now)}, after {table.actions} actions{turn}")


@dataclass(frozen=True, slots=True)
class OpenSaved:
    """A table this user hosted that was lost before its seed was agreed."""

    log: Path  # the open-table file (what ``hedgerow resume`` takes)
    game: str  # the rules' fingerprint
    players: int
    names: tuple[str, ...]  # the seats taken, in seat order
    modified: float


def find_open_tables(folder: Path | None = None) -> list[OpenSaved]:
    """The open-table files of ``folder`` (default: the user's logs), newest first; damaged
    ones are left out."""
    from hedgerow.net import openfile

    folder = folder or logs_dir()
    paths = sorted(folder.glob(f"*{openfile.SUFFIX}"), key=lambda p: p.stat().st_mtime,
                   reverse=True)
    found = []
    for path in paths[:NEWEST]:
        try:
            saved = openfile.load(path)
            modified = path.stat().st_mtime
        except (HedgerowError, OSError):
            continue
        names = tuple(p.display_name or f"seat {p.seat}" for p in saved.peers)
        found.append(OpenSaved(path, saved.fingerprint, saved.players, names, modified))
    return found


def describe_open(table: OpenSaved, now: float | None = None) -> tuple[str, str]:
    """Two short lines, as `describe`: the game and who sat; when, and that it never began."""
    players = ", ".join(f"{n} (you)" if i == 0 else n for i, n in enumerate(table.names))
    return (f"{game_line(table.game, table.players)}: {players}",
            f"{when(table.modified, now)}, hosted by you and lost before the game began; "
            "re-open it")
