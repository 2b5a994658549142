#!/usr/bin/env python
"""Our search and playouts against OpenSpiel's on the same game: 8-card Goofspiel, 2 players.

Run from the repository root (with the venv active; OpenSpiel is an optional benchmark
dependency, ``pip install -e '.[bench]'``, never a runtime or test one)::

    python bench/openspiel_anchor.py                  # about two minutes
    python bench/openspiel_anchor.py --quick          # a few seconds

Everything runs in this one process, the measured runs taking turns within each round,
and the best round of each counts (CPU time of the process, `time.process_time`, so a
wait for a core on a shared machine is not counted).  The figures:

* **random playouts per second**: whole random games from the deal, ours through the
  `GameDef` (docs/examples/goofspiel.py: each round's prize by chance, both bids drawn
  against the round's starting state, applied in seat order, as the table does) and through
  `Table`; OpenSpiel's through ``pyspiel`` (its C++ game, ``goofspiel(num_cards=8)``, the
  prizes in random order as ours) driven from Python, one uniform pick per player and per
  chance node: the same loop a Python bot written on OpenSpiel runs.
* **search iterations per second** at the same positions (the deal, and after 2 and 4
  random rounds, on ``--positions`` seeded games each), ``--iterations`` a decision:
  ours, ``ismcts:N`` as it plays (leaves judged by the game's ``evaluate``) and
  ``ismcts:N,rollout=-1`` (each iteration played to the end at random, as a plain MCTS
  does); OpenSpiel's pure-Python MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``, UCT
  c=2, one random rollout a leaf, ``RandomRolloutEvaluator``) on the turn-based form of
  the game (``turn_based_simultaneous_game``: the second bid is chosen without seeing the
  first), and its pure-Python ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``)
  on the same turn-based game.

The ratios are ours over OpenSpiel's (above 1: ours is faster).  Issue 30's goal: our
ismcts at least 2x OpenSpiel's Python MCTS on the same game.  An iteration is not the same
work in each: read the rollout=-1 row as the like-for-like one (a random rollout to the
end), the default row as what a player gets.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "examples"))

import goofspiel  # noqa: E402  (the example game, from docs/examples)

from hedgerow.core import Rng, SetupContext  # noqa: E402
from hedgerow.core.botchoice import resolve  # noqa: E402
from hedgerow.core.chance import draw_all  # noqa: E402
from hedgerow.core.playout import make_bot  # noqa: E402
from hedgerow.core.pluginhost import PluginHost  # noqa: E402
from hedgerow.core.seeding import seed_from_int  # noqa: E402
from hedgerow.core.table import Table  # noqa: E402

OPEN_SPIEL_MISSING = (
    "OpenSpiel is not installed: this benchmark compares against it, so it needs the "
    "optional benchmark dependency (pip install -e '.[bench]', or pip install open-spiel)."
)
CARDS = 8
ROUNDS_IN = (0, 2, 4)  # the positions: after this many random rounds


def race(rounds: int, runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The least CPU time of each run over ``rounds`` rounds, the runs taking turns."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    return best


# -- ours --------------------------------------------------------------------------------------


def our_playout(game: Any, seed: bytes, rng: Rng) -> None:
    """One random 2-player game through the GameDef, chance drawn as the table draws it."""
    state = game.setup(SetupContext(2))
    index = 0
    while True:
        pending = game.chance(state)
        if pending is not None:
            state = game.resolve(state, draw_all(Rng(seed, f"chance/{index}"), pending))
            index += 1
            continue
        seats = game.active_seats(state)
        if not seats:
            return
        picks = []
        for seat in seats:
            legal = game.legal_actions(state, seat)
            picks.append(legal[rng.randbelow(len(legal))])
        for seat, action in zip(seats, picks, strict=True):
            state = game.apply(state, seat, action)
            index += 1


def our_table_playout(ruleset: Any, seed: bytes, rng: Rng) -> None:
    """The same game through `Table` (the step gate, the lazy hash chain)."""
    table = Table(ruleset, 2, seed)
    game = ruleset.gamedef
    while True:
        seats = table.active_seats()
        if not seats:
            return
        picks = {}
        for seat in seats:
            legal = game.legal_actions(table.state, seat)
            picks[seat] = legal[rng.randbelow(len(legal))]
        table.play_step(picks)


def our_positions(ruleset: Any, count: int) -> list[Table]:
    """Tables at the start of a round: after 0, 2 and 4 random rounds of ``count`` games."""
    out = []
    game = ruleset.gamedef
    for number in range(count):
        for rounds in ROUNDS_IN:
            table = Table(ruleset, 2, seed_from_int(5000 + number))
            rng = Rng(b"anchor-positions", str(number))
            for _ in range(rounds):
                picks = {}
                for seat in table.active_seats():
                    legal = game.legal_actions(table.state, seat)
                    picks[seat] = legal[rng.randbelow(len(legal))]
                table.play_step(picks)
            out.append(table)
    return out


def our_search(plugins: PluginHost, ruleset: Any, tables: list[Table], label: str,
               ) -> Callable[[], object]:
    """A run: ``label`` (an ismcts choice) decides seat 0's bid at every position."""
    spec = resolve(plugins, label, "goofspiel")
    game = ruleset.gamedef

    def run() -> int:
        done = 0
        for number, table in enumerate(tables):
            bot: Any = make_bot(ruleset, 2, seed_from_int(number), spec, 0)
            bot.choose(table.view(0), game.legal_actions(table.state, 0))
            done += bot.last_iterations
        return done
    return run


# -- OpenSpiel ---------------------------------------------------------------------------------


