"""Setting up a Petals table (rules §4): the undealt table, and the deal as one chance node.

``setup`` lays out the cards in id order and asks chance for the deal (`deal_chance`); the
engine resolves it from the table seed and `deal` applies it.  The deal's draws, in order,
so that another implementation can reproduce a table from its seed: at 3 players, two
``Pick`` draws set aside two of the regular cards (ids 1-35 in id order, the picked card
removed before the second pick); one ``Shuffle`` of the remaining deck (regular cards in id
order, then the ladybugs at 5 players); one ``Pick(4)`` rotation for each of the three
starting cards; one ``Pick(players)`` for the first player.  The top of the shuffled deck
is its end: the starting cards are taken from there for (0,0), (1,1), (2,2), then seat 0
gets two cards, seat 1 two, and so on; the rest is the draw pile.
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
    set_aside = (Pick(len(REGULAR)), Pick(len(REGULAR) - 1)) if players == 3 else ()
    shuffled = len(state.pile) - len(set_aside)
    return Chance((*set_aside, Shuffle(shuffled), *(Pick(4) for _ in START_CELLS),
                   Pick(players)), "shuffle and deal")


def deal(state: State, outcome: ChanceOutcome) -> State:
    """The table once chance has answered the deal (see the module docstring)."""
    players = state.players
    draws = list(outcome)
    regular = [c for c in state.pile if c in REGULAR_SET]
    set_aside: tuple[int, ...] = ()
    if players == 3:
        first = regular.pop(_int(draws.pop(0)))
        second = regular.pop(_int(draws.pop(0)))
        set_aside = tuple(sorted((first, second)))
    deck = list(permute(regular + list(LADYBUGS) if players == 5 else regular,
                        _order(draws.pop(0))))
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


REGULAR_SET = frozenset(REGULAR)


def _int(value: int | tuple[int, ...]) -> int:
    assert isinstance(value, int)
    return value


def _order(value: int | tuple[int, ...]) -> tuple[int, ...]:
    assert isinstance(value, tuple)
    return value
