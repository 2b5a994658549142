"""Contact-level worked examples 1-8 (rules §10) and the scoring rules of §5.2."""

from __future__ import annotations

import pytest

from hedgerow.plugins.petals.cards import flower
from hedgerow.plugins.petals.geometry import placed
from hedgerow.plugins.petals.scoring import (
    DIFFERENT,
    IDENTICAL,
    NO_SYMBOLS,
    pair_points,
    score_at,
    symbol_pair,
    symbol_pairs,
)

F, W, E, A = 0, 1, 2, 3


def points(*pairs: tuple[str, str]) -> tuple[int, int, int, int]:
    """The F/W/E/A points of contact pairs written ``("W1", "W2")`` (played flower first)."""
    acc = [0, 0, 0, 0]
    for a, b in pairs:
        for element, pts in pair_points(flower(a), flower(b)):
            acc[element] += pts
    return (acc[0], acc[1], acc[2], acc[3])


def test_example_1_flower_match() -> None:
    assert points(("W1", "W2")) == (0, 3, 0, 0)


def test_example_2_number_match() -> None:
    assert points(("W2", "F2")) == (2, 2, 0, 0)


def test_example_3_the_seed_example_two_contacts() -> None:
    assert points(("W2", "F2"), ("A3", "F3")) == (5, 2, 0, 3)


def test_example_3_on_a_board() -> None:
    # #06 r0 shows W2 on its Left and A3 on its Right; #02 r1 shows F2 on its Right and
    # #01 r3 shows F3 on its Left.
    garden = {(0, 0): placed(2, 1), (1, 0): placed(6, 0), (2, 0): placed(1, 3)}
    assert score_at(garden, (1, 0)) == (5, 2, 0, 3)


def test_example_4_same_element_and_number_scores_once() -> None:
    assert points(("E2", "E2")) == (0, 0, 4, 0)


def test_example_5_symbol_against_a_number() -> None:
    assert points(("F3", "F*")) == (3, 0, 0, 0)
    assert points(("W2", "F*")) == (0, 0, 0, 0)


def test_example_6_no_match() -> None:
    assert points(("F1", "W3")) == (0, 0, 0, 0)


def test_example_7_identical_symbols() -> None:
    assert points(("A*", "A*")) == (0, 0, 0, 0)
    assert symbol_pair(flower("A*"), flower("A*")) == IDENTICAL


def test_example_8_different_symbols() -> None:
    assert points(("W*", "F*")) == (0, 0, 0, 0)
    assert symbol_pair(flower("W*"), flower("F*")) == DIFFERENT


@pytest.mark.parametrize("a", ["F1", "F2", "F3", "W1", "E2", "A3", "F*"])
@pytest.mark.parametrize("b", ["F1", "W1", "E2", "A3", "W*", "A*"])
def test_pair_scoring_is_symmetric_in_total(a: str, b: str) -> None:
    assert sum(points((a, b))) == sum(points((b, a)))


def test_numbers_and_symbols_never_trigger() -> None:
    assert symbol_pair(flower("W*"), flower("W2")) == NO_SYMBOLS
    assert symbol_pair(flower("F1"), flower("F1")) == NO_SYMBOLS


def test_only_contacts_of_the_scored_card_count() -> None:
    # (0,0) and (0,1) face each other, but only (1,0)'s pairs are scored.
    garden = {(0, 0): placed(1, 0), (0, 1): placed(7, 2), (1, 0): placed(7, 0)}
    # #07 r0 at (1,0): Left A2 faces (0,0)'s Right W1: nothing; its Top faces nothing.
    assert score_at(garden, (1, 0)) == (0, 0, 0, 0)


def test_symbol_pairs_reports_trigger_cells() -> None:
    # Example 11's board: #25 r2 at (2,0) shows W* on its Left, #16 r1 at (1,0) F* on its Right.
    garden = {(1, 0): placed(16, 1), (2, 0): placed(25, 2)}
    assert symbol_pairs(garden, (2, 0)) == (DIFFERENT, ((1, 0),))
    assert symbol_pairs(garden, (1, 0)) == (DIFFERENT, ((2, 0),))
