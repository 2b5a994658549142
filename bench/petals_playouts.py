#!/usr/bin/env python
"""Petals speed: random playouts per second, and what listing the legal actions costs.

Run from the repository root (with the venv active)::

    python bench/petals_playouts.py            # the full run, about a minute
    python bench/petals_playouts.py --quick    # a smaller run, a few seconds

Everything is measured in the same process, each figure as the best of several rounds
(the least disturbed by other load), and reported both absolutely and as a ratio against
a baseline measured in the same run, so that figures from different machines compare:

* **playouts**: complete random games through the `GameDef` (setup, then
  ``legal_actions`` / pick one uniformly with a core `Rng` / ``apply`` until the end, then
  ``outcome``), for 2 and 4 players.  Baseline: the same number of ``Rng.randbelow`` calls
  a game makes, i.e. the randomness alone.
* **table playouts**: the same games through `hedgerow.core.table.Table` (hash chain and
  canonical state hash on every action), as a ratio against the bare `GameDef` games.
* **legal actions per turn**: ``legal_actions`` (lazy) on states collected from real
  games, against materialising every action (``list(...)``) and against one ``apply``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from hedgerow.core import Rng, SetupContext
from hedgerow.core.host import Host
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.petals.state import State


def best_of(rounds: int, run: Callable[[], object]) -> float:
    """The shortest wall time of ``rounds`` runs of ``run``, in seconds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
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


def playout(game, players: int, seed: bytes, rng: Rng, states: list[State] | None = None,
            setup_rng: Rng | None = None) -> object:
    """One complete random game through the GameDef; its outcome."""
    state = game.setup(SetupContext(players, setup_rng or Rng(seed, "setup")))
    active, legal_actions, apply = game.active_seats, game.legal_actions, game.apply
    while True:
        seats = active(state)
        if not seats:
            return game.outcome(state)
        seat = seats[0]
        if states is not None:
            states.append(state)
        legal = legal_actions(state, seat)
        state = apply(state, seat, legal[rng.randbelow(len(legal))])


def table_playout(ruleset, players: int, seed: bytes, rng: Rng, hashed: bool) -> object:
    """The same game through the table engine (turn checks and hash chain), and when
    ``hashed`` the canonical state hash after every action, as a networked peer does."""
    table = Table(ruleset, players, seed)
    game = ruleset.gamedef
    while True:
        seats = table.active_seats()
        if not seats:
            return table.outcome()
        legal = game.legal_actions(table.state, seats[0])
        table.submit(seats[0], legal[rng.randbelow(len(legal))])
        if hashed:
            table.state_hash()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the best is kept)")
    parser.add_argument("--quick", action="store_true", help="200 games, 3 rounds")
    args = parser.parse_args(argv)
    games, rounds = (200, 3) if args.quick else (args.games, args.rounds)
    host = Host(autoload=False)
    seeds = [seed_from_int(i) for i in range(games)]
    print(f"Petals playouts: {games} games per round, best of {rounds} rounds\n")
    print(f"{'':34}{'per second':>12}{'per game':>12}{'ratio':>10}")
    for players in (2, 4):
        ruleset = host.ruleset("petals", [], players=players)
        game = ruleset.gamedef

        counter = CountingRng(b"bench-count")
        setup_counter = [CountingRng(s, "setup") for s in seeds]
        for s, sc in zip(seeds, setup_counter, strict=True):
            playout(game, players, s, counter, setup_rng=sc)
        draws = counter.calls + sum(sc.calls for sc in setup_counter)

        def games_run(game=game, players=players) -> None:
            rng = Rng(b"bench")
            for s in seeds:
                playout(game, players, s, rng)

        def baseline_run(draws=draws) -> None:
            rng = Rng(b"bench-baseline")
            for _ in range(draws):
                rng.randbelow(300)

        few = seeds[: max(1, games // 5)]

        def table_run(ruleset=ruleset, players=players, few=few) -> None:
            rng = Rng(b"bench")
            for s in few:
                table_playout(ruleset, players, s, rng, hashed=False)

        def hashed_run(ruleset=ruleset, players=players, few=few) -> None:
            rng = Rng(b"bench")
            for s in few:
                table_playout(ruleset, players, s, rng, hashed=True)

        t_games = best_of(rounds, games_run) / games
        t_base = best_of(rounds, baseline_run) / games
        t_table = best_of(rounds, table_run) / len(few)
        t_hashed = best_of(rounds, hashed_run) / len(few)
        label = f"{players} players"
        print(f"{label + ', random playouts':34}{1 / t_games:>12,.0f}{t_games * 1e3:>10.3f}ms"
              f"{t_games / t_base:>9.1f}x  (vs the Rng alone, {draws / games:.0f} draws)")
        print(f"{label + ', through Table':34}{1 / t_table:>12,.0f}{t_table * 1e3:>10.3f}ms"
              f"{t_table / t_games:>9.1f}x  (vs the bare GameDef)")
        print(f"{label + ', Table + state hashes':34}{1 / t_hashed:>12,.0f}"
              f"{t_hashed * 1e3:>10.3f}ms{t_hashed / t_games:>9.1f}x  (vs the bare GameDef)")

        states: list[State] = []
        rng = Rng(b"bench-states")
        for s in seeds[:200]:
            playout(game, players, s, rng, states)
        placing = [(st, st.active) for st in states if st.pending is None]
        choosing = [(st, st.active) for st in states if st.pending is not None]
        firsts = [(st, seat, game.legal_actions(st, seat)[0]) for st, seat in placing]

        def applied(firsts=firsts, game=game) -> None:
            for st, seat, action in firsts:
                game.apply(st, seat, action)

        t_apply = best_of(rounds, applied) / len(placing)
        print(f"{label + ', one apply (placement)':34}{'':>12}{t_apply * 1e6:>10.2f}us")
        for what, pairs in (("placement", placing), ("effect choice", choosing)):
            sizes = [len(game.legal_actions(st, seat)) for st, seat in pairs]

            def lazy(pairs=pairs, game=game) -> None:
                for st, seat in pairs:
                    game.legal_actions(st, seat)

            def listed(pairs=pairs, game=game) -> None:
                for st, seat in pairs:
                    list(game.legal_actions(st, seat))

            t_lazy = best_of(rounds, lazy) / len(pairs)
            t_list = best_of(rounds, listed) / len(pairs)
            share = len(pairs) / len(states)
            print(f"{label + f', legal_actions ({what})':34}{'':>12}{t_lazy * 1e6:>10.2f}us"
                  f"{t_lazy / t_apply:>9.2f}x  (vs one apply; {share:.1%} of decisions, "
                  f"{sum(sizes) / len(sizes):.0f} actions on average, {max(sizes)} at most)")
            print(f"{'   ... listing every action':34}{'':>12}{t_list * 1e6:>10.2f}us"
                  f"{t_list / t_lazy:>9.1f}x  (vs lazy)")
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
