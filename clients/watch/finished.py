"""The finished games ``hedgerow resume`` offers to watch again, beside the unfinished ones.

`hedgerow.clients.resumable.find_tables` reads this user's newest seat logs; the games
there that are over (by their rules, or by the table's agreement) and that a person played
(a bot peer's log aside) are listed under the tables to resume, newest first, at most
`SHOWN`, each numbered ``w1``, ``w2``, … — typing that number opens the game in the replay
viewer (`watch`) instead of resuming one.  Without a terminal each log's path is printed,
for ``hedgerow watch LOGFILE``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path

from hedgerow.clients.resumable import SavedTable, when
from hedgerow.core.outcome import headline
from hedgerow.core.pluginhost import PluginHost

#: How many finished games the list shows at most.
SHOWN = 5

_PICK = re.compile(r"^\s*w\s*(\d+)\s*$", re.IGNORECASE)


def finished(tables: Sequence[SavedTable]) -> list[SavedTable]:
    """The newest `SHOWN` games that are over and that a person played."""
    return [t for t in tables if t.finished and t.bot is None][:SHOWN]


def describe_finished(table: SavedTable, now: float | None = None) -> tuple[str, str]:
    """Two short lines: the game and its players (you marked); when, and who won (or that
    the table agreed to end it)."""
    players = ", ".join(f"{n} (you)" if s == table.own_seat else n
                        for s, n in enumerate(table.names))
    result = headline(table.outcome, list(table.names)) if table.outcome is not None else \
        "ended by agreement, nobody won"
    return (f"{table.game}, {table.players} players: {players}",
            f"{when(table.modified, now)}, {table.actions} entries; {result}")


def show(tables: Sequence[SavedTable], *, terminal: bool, now: float | None = None) -> None:
    """Print the finished games (nothing when there are none), numbered w1, w2, …"""
    if not tables:
        return
    print("Finished games you can watch again, newest first:")
    for number, table in enumerate(tables, start=1):
        what, result = describe_finished(table, now)
        print(f"{'w' + str(number):>4}. {what}\n      {result}")
        if not terminal:
            print(f"      {table.log}")
    if not terminal:
        print("Watch one with: hedgerow watch LOGFILE")


def picked(answer: str, tables: Sequence[SavedTable]) -> Path | None:
    """The log of the finished game ``answer`` names (``w2``), or None."""
    found = _PICK.match(answer)
    if found is None or not 1 <= int(found.group(1)) <= len(tables):
        return None
    return tables[int(found.group(1)) - 1].log


def choices(count: int) -> str:
    """How the question names them: ``w1``, or ``w1-w3``."""
    return "w1" if count == 1 else f"w1-w{count}"


def watch(path: Path, plugins: PluginHost) -> int:
    """Open ``path`` in the replay viewer, as the seat that wrote it; its exit status."""
    from hedgerow.clients.cmd_watch import choose_seat
    from hedgerow.clients.watch.application import run_watch
    from hedgerow.clients.watch.film import load_film

    film = load_film(path, plugins)
    return asyncio.run(run_watch(film, seat=choose_seat(film, None), plugins=plugins))
