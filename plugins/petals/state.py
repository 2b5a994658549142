"""The Petals state and view types (data only; the rules that change them live elsewhere).

`State` is an immutable record (a NamedTuple: it is built once per action, and a named
tuple is several times cheaper to build than a frozen dataclass).  ``garden`` is a dict
that is never mutated once a state holds it (each change builds a new dict); every other
field is a tuple or a scalar, so a new state shares everything it did not change.

`View` is what one seat may see; it is a separate type and holds no hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from hedgerow.plugins.petals.geometry import Cell, Garden
from hedgerow.plugins.petals.scoring import Points

DEAL, PLAY, FINAL, OVER = "deal", "play", "final", "over"


@dataclass(frozen=True, slots=True)
class Pending:
    """A symbol effect waiting for the active seat's choice (rules §5.3).

    ``kind`` is ``"identical"`` (the played card has scored; move a card or decline) or
    ``"different"`` (score the played card, or move a card and score that instead).
    ``played`` is the cell of the card just played; ``triggers`` are the triggering cells
    (the played cell first), none of which may move.
    """

    kind: str
    played: Cell
    triggers: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class LastTurn:
    """The cards the latest turn put down, for the screens (the rules never read it).

    ``seat`` played a card at ``placed``; ``moved`` is ``(from, to)`` when a symbol effect
    of that turn moved a card, else None.  A turn in progress (an effect waiting) is the
    latest turn too.
    """

    seat: int
    placed: Cell
    moved: tuple[Cell, Cell] | None = None


class State(NamedTuple):
    """Everything about a Petals game in progress.

    * ``garden``: ``(x, y) -> card_id * 4 + rotation`` (see `geometry`), never mutated;
    * ``frontier``: the empty cells sharing an edge with the garden, sorted (derived data,
      kept so that listing placements costs nothing; not part of the hash);
    * ``hands``: each seat's cards; ``pile``: the draw pile, drawn from the end;
    * ``trackers``: each seat's Fire, Water, Earth, Air scores;
    * ``active``: the seat to act (-1 once the game is over);
    * ``pending``: the symbol effect the active seat must resolve, or None;
    * ``phase``: ``"deal"`` (set up, waiting for the deal: a chance node), ``"play"``,
      ``"final"`` (the final round) or ``"over"``;
    * ``final_left``: final-round turns still to play, the current one included;
    * ``out_of_play``: the ladybug cards, removed in the open below 5 players;
    * ``set_aside``: the 2 cards removed face down at 3 players (hidden from everyone);
    * ``scored_directly``: each seat's last card(s), scored directly at the end;
    * ``last``: the latest turn's cards (`LastTurn`), or None before the first;
    * ``direct``: once the game is over, what the final scoring added to each seat's
      trackers (the last card's points, under the table's final-scoring rule).

    ``last`` and ``direct`` are what the screens show of the past; they follow from the log
    and play no part in the rules, so `view.hash_data` leaves them out.
    """

    players: int
    garden: Garden
    frontier: tuple[Cell, ...]
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    trackers: tuple[Points, ...]
    active: int
    pending: Pending | None = None
    phase: str = PLAY
    final_left: int = 0
    out_of_play: tuple[int, ...] = ()
    set_aside: tuple[int, ...] = ()
    scored_directly: tuple[tuple[int, ...], ...] = ()
    last: LastTurn | None = None
    direct: tuple[Points, ...] = ()


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see of a Petals game.

    * ``seat``, ``players``;
    * ``hand``: this seat's own cards;
    * ``garden``: every placed card as ``(x, y, card_id, rotation)``, sorted by cell;
    * ``trackers``: every seat's Fire, Water, Earth, Air scores;
    * ``pile_count``: cards left in the draw pile; ``hand_sizes``: every seat's hand size;
    * ``active``: whose turn it is (-1 when the game is over); ``pending``: the symbol
      effect that seat must resolve, or None;
    * ``phase`` and ``final_left`` as in `State`;
    * ``out_of_play``: the ladybug cards out of this game (public);
      ``set_aside_count``: cards removed face down (3 players);
    * ``scored_directly``: the cards scored directly, shown once the game is over;
    * ``last``: the latest turn's cards (`LastTurn`), or None;
    * ``direct``: once the game is over, what each seat's last card added per tracker.
    """

    seat: int
    players: int
    hand: tuple[int, ...]
    garden: tuple[tuple[int, int, int, int], ...]
    trackers: tuple[Points, ...]
    pile_count: int
    hand_sizes: tuple[int, ...]
    active: int
    pending: Pending | None
    phase: str
    final_left: int
    out_of_play: tuple[int, ...]
    set_aside_count: int
    scored_directly: tuple[tuple[int, ...], ...]
    last: LastTurn | None = None
    direct: tuple[Points, ...] = ()
