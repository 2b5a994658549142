#!/usr/bin/env python
"""Mandala bots: does judging a position with ``evaluate`` make a bot stronger than ``score``?

Run from the repository root (with the venv active)::

    python bench/mandala_bots.py                      # 200 games per pairing, 2 workers
    python bench/mandala_bots.py --games 400 --workers 2 --variant draw-four
    python bench/mandala_bots.py --pairs greedy-eval:ismcts-score --ismcts 200

Two-player games; each pairing plays ``--games`` games, the two bots swapping seats from
one game to the next (game ``n`` seats the first bot at seat ``n % 2``), with the table seed
``seed_from_int(n)``, so every pairing meets the same deals.  The bots:

* ``random``: the built-in ``random`` bot;
* ``greedy-score``: the built-in ``greedy`` bot, its model's ``score`` the plain score, and
  no ``evaluate`` (so it judges by the score however greedy is wired);
* ``greedy-eval``: the built-in ``greedy`` bot whose model judges by ``GameDef.evaluate``
  (handed to it as the model's ``score``, which works before and after greedy reads
  ``evaluate`` itself);
* ``ismcts-score`` / ``ismcts-eval``: the built-in ``ismcts`` bot with ``--ismcts``
  iterations a move (deterministic), leaves judged by the score or by ``evaluate``.

A game's winner takes 1, a shared victory 1/k to each sharer.  Printed per pairing: the
first bot's wins of ``games`` with a 95% Wilson interval and the mean points of each; and
first the CPU cost of one ``evaluate`` (with nothing remembered, and called again) against
one ``apply`` and one ``score``, on the decision points of random games.
``--ahead``, ``--rival`` and ``--card`` replace the weights of ``greedy-eval`` and
``ismcts-eval`` (`hedgerow.plugins.mandala.bots.outlook.Weights`) to tune them.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hedgerow.core import Rng
from hedgerow.core.botmodel import BotModel
from hedgerow.core.botsupport import BotSupport
from hedgerow.core.game import Bot, BotContext
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.bots import greedy, ismcts, random_bot
from hedgerow.plugins.mandala.bots.outlook import STANDARD, Outlook, Weights

BOTS = ("random", "greedy-score", "greedy-eval", "ismcts-score", "ismcts-eval")
PAIRS = "greedy-eval:greedy-score,greedy-eval:random,greedy-score:random"


def wilson(wins: float, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share."""
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def judged_by(bots: BotSupport[Any, Any], kind: str, weights: Weights,
              ) -> BotSupport[Any, Any]:
    """``bots`` judging by the plain score (``"score"``) or by ``evaluate``."""
    if kind == "score":
        return dataclasses.replace(bots, evaluate=None)
    outlook = bots.evaluate
    assert isinstance(outlook, Outlook)
    judge = outlook.with_weights(weights)
    return dataclasses.replace(bots, score=judge, evaluate=judge)


def make(name: str, ruleset: Ruleset, seat: int, seed: bytes, iterations: int,
         weights: Weights) -> Bot:
    """Bot ``name`` (one of `BOTS`) for ``seat``."""
    kind = name.partition("-")[2] or "score"
    assert ruleset.bots is not None
    model = BotModel(ruleset.gamedef, judged_by(ruleset.bots, kind, weights), seat, 2)
    ctx = BotContext(model, seat, 2,
                     Rng(seed, "bot").fork(str(seat)), game="mandala",
                     params=str(iterations) if name.startswith("ismcts") else "")
    if name == "random":
        return random_bot.RandomBot(ctx)
    if name.startswith("greedy"):
        return greedy.GreedyBot(ctx)
    return ismcts.IsmctsBot(ctx)


def one_game(first: str, second: str, number: int, variants: tuple[str, ...],
             iterations: int, weights: Weights) -> tuple[float, int, int]:
    """Game ``number`` of ``first`` against ``second``: the first bot's win share and both
    bots' points."""
    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset("mandala", list(variants), players=2)
    game = ruleset.gamedef
    mine = number % 2
    seed = seed_from_int(number)
    names = {mine: first, 1 - mine: second}
    bots = [make(names[s], ruleset, s, seed, iterations, weights) for s in range(2)]
    table = Table(ruleset, 2, seed)
    while True:
        active = table.active_seats()
        if not active:
            break
        (seat,) = active
        action = bots[seat].choose(table.view(seat), game.legal_actions(table.state, seat))
        refused = table.play(seat, action)
        assert refused is None, refused
    outcome = table.outcome()
    assert outcome is not None
    winners = outcome.winners
    share = 1.0 / len(winners) if mine in winners else 0.0
    return share, outcome.scores[mine], outcome.scores[1 - mine]


