"""ISMCTS: iterations per second per game, and win rates against ``random`` and ``greedy``.

``python bench/ismcts.py speed`` (about a minute): for each game at 2 players, positions
are collected from seeded random games (every third decision); at each, the ``ismcts`` bot
runs a fixed number of iterations (``--iterations``).  Baselines in the same rounds: one
random playout of the game from its start, and one ``apply`` of a legal action at the same
positions.  The runs take turns within each round and the best round counts (`race`, in
CPU time of this process), so a burst of load elsewhere hits them alike.
``speed --budget 1s`` runs the bot as it plays instead, a time budget a move, and gives
its iterations per CPU-second of the whole decision: a decision costs a fixed part (the
root candidates ranked, each other seat's reply judged once per tree node and pool
sample) and a part per iteration, so a fixed iteration count below what the budget buys
shows a lower rate than the bot reaches in play.

``python bench/ismcts.py match GAME --games N [--budget 1s] [--against random]``: ``N``
2-player games of ``ismcts:BUDGET`` against another bot, seats alternating (the game
``i`` uses the table seed ``seed_from_int(i)`` and seats ismcts first when ``i`` is even),
then the share of games ismcts won with a 95% Wilson interval.  A game with several
winners (a shared victory) counts as half a win.  ``--json`` prints one line per game
(with the bot's iterations, and its wall and CPU seconds thinking).  Give an iteration
budget (``--budget 5000``, what one CPU-second buys by ``speed --iterations 5000``) for
games that replay exactly and do not depend on the machine's load.
Games are long at one second a move (a Petals game is about 35 moves a seat): choose
``N`` you can afford, and ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hedgerow.core import Rng
from hedgerow.core.botchoice import resolve
from hedgerow.core.playout import make_bot, make_bots
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table

GAMES = ("petals", "flowers", "mandala", "flourish")


def race(rounds: int, runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The least CPU time (seconds, this process) of each run over ``rounds`` rounds, the
    runs taking turns within each round.  CPU time rather than wall time: on a shared
    machine a process waits for a core, and that wait is not the bot's cost."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    return best


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share ``wins / games``."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


# -- speed -----------------------------------------------------------------------------------


def positions(plugins: PluginHost, game: str, count: int) -> list[tuple[Table, int]]:
    """``count`` positions (table, seat to act alone) from seeded random 2-player games."""
    ruleset = plugins.ruleset(game, players=2)
    rules = ruleset.gamedef
    found: list[tuple[Table, int]] = []
    number = 0
    while len(found) < count:
        table = Table(ruleset, 2, seed_from_int(1000 + number))
        rng = Rng(b"bench-positions", str(number))
        number += 1
        decision = 0
        while table.active_seats() and len(found) < count:
            active = table.active_seats()
            picks = {}
            for seat in active:
                legal = rules.legal_actions(table.state, seat)
                picks[seat] = legal[rng.randbelow(len(legal))]
            decision += 1
            if decision % 3 == 0 and len(active) >= 1:
                snapshot = Table(ruleset, 2, table.header.seed)
                for entry in table.entries:
                    snapshot.follow(entry.index, entry.seat, entry.action)
                found.append((snapshot, active[0]))
            if len(active) == 1:
                table.play(active[0], picks[active[0]])
            else:
                table.play_step(picks)
    return found


def speed(args: argparse.Namespace) -> None:
    plugins = PluginHost(autoload=False)
    if args.budget:
        print(f"ISMCTS iterations per CPU-second at a time budget of {args.budget} a move, "
              f"2 players, {args.positions} positions, best of {args.rounds} rounds")
        print(f"{'game':<10} {'iter/s':>8} {'iter/move':>10} {'cpu/wall':>9}")
        for game in args.games or GAMES:
            _budget_one(plugins, game, args)
        return
    print(f"ISMCTS iterations per second, 2 players, {args.iterations} iterations a "
          f"decision at {args.positions} positions, best of {args.rounds} rounds")
    print(f"{'game':<10} {'iter/s':>8} {'us/iter':>8} {'apply us':>9} {'iter/apply':>10} "
          f"{'playout ms':>10} {'iter/s x playout':>16}")
    for game in args.games or GAMES:
        _speed_one(plugins, game, args)


def _speed_one(plugins: PluginHost, game: str, args: argparse.Namespace) -> None:
    """One game's row of the speed table."""
    ruleset = plugins.ruleset(game, players=2)
    rules = ruleset.gamedef
    spots = positions(plugins, game, args.positions)
    spec = resolve(plugins, f"ismcts:{args.iterations}{args.extra}", game)
    random_spec = resolve(plugins, "random", game)
    iterations = 0

    def search() -> None:
        nonlocal iterations
        iterations = 0
        for number, (table, seat) in enumerate(spots):
            bot: Any = make_bot(ruleset, 2, seed_from_int(number), spec, seat)
            bot.choose(table.view(seat), rules.legal_actions(table.state, seat))
            iterations += bot.last_iterations

    def applies() -> None:
        for table, seat in spots:
            legal = rules.legal_actions(table.state, seat)
            for k in range(0, len(legal), max(1, len(legal) // 10)):
                rules.apply(table.state, seat, legal[k])

    applied = sum(len(range(0, len(rules.legal_actions(t.state, s)),
                            max(1, len(rules.legal_actions(t.state, s)) // 10)))
                  for t, s in spots)
    counter = [0]

    def playout() -> None:
        counter[0] += 1
        bots = make_bots(ruleset, 2, seed_from_int(counter[0]), [random_spec])
        table = Table(ruleset, 2, seed_from_int(counter[0]))
        while table.active_seats():
            active = table.active_seats()
            picks = {s: bots[s].choose(table.view(s), rules.legal_actions(table.state, s))
                     for s in active}
            if len(active) == 1:
                table.play(active[0], picks[active[0]])
            else:
                table.play_step(picks)

    best = race(args.rounds, {"search": search, "apply": applies, "playout": playout})
    per_iter = best["search"] / iterations
    per_apply = best["apply"] / applied
    print(f"{game:<10} {1 / per_iter:>8,.0f} {per_iter * 1e6:>8.1f} "
          f"{per_apply * 1e6:>9.1f} {per_iter / per_apply:>10.1f} "
          f"{best['playout'] * 1e3:>10.2f} {best['playout'] / per_iter:>16.1f}",
          flush=True)


def _budget_one(plugins: PluginHost, game: str, args: argparse.Namespace) -> None:
    """One game's row at a time budget: the bot as it plays (``ismcts:1s`` by default)
    at each position, its iterations over the CPU time of this process while it thought
    (the whole decision: sampling, ranking the root candidates, the search).  A time
    budget fixes the wall time, so each round's rate is its own; the best round counts."""
    ruleset = plugins.ruleset(game, players=2)
    rules = ruleset.gamedef
    spots = positions(plugins, game, args.positions)
    spec = resolve(plugins, f"ismcts:{args.budget}{args.extra}", game)
    best = (0.0, 0.0, 0.0)
    for _ in range(args.rounds):
        iterations = 0
        cpu = wall = 0.0
        for number, (table, seat) in enumerate(spots):
            bot: Any = make_bot(ruleset, 2, seed_from_int(number), spec, seat)
            view, legal = table.view(seat), rules.legal_actions(table.state, seat)
            start, start_cpu = time.perf_counter(), time.process_time()
            bot.choose(view, legal)
            cpu += time.process_time() - start_cpu
            wall += time.perf_counter() - start
            iterations += bot.last_iterations
        rate = iterations / cpu
        if rate > best[0]:
            best = (rate, iterations / len(spots), cpu / wall)
    rate, per_move, share = best
    print(f"{game:<10} {rate:>8,.0f} {per_move:>10,.0f} {share:>9.2f}", flush=True)


# -- matches ---------------------------------------------------------------------------------


def one_game(game: str, number: int, budget: str, against: str) -> dict[str, Any]:
    """Game ``number`` of a match: ismcts sits first when ``number`` is even."""
    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset(game, players=2)
    rules = ruleset.gamedef
    mine = resolve(plugins, f"ismcts:{budget}", game)
    other = resolve(plugins, against, game)
    seat = number % 2
    specs = [mine, other] if seat == 0 else [other, mine]
    seed = seed_from_int(number)
    bots = make_bots(ruleset, 2, seed, specs)
    table = Table(ruleset, 2, seed)
    iterations = moves = searched = 0
    thinking = cpu = 0.0
    while table.active_seats():
        active = table.active_seats()
        picks = {}
        for s in active:
            legal = rules.legal_actions(table.state, s)
            start, start_cpu = time.perf_counter(), time.process_time()
            picks[s] = bots[s].choose(table.view(s), legal)
            if s == seat:
                thinking += time.perf_counter() - start
                cpu += time.process_time() - start_cpu
                moves += 1
                searched += len(legal) > 1
                iterations += getattr(bots[s], "last_iterations", 0)
        if len(active) == 1:
            table.play(active[0], picks[active[0]])
        else:
            table.play_step(picks)
    outcome = table.outcome()
    assert outcome is not None
    winners = outcome.winners
    share = (1.0 / len(winners)) if seat in winners else 0.0
    return {"game": game, "number": number, "ismcts_seat": seat, "against": against,
            "budget": budget, "win": share, "scores": list(outcome.scores),
            "moves": moves, "searched": searched, "iterations": iterations,
            "thinking_s": round(thinking, 2), "thinking_cpu_s": round(cpu, 2)}


def match(args: argparse.Namespace) -> None:
    wins = 0.0
    done = 0
    iters = moves = searched = 0
    cpu = 0.0
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(one_game, args.game, args.first + i, args.budget, args.against)
                   for i in range(args.games)]
        for future in futures:
            record = future.result()
            done += 1
            wins += record["win"]
            iters += record["iterations"]
            moves += record["moves"]
            searched += record["searched"]
            cpu += record["thinking_cpu_s"]
            if args.json:
                print(json.dumps(record), flush=True)
    low, high = wilson(wins, done)
    print(f"{args.game}: ismcts:{args.budget} vs {args.against}: won {wins:g} of {done} "
          f"({wins / done:.0%}, 95% CI {low:.0%}-{high:.0%}); "
          f"{iters / max(1, searched):,.0f} iterations and {cpu / max(1, searched):.2f} s "
          "of CPU a searched move (one with a choice)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sp = sub.add_parser("speed", help="iterations per second per game")
    sp.add_argument("--iterations", type=int, default=500)
    sp.add_argument("--positions", type=int, default=8)
    sp.add_argument("--rounds", type=int, default=3)
    sp.add_argument("--extra", default="", help="more ismcts parameters, e.g. ',rollout=4'")
    sp.add_argument("--budget", default="", help="a time budget a move (1s, 250ms): "
                    "iterations per CPU-second of the bot as it plays, in place of "
                    "--iterations")
    sp.add_argument("games", nargs="*")
    mp = sub.add_parser("match", help="win rate of ismcts against another bot")
    mp.add_argument("game")
    mp.add_argument("--games", type=int, default=10)
    mp.add_argument("--first", type=int, default=0, help="number of the first game")
    mp.add_argument("--budget", default="1s")
    mp.add_argument("--against", default="random")
    mp.add_argument("--workers", type=int, default=1)
    mp.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.what == "speed":
        speed(args)
    else:
        match(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
