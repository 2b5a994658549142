"""Tiles in front of a player: pairing into complete flowers and points (spec §9, §11).

Pairing follows from the order a player took its tiles: a tile pairs with the player's
unpaired tile of its colour, if there is one, at once and for good.  So a 3rd tile of a
colour stays single and a 4th pairs with it; nothing is ever re-paired.

Points: a single half scores its flowers (an x3 half alone scores 0); a complete flower
scores 3 x the other half when one half is x3, else the larger half plus twice the smaller.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from hedgerow.plugins.mandala.cards import NCOLOURS, is_x3, tile_colour, tile_flowers


class Garden(NamedTuple):
    """One player's tiles sorted out: complete flowers (in the order completed) and singles."""

    flowers: tuple[tuple[int, int], ...]
    singles: tuple[int, ...]


def pair_up(tiles: Sequence[int]) -> Garden:
    """Pair ``tiles`` (in the order taken) into complete flowers and single halves."""
    waiting = [-1] * NCOLOURS  # per colour: the index of the unpaired tile, or -1
    flowers: list[tuple[int, int]] = []
    for i, tile in enumerate(tiles):
        colour = tile_colour(tile)
        if waiting[colour] < 0:
            waiting[colour] = i
        else:
            flowers.append((tiles[waiting[colour]], tile))
            waiting[colour] = -1
    singles = tuple(tiles[i] for i in sorted(i for i in waiting if i >= 0))
    return Garden(tuple(flowers), singles)


def flower_points(a: int, b: int) -> int:
    """The points of the complete flower made of tiles ``a`` and ``b``."""
    if is_x3(a):
        return 3 * tile_flowers(b)
    if is_x3(b):
        return 3 * tile_flowers(a)
    x, y = tile_flowers(a), tile_flowers(b)
    return max(x, y) + 2 * min(x, y)


def single_points(tile: int) -> int:
    """The points of a single half: its flowers (0 for x3)."""
    return tile_flowers(tile)


def points(tiles: Sequence[int]) -> int:
    """A player's score from the tiles they took, in the order taken."""
    return _points(tuple(tiles))


@lru_cache(maxsize=4096)
def _points(tiles: tuple[int, ...]) -> int:
    # Views show every seat's score on every call, and tiles change only at resolutions.
    garden = pair_up(tiles)
    return (sum(flower_points(a, b) for a, b in garden.flowers)
            + sum(single_points(t) for t in garden.singles))


def gain(tiles: Sequence[int], tile: int) -> int:
    """The points taking ``tile`` would add to a player holding ``tiles`` (the tile choice)."""
    return points((*tiles, tile)) - points(tiles)


def complete_flowers(tiles: Sequence[int]) -> int:
    """How many complete flowers the tiles make (a tile pairs with an unpaired one of its
    colour, so this is the sum over colours of half the count, rounded down)."""
    seen = [0] * NCOLOURS
    for tile in tiles:
        seen[tile_colour(tile)] += 1
    return sum(n // 2 for n in seen)
