"""Resolving a complete mandala (spec §8): tiles, cards, refill or close, and the end check.

`start` is called when a play completes a mandala.  Second place is worked out first: when
a second player takes a tile, the claim holder must choose one (the state waits in the
``"choose"`` phase for its ``take``); otherwise the holder takes both tiles at once, with no
choice to make (they differ in colour, so the order changes nothing).  `finish` then hands
out the tiles (pairing follows from the order taken, see `scoring`), sends the takers' cards
on the mandala to the discard pile and every other seat's back to its hand (revealed to
all: they become *known* cards of that hand), resets the claim, refills the mandala from
the top of both tile stacks or closes it when a stack is empty, asks the table's end rule
whether the game is over and, if not, passes the turn on.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.plugins.mandala.cards import NCOLOURS, NO_CARDS, Counts, add_counts, tile_colour
from hedgerow.plugins.mandala.claims import second_place
from hedgerow.plugins.mandala.state import CHOOSE, OVER, PLAY, Mandala, Resolution, State

#: ``end(tiles, open_mandalas, passes, players) -> reason`` ("" while the game goes on).
EndCheck = Callable[[tuple[tuple[int, ...], ...], int, int, int], str]


def empty_mandala(players: int, tiles: tuple[int, ...]) -> Mandala:
    """A freshly filled (or, with no tiles, closed) mandala: unclaimed, no cards."""
    present = 0
    for tile in tiles:
        present |= 1 << tile_colour(tile)
    zeros = (0,) * players
    return Mandala(tiles, -1, (), present, zeros, zeros)


def cards_on(mandala: Mandala, players: int) -> tuple[Counts, ...]:
    """Each seat's cards on ``mandala`` (face-up and face-down), by colour."""
    out = [[0] * NCOLOURS for _ in range(players)]
    for play in mandala.plays:
        out[play.seat][play.colour] += play.cards
    return tuple(tuple(row) for row in out)


def start(state: State, at: int, end: EndCheck) -> State:
    """``state`` right after a play completed mandala ``at``: waiting for the holder's choice,
    or fully resolved when the holder takes both tiles."""
    mandala = state.mandalas[at]
    holder = mandala.claim
    second = second_place(mandala.totals, mandala.ups, holder)
    if second >= 0:
        return state._replace(phase=CHOOSE, at=at, second=second)
    dark, light = mandala.tiles
    return finish(state, at, ((holder, dark), (holder, light)), False, end)


def finish(state: State, at: int, taken: tuple[tuple[int, int], ...], chosen: bool,
           end: EndCheck) -> State:
    """Hand out ``taken`` (``(seat, tile)`` in order), put the cards away, refill, end check."""
    players = state.players
    mandala = state.mandalas[at]
    tiles = list(state.tiles)
    for seat, tile in taken:
        tiles[seat] = (*tiles[seat], tile)
    takers = {seat for seat, _ in taken}
    on = cards_on(mandala, players)
    hands, known = list(state.hands), list(state.known)
    discard = state.discard
    discarded, returned = [], []
    for seat in range(players):
        cards = on[seat]
        if seat in takers:
            discard = add_counts(discard, cards)
            discarded.append(cards)
            returned.append(NO_CARDS)
        else:
            hands[seat] = add_counts(hands[seat], cards)
            known[seat] = add_counts(known[seat], cards)
            discarded.append(NO_CARDS)
            returned.append(cards)
    dark, light = state.dark, state.light
    if dark and light:
        refill: tuple[int, ...] = (dark[-1], light[-1])
        dark, light = dark[:-1], light[:-1]
    else:
        refill = ()
    mandalas = list(state.mandalas)
    mandalas[at] = empty_mandala(players, refill)
    record = Resolution(at, mandala.tiles, taken, chosen, tuple(discarded), tuple(returned),
                        not refill)
    held = tuple(tiles)
    open_mandalas = sum(1 for m in mandalas if m.tiles)
    ended = end(held, open_mandalas, 0, players)
    turn = state.turn if ended else (state.turn + 1) % players
    return state._replace(
        phase=OVER if ended else PLAY, turn=turn, hands=tuple(hands), known=tuple(known),
        discard=discard, dark=dark, light=light, mandalas=tuple(mandalas), tiles=held,
        passes=0, ended=ended, at=-1, owed=0, second=-1, last=record)
