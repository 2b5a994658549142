#!/usr/bin/env python
"""FLOWERS: how much ``evaluate`` makes a bot stronger than ``score`` does.

Run from the repository root (with the venv active)::

    python bench/flowers_bots.py                     # 200 games a match, standard rules
    python bench/flowers_bots.py --variant summer    # the same under Summer
    python bench/flowers_bots.py --games 40          # a quick look
    python bench/flowers_bots.py --cost              # only what one evaluate costs

Four players, all through `BotModel` (the bots' only door to the rules) and the built-in
``greedy`` bot:

* ``evaluate``: greedy judging each position by the game's ``evaluate`` (its model is built
  on a `GameDef` whose ``score`` is ``evaluate``, so this holds before and after the bots
  read ``evaluate`` themselves);
* ``score``: greedy judging by ``score`` alone (a `GameDef` without ``evaluate``);
* ``random``: a uniform legal action;
* ``through``: greedy judging by ``evaluate`` that looks through a take from the face-down
  stack: it is judged by the mean, over ``--through`` states sampled from the view, of the
  best planting of the card drawn in each (greedy itself judges the take by the state
  right after it, where the card adds nothing, so it seldom takes one).  Not a bot of the
  project: it measures what a card drawn face down is worth, which ``ismcts`` searches
  (``--matches through:evaluate``).

Each match is 2-player games, the first named player in seat 0 in even games and seat 1 in
odd ones (same deal for a pair of games, so neither gains from the seat or the deal).  A
game's deal and bots' streams come from its number and ``--seed`` alone, so a run is
reproducible whatever ``--workers``.  The table gives wins (a shared victory counts half)
with the 95% Wilson interval, and each player's mean score.  ``--lack``, ``--patch``,
``--butterfly`` and ``--share`` try other weights for ``evaluate`` (`evaluate.Weights`).
First it prints what one ``evaluate`` of a garden it has not seen costs, against one
``apply`` (a planting) and one ``score`` (best of five rounds, same process).
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from hedgerow.core import BotContext, Rng, SetupContext
from hedgerow.core.botmodel import BotModel
from hedgerow.core.chance import draw_all
from hedgerow.core.outcome import Ranked
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.plugins.bots.greedy import GreedyBot, tied_best
from hedgerow.plugins.flowers.bots.evaluate import Weights, make_evaluate
from hedgerow.plugins.flowers.game import bind

_GAMES: dict[tuple[tuple[str, ...], Weights], dict[str, Any]] = {}


def gamedefs(variants: tuple[str, ...], weights: Weights) -> dict[str, Any]:
    """The table's `GameDef`, and its `BotSupport` as each player's model sees it (built
    once per process)."""
    found = _GAMES.get((variants, weights))
    if found is None:
        ruleset = PluginHost().ruleset("flowers", list(variants))
        bots = ruleset.bots
        assert ruleset.ext is not None and bots is not None and bots.score is not None
        colour_points = bind(ruleset.ext).colour_points
        evaluate = make_evaluate(colour_points, bots.score, weights)
        found = _GAMES[(variants, weights)] = {
            "colour_points": colour_points,
            "table": ruleset.gamedef,
            "evaluate": replace(bots, score=evaluate, evaluate=evaluate),
            "score": replace(bots, evaluate=None),
            "random": bots,
        }
    return found


class RandomPlayer:
    """A uniform legal action from its own stream."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[self.rng.randbelow(len(legal))]


class ThroughPlayer(GreedyBot):
    """``greedy`` on ``evaluate``, a take judged by its best planting over ``draws`` samples."""

    def __init__(self, ctx: BotContext, draws: int) -> None:
        super().__init__(ctx)
        self.draws = draws

    def choose(self, view: Any, legal: Any) -> Any:
        model, seat, rng = self.model, self.seat, self.rng
        if len(legal) == 1:
            return legal[0]
        states = [model.sample(view, rng) for _ in range(self.draws)]

        def value(action: Any) -> float:
            if action.kind != "take":
                return model.judge(model.step(states[0], seat, action, rng), seat)
            total = 0.0
            for state in states:
                after = model.step(state, seat, action, rng)
                total += max(model.judge(model.step(after, seat, plant, rng), seat)
                             for plant in model.legal_actions(after, seat))
            return total / len(states)

        best = tied_best(list(legal), value)
        return best[rng.randbelow(len(best))]


