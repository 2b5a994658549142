"""``hedgerow resume [LOGFILE]``: come back to a table after leaving, a crash or a lost link.

Without LOGFILE it lists this user's unfinished tables (game, players, when, how far;
`hedgerow.clients.resumable`) and resumes the one chosen.  The seat is rebuilt from its own
log (every entry re-checked), the other peers are found again through the table file saved
beside the log (``LOGFILE.table.json``), and what was missed is fetched from them, each
entry checked against the hash chain.  The identity must be the one that played the seat
(the table file remembers a ``--key-file`` or ``--as``), and so is the bot that played it.

The bot peers this user started for the table (``hedgerow play``, the lobby's bot seats)
come back with a person's seat: each resumes from its own log, and stops with this process.
A game that is already over is not resumed: its result is printed and the command ends (an
end the table agreed on is an end: "The game ended by agreement at action #N …").

A host lost before its table's seed was agreed has no log yet: ``hedgerow resume`` takes its
open-table file instead (``…-seat0.open.json`` in the logs folder; `hedgerow.net.openfile`)
and re-opens the same table at the same address, where its joiners wait for it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from hedgerow.clients.cli import make_plugin_host
from hedgerow.core.errors import HedgerowError

if TYPE_CHECKING:
    from hedgerow.clients.botrunner import Emit
    from hedgerow.net.seat import Seat


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow resume``."""
    from hedgerow.clients.netseat import add_seat_arguments

    parser.add_argument("log", metavar="LOGFILE", nargs="?", default=None,
                        help="this seat's table log, or the open-table file of a table you "
                             "hosted that was lost before it began (default: choose among "
                             "your unfinished tables)")
    parser.add_argument("--bind", default=None, metavar="HOST",
                        help="the address to listen on (default: the one used before)")
    parser.add_argument("--exit-with-parent", action="store_true", help=argparse.SUPPRESS)
    add_seat_arguments(parser, name_help="your name at the table (default: as before)")


def choose(plugins: Any) -> Path | None:
    """List the unfinished tables and ask which one; None when there is none to resume.
    The finished games are listed too (`hedgerow.clients.watch.finished`): picking one
    (``w1``) watches it in the replay viewer, and then there is nothing to resume."""
    from hedgerow.clients.resumable import (
        describe,
        describe_open,
        find_open_tables,
        find_tables,
        unfinished,
    )
    from hedgerow.clients.watch import finished as games_over
    from hedgerow.core.datadir import logs_dir

    # Games under way, and tables this user hosted that were lost before they began.
    saved = find_tables(plugins)
    found = [(t.modified, t.log, describe(t)) for t in unfinished(saved)]
    found += [(t.modified, t.log, describe_open(t)) for t in find_open_tables()]
    found.sort(key=lambda item: item[0], reverse=True)
    tables = [SimpleNamespace(log=log, lines=lines) for _, log, lines in found]
    over = games_over.finished(saved)
    terminal = sys.stdin.isatty()
    if not tables:
        print(f"No unfinished table to resume (the logs are in {logs_dir()}).")
        if not over or not terminal:
            games_over.show(over, terminal=terminal)
            return None
    else:
        print("Your unfinished tables, newest first:")
    for number, table in enumerate(tables, start=1):
        what, progress = table.lines
        print(f"{number:>3}. {what}\n     {progress}")
        if not terminal:
            print(f"     {table.log}")
    games_over.show(over, terminal=terminal)
    if not terminal:
        raise HedgerowError("choose one with: hedgerow resume LOGFILE (the logs are in "
                            f"{logs_dir()})")
    if tables:
        question = "Resume which table?"
        offer = f"1-{len(tables)}, Enter: 1, " + \
            (f"{games_over.choices(len(over))}: watch, " if over else "")
    else:  # (only finished games: Enter watches the newest)
        question, offer = "Watch which game?", f"{games_over.choices(len(over))}, Enter: w1, "
    while True:
        try:
            answer = input(f"{question} [{offer}q: none] ").strip()
        except EOFError:
            return None
        if answer.lower() in ("q", "quit"):
            return None
        if answer == "" and tables:
            return tables[0].log
        if answer == "":
            answer = "w1"
        if answer.isdigit() and 1 <= int(answer) <= len(tables):
            return tables[int(answer) - 1].log
        chosen = games_over.picked(answer, over)
        if chosen is not None:
            games_over.watch(chosen, plugins)
            return None
        options = [f"1-{len(tables)} (a table)"] * bool(tables)
        options += [f"{games_over.choices(len(over))} (a game to watch)"] * bool(over)
        print(f"Type {' or '.join(options)}, or q.")


