"""A personal garden's geometry: cells, stacks, and where the next card may be planted.

A garden is a dict ``cell -> stack``, where a stack is a tuple of card ids from the bottom
up (the last one is the visible card).  A dict held by a state is never mutated; each
planting builds a new one.  Positions are ``(x, y)`` to the outside world (actions, views,
scoring detail): ``x`` grows to the right and ``y`` upwards; adjacency is by a side only (a
corner never counts, rules §4).

Inside the rules a cell is one int, its *key*: ``(x + OFFSET) * STRIDE + (y + OFFSET)``.
Keys sort in ``(x, y)`` order, the side neighbours of ``k`` are ``k + 1`` (up), ``k +
STRIDE`` (right), ``k - 1`` (down) and ``k - STRIDE`` (left), and an int hashes and compares
far faster than a pair (the per-move path lives on them).  A garden grows one side step at
a time from ``(0, 0)`` and holds at most 109 cards, so its coordinates stay far inside
``LIMIT``; a position beyond it can never be next to a card.

The *targets* of a garden are the cells where a card may go: every empty cell that shares a
side with a card, and every occupied cell whose visible card may be covered (every card but
Summer's purple one: that is the table's ``coverable`` table, see `hookspecs`).  They are
kept in a state as a sorted tuple of keys and grown by `grow_targets` at each planting, so
listing the legal plantings costs nothing.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence

OFFSET = 512
STRIDE = 1024
LIMIT = 500  # |x| and |y| of any cell a garden can reach are far below this

Cell = tuple[int, int]  # (x, y), outside the rules
Stack = tuple[int, ...]
Garden = dict[int, Stack]  # cell key -> stack, bottom card first


def key(x: int, y: int) -> int:
    """The key of cell ``(x, y)`` (``|x|, |y| <= LIMIT``)."""
    return (x + OFFSET) * STRIDE + y + OFFSET


def cell(k: int) -> Cell:
    """The ``(x, y)`` of a cell key."""
    x, y = divmod(k, STRIDE)
    return x - OFFSET, y - OFFSET


def inside(x: int, y: int) -> bool:
    """True when ``(x, y)`` has a key (within ``LIMIT``)."""
    return -LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT


def side_neighbours(k: int) -> tuple[int, int, int, int]:
    """The keys of the four cells sharing a side with ``k``: up, right, down, left."""
    return k + 1, k + STRIDE, k - 1, k - STRIDE


def from_cells(cells: Iterable[tuple[int, int, Stack]] | Mapping[Cell, Stack]) -> Garden:
    """A garden from ``(x, y, stack)`` triples (a view's garden) or a ``{(x, y): stack}``."""
    if isinstance(cells, Mapping):
        return {key(x, y): stack for (x, y), stack in sorted(cells.items())}
    return {key(x, y): stack for x, y, stack in sorted(cells)}


def targets(garden: Garden, coverable: Sequence[bool]) -> tuple[int, ...]:
    """Every cell where a card may be planted, sorted: the empty cells next to the garden
    and the occupied cells whose visible card ``coverable[card]`` allows covering."""
    out: set[int] = set()
    for step in (1, STRIDE, -1, -STRIDE):  # every side neighbour of a card...
        out.update([k + step for k in garden])
    out.difference_update(garden)  # ...that is empty, and every card that may be covered
    out.update([k for k, stack in garden.items() if coverable[stack[-1]]])
    return tuple(sorted(out))


def grow_targets(old: tuple[int, ...], garden: Garden, k: int, fresh: bool,
                 coverable: bool) -> tuple[int, ...]:
    """The targets once a card is planted at ``k`` (``garden`` already holds it).

    ``fresh`` is True when the cell was empty before (its empty neighbours become targets:
    the ones that touched no other card are new); ``coverable`` says whether the card now
    visible there may itself be covered.
    """
    if not fresh and coverable:  # covering a card: nothing changes
        return old
    out = list(old)
    if fresh:
        for n in (k + 1, k + STRIDE, k - 1, k - STRIDE):
            if n not in garden:
                i = bisect_left(out, n)
                if i == len(out) or out[i] != n:
                    out.insert(i, n)
    if not coverable:
        i = bisect_left(out, k)
        if i < len(out) and out[i] == k:
            del out[i]
    return tuple(out)
