"""``hedgerow play GAME``: you against bots at a new table on this machine (start here).

The table is real: this process hosts it on 127.0.0.1 (a port the system picks), every
other seat is a bot peer in its own process talking the real protocol, and the seat
client opens in the terminal.  When you leave, the table closes and the bot processes are
stopped and reaped: nothing is left running.  A game left before its end is taken up again
with ``hedgerow resume`` (its bots come back with it).  The bots wait for you however long
you think: their give-up only counts while no person at the table is connected.

``--seed S`` fixes the deal for a reproducible game; ``--local`` plays without the network
at all (the table and the bots inside this process), for when sockets are not an option.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from hedgerow.clients.cli import make_plugin_host
from hedgerow.clients.netseat import player_name

if TYPE_CHECKING:
    from hedgerow.net.seat import Seat

BOT_DELAY = 0.35  # seconds a local bot waits before it moves, so you can follow the game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow play``."""
    parser.add_argument("game", help="the game to play (see: hedgerow games)")
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help="seats at the table, you included (default: the game's usual)")
    parser.add_argument("--variant", action="append", default=[], metavar="V",
                        help="a variant to use (repeat for several)")
    parser.add_argument("--bots", default=None, metavar="NAME[:PARAMS],...",
                        help="bot for each other seat, comma separated, reused in turn, "
                             "e.g. ismcts:1s,greedy (default: the best installed, greedy)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="deal a reproducible game from the number S (an open deck)")
    parser.add_argument("--open-deck", action="store_true",
                        help="play with an open deck (default: sealed, so that even the bots' "
                             "processes see only what their seat was shown)")
    parser.add_argument("--name", default=None, help="your name at the table")
    parser.add_argument("--bot-delay", type=float, default=BOT_DELAY, metavar="SECONDS",
                        help=f"how long bots wait before they move (default {BOT_DELAY:g})")
    parser.add_argument("--local", action="store_true",
                        help="play in this process, without the network")
    # How long the bot peers wait with nothing happening once no person is connected (their
    # --give-up); tests shorten it to show the bots wait for a person who thinks longer.
    parser.add_argument("--bot-give-up", type=float, default=None, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    """Set the table up, play, and clean up."""
    from hedgerow.core.botchoice import best_first, resolve_list
    from hedgerow.core.errors import HedgerowError

    plugins = make_plugin_host(args)
    ruleset = plugins.ruleset(args.game, args.variant)
    players = args.players if args.players is not None else ruleset.players_default
    ruleset.check_players(players)
    best = best_first(b.name for b in plugins.bots.values() if b.plays(args.game))
    chosen = args.bots or (best[0] if best else "random")
    bots = resolve_list(plugins, chosen, args.game)  # name[:params], checked
    names = [b.label for b in bots]
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise HedgerowError("hedgerow play needs a terminal (for bots only, use hedgerow simulate)")
    board = None
    if players == 1 and ruleset.spec.leaderboard and args.seed is None:  # a board game
        from hedgerow.clients.leaderboard_play import BoardSession

        board = BoardSession.prepare(plugins, ruleset, player_name(args),
                                     resumable=not args.local)
        if board is None:
            return 0
    play = _play_local(plugins, ruleset, players, bots, args, board) if args.local else \
        _play_net(plugins, ruleset, players, names, args, board)
    try:
        return asyncio.run(play)
    except (HedgerowError, KeyboardInterrupt):
        raise
    except Exception as exc:  # one line on the terminal, the traceback in the log file
        from hedgerow.clients.app.application import client_log_path

        logging.getLogger("hedgerow.client").exception("hedgerow play failed")
        raise HedgerowError(f"{exc} (details in {client_log_path()})") from exc


async def _play_local(plugins: Any, ruleset: Any, players: int, bots: list[Any],
                      args: argparse.Namespace, board: Any) -> int:
    from hedgerow.clients.app import run_seat
    from hedgerow.clients.app.local import LocalSeat
    from hedgerow.core.seeding import seed_from_int

    # Unseeded, 256 random bits: the bots' streams are keyed by a digest of the seed, and a
    # small seed could be found by trying (docs/plugins.md, "What a bot is handed").
    seed = seed_from_int(args.seed if args.seed is not None else int.from_bytes(os.urandom(32)))
    if board is not None:
        seed = board.seed
    seat = LocalSeat(ruleset, players, seed, bots=bots, name=player_name(args),
                     bot_delay=args.bot_delay)
    try:
        if board is not None:
            await board.start(seat.log_path())
        status = await run_seat(seat, plugins=plugins)
    finally:
        await seat.close()
        line = await _board_line(board, seat)  # a board game counts however it ends
    _farewell(seat, board=line)
    return status


async def _play_net(plugins: Any, ruleset: Any, players: int, names: list[str],
                    args: argparse.Namespace, board: Any) -> int:
    from hedgerow.clients.app import run_seat
    from hedgerow.clients.spawn import spawn_bot_peers, stop_processes
    from hedgerow.net.launch import host_table

    # Not announced on the LAN: every other seat is one of our bots.
    peer = await host_table(ruleset, players, seat_name=player_name(args),
                            seed=board.seed if board is not None else args.seed,
                            announce=False, open_deck=args.open_deck)
    strategies = [names[i % len(names)] for i in range(players - 1)]
    procs: list[Any] = []
    try:
        if board is not None:
            await board.start(peer.log_path())
        procs = spawn_bot_peers(peer.address, strategies, delay=args.bot_delay,
                                give_up=args.bot_give_up)
        status = await run_seat(peer, plugins=plugins, invite=False)  # the others: our bots
    finally:
        await peer.close()
        stop_processes(procs)
        line = await _board_line(board, peer)  # a board game counts however it ends
    _farewell(peer, resumable=True, board=line)
    return status


async def _board_line(board: Any, seat: Seat) -> str | None:
    """Keep a board game's log on the shared leaderboard (docs/leaderboard.md), finished or
    not; the line for the farewell."""
    if board is None:
        return None
    from hedgerow.core.outcome import Solo

    outcome = seat.outcome()
    return await board.finish(seat.log_path(),
                              outcome.score if isinstance(outcome, Solo) else None)


def _farewell(seat: Seat, *, resumable: bool = False, board: str | None = None) -> None:
    """The lines after the screen closes: the result (for its kind; at a sealed table, what
    the check of the deck found), and where the log is."""
    from hedgerow.clients.app.results import farewell_lines

    print("\n".join(farewell_lines(seat)))
    path = seat.log_path()
    if path is not None:
        print(f"The table's log is saved in {path}")
        if resumable and seat.outcome() is None and seat.departures.ended is None:
            print("Come back to this game with: hedgerow resume")
    if board is not None:  # a board game (solo FLOWERS): what the shared leaderboard kept
        print(board)
