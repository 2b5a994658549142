"""``hedgerow watch [LOGFILE | HOST:PORT/KEY] [--as SEAT]``: a saved game, or a live table.

**A live table.**  ``hedgerow watch HOST:PORT/KEY`` (the address ``hedgerow host`` printed;
a bare ``HOST:PORT`` works when the table is announced on the LAN) watches the game at that
table as a spectator (docs/protocol.md §3.4): the table screen a seat has, through the eyes
of one seat at a time (``s`` / ``S`` change seats) but with no hand of its own — at a
sealed table only the cards shown to everyone, every hand sealed.  It can arrive before the
game starts or in the middle of it (it catches up from the host), follows each move as it
is played, who is to move, who left or was lost and which seat a bot took over, and leaves
with ``q`` whenever it likes: the table plays on as if it had never come.  The players see
who watches.  A table takes at most 8 spectators, and a host may refuse them all
(``hedgerow host --no-spectators``).  ``--json`` watches without a screen: one JSON line
per move and per change of who watches or who is away, then the result.

**A saved game.**  ``hedgerow watch LOGFILE``: any table log will do — one's own (a seat's
log in the logs folder, a local game's), or one a friend sent; a sealed or an open deck; a
finished game or one under way.  The log is replayed with the installed rules (every entry
checked, as ``hedgerow replay`` does), then shown on the seat client's screen, read-only:
→ and ← step one entry, ↓ and ↑ a round, Home and End go to the deal and the last entry,
Space plays it like a film (``?`` lists every key; docs/client.md).  ``--as SEAT`` (a seat
number, as ``hedgerow replay`` prints them, or a player's name) shows the table through
that seat's eyes, its hand included where the log allows it: every hand of an open-deck
game and of a sealed game that ended (every secret is then in the log); in a sealed game
under way, only the log writer's own cards, opened with its seal file beside the log.  By
default the viewer takes the seat that wrote the log (seat 0 for a local game).

**Which is which.**  An argument that names an existing file is a log; otherwise one that
reads as ``HOST:PORT[/KEY]`` is a table's address; anything else is refused, saying both
forms.  Without an argument the lobby opens on the tables announced on the LAN: ``w``
watches the one selected (a table being played is listed while it takes spectators).

A file that is not a table log, or needs rules not installed here, is refused with one
line (exit status 2), as is a table that refuses to be watched; a damaged log is shown as
far as it replays, the screen saying where and why it stops.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hedgerow.clients.cli import make_plugin_host
from hedgerow.core.errors import HedgerowError

if TYPE_CHECKING:
    from hedgerow.clients.watch.film import Film
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.net.watching import Spectator


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow watch``."""
    parser.add_argument("target", metavar="LOGFILE|HOST:PORT/KEY", nargs="?", default=None,
                        help="a table log (your own in the logs folder, or one sent to you), "
                             "or the address of a live table as `hedgerow host` printed it; "
                             "without it, the lobby lists the tables on the LAN to watch")
    parser.add_argument("--as", dest="as_seat", default=None, metavar="SEAT",
                        help="watch through this seat's eyes: its number (0, 1, ...) or its "
                             "player's name (default: the seat that wrote the log; seat 0 "
                             "at a live table)")
    parser.add_argument("--name", default=None,
                        help="your name, as the players see it among the spectators "
                             "(default: your user name)")
    parser.add_argument("--json", action="store_true",
                        help="a live table without a screen: JSON Lines on stdout, one per "
                             "move and change at the table, then the result")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                        help="how long to wait for a live table to answer (default: 10)")


def run(args: argparse.Namespace) -> int:
    """Open what ``target`` names (see the module docstring)."""
    plugins = make_plugin_host(args)
    target = args.target
    if target is None:
        if args.json:
            raise HedgerowError("hedgerow watch --json needs the table's address")
        from hedgerow.clients.cmd_join import open_lobby
        from hedgerow.clients.netseat import player_name

        return open_lobby(plugins, player_name(args), None)
    if Path(target).is_file():
        return watch_log(args, plugins)
    from hedgerow.net.address import looks_like_address

    if not looks_like_address(target) and ("/" in target or Path(target).suffix):
        raise HedgerowError(f"no such log file: {target} (a live table is watched by its "
                            "address: hedgerow watch HOST:PORT/KEY)")
    if not looks_like_address(target):
        raise HedgerowError(
            f"{target!r} is neither a log file nor a table's address: give a table log "
            "(hedgerow watch LOGFILE) or a live table's address as `hedgerow host` printed "
            "it (hedgerow watch HOST:PORT/KEY)")
    import asyncio

    return asyncio.run(watch_live(target, plugins, args))


