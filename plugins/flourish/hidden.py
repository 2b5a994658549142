"""Cards that may be hidden: what Flourish's rules do with a card without looking at it.

At a sealed table (``hedgerow.core.sealed``) a card nobody has shown every seat is a
`Sealed` token in the public state the rules run on, and a `Known` face (an ``int`` that
remembers its token) in a seat's information state.  The rules move such cards — deal
them, pass them, compost them, discard them, remember them — but never read one, except
the cards they show to every seat as they read them: the cards played, turned face up as
their seat chooses them (`turn_up`), and McGregor's cards as they reach his garden.  The
helpers here keep that promise where the open game would sort, hash or compare:

* `in_order`: cards in the open game's order (ascending ids), with sealed cards after
  the faces, among themselves by position (ordering a token against a face would read it);
* `card_id`: a card as a dict key or set member (a token by its position, a face by
  itself: a token is unhashable, and equal to no face);
* `is_card`: what an action may name as a card (an id, a token, a known face);
* `NO_CARD`: the "no compost discard" of a `Choice`, only ever tested for equality (a token
  equals no face, so ``compost != NO_CARD`` reads nothing).

In the open game every card is a plain id, and each of these is what the rules did
before: the same order, the same sets, the same tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, pairwise
from typing import Any, TypeGuard, TypeVar

from hedgerow.core.sealed import Known, Sealed, SealedRead
from hedgerow.plugins.flourish.cards import CARDS

T = TypeVar("T")

#: ``Choice.compost`` when the seat composts nothing.
NO_CARD = -1


def is_card(value: object) -> TypeGuard[int]:
    """True for what names a card in an action: a card id (an ``int``, not a ``bool``), a
    sealed card as it travels, or a face this peer's seat knows (typed as an ``int``)."""
    kind = type(value)
    return kind is int or kind is Sealed or kind is Known


def card_id(card: int) -> object:
    """``card`` as a dict key or set member: a face is itself, a sealed card its position
    (two tokens are the same card exactly when their keys are equal; a key equals no face)."""
    return card.key if type(card) is Sealed else card


def card_ids(*runs: Iterable[int]) -> set[object]:
    """The `card_id` of every card of ``runs`` (tuples, lists: each iterated at most twice),
    as one set."""
    try:
        return set(chain.from_iterable(runs))  # faces: the cards themselves
    except SealedRead:
        return {c.key if type(c) is Sealed else c for run in runs for c in run}


def _place(card: Any) -> tuple[bool, Any]:
    return (type(card) is Sealed, card)


def in_order(cards: Sequence[T]) -> tuple[T, ...]:
    """``cards`` ascending: faces by id, then sealed cards by position.

    Sorting faces among themselves and tokens among themselves reads nothing; a face is
    never ordered against a token (which would read the token): a mixed run puts its
    faces first.  Items may be cards or tuples that start with a card (memory entries),
    which differ in their card."""
    try:
        return tuple(sorted(cards))  # type: ignore[type-var]
    except SealedRead:
        return tuple(sorted(cards, key=_first_place))


def _first_place(item: Any) -> tuple[bool, Any]:
    return _place(item[0] if type(item) is tuple else item)


def merged(entries: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """``(card, value)`` pairs with each card once, its last pair winning, in `in_order`
    (a memory: each card with its zone mask)."""
    try:
        return tuple(sorted(dict(entries).items()))
    except SealedRead:
        last = {card_id(card): (card, value) for card, value in entries}
        return in_order(list(last.values()))


class ByCard:
    """A memory being made at a sealed table: ``entries[card] = mask`` as for a dict keyed
    by card, a card kept under its `card_id`; `memory` the ``(card, mask)`` pairs, each
    card once (its last mask), in `in_order`."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[object, tuple[int, int]] = {}

    def __setitem__(self, card: int, mask: int) -> None:
        self._entries[card_id(card)] = (card, mask)

    def memory(self) -> tuple[tuple[int, int], ...]:
        """The pairs, in order."""
        return in_order(list(self._entries.values()))


def turn_up(cards: Iterable[int]) -> None:
    """Turn ``cards`` face up: read them.  At a sealed table this is where a seat's played
    cards are shown to every seat: the author attaches their faces to the action that
    plays them (``SealedTable.prepare``).  In the open game it changes nothing."""
    for card in cards:
        CARDS[card]  # looking at the card is the point


def distinct(cards: Sequence[int]) -> bool:
    """True when no card of ``cards`` is there twice (a sealed card by equality: never
    hashed)."""
    try:
        return len(set(cards)) == len(cards)
    except SealedRead:
        return not any(a == b for i, a in enumerate(cards) for b in cards[i + 1:])


def increasing(cards: Sequence[int]) -> bool:
    """True when ``cards`` are distinct and in ascending id order.  A sealed card cannot be
    ordered without being read: only that it differs from the others is checked (a card
    played is checked again once shown, as the rules read it)."""
    return distinct(cards) and all(
        type(a) is Sealed or type(b) is Sealed or a < b for a, b in pairwise(cards))
