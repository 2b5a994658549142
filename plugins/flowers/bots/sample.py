"""A complete FLOWERS state dealt from what one seat sees (``BotSupport.sample``).

A seat's `View` fixes every garden (covered cards included), the face-up tops, the stack
sizes, the solo discards, the box's size, whose turn it is and the card the seat itself
holds.  What it does not fix is which of the other cards lie where: the cards under the
face-up tops, the face-down stack, the box and, while another seat plants a card it took
face down, that card.  Nothing a seat has seen ever goes back out of sight in FLOWERS
(every card taken is planted in view), so those *hidden* cards are exactly the deck minus
the cards the view shows, and every way of placing them is as likely as any other: the
shuffle was uniform and no choice made so far depended on where they lie.  `make_sample`
deals them uniformly at random into those places, in this order:

1. the pool: the hidden cards in id order;
2. a partial Fisher-Yates shuffle of the pool from its end, one position for every card
   that goes somewhere ordered (the stacks' hidden cards and a hidden held card); the
   rest is the box, kept sorted as the deal keeps it;
3. the shuffled tail is read in order into stack A's cards under its top (bottom first),
   B's, ..., the face-down stack, then the hidden held card.

The shuffle is `Rng.quick_shuffle` of the tail (several uniform indices per word of the
generator, so about eight times fewer words than one ``randbelow`` per index, and a
sample is reproducible from the rng).  A search bot samples the same view thousands of
times, so the work that depends on the view alone (gardens, planting targets, the pool,
the checks) is done once per view object and kept for the next calls with that same
object (for the last few views, `KEPT_VIEWS`: several bots may think at once); the states
it deals share those gardens and targets, which is safe because no state's garden is ever changed
(`state`).

A view that no state could give (an unknown or repeated card, sizes that do not add up to
the cards unaccounted for, another seat's view) is refused with a `ValueError` that says
why; nothing is changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from hedgerow.core import Rng
from hedgerow.plugins.flowers.cards import ALL_CARDS, DECK
from hedgerow.plugins.flowers.garden import LIMIT, OFFSET, STRIDE, Garden, Stack, targets
from hedgerow.plugins.flowers.setup import Layout
from hedgerow.plugins.flowers.state import DEAL, NOBODY, OVER, PLANT, TAKE, State, View

Sample = Callable[[View, int, Rng], State]

#: How many views `make_sample` keeps what it read of (bots thinking side by side each
#: sample their own view: they do not undo each other's work).
KEPT_VIEWS = 4
CARDS = len(ALL_CARDS)  # card ids are 0 to CARDS - 1 (the deck, then the purple cards)


class _Known(NamedTuple):
    """What a view fixes, ready to deal from (made once per view object)."""

    seat: int
    state: State  # the view's state with empty stacks, no box and no hidden held card
    pool: tuple[int, ...]  # the hidden cards, in id order
    bodies: tuple[int, ...]  # per stack, how many hidden cards it has under its top
    tops: tuple[Stack, ...]  # per stack, its face-up top as a 0- or 1-card tuple
    held: bool  # another seat holds a card taken face down
    ordered: int  # the hidden cards dealt to ordered places (stacks, held card)


def _refuse(view: View, why: str) -> ValueError:
    return ValueError(f"no FLOWERS state has this view of seat {view.seat}: {why}")


def _known(view: View, seat: int, coverable: Sequence[bool],
           layout: Callable[[int], Layout]) -> _Known:
    """Check ``view`` and read what it fixes; `ValueError` when no state could show it."""
    if not isinstance(view, View):
        raise ValueError(f"a FLOWERS sample is made from a FLOWERS View, not {type(view)!r}")
    players = view.players
    if not 1 <= players <= 4 or len(view.gardens) != players:
        raise _refuse(view, f"{players} players and {len(view.gardens)} gardens")
    if seat != view.seat or not 0 <= seat < players:
        raise _refuse(view, f"it is seat {view.seat}'s view, asked as seat {seat}'s")
    shown: list[int] = []
    gardens: list[Garden] = []
    for cells in view.gardens:
        garden: Garden = {}
        for x, y, stack in cells:  # garden.key, inline: a view has a hundred cells or so
            if not (-LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT and stack):
                raise _refuse(view, f"a garden has cell ({x}, {y}) holding {stack!r}")
            garden[(x + OFFSET) * STRIDE + y + OFFSET] = stack
            shown += stack
        if len(garden) != len(cells):
            raise _refuse(view, "a garden lists one cell twice")
        gardens.append(garden)
    phase = view.phase
    if phase == DEAL:
        sizes = layout(players).sizes
        state = State(players, tuple(gardens), ((),) * players, (), NOBODY, DEAL, sizes=sizes)
        return _Known(seat, state, (), (), (), False, 0)
    if phase not in (TAKE, PLANT, OVER):
        raise _refuse(view, f"unknown phase {phase!r}")
    down = view.face_down
    if len(view.tops) != len(view.sizes) or down != len(view.sizes) - 1 or down < 1:
        raise _refuse(view, f"stacks {view.tops} of sizes {view.sizes}")
    bodies, tops = [], []
    for i, (top, size) in enumerate(zip(view.tops, view.sizes, strict=True)):
        face_up = i != down and size > 0
        if size < 0 or (top != NOBODY) != face_up:
            raise _refuse(view, f"stack {i} of {size} cards shows {top}")
        bodies.append(size - 1 if face_up else size)
        tops.append((top,) if face_up else ())
        if face_up:
            shown.append(top)
    shown += view.discards
    held = phase == PLANT and view.holding == NOBODY
    if view.holding != NOBODY:
        shown.append(view.holding)
    if (view.holding != NOBODY and phase != PLANT) or (held and seat == view.active):
        raise _refuse(view, f"seat {view.active} holds {view.holding} in phase {phase!r}")
    if phase == PLANT and not 0 <= view.source <= down:
        raise _refuse(view, f"a card is held from stack {view.source}")
    if phase != OVER and not 0 <= view.active < players:
        raise _refuse(view, f"seat {view.active} is to act")
    gone = set(shown)
    if len(gone) != len(shown) or min(gone, default=0) < 0 or max(gone, default=0) >= CARDS:
        raise _refuse(view, "a card is unknown or shown twice")
    pool = tuple([c for c in DECK if c not in gone])
    ordered = sum(bodies) + held
    if view.box_count < 0 or ordered + view.box_count != len(pool):
        raise _refuse(view, f"{len(pool)} cards are unseen but the stacks hide "
                            f"{sum(bodies)}, the box {view.box_count} and a hand {int(held)}")
    state = State(players, tuple(gardens), tuple(targets(g, coverable) for g in gardens),
                  (), view.active, phase, view.holding, view.source, view.discards)
    return _Known(seat, state, pool, tuple(bodies), tuple(tops), held, ordered)


def make_sample(coverable: Sequence[bool], layout: Callable[[int], Layout]) -> Sample:
    """``sample(view, seat, rng)`` for a table whose coverable cards are ``coverable`` and
    whose deal is ``layout(players)`` (read only for a view taken before the deal)."""
    #: The latest views and what they fix, newest first (replaced whole, never changed).
    last: list[tuple[tuple[View, _Known], ...]] = [()]

    def sample(view: View, seat: int, rng: Rng) -> State:
        """A state that ``seat``, seeing ``view``, cannot tell from the real one, with
        everything ``view`` does not fix dealt at random with ``rng``."""
        memo = last[0]
        for seen, known in memo:
            if seen is view:
                if seat != known.seat:
                    raise _refuse(view, f"it is seat {view.seat}'s view, asked as seat "
                                        f"{seat}'s")
                break
        else:
            known = _known(view, seat, coverable, layout)
            last[0] = ((view, known), *memo[:KEPT_VIEWS - 1])
        if not known.bodies:  # before the deal
            return known.state
        items = list(known.pool)
        m = known.ordered
        rng.quick_shuffle(items, m)
        k = len(items) - m
        box = items[:k]
        box.sort()
        stacks = []
        for n, top in zip(known.bodies, known.tops, strict=True):
            stacks.append((*items[k:k + n], *top))
            k += n
        state = known.state
        holding = items[k] if known.held else state.holding
        return state._replace(stacks=tuple(stacks), box=tuple(box), holding=holding)

    return sample
