"""The components (spec §3): 90 cards, 15 a colour; 36 tiles, 18 a back, x3 1 1 2 2 3 a colour."""

from __future__ import annotations

from collections import Counter

from hedgerow.plugins.mandala.cards import (
    CARDS,
    COLOURS,
    DARK_TILES,
    LIGHT_TILES,
    TILES,
    is_dark,
    is_x3,
    tile_colour,
    tile_flowers,
    tile_name,
    tile_named,
)


def test_ninety_cards_fifteen_of_each_colour() -> None:
    assert len(CARDS) == 90
    assert Counter(CARDS) == {c: 15 for c in range(6)}
    assert COLOURS == ("gray", "purple", "red", "green", "orange", "yellow")


def test_thirty_six_tiles_split_by_back() -> None:
    assert len(TILES) == 36 and len(DARK_TILES) == 18 and len(LIGHT_TILES) == 18
    assert {COLOURS[tile_colour(t)] for t in DARK_TILES} == {"gray", "purple", "red"}
    assert {COLOURS[tile_colour(t)] for t in LIGHT_TILES} == {"green", "orange", "yellow"}
    assert all(is_dark(t) for t in DARK_TILES) and not any(is_dark(t) for t in LIGHT_TILES)


def test_every_colour_has_x3_1_1_2_2_3() -> None:
    for colour in range(6):
        mine = [t for t in TILES if tile_colour(t) == colour]
        assert sorted("x3" if is_x3(t) else str(tile_flowers(t)) for t in mine) == [
            "1", "1", "2", "2", "3", "x3"]
    assert sum(is_x3(t) for t in DARK_TILES) == 3 and sum(is_x3(t) for t in LIGHT_TILES) == 3


def test_tile_names_round_trip() -> None:
    assert tile_name(tile_named("purple-2")) == "purple-2"
    assert tile_name(tile_named("red-x3")) == "red-x3"
    assert all(tile_name(tile_named(tile_name(t))) == tile_name(t) for t in TILES)
