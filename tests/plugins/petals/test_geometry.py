"""Rules §3: rotation, sides, the frontier and 8-connectivity (incl. cut cells)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hedgerow.plugins.petals.cards import card, flower
from hedgerow.plugins.petals.geometry import (
    SIDES,
    connected,
    find_cuts,
    frontier,
    grow_frontier,
    placed,
    rotate,
    surrounded,
    touches_side,
)


def test_rotation_puts_canonical_top_on_the_right_at_r1() -> None:
    top, right, bottom, left = card(16).flowers
    assert rotate(card(16).flowers, 1) == (left, top, right, bottom)
    assert SIDES[placed(16, 1)][1] == flower("F*")


def test_side_table_matches_the_formula_for_every_card_and_rotation() -> None:
    for ident in range(1, 39):
        canonical = card(ident).flowers
        for r in range(4):
            assert SIDES[placed(ident, r)] == tuple(canonical[(s - r) % 4] for s in range(4))


def test_frontier_is_every_empty_cell_sharing_a_side() -> None:
    cells = {(0, 0), (1, 1), (2, 2)}
    spots = frontier(cells)
    assert spots == tuple(sorted(spots))
    assert (1, 0) in spots and (0, 1) in spots and (3, 2) in spots
    assert (1, 2) in spots and (-1, 0) in spots
    assert (3, 3) not in spots and (0, 2) not in spots  # corner contact only / no contact


def test_grow_frontier_agrees_with_recomputing() -> None:
    cells = {(0, 0), (1, 1), (2, 2)}
    spots = frontier(cells)
    for new in [(1, 0), (2, 0), (2, 1), (3, 1), (1, -1)]:
        cells.add(new)
        spots = grow_frontier(spots, cells, new)
        assert spots == frontier(cells)


def test_starting_diagonal_is_8_connected_but_not_side_connected() -> None:
    cells = {(0, 0), (1, 1), (2, 2)}
    assert connected(cells)
    assert not any(touches_side(cells, c) for c in cells)
    assert set(find_cuts(cells).split) == {(1, 1)}


def test_surrounded() -> None:
    cells = {(1, 1), (1, 2), (2, 1), (1, 0), (0, 1)}
    assert surrounded(cells, (1, 1))
    cells.discard((0, 1))
    assert not surrounded(cells, (1, 1))


def test_find_cuts_none_when_already_split() -> None:
    assert find_cuts({(0, 0), (5, 5)}) is None
    assert find_cuts(set()) is None


@settings(max_examples=300, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=20))
def test_cut_cells_match_removing_each_cell(cells: set[tuple[int, int]]) -> None:
    cuts = find_cuts(cells)
    if not connected(cells):
        assert cuts is None
        return
    assert set(cuts.split) == {c for c in cells if not connected(cells, without=c)}
    for cut in cuts.split:  # the parts are exactly what is left, each one piece
        parts = cuts.parts(cut)
        rest = cells - {cut} - {c for p in parts for c in p}
        pieces = [set(p) for p in parts] + ([rest] if cut != cuts.root else [])
        assert all(piece and connected(piece) for piece in pieces)
        assert not rest if cut == cuts.root else rest
