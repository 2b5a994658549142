"""The Mandala state and view types (data only; the rules that change them live elsewhere).

`State` and its parts are NamedTuples (built once per action; cheaper than frozen
dataclasses) holding only tuples and scalars, so a new state shares everything it did not
change.  `View` and `MandalaView` are what one seat may see: separate, frozen types that
hold no card the seat cannot know.

Card counts are `Counts` (six ints, one per colour, see `cards`); colour sets are bit masks.

**Sealed tables.**  Colour counts cannot hold a card nobody has been shown.  At a sealed
table (`hedgerow.core.sealedtable`) the cards dealt and drawn from the deck are sealed
tokens, so each seat also has `State.hidden`: its cards that are not in ``hands``, one by
one (see `hands`).  At an open table ``hidden`` is ``()`` and ``hands`` holds every card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from hedgerow.plugins.mandala.cards import NO_CARDS, ColourSet, Counts

T = TypeVar("T")

DEAL, PLAY, RESHUFFLE, CHOOSE, OVER = "deal", "play", "reshuffle", "choose", "over"
MANDALAS = 3


def put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with ``items[index]`` replaced by ``value`` (a new tuple)."""
    return (*items[:index], value, *items[index + 1:])


class Play(NamedTuple):
    """One play on a mandala: ``cards`` cards of ``colour`` by ``seat``, face-up or not.

    ``present`` is the mandala's colour set just before the play (a face-down play's colour
    is always in it).  Every play's colour is public, face-down ones too (spec §5, §12.3:
    each card was seen as it was played).
    """

    seat: int
    colour: int
    cards: int
    up: bool
    present: ColourSet


class Mandala(NamedTuple):
    """One of the three mandalas.

    * ``tiles``: its ``(dark, light)`` tile ids, or ``()`` once it is closed;
    * ``claim``: the seat holding its claim token, -1 while unclaimed;
    * ``plays``: every play on it since it was last refilled, in order;
    * ``present``: the colour set of its tiles and face-up cards (derived from the above);
    * ``totals`` / ``ups``: each seat's cards / face-up cards on it (derived).
    """

    tiles: tuple[int, ...]
    claim: int
    plays: tuple[Play, ...]
    present: ColourSet
    totals: tuple[int, ...]
    ups: tuple[int, ...]


class Resolution(NamedTuple):
    """What the latest resolution of a mandala did (public; for the view and the log).

    * ``mandala``: which one; ``tiles``: its two tiles; ``taken``: ``(seat, tile)`` in the
      order taken; ``chosen``: True when the claim holder chose (a second player took the
      other tile);
    * ``discarded``: each seat's cards that went to the discard pile;
      ``returned``: each seat's cards that went back to its hand (both revealed to all);
    * ``closed``: True when the mandala could not be refilled and closed.
    """

    mandala: int
    tiles: tuple[int, ...]
    taken: tuple[tuple[int, int], ...]
    chosen: bool
    discarded: tuple[Counts, ...]
    returned: tuple[Counts, ...]
    closed: bool


