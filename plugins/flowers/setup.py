"""Setting up a FLOWERS table (rules §3): the layout, and the deal as one chance node.

What a table deals is a `Layout`, which the game asks its ``flowers_setup`` hook for once
per game (the standard answer is `standard_layout`; Summer gives each seat a purple start
card instead of one from the deck, and so deals more cards to the stacks).

The deal, exactly, so that another implementation can reproduce a table from its seed.
The chance node has two draws: ``Shuffle(108)`` and ``Pick(players)``.  The deck (ids
0-107 in id order, see `cards`) is put in the shuffle's order and read from its first
card: first one start card for each seat that needs one, in seat order, planted at
``(0, 0)``; then the stacks are dealt one card at a time, round-robin A, B, C, A, ...,
a stack being skipped once it has its size (the first card a stack gets is its bottom);
the cards left go back to the box unseen.  The ``Pick`` is the first player.

At a sealed table (`hedgerow.core.sealedtable`) the shuffle's cards are sealed tokens and
the deal reads none of them: the start cards, the stacks and the box are dealt by position
alone.  The targets of a drawn start card depend on whether it may be covered; when every
deck card answers alike (the standard rule and Summer) they are worked out without looking
at the card, so the deal asks for no reveal of its own: the start cards and the face-up
tops are shown to every seat with the rest of what the deal makes visible (a layout whose
deck cards differ in that would read the drawn start card, which shows it to everyone
first; it is planted face up anyway).  The box is sorted, which at a sealed table orders
its tokens by position (they are never read).

Stack sizes (rules §3, OUR DECISION: the "about" figures are exact): 1 player 40 / 40;
2 players 26 / 26 / 26; 3 players 30 / 30 / 30; 4 players every card left, so 35 / 35 / 34
after four start cards and 36 / 36 / 36 in Summer.  The last stack is the face-down one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from hedgerow.core import SetupContext
from hedgerow.core.chance import Chance, ChanceOutcome, Pick, Shuffle, permute
from hedgerow.plugins.flowers.cards import ALL_CARDS, DECK
from hedgerow.plugins.flowers.garden import Garden, key, targets
from hedgerow.plugins.flowers.state import DEAL, NOBODY, TAKE, State

MIN_PLAYERS, MAX_PLAYERS = 1, 4
DRAW = -1  # a start card drawn from the deck
START = key(0, 0)  # every garden starts at (0, 0)
#: Cards per stack before the deal's round-robin, 1-3 players (4 players deal everything).
FIXED_SIZES = {1: (40, 40), 2: (26, 26, 26), 3: (30, 30, 30)}
STACK_NAMES = "ABC"


class Layout(NamedTuple):
    """What a table deals.

    * ``starts``: one per seat, the id of the card its garden starts with, or `DRAW` for a
      card from the top of the shuffled deck;
    * ``sizes``: the cards in each stack, in stack order; the last stack is face down.
    """

    starts: tuple[int, ...]
    sizes: tuple[int, ...]


def stack_sizes(players: int, drawn: int) -> tuple[int, ...]:
    """The stack sizes for ``players`` when ``drawn`` start cards come from the deck."""
    if players in FIXED_SIZES:
        return FIXED_SIZES[players]
    left = len(DECK) - drawn
    return tuple(left // 3 + (1 if i < left % 3 else 0) for i in range(3))


def standard_layout(players: int) -> Layout:
    """Rules §3: every garden starts with a card from the deck."""
    return Layout((DRAW,) * players, stack_sizes(players, players))


def stack_name(index: int) -> str:
    """``"A"``, ``"B"``, ``"C"``."""
    return STACK_NAMES[index] if 0 <= index < len(STACK_NAMES) else f"#{index}"


def setup(ctx: SetupContext, layout: Layout) -> State:
    """The table before the deal: the fixed start cards planted, waiting for chance."""
    players = ctx.players
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"FLOWERS is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    starts, sizes = layout
    drawn = sum(1 for s in starts if s == DRAW)
    fixed = [s for s in starts if s != DRAW]
    if (len(starts) != players or len(sizes) < 2 or min(sizes) < 1
            or drawn + sum(sizes) > len(DECK)
            or any(s not in ALL_CARDS or s in DECK for s in fixed)
            or len(set(fixed)) != len(fixed)):
        raise ValueError(f"a FLOWERS layout for {players} players cannot be dealt: {layout}")
    gardens: tuple[Garden, ...] = tuple({} if s == DRAW else {START: (s,)} for s in starts)
    return State(players=players, gardens=gardens, targets=((),) * players, stacks=(),
                 active=NOBODY, phase=DEAL, sizes=tuple(sizes))


def deal_chance(state: State) -> Chance | None:
    """The deal a state waits for before play (the shuffle and the first player), or None."""
    if state.phase != DEAL:
        return None
    return Chance((Shuffle(len(DECK)), Pick(state.players)), "shuffle, deal and draw the "
                  "first player")


@cache
def round_robin(sizes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """For each stack, the positions (counted from the first card dealt to any stack) of
    the cards it gets when they are dealt one at a time round-robin, a full stack skipped."""
    out: list[list[int]] = [[] for _ in sizes]
    position = 0
    for turn in range(max(sizes)):
        for i, size in enumerate(sizes):
            if turn < size:
                out[i].append(position)
                position += 1
    return tuple(tuple(p) for p in out)


def deal(state: State, outcome: ChanceOutcome, coverable: Sequence[bool]) -> State:
    """The table once chance has answered the deal (see the module docstring)."""
    order, first = outcome
    assert isinstance(order, tuple) and isinstance(first, int)
    deck = permute(DECK, order)
    k = 0
    gardens: list[Garden] = []
    fringes: list[tuple[int, ...]] = []
    # A deck card whose coverability every deck card shares (the standard rule, Summer):
    # the targets of a drawn start card are worked out with it, without reading the card.
    stand_in = DECK[0] if len({coverable[c] for c in DECK}) == 1 else None
    for garden in state.gardens:
        if garden:
            fringes.append(targets(garden, coverable))
        else:
            card = deck[k]
            k += 1
            garden = {START: (card,)}
            fringes.append(targets({START: (card if stand_in is None else stand_in,)},
                                   coverable))
        gardens.append(garden)
    sizes = state.sizes
    rest = deck[k:]
    stacks = tuple(tuple([rest[p] for p in positions]) for positions in round_robin(sizes))
    return State(
        players=state.players,
        gardens=tuple(gardens),
        targets=tuple(fringes),
        stacks=stacks,
        active=first,
        phase=TAKE,
        box=tuple(sorted(rest[sum(sizes):])),
    )
