"""``hedgerow leaderboard GAME [--variant V] [--week YYYY-Www] [--json] [--add LOGFILE]``.

Shows one board for one ISO week (the current one by default, in UTC): each player's
average, games played, best score and the rank that best game earned.  ``--add LOGFILE``
puts a finished solo game on the board from its log (a game finished with ``hedgerow
resume`` or ``hedgerow host``), after the same replay check ``hedgerow play`` passes; it
counts in the week it is added.  Boards and decisions: docs/leaderboard.md.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from hedgerow.clients.cli import make_plugin_host
from hedgerow.clients.leaderboard import Clock, IsoWeek, boards, utc_now


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow leaderboard``."""
    parser.add_argument("game", help="the game whose board to show (a game with a solo "
                                     "leaderboard: hedgerow games marks them)")
    parser.add_argument("--variant", action="append", default=[], metavar="V",
                        help="the board of games played with variant V (repeat for several); "
                             "each set of variants has its own board")
    parser.add_argument("--week", default=None, metavar="YYYY-Www",
                        help="the ISO week to show, e.g. 2026-W49 (default: this week, UTC)")
    parser.add_argument("--json", action="store_true", help="print the board as JSON")
    parser.add_argument("--add", default=None, metavar="LOGFILE",
                        help="check a finished solo game's log and put it on the board")


def run(args: argparse.Namespace, *, clock: Clock = utc_now) -> int:
    """Show the board (or add a log to it); 0 on success."""
    from hedgerow.core.errors import HedgerowError

    host = make_plugin_host(args)
    known = boards(host.games)
    if args.game not in known:
        raise HedgerowError(f"no leaderboard for {args.game!r} (leaderboards: "
                            f"{', '.join(known) or 'none installed'})", code="unknown_game")
    ruleset = host.ruleset(args.game, args.variant, 1)  # unknown or non-solo variants fail here
    variants = list(ruleset.variant_names)
    title = ruleset.spec.title + "".join(f" + {v}" for v in variants)
    if args.add is not None:
        if args.week is not None:
            raise HedgerowError("--add puts a game in the current week; leave out --week")
        return _add(args, host, clock)
    week = IsoWeek.parse(args.week) if args.week is not None else IsoWeek.of(clock())
    from hedgerow.clients.leaderboard import Leaderboard

    with Leaderboard(create=False) as board:
        lines = board.standings(args.game, variants, week)
    if args.json:
        print(json.dumps({"game": args.game, "variants": variants, "week": str(week),
                          "from": week.monday.isoformat(), "to": week.sunday.isoformat(),
                          "players": [line.data() for line in lines]}))
        return 0
    mon, sun = week.monday, week.sunday
    span = f"Mon {mon.day} {mon:%b} to Sun {sun.day} {sun:%b %Y}"
    print(f"{title} leaderboard, week {week} ({span}, UTC)")
    if not lines:
        print("No games recorded this week.")
        return 0
    width = max(6, *(len(line.player) for line in lines))
    print(f"{'#':>3}  {'Player':<{width}}  {'Games':>5}  {'Average':>7}  {'Best':>4}  "
          "Rank of best")
    for line in lines:
        print(f"{line.place:>3}  {line.player:<{width}}  {line.games:>5}  "
              f"{line.average:>7.2f}  {line.best:>4}  {line.rank}")
    return 0


def _add(args: argparse.Namespace, host: Any, clock: Clock) -> int:
    from hedgerow.clients.leaderboard import leaderboard_command, submit
    from hedgerow.core.errors import HedgerowError

    try:
        with open(args.add, "rb") as f:
            log = f.read()
    except OSError as exc:
        raise HedgerowError(f"cannot read {args.add}: {exc.strerror or exc}") from None
    entry = submit(log, lambda h: host.ruleset(h.game, h.variants, h.players), game=args.game,
                   finished_at=clock())
    checked = entry.checked
    if args.json:
        print(json.dumps({"game_id": checked.game_id, "game": checked.game,
                          "variants": list(checked.variants), "player": checked.player,
                          "score": checked.score, "rank": checked.rank,
                          "finished_at": entry.finished_at.isoformat(),
                          "week": str(entry.week)}))
    else:
        print(f"Recorded for {entry.week}: {checked.player}, {checked.score} points "
              f"({checked.rank}). See: {leaderboard_command(checked.game, checked.variants)}")
    return 0