def watch_log(args: argparse.Namespace, plugins: PluginHost) -> int:
    """The replay viewer on a saved log."""
    import asyncio

    from hedgerow.clients.watch.film import load_film

    if args.json:
        raise HedgerowError("--json watches a live table (to print a log as text: "
                            "hedgerow replay LOGFILE)")
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if terminal:
        print(f"Reading {args.target} …", flush=True)
    film = load_film(args.target, plugins)
    seat = choose_seat(film, args.as_seat)
    if not terminal:
        raise HedgerowError("hedgerow watch needs a terminal (to print a game as text: "
                            "hedgerow replay LOGFILE)")
    from hedgerow.clients.watch.application import run_watch

    return asyncio.run(run_watch(film, seat=seat, plugins=plugins))


async def watch_live(target: str, plugins: PluginHost, args: argparse.Namespace) -> int:
    """Watch the table at ``target``: on the screen, or as JSON Lines with ``--json``."""
    from hedgerow.clients.netseat import player_name
    from hedgerow.clients.watch.live import watch_at
    from hedgerow.net.launch import watch_table

    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if not terminal and not args.json:
        raise HedgerowError("hedgerow watch needs a terminal (or --json, to follow the table "
                            "as JSON Lines)")
    if args.json:
        spectator = await watch_table(target, plugins=plugins, name=player_name(args),
                                      timeout=args.timeout)
        return await follow_json(spectator)
    return await watch_at(target, plugins, name=player_name(args), timeout=args.timeout,
                          seat=lambda spectator: live_seat(spectator, args.as_seat))


def live_seat(spectator: Spectator, wanted: str | None) -> int:
    """The seat ``--as`` names at a live table (a number, or a seated player's name)."""
    if wanted is None:
        return 0
    text = wanted.strip()
    if text.isdigit() and int(text) < spectator.players:
        return int(text)
    names = {p.display_name.casefold(): p.seat for p in spectator.peers}
    if text.casefold() in names:
        return names[text.casefold()]
    seats = ", ".join(f"{p.seat} ({p.display_name})" for p in spectator.peers)
    raise HedgerowError(f"--as {wanted}: this table has no such seat; its seats are {seats}")


async def follow_json(spectator: Spectator) -> int:
    """Print the table as it goes, one JSON object a line, until the game ends or the host
    leaves: ``watching`` (the seating), ``watchers``, ``away``, ``entry`` (each move), then
    ``result`` (the outcome, and the state hash after the last entry it checked as the
    players reported it: the one they end on once the game ended, `LiveTable.state_hash`)."""
    from hedgerow.core.outcome import outcome_data
    from hedgerow.core.sealed import plain
    from hedgerow.net.seat import Link

    def emit(event: str, **fields: Any) -> None:
        print(json.dumps({"event": event, **fields}), flush=True)

    emit("watching", players=spectator.players,
         seats=[p.display_name for p in spectator.peers], watchers=list(spectator.watchers))
    told = {"entries": 0, "watchers": tuple(spectator.watchers), "away": ((), ())}

    def changed() -> None:
        if spectator.watchers != told["watchers"]:
            told["watchers"] = spectator.watchers
            emit("watchers", watchers=list(spectator.watchers))
        if (spectator.lost, spectator.left) != told["away"]:
            told["away"] = (spectator.lost, spectator.left)
            emit("away", lost=list(spectator.lost), left=list(spectator.left))
        live = spectator.live
        if live is not None:
            done = int(str(told["entries"]))
            for applied in live.history[done:]:
                entry = applied.entry
                emit("entry", index=entry.index, seat=entry.seat, kind=entry.action.kind)
            told["entries"] = len(live.history)

    def over() -> bool:
        changed()
        live = spectator.live
        if live is not None and (live.mismatch is not None or finished(spectator)):
            return True
        return spectator.host == Link.LEFT or bool(spectator.halted)

    try:
        await spectator.wait_until(over)
    finally:
        live = spectator.live
        outcome = finished(spectator)
        digest = live.state_hash() if live is not None else None
        emit("result", entries=len(live.history) if live is not None else 0,
             state_hash=digest.hex() if digest is not None else None,
             outcome=outcome_data(plain(outcome)) if outcome is not None else None,
             problem=spectator.halted or (str(live.mismatch) if live is not None
                                          and live.mismatch is not None else None),
             watchers=list(spectator.watchers))
        await spectator.close()
    return 0 if outcome is not None else 1


def finished(spectator: Spectator) -> Any:
    """The game's outcome once every entry of it is in, else None."""
    live = spectator.live
    table = live.table if live is not None else None
    if live is None or table is None or len(live.history) != table.index:
        return None
    return table.outcome()


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
