"""Setting up a Flourish table (spec §6, §10.3): the undealt table, and the deal as a chance.

``setup`` lays out the 98 cards in id order and waits for the deal.  The deal is one
``Shuffle(98)`` of the cards in id order; the top of the deck is the front of the shuffled
order.  From the top: seat 0's six cards, then seat 1's, and so on; in solo the next twelve
are McGregor's deck (top first); the rest is the draw deck, top first.  Every game of a
match starts the same way (`fresh_game`), with the gardens cleared and the points kept in
the match history.
"""

from __future__ import annotations

from hedgerow.core import Chance, ChanceOutcome, Shuffle, permute
from hedgerow.plugins.flourish.cards import IDS, SIZE
from hedgerow.plugins.flourish.state import (
    DEAL,
    HAND,
    NO_LUCK,
    Config,
    Exchange,
    GameRecord,
    State,
)

MIN_PLAYERS, MAX_PLAYERS = 1, 7
MCGREGOR_DECK = 12


def fresh_game(cfg: Config, game: int, extras: tuple[object, ...] = (),
               history: tuple[GameRecord, ...] = ()) -> State:
    """A table before the deal of game ``game``: every card in id order, waiting for chance."""
    seats, gardens = cfg.players, cfg.gardens
    return State(
        cfg=cfg,
        luck=DEAL,
        game=game,
        turn=0,
        hands=((),) * seats,
        gardens=((),) * gardens,
        deck=IDS,
        compost=(),
        discard=(),
        mcg=(),
        aside=(),
        choices=(None,) * seats,
        points=((0, 0, 0, 0, 0),) * gardens,
        memory=((),) * seats,
        last=(Exchange(),) * seats,
        draws=(0,) * seats,
        extras=extras,
        extra_luck=None,
        history=history,
    )


def setup(cfg: Config) -> State:
    """The table before its first deal."""
    if not MIN_PLAYERS <= cfg.players <= MAX_PLAYERS:
        raise ValueError(f"Flourish is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {cfg.players}")
    return fresh_game(cfg, 0)


DEAL_CHANCE = Chance((Shuffle(SIZE),), "shuffle the deck and deal six cards to each player")
SOLO_DEAL_CHANCE = Chance((Shuffle(SIZE),), "shuffle the deck, deal your six cards and "
                                             "McGregor's deck of twelve")


def deal_chance(state: State) -> Chance:
    """The deal a fresh game waits for."""
    return SOLO_DEAL_CHANCE if state.cfg.solo else DEAL_CHANCE


def deal(state: State, outcome: ChanceOutcome) -> State:
    """The table once chance has shuffled the deck (see the module docstring)."""
    (order,) = outcome
    assert isinstance(order, tuple)
    deck = permute(state.deck, order)
    seats = state.cfg.players
    hands = tuple(tuple(sorted(deck[HAND * s:HAND * (s + 1)])) for s in range(seats))
    rest = deck[HAND * seats:]
    mcg: tuple[int, ...] = ()
    if state.cfg.solo:
        mcg, rest = rest[:MCGREGOR_DECK], rest[MCGREGOR_DECK:]
    return state._replace(luck=NO_LUCK, hands=hands, deck=rest, mcg=mcg)
