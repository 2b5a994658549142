"""The card list of rules §2.1 and its checked invariants; direct scoring (example 15)."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from hedgerow.plugins.petals.cards import (
    CARDS,
    DECK,
    LADYBUGS,
    REGULAR,
    card,
    flower,
    flower_text,
    is_symbol,
    value_of,
)
from hedgerow.plugins.petals.scoring import direct_points


def _counts(ids: tuple[int, ...]) -> dict[int, Counter[int]]:
    """Per element, how many flowers show each value (0 = symbol)."""
    out: dict[int, Counter[int]] = {e: Counter() for e in range(4)}
    for ident in ids:
        for f in card(ident).flowers:
            out[f >> 2][f & 3] += 1
    return out


def test_deck_has_38_cards_35_regular_and_3_ladybugs() -> None:
    assert len(DECK) == 38
    assert [c.id for c in DECK] == list(range(1, 39))
    assert tuple(range(1, 36)) == REGULAR
    assert LADYBUGS == (36, 37, 38)
    assert CARDS[0] is None and all(CARDS[c.id] is c for c in DECK)


def test_regular_cards_have_ten_of_each_number_and_five_symbols_per_element() -> None:
    for element, counts in _counts(REGULAR).items():
        assert counts == Counter({1: 10, 2: 10, 3: 10, 0: 5}), element


def test_all_cards_have_eleven_of_each_number_and_five_symbols_per_element() -> None:
    for element, counts in _counts(REGULAR + LADYBUGS).items():
        assert counts == Counter({1: 11, 2: 11, 3: 11, 0: 5}), element


def test_every_card_has_one_flower_per_element_and_at_most_one_symbol() -> None:
    for c in DECK:
        assert sorted(f >> 2 for f in c.flowers) == [0, 1, 2, 3], c
        assert sum(is_symbol(f) for f in c.flowers) <= 1, c


def test_ladybugs_hold_one_1_one_2_one_3_of_every_element() -> None:
    for element, counts in _counts(LADYBUGS).items():
        assert counts == Counter({1: 1, 2: 1, 3: 1}), element


def test_face_sums() -> None:
    for c in DECK:
        total = sum(value_of(f) for f in c.flowers)
        if c.ladybug:
            continue
        assert total == (6 if any(is_symbol(f) for f in c.flowers) else 8), c
    assert [sum(value_of(f) for f in card(i).flowers) for i in LADYBUGS] == [7, 8, 9]


def test_each_cyclic_order_of_elements_is_on_six_or_seven_cards() -> None:
    def cyclic(order: tuple[int, ...]) -> tuple[int, ...]:
        i = order.index(0)
        return order[i:] + order[:i]

    counts = Counter(cyclic(tuple(f >> 2 for f in c.flowers)) for c in DECK)
    assert set(counts) == {cyclic(p) for p in permutations(range(4))}
    assert len(counts) == 6
    assert all(6 <= n <= 7 for n in counts.values()), counts


def test_symbol_column_of_the_table() -> None:
    symbols = {c.id: next((f >> 2 for f in c.flowers if is_symbol(f)), None) for c in DECK}
    assert [i for i, e in symbols.items() if e == 0] == [16, 17, 18, 19, 20]
    assert [i for i, e in symbols.items() if e == 1] == [21, 22, 23, 24, 25]
    assert [i for i, e in symbols.items() if e == 2] == [26, 27, 28, 29, 30]
    assert [i for i, e in symbols.items() if e == 3] == [31, 32, 33, 34, 35]


def test_flower_notation_round_trips() -> None:
    for text in ("F3", "W1", "E*", "A2"):
        assert flower_text(flower(text)) == text
    for bad in ("X1", "F4", "F", "F10"):
        with pytest.raises(ValueError):
            flower(bad)
    assert str(card(25)) == "#25 F3 W* E1 A2"


def test_example_15_direct_scoring() -> None:
    # #38 -> Fire +3, Water +1, Air +3, Earth +2 (F/W/E/A order)
    assert direct_points(38) == (3, 1, 2, 3)
    # #20 -> Water +3, Air +1, Earth +2, Fire +0
    assert direct_points(20) == (0, 3, 2, 1)
