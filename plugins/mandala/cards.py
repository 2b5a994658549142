"""The Mandala components as data: the 90 cards, the 36 half-flower tiles, and their names.

**Cards.**  90 cards, 15 in each of six colours.  A card shows nothing but its colour, so
two cards of one colour are interchangeable: the rules hold cards as *colour counts* (a
tuple of six ints, one per colour, `Counts`) wherever their order does not matter (hands,
the discard pile) and as a tuple of colours where it does (the deck).  `CARDS` lists the
90 cards in id order (card ``i`` has colour ``i // 15``); the deal shuffles exactly that
list.

**Colours.**  0 gray, 1 purple, 2 red (the tiles with a dark back), 3 green, 4 orange,
5 yellow (light back).  ``1 << colour`` is a colour's bit in a colour set (`ColourSet`).

**Tiles.**  36 half-flower tiles, ids 0-35, ``id = colour * 6 + k``: every colour has the
same six tiles, ``k`` = 0 the x3 half (it shows no flower and triples the other half of
its complete flower), then halves showing 1, 1, 2, 2 and 3 flowers (spec §3, OUR
DECISION).  Ids 0-17 are the dark tiles (gray, purple, red), 18-35 the light ones.
"""

from __future__ import annotations

GRAY, PURPLE, RED, GREEN, ORANGE, YELLOW = range(6)
COLOURS: tuple[str, ...] = ("gray", "purple", "red", "green", "orange", "yellow")
NCOLOURS = len(COLOURS)
DARK_COLOURS: tuple[int, ...] = (GRAY, PURPLE, RED)
LIGHT_COLOURS: tuple[int, ...] = (GREEN, ORANGE, YELLOW)
PER_COLOUR = 15

#: Cards of each colour in a hand, pile or group: six ints, indexed by colour.
Counts = tuple[int, ...]
#: A set of colours as a bit mask: bit ``c`` set when colour ``c`` is in it.
ColourSet = int

NO_CARDS: Counts = (0, 0, 0, 0, 0, 0)
ALL_COLOURS: ColourSet = (1 << NCOLOURS) - 1

#: The 90 cards in id order, as their colours.
CARDS: tuple[int, ...] = tuple(c for c in range(NCOLOURS) for _ in range(PER_COLOUR))

X3 = 0  # the flower count of the multiplier half: it shows none
#: Flowers shown by the six tiles of a colour, by ``k`` (``k == 0`` is the x3 half).
TILE_FLOWERS: tuple[int, ...] = (X3, 1, 1, 2, 2, 3)
TILES_PER_COLOUR = len(TILE_FLOWERS)
TILES: tuple[int, ...] = tuple(range(NCOLOURS * TILES_PER_COLOUR))
DARK_TILES: tuple[int, ...] = tuple(t for t in TILES if t // TILES_PER_COLOUR in DARK_COLOURS)
LIGHT_TILES: tuple[int, ...] = tuple(t for t in TILES if t // TILES_PER_COLOUR in LIGHT_COLOURS)


def tile_colour(tile: int) -> int:
    """The colour of a tile."""
    return tile // TILES_PER_COLOUR


def tile_flowers(tile: int) -> int:
    """How many flowers a tile shows (0 for the x3 half)."""
    return TILE_FLOWERS[tile % TILES_PER_COLOUR]


def is_x3(tile: int) -> bool:
    """True for an x3 half."""
    return tile % TILES_PER_COLOUR == 0


def is_dark(tile: int) -> bool:
    """True for a tile with a dark back (gray, purple, red)."""
    return tile_colour(tile) in DARK_COLOURS


def tile_name(tile: int) -> str:
    """A tile as the spec writes it: ``"purple-2"``, ``"red-x3"``."""
    k = tile % TILES_PER_COLOUR
    return f"{COLOURS[tile_colour(tile)]}-{'x3' if k == 0 else TILE_FLOWERS[k]}"


def tile_named(name: str) -> int:
    """The first tile id (lowest ``k``) of a name like ``"purple-2"`` or ``"red-x3"``."""
    colour, _, value = name.partition("-")
    if colour not in COLOURS or value not in ("x3", "1", "2", "3"):
        raise ValueError(f"not a tile: {name!r}")
    flowers = X3 if value == "x3" else int(value)
    return COLOURS.index(colour) * TILES_PER_COLOUR + TILE_FLOWERS.index(flowers)


def colour_named(name: str) -> int:
    """The colour called ``name`` (``"red"`` -> 2)."""
    return COLOURS.index(name)


_COLOURS_IN: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(NCOLOURS) if mask >> c & 1) for mask in range(ALL_COLOURS + 1))


def colours_in(mask: ColourSet) -> tuple[int, ...]:
    """The colours of a colour set, in colour order."""
    return _COLOURS_IN[mask]


def counts(**by_name: int) -> Counts:
    """Colour counts from names: ``counts(red=2, gray=1)``."""
    out = [0] * NCOLOURS
    for name, n in by_name.items():
        out[COLOURS.index(name)] = n
    return tuple(out)


def add_counts(a: Counts, b: Counts) -> Counts:
    """Two colour counts added."""
    return tuple([x + y for x, y in zip(a, b, strict=True)])


def expand(cards: Counts) -> tuple[int, ...]:
    """The cards of colour counts as colours, in colour order (``(0, 2, ...)`` -> 1, 1)."""
    return tuple(c for c in range(NCOLOURS) for _ in range(cards[c]))


def count_of(cards: tuple[int, ...] | list[int]) -> Counts:
    """Colour counts of a sequence of card colours."""
    out = [0] * NCOLOURS
    for c in cards:
        out[c] += 1
    return tuple(out)


def describe_counts(cards: Counts) -> str:
    """``"2 red, 1 gray"`` (colour order), or ``"no cards"``."""
    parts = [f"{n} {COLOURS[c]}" for c, n in enumerate(cards) if n]
    return ", ".join(parts) if parts else "no cards"
