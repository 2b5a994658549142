"""Scoring one ability (spec §5): the eleven templates, scopes, neighbours and Rosa Alba.

Every choice an ability leaves open (which neighbour, which alternative, what a Rosa Alba
stands for) is taken for the best score, so scoring asks nobody anything.

Neighbours (spec §5.1) depend only on how many gardens the table has: with three or more,
the left neighbour of garden ``i`` is ``i + 1`` and the right one ``i - 1`` (mod n); with two
(two players, or you and McGregor alone) each is the other's only neighbour, both
neighbour scopes mean that one garden, and an ability printed on a PATH card with a
neighbour scope counts your garden and your neighbour's together.
"""

from __future__ import annotations

from collections.abc import Sequence

from hedgerow.plugins.flourish.cards import (
    BOTH_NB,
    COLOR_PATHS,
    COLOURS,
    COUNT,
    EITHER,
    FIVE_OF_ONE,
    HAVE_TREE,
    HIVE,
    HIVES3,
    MAJ_BOTH,
    MAJ_ONE,
    ONE_EACH,
    ONE_NB,
    PATH,
    SUM2,
    TREE,
    WALL,
    WALLS,
    Ability,
)
from hedgerow.plugins.flourish.tally import WHITE, Tally, plus, stone_index, symbols


def neighbours(garden: int, gardens: int) -> tuple[int, ...]:
    """The neighbours of ``garden`` at a table of ``gardens``: (left, right), or the only one."""
    if gardens == 2:
        return (1 - garden,)
    if gardens < 2:
        return ()
    return ((garden + 1) % gardens, (garden - 1) % gardens)


def left_of(seat: int, gardens: int) -> int:
    """The seat a card passed left goes to (the only neighbour with two gardens)."""
    return (seat + 1) % gardens


def right_of(seat: int, gardens: int) -> int:
    """The seat a card passed right goes to (the only neighbour with two gardens)."""
    return (seat - 1) % gardens


def regions(ability: Ability, kind: int, garden: int, tallies: Sequence[Tally],
            ) -> list[Tally]:
    """The tallies an ability may count, one per option (the best is scored)."""
    own = tallies[garden]
    if ability.scope not in (ONE_NB, BOTH_NB):
        return [own]
    near = [tallies[n] for n in neighbours(garden, len(tallies))]
    if len(near) == 1:
        return [plus(own, near[0])] if kind == PATH else near
    if ability.scope == ONE_NB:
        return near
    return [plus(near[0], near[1])]


def _majority(colour: int, garden: int, tallies: Sequence[Tally], every: bool) -> bool:
    mine = symbols(tallies[garden], colour)
    if mine < 1:
        return False
    checks = [mine >= symbols(tallies[n], colour) for n in neighbours(garden, len(tallies))]
    return all(checks) if every else any(checks)


def _on(t: Tally, a: Ability) -> int:
    """The score of a counting template on one tally."""
    template = a.template
    if template == COUNT:
        return a.points * symbols(t, a.symbol)
    if template == SUM2:
        return (a.points * t[a.symbol] + a.points2 * t[a.symbol2]
                + t[WHITE] * max(a.points, a.points2))
    if template == EITHER:
        return max(a.points * symbols(t, a.symbol), a.points2 * symbols(t, a.symbol2))
    if template == WALLS:
        return a.points * t[stone_index(WALL)]
    if template == COLOR_PATHS:
        return a.points * t[12 + a.symbol]
    if template == HAVE_TREE:
        return a.points if t[stone_index(TREE)] >= 1 else 0
    if template == HIVES3:
        return a.points if t[stone_index(HIVE)] >= 3 else 0
    if template == FIVE_OF_ONE:
        return a.points if max(t[c] for c in COLOURS) + t[WHITE] >= 5 else 0
    if template == ONE_EACH:
        return a.points if sum(1 for c in COLOURS if not t[c]) <= t[WHITE] else 0
    raise ValueError(f"unknown ability template {template!r}")


def score(ability: Ability, kind: int, garden: int, tallies: Sequence[Tally]) -> int:
    """What ``ability`` (printed on a card of type ``kind``) scores for ``garden``, given every
    garden's tally (in seat order; McGregor's last in solo)."""
    if ability.template in (MAJ_ONE, MAJ_BOTH):
        won = _majority(ability.symbol, garden, tallies, ability.template == MAJ_BOTH)
        return ability.points if won else 0
    return max(_on(t, ability) for t in regions(ability, kind, garden, tallies))


__all__ = ["left_of", "neighbours", "regions", "right_of", "score"]