def spiel_playout(game: Any, pick: random.Random) -> None:
    """One random game through pyspiel from Python: chance and both bids drawn uniformly."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, _ = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(actions[pick.randrange(len(actions))])
        elif state.is_simultaneous_node():
            state.apply_actions([
                (legal := state.legal_actions(p))[pick.randrange(len(legal))]
                for p in range(2)])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[pick.randrange(len(legal))])


def spiel_positions(game: Any, count: int) -> list[Any]:
    """States of the turn-based game at the start of a round, player 0 to bid: after 0, 2
    and 4 random rounds of ``count`` games (as `our_positions`)."""
    out = []
    for number in range(count):
        for rounds in ROUNDS_IN:
            pick = random.Random(5000 + number)
            state = game.new_initial_state()
            played = 0
            while True:
                if state.is_chance_node():
                    actions, _ = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(actions[pick.randrange(len(actions))])
                    continue
                if state.current_player() == 0 and played == 2 * rounds:
                    break
                legal = state.legal_actions()
                state.apply_action(legal[pick.randrange(len(legal))])
                played += 1
            out.append(state)
    return out


def spiel_search(make: Callable[[int], Any], states: list[Any]) -> Callable[[], object]:
    """A run: a fresh bot (``make(seed)``) decides player 0's bid at every position."""
    def run() -> None:
        for number, state in enumerate(states):
            make(number).step(state.clone())
    return run


# -- the report --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--games", type=int, default=1000, help="random playouts a round")
    options.add_argument("--iterations", type=int, default=2000, help="search iterations a "
                         "decision")
    options.add_argument("--positions", type=int, default=3, help="seeded games the "
                         "positions come from (3 positions each)")
    options.add_argument("--rounds", type=int, default=3, help="rounds (the best is kept)")
    options.add_argument("--quick", action="store_true", help="200 games, 500 iterations, "
                         "1 game of positions, 2 rounds")
    args = options.parse_args(argv)
    if args.quick:
        args.games, args.iterations, args.positions, args.rounds = 200, 500, 1, 2
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        print(OPEN_SPIEL_MISSING, file=sys.stderr)
        return 2

    plugins = PluginHost(autoload=False, extra=[goofspiel])
    ruleset = plugins.ruleset("goofspiel", players=2)
    ours = ruleset.gamedef
    simultaneous = pyspiel.load_game("goofspiel", {"num_cards": CARDS, "players": 2})
    turn_based = pyspiel.load_game(
        f"turn_based_simultaneous_game(game=goofspiel(num_cards={CARDS},players=2))")
    seeds = [seed_from_int(i) for i in range(args.games)]
    few = seeds[: max(1, args.games // 5)]
    n = args.iterations

    def playouts() -> None:
        rng = Rng(b"anchor")
        for s in seeds:
            our_playout(ours, s, rng)

    def table_playouts() -> None:
        rng = Rng(b"anchor")
        for s in few:
            our_table_playout(ruleset, s, rng)

    def spiel_playouts() -> None:
        pick = random.Random(1)
        for _ in seeds:
            spiel_playout(simultaneous, pick)

    tables = our_positions(ruleset, args.positions)
    states = spiel_positions(turn_based, args.positions)

    def rollout_eval(seed: int) -> Any:
        return mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))

    def spiel_mcts(seed: int) -> Any:
        return mcts.MCTSBot(turn_based, 2.0, n, rollout_eval(seed), solve=False,
                            random_state=np.random.RandomState(seed))

    def spiel_ismcts(seed: int) -> Any:
        bot = ismcts.ISMCTSBot(turn_based, rollout_eval(seed), 2.0, n,
                               random_state=np.random.RandomState(seed))
        # The turn-based game cannot resample an information state by itself; at a round's
        # start player 0 knows the whole state (every past bid is revealed, the prizes to
        # come are chance still to be drawn), so the state itself is the exact sample.
        bot.set_resampler(lambda state, player: state.clone())
        return bot

    searches = {
        "ismcts": our_search(plugins, ruleset, tables, f"ismcts:{n}"),
        "ismcts rollout=-1": our_search(plugins, ruleset, tables, f"ismcts:{n},rollout=-1"),
        "OpenSpiel MCTS": spiel_search(spiel_mcts, states),
        "OpenSpiel ISMCTS": spiel_search(spiel_ismcts, states),
    }
    print(f"8-card Goofspiel, 2 players: {args.games} random playouts a round, {n} "
          f"iterations a decision at {len(tables)} positions, best of {args.rounds} rounds "
          "(CPU time)\n")
    t = race(args.rounds, {"playouts": playouts, "table": table_playouts,
                           "pyspiel": spiel_playouts, **searches})
    games, spiel = args.games / t["playouts"], args.games / t["pyspiel"]
    table = len(few) / t["table"]
    print(f"{'random playouts':<34}{'per second':>12}{'ours / pyspiel':>16}")
    print(f"{'  ours, GameDef':<34}{games:>12,.0f}{games / spiel:>15.2f}x")
    print(f"{'  ours, Table':<34}{table:>12,.0f}{table / spiel:>15.2f}x"
          f"  (Table {games / table:.2f}x the bare GameDef)")
    print(f"{'  pyspiel (C++ game, Python loop)':<34}{spiel:>12,.0f}")
    print()
    rate = {name: len(tables) * n / t[name] for name in searches}
    print(f"{'search iterations':<34}{'per second':>12}{'vs OS MCTS':>12}{'vs OS ISMCTS':>14}")
    for name in searches:
        print(f"{'  ' + name:<34}{rate[name]:>12,.0f}{rate[name] / rate['OpenSpiel MCTS']:>11.2f}x"
              f"{rate[name] / rate['OpenSpiel ISMCTS']:>13.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