def costs(variants: tuple[str, ...]) -> tuple[float, float, float, float]:
    """Seconds for one ``apply``, one ``score``, one ``evaluate`` with nothing remembered
    (fresh rules each round: every new garden asks the ranking hook) and one ``evaluate``
    called again (what a search mostly meets: gardens change only at resolutions); best of
    5 rounds on the decision points of 20 random games."""
    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset("mandala", list(variants), players=2)
    game = ruleset.gamedef
    rng = Rng(b"mandala-bots/costs")
    points = []
    for n in range(20):
        table = Table(ruleset, 2, seed_from_int(10_000 + n))
        while table.active_seats():
            (seat,) = table.active_seats()
            legal = game.legal_actions(table.state, seat)
            points.append((table.state, seat, legal[0]))
            table.play(seat, legal[rng.randbelow(len(legal))])
    best = {"apply": math.inf, "score": math.inf, "cold": math.inf, "warm": math.inf}

    def timed(name: str, judge: Any) -> None:
        start = time.process_time()
        for state, seat, _ in points:
            judge(state, seat)
        best[name] = min(best[name], time.process_time() - start)

    for _ in range(5):
        start = time.process_time()
        for state, seat, action in points:
            game.apply(state, seat, action)
        best["apply"] = min(best["apply"], time.process_time() - start)
        fresh = plugins.ruleset("mandala", list(variants), players=2).bots
        assert fresh is not None
        timed("score", fresh.score)
        timed("cold", fresh.evaluate)
        timed("warm", fresh.evaluate)
    n = len(points)
    return best["apply"] / n, best["score"] / n, best["cold"] / n, best["warm"] / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--pairs", default=PAIRS,
                        help=f"first:second,... among {', '.join(BOTS)} (default {PAIRS})")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--ismcts", type=int, default=200, help="ismcts iterations a move")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ahead", help="comma-separated weights by colours missing (0-6)")
    parser.add_argument("--rival", type=float, help="weight of the best other seat's share")
    parser.add_argument("--card", type=float, help="points per card in hand")
    args = parser.parse_args(argv)
    weights = STANDARD
    if args.ahead:
        weights = weights._replace(ahead=tuple(float(x) for x in args.ahead.split(",")))
    if args.rival is not None:
        weights = weights._replace(rival=args.rival)
    if args.card is not None:
        weights = weights._replace(card=args.card)
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    for pair in pairs:
        if len(pair) != 2 or not set(pair) <= set(BOTS):
            parser.error(f"bad pairing {':'.join(pair)!r}: two of {', '.join(BOTS)}")
    variants = tuple(args.variant)
    apply_s, score_s, cold_s, warm_s = costs(variants)
    print(f"mandala {'+'.join(variants) or 'standard'}, 2 players, {args.games} games a "
          f"pairing, seats alternating; weights {weights}")
    print(f"CPU time: one apply {apply_s * 1e6:.1f} us; one score {score_s * 1e6:.2f} us "
          f"({score_s / apply_s:.2f} applies); one evaluate {cold_s * 1e6:.2f} us "
          f"({cold_s / apply_s:.2f} applies) with nothing remembered, {warm_s * 1e6:.2f} us "
          f"({warm_s / apply_s:.2f} applies) called again", flush=True)
    with ProcessPoolExecutor(args.workers) as pool:
        for first, second in pairs:
            start = time.perf_counter()
            futures = [pool.submit(one_game, first, second, n, variants, args.ismcts, weights)
                       for n in range(args.games)]
            results = [f.result() for f in futures]
            wins = sum(r[0] for r in results)
            low, high = wilson(wins, len(results))
            mine = sum(r[1] for r in results) / len(results)
            theirs = sum(r[2] for r in results) / len(results)
            print(f"{first:>12} vs {second:<12}: won {wins:g} of {len(results)} "
                  f"({wins / len(results):.1%}, 95% CI {low:.1%}-{high:.1%}); mean points "
                  f"{mine:.1f} to {theirs:.1f}; {time.perf_counter() - start:.0f} s",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
