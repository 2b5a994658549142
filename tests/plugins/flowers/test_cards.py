"""The deck of rules §2: 108 cards, 27 a colour, the butterflies, the purple cards, the ids."""

from __future__ import annotations

from collections import Counter

from hedgerow.plugins.flowers.cards import (
    ALL_CARDS,
    BUTTERFLY,
    COLOUR,
    DECK,
    NONE,
    PURPLE,
    PURPLES,
    VALUE,
    card_text,
    find,
)


def test_108_cards_27_of_each_colour_with_the_printed_values() -> None:
    assert tuple(range(108)) == DECK
    assert Counter(COLOUR[c] for c in DECK) == {0: 27, 1: 27, 2: 27, 3: 27}
    for colour in range(4):
        values = Counter(VALUE[c] for c in DECK if COLOUR[c] == colour)
        assert values == {1: 3, 2: 6, 3: 8, 4: 10}


def test_three_butterfly_fours_a_colour_one_for_each_other_colour() -> None:
    pairs = [(COLOUR[c], BUTTERFLY[c]) for c in DECK if BUTTERFLY[c] != NONE]
    assert len(pairs) == 12 and len(set(pairs)) == 12
    assert all(a != b for a, b in pairs)
    assert all(VALUE[c] == 4 for c in DECK if BUTTERFLY[c] != NONE)


def test_ids_follow_the_order_of_the_spec() -> None:
    yellow = [card_text(c) for c in range(27)]
    assert yellow == ["Y1"] * 3 + ["Y2"] * 6 + ["Y3"] * 8 + ["Y4"] * 7 + ["Y4r", "Y4b", "Y4g"]
    assert [card_text(c) for c in range(51, 54)] == ["R4y", "R4b", "R4g"]
    assert card_text(107) == "G4b" and card_text(27) == "R1"


def test_purple_cards_are_outside_the_deck_with_no_value_colour_or_butterfly() -> None:
    assert PURPLES == (108, 109, 110, 111) and ALL_CARDS == DECK + PURPLES
    assert [card_text(p) for p in PURPLES] == ["P1", "P2", "P3", "P4"]
    assert all(COLOUR[p] == PURPLE and VALUE[p] == 0 and BUTTERFLY[p] == NONE for p in PURPLES)


def test_find_gives_each_copy_in_turn() -> None:
    assert [find("B2", i) for i in range(6)] == list(range(57, 63))
    assert find("Y4g") == 26
