"""A complete Mandala state drawn at random from what one seat's `View` says (``sample``).

This is the game's one implementation of "re-deal what the seat cannot know": bots build
every state they think about with it.  It reads nothing but the view, so a bot never needs,
or gets, the real state.

**What the view fixes** is copied: the phase, the turn, the seat's own hand, every seat's
hand size and *known* cards (cards seen coming back from a mandala and not possibly played
since), the discard pile, every tile on the table and in front of the players, every play
on the mandalas with its colour (face-down ones too: spec §5), the claims, the counters.

**What it leaves open** is dealt at random among the full states the view allows:

* the *unknown pool*: the 15 cards of each colour minus every card the seat sees.  It
  fills the unknown part of each other hand and the deck (in order);
* the order of both tile stacks: the dark and light tiles nobody has seen yet.

**Card counting after a reshuffle.**  Once the discard pile has been shuffled into a new
deck, that deck holds only cards of that pile (``View.reshuffled``), less what was drawn
from it since: less the seat's own draws (``View.drawn``) for certain, less some of the
others' draws.  So the deck is dealt from the pile's cards that are still unknown (the
pile less the seat's draws, each colour at most as many as the pool has), and only then
the other hands from what is left of the pool: every state sampled is one the table could
be in.  (Before the first reshuffle the deck is what the deal left, and any unknown card
may be in it.)  Among the possible states the deck is drawn uniformly from those cards;
the others' draws from the new deck (the cards of the pile that reached their hands)
are not weighed against their own plays since, which a full card counter could do.

Cost: shuffles are `Rng.quick_shuffle` (several Fisher-Yates steps from one word), so a
sample costs a handful of generator blocks.
"""

from __future__ import annotations

from typing import NamedTuple

from hedgerow.core import Rng
from hedgerow.plugins.mandala.cards import (
    DARK_TILES,
    LIGHT_TILES,
    NCOLOURS,
    NO_CARDS,
    PER_COLOUR,
    tile_colour,
)
from hedgerow.plugins.mandala.state import Mandala, Play, State, View


def _unseen(all_tiles: tuple[int, ...], seen: set[int], size: int, name: str,
            ) -> tuple[int, ...]:
    """The tiles of ``all_tiles`` nobody has seen (``size`` of them), in id order."""
    left = tuple(t for t in all_tiles if t not in seen)  # all_tiles is in id order
    if len(left) != size:
        raise ValueError(f"the view's {name} tile stack holds {size} tiles, but {len(left)} "
                         "are unseen: not a view of a real Mandala table")
    return left


class Frame(NamedTuple):
    """What every sample of one view shares: the unknown pool by colour, the cards of it the
    deck may hold (`deck_pool`: the whole pool before the first reshuffle), each seat's
    unknown hand cards, the mandalas, the unseen tiles of each stack."""

    pool: tuple[int, ...]
    deck_pool: tuple[int, ...]
    unknown: tuple[int, ...]
    mandalas: tuple[Mandala, ...]
    dark: tuple[int, ...]
    light: tuple[int, ...]


