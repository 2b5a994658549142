"""Final scoring (rules §6): every worked example of rules §10 as a test, with its detail."""

from __future__ import annotations

import pytest

from hedgerow.plugins.flowers.cards import GREEN, RED, YELLOW
from hedgerow.plugins.flowers.scoring import score_garden
from hedgerow.plugins.flowers.summer import summer_colour_points

from .conftest import grid

# (number, rows top first, colour, butterflies, removed cards, total)
EXAMPLES = [
    (1, ["B1 B4 B4 B4 B4"], 5, 0, 0, 5),
    (2, ["B4 B4 B4 B4 B4"], 0, 0, 5, -5),
    (3, ["Y3 Y3 Y3", "Y2/R4 . ."], 0, 0, 2, -2),
    (4, ["G1 G1 G3", ". G3 G3"], 0, 0, 2, -2),
    (5, ["R3 R3 R3 R1 R2 R2"], 6, 0, 0, 6),
    (6, ["R3 R3 R3 R2 R1 R2"], 0, 0, 2, -2),
    (7, ["G1 Y4g Y4", ". Y4 Y4"], 0, 1, 0, 1),
    (8, ["G1 R4/Y4g Y4", ". Y4 Y4"], 0, 0, 0, 0),
    (9, ["Y4g Y4 Y4 Y4", ". G1 . ."], 0, 0, 0, 0),
    (11, ["B2/R3/G4 B1"], 0, 0, 3, -3),
    (12, ["R2 R2 Y1 B2", "Y1 . . B2", "G2 G2 G2 ."], 0, 0, 3, -3),
    (14, ["G2/R2 G2 G1", "G3 G3 G3 ."], 6, 0, 0, 6),
]


@pytest.mark.parametrize(("number", "rows", "colour", "butterflies", "removed", "total"),
                         EXAMPLES, ids=[f"example-{e[0]}" for e in EXAMPLES])
def test_worked_example(number: int, rows: list[str], colour: int, butterflies: int,
                        removed: int, total: int) -> None:
    score = score_garden(grid(*rows))
    assert (score.colour, score.butterfly, score.penalty, score.total) == (
        colour, butterflies, removed, total)
    assert score.dropped == len(score.removed)
    quick = score_garden(grid(*rows), detail=False)
    assert quick.numbers == () and quick._replace(numbers=score.numbers) == score


def test_example_3_removes_the_lone_two_with_the_card_under_it() -> None:
    score = score_garden(grid("Y3 Y3 Y3", "Y2/R4 . ."))
    (gone,) = score.removed
    assert (gone.value, gone.cells, gone.cards) == (2, ((0, -1),), 2)
    assert [(g.colour, len(g.cells)) for g in score.groups] == [(YELLOW, 3)]
    assert score.points == (0,)


def test_example_4_removes_both_ones_and_leaves_three_greens() -> None:
    score = score_garden(grid("G1 G1 G3", ". G3 G3"))
    assert [(g.value, g.cells) for g in score.removed] == [(1, ((0, 0), (1, 0)))]
    assert [(g.colour, g.cells) for g in score.groups] == [(GREEN, ((1, -1), (2, -1), (2, 0)))]


def test_example_5_every_group_is_valid_and_red_scores_six() -> None:
    score = score_garden(grid("R3 R3 R3 R1 R2 R2"))
    assert all(g.valid for g in score.numbers)
    assert [(g.value, len(g.cells)) for g in score.numbers] == [(3, 3), (1, 1), (2, 2)]
    assert [(g.colour, len(g.cells), p) for g, p in score.scoring] == [(RED, 6, 6)]
    assert score.largest == 6


def test_example_6_removal_splits_the_colour_group() -> None:
    score = score_garden(grid("R3 R3 R3 R2 R1 R2"))
    assert [g.cells for g in score.removed] == [((3, 0),), ((5, 0),)]
    assert [len(g.cells) for g in score.groups] == [3, 1]
    assert score.scoring == () and score.largest == 0


def test_example_7_a_butterfly_counts_its_colour_beside_it() -> None:
    score = score_garden(grid("G1 Y4g Y4", ". Y4 Y4"))
    assert score.butterflies == ((1, 0),)


def test_a_butterfly_scores_once_however_many_neighbours_match() -> None:
    score = score_garden(grid(". G1 .", "G1 Y4g Y4", ". Y4 Y4"))
    assert score.penalty == 0 and score.butterfly == 1


def test_a_removed_neighbour_does_not_feed_a_butterfly() -> None:
    # The G2 is a lone 2, removed before butterflies are counted.
    score = score_garden(grid("G2 Y4g Y4 Y4 Y4"))
    assert score.butterfly == 0 and score.penalty == 1


def test_a_butterfly_needs_no_scoring_group() -> None:
    assert score_garden(grid("B1 R4b R4 R4 R4")).total == 1


def test_example_11_a_removed_stack_costs_every_card_in_it() -> None:
    score = score_garden(grid("B2/R3/G4 B1"))
    (gone,) = score.removed
    assert gone.cards == 3 and len(gone.cells) == 1


def test_example_12_several_valid_pairs_and_ones_that_touch_no_one() -> None:
    score = score_garden(grid("R2 R2 Y1 B2", "Y1 . . B2", "G2 G2 G2 ."))
    valid = [(g.value, g.cells) for g in score.numbers if g.valid]
    assert len(valid) == 4  # two pairs of 2s and two lone 1s
    assert [(g.value, len(g.cells)) for g in score.removed] == [(2, 3)]


def test_an_empty_result_when_nothing_scores() -> None:
    score = score_garden(grid("Y1"))
    assert (score.total, score.numbers[0].valid, score.groups[0].cells) == (1 - 1, True, ((0, 0),))


def test_summer_scores_only_groups_touching_the_purple_card() -> None:
    touching = grid("P G1 G4 G4", ". . G4 G4")  # 5 greens, G1 beside the purple card
    score = score_garden(touching, summer_colour_points)
    assert (score.colour, score.penalty, score.total) == (5, 0, 5)
    apart = grid("P Y2 G1 G4 G4", ". Y2 . G4 G4")  # the same greens, a yellow pair between
    assert score_garden(apart).colour == 5
    score = score_garden(apart, summer_colour_points)
    assert [(g.colour, len(g.cells)) for g in score.groups] == [(YELLOW, 2), (GREEN, 5)]
    assert (score.points, score.total) == ((0, 0), 0)


def test_summer_purple_is_never_removed_nor_in_a_number_group() -> None:
    score = score_garden(grid("P B1 B4 B4 B4 B4"), summer_colour_points)
    assert all((0, 0) not in g.cells for g in score.numbers)
    assert (score.colour, score.penalty, score.total) == (5, 0, 5)
    assert [len(g.cells) for g in score.groups] == [5]
