"""Speed work never changes a bot's moves: fixed-seed games end with recorded log heads.

``ismcts`` at an iteration budget, and ``greedy``, must play the same moves from the same
seed whatever is done to make the rules or the search faster (issue 30: a faster engine
that plays other moves would change what every earlier strength measurement meant).  One
2-player game of ``ismcts:40`` against ``greedy`` per game, and a 4-player random game of
Petals, each ending with the log head recorded when the test was written (the head's hash
chain covers every action and chance entry, so any changed move changes it).

A change that alters the bots' moves *on purpose* (a new search, a better judgement) re-records
these heads in the same commit and says so; a speed-up must leave them as they are.
"""

from __future__ import annotations

import pytest

from hedgerow.core.botchoice import resolve
from hedgerow.core.playout import play
from hedgerow.core.seeding import seed_from_int

SEED = seed_from_int(424242)

#: label -> (game, bots, players, log entries, log head), recorded at main b0f541d.
GAMES = {
    "petals": ("petals", ("ismcts:40", "greedy"), 2, 32,
               "54f331c3ca7b2943fa37c611bdd9ea62e45b39a405f8f2b719f6cba88b908845"),
    "flowers": ("flowers", ("ismcts:40", "greedy"), 2, 70,
                "a558b12986c0fcba1c276bfa8d3ddeb4db44488a4b999da298b036b9bcfb898b"),
    "mandala": ("mandala", ("ismcts:40", "greedy"), 2, 37,
                "cd2ca7561d01bab5d394cc8f14946b649d774fe194ffce59c61b05c57e66bb34"),
    "flourish": ("flourish", ("ismcts:40", "greedy"), 2, 21,
                 "20f6da63385f3b43eef238cdd14bbbf2bf50a9e2742b2566983f049a9270e13c"),
    "goofspiel": ("goofspiel", ("ismcts:40", "greedy"), 2, 24,
                  "1e1d5d28e039f88600960b9715f8d567e2fff4d6002730ba67e527878fc92c2a"),
    "petals-4-random": ("petals", ("random",), 4, 30,
                        "1543b5a40d221c398183d7ae6f6035b6d7d77092cffcced1bf148d8ce7b348fa"),
}


@pytest.mark.parametrize("label", sorted(GAMES))
def test_fixed_seed_game_ends_with_the_recorded_log_head(goofspiel_host, label: str) -> None:
    game, bots, players, entries, head = GAMES[label]
    ruleset = goofspiel_host.ruleset(game, players=players)
    specs = [resolve(goofspiel_host, name, game) for name in bots]
    table = play(ruleset, players, SEED, specs)
    assert (table.index, table.head.hex()) == (entries, head), (
        f"{game}: {' vs '.join(bots)} from a fixed seed played other moves than recorded")
