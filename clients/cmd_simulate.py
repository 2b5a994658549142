"""``hedgerow simulate``: watch bots play single games in one process, with fixed seats.

``simulate`` is for looking at games one by one: the bots sit in the seats in the order
given, every game gets a line (or a JSON object) with its headline and final state hash, and
any game can be played again exactly.  To compare bots (seats rotated, games in parallel,
confidence intervals), use ``hedgerow tournament``; both record a game with
`hedgerow.clients.tournament_play.play_record` and count results with
`hedgerow.core.tournament_stats.Tally`.

Game ``i`` (counting from 0) of a run uses the table seed ``seed_from_int(S + i)``, so any
single game of a run, or of a tournament, can be replayed with ``--seed S+i --games 1``.
Without ``--seed``, ``S`` is drawn at random for the run and shown
(`hedgerow.clients.tournament_play.run_seed`: a small seed could be found by a bot that
tries seeds against its own random stream).

Every kind of result reads the same way (`hedgerow.core.outcome`): one line per game with
its headline, then a summary with each seat's wins and mean score and, for games that
grade a result (cooperative medals, solo ranks), how often each grade was reached.
``--json`` prints one object per game: the game record (``outcome`` is `outcome_data`
with its ``kind``) with the game's name, variants, fingerprint and player count, and
without the bots' thinking times (``hedgerow tournament --json`` has them), so the same
seed prints the same lines.
"""

from __future__ import annotations

import argparse
import json
import sys

from hedgerow.clients.cli import make_plugin_host
from hedgerow.clients.progress import progress_bar
from hedgerow.clients.tournament_play import play_record, run_seed
from hedgerow.core import botchoice
from hedgerow.core.outcome import headline
from hedgerow.core.tournament_stats import Tally


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow simulate``."""
    parser.description = (
        "Watch bots play single games in one process: the bots sit in the seats in the "
        "order given, and every game gets a line (or a JSON object) with its result and "
        "final state hash, so any game can be played again with --seed.  To compare bots "
        "(seats rotated, games in parallel, confidence intervals), use hedgerow tournament."
    )
    parser.add_argument("game", help="the game to play (see: hedgerow games)")
    parser.add_argument("--players", type=int, default=None, help="seats at the table")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="V",
        help="a variant to use (repeat for several)",
    )
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the first game (default: drawn at random, and shown)")
    parser.add_argument(
        "--bots",
        default="random",
        metavar="NAME,...",
        help="bot per seat, comma separated, reused in turn (default: random)",
    )
    parser.add_argument("--games", type=int, default=1, metavar="K", help="games to play")
    parser.add_argument("--json", action="store_true", help="one JSON object per game per line")


def run(args: argparse.Namespace) -> int:
    """Play the games and print one line (or JSON object) per game, then a summary."""
    from hedgerow.core.errors import HedgerowError

    plugins = make_plugin_host(args)
    spec = plugins.game(args.game)
    ruleset = plugins.ruleset(args.game, args.variant)
    players = args.players if args.players is not None else ruleset.players_default
    ruleset.check_players(players)
    if args.games < 1:
        raise HedgerowError(f"--games must be at least 1, not {args.games}")
    names = [n for n in botchoice.split_list(args.bots) if n]
    bots = botchoice.resolve_list(plugins, args.bots, args.game)
    seat_bots = [names[s % len(names)] for s in range(players)]
    seat_specs = [bots[s % len(bots)] for s in range(players)]
    first = run_seed(args.seed)
    tally = Tally(seat_bots)
    show_progress = not args.json and args.games > 1 and sys.stderr.isatty()
    with progress_bar(args.games, show_progress) as game_done:
        for i in range(args.games):
            seed_number = first + i
            outcome, played = play_record(ruleset, players, seed_number, seat_specs, seat_bots, i)
            tally.add(played, range(players))
            record = {
                "game": spec.name,
                "variants": list(ruleset.variant_names),
                "fingerprint": ruleset.fingerprint,
                "players": players,
                # the same seed gives the same line: the bots' thinking times are left out
                **{k: v for k, v in played.items() if k != "seconds"},
            }
            if args.json:
                print(json.dumps(record), flush=True)
            elif args.games == 1 or not show_progress:
                seats = tuple(f"seat {s}" for s in range(players))
                scores = ", ".join(str(s) for s in outcome.scores)
                print(
                    f"seed {seed_number}: {headline(outcome, seats)} (scores {scores}); "
                    f"{played['actions']} actions; state {played['state_hash']}"
                )
            game_done(1)
    if not args.json and args.games > 1:
        _print_summary(ruleset.fingerprint, players, first, args.games, tally)
    return 0


def _print_summary(fingerprint: str, players: int, first: int, games: int,
                   tally: Tally) -> None:
    """Each seat's wins, share and mean score, and the grades reached (per game)."""
    head = f"{fingerprint}, {players} players, {games} games"
    seeds = f"seeds {first}-{first + games - 1}"
    print(f"\n{head}, {seeds}" if len(head) + len(seeds) + 2 <= 80 else f"\n{head}\n{seeds}")
    print("seat  bot           wins   share   mean score")
    for seat, line in enumerate(tally.lines):
        share = 100.0 * line.wins / games
        print(f"{seat:>4}  {line.label:<12} {line.wins:>5}  {share:5.1f}%"
              f"  {line.score_mean:11.2f}")
    grades = tally.lines[0].grades  # every seat of a graded game reaches the same grade
    if grades:
        reached = ", ".join(f"{label} {count}" for label, count in sorted(grades.items()))
        print(f"grades: {reached}")
