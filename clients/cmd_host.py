"""``hedgerow host GAME``: open a table on this machine for players on the LAN.

Prints ``table open at HOST:PORT/KEY`` (what others pass to ``hedgerow join``; the KEY
part is this user's public key, which pins the table) and announces the table on the LAN
by its name until every seat is taken.  This seat is then played by ``--bot STRATEGY``
(headless) or in the seat client.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from hedgerow.clients.cli import make_plugin_host

if TYPE_CHECKING:
    from hedgerow.clients.botrunner import Emit
    from hedgerow.net.seat import Seat


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow host``."""
    from hedgerow.clients.netseat import add_seat_arguments

    parser.add_argument("game", help="the game to play (see: hedgerow games)")
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help="players at the table, you included (default: the game's usual)")
    parser.add_argument("--variant", action="append", default=[], metavar="V",
                        help="a variant to use (repeat for several)")
    parser.add_argument("--port", type=int, default=0, metavar="P",
                        help="the port to listen on (default: any free port)")
    parser.add_argument("--bind", default="0.0.0.0", metavar="HOST",
                        help="the address to listen on (default: 0.0.0.0, every interface; "
                             "127.0.0.1 for this machine only)")
    parser.add_argument("--table", default=None, metavar="NAME",
                        help="the table's name on the LAN (what `hedgerow join NAME` takes; "
                             "default: \"PLAYER's GAME\")")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="dictate the deal from the number S instead of agreeing on a "
                             "seed (an open deck; only joiners with --accept-host-seed sit)")
    parser.add_argument("--open-deck", action="store_true",
                        help="play with an open deck: faster to start, for players who trust "
                             "each other (default: a sealed deck, where no peer can see a "
                             "card it was not shown)")
    parser.add_argument("--no-spectators", action="store_true",
                        help="let nobody watch the table (default: up to 8 spectators, "
                             "`hedgerow watch ADDRESS`, who see only what every seat sees)")
    add_seat_arguments(parser, name_help="your name at the table (default: your user name)")


def run(args: argparse.Namespace) -> int:
    """Open the table and play this seat."""
    from hedgerow.clients.netseat import check_seat_player, key_file_of, player_name, run_seat
    from hedgerow.core.botchoice import resolve
    from hedgerow.core.errors import HedgerowError
    from hedgerow.net.launch import host_table

    plugins = make_plugin_host(args)
    ruleset = plugins.ruleset(args.game, args.variant)
    players = args.players if args.players is not None else ruleset.players_default
    ruleset.check_players(players)
    if not 0 <= args.port < 65536:
        raise HedgerowError(f"--port must be between 0 and 65535, not {args.port}")
    spec = (resolve(plugins, args.bot, args.game) if args.bot  # name[:params], checked
            else check_seat_player(args, plugins, args.game))
    me = player_name(args)
    key_file = key_file_of(args)
    table_name = args.table or f"{me}'s {args.game}"

    async def open_peer() -> Seat:
        try:
            return await host_table(ruleset, players, name=table_name, bind=args.bind,
                                    port=args.port, bot=args.bot, seat_name=me,
                                    seed=args.seed, key_file=key_file, plugins=plugins,
                                    open_deck=args.open_deck,
                                    spectators=not args.no_spectators)
        except OSError as exc:
            raise HedgerowError(str(exc)) from None

    def opened(peer: Seat, emit: Emit) -> None:
        deck = "sealed" if peer.sealed else "open"  # (a table of one seat: open)
        emit("open", f"table open at {peer.address} ({deck} deck)", address=peer.address,
             name=table_name, players=players, fingerprint=ruleset.fingerprint, deck=deck)

    return run_seat(args, plugins, spec, open_peer, opened, lobby=spec is None)
