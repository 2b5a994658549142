"""The Petals deck as data: the 38 cards of rules §2.1, and how a flower is encoded.

A flower is one small int, ``code = element * 4 + value``: ``element`` is 0 Fire, 1 Water,
2 Earth, 3 Air, and ``value`` is 1-3 for a number or 0 for the element's Elemental Symbol (a
symbol counts 0 in every sum).  A card lists its four flowers at rotation 0 in side order
Top, Right, Bottom, Left.

The rules never assume anything about the faces beyond this encoding: any card list of
this shape plays (the invariants of §2.1 are checked by the tests, not relied upon).
"""

from __future__ import annotations

from dataclasses import dataclass

ELEMENTS: tuple[str, ...] = ("Fire", "Water", "Earth", "Air")
LETTERS: tuple[str, ...] = ("F", "W", "E", "A")
SYMBOL = 0  # the value of a symbol flower

# id, ladybug, then the flowers on Top, Right, Bottom, Left at rotation 0 ("*" = symbol).
_TABLE = """
01 - F3 W1 E2 A2
02 - F2 W1 A3 E2
03 - F3 E2 W1 A2
04 - F2 E1 A3 W2
05 - F3 A2 W2 E1
06 - F2 A3 E1 W2
07 - F1 W3 E2 A2
08 - F1 W2 A2 E3
09 - F2 E2 W3 A1
10 - F2 E3 A1 W2
11 - F1 A3 W1 E3
12 - F3 A1 E1 W3
13 - F1 W3 E1 A3
14 - F3 W1 A1 E3
15 - F1 E3 W3 A1
16 - F* E2 A3 W1
17 - F* A1 W2 E3
18 - F* A2 E1 W3
19 - F* W1 E3 A2
20 - F* W3 A1 E2
21 - F1 E3 W* A2
22 - F2 E1 A3 W*
23 - F3 A1 W* E2
24 - F1 A3 E2 W*
25 - F3 W* E1 A2
26 - F3 W2 A1 E*
27 - F1 E* W3 A2
28 - F2 E* A3 W1
29 - F2 A1 W3 E*
30 - F1 A3 E* W2
31 - F2 W3 E1 A*
32 - F3 W1 A* E2
33 - F1 E3 W2 A*
34 - F3 E1 A* W2
35 - F2 A* W1 E3
36 L F1 A1 E3 W2
37 L F2 W3 E1 A2
38 L F3 W1 A3 E2
"""


def flower(text: str) -> int:
    """The code of a flower written like ``"W2"`` or ``"F*"``."""
    if len(text) != 2 or text[0] not in LETTERS or text[1] not in "*123":
        raise ValueError(f"not a flower: {text!r}")
    value = SYMBOL if text[1] == "*" else int(text[1])
    return LETTERS.index(text[0]) * 4 + value


def value_of(code: int) -> int:
    """The points a flower counts for: its number, or 0 for a symbol."""
    return code & 3


def is_symbol(code: int) -> bool:
    """True for an Elemental Symbol flower."""
    return code & 3 == SYMBOL


def flower_text(code: int) -> str:
    """A flower code written back as ``"W2"`` or ``"F*"``."""
    value = code & 3
    return LETTERS[code >> 2] + ("*" if value == SYMBOL else str(value))


@dataclass(frozen=True, slots=True)
class Card:
    """One card: its id (1-38), whether it shows a ladybug, and its flowers at rotation 0."""

    id: int
    ladybug: bool
    flowers: tuple[int, int, int, int]

    def __str__(self) -> str:
        return f"#{self.id:02d} " + " ".join(flower_text(f) for f in self.flowers)


def _parse(table: str) -> tuple[Card, ...]:
    cards = []
    for line in table.strip().splitlines():
        ident, mark, *faces = line.split()
        cards.append(Card(int(ident), mark == "L", tuple(flower(f) for f in faces)))  # type: ignore[arg-type]
    return tuple(cards)


DECK: tuple[Card, ...] = _parse(_TABLE)
#: Card by id; index 0 is unused so that ``CARDS[id]`` works.
CARDS: tuple[Card | None, ...] = (None, *DECK)
REGULAR: tuple[int, ...] = tuple(c.id for c in DECK if not c.ladybug)
LADYBUGS: tuple[int, ...] = tuple(c.id for c in DECK if c.ladybug)


def card(ident: int) -> Card:
    """The card with id ``ident``; KeyError when there is none."""
    if not 1 <= ident < len(CARDS):
        raise KeyError(ident)
    found = CARDS[ident]
    assert found is not None
    return found

