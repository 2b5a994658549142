"""Scoring a card at its place in the garden (rules §5.2) and spotting symbol pairs (§5.3).

Every pair of facing flowers is looked up in tables built once for the 16 x 16 flower
codes: `PAIR_POINTS` says what a contact pair adds to which elements, `PAIR_SYMBOLS` whether
it is an identical or a different symbol pair.  Only pairs that involve the card being
scored count; the rest of the garden is never re-scored.
"""

from __future__ import annotations

from hedgerow.plugins.petals.cards import SYMBOL, card
from hedgerow.plugins.petals.geometry import SIDES, Cell, Garden

Points = tuple[int, int, int, int]
NOTHING: Points = (0, 0, 0, 0)

NO_SYMBOLS, IDENTICAL, DIFFERENT = 0, 1, 2


def pair_points(a: int, b: int) -> tuple[tuple[int, int], ...]:
    """What the contact pair of flowers ``a`` (scored card) and ``b`` adds: (element, points)s.

    The first rule that fits applies (§5.2): a flower match (same element) adds both values
    to that element, once, even when the numbers are equal too; a number match (different
    elements, both numbers, equal) adds each value to its own element; otherwise nothing.
    """
    ea, va, eb, vb = a >> 2, a & 3, b >> 2, b & 3
    if ea == eb:
        return ((ea, va + vb),)
    if va != SYMBOL and va == vb:
        return ((ea, va), (eb, vb))
    return ()


def symbol_pair(a: int, b: int) -> int:
    """`IDENTICAL`, `DIFFERENT` or `NO_SYMBOLS` for the pair of flowers ``a`` and ``b``."""
    if a & 3 != SYMBOL or b & 3 != SYMBOL:
        return NO_SYMBOLS
    return IDENTICAL if a >> 2 == b >> 2 else DIFFERENT


PAIR_POINTS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    pair_points(a, b) for a in range(16) for b in range(16)
)
PAIR_SYMBOLS: tuple[int, ...] = tuple(symbol_pair(a, b) for a in range(16) for b in range(16))


def add(points: Points, more: Points) -> Points:
    """Element-wise sum of two point tuples."""
    return (points[0] + more[0], points[1] + more[1], points[2] + more[2], points[3] + more[3])


def evaluate(garden: Garden, cell: Cell) -> tuple[Points, int, tuple[Cell, ...]]:
    """The card at ``cell``: its points from its contact pairs, and the effect it triggers.

    One pass over the four sides gives ``(points, effect, cells)``: the points per element
    F/W/E/A, `NO_SYMBOLS` / `IDENTICAL` / `DIFFERENT`, and the neighbours that form a symbol
    pair with it.  With several symbol pairs one effect resolves, identical taking
    precedence (§5.3, OUR DECISION).
    """
    return evaluate_placed(garden, cell, garden[cell])


def evaluate_placed(garden: Garden, cell: Cell, code: int,
                    ) -> tuple[Points, int, tuple[Cell, ...]]:
    """`evaluate` of a card ``code`` (``card * 4 + rotation``) at ``cell``, whether or not
    ``garden`` holds it there yet: only the four neighbours are read, so a placement can be
    scored without copying the garden."""
    sides = SIDES[code]
    x, y = cell
    acc = [0, 0, 0, 0]
    kind = NO_SYMBOLS
    cells: tuple[Cell, ...] = ()
    for side, n in enumerate(((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y))):
        other = garden.get(n)
        if other is not None:
            key = sides[side] * 16 + SIDES[other][side ^ 2]
            for element, pts in PAIR_POINTS[key]:
                acc[element] += pts
            found = PAIR_SYMBOLS[key]
            if found:
                cells += (n,)
                if kind != IDENTICAL:
                    kind = found
    return (acc[0], acc[1], acc[2], acc[3]), kind, cells


def score_at(garden: Garden, cell: Cell) -> Points:
    """The points the card at ``cell`` scores from its contact pairs, per element F/W/E/A."""
    return evaluate(garden, cell)[0]


def symbol_pairs(garden: Garden, cell: Cell) -> tuple[int, tuple[Cell, ...]]:
    """The effect a card at ``cell`` triggers (`NO_SYMBOLS`, `IDENTICAL`, `DIFFERENT`) and the
    neighbours it triggers with (see `evaluate`)."""
    _, kind, cells = evaluate(garden, cell)
    return kind, cells


def direct_points(ident: int) -> Points:
    """What a card scores directly at the end: each number to its element, symbols 0."""
    points = [0, 0, 0, 0]
    for f in card(ident).flowers:
        points[f >> 2] += f & 3
    return (points[0], points[1], points[2], points[3])
