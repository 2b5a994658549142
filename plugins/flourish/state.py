"""The Flourish state, its parts, and the view types (data only; the rules live elsewhere).

`State` is an immutable NamedTuple (cheap to build once per step).  Its hidden parts — the
hands, the decks, the compost pile, the final-round discards, the choices made inside a
simultaneous step and each seat's memory — are never shown whole: `View` is what one seat
knows (``hedgerow.plugins.flourish.view``).

Gardens are listed by *garden*: one per seat, then McGregor's in a solo game, so that
scoring treats the automaton as the only neighbour of the one player.  Everything else
per-seat (hands, choices, memory, last exchange) is listed by seat.

A card is its id (1-98).  At a sealed table a card no seat has been shown by all is a
`hedgerow.core.sealed.Sealed` token wherever the state holds a card (typed ``int`` here),
and sorted runs (hands, memories, the discards) are in `hedgerow.plugins.flourish.hidden`'s
``in_order``: tokens by position, so a seat's own cards in its information state are
not in id order until its view or its legal actions sort them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from hedgerow.core import Chance

#: What chance a state waits for (``State.luck``): nothing, the deal of a game, a variant's
#: own luck (the Garden Show's ribbons), the compost pile reshuffled into a new deck in the
#: middle of the draws, or the cards passed to McGregor shuffled into his deck.
NO_LUCK, DEAL, EXTRA, RESHUFFLE, MCGREGOR = "", "deal", "extra", "reshuffle", "mcgregor"

HAND = 6
FINAL_HAND = 5
TURNS = 9  # play-and-pass turns (rounds 1-3); turn 9 is the final round, 10 is over
FINAL = 9
OVER = 10


class Config(NamedTuple):
    """The rules one table runs, fixed at setup: seats, solo (one seat against McGregor),
    whether compost discards are allowed, and how many games the match has."""

    players: int
    solo: bool = False
    compost: bool = False
    games: int = 1

    @property
    def gardens(self) -> int:
        """Gardens at the table: one per seat, plus McGregor's in solo."""
        return self.players + (1 if self.solo else 0)


class Choice(NamedTuple):
    """One seat's choice in a step.  ``play``: the card(s) it plays (one in rounds 1-3,
    three in round 4); ``passes``: the card passed left then the one passed right (with one
    neighbour or McGregor, the two cards passed, lower id first); ``compost``: the card
    discarded to the compost pile, or -1 (`hedgerow.plugins.flourish.hidden.NO_CARD`:
    compare with ``!=``, which a sealed card answers without being read)."""

    play: tuple[int, ...]
    passes: tuple[int, ...] = ()
    compost: int = -1


class Exchange(NamedTuple):
    """What one seat gave and got in the last turn: ``passed`` as (card, zone it went to),
    ``received`` as (card, zone it came from), ``drawn`` the cards it drew (zones: a seat
    number, or McGregor's deck `hedgerow.plugins.flourish.knowledge.MCG`)."""

    passed: tuple[tuple[int, int], ...] = ()
    received: tuple[tuple[int, int], ...] = ()
    drawn: tuple[int, ...] = ()


class GameRecord(NamedTuple):
    """A finished game of a match: the final gardens, each garden's points (rounds 1-4 and
    end of game), each seat's bonus from the variant (Garden Show ribbons) and its words."""

    gardens: tuple[tuple[int, ...], ...]
    points: tuple[tuple[int, ...], ...]
    bonus: tuple[int, ...]
    note: str = ""


