"""``hedgerow join [ADDRESS_OR_NAME]``: take a seat at a table on the LAN.

Without ADDRESS_OR_NAME it opens the lobby: the tables seen on the LAN, a form to create
one, and the seating room.

ADDRESS is what ``hedgerow host`` printed (``HOST:PORT/KEY``); a bare ``HOST:PORT`` works
when the table is also announced on the LAN (its key is looked up there), and a NAME is
found by LAN discovery.  A table whose rules differ from the ones installed here refuses
the join and says what differs; a host name that does not resolve is refused at once.

Joining a table hosted from this same user data folder (two terminals on one machine)
joins as a second local player, with a key of its own, and says so; ``--as NAME`` picks
that player's name and key (`hedgerow.clients.joining`).
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from hedgerow.clients.cli import make_plugin_host
from hedgerow.core.errors import HedgerowError

if TYPE_CHECKING:
    from hedgerow.clients.botrunner import Emit
    from hedgerow.net.seat import Seat


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow join``."""
    from hedgerow.clients.netseat import add_seat_arguments

    parser.add_argument("table", metavar="ADDRESS_OR_NAME", nargs="?", default=None,
                        help="HOST:PORT/KEY as `hedgerow host` printed it, or a table's name; "
                             "without it, the lobby opens on the tables seen on the LAN")
    parser.add_argument("--seat", type=int, default=None, metavar="N",
                        help="the seat you want (default: any free one)")
    parser.add_argument("--bind", default=None, metavar="HOST",
                        help="the address to listen on for the other peers (default: "
                             "127.0.0.1 for a table on this machine, else every interface)")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                        help="how long to wait for the table to answer (default: 10)")
    parser.add_argument("--accept-host-seed", action="store_true",
                        help="play even if the host dictates the deal (hedgerow host --seed)")
    parser.add_argument("--exit-with-parent", action="store_true", help=argparse.SUPPRESS)
    add_seat_arguments(parser, name_help="your name at the table (default: your user name)")


def open_lobby(plugins: Any, name: str, key_file: str | None = None) -> int:
    """The lobby screen: tables seen on the LAN, create one, join one, then play; once it
    has closed, how the table taken there stands (the result, the check of a sealed deck,
    where the log is), as after any person's seat.  A table chosen to be watched (``w``)
    opens as a spectator sees it (``hedgerow watch ADDRESS``)."""
    import asyncio

    from hedgerow.clients.app import run_lobby
    from hedgerow.clients.app.lobby_backend import NetBackend
    from hedgerow.clients.netseat import goodbye

    def closed(seat: Seat) -> None:
        print("\n".join(goodbye(seat)), flush=True)

    async def watch(address: str) -> int:  # w on a table of the list
        from hedgerow.clients.watch.live import watch_at

        return await watch_at(address, plugins, name=name)

    return asyncio.run(run_lobby(plugins, seat_name=name, backend=NetBackend(key_file),
                                 closed=closed, watch=watch))


def run(args: argparse.Namespace) -> int:
    """Join the table and play this seat."""
    import sys

    from hedgerow.clients.joining import prepare_join
    from hedgerow.clients.netseat import check_seat_player, key_file_of, player_name, run_seat
    from hedgerow.core.botchoice import resolve
    from hedgerow.net.launch import join_table

    plugins = make_plugin_host(args)
    spec = resolve(plugins, args.bot) if args.bot else check_seat_player(args, plugins)
    if args.table is None:
        if spec is not None:
            raise HedgerowError("a bot seat needs the table: hedgerow join ADDRESS_OR_NAME --bot "
                                f"{args.bot}")
        return open_lobby(plugins, player_name(args), key_file_of(args))
    parent = os.getppid()
    key_file = key_file_of(args)

    async def open_peer() -> Seat:
        where, joiner = await prepare_join(args.table, seat_name=player_name(args),
                                           key_file=key_file, as_name=args.as_name,
                                           name_given=args.name is not None)
        if joiner.note:
            print(f"hedgerow: {joiner.note}", file=sys.stderr, flush=True)
        return await join_table(where, bot=args.bot, seat_name=joiner.seat_name,
                                bind=args.bind, key_file=joiner.key_file, plugins=plugins,
                                wanted_seat=args.seat, accept_host_seed=args.accept_host_seed,
                                timeout=args.timeout)

    def opened(peer: Seat, emit: Emit) -> None:
        deck = "sealed" if peer.sealed else "open"
        emit("joined", f"seated at seat {peer.seat} of {peer.players} "
             f"({peer.ruleset.fingerprint}, {deck} deck)", seat=peer.seat,
             players=peer.players, fingerprint=peer.ruleset.fingerprint, deck=deck)

    stop = (lambda: os.getppid() != parent) if args.exit_with_parent else None
    return run_seat(args, plugins, spec, open_peer, opened, stop)
