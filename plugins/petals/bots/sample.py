"""A complete Petals state built from one seat's view alone (``BotSupport.sample``).

What a seat cannot see in Petals is *where* the unseen cards are, never *which* they are:
every card of the deck is in the garden, in its own hand, out of play (the ladybugs below 5
players), scored directly at the end, or unseen; and the unseen ones are in the other
hands, the draw pile, or (3 players) the two cards set aside face down.  Nothing a seat
once saw goes back into hiding (no card is passed or returned to a hand), so the seat
knows nothing more about an unseen card than that it is unseen.  `sample` therefore
shuffles the unseen cards uniformly and deals them back into those places in the sizes the
view gives: the other hands in seat order, then the pile, then the cards set aside.

Before the deal (phase ``"deal"``) nothing is hidden yet: the pile is the deck in id
order, as ``setup`` lays it out.

`sample` is called once per search iteration, usually with the same view object every
time, so what depends on the view alone (the garden as a dict, its frontier, the unseen
cards, the checks) is worked out once per view object and kept for the next call (`_public`,
a one-entry memo that holds the view itself, so it is never mistaken for another; a view
is immutable, so this changes no result).  What is left per call is one shuffle, with few
calls of the generator: `shuffle` decodes several Fisher-Yates steps from each uniform
draw (mixed radix), instead of one draw per card.
"""

from __future__ import annotations

from typing import NamedTuple

from hedgerow.core import Rng
from hedgerow.plugins.petals.cards import DECK
from hedgerow.plugins.petals.geometry import Cell, Garden, frontier, placed
from hedgerow.plugins.petals.state import DEAL, FINAL, OVER, PLAY, State, View

#: Every card id, in id order.
ALL_CARDS: tuple[int, ...] = tuple(c.id for c in DECK)

def unseen_cards(view: View) -> list[int]:
    """The cards ``view``'s seat has not seen, in id order: all that is not in the garden,
    its hand, out of play or scored directly."""
    seen = {c for _, _, c, _ in view.garden}
    seen.update(view.hand)
    seen.update(view.out_of_play)
    for cards in view.scored_directly:
        seen.update(cards)
    return [c for c in ALL_CARDS if c not in seen]


def _check(view: View, unseen: list[int]) -> None:
    """Raise ValueError unless ``view``'s counts add up."""
    seat = view.seat
    if len(view.hand_sizes) != view.players or not 0 <= seat < view.players:
        raise ValueError(f"the view's hand sizes {view.hand_sizes} do not fit "
                         f"{view.players} players")
    if view.phase not in (DEAL, PLAY, FINAL, OVER):
        raise ValueError(f"a Petals view has no phase {view.phase!r}")
    if min(view.hand_sizes) < 0 or view.pile_count < 0 or view.set_aside_count < 0:
        raise ValueError("a Petals view counts no fewer than 0 cards anywhere")
    if view.hand_sizes[seat] != len(view.hand):
        raise ValueError(f"the view's hand holds {len(view.hand)} cards, but its hand sizes "
                         f"say {view.hand_sizes[seat]}")
    hidden = (sum(view.hand_sizes) - len(view.hand) + view.pile_count
              + view.set_aside_count)
    if hidden != len(unseen):
        raise ValueError(f"the view hides {hidden} cards (other hands, pile, set aside), but "
                         f"{len(unseen)} cards are unseen: it is not a Petals view")


class _Public(NamedTuple):
    """What a sampled state takes from a view whatever the draw: the garden and its frontier,
    and the unseen cards in id order."""

    garden: Garden
    frontier: tuple[Cell, ...]
    unseen: tuple[int, ...]


#: The latest view `_public` worked on, with its answer.
_memo: tuple[View, _Public] | None = None


def _public(view: View) -> _Public:
    """The view-only part of a sampled state, worked out once per view object."""
    global _memo
    memo = _memo
    if memo is not None and memo[0] is view:
        return memo[1]
    unseen = unseen_cards(view)
    _check(view, unseen)
    garden = {(x, y): placed(c, r) for x, y, c, r in view.garden}
    if len(garden) != len(view.garden):
        raise ValueError("the view's garden holds two cards on one cell")
    found = _Public(garden, frontier(garden), tuple(unseen))
    _memo = (view, found)
    return found


def sample(view: View, seat: int, rng: Rng) -> State:
    """A complete state that ``seat`` (whose view ``view`` is) cannot tell from the real one.

    The unseen cards (`unseen_cards`) are shuffled with ``rng`` and dealt to the other
    seats' hands in seat order, then to the draw pile, then set aside; everything else is
    the view's.  ``view(sample(v, seat, rng), seat) == v``.  A view whose counts do not add
    up, or that is not ``seat``'s, is refused with ValueError.  The sampled state shares its
    garden dict with other states sampled from the same view (states never mutate it).
    """
    if seat != view.seat:
        raise ValueError(f"this is seat {view.seat}'s view, not seat {seat}'s")
    public = _public(view)
    unseen = list(public.unseen)
    if view.phase != DEAL:
        rng.quick_shuffle(unseen)
    hands: list[tuple[int, ...]] = []
    k = 0
    for other, size in enumerate(view.hand_sizes):
        if other == seat:
            hands.append(view.hand)
        else:
            hands.append(tuple(unseen[k:k + size]))
            k += size
    end = k + view.pile_count
    return State(view.players, public.garden, public.frontier, tuple(hands),
                 tuple(unseen[k:end]), view.trackers, view.active, view.pending, view.phase,
                 view.final_left, view.out_of_play, tuple(sorted(unseen[end:])),
                 view.scored_directly, view.last, view.direct)
