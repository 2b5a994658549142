#!/usr/bin/env python
"""Does Petals' ``evaluate`` make a better bot than its ``score``?  Greedy against greedy.

Run from the repository root (with the venv active)::

    python bench/petals_bots.py                      # evaluate vs score and vs random, 200 each
    python bench/petals_bots.py --games 400 --variant harmony
    python bench/petals_bots.py --a evaluate:hand=0 --b score   # a judgement's parts alone
    python bench/petals_bots.py --cost               # evaluate's cost against one apply

Two-player games, the seats alternating (game ``n`` seats player A first when ``n`` is
even), seeds ``0 .. games-1`` (``--first`` moves them), so a run is reproducible whatever
``--workers``.  Both players are the same tiny greedy, written here so that the
experiment does not depend on how the built-in bots are wired: it samples one state from
its view through `BotModel`, plays every legal action on it (chance resolved at random)
and keeps one of those after which its judgement of its own seat is highest, ties broken
by its own seeded stream.  The judgement is the only difference:

* ``score``: the game's ``BotSupport.score`` (the figure now);
* ``evaluate``: Petals' ``BotSupport.evaluate`` (`hedgerow.plugins.petals.bots.evaluate`);
  ``evaluate:spread=1.2,hand=0.5,lead=1`` builds it with other constants, to try them;
* ``random``: a uniform legal action (no greedy at all).

A judgement reaches the model as the ``score`` of a copy of the game's `BotSupport`
(``dataclasses.replace``), which the greedy here asks for.  The result is player
A's share of wins (a shared victory counts 1/k) with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hedgerow.core import Action, Rng
from hedgerow.core.botmodel import BotModel
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.petals.bots.evaluate import evaluator
from hedgerow.plugins.petals.game import final_scoring, score_rule

Judge = Callable[[Any, int], float]


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``wins`` successes in ``games`` trials."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def judge(name: str, ruleset: Ruleset) -> Judge | None:
    """The judgement a player name stands for (None for ``random``)."""
    bots = ruleset.bots
    assert bots is not None
    kind, _, params = name.partition(":")
    if kind == "random":
        return None
    if kind == "score":
        assert bots.score is not None
        return bots.score
    if kind == "evaluate" and not params:
        assert bots.evaluate is not None, "this Petals has no evaluate"
        return bots.evaluate
    if kind == "evaluate":
        ext = ruleset.ext
        assert ext is not None
        values = {k: float(v) for k, v in (p.split("=") for p in params.split(","))}
        return evaluator(score_rule(ext), final_scoring(ext), **values)
    raise SystemExit(f"unknown player {name!r}: score, evaluate[:k=v,...] or random")


class Greedy:
    """The action after which ``judgement`` of its own seat is highest (see the docstring)."""

    def __init__(self, ruleset: Ruleset, judgement: Judge | None, seat: int,
                 rng: Rng) -> None:
        self.judgement = judgement
        assert ruleset.bots is not None
        self.model = BotModel(ruleset.gamedef, dataclasses.replace(
            ruleset.bots, score=judgement, evaluate=None, evaluate_each=None), seat, 2)
        self.seat = seat
        self.rng = rng

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        """One of the best actions by the judgement (uniform for ``random``)."""
        rng = self.rng
        if self.judgement is None or len(legal) == 1:
            return legal[rng.randbelow(len(legal))]
        model, seat = self.model, self.seat
        state = model.sample(view, rng)
        best: list[int] = []
        top = -math.inf
        for index in range(len(legal)):
            value = model.score(model.step(state, seat, legal[index], rng), seat)
            if value > top:
                top, best = value, [index]
            elif value == top:
                best.append(index)
        return legal[best[rng.randbelow(len(best))]]


def one_game(a: str, b: str, variants: tuple[str, ...], number: int) -> tuple[float, int]:
    """Game ``number``: A's share of the win, and how many actions the game took."""
    plugins = PluginHost()
    ruleset = plugins.ruleset("petals", list(variants))
    game = ruleset.gamedef
    seed = seed_from_int(number)
    a_seat = number % 2
    names = (a, b) if a_seat == 0 else (b, a)
    bots = [Greedy(ruleset, judge(names[s], ruleset), s, Rng(seed, "bench-bot").fork(str(s)))
            for s in range(2)]
    table = Table(ruleset, 2, seed)
    actions = 0
    while table.active_seats():
        seat = table.active_seats()[0]
        action = bots[seat].choose(table.view(seat), game.legal_actions(table.state, seat))
        table.play(seat, action)
        actions += 1
    outcome = table.outcome()
    assert outcome is not None
    winners = outcome.winners  # type: ignore[union-attr]
    return (1.0 / len(winners) if a_seat in winners else 0.0), actions


def match(a: str, b: str, variants: tuple[str, ...], games: int, first: int,
          workers: int) -> None:
    """Play the games and print A's share of wins with its interval."""
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(one_game, [a] * games, [b] * games, [variants] * games,
                                range(first, first + games)))
    wins = sum(w for w, _ in results)
    low, high = wilson(wins, games)
    label = "+".join(variants) or "standard"
    print(f"petals ({label}), 2 players: greedy {a} vs greedy {b}: won {wins:g} of {games} "
          f"({wins / games:.1%}, 95% CI {low:.1%}-{high:.1%}); "
          f"{time.perf_counter() - start:.0f} s", flush=True)


def cost(variants: tuple[str, ...]) -> None:
    """Time ``evaluate`` and ``score`` against one ``apply`` on positions of real games."""
    ruleset = PluginHost().ruleset("petals", list(variants))
    game, bots = ruleset.gamedef, ruleset.bots
    assert bots is not None and bots.evaluate is not None and bots.score is not None
    rng = Rng(b"bench-cost")
    states: list[tuple[Any, int, Action]] = []
    for number in range(40):
        table = Table(ruleset, 2, seed_from_int(10_000 + number))
        while table.active_seats():
            seat = table.active_seats()[0]
            legal = game.legal_actions(table.state, seat)
            action = legal[rng.randbelow(len(legal))]
            states.append((table.state, seat, action))
            table.play(seat, action)
    runs: dict[str, Callable[[], object]] = {
        "apply": lambda: [game.apply(s, p, x) for s, p, x in states],
        "score": lambda: [bots.score(s, p) for s, p, _ in states],  # type: ignore[misc]
        "evaluate": lambda: [bots.evaluate(s, p) for s, p, _ in states],  # type: ignore[misc]
    }
    best = {k: math.inf for k in runs}
    for _ in range(7):
        for key, run in runs.items():
            t = time.perf_counter()
            run()
            best[key] = min(best[key], (time.perf_counter() - t) / len(states))
    label = "+".join(variants) or "standard"
    print(f"petals ({label}), {len(states)} positions of random games, best of 7:")
    for key in runs:
        print(f"  {key:<9} {best[key] * 1e6:7.2f} us  {best[key] / best['apply']:5.2f} apply")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--a", help="player A (default: evaluate against score and random)")
    parser.add_argument("--b", default="score", help="player B (with --a)")
    parser.add_argument("--cost", action="store_true", help="only time evaluate")
    args = parser.parse_args(argv)
    variants = tuple(args.variant)
    if args.cost:
        cost(variants)
        return 0
    pairs = [(args.a, args.b)] if args.a else [("evaluate", "score"), ("evaluate", "random"),
                                               ("score", "random")]
    for a, b in pairs:
        match(a, b, variants, args.games, args.first, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
