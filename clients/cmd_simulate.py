"""``hedgerow simulate``: play complete games with bots in one process and report outcomes.

Game ``i`` (counting from 0) of a run uses the table seed ``seed_from_int(S + i)``, so any
single game of a tournament can be replayed with ``--seed S+i --games 1``.

Every kind of result reads the same way (`hedgerow.core.outcome`): one line per game with
its headline, then a summary with each seat's wins and mean score and, for games that
grade a result (cooperative medals, solo ranks), how often each grade was reached.
``--json`` prints `outcome_data` with its ``kind``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator

from hedgerow.clients.cli import make_plugin_host
from hedgerow.core.outcome import Cooperative, Outcome, Solo, headline, outcome_data


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow simulate``."""
    parser.add_argument("game", help="the game to play (see: hedgerow games)")
    parser.add_argument("--players", type=int, default=None, help="seats at the table")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="V",
        help="a variant to use (repeat for several)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument(
        "--bots",
        default="random",
        metavar="NAME,...",
        help="bot per seat, comma separated, reused in turn (default: random)",
    )
    parser.add_argument("--games", type=int, default=1, metavar="K", help="games to play")
    parser.add_argument("--json", action="store_true", help="one JSON object per game per line")


def _grade(outcome: Outcome) -> str | None:
    """The grade a cooperative or solo result reached (``"none"`` when it reached none)."""
    if isinstance(outcome, Cooperative | Solo):
        return outcome.grade or "none"
    return None


@contextlib.contextmanager
def progress_bar(total: int, show: bool) -> Iterator[Callable[[], None]]:
    """prompt_toolkit's progress bar on stderr for ``total`` games, when ``show``.

    Yields the function to call after each game (it does nothing when ``show`` is false).
    The bar reads the terminal's keys only for Ctrl-C, which interrupts the run as it does
    without the bar; when stdin is not a terminal it reads none (and asks the terminal
    nothing, so no answer lands in the shell).
    """
    if not show:
        yield lambda: None
        return
    from prompt_toolkit.input import create_input, create_pipe_input
    from prompt_toolkit.output import create_output
    from prompt_toolkit.shortcuts import ProgressBar
    from prompt_toolkit.shortcuts.progress_bar import ProgressBarCounter

    output = create_output(stdout=sys.stderr)
    with contextlib.ExitStack() as stack:
        if sys.stdin.isatty():
            keys = create_input()
        else:
            keys = stack.enter_context(create_pipe_input())
            output.enable_cpr = False  # type: ignore[attr-defined]  # a Vt100_Output
        bar = stack.enter_context(ProgressBar(output=output, input=keys))
        counter: ProgressBarCounter[None] = bar(label="games", total=total)
        yield counter.item_completed
        counter.done = True


def run(args: argparse.Namespace) -> int:
    """Play the games and print one line (or JSON object) per game, then a summary."""
    from hedgerow.core.errors import HedgerowError
    from hedgerow.core.playout import play
    from hedgerow.core.seeding import seed_from_int

    host = make_plugin_host(args)
    spec = host.game(args.game)
    ruleset = host.ruleset(args.game, args.variant)
    players = args.players if args.players is not None else ruleset.players_default
    ruleset.check_players(players)
    if args.games < 1:
        raise HedgerowError(f"--games must be at least 1, not {args.games}")
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    bots = [host.bot(n, args.game) for n in names]
    if not bots:
        raise HedgerowError("--bots needs at least one bot name")
    wins: Counter[int] = Counter()
    totals: Counter[int] = Counter()
    grades: Counter[str] = Counter()
    show_progress = not args.json and args.games > 1 and sys.stderr.isatty()
    with progress_bar(args.games, show_progress) as game_done:
        for i in range(args.games):
            seed_number = args.seed + i
            table = play(ruleset, players, seed_from_int(seed_number), bots)
            outcome = table.outcome()
            if outcome is None:
                raise HedgerowError(f"seed {seed_number}: the game ended with no outcome")
            wins.update(outcome.winners)
            totals.update(dict(enumerate(outcome.scores)))
            grade = _grade(outcome)
            if grade is not None:
                grades[grade] += 1
            record = {
                "game": spec.name,
                "variants": list(ruleset.variant_names),
                "fingerprint": ruleset.fingerprint,
                "players": players,
                "seed": seed_number,
                "bots": [names[s % len(names)] for s in range(players)],
                "actions": table.index,
                "outcome": outcome_data(outcome),
                "state_hash": table.state_hash().hex(),
            }
            if args.json:
                print(json.dumps(record), flush=True)
            elif args.games == 1 or not show_progress:
                seats = tuple(f"seat {s}" for s in range(players))
                scores = ", ".join(str(s) for s in outcome.scores)
                print(
                    f"seed {seed_number}: {headline(outcome, seats)} (scores {scores}); "
                    f"{table.index} actions; state {record['state_hash']}"
                )
            game_done()
    if not args.json and args.games > 1:
        print(f"\n{ruleset.fingerprint}, {players} players, {args.games} games")
        print("seat  bot           wins   share   mean score")
        for seat in range(players):
            share = 100.0 * wins[seat] / args.games
            mean = totals[seat] / args.games
            print(f"{seat:>4}  {names[seat % len(names)]:<12} {wins[seat]:>5}  {share:5.1f}%"
                  f"  {mean:11.2f}")
        if grades:
            reached = ", ".join(f"{label} {count}" for label, count in sorted(grades.items()))
            print(f"grades: {reached}")
    return 0
