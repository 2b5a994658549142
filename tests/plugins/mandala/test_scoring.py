"""Spec §9 and §13.1: pairing in the order taken, and the scoring table M1-M13."""

from __future__ import annotations

import pytest

from hedgerow.plugins.mandala.scoring import complete_flowers, flower_points, pair_up, points

from .conftest import tiles

SCORING = [
    ("M1", ("red-2",), 2),
    ("M2", ("red-x3",), 0),
    ("M3", ("gray-1", "gray-3"), 5),
    ("M4", ("green-2", "green-2"), 6),
    ("M5", ("purple-x3", "purple-3"), 9),
    ("M6", ("orange-1", "orange-x3"), 3),
    ("M7", ("yellow-1", "yellow-1"), 3),
    ("M8", ("red-2", "red-3"), 7),
    ("M9", ("gray-x3", "gray-2", "green-1", "green-2"), 10),
    ("M11", ("green-1", "green-2", "green-3"), 7),
    ("M13", ("purple-3", "yellow-x3"), 3),
]


@pytest.mark.parametrize(("held", "expected"), [(h, e) for _, h, e in SCORING],
                         ids=[name for name, _, _ in SCORING])
def test_scoring_examples(held: tuple[str, ...], expected: int) -> None:
    assert points(tiles(*held)) == expected


def test_m11_pairs_first_two_and_never_repairs() -> None:
    green1, green2, green3 = tiles("green-1", "green-2", "green-3")
    garden = pair_up((green1, green2, green3))
    assert garden.flowers == ((green1, green2),) and garden.singles == (green3,)
    # taken in another order, the pairs differ: (2, 3) then 1 single = 7 + 1
    assert points((green2, green3, green1)) == 8


def test_fourth_tile_of_a_colour_pairs_with_the_third() -> None:
    held = tiles("red-1", "red-2", "red-3", "red-x3")
    garden = pair_up(held)
    assert len(garden.flowers) == 2 and garden.singles == ()
    assert complete_flowers(held) == 2
    assert points(held) == 4 + 9


def test_every_complete_flower_value() -> None:
    pairs = {("1", "1"): 3, ("1", "2"): 4, ("1", "3"): 5, ("2", "2"): 6, ("2", "3"): 7,
             ("x3", "1"): 3, ("x3", "2"): 6, ("x3", "3"): 9}
    for (a, b), value in pairs.items():
        x, y = tiles(f"gray-{a}", f"gray-{b}")
        assert flower_points(x, y) == flower_points(y, x) == value, (a, b)


def test_two_singles_of_different_colours_never_pair() -> None:
    held = tiles("purple-2", "orange-1")  # the two tiles of one mandala
    assert complete_flowers(held) == 0 and points(held) == 3


def test_gain_of_a_tile_choice() -> None:
    from hedgerow.plugins.mandala.scoring import gain

    held = tiles("purple-3")
    purple_x3, orange_1 = tiles("purple-x3", "orange-1")
    assert gain(held, purple_x3) == 9 - 3 and gain(held, orange_1) == 1