def play(job: tuple[int, str, str, tuple[str, ...], Weights, int, int]
         ) -> tuple[float, int, int]:
    """One game of ``first`` against ``second``: (first's win share, first's score,
    second's score)."""
    number, first, second, variants, weights, seed, draws = job
    games = gamedefs(variants, weights)
    table = games["table"]
    seed_bytes = seed_from_int(seed * 1_000_003 + number // 2)  # a pair shares its deal
    seat_of = {first: number % 2, second: 1 - number % 2}
    bots: dict[int, Any] = {}
    for name, seat in seat_of.items():
        rng = Rng(seed_bytes, f"bot/{seat}/{number}")
        if name == "random":
            bots[seat] = RandomPlayer(rng)
        else:
            model = BotModel(table, games["evaluate" if name == "through" else name], seat, 2)
            ctx = BotContext(model=model, seat=seat, players=2, rng=rng, game="flowers")
            bots[seat] = ThroughPlayer(ctx, draws) if name == "through" else GreedyBot(ctx)
    state = table.setup(SetupContext(2))
    state = table.resolve(state, draw_all(Rng(seed_bytes, "chance/0"), table.chance(state)))
    while seats := table.active_seats(state):
        seat = seats[0]
        action = bots[seat].choose(table.view(state, seat), table.legal_actions(state, seat))
        state = table.apply(state, seat, action)
    outcome = table.outcome(state)
    assert isinstance(outcome, Ranked)
    mine, theirs = seat_of[first], seat_of[second]
    share = 1.0 / len(outcome.winners) if mine in outcome.winners else 0.0
    return share, outcome.scores[mine], outcome.scores[theirs]


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share ``wins / games``."""
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def match(pool: ProcessPoolExecutor | None, first: str, second: str, args: argparse.Namespace,
          weights: Weights) -> None:
    """Play and print one match."""
    variants = tuple(args.variant)
    jobs = [(n, first, second, variants, weights, args.seed, args.through)
            for n in range(args.games)]
    start = time.perf_counter()
    results = list(pool.map(play, jobs, chunksize=4) if pool else map(play, jobs))
    seconds = time.perf_counter() - start
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, len(results))
    mine = sum(r[1] for r in results) / len(results)
    theirs = sum(r[2] for r in results) / len(results)
    print(f"{first:>8} vs {second:<8} won {wins:5.1f} of {len(results)} "
          f"({wins / len(results):4.0%}, 95% CI {low:4.0%}-{high:4.0%}); mean score "
          f"{mine:5.2f} vs {theirs:5.2f}  [{seconds:.0f} s]", flush=True)


def cost(variants: tuple[str, ...], weights: Weights, rounds: int = 5) -> None:
    """Print what one ``evaluate`` costs against one ``apply`` and one ``score``: on the
    states after every legal planting of the turns of a few random games (each a garden
    neither function has seen, as at a search leaf: a new evaluator each round, since it
    remembers gardens by content too), best of ``rounds``."""
    games = gamedefs(variants, weights)
    table = games["table"]
    score = games["score"].score
    pairs = []
    for number in range(4):
        rng = Rng(seed_from_int(number), "cost")
        state = table.setup(SetupContext(2))
        state = table.resolve(state, draw_all(rng, table.chance(state)))
        while seats := table.active_seats(state):
            legal = table.legal_actions(state, seats[0])
            pairs += [(state, seats[0], a) for a in legal[:8] if a.kind == "plant"]
            state = table.apply(state, seats[0], legal[rng.randbelow(len(legal))])
    best = {"apply": math.inf, "score": math.inf, "evaluate": math.inf}
    for _ in range(rounds):
        start = time.perf_counter()
        after = [(table.apply(s, seat, a), seat) for s, seat, a in pairs]
        best["apply"] = min(best["apply"], time.perf_counter() - start)
        evaluate = make_evaluate(games["colour_points"], score, weights)  # remembers nothing
        for name, judge in (("score", score), ("evaluate", evaluate)):
            fresh = [(table.apply(s, seat, a), seat) for s, seat, a in pairs]  # unseen gardens
            start = time.perf_counter()
            for s, seat in fresh:
                judge(s, seat)
            best[name] = min(best[name], time.perf_counter() - start)
        del after
    n = len(pairs)
    print(f"cost over {n} plantings: apply {best['apply'] / n * 1e6:.1f} us, score "
          f"{best['score'] / n * 1e6:.1f} us ({best['score'] / best['apply']:.1f} applies), "
          f"evaluate {best['evaluate'] / n * 1e6:.1f} us "
          f"({best['evaluate'] / best['apply']:.1f} applies)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cost", action="store_true", help="only measure evaluate's cost")
    parser.add_argument("--matches", default="evaluate:score,evaluate:random,score:random",
                        help="comma-separated first:second pairs (players: evaluate, score, "
                             "random, through)")
    parser.add_argument("--through", type=int, default=8,
                        help="samples the through player judges a face-down take on")
    defaults = Weights()
    for name in Weights._fields:
        parser.add_argument(f"--{name}", type=float, default=getattr(defaults, name))
    args = parser.parse_args()
    if args.through < 1:
        parser.error("--through must be at least 1")
    weights = Weights(*(getattr(args, name) for name in Weights._fields))
    print(f"flowers {'+'.join(args.variant) or 'standard'}, 2 players, {args.games} games a "
          f"match, seed {args.seed}, {weights}", flush=True)
    cost(tuple(args.variant), weights)
    if args.cost:
        return
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for pair in args.matches.split(","):
            first, second = pair.split(":")
            match(pool, first, second, args, weights)
    finally:
        if pool:
            pool.shutdown()


if __name__ == "__main__":
    main()
