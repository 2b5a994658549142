"""Setting up a Petals table (rules §4), with the table's seeded RNG as the only randomness.

The draws happen in this order, so that another implementation can reproduce a table from
its seed: at 3 players, two ``randbelow`` picks set aside two of the regular cards (ids
1-35, in id order, the picked card removed before the second pick); one Fisher-Yates
``shuffle`` of the remaining deck (regular cards in id order, then the ladybugs at 5
players); one ``randbelow(4)`` rotation for each of the three starting cards; one
``randbelow(players)`` for the first player.  The top of the shuffled deck is its end:
the starting cards are taken from there for (0,0), (1,1), (2,2), then seat 0 gets two
cards, seat 1 two, and so on; the rest is the draw pile.
"""

from __future__ import annotations

from hedgerow.core import SetupContext
from hedgerow.plugins.petals.cards import LADYBUGS, REGULAR
from hedgerow.plugins.petals.geometry import frontier, placed
from hedgerow.plugins.petals.state import FINAL, PLAY, State

MIN_PLAYERS, MAX_PLAYERS = 2, 5
START_CELLS = ((0, 0), (1, 1), (2, 2))
HAND_SIZE = 2


def setup(ctx: SetupContext) -> State:
    """The state before the first turn."""
    players, rng = ctx.players, ctx.rng
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Petals is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    regular = list(REGULAR)
    set_aside: tuple[int, ...] = ()
    if players == 3:
        first = regular.pop(rng.randbelow(len(regular)))
        second = regular.pop(rng.randbelow(len(regular)))
        set_aside = tuple(sorted((first, second)))
    deck = regular + list(LADYBUGS) if players == 5 else regular
    rng.shuffle(deck)
    starting = [deck.pop() for _ in START_CELLS]
    garden = {cell: placed(card, rng.randbelow(4)) for cell, card in zip(START_CELLS, starting,
                                                                          strict=True)}
    hands = tuple(tuple(deck.pop() for _ in range(HAND_SIZE)) for _ in range(players))
    pile = tuple(deck)
    return State(
        players=players,
        garden=garden,
        frontier=frontier(garden),
        hands=hands,
        pile=pile,
        trackers=((0, 0, 0, 0),) * players,
        active=rng.randbelow(players),
        phase=PLAY if pile else FINAL,
        final_left=0 if pile else players,
        out_of_play=() if players == 5 else LADYBUGS,
        set_aside=set_aside,
    )
