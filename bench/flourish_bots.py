#!/usr/bin/env python
"""Flourish: how much stronger ``evaluate`` makes a bot than ``score`` alone.

Run from the repository root (with the venv active)::

    python bench/flourish_bots.py                      # 200 games a match, standard rules
    python bench/flourish_bots.py --variant cooperative --matches evaluate:score
    python bench/flourish_bots.py --games 40 --weights 1,0.5  # a quick look, other weights

Two-player games through `BotModel` (the bots' only door to the rules) and the built-in
``greedy`` bot, which plays the action after which its judgement of its seat is highest:

* ``evaluate``: greedy judging by Flourish's ``evaluate`` (its model's `GameDef` has
  ``score`` replaced by ``evaluate``, so this measures the same thing before and after the
  bots read ``evaluate`` themselves);
* ``score``: greedy judging by ``score`` alone (a `GameDef` without ``evaluate``);
* ``random``: a uniform legal action;
* ``ismcts-evaluate`` and ``ismcts-score``: the built-in ``ismcts`` bot with ``--ismcts``
  iterations a move (default 200), its leaves judged by ``evaluate`` or by ``score``.

In a match the first-named player sits in seat 0 in even games and seat 1 in odd ones, and
each pair of games has the same deal, so neither player gains from the seat or the deal.
A game's deal and the bots' streams come from its number and ``--seed`` alone: a run is
reproducible whatever ``--workers``.  The line per match gives the first player's wins (a
shared victory counts half) with the 95% Wilson interval and both mean scores.  In the
cooperative game both seats share one result: the line gives the team's medals and mean
total instead (``--variant cooperative``; a match against itself makes sense there).

``--cost`` measures instead what ``evaluate`` costs next to one ``apply``, on the states of
a few random games (every seat judged at every step's start): for gardens it has not seen
(its memory and ``score``'s cleared first), with ``score`` remembered (the potential
alone), and asked again (remembered), each against the mean ``apply`` of a step (the
choices recorded and the resolving apply, averaged over the seats), in CPU time of the
process (the machine may be shared).

Measured on 3 December 2026 (seed 1, default weights, a shared 2-core machine):

* greedy with ``evaluate`` against greedy with ``score``: 153 of 200 (76.5%, 95% CI
  70-82%), mean score 80.1 against 67.9; against ``random``: 194 of 200 (97%, 94-99%),
  85.4 against 49.4;
* cooperative, both seats alike: a medal in 104 of 150 games with ``evaluate`` (69%,
  62-76%), team total 171.2, against 57 of 150 with ``score`` (38%, 31-46%), 152.5;
* ismcts (100 iterations a move) judging leaves by ``evaluate`` against by ``score``: 46
  of 60 (77%, 65-86%), mean score 72.4 against 66.3;
* cost of one ``evaluate`` call: about 2-3.5 times the mean ``apply`` of a step for
  gardens not seen (1.4-2.4 times with ``score`` already remembered), 0.1-0.25 times
  asked again, at 2, 4 and 7 players.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from hedgerow.core import BotContext, Cooperative, Ranked, Rng, SetupContext
from hedgerow.core.botmodel import BotModel
from hedgerow.core.chance import draw_all
from hedgerow.core.outcome import Match
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.plugins.bots.greedy import GreedyBot
from hedgerow.plugins.bots.ismcts import IsmctsBot
from hedgerow.plugins.flourish.bots.evaluate import WEIGHTS, Potential

Key = tuple[tuple[str, ...], tuple[float, ...], int]
_GAMES: dict[Key, dict[str, Any]] = {}


def gamedefs(variants: tuple[str, ...], weights: tuple[float, ...], players: int,
             ) -> dict[str, Any]:
    """The table's `GameDef` and each kind of player's `BotSupport` (built once per
    process)."""
    key = (variants, weights, players)
    found = _GAMES.get(key)
    if found is None:
        ruleset = PluginHost().ruleset("flourish", list(variants), players=players)
        bots = ruleset.bots
        assert bots is not None and bots.score is not None
        evaluate = Potential(bots.score, weights) if weights != WEIGHTS else bots.evaluate
        assert evaluate is not None
        found = _GAMES[key] = {
            "table": ruleset.gamedef,
            "evaluate": replace(bots, score=evaluate, evaluate=evaluate),
            "score": replace(bots, evaluate=None),
        }
    return found


class RandomPlayer:
    """A uniform legal action from its own stream."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[self.rng.randbelow(len(legal))]


