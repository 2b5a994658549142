#!/usr/bin/env python
"""FLOWERS speed: random playouts per second for 1 to 4 players, and where a game's time goes.

Run from the repository root (with the venv active)::

    python bench/flowers_playouts.py            # the full run, about a minute
    python bench/flowers_playouts.py --quick    # a smaller run, a few seconds

Everything is measured in the same process, each figure as the best of several rounds
(the least disturbed by other load), and reported both absolutely and as a ratio against
a baseline measured in the same run, so that figures from different machines compare:

* **playouts**: complete random games through the `GameDef`: ``setup``, the deal (its
  chance node drawn from the seed as the engine does, ``draw_all``, then ``resolve``), then
  ``legal_actions`` / pick one uniformly with a core `Rng` / ``apply`` until the end, then
  ``outcome`` (every garden scored through the table's colour-group hook).  Baseline: the
  same number of ``Rng.randbelow`` calls a game makes (the deal's shuffle included), i.e.
  the randomness alone.
* **taking face down**: the same games with a turn taking the face-down card one time in
  three (uniform picks take it about once in 36 turns: it is one action among the
  plantings), so about a third of the turns are two decisions.
* **the parts of a game**: the deal alone (``setup`` + chance + ``resolve``), the
  ``outcome`` alone on finished games, and one ``legal_actions`` and one ``apply`` of each
  kind of decision on states collected from real games: a turn's start (``plant`` from a
  face-up stack, or ``take`` of the face-down one) and the planting after a take.
* **through Table** (with ``--table``): the same games through the table engine, as a ratio
  against the bare `GameDef` games.
* **against Petals** (with ``--petals``): 4-player Petals playouts drawn the same way, in
  the same rounds, so that the FLOWERS figure reads against the game whose bar it shares
  on any machine.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from hedgerow.core import Rng, SetupContext
from hedgerow.core.chance import draw_all
from hedgerow.core.host import Host
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.flowers.state import PLANT, TAKE, State


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


def dealt(game: Any, players: int, seed: bytes, rng: Rng | None = None) -> State:
    """``setup`` then the deal, drawn as the table draws log entry #0."""
    state = game.setup(SetupContext(players))
    chance = game.chance(state)
    return game.resolve(state, draw_all(rng or Rng(seed, "chance/0"), chance))


def playout(game: Any, players: int, seed: bytes, rng: Rng, states: list[State] | None = None,
            deal_rng: Rng | None = None, blind: bool = False) -> tuple[object, State]:
    """One complete random game through the GameDef; its outcome and final state.

    Uniform picks take the face-down card about once in 36 turns (it is one action among
    the plantings); with ``blind`` a turn takes it one time in three instead.
    """
    state = dealt(game, players, seed, deal_rng)
    active, legal_actions, apply = game.active_seats, game.legal_actions, game.apply
    while True:
        seats = active(state)
        if not seats:
            return game.outcome(state), state
        seat = seats[0]
        if states is not None:
            states.append(state)
        legal = legal_actions(state, seat)
        if blind and legal[-1].kind == "take" and rng.randbelow(3) == 0:
            state = apply(state, seat, legal[-1])
        else:
            state = apply(state, seat, legal[rng.randbelow(len(legal))])


def table_playout(ruleset: Any, players: int, seed: bytes, rng: Rng) -> object:
    """The same game through the table engine (turn checks, chance entry, hash chain)."""
    table = Table(ruleset, players, seed)
    game = ruleset.gamedef
    while True:
        seats = table.active_seats()
        if not seats:
            return table.outcome()
        legal = game.legal_actions(table.state, seats[0])
        table.play(seats[0], legal[rng.randbelow(len(legal))])


def petals_playout(game: Any, players: int, seed: bytes, rng: Rng) -> object:
    """One random Petals game through its GameDef, its deal drawn as the table draws it."""
    state = game.setup(SetupContext(players))
    state = game.resolve(state, draw_all(Rng(seed, "chance/0"), game.chance(state)))
    while True:
        seats = game.active_seats(state)
        if not seats:
            return game.outcome(state)
        legal = game.legal_actions(state, seats[0])
        state = game.apply(state, seats[0], legal[rng.randbelow(len(legal))])


