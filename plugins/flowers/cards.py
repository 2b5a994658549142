"""The FLOWERS cards as data: the 108-card deck, the four purple Summer cards, their encoding.

A card is one small int, its id.  The deck is ids 0-107 in the order of rules §2 (OUR
DECISION in ../shared/rules/flowers.md): colours Yellow, Red, Blue, Green; within a colour
the three 1s, the six 2s, the eight 3s, the seven plain 4s, then the three butterfly 4s
whose butterflies are the other colours in Y, R, B, G order.  So ``id = colour * 27 + k``.
The purple start cards of the Summer variant are ids 108-111 (P1-P4); they are not in the
deck, have no value, no colour among the four and no butterfly.

Everything the rules read about a card is a tuple lookup by id: `COLOUR`, `VALUE`,
`BUTTERFLY` (the butterfly's colour, or `NONE`).  The rules never branch on anything else.
"""

from __future__ import annotations

YELLOW, RED, BLUE, GREEN, PURPLE = 0, 1, 2, 3, 4
COLOURS: tuple[str, ...] = ("Yellow", "Red", "Blue", "Green", "Purple")
LETTERS: tuple[str, ...] = ("Y", "R", "B", "G", "P")
NONE = -1  # no butterfly

PER_COLOUR = 27
#: How many cards of each value one colour has (value 1 to 4).
COUNTS: tuple[tuple[int, int], ...] = ((1, 3), (2, 6), (3, 8), (4, 10))
BUTTERFLIES_PER_COLOUR = 3


def _colour_cards(colour: int) -> list[tuple[int, int, int]]:
    """(colour, value, butterfly) of one colour's 27 cards, in id order."""
    cards: list[tuple[int, int, int]] = []
    for value, count in COUNTS:
        plain = count - BUTTERFLIES_PER_COLOUR if value == 4 else count
        cards += [(colour, value, NONE)] * plain
    cards += [(colour, 4, other) for other in (YELLOW, RED, BLUE, GREEN) if other != colour]
    return cards


_FACES: tuple[tuple[int, int, int], ...] = tuple(
    face for colour in (YELLOW, RED, BLUE, GREEN) for face in _colour_cards(colour)
)
#: The deck: card ids 0-107.
DECK: tuple[int, ...] = tuple(range(len(_FACES)))
#: The purple Summer start cards P1-P4 (never in the deck).
PURPLES: tuple[int, ...] = tuple(range(len(DECK), len(DECK) + 4))
#: Every card id there is (deck, then purples).
ALL_CARDS: tuple[int, ...] = DECK + PURPLES

COLOUR: tuple[int, ...] = tuple(f[0] for f in _FACES) + (PURPLE,) * len(PURPLES)
VALUE: tuple[int, ...] = tuple(f[1] for f in _FACES) + (0,) * len(PURPLES)
BUTTERFLY: tuple[int, ...] = tuple(f[2] for f in _FACES) + (NONE,) * len(PURPLES)


def card_text(card: int) -> str:
    """A card as the rules spec writes it: ``"R3"``, ``"Y4g"`` (butterfly), ``"P2"``."""
    if not 0 <= card < len(ALL_CARDS):
        return f"#{card}?"
    if COLOUR[card] == PURPLE:
        return f"P{card - PURPLES[0] + 1}"
    text = f"{LETTERS[COLOUR[card]]}{VALUE[card]}"
    if BUTTERFLY[card] != NONE:
        text += LETTERS[BUTTERFLY[card]].lower()
    return text


def find(text: str, skip: int = 0) -> int:
    """The id of a card written like ``"B2"`` or ``"Y4g"`` (the ``skip``-th such card, for
    the cards that exist several times); ValueError when there is none."""
    found = [c for c in ALL_CARDS if card_text(c) == text]
    if skip >= len(found):
        raise ValueError(f"no card {text!r} (number {skip + 1})")
    return found[skip]