def frame(v: View, seat: int) -> Frame:
    """The `Frame` of ``v`` (checked: ValueError for a view no real table shows)."""
    if seat != v.seat:
        raise ValueError(f"this view is seat {v.seat}'s, not seat {seat}'s")
    players = v.players
    pool = [PER_COLOUR] * NCOLOURS
    unknown = [0] * players  # per seat: hand cards the seat cannot know
    for c, n in enumerate(v.hand):
        pool[c] -= n
    for c, n in enumerate(v.discard):
        pool[c] -= n
    for o in range(players):
        if o != seat:
            known = v.known[o]
            for c, n in enumerate(known):
                pool[c] -= n
            unknown[o] = v.hand_sizes[o] - sum(known)
            if unknown[o] < 0:
                raise ValueError(f"seat {o} holds fewer cards than it is known to hold")
    seen: set[int] = set()  # tiles on the table or held: membership only
    for held in v.tiles:
        seen.update(held)
    mandalas: list[Mandala] = []
    for mv in v.mandalas:
        seen.update(mv.tiles)
        present = 0
        for tile in mv.tiles:
            present |= 1 << tile_colour(tile)
        plays: list[Play] = []
        for who, colour, cards, up in mv.plays:
            pool[colour] -= cards
            plays.append(Play(who, colour, cards, up, present))
            if up:
                present |= 1 << colour
        mandalas.append(Mandala(mv.tiles, mv.claim, tuple(plays), mv.present, mv.totals, mv.ups))
    if min(pool) < 0 or sum(pool) != sum(unknown) + v.deck_count:
        raise ValueError("the cards this view shows and hides do not add up to the 90 cards: "
                         "not a view of a real Mandala table")
    deck_pool = tuple(pool)
    if v.reshuffled != NO_CARDS:
        deck_pool = tuple(min(p, r - d) for p, r, d in zip(pool, v.reshuffled, v.drawn,
                                                           strict=True))
        if min(deck_pool) < 0 or sum(deck_pool) < v.deck_count:
            raise ValueError("the deck holds more cards than the reshuffled pile can still "
                             "hold: not a view of a real Mandala table")
    return Frame(tuple(pool), deck_pool, tuple(unknown), tuple(mandalas),
                 _unseen(DARK_TILES, seen, v.dark_left, "dark"),
                 _unseen(LIGHT_TILES, seen, v.light_left, "light"))


#: The frames of the latest views sampled, by the view's identity (the view itself is kept
#: with its frame, so its id cannot be reused while the entry lives).  A search samples one
#: view at every iteration; this spares it the frame each time.  It never changes an answer.
_FRAMES: dict[int, tuple[View, int, Frame]] = {}
_KEEP = 8


def _frame_of(v: View, seat: int) -> Frame:
    entry = _FRAMES.get(id(v))
    if entry is not None and entry[0] is v and entry[1] == seat:
        return entry[2]
    found = frame(v, seat)
    if len(_FRAMES) >= _KEEP:
        _FRAMES.clear()
    _FRAMES[id(v)] = (v, seat, found)
    return found


def sample(v: View, seat: int, rng: Rng) -> State:
    """A complete state drawn at random among those whose view for ``seat`` is ``v``
    (module doc).  Raises ValueError for a view that no real table shows."""
    f = _frame_of(v, seat)
    pool = list(f.pool)
    deck: list[int] = []
    if v.deck_count:
        able = [c for c in range(NCOLOURS) for _ in range(f.deck_pool[c])]
        rng.quick_shuffle(able, v.deck_count)  # the last deck_count are a uniform choice
        deck = able[len(able) - v.deck_count:]
        for c in deck:
            pool[c] -= 1
    rest = [c for c in range(NCOLOURS) for _ in range(pool[c])]
    rng.quick_shuffle(rest)
    hands = []
    k = 0
    for o, n in enumerate(f.unknown):
        if o == seat:
            hands.append(v.hand)
            continue
        hand = list(v.known[o])
        for c in rest[k:k + n]:
            hand[c] += 1
        k += n
        hands.append(tuple(hand))
    dark, light = list(f.dark), list(f.light)
    rng.quick_shuffle(dark)
    rng.quick_shuffle(light)
    since: tuple[tuple[object, ...], ...] = ()
    if v.reshuffled != NO_CARDS:  # the seat's own draws since (the others' are not needed)
        mine = tuple(c for c in range(NCOLOURS) for _ in range(v.drawn[c]))
        since = tuple(mine if o == seat else () for o in range(v.players))
    return State(
        players=v.players, phase=v.phase, turn=v.turn, hands=tuple(hands), known=v.known,
        deck=tuple(deck), discard=v.discard, dark=tuple(dark), light=tuple(light),
        mandalas=f.mandalas, tiles=v.tiles, passes=v.passes, ended=v.ended, at=v.at,
        owed=v.owed, second=v.second, last=v.last, reshuffled=v.reshuffled, since=since)