def report(ruleset: Any, players: int, seeds: list[bytes], rounds: int, table: bool,
           petals: Any = None) -> float:
    """Measure and print every figure for one player count; the games per second."""
    game = ruleset.gamedef
    games = len(seeds)

    counter = CountingRng(b"bench-count")
    deal_counters = [CountingRng(s, "chance/0") for s in seeds]
    finals = []
    decisions = 0
    for s, dc in zip(seeds, deal_counters, strict=True):
        states: list[State] = []
        _, final = playout(game, players, s, counter, states, deal_rng=dc)
        finals.append(final)
        decisions += len(states)
    draws = counter.calls + sum(dc.calls for dc in deal_counters)

    def games_run() -> None:
        rng = Rng(b"bench")
        for s in seeds:
            playout(game, players, s, rng)

    def blind_run() -> None:
        rng = Rng(b"bench")
        for s in seeds:
            playout(game, players, s, rng, blind=True)

    def baseline_run() -> None:
        rng = Rng(b"bench-baseline")
        for _ in range(draws):
            rng.randbelow(50)

    def deal_run() -> None:
        for s in seeds:
            dealt(game, players, s)

    def outcome_run() -> None:
        for final in finals:
            game.outcome(final)

    runs: dict[str, Callable[[], object]] = {
        "games": games_run, "rng": baseline_run, "deal": deal_run, "outcome": outcome_run,
        "blind": blind_run}
    if table:
        few = seeds[: max(1, games // 5)]

        def table_run() -> None:
            rng = Rng(b"bench")
            for s in few:
                table_playout(ruleset, players, s, rng)

        runs["table"] = table_run
    if petals is not None:
        def petals_run() -> None:
            rng = Rng(b"bench")
            for s in seeds:
                petals_playout(petals, players, s, rng)

        runs["petals"] = petals_run
    t = race(rounds, runs)
    t_game, t_base = t["games"] / games, t["rng"] / games
    label = f"{players} player{'s' if players > 1 else ''}"
    print(f"{label + ', random playouts':36}{1 / t_game:>12,.0f}{t_game * 1e3:>10.3f}ms"
          f"{t_game / t_base:>9.1f}x  (vs the Rng alone: {draws / games:.0f} draws, "
          f"{decisions / games:.0f} decisions a game)")
    blind_decisions = 0
    for s in seeds[:100]:
        states = []
        playout(game, players, s, Rng(b"bench-blind"), states, blind=True)
        blind_decisions += len(states)
    t_blind = t["blind"] / games
    print(f"{'   ... taking face down 1 turn in 3':36}{1 / t_blind:>12,.0f}{t_blind * 1e3:>10.3f}ms"
          f"{t_blind / t_game:>9.2f}x  (vs uniform picks; {blind_decisions / 100:.0f} "
          "decisions a game)")
    t_deal, t_out = t["deal"] / games, t["outcome"] / games
    print(f"{'   ... the deal (setup + chance)':36}{'':>12}{t_deal * 1e3:>10.3f}ms"
          f"{t_deal / t_game:>9.2f}x  (of a game)")
    print(f"{'   ... the outcome (scoring)':36}{'':>12}{t_out * 1e3:>10.3f}ms"
          f"{t_out / t_game:>9.2f}x  (of a game)")
    if petals is not None:
        t_petals = t["petals"] / games
        print(f"{'   ... a Petals game, same rounds':36}{1 / t_petals:>12,.0f}"
              f"{t_petals * 1e3:>10.3f}ms{t_game / t_petals:>9.2f}x  (FLOWERS / Petals)")
    if table:
        t_table = t["table"] / max(1, games // 5)
        print(f"{'   ... through Table':36}{1 / t_table:>12,.0f}{t_table * 1e3:>10.3f}ms"
              f"{t_table / t_game:>9.1f}x  (vs the bare GameDef)")

    states = []
    rng = Rng(b"bench-states")
    for s in seeds[:100]:
        playout(game, players, s, rng, states)
    pairs = {kind: [(st, st.active) for st in states if st.phase == kind] for kind in (TAKE, PLANT)}
    picks: dict[str, list[tuple[State, int, Any]]] = {"plant": [], "take": [], "held": []}
    for st, seat in pairs[TAKE]:
        legal = game.legal_actions(st, seat)
        picks["plant"].append((st, seat, legal[0]))
        picks["take"].append((st, seat, legal[-1]))
    picks["held"] = [(st, seat, game.legal_actions(st, seat)[0]) for st, seat in pairs[PLANT]]

    def applied(kind: str) -> Callable[[], None]:
        def run() -> None:
            for st, seat, action in picks[kind]:
                game.apply(st, seat, action)
        return run

    def listed(kind: str) -> Callable[[], None]:
        def run() -> None:
            for st, seat in pairs[kind]:
                game.legal_actions(st, seat)
        return run

    t = race(rounds, {"plant": applied("plant"), "take": applied("take"),
                      "legal start": listed(TAKE)})
    starts = pairs[TAKE]
    sizes = [len(game.legal_actions(st, seat)) for st, seat in starts]
    t_plant, t_take = t["plant"] / len(starts), t["take"] / len(starts)
    t_legal = t["legal start"] / len(starts)
    print(f"{'   ... one apply (plant, face up)':36}{'':>12}{t_plant * 1e6:>10.2f}us")
    print(f"{'   ... one apply (take, face down)':36}{'':>12}{t_take * 1e6:>10.2f}us")
    print(f"{'   ... legal_actions (turn start)':36}{'':>12}{t_legal * 1e6:>10.2f}us"
          f"{t_legal / t_plant:>9.2f}x  (vs one planting; {sum(sizes) / len(sizes):.1f} "
          f"actions on average, {max(sizes)} at most)")
    print()
    return 1 / t_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the best is kept)")
    parser.add_argument("--quick", action="store_true", help="200 games, 3 rounds")
    parser.add_argument("--variant", action="append", default=[], help="e.g. summer")
    parser.add_argument("--players", type=int, action="append", default=[],
                        help="player counts to run (default 1, 2, 3, 4)")
    parser.add_argument("--table", action="store_true", help="also play through Table")
    parser.add_argument("--petals", action="store_true",
                        help="also time 4-player Petals games in the same rounds")
    args = parser.parse_args(argv)
    games, rounds = (200, 3) if args.quick else (args.games, args.rounds)
    host = Host(autoload=False)
    seeds = [seed_from_int(i) for i in range(games)]
    rules = "+".join(["flowers", *args.variant])
    print(f"FLOWERS ({rules}) playouts: {games} games per round, best of {rounds} rounds\n")
    print(f"{'':36}{'per second':>12}{'per game':>12}{'ratio':>10}")
    for players in args.players or [1, 2, 3, 4]:
        petals = (host.ruleset("petals", players=4).gamedef
                  if args.petals and players == 4 else None)
        report(host.ruleset("flowers", args.variant, players=players), players, seeds, rounds,
               args.table, petals)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
