"""``hedgerow resume LOGFILE``: come back to a table after a crash or a lost link.

The seat is rebuilt from its own log (every entry re-checked), the other peers are found
again through the table file saved beside the log (``LOGFILE.table.json``), and what was
missed is fetched from them, each entry checked against the hash chain.  The identity must
be the one that played the seat (the table file remembers a ``--key-file``).
"""

from __future__ import annotations

import argparse
from typing import Any

from hedgerow.clients.cli import make_plugin_host


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow resume``."""
    from hedgerow.clients.netseat import add_seat_arguments

    parser.add_argument("log", metavar="LOGFILE", help="this seat's table log")
    parser.add_argument("--bind", default=None, metavar="HOST",
                        help="the address to listen on (default: the one used before)")
    add_seat_arguments(parser, name_help="your name at the table (default: as before)")


def run(args: argparse.Namespace) -> int:
    """Resume the seat and play it to the end."""
    from hedgerow.clients.netseat import check_seat_player, run_seat
    from hedgerow.net.launch import resume_table

    plugins = make_plugin_host(args)
    spec = check_seat_player(args, plugins)

    async def open_peer() -> Any:
        return await resume_table(args.log, bot=args.bot, bind=args.bind,
                                  key_file=args.key_file, plugins=plugins)

    def opened(peer: Any, emit: Any) -> None:
        emit("resumed", f"resumed seat {peer.seat} of {peer.players} at action "
             f"#{peer.table.index}; catching up", seat=peer.seat, index=peer.table.index)

    return run_seat(args, plugins, spec, open_peer, opened)
