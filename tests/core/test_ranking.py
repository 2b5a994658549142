"""hedgerow.core.ranking: competition ranks and the words results share."""

from __future__ import annotations

from hedgerow.core.ranking import competition_ranks, deciding, grade, seat_names, winners


def test_competition_ranks_share_ties_and_skip_the_next_rank() -> None:
    assert competition_ranks([5, 9, 9, 2]) == (3, 1, 1, 4)
    assert competition_ranks([(3, 1), (3, 2), (3, 2), (4, 0)]) == (4, 2, 2, 1)
    assert competition_ranks([7]) == (1,)
    assert competition_ranks([]) == ()


def test_winners_are_the_seats_ranked_first() -> None:
    assert winners((3, 1, 1, 4)) == (1, 2)
    assert winners((1,)) == (0,)


def test_deciding_names_the_first_differing_position() -> None:
    assert deciding((5, 2, 7), (5, 1, 9)) == 1
    assert deciding((6,), (5,)) == 0


def test_seat_names() -> None:
    assert seat_names([2]) == "seat 2"
    assert seat_names([0, 1]) == "seats 0 and 1"
    assert seat_names([0, 1, 3]) == "seats 0, 1 and 3"


def test_grade_is_the_best_threshold_reached() -> None:
    grades = (("Bronze", 30), ("Silver", 40), ("Gold", 50))
    assert grade(29, grades) == ""
    assert grade(30, grades) == "Bronze" and grade(49, grades) == "Silver"
    assert grade(99, grades) == "Gold"
    assert grade(3, grades, default="Beginner") == "Beginner"
