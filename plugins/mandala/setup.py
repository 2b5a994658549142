"""Setting up a Mandala table (spec §4): the undealt table, and the deal as one chance node.

``setup`` lays out the 90 cards in id order (`cards.CARDS`) and both tile stacks in id
order, and asks chance for the deal (`deal_chance`): one ``Shuffle(90)`` of the cards, one
``Shuffle(18)`` of the dark tiles, one ``Shuffle(18)`` of the light tiles, in that order.
`deal` applies it, so another implementation can reproduce a table from its seed:

* the deck and the stacks are the shuffled lists, their tops at the end;
* each mandala M0, M1, M2 in turn takes the top dark tile, then the top light tile;
* the start player is seat 0 (spec §4, OUR DECISION: no draw for it); it gets 5 cards from
  the top of the deck, then seat 1 gets 6, seat 2 gets 7, seat 3 gets 8, each whole hand
  dealt before the next.

At a sealed table the shuffled cards and tiles are sealed: the six tiles the mandalas take
are read (so shown to every seat, as the rules lay them face up), and each hand's cards go
to its seat's hidden cards (`hands`), to be shown to that seat alone.
"""

from __future__ import annotations

from hedgerow.core import Chance, ChanceOutcome, SetupContext, Shuffle, permute
from hedgerow.plugins.mandala.cards import CARDS, DARK_TILES, LIGHT_TILES, NO_CARDS
from hedgerow.plugins.mandala.hands import receive
from hedgerow.plugins.mandala.resolution import empty_mandala
from hedgerow.plugins.mandala.state import DEAL, MANDALAS, PLAY, State

MIN_PLAYERS, MAX_PLAYERS = 2, 4
FIRST_HAND = 5  # the start player's hand; each next seat gets one more
START_SEAT = 0


def hand_size(seat: int) -> int:
    """The starting hand of ``seat`` (seat 0 starts): 5, 6, 7, 8."""
    return FIRST_HAND + seat


def setup(ctx: SetupContext) -> State:
    """The table before the deal: cards and tiles in id order, waiting for chance."""
    players = ctx.players
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Mandala is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    closed = empty_mandala(players, ())
    return State(
        players=players,
        phase=DEAL,
        turn=START_SEAT,
        hands=(NO_CARDS,) * players,
        known=(NO_CARDS,) * players,
        deck=CARDS,
        discard=NO_CARDS,
        dark=DARK_TILES,
        light=LIGHT_TILES,
        mandalas=(closed,) * MANDALAS,
        tiles=((),) * players,
    )


def deal_chance(state: State) -> Chance:
    """The deal: the cards, the dark tiles and the light tiles, each shuffled."""
    return Chance((Shuffle(len(state.deck)), Shuffle(len(state.dark)), Shuffle(len(state.light))),
                  "shuffle the cards and both tile stacks, then deal")


def deal(state: State, outcome: ChanceOutcome) -> State:
    """The table once chance has answered the deal (see the module docstring)."""
    cards, darks, lights = outcome
    assert isinstance(cards, tuple) and isinstance(darks, tuple) and isinstance(lights, tuple)
    deck = permute(state.deck, cards)
    dark = list(permute(state.dark, darks))
    light = list(permute(state.light, lights))
    players = state.players
    mandalas = tuple(empty_mandala(players, (dark.pop(), light.pop())) for _ in range(MANDALAS))
    hands, hidden = [], []
    for seat in range(players):
        n = hand_size(seat)
        counts: list[int] = list(NO_CARDS)
        sealed: list[object] = []
        receive(counts, sealed, deck[len(deck) - n:])
        hands.append(tuple(counts))
        hidden.append(tuple(sealed))
        deck = deck[:len(deck) - n]
    return state._replace(phase=PLAY, hands=tuple(hands), deck=deck, dark=tuple(dark),
                          light=tuple(light), mandalas=mandalas,
                          hidden=tuple(hidden) if any(hidden) else ())
