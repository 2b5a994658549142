#!/usr/bin/env python
"""Flourish speed: random playouts per second, and what a step's parts cost.

Run from the repository root (with the venv active)::

    python bench/flourish_playouts.py              # the full run, a minute or two
    python bench/flourish_playouts.py --quick      # a smaller run, a few seconds
    python bench/flourish_playouts.py --players 3,7 --variant compost

Everything is measured in the same process, each figure as the best of several rounds
(the least disturbed by other load), absolutely and as a ratio against a baseline measured
in the same run, so that figures from different machines compare:

* **playouts**: complete random games through the `GameDef` alone: setup, chance resolved
  from the seed as the engine does (`SeededChance`), and at every simultaneous step each
  seat picks a legal action uniformly with a core `Rng` against the step's starting state,
  then the choices are applied in seat order; then ``outcome``.  Baseline: as many
  ``Rng.randbelow`` calls as the games make (the randomness alone).
* **through Table**: the same games through `hedgerow.core.table.Table.play_step` (step
  gate, hash chain), and with the canonical state hash after every step as a networked
  peer computes it; ratios against the bare `GameDef` games.
* **parts of a step** (on states collected from real games): ``legal_actions`` (lazy) and
  listing it whole, one ``apply`` that records a choice, the last ``apply`` that resolves
  the turn, ``view`` and ``determinize`` of one seat.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from hedgerow.core import Rng, SetupContext
from hedgerow.core.chance import SeededChance
from hedgerow.core.host import Host
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table


def race(rounds: int, runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The shortest wall time (seconds) of each run over ``rounds`` rounds, the runs taking
    turns within every round so that a burst of load elsewhere hits them alike."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


class CountingRng(Rng):
    """An `Rng` that counts its ``randbelow`` calls (to size the baseline)."""

    __slots__ = ("calls",)

    def __init__(self, seed: bytes, stream: str = "") -> None:
        super().__init__(seed, stream)
        self.calls = 0

    def randbelow(self, n: int) -> int:
        self.calls += 1
        return super().randbelow(n)


def playout(game: Any, players: int, seed: bytes, rng: Rng,
            states: list[tuple[Any, dict[int, Any]]] | None = None) -> object:
    """One complete random game through the GameDef; its outcome."""
    source = SeededChance(seed)
    state = game.setup(SetupContext(players))
    active, legal_actions, apply = game.active_seats, game.legal_actions, game.apply
    index = 0
    while True:
        chance = game.chance(state)
        while chance is not None:
            state = game.resolve(state, source.resolve(index, chance))
            index += 1
            chance = game.chance(state)
        seats = active(state)
        if not seats:
            return game.outcome(state)
        choices = {}
        for seat in seats:
            legal = legal_actions(state, seat)
            choices[seat] = legal[rng.randbelow(len(legal))]
        if states is not None:
            states.append((state, choices))
        for seat in seats:
            state = apply(state, seat, choices[seat])
            index += 1


def table_playout(ruleset: Any, players: int, seed: bytes, rng: Rng, hashed: bool) -> object:
    """The same game through the table engine, and when ``hashed`` the canonical state hash
    after every step, as a networked peer does."""
    table = Table(ruleset, players, seed)
    game = ruleset.gamedef
    while True:
        seats = table.active_seats()
        if not seats:
            return table.outcome()
        state = table.state
        choices = {}
        for seat in seats:
            legal = game.legal_actions(state, seat)
            choices[seat] = legal[rng.randbelow(len(legal))]
        table.play_step(choices)
        if hashed:
            table.state_hash()


def report(ruleset: Any, players: int, seeds: list[bytes], rounds: int) -> None:
    """Measure and print every figure for one player count."""
    game = ruleset.gamedef
    games = len(seeds)
    few = seeds[: max(1, games // 5)]

    counter = CountingRng(b"bench-count")
    for s in seeds:
        playout(game, players, s, counter)
    draws = counter.calls

    def games_run() -> None:
        rng = Rng(b"bench")
        for s in seeds:
            playout(game, players, s, rng)

    def baseline_run() -> None:
        rng = Rng(b"bench-baseline")
        for _ in range(draws):
            rng.randbelow(120)

    def table_run(hashed: bool) -> Callable[[], None]:
        def run() -> None:
            rng = Rng(b"bench")
            for s in few:
                table_playout(ruleset, players, s, rng, hashed=hashed)
        return run

    t = race(rounds, {"games": games_run, "rng": baseline_run, "table": table_run(False),
                      "hashed": table_run(True)})
    t_games, t_base = t["games"] / games, t["rng"] / games
    t_table, t_hashed = t["table"] / len(few), t["hashed"] / len(few)
    label = f"{players} players"
    print(f"{label + ', random playouts':36}{1 / t_games:>10,.0f}{t_games * 1e3:>10.2f}ms"
          f"{t_games / t_base:>9.1f}x  (vs the Rng alone, {draws / games:.0f} draws)")
    print(f"{label + ', through Table':36}{1 / t_table:>10,.0f}{t_table * 1e3:>10.2f}ms"
          f"{t_table / t_games:>9.2f}x  (vs the bare GameDef)")
    print(f"{label + ', Table + state hashes':36}{1 / t_hashed:>10,.0f}"
          f"{t_hashed * 1e3:>10.2f}ms{t_hashed / t_games:>9.2f}x  (vs the bare GameDef)")

    collected: list[tuple[Any, dict[int, Any]]] = []
    rng = Rng(b"bench-states")
    for s in seeds[:100]:
        playout(game, players, s, rng, collected)
    first = [(st, min(ch), ch[min(ch)]) for st, ch in collected]
    last = []
    for st, ch in collected:  # the state before the last choice of the step, and that choice
        seats = sorted(ch)
        for seat in seats[:-1]:
            st = game.apply(st, seat, ch[seat])
        last.append((st, seats[-1], ch[seats[-1]]))

    def applying(items: list[tuple[Any, int, Any]]) -> Callable[[], None]:
        def run() -> None:
            for st, seat, action in items:
                game.apply(st, seat, action)
        return run

    def lazy() -> None:
        for st, seat, _ in first:
            game.legal_actions(st, seat)

    def whole() -> None:
        for st, seat, _ in first:
            list(game.legal_actions(st, seat))

    def viewing() -> None:
        for st, seat, _ in first:
            game.view(st, seat)

    def redealing() -> None:
        r = Rng(b"bench-det")
        for st, seat, _ in first:
            game.determinize(st, seat, r)

    n = len(first)
    t = race(rounds, {"record": applying(first), "resolve": applying(last), "lazy": lazy,
                      "whole": whole, "view": viewing, "det": redealing})
    t_record = t["record"] / n
    sizes = [len(game.legal_actions(st, seat)) for st, seat, _ in first]
    rows = [("one apply (a choice recorded)", t["record"] / n, ""),
            ("the last apply (the turn resolved)", t["resolve"] / n, ""),
            ("legal_actions (lazy)", t["lazy"] / n,
             f"{sum(sizes) / len(sizes):.0f} actions on average, {max(sizes)} at most"),
            ("... listing them all", t["whole"] / n, ""),
            ("view of one seat", t["view"] / n, ""),
            ("determinize for one seat", t["det"] / n, "")]
    for what, seconds, note in rows:
        print(f"{'   ' + what:36}{'':>10}{seconds * 1e6:>10.1f}us"
              f"{seconds / t_record:>9.1f}x  (vs recording a choice{'; ' + note if note else ''})")
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the best is kept)")
    parser.add_argument("--players", default="2,3,4,7", help="player counts, comma separated")
    parser.add_argument("--variant", action="append", default=[], help="a variant to use")
    parser.add_argument("--quick", action="store_true", help="60 games, 2 rounds")
    args = parser.parse_args(argv)
    games, rounds = (60, 2) if args.quick else (args.games, args.rounds)
    host = Host(autoload=False)
    seeds = [seed_from_int(i) for i in range(games)]
    counts = [int(p) for p in args.players.split(",")]
    name = "+".join(["flourish", *args.variant])
    print(f"{name} playouts: {games} games per round, best of {rounds} rounds\n")
    print(f"{'':36}{'per second':>10}{'per game':>12}{'ratio':>10}")
    for players in counts:
        report(host.ruleset("flourish", args.variant, players=players), players, seeds, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
