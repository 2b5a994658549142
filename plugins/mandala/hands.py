"""A seat's hand at an open table and at a sealed one: colour counts plus sealed cards.

At an open table a hand is its colour counts (`State.hands`): cards of one colour are
interchangeable.  At a sealed table (`hedgerow.core.sealedtable`) a card dealt or drawn
from the deck is a sealed token that nobody may read, so it cannot be counted by colour:
each seat keeps such cards one by one in `State.hidden`, and its hand is

* ``hands[seat]``: the cards every peer can count (those that came back from a mandala,
  whose colours every seat saw, and were not played since), and
* ``hidden[seat]``: the seat's other cards.  In the public state every peer shares they are
  tokens; in the seat's own information state they are `Known` faces (its own cards, shown
  to it alone), so the seat's view and legal actions read them there and nowhere else.

Everything the public state must know about a hand is readable without a hidden card:
its size (`hand_size`), whether the seat has a play at all (`choices.can_play`), which cards a
play takes (the play names them, `choices.name_cards`, and shows them as it is applied).
Which cards a play takes is fixed by one rule, so that naming them gives nothing away:
first the counted cards of that colour, then hidden ones.  Whether a card is sealed is
decided by its type alone (``type(card) is Sealed``), which reads nothing.

At an open table ``hidden`` is ``()`` and every function here is the plain counting it
replaces (the open game, its hashes and its speed are those of counts alone).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hedgerow.core.sealed import Sealed
from hedgerow.plugins.mandala.cards import NO_CARDS, Counts
from hedgerow.plugins.mandala.state import State, put


def hidden_of(state: State, seat: int) -> tuple[object, ...]:
    """``seat``'s cards that are not in ``hands`` (none at an open table)."""
    hidden = state.hidden
    return hidden[seat] if hidden else ()


def hand_size(state: State, seat: int) -> int:
    """How many cards ``seat`` holds (public: it reads no card)."""
    hidden = state.hidden
    return sum(state.hands[seat]) + (len(hidden[seat]) if hidden else 0)


def hand_of(state: State, seat: int) -> Counts:
    """``seat``'s whole hand as colour counts.  Reads every hidden card: only for the seat's
    own information state (its view, its legal actions), where they are its known faces."""
    hidden = state.hidden
    if not hidden or not hidden[seat]:
        return state.hands[seat]
    out = list(state.hands[seat])
    cards: Sequence[Any] = hidden[seat]
    for card in cards:
        out[card] += 1  # a face here (a sealed card raises SealedRead)
    return tuple(out)


def shown_hand(state: State, seat: int) -> tuple[Counts, tuple[object, ...]]:
    """What ``seat``'s view holds of its hand: the colour counts of the cards it has been
    shown, and its cards still sealed (only in a sealed table's public state)."""
    hidden = state.hidden
    if not hidden or not hidden[seat]:
        return state.hands[seat], ()
    out = list(state.hands[seat])
    sealed = []
    cards: Sequence[Any] = hidden[seat]
    for card in cards:
        if type(card) is Sealed:
            sealed.append(card)
        else:
            out[card] += 1
    return tuple(out), tuple(sealed)


def seen_counts(cards: Sequence[Any]) -> Counts:
    """The colour counts of the faces among ``cards``, leaving sealed ones out unread (a
    seat's own draws: faces in its information state, and at an open table)."""
    out = [0] * len(NO_CARDS)
    for card in cards:
        if type(card) is not Sealed:
            out[card] += 1
    return tuple(out)


def receive(counts: list[int], hidden: list[object], cards: Sequence[Any]) -> None:
    """Put ``cards`` (from the deck) into a hand: a face into its colour count, a sealed card
    into ``hidden`` (both lists changed in place)."""
    for card in cards:
        if type(card) is Sealed:
            hidden.append(card)
        else:
            counts[card] += 1


def with_hidden(state: State, seat: int, cards: tuple[object, ...]) -> tuple[
        tuple[object, ...], ...]:
    """``state.hidden`` with ``seat``'s cards set to ``cards`` (still ``()`` while no seat
    has a hidden card: an open table never has one)."""
    hidden = state.hidden
    if not hidden:
        if not cards:
            return ()
        hidden = ((),) * state.players
    return put(hidden, seat, cards)
