"""The table file: who was at a table, saved beside its log so a peer can come back.

A log (`hedgerow.net.logfile`) rebuilds the game, but a returning peer also needs the
table's id and every seat's public key and address to reconnect.  They are written next to
the log as ``<log>.table.json`` when play starts and rewritten when a peer's address
changes (a peer that comes back on a new port).  Keys are base64url text.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hedgerow.core.errors import HedgerowError
from hedgerow.net.keys import key_from_text, key_text
from hedgerow.net.messages import PeerInfo

SUFFIX = ".table.json"
FORMAT = 1


@dataclass(frozen=True, slots=True)
class TableFile:
    """What `hedgerow resume` needs beside the log."""

    table_id: bytes
    own_seat: int
    peers: tuple[PeerInfo, ...]
    key_file: str | None = None  # the identity used, when not the default one
    bot: str | None = None  # the bot strategy that played this seat, if any
    round: int = 1  # the seed round that gave the log's seed (docs/protocol.md §3.2)


def path_for(log_path: Path) -> Path:
    """Where the table file of ``log_path`` lives."""
    return log_path.with_name(log_path.name + SUFFIX)


def save(log_path: Path, table: TableFile) -> None:
    """Write (atomically) the table file of ``log_path``."""
    data = {
        "format": FORMAT,
        "table_id": table.table_id.hex(),
        "own_seat": table.own_seat,
        "key_file": table.key_file,
        "bot": table.bot,
        "round": table.round,
        "peers": peers_data(table.peers),
    }
    write_json(path_for(log_path), data)


def load(log_path: Path) -> TableFile:
    """The table file of ``log_path``; `HedgerowError` if it is missing or damaged."""
    target = path_for(log_path)
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"unknown format {data.get('format')!r}")
        peers = peers_from(data["peers"])
        return TableFile(bytes.fromhex(data["table_id"]), int(data["own_seat"]), peers,
                         data.get("key_file"), data.get("bot"), int(data.get("round", 1)))
    except FileNotFoundError:
        raise HedgerowError(f"{target} is missing: it holds the addresses of the other peers, "
                            "without which this table cannot be rejoined") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise HedgerowError(f"{target} is damaged: {exc}") from None


def peers_data(peers: tuple[PeerInfo, ...]) -> list[dict[str, object]]:
    """The seats' peers as JSON data (also the open-table file's, `hedgerow.net.openfile`)."""
    return [{"seat": p.seat, "key": key_text(p.public_key), "address": p.address,
             "name": p.display_name, "bot": p.bot} for p in peers]


def peers_from(data: list[dict[str, Any]]) -> tuple[PeerInfo, ...]:
    """`peers_data` read back; ``KeyError``/``ValueError``/``TypeError`` when damaged."""
    return tuple(PeerInfo(int(p["seat"]), key_from_text(p["key"]), str(p["address"]),
                          str(p["name"]), bool(p["bot"])) for p in data)


def write_json(path: Path, data: dict[str, object]) -> None:
    """Write ``data`` to ``path`` atomically (a temporary file, then a rename)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)