Job = tuple[int, str, str, tuple[str, ...], tuple[float, ...], int, int]
PLAYERS = ("evaluate", "score", "random", "ismcts-evaluate", "ismcts-score")


def play(job: Job) -> tuple[float, float, float]:
    """One game of ``first`` against ``second``: (first's win share, first's score,
    second's score); cooperative: (1 on a medal, the team total, the team total)."""
    number, first, second, variants, weights, seed, iterations = job
    players = 2
    games = gamedefs(variants, weights, players)
    table = games["table"]
    seed_bytes = seed_from_int(seed * 1_000_003 + number // 2)  # a pair shares its deal
    seats = (number % 2, 1 - number % 2)
    names = {seats[0]: first, seats[1]: second}
    bots: dict[int, Any] = {}
    for seat, name in names.items():
        rng = Rng(seed_bytes, f"bot/{seat}/{number}")
        if name == "random":
            bots[seat] = RandomPlayer(rng)
            continue
        search, _, judge = name.rpartition("-")
        model = BotModel(table, games[judge], seat, players)
        ctx = BotContext(model=model, seat=seat, players=players, rng=rng, game="flourish",
                         params=str(iterations) if search else "")
        bots[seat] = IsmctsBot(ctx) if search else GreedyBot(ctx)
    state = table.setup(SetupContext(players))
    index = 0
    while True:
        chance = table.chance(state)
        while chance is not None:
            state = table.resolve(state, draw_all(Rng(seed_bytes, f"chance/{index}"), chance))
            index += 1
            chance = table.chance(state)
        active = table.active_seats(state)
        if not active:
            break
        choices = {s: bots[s].choose(table.view(state, s), table.legal_actions(state, s))
                   for s in active}
        for s in sorted(choices):  # every seat chose against the step's starting state
            state = table.apply(state, s, choices[s])
    outcome = table.outcome(state)
    if isinstance(outcome, Cooperative):
        return float(outcome.won), float(outcome.total), float(outcome.total)
    ranked = outcome.final if isinstance(outcome, Match) else outcome
    assert isinstance(ranked, Ranked)
    mine, theirs = seats
    share = 1.0 / len(ranked.winners) if mine in ranked.winners else 0.0
    return share, float(ranked.scores[mine]), float(ranked.scores[theirs])


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share ``wins / games``."""
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def match(pool: ProcessPoolExecutor | None, first: str, second: str,
          args: argparse.Namespace, weights: tuple[float, ...]) -> None:
    """Play one match and print its line."""
    variants = tuple(args.variant)
    jobs: list[Job] = [(n, first, second, variants, weights, args.seed, args.ismcts)
                       for n in range(args.games)]
    start = time.perf_counter()
    results = list(pool.map(play, jobs, chunksize=4) if pool else map(play, jobs))
    seconds = time.perf_counter() - start
    n = len(results)
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, n)
    mine = sum(r[1] for r in results) / n
    theirs = sum(r[2] for r in results) / n
    label = "medals" if "cooperative" in variants else "won"
    print(f"{first:>15} vs {second:<15} {label} {wins:5.1f} of {n} ({wins / n:4.0%}, 95% CI "
          f"{low:4.0%}-{high:4.0%}); mean score {mine:5.1f} vs {theirs:5.1f}  "
          f"[{seconds:.0f} s]", flush=True)


def cost(players: int, variants: tuple[str, ...], games: int) -> None:
    """Print what ``evaluate`` costs against the mean ``apply`` (see the module docstring)."""
    ruleset = PluginHost().ruleset("flourish", list(variants), players=players)
    game = ruleset.gamedef
    assert ruleset.bots is not None
    evaluate, score = ruleset.bots.evaluate, ruleset.bots.score
    assert isinstance(evaluate, Potential)
    rng = Rng(b"cost")
    states: list[Any] = []
    steps: list[tuple[Any, dict[int, Any]]] = []
    for number in range(games):
        seed = seed_from_int(number)
        state = game.setup(SetupContext(players))
        index = 0
        while True:
            chance = game.chance(state)
            while chance is not None:
                state = game.resolve(state, draw_all(Rng(seed, f"chance/{index}"), chance))
                index += 1
                chance = game.chance(state)
            active = game.active_seats(state)
            if not active:
                break
            choices = {s: game.legal_actions(state, s)[rng.randbelow(
                len(game.legal_actions(state, s)))] for s in active}
            states.append(state)
            steps.append((state, choices))
            for s in sorted(choices):
                state = game.apply(state, s, choices[s])
    applies = sum(len(c) for _, c in steps)

    def run_steps() -> None:
        for start, choices in steps:
            state = start
            for s in sorted(choices):
                state = game.apply(state, s, choices[s])

    def judged(fresh: bool, potential_only: bool) -> float:
        total = 0.0
        for state in states:
            if fresh:
                evaluate.forget()
            if potential_only:
                for s in range(players):
                    score(state, s)  # type: ignore[misc]
            begin = time.process_time()
            for s in range(players):
                evaluate(state, s)
            total += time.process_time() - begin
        return total

    def best(run: Any, rounds: int = 3) -> float:
        times = []
        for _ in range(rounds):
            begin = time.process_time()
            run()
            times.append(time.process_time() - begin)
        return min(times)

    mean_apply = best(run_steps) / applies
    calls = len(states) * players
    rows = [("evaluate, gardens not seen", min(judged(True, False) for _ in range(3))),
            ("evaluate, score remembered", min(judged(True, True) for _ in range(3))),
            ("evaluate, asked again", min(judged(False, False) for _ in range(3)))]
    print(f"flourish {'+'.join(variants) or 'standard'}, {players} players, {len(states)} "
          f"states, mean apply of a step {mean_apply * 1e6:.0f}us", flush=True)
    for label, seconds in rows:
        each = seconds / calls
        print(f"   {label:<28} {each * 1e6:7.0f}us  {each / mean_apply:5.2f}x the mean apply",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[1])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--matches", default="evaluate:score,evaluate:random,score:random",
                        help="comma-separated first:second pairs")
    parser.add_argument("--weights", default=",".join(str(w) for w in WEIGHTS),
                        help="evaluate's weights of a hand's best gains, best first")
    parser.add_argument("--ismcts", type=int, default=200,
                        help="iterations a move of the ismcts players")
    parser.add_argument("--cost", default="",
                        help="measure evaluate's cost instead, at these player counts (2,4)")
    args = parser.parse_args()
    if args.cost:
        for players in (int(p) for p in args.cost.split(",")):
            cost(players, tuple(args.variant), 4)
        return
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        weights = tuple(float(w) for w in args.weights.split(","))
    except ValueError:
        parser.error(f"--weights takes numbers separated by commas, not {args.weights!r}")
    pairs = [p.split(":") for p in args.matches.split(",")]
    if any(len(p) != 2 or p[0] not in PLAYERS or p[1] not in PLAYERS for p in pairs):
        parser.error(f"--matches takes first:second pairs of {', '.join(PLAYERS)}")
    print(f"flourish {'+'.join(args.variant) or 'standard'}, 2 players, {args.games} games "
          f"a match, seed {args.seed}, weights {weights}", flush=True)
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for first, second in pairs:
            match(pool, first, second, args, weights)
    finally:
        if pool is not None:
            pool.shutdown()


if __name__ == "__main__":
    main()
