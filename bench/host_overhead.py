"""Random playouts through the table engine vs calling the `GameDef` directly.

Both sides play the same seeds with the same random choices (the ``random`` bot's stream),
so they do the same rules work; the difference is the engine's per-action cost: the turn
check, the hash chain and the bot interface.  Reported as a ratio measured in one run.

    python bench/host_overhead.py [--game petals] [--players 4] [--games 300]
"""

from __future__ import annotations

import argparse
import statistics
import time

from hedgerow.core.chance import draw_all
from hedgerow.core.game import SetupContext
from hedgerow.core.playout import bot_rng, play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.rng import Rng
from hedgerow.core.seeding import seed_from_int


def direct(gamedef, players: int, seed: bytes):
    """The same game as `play` with random bots, calling the GameDef functions only: chance
    drawn for each log entry as the table draws it (``Rng(seed, "chance/<i>")``), each seat
    picking with its bot's stream (`bot_rng`), a step's choices made against its start."""
    state = gamedef.setup(SetupContext(players))
    rngs = [bot_rng(seed, s) for s in range(players)]
    index = 0
    while True:
        chance = gamedef.pending_chance(state)
        if chance is not None:
            state = gamedef.resolve(state, draw_all(Rng(seed, f"chance/{index}"), chance))
            index += 1
            continue
        active = gamedef.active_seats(state)
        if not active:
            return state
        choices = []
        for seat in active:
            gamedef.view(state, seat)  # the bot interface builds the view too
            legal = gamedef.legal_actions(state, seat)
            choices.append((seat, legal[rngs[seat].randbelow(len(legal))]))
        for seat, action in choices:
            state = gamedef.apply(state, seat, action)
            index += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="petals")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    plugins = PluginHost()
    ruleset = plugins.ruleset(args.game, players=args.players)
    bots = [plugins.bot("random")]
    seeds = [seed_from_int(i) for i in range(args.games)]
    for seed in seeds[:3]:  # same seeds, same games: the two sides do the same work
        assert play(ruleset, args.players, seed, bots).state == direct(
            ruleset.gamedef, args.players, seed
        )
    engine_t, direct_t = [], []
    for _ in range(args.rounds):  # interleaved, so drift affects both sides alike
        t0 = time.perf_counter()
        for seed in seeds:
            play(ruleset, args.players, seed, bots)
        t1 = time.perf_counter()
        for seed in seeds:
            direct(ruleset.gamedef, args.players, seed)
        t2 = time.perf_counter()
        engine_t.append(t1 - t0)
        direct_t.append(t2 - t1)
    e, d = statistics.median(engine_t), statistics.median(direct_t)
    print(f"{args.game}, {args.players} players, {args.games} games x {args.rounds} rounds")
    print(f"  through the engine: {args.games / e:8.1f} games/s")
    print(f"  GameDef directly:   {args.games / d:8.1f} games/s")
    print(f"  ratio engine/direct: {e / d:.3f}  (goal <= 1.1)")


if __name__ == "__main__":
    main()
