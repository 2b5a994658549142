"""What a seat may see (``view``), a state it cannot tell apart (``determinize``), and the
plain data that names a state for its canonical hash (``hash_data``).

Hidden from a seat (spec §14, and the house decision that face-down cards are hidden):

* the other hands, except their *known* cards: cards revealed when they came back from a
  mandala, as long as they cannot have been played since (`State.known`);
* the colour of another seat's face-down cards on a mandala, shown only as a count; the
  seat learns no more than that the colour was present when they were played, and all the
  cards of one play share it.  When a mandala is resolved every card on it is revealed
  (they go to the discard pile or back to a hand in the open);
* the order of the deck and of both tile stacks.

Everything else is public: tiles, face-up cards, claims, hand sizes, the discard pile (each
card in it was seen), the tiles in front of each player.  `side` reads one seat's cards on a
mandala out of a view, as a client draws them.

``determinize`` keeps what the seat knows and re-deals the rest: the unknown cards (other
hands' unknown part, others' face-down plays, the deck) are pooled; each hidden face-down
play gets one colour at random among those present when it was played, weighted by what
the pool holds and such that the pool can supply it (an exact backtracking search); the
rest is shuffled into the other hands and the deck; both tile stacks are shuffled.  The
result is a state consistent with everything in the seat's view, though not drawn
uniformly from all of them, and it ignores what only a perfect card counter could still
deduce from the history: that a seat which laid 3 cards face down held 3 of one present
colour at that moment, or that right after a reshuffle the new deck is exactly the old
discard pile (re-dealing pools it with the other unknown cards).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from hedgerow.core import Rng
from hedgerow.plugins.mandala.cards import NCOLOURS, Counts, colours_in, sub_counts
from hedgerow.plugins.mandala.choices import active_seats
from hedgerow.plugins.mandala.scoring import points
from hedgerow.plugins.mandala.state import HIDDEN, MandalaView, Resolution, State, View


def view(state: State, seat: int) -> View:
    """``seat``'s view of ``state``."""
    mandalas = tuple(
        MandalaView(
            index=i,
            tiles=m.tiles,
            claim=m.claim,
            present=m.present,
            totals=m.totals,
            ups=m.ups,
            plays=tuple((p.seat, p.colour if p.up or p.seat == seat else HIDDEN, p.cards, p.up)
                        for p in m.plays),
            closed=not m.tiles,
        )
        for i, m in enumerate(state.mandalas))
    return View(
        seat=seat,
        players=state.players,
        phase=state.phase,
        turn=state.turn,
        active=active_seats(state),
        hand=state.hands[seat],
        hand_sizes=tuple(sum(h) for h in state.hands),
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
        passes=state.passes,
        ended=state.ended,
        last=state.last,
    )


class Side(NamedTuple):
    """One seat's cards on one mandala as a viewer sees them: face-up cards by colour, the
    number of face-down cards, and the face-down cards whose colour the viewer knows (its
    own), by colour."""

    up: Counts
    down: int
    down_known: Counts


def side(mandala: MandalaView, seat: int) -> Side:
    """``seat``'s side of ``mandala`` in a view (for drawing the table)."""
    up, known = [0] * NCOLOURS, [0] * NCOLOURS
    down = 0
    for who, colour, cards, face_up in mandala.plays:
        if who != seat:
            continue
        if face_up:
            up[colour] += cards
        else:
            down += cards
            if colour != HIDDEN:
                known[colour] += cards
    return Side(tuple(up), down, tuple(known))


def _weighted_order(options: list[int], supply: list[int], rng: Rng) -> Iterator[int]:
    """``options`` in a random order, each next one drawn with weight ``supply[colour]``
    (lazily: the search usually needs only the first)."""
    left = list(options)
    while left:
        pick = rng.randbelow(sum(supply[c] for c in left))
        for i, c in enumerate(left):
            pick -= supply[c]
            if pick < 0:
                yield left.pop(i)
                break


def _colour_hidden(groups: list[tuple[int, int]], supply: list[int], rng: Rng) -> list[int]:
    """A colour for each ``(count, allowed colour set)`` group that ``supply`` can cover
    (``supply`` is reduced accordingly).

    A depth-first search, colours tried in a random order weighted by supply; dead ends are
    remembered by (position, supply left), so the search is exact and visits each such
    state once.  A solution always exists: the true colours are one.
    """
    chosen = [-1] * len(groups)
    order = sorted(range(len(groups)), key=lambda g: -groups[g][0])  # big plays first
    dead: set[tuple[int, tuple[int, ...]]] = set()  # membership only: order never matters

    def search(i: int) -> bool:
        if i == len(order):
            return True
        key = (i, tuple(supply))
        if key in dead:
            return False
        g = order[i]
        count, allowed = groups[g]
        options = [c for c in colours_in(allowed) if supply[c] >= count]
        for c in _weighted_order(options, supply, rng):
            supply[c] -= count
            chosen[g] = c
            if search(i + 1):
                return True
            supply[c] += count
        dead.add(key)
        return False

    if not search(0):
        raise ValueError("no colouring of the face-down plays fits the unknown cards")
    return chosen


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A state ``seat`` cannot tell from ``state``: what it cannot know re-dealt (module doc)."""
    players = state.players
    supply = [0] * NCOLOURS
    unknown: list[int] = []  # per seat: how many of its cards are unknown to `seat`
    for o in range(players):
        if o == seat:
            unknown.append(0)
            continue
        part = sub_counts(state.hands[o], state.known[o])
        unknown.append(sum(part))
        for c in range(NCOLOURS):
            supply[c] += part[c]
    where: list[tuple[int, int]] = []  # (mandala, play index) of each hidden face-down play
    groups: list[tuple[int, int]] = []
    for m, mandala in enumerate(state.mandalas):
        for j, play in enumerate(mandala.plays):
            if not play.up and play.seat != seat:
                supply[play.colour] += play.cards
                where.append((m, j))
                groups.append((play.cards, play.present))
    for c in state.deck:
        supply[c] += 1
    colours = _colour_hidden(groups, supply, rng)
    rest = [c for c in range(NCOLOURS) for _ in range(supply[c])]
    rng.shuffle(rest)
    hands = list(state.hands)
    k = 0
    for o in range(players):
        if o != seat:
            extra = [0] * NCOLOURS
            for c in rest[k:k + unknown[o]]:
                extra[c] += 1
            k += unknown[o]
            hands[o] = tuple(a + b for a, b in zip(state.known[o], extra, strict=True))
    mandalas = list(state.mandalas)
    for (m, j), c in zip(where, colours, strict=True):
        plays = list(mandalas[m].plays)
        plays[j] = plays[j]._replace(colour=c)
        mandalas[m] = mandalas[m]._replace(plays=tuple(plays))
    return state._replace(
        hands=tuple(hands), deck=tuple(rest[k:]), mandalas=tuple(mandalas),
        dark=tuple(rng.shuffled(state.dark)), light=tuple(rng.shuffled(state.light)))


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
    hashes far faster than tuples of ints.
    """
    return (
        state.players, state.phase, state.turn,
        tuple([bytes(h) for h in state.hands]), tuple([bytes(k) for k in state.known]),
        bytes(state.deck), bytes(state.discard), bytes(state.dark), bytes(state.light),
        tuple([(bytes(m.tiles), m.claim, b"".join([bytes(p) for p in m.plays]))
               for m in state.mandalas]),
        tuple([bytes(t) for t in state.tiles]),
        state.passes, state.ended, state.at, state.owed, state.second, _packed(state.last),
    )