class State(NamedTuple):
    """Everything about a Mandala game in progress.

    * ``phase``: ``"deal"`` (waiting for the deal, a chance node), ``"play"``,
      ``"reshuffle"`` (a draw waits for the discard pile to be shuffled: a chance node),
      ``"choose"`` (a claim holder chooses a tile) or ``"over"``;
    * ``turn``: the seat whose turn it is (in ``"reshuffle"`` and ``"choose"``: the seat
      whose play caused it);
    * ``hands``: each seat's cards as colour counts (at a sealed table: the cards every peer
      can count, those that came back from a mandala and were not played since; the rest
      are in ``hidden``); ``known``: the part of each hand every seat knows (cards revealed
      when they came back from a mandala and not possibly played since);
    * ``deck``: the draw deck as colours, its top at the end; ``discard``: the discard pile;
    * ``dark`` / ``light``: the tile stacks, their tops at the end;
    * ``mandalas``: the three `Mandala`;
    * ``tiles``: each seat's tiles in the order it took them (pairs follow from the order);
    * ``passes``: turns passed in a row; ``ended``: why the game ended ("" while it runs);
    * ``at``: the mandala being played (``"reshuffle"``) or resolved (``"choose"``), else -1;
      ``owed``: cards still to draw after a reshuffle; ``second``: the seat that takes the
      tile the claim holder leaves (``"choose"``), else -1;
    * ``last``: the latest `Resolution`, or None;
    * ``hidden``: ``()`` at an open table; at a sealed table, each seat's cards that are
      not in ``hands``, in the order it got them: sealed tokens in the public state, known
      faces in the seat's own information state (`hands`);
    * ``reshuffled``: the discard pile (colour counts) that was shuffled into the current
      deck, public since every card in it was seen; `NO_CARDS` while the deck is the
      one dealt; ``since``: each seat's cards drawn from that deck since (``()`` before the
      first reshuffle), kept as cards and never read by the rules, so that a seat's view
      can tell what the deck may still hold (the pile, less what it drew itself).
    """

    players: int
    phase: str
    turn: int
    hands: tuple[Counts, ...]
    known: tuple[Counts, ...]
    deck: tuple[int, ...]
    discard: Counts
    dark: tuple[int, ...]
    light: tuple[int, ...]
    mandalas: tuple[Mandala, ...]
    tiles: tuple[tuple[int, ...], ...]
    passes: int = 0
    ended: str = ""
    at: int = -1
    owed: int = 0
    second: int = -1
    last: Resolution | None = None
    hidden: tuple[tuple[object, ...], ...] = ()
    reshuffled: Counts = NO_CARDS
    since: tuple[tuple[object, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class MandalaView:
    """One mandala as a seat sees it.

    ``tiles``, ``claim``, ``present``, ``totals`` and ``ups`` as in `Mandala` (the claim
    helpers in `claims` read these names); ``plays`` as ``(seat, colour, count, up)`` in
    order, every colour shown (face-down ones too: spec §5); ``closed`` when the mandala
    takes no more plays.
    """

    index: int
    tiles: tuple[int, ...]
    claim: int
    present: ColourSet
    totals: tuple[int, ...]
    ups: tuple[int, ...]
    plays: tuple[tuple[int, int, int, bool], ...]
    closed: bool


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see of a Mandala game.

    * ``seat``, ``players``, ``phase``, ``turn``; ``active``: the seats to act now;
    * ``hand``: this seat's cards; ``hand_sizes``: every seat's hand size; ``known``: the
      cards of each hand that every seat knows (see `State`);
    * ``deck_count``; ``discard``: the discard pile (every card in it was seen);
      ``reshuffled``: the pile that was shuffled into the current deck (`State`), and
      ``drawn``: this seat's cards drawn from that deck since, by colour: that deck holds
      only cards of ``reshuffled`` less ``drawn`` (less what the others drew from it);
    * ``dark_left`` / ``light_left``: tiles left in each stack;
    * ``mandalas``: the three `MandalaView`;
    * ``tiles``: each seat's tiles in the order taken; ``scores``: each seat's points now;
    * ``at`` / ``second``: in ``"choose"``, the mandala resolved and the seat that takes the
      tile left; ``owed``, ``passes``, ``ended`` and ``last`` as in `State` (``owed``:
      cards the turn's draw still takes once the discard pile is reshuffled, a public count);
    * ``sealed``: this seat's own cards that have not been shown to it yet.  Only a sealed
      table's public state has any (its view says so, and the table then shows them to the
      seat, `hands.shown_hand`); a view a seat, a bot or a client gets has none, and
      ``hand`` holds all of the seat's cards.
    """

    seat: int
    players: int
    phase: str
    turn: int
    active: tuple[int, ...]
    hand: Counts
    hand_sizes: tuple[int, ...]
    known: tuple[Counts, ...]
    deck_count: int
    discard: Counts
    dark_left: int
    light_left: int
    mandalas: tuple[MandalaView, ...]
    tiles: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    at: int
    second: int
    owed: int
    passes: int
    ended: str
    last: Resolution | None
    reshuffled: Counts = NO_CARDS
    drawn: Counts = NO_CARDS
    sealed: tuple[object, ...] = ()