class State(NamedTuple):
    """Everything about a Flourish table.

    * ``cfg``: the `Config`; ``luck``: the chance it waits for (`NO_LUCK` when none);
    * ``game``: the game of the match being played (0-based); ``turn``: 0-8 the
      play-and-pass turns, `FINAL` (9) the final round, `OVER` (10) once it is scored;
    * ``hands``: each seat's hand, sorted; ``gardens``: each garden's cards in play order;
    * ``deck``: the draw deck, top first; ``compost``: the compost pile; ``discard``: the
      final-round discards; ``mcg``: McGregor's deck, top first; ``aside``: the cards passed
      to McGregor this turn, waiting to be shuffled into his deck;
    * ``choices``: per seat, its `Choice` inside a simultaneous step (None: still to choose);
    * ``points``: per garden, (round 1, round 2, round 3, round 4, end of game);
    * ``memory``: per seat, (card, zone mask) for each card it has seen whose place it no
      longer sees (``hedgerow.plugins.flourish.knowledge``);
    * ``last``: per seat, its `Exchange` of the last turn; ``draws``: per seat, the draws it
      is still owed while the state waits for a reshuffle;
    * ``extras``: a variant's public data (the Garden Show's ribbons), plain tuples;
      ``extra_luck``: the chance that data waits for, or None;
    * ``history``: the finished games of the match (`GameRecord`).
    """

    cfg: Config
    luck: str
    game: int
    turn: int
    hands: tuple[tuple[int, ...], ...]
    gardens: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    compost: tuple[int, ...]
    discard: tuple[int, ...]
    mcg: tuple[int, ...]
    aside: tuple[int, ...]
    choices: tuple[Choice | None, ...]
    points: tuple[tuple[int, ...], ...]
    memory: tuple[tuple[tuple[int, int], ...], ...]
    last: tuple[Exchange, ...]
    draws: tuple[int, ...]
    extras: tuple[object, ...]
    extra_luck: Chance | None
    history: tuple[GameRecord, ...]

    @property
    def round(self) -> int:
        """The round being played (1-4; 4 once the game is over)."""
        return min(self.turn // 3 + 1, 4)


@dataclass(frozen=True, slots=True)
class View:
    """What one seat knows of a Flourish table.

    * ``seat``, ``players``, ``solo``, ``compost`` (discards allowed), ``game`` and ``games``
      (the match), ``turn`` (0-8, 9 the final round, 10 over) and ``round`` (1-4);
    * ``hand``: the seat's own cards; ``choice``: its own choice inside a step (None);
    * ``gardens``: every garden, cards in play order (three per round), McGregor's last;
    * ``points``: per garden, (round 1-4, end of game) as scored so far;
    * ``hand_sizes``, ``deck_count``, ``compost_count``, ``discard_count``, ``mcg_count``;
    * ``last``: what this seat passed, received and drew in the last turn;
    * ``known``: (card, zone) for every card it has seen and knows the place of although it
      cannot see it now (the cards it passed last turn are in its neighbours' hands, the
      card it composted is in the compost pile, ...);
    * ``unsure``: (card, zone mask) for the cards it has seen that could be in several
      places now (see ``hedgerow.plugins.flourish.knowledge``);
    * ``extras``: the variant's public data (Garden Show ribbons);
    * ``history``: the finished games of the match;
    * ``chosen``: per seat, whether it has already committed its choice inside the step
      (public: everyone sees who still has to choose, not what was chosen);
    * ``luck``: the chance the table waits for (`NO_LUCK` when none; public).
    """

    seat: int
    players: int
    solo: bool
    compost: bool
    game: int
    games: int
    turn: int
    round: int
    hand: tuple[int, ...]
    choice: Choice | None
    gardens: tuple[tuple[int, ...], ...]
    points: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    deck_count: int
    compost_count: int
    discard_count: int
    mcg_count: int
    last: Exchange
    known: tuple[tuple[int, int], ...]
    unsure: tuple[tuple[int, int], ...]
    extras: tuple[object, ...]
    history: tuple[GameRecord, ...]
    chosen: tuple[bool, ...] = ()
    luck: str = NO_LUCK


class GameEnd(NamedTuple):
    """A variant's answer at the end of a game (``flourish_game_end``): each seat's bonus
    points, the variant's data afterwards, and a few words on what happened."""

    bonus: tuple[int, ...]
    extras: tuple[object, ...]
    note: str = ""


class Result(NamedTuple):
    """What ``flourish_outcome`` decides from: the table's `Config`, every game played (the
    last one last), the variant's data, and how far medal thresholds are raised."""

    cfg: Config
    games: tuple[GameRecord, ...]
    extras: tuple[object, ...]
    medal_raise: int = 0
