"""The fast list of legal moves agrees with checking every move one by one (rules §5.4)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hedgerow.plugins.petals.choices import SCORE, MoveChoices, move_action
from hedgerow.plugins.petals.geometry import (
    connected,
    frontier,
    moved_frontier,
    placed,
    surrounded,
    touches_side,
)
from hedgerow.plugins.petals.legality import check_move, has_move, move_options, move_plan


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


@settings(max_examples=150, deadline=None)
@given(gardens())
def test_effect_choices_list_every_move_in_order_and_answer_in(case) -> None:
    """The lazy effect choices (destinations listed only for the card picked) are every
    legal move, sources in cell order, destinations in frontier order, rotations 0-3."""
    garden, triggers = case
    fringe = frontier(garden)
    order = [(src, d) for src in sorted(garden) for d in fringe
             if check_move(garden, triggers, src, d, 0) is None]
    expected = [SCORE] + [move_action(src, d, rot) for src, d in order for rot in range(4)]
    choices = MoveChoices(move_plan(garden, fringe, triggers), fringe, first=(SCORE,))
    assert len(choices) == len(expected)
    assert [choices[i] for i in reversed(range(len(expected)))] == expected[::-1]
    assert list(choices) == expected
    assert all(a in choices for a in expected)
    near = [move_action(src, (d[0] + 1, d[1]), 0) for src, d in order[:5]]
    assert [a in choices for a in near] == [a in expected for a in near]


@settings(max_examples=150, deadline=None)
@given(gardens())
def test_a_move_is_refused_exactly_when_it_splits_the_garden(case) -> None:
    """check_move's shortcut (a card whose neighbours touch one another never splits the
    garden) agrees with the full search on every garden the rules can reach."""
    garden, triggers = case
    for src in garden:
        if src in triggers or surrounded(garden, src):
            continue
        for d in frontier(garden):
            full = (touches_side(garden, d, without=src)
                    and connected(garden, (d,), without=src))
            assert (check_move(garden, triggers, src, d, 0) is None) == full


@settings(max_examples=150, deadline=None)
@given(gardens(), st.data())
def test_the_frontier_after_a_move_is_the_frontier_of_the_new_garden(case, data) -> None:
    garden, _ = case
    before = frontier(garden)
    src = data.draw(st.sampled_from(sorted(garden)))
    dst = data.draw(st.sampled_from(before))
    after = dict(garden)
    after[dst] = after.pop(src)
    assert moved_frontier(before, after, src, dst) == frontier(after)
