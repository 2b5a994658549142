"""A complete Mandala state drawn at random from what one seat's `View` says (``sample``).

This is the game's one implementation of "re-deal what the seat cannot know": bots build
every state they think about with it, and ``determinize`` is ``sample`` of the seat's view.
It reads nothing but the view, so a bot never needs, or gets, the real state.

**What the view fixes** is copied: the phase, the turn, the seat's own hand, every seat's
hand size and *known* cards (cards seen coming back from a mandala and not possibly played
since), the discard pile, every tile on the table and in front of the players, each
mandala's plays (face-up ones with their colour, the seat's own face-down ones too), the
claims, the counters.

**What it leaves open** is dealt at random, uniformly among the full states the view allows
(every arrangement of the 90 physical cards and 36 tiles that shows this view equally
likely; for many face-down plays, very nearly so, see below):

* the *unknown pool*: the 15 cards of each colour minus every card the seat sees.  It fills
  three kinds of hidden slots: the colour of each face-down play of another seat (all cards
  of one play share a colour, and it was present on the mandala when played), the unknown
  part of each other hand, and the deck (in order);
* the order of both tile stacks: the dark and light tiles nobody has seen yet.

The face-down plays are coloured first (`colouring`: exactly with the weights of a uniform
deal while they are few, very nearly so when many), then whatever is left of the pool is
shuffled into the hands and the deck.

What the view does not hold cannot be honoured: right after the discard pile is shuffled
into a new deck, a card counter knows that deck is made of those cards (less what was drawn
since); the view keeps only its size, so the deck is dealt from the whole unknown pool.

Cost: shuffles are `Rng.quick_shuffle` (several Fisher-Yates steps from one word), so a
sample costs a handful of generator blocks.
"""

from __future__ import annotations

from typing import NamedTuple

from hedgerow.core import Rng
from hedgerow.plugins.mandala.bots.colouring import Group, colour_plays
from hedgerow.plugins.mandala.cards import (
    DARK_TILES,
    LIGHT_TILES,
    NCOLOURS,
    PER_COLOUR,
    colours_in,
    tile_colour,
)
from hedgerow.plugins.mandala.state import HIDDEN, Mandala, Play, State, View


def _unseen(all_tiles: tuple[int, ...], seen: set[int], size: int, name: str,
            ) -> tuple[int, ...]:
    """The tiles of ``all_tiles`` nobody has seen (``size`` of them), in id order."""
    left = tuple(t for t in all_tiles if t not in seen)  # all_tiles is in id order
    if len(left) != size:
        raise ValueError(f"the view's {name} tile stack holds {size} tiles, but {len(left)} "
                         "are unseen: not a view of a real Mandala table")
    return left


class Frame(NamedTuple):
    """What every sample of one view shares: the unknown pool by colour, each seat's
    unknown hand cards, the hidden face-down plays (`Group`s, and where they lie: mandala
    and play index), the mandalas (hidden plays with a placeholder colour), the unseen
    tiles of each stack."""

    pool: tuple[int, ...]
    unknown: tuple[int, ...]
    groups: list[Group]
    where: tuple[tuple[int, int], ...]
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
    groups: list[Group] = []
    where: list[tuple[int, int]] = []
    mandalas: list[Mandala] = []
    for m, mv in enumerate(v.mandalas):
        seen.update(mv.tiles)
        present = 0
        for tile in mv.tiles:
            present |= 1 << tile_colour(tile)
        plays: list[Play] = []
        for j, (who, colour, cards, up) in enumerate(mv.plays):
            if colour == HIDDEN:
                groups.append((cards, colours_in(present)))
                where.append((m, j))
            else:
                pool[colour] -= cards
            plays.append(Play(who, colour, cards, up, present))
            if up:
                present |= 1 << colour
        mandalas.append(Mandala(mv.tiles, mv.claim, tuple(plays), mv.present, mv.totals, mv.ups))
    slots = sum(unknown) + sum(count for count, _ in groups) + v.deck_count
    if min(pool) < 0 or sum(pool) != slots:
        raise ValueError("the cards this view shows and hides do not add up to the 90 cards: "
                         "not a view of a real Mandala table")
    return Frame(tuple(pool), tuple(unknown), groups, tuple(where), tuple(mandalas),
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
    mandalas = f.mandalas
    if f.groups:
        colours = colour_plays(f.groups, pool, rng)
        rebuilt = [list(m.plays) for m in mandalas]
        for (m, j), c in zip(f.where, colours, strict=True):
            rebuilt[m][j] = rebuilt[m][j]._replace(colour=c)
        mandalas = tuple(m._replace(plays=tuple(plays)) if plays != list(m.plays) else m
                         for m, plays in zip(mandalas, rebuilt, strict=True))
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
    return State(
        players=v.players, phase=v.phase, turn=v.turn, hands=tuple(hands), known=v.known,
        deck=tuple(rest[k:]), discard=v.discard, dark=tuple(dark), light=tuple(light),
        mandalas=mandalas, tiles=v.tiles, passes=v.passes, ended=v.ended, at=v.at,
        owed=v.owed, second=v.second, last=v.last)
