"""The open-table file: a host's table before its seed is agreed, so a crashed host can
re-open it.

Until the seed is agreed a table has no log (`hedgerow.net.logfile`), so nothing would let
its host come back: the joiners hold a link to the host only, and only the host seats
anyone.  So the host keeps this small file in the logs folder while its table seats and
agrees on the seed (``GAME-STAMP-TABLEID-seat0.open.json``), rewritten whenever the seating
or the seed round changes, and removed once its log is written (the log and its table file
take over, `hedgerow.net.tablefile`) or when it leaves on purpose.  ``hedgerow resume FILE``
re-opens the same table from it: the same table id, key and address, the seats as they were,
and the next seed round (docs/protocol.md §3.2, "A host lost before play").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from hedgerow.core.errors import HedgerowError
from hedgerow.net.messages import PeerInfo
from hedgerow.net.tablefile import peers_data, peers_from, write_json

SUFFIX = ".open.json"
FORMAT = 1


@dataclass(frozen=True, slots=True)
class OpenTable:
    """What re-opening a table needs: its id, rules, size, name, seats and seed round."""

    table_id: bytes
    fingerprint: str
    players: int
    name: str  # the table's name on the LAN
    round: int  # the seed round the table was at
    peers: tuple[PeerInfo, ...]  # the host (seat 0, with its endpoint) and the joiners
    key_file: str | None = None
    bot: str | None = None  # the strategy playing the host's seat, if a bot does


def path_for(folder: Path, game: str, stamp: str, table_id: bytes) -> Path:
    """Where the open-table file of a table lives."""
    return folder / f"{game}-{stamp}-{table_id.hex()[:8]}-seat0{SUFFIX}"


def is_open_file(path: Path) -> bool:
    """True when ``path`` names an open-table file (not a log)."""
    return path.name.endswith(SUFFIX)


def save(path: Path, table: OpenTable) -> None:
    """Write (atomically) ``table`` to ``path``."""
    data = {
        "format": FORMAT,
        "table_id": table.table_id.hex(),
        "fingerprint": table.fingerprint,
        "players": table.players,
        "name": table.name,
        "round": table.round,
        "key_file": table.key_file,
        "bot": table.bot,
        "peers": peers_data(table.peers),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, data)


def load(path: Path) -> OpenTable:
    """The open-table file at ``path``; `HedgerowError` if it is missing or damaged."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"unknown format {data.get('format')!r}")
        peers = peers_from(data["peers"])
        if not any(p.seat == 0 for p in peers):
            raise ValueError("it does not list the host's seat")
        return OpenTable(bytes.fromhex(data["table_id"]), str(data["fingerprint"]),
                         int(data["players"]), str(data["name"]), int(data["round"]), peers,
                         data.get("key_file"), data.get("bot"))
    except FileNotFoundError:
        raise HedgerowError(f"no such file: {path}") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise HedgerowError(f"{path} is damaged: {exc}") from None
