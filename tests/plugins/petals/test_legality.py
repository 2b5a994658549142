"""The fast list of legal moves agrees with checking every move one by one (rules §5.4)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hedgerow.plugins.petals.geometry import frontier, placed
from hedgerow.plugins.petals.legality import check_move, has_move, move_options


@st.composite
def gardens(draw: st.DrawFn) -> tuple[dict[tuple[int, int], int], tuple[tuple[int, int], ...]]:
    """A garden grown from the starting diagonal by legal placements, and its triggers."""
    garden = {(0, 0): placed(1, 0), (1, 1): placed(2, 0), (2, 2): placed(3, 0)}
    for _ in range(draw(st.integers(0, 25))):
        spots = frontier(garden)
        garden[spots[draw(st.integers(0, len(spots) - 1))]] = placed(4, 0)
    cells = sorted(garden)
    played = cells[draw(st.integers(0, len(cells) - 1))]
    others = [c for c in cells if abs(c[0] - played[0]) + abs(c[1] - played[1]) == 1]
    extra = draw(st.lists(st.sampled_from(others), max_size=2, unique=True)) if others else []
    return garden, (played, *extra)


@settings(max_examples=150, deadline=None)
@given(gardens())
def test_move_options_match_checking_each_move(case) -> None:
    garden, triggers = case
    listed = {(src, d) for src, dests in move_options(garden, frontier(garden), triggers)
              for d in dests}
    xs = [x for x, _ in garden]
    ys = [y for _, y in garden]
    brute = {
        (src, (x, y))
        for src in garden
        for x in range(min(xs) - 1, max(xs) + 2)
        for y in range(min(ys) - 1, max(ys) + 2)
        if check_move(garden, triggers, src, (x, y), 0) is None
    }
    assert listed == brute
    assert has_move(garden, frontier(garden), triggers) == bool(brute)


def test_a_split_garden_is_judged_move_by_move() -> None:
    garden = {(0, 0): placed(1, 0), (1, 0): placed(2, 0), (5, 5): placed(3, 0)}
    options = dict(move_options(garden, frontier(garden), ((0, 0),)))
    # The garden is already split: only moving (5,5) next to the others joins it up.
    assert set(options) == {(5, 5)}
    assert all(check_move(garden, ((0, 0),), (5, 5), d, 0) is None for d in options[(5, 5)])
