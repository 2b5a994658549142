"""What a seat may see (``view``) and the plain data that names a state for its canonical
hash (``hash_data``).

Hidden from a seat (spec §14): the other hands, except their *known* cards (cards revealed
when they came back from a mandala, as long as they cannot have been played since:
`State.known`); the deck and its order; the order of both tile stacks.  A seat knows what
the deck may still hold once it was made from the discard pile: ``reshuffled``, the pile
every seat saw shuffled, less ``drawn``, its own draws from it since.

Every card on a mandala is public with its colour, face-down ones too (spec §5, §12.3,
§14: a card is seen as it is played, then turned down, and every player may remember it).

At a sealed table a seat's cards from the deck are sealed (`hands`): the view of the public
state holds the seat's own ones in ``sealed`` (so the table shows them to that seat alone),
and its information state's view counts them into ``hand``, as the open game's does.

Everything else is public: tiles, claims, hand sizes, the discard pile (each card in it was
seen), the tiles in front of each player.  `side` reads one seat's cards on a mandala out
of a view, as a client draws them.

The other way, a state dealt from a view, is the bots' sampler
(`hedgerow.plugins.mandala.bots.sample`).
"""

from __future__ import annotations

from typing import NamedTuple

from hedgerow.core.sealed import packed
from hedgerow.plugins.mandala.cards import NCOLOURS, NO_CARDS, Counts
from hedgerow.plugins.mandala.choices import active_seats
from hedgerow.plugins.mandala.hands import hand_size, seen_counts, shown_hand
from hedgerow.plugins.mandala.scoring import points
from hedgerow.plugins.mandala.state import MandalaView, Resolution, State, View


def view(state: State, seat: int) -> View:
    """``seat``'s view of ``state``."""
    hand, sealed = shown_hand(state, seat)
    mandalas = tuple(
        MandalaView(
            index=i,
            tiles=m.tiles,
            claim=m.claim,
            present=m.present,
            totals=m.totals,
            ups=m.ups,
            plays=tuple((p.seat, p.colour, p.cards, p.up) for p in m.plays),
            closed=not m.tiles,
        )
        for i, m in enumerate(state.mandalas))
    return View(
        seat=seat,
        players=state.players,
        phase=state.phase,
        turn=state.turn,
        active=active_seats(state),
        hand=hand,
        hand_sizes=tuple(sum(h) for h in state.hands) if not state.hidden else
        tuple(hand_size(state, s) for s in range(state.players)),
        known=state.known,
        deck_count=len(state.deck),
        discard=state.discard,
        dark_left=len(state.dark),
        light_left=len(state.light),
        mandalas=mandalas,
        tiles=state.tiles,
        scores=tuple(points(t) for t in state.tiles),
        at=state.at,
        second=state.second,
        owed=state.owed,
        passes=state.passes,
        ended=state.ended,
        last=state.last,
        reshuffled=state.reshuffled,
        drawn=seen_counts(state.since[seat]) if state.since else NO_CARDS,
        sealed=sealed,
    )


class Side(NamedTuple):
    """One seat's cards on one mandala: face-up and face-down cards, by colour."""

    up: Counts
    down: Counts


def side(mandala: MandalaView, seat: int) -> Side:
    """``seat``'s side of ``mandala`` in a view (for drawing the table)."""
    up, down = [0] * NCOLOURS, [0] * NCOLOURS
    for who, colour, cards, face_up in mandala.plays:
        if who == seat:
            (up if face_up else down)[colour] += cards
    return Side(tuple(up), tuple(down))


def _packed(last: Resolution | None) -> object:
    if last is None:
        return None
    return (last.mandala, bytes(last.tiles), bytes([n for pair in last.taken for n in pair]),
            last.chosen, b"".join([bytes(c) for c in last.discarded]),
            b"".join([bytes(c) for c in last.returned]), last.closed)


def hash_data(state: State) -> tuple[object, ...]:
    """Plain data that names ``state`` exactly.

    A mandala's derived counts are left out; card counts, the deck, the tile stacks, each
    seat's tiles, each mandala's plays (seat, colour, count, up, colour set: five small ints
    a play) and the last resolution's lists are packed as bytes, which the canonical encoder
    hashes far faster than tuples of ints.  At a sealed table the deck and the stacks hold
    sealed cards (`packed` keeps them as records) and the seats' hidden cards follow; an
    open table has none.  After the first reshuffle the pile it shuffled and each seat's
    draws since follow at the end.
    """
    data: tuple[object, ...] = (
        state.players, state.phase, state.turn,
        tuple([bytes(h) for h in state.hands]), tuple([bytes(k) for k in state.known]),
        packed(state.deck), bytes(state.discard), packed(state.dark), packed(state.light),
        tuple([(bytes(m.tiles), m.claim, b"".join([bytes(p) for p in m.plays]))
               for m in state.mandalas]),
        tuple([bytes(t) for t in state.tiles]),
        state.passes, state.ended, state.at, state.owed, state.second, _packed(state.last),
    )
    if state.hidden:
        data = (*data, tuple([packed(h) for h in state.hidden]))  # type: ignore[arg-type]
    if state.since:
        data = (*data, bytes(state.reshuffled),
                tuple([packed(d) for d in state.since]))  # type: ignore[arg-type]
    return data