def run(args: argparse.Namespace) -> int:
    """Resume the seat and play it to the end."""
    from hedgerow.clients.netseat import check_seat_player, key_file_of, run_seat
    from hedgerow.clients.resumable import bots_of, find_table_logs, read_table
    from hedgerow.clients.spawn import resume_bot_peers, stop_processes
    from hedgerow.core.datadir import bot_logs_dir
    from hedgerow.net import tablefile
    from hedgerow.net.keys import key_text, load_identity
    from hedgerow.net.launch import resume_table

    plugins = make_plugin_host(args)
    if args.log is None:
        chosen = choose(plugins)
        if chosen is None:
            return 0
        args.log = str(chosen)
    path = Path(args.log)
    if not path.exists():
        raise HedgerowError(f"no such log file: {path}")
    from hedgerow.net.openfile import is_open_file

    if is_open_file(path):
        return _reopen(args, plugins, path)
    saved = tablefile.load(path)
    key_file = key_file_of(args) or saved.key_file
    me = next((p for p in saved.peers if p.seat == saved.own_seat), None)
    if me is not None and load_identity(key_file).public != me.public_key:
        raise HedgerowError(f"{path} was played by another identity (key "
                            f"{key_text(me.public_key)[:8]}…); use the key file of that seat "
                            "(--key-file, or --as NAME)")
    table = read_table(path, plugins)
    if table.finished:
        _over(table, plugins, as_json=args.json)
        return 0
    args.bot = args.bot or saved.bot
    spec = check_seat_player(args, plugins)
    # its bots' logs: in the bots' folder (older tables: beside the person's log)
    folders = (bot_logs_dir(), path.parent)
    bots = bots_of(table, find_table_logs(plugins, table.table_id, folders)) \
        if spec is None else []
    procs: list[Any] = []
    parent = os.getppid()

    async def open_peer() -> Seat:
        return await resume_table(path, bot=args.bot, bind=args.bind, key_file=key_file,
                                  plugins=plugins)

    def opened(peer: Seat, emit: Emit) -> None:
        emit("resumed", f"resumed seat {peer.seat} of {peer.players} at action "
             f"#{peer.index}; catching up", seat=peer.seat, index=peer.index)
        if bots:  # the table's bots come back from their own logs (after us: we listen now)
            procs.extend(resume_bot_peers(bots))

    stop = (lambda: os.getppid() != parent) if args.exit_with_parent else None
    try:
        return run_seat(args, plugins, spec, open_peer, opened, stop)
    finally:
        stop_processes(procs)


def _reopen(args: argparse.Namespace, plugins: Any, path: Path) -> int:
    """Re-open the table of a host lost before its seed was agreed, and play its seat."""
    from hedgerow.clients.netseat import check_seat_player, key_file_of, run_seat
    from hedgerow.net import openfile
    from hedgerow.net.launch import reopen_table

    saved = openfile.load(path)
    key_file = key_file_of(args) or saved.key_file
    args.bot = args.bot or saved.bot
    spec = check_seat_player(args, plugins)

    async def open_peer() -> Seat:
        return await reopen_table(path, bot=args.bot, bind=args.bind, key_file=key_file,
                                  plugins=plugins)

    def opened(peer: Seat, emit: Emit) -> None:
        emit("open", f"table re-opened at {peer.address}; the seed is agreed again",
             address=peer.address, name=saved.name, players=peer.players,
             fingerprint=saved.fingerprint)

    return run_seat(args, plugins, spec, open_peer, opened, lobby=spec is None)


def _over(table: Any, plugins: Any, *, as_json: bool = False) -> None:
    """A finished game: its result, from the log alone (nobody needs to be reached).  With
    ``--json``: an "over" event, then the same "result" record a seat prints at its end."""
    from hedgerow.clients.app.deckwords import checked_text
    from hedgerow.clients.app.results import farewell
    from hedgerow.core.outcome import outcome_data

    result = farewell(table.outcome, list(table.names), table.own_seat, table.ended)
    if as_json:
        outcome = outcome_data(table.outcome) if table.outcome is not None else None
        print(json.dumps({"event": "over", "text": result, "seat": table.own_seat,
                          "outcome": outcome, "log": str(table.log)}))
        print(json.dumps(finished_record(table.log, table.own_seat, plugins)), flush=True)
        return
    print(result)
    if table.sealed:  # what the check of every shuffle, key and action found in the log
        print(checked_text(table.checked, ended=table.outcome is None) if table.checked
              else "Sealed deck: not checked: not every player's secret is in this log.")
    print(f"This game is already over, so there is nothing to resume; watch it again with: "
          f"hedgerow watch {table.log} (or print it: hedgerow replay {table.log})")


def finished_record(path: Path, seat: int, plugins: Any) -> dict[str, Any]:
    """The "result" record of a game over in the log at ``path`` (``seat``'s), with the
    fields `hedgerow.clients.netseat.result_record` gives at the end of a game."""
    from hedgerow.clients.netseat import seat_event_records
    from hedgerow.core.outcome import outcome_data
    from hedgerow.core.sealed import plain
    from hedgerow.net import rulesmatch
    from hedgerow.net.logfile import read_log
    from hedgerow.net.logverify import replay

    read = read_log(path)
    header = read.header
    if header is None:
        raise HedgerowError(f"{path} is not a table log: {read.problem}")
    ruleset = rulesmatch.ruleset_for(plugins, header.fingerprint, header.players)
    done = replay(ruleset, read)
    replayed = done.table
    if replayed is None or done.mismatch is not None:
        raise HedgerowError(f"{path} does not replay")
    outcome = plain(replayed.outcome())
    return {
        "event": "result",
        "game": ruleset.spec.name,
        "variants": list(ruleset.variant_names),
        "fingerprint": ruleset.fingerprint,
        "deck": "sealed" if done.sealed else "open",
        "verified": done.verdict.message if done.verdict is not None else None,
        "players": header.players,
        "seat": seat,
        "seed": header.seed.hex(),
        "phase": "finished",
        "actions": replayed.index,
        "outcome": outcome_data(outcome) if outcome is not None else None,
        "state_hash": done.state_hash.hex() if done.state_hash else None,
        "log": str(path),
        "problem": None,
        "seat_events": seat_event_records(read.events),
    }
