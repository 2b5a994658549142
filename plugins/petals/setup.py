"""Setting up a Petals table (rules §4): the undealt table, and the deal as one chance node.

``setup`` lays out the cards in id order and asks chance for the deal (`deal_chance`); the
engine resolves it from the table seed and `deal` applies it.  The deal's draws, in order,
so that another implementation can reproduce a table from its seed: one ``Shuffle`` of the
deck (regular cards in id order, then the ladybugs at 5 players); one ``Pick(4)`` rotation
for each of the three starting cards; one ``Pick(players)`` for the first player.  The top
of the shuffled deck is its end: the starting cards are taken from there for (0,0), (1,1),
(2,2), then seat 0 gets two cards, seat 1 two, and so on; at 3 players the two cards at the
bottom of the deck are set aside face down, unseen by anyone; the rest is the draw pile.

(Version 2.0.0 set the two cards aside by two ``Pick`` draws before the shuffle: a pick is
public, so at a sealed table everyone would have known them.  Since 2.1.0 they come from
the shuffled deck, sealed like the rest of it.)
"""

from __future__ import annotations

from hedgerow.core import SetupContext
from hedgerow.core.chance import Chance, ChanceOutcome, Pick, Shuffle, permute
from hedgerow.plugins.petals.cards import LADYBUGS, REGULAR
from hedgerow.plugins.petals.geometry import frontier, placed
from hedgerow.plugins.petals.state import DEAL, FINAL, PLAY, State

MIN_PLAYERS, MAX_PLAYERS = 2, 5
START_CELLS = ((0, 0), (1, 1), (2, 2))
HAND_SIZE = 2
SET_ASIDE = 2  # face down at 3 players


def setup(ctx: SetupContext) -> State:
    """The table before the deal: every card in id order, waiting for chance."""
    players = ctx.players
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Petals is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    deck = REGULAR + LADYBUGS if players == 5 else REGULAR
    return State(
        players=players,
        garden={},
        frontier=(),
        hands=((),) * players,
        pile=tuple(deck),
        trackers=((0, 0, 0, 0),) * players,
        active=-1,
        phase=DEAL,
        out_of_play=() if players == 5 else LADYBUGS,
    )


def deal_chance(state: State) -> Chance | None:
    """The deal a state before play waits for, or None once dealt."""
    if state.phase != DEAL:
        return None
    players = state.players
    return Chance((Shuffle(len(state.pile)), *(Pick(4) for _ in START_CELLS), Pick(players)),
                  "shuffle and deal")


def deal(state: State, outcome: ChanceOutcome) -> State:
    """The table once chance has answered the deal (see the module docstring)."""
    players = state.players
    draws = list(outcome)
    deck = list(permute(state.pile, _order(draws.pop(0))))
    set_aside: tuple[int, ...] = ()
    if players == 3:
        set_aside = tuple(sorted(deck[:SET_ASIDE]))
        del deck[:SET_ASIDE]
    starting = [deck.pop() for _ in START_CELLS]
    garden = {cell: placed(card, _int(draws.pop(0)))
              for cell, card in zip(START_CELLS, starting, strict=True)}
    hands = tuple(tuple(deck.pop() for _ in range(HAND_SIZE)) for _ in range(players))
    pile = tuple(deck)
    return state._replace(
        garden=garden,
        frontier=frontier(garden),
        hands=hands,
        pile=pile,
        active=_int(draws.pop(0)),
        phase=PLAY if pile else FINAL,
        final_left=0 if pile else players,
        set_aside=set_aside,
    )


def _int(value: int | tuple[int, ...]) -> int:
    assert isinstance(value, int)
    return value


def _order(value: int | tuple[int, ...]) -> tuple[int, ...]:
    assert isinstance(value, tuple)
    return value
