"""``hedgerow watch LOGFILE [--as SEAT]``: step through a saved game on the table screen.

Any table log will do — one's own (a seat's log in the logs folder, a local game's), or
one a friend sent; a sealed or an open deck; a finished game or one under way.  The log is
replayed with the installed rules (every entry checked, as ``hedgerow replay`` does), then
shown on the seat client's screen, read-only: → and ← step one entry, ↓ and ↑ a round, Home
and End go to the deal and the last entry, Space plays it like a film (``?`` lists every
key; docs/client.md).

``--as SEAT`` (a seat number, as ``hedgerow replay`` prints them, or a player's name) shows
the table through that seat's eyes, its hand included where the log allows it: every hand
of an open-deck game and of a sealed game that ended (every secret is then in the log);
in a sealed game under way, only the log writer's own cards, opened with its seal file
beside the log.  The screen says what it cannot show and why.  By default the viewer takes
the seat that wrote the log (seat 0 for a local game).

A file that is not a table log, or needs rules not installed here, is refused with one
line (exit status 2); a damaged log is shown as far as it replays, the screen saying where
and why it stops.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from hedgerow.clients.cli import make_plugin_host
from hedgerow.core.errors import HedgerowError

if TYPE_CHECKING:
    from hedgerow.clients.watch.film import Film


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow watch``."""
    parser.add_argument("log", metavar="LOGFILE",
                        help="a table log (your own in the logs folder, or one sent to you)")
    parser.add_argument("--as", dest="as_seat", default=None, metavar="SEAT",
                        help="watch through this seat's eyes: its number (0, 1, ...) or its "
                             "player's name (default: the seat that wrote the log)")


def run(args: argparse.Namespace) -> int:
    """Load the film, then run the viewer until it is left."""
    import asyncio

    from hedgerow.clients.watch.film import load_film

    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    plugins = make_plugin_host(args)
    if terminal:
        print(f"Reading {args.log} …", flush=True)
    film = load_film(args.log, plugins)
    seat = choose_seat(film, args.as_seat)
    if not terminal:
        raise HedgerowError("hedgerow watch needs a terminal (to print a game as text: "
                            "hedgerow replay LOGFILE)")
    from hedgerow.clients.watch.application import run_watch

    return asyncio.run(run_watch(film, seat=seat, plugins=plugins))


def choose_seat(film: Film, wanted: str | None) -> int:
    """The seat ``--as`` names (a number or a player's name, any case), or by default the
    log writer's (seat 0 when the log names none); `HedgerowError` listing the seats."""
    players = film.players
    if wanted is None:
        own = film.header.own_seat
        return own if own is not None and own < players else 0
    text = wanted.strip()
    if text.isdigit() and int(text) < players:
        return int(text)
    names = [n.casefold() for n in film.names]
    if text.casefold() in names:
        return names.index(text.casefold())
    seats = ", ".join(f"{s} ({film.names[s]})" for s in range(players))
    raise HedgerowError(f"--as {wanted}: this table has no such seat; its seats are {seats}")
