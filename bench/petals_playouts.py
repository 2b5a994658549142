#!/usr/bin/env python
"""Petals speed: random playouts per second, and what listing the legal actions costs.

Run from the repository root (with the venv active)::

    python bench/petals_playouts.py            # the full run, about a minute
    python bench/petals_playouts.py --quick    # a smaller run, a few seconds

Everything is measured in the same process, each figure as the best of several rounds
(the least disturbed by other load), and reported both absolutely and as a ratio against
a baseline measured in the same run, so that figures from different machines compare:

* **playouts**: complete random games through the `GameDef` (setup and the deal, a chance
  node resolved from the seed as the table does, then ``legal_actions`` / pick one
  uniformly with a core `Rng` / ``apply`` until the end, then ``outcome``), for 2 and 4
  players.  Baseline: the same number of ``Rng.randbelow`` calls
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
from hedgerow.core.chance import draw_all
from hedgerow.core.host import Host
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.petals.state import State


def race(rounds: int, runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The shortest wall time (seconds) of each run over ``rounds`` rounds.

    The runs take turns within every round, so that a burst of load elsewhere on the
    machine hits them alike, and the best round of each is the least disturbed.
    """
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


def settle(game, state: State, seed: bytes, index: int,
           chance_rng: Callable[[int], Rng] | None = None) -> tuple[State, int]:
    """Resolve the chance ``state`` waits for as the table does: the chance that becomes
    log entry ``i`` draws from ``Rng(seed, "chance/<i>")`` (or ``chance_rng(i)``)."""
    while (chance := game.pending_chance(state)) is not None:
        rng = chance_rng(index) if chance_rng is not None else Rng(seed, f"chance/{index}")
        state = game.resolve(state, draw_all(rng, chance))
        index += 1
    return state, index


def playout(game, players: int, seed: bytes, rng: Rng, states: list[State] | None = None,
            chance_rng: Callable[[int], Rng] | None = None) -> object:
    """One complete random game through the GameDef (chance resolved as the table does);
    its outcome."""
    state, index = settle(game, game.setup(SetupContext(players)), seed, 0, chance_rng)
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
        index += 1
        if game.chance is not None:
            state, index = settle(game, state, seed, index, chance_rng)


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
        table.submit(seats[0], legal[rng.randbelow(len(legal))])  # (chance entries follow)
        if hashed:
            table.state_hash()


def report(ruleset, players: int, seeds: list[bytes], rounds: int) -> None:
    """Measure and print every figure for one player count."""
    game = ruleset.gamedef
    games = len(seeds)
    few = seeds[: max(1, games // 5)]

    counter = CountingRng(b"bench-count")
    chance_counters: list[CountingRng] = []
    for s in seeds:
        def counted(index: int, s: bytes = s) -> Rng:
            chance_counters.append(CountingRng(s, f"chance/{index}"))
            return chance_counters[-1]
        playout(game, players, s, counter, chance_rng=counted)
    draws = counter.calls + sum(cc.calls for cc in chance_counters)

    def games_run() -> None:
        rng = Rng(b"bench")
        for s in seeds:
            playout(game, players, s, rng)

    def baseline_run() -> None:
        rng = Rng(b"bench-baseline")
        for _ in range(draws):
            rng.randbelow(300)

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

    def applied() -> None:
        for st, seat, action in firsts:
            game.apply(st, seat, action)

    def lazy(pairs: list[tuple[State, int]]) -> Callable[[], None]:
        def run() -> None:
            for st, seat in pairs:
                game.legal_actions(st, seat)
        return run

    def listed(pairs: list[tuple[State, int]]) -> Callable[[], None]:
        def run() -> None:
            for st, seat in pairs:
                list(game.legal_actions(st, seat))
        return run

    t = race(rounds, {"apply": applied, "lazy place": lazy(placing),
                      "list place": listed(placing), "lazy effect": lazy(choosing),
                      "list effect": listed(choosing)})
    t_apply = t["apply"] / len(placing)
    print(f"{label + ', one apply (placement)':34}{'':>12}{t_apply * 1e6:>10.2f}us")
    for what, key, pairs in (("placement", "place", placing),
                             ("effect choice", "effect", choosing)):
        sizes = [len(game.legal_actions(st, seat)) for st, seat in pairs]
        t_lazy, t_list = t[f"lazy {key}"] / len(pairs), t[f"list {key}"] / len(pairs)
        share = len(pairs) / len(states)
        print(f"{label + f', legal_actions ({what})':34}{'':>12}{t_lazy * 1e6:>10.2f}us"
              f"{t_lazy / t_apply:>9.2f}x  (vs one apply; {share:.1%} of decisions, "
              f"{sum(sizes) / len(sizes):.0f} actions on average, {max(sizes)} at most)")
        print(f"{'   ... listing every action':34}{'':>12}{t_list * 1e6:>10.2f}us"
              f"{t_list / t_lazy:>9.1f}x  (vs lazy)")
    print()


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
        report(host.ruleset("petals", [], players=players), players, seeds, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
