"""Counting a garden's symbols (spec §4): one tuple of counts per garden.

A `Tally` is the sum of its cards' vectors, so scoring never walks a garden twice.  Its
positions:

* ``0-4``: plant symbols of each colour G, R, B, Y, P, Rosa Alba *not* included;
* ``5`` (`WHITE`): Rosa Alba symbols (each one a wild plant symbol);
* ``6-11``: cards of each stone type TREE, PATH, WALL, HIVE, LAWN, FEATURE (one symbol each);
* ``12-16``: PATH cards showing at least one symbol of each colour (Rosa Alba qualifies);
* ``17`` (`EOR_CARDS`): cards with an end-of-round ability (the third tie-break).

Only cards in gardens are ever counted (spec §4).  `tally` remembers the gardens it counted
lately: a garden is counted again at every scoring, result and searching bot's ``score``.
"""

from __future__ import annotations

from collections.abc import Iterable

from hedgerow.plugins.flourish.cards import ANY, CARDS, COLOURS, PATH, PLANT, STONES, Card

Tally = tuple[int, ...]
WHITE = 5
EOR_CARDS = 17
SIZE = 18
EMPTY: Tally = (0,) * SIZE


def stone_index(symbol: int) -> int:
    """Where a stone symbol's count sits in a `Tally`."""
    return symbol + 1


def _vector(card: Card) -> Tally:
    out = [0] * SIZE
    for colour in COLOURS:
        out[colour] = card.plants[colour]
    out[WHITE] = card.white
    if card.kind != PLANT:
        out[stone_index(card.kind)] = 1
    if card.kind == PATH:
        for colour in COLOURS:
            out[12 + colour] = int(card.plants[colour] > 0 or card.white > 0)
    out[EOR_CARDS] = int(card.eor is not None)
    return tuple(out)


#: Each card's vector, by id.
VECTORS: tuple[Tally, ...] = tuple(_vector(c) for c in CARDS)


#: Gardens counted lately (a garden grows by one card a turn, so scoring, the results and a
#: searching bot's ``score`` count the same gardens again and again); cleared when full.
_COUNTED: dict[tuple[int, ...], Tally] = {}
REMEMBERED = 1 << 14


def tally(cards: Iterable[int]) -> Tally:
    """The tally of a garden holding ``cards`` (ids)."""
    key = cards if type(cards) is tuple else tuple(cards)
    found = _COUNTED.get(key)
    if found is not None:
        return found
    vectors = [VECTORS[ident] for ident in key]
    counted = tuple(map(sum, zip(*vectors, strict=True))) if vectors else EMPTY
    if len(_COUNTED) >= REMEMBERED:
        _COUNTED.clear()
    _COUNTED[key] = counted
    return counted


def plus(a: Tally, b: Tally) -> Tally:
    """Two gardens counted together (both neighbours, or yours with your only neighbour's)."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


def symbols(t: Tally, symbol: int) -> int:
    """``N(symbol)``: a colour's symbols with every Rosa Alba counted as that colour, a stone
    type's cards, or (`ANY`) every stone card."""
    if symbol < 5:
        return t[symbol] + t[WHITE]
    if symbol == ANY:
        return sum(t[6:12])
    return t[stone_index(symbol)]


def unique_plants(t: Tally) -> int:
    """Distinct colours, each Rosa Alba filling a missing one, at most 5 (first tie-break)."""
    return min(5, sum(1 for c in COLOURS if t[c]) + t[WHITE])


def unique_stones(t: Tally) -> int:
    """Distinct stone types in the garden (second tie-break)."""
    return sum(1 for s in STONES if t[stone_index(s)])


def plant_symbols(t: Tally) -> int:
    """Every plant symbol of any kind, Rosa Alba included."""
    return sum(t[:6])
