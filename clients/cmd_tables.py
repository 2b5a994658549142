"""``hedgerow tables``: list the open tables seen on the LAN (zeroconf discovery).

Listens for ``--timeout`` seconds, then prints one line per table (name, game, variants,
its deck, free seats, and the ``HOST:PORT/KEY`` address ``hedgerow join`` takes) or, with
``--json``, one JSON list of objects (the deck as ``"deck"``).  The deck is ``sealed`` (no
player's program can see a card it was not shown, docs/protocol.md §10) or ``open`` (the
host chose the faster start, for players who trust each other); ``?`` for a table whose
announcement does not say.  With
``HEDGEROW_NO_DISCOVERY=1`` nothing is looked up and the list is empty; joining by
``HOST:PORT/KEY`` works either way.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys

DEFAULT_TIMEOUT = 2.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow tables``."""
    parser.add_argument("--json", action="store_true", help="print the tables as a JSON list")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"how long to listen (default {DEFAULT_TIMEOUT:g})")


def format_tables(tables: list) -> str:  # list[TableAd]; keeps start-up free of zeroconf
    """The human-readable listing: a header and one aligned row per table."""
    from hedgerow.clients.app.deckwords import deck_word

    header = ("NAME", "GAME", "VARIANTS", "DECK", "SEATS", "ADDRESS")
    rows = [
        (t.name, t.game, ",".join(t.variants) or "-", deck_word(t.deck),
         f"{t.free_seats}/{t.seats} free", t.join_address)
        for t in tables
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    lines = []
    for row in [header, *rows]:
        cells = [cell.ljust(w) for cell, w in zip(row, widths, strict=False)]
        lines.append("  ".join([*cells, row[-1]]))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Listen for tables and print them."""
    from hedgerow.core.errors import HedgerowError
    from hedgerow.net import discovery

    timeout = args.timeout
    if not (math.isfinite(timeout) and timeout > 0):
        raise HedgerowError(f"--timeout must be a positive number of seconds, not {timeout:g}")
    if discovery.discovery_disabled():
        print(f"hedgerow: LAN discovery is off ({discovery.ENV_DISABLE}=1); "
              "join a table by the address its host prints: hedgerow join HOST:PORT/KEY",
              file=sys.stderr)
    tables = asyncio.run(discovery.browse(timeout))
    if args.json:
        print(json.dumps([t.to_json() for t in tables], indent=2))
    elif tables:
        print(format_tables(tables))
    elif not discovery.discovery_disabled():
        print(f"No open tables seen on the LAN in {timeout:g} s. "
              "Join by the address the host prints instead: hedgerow join HOST:PORT/KEY")
    return 0
