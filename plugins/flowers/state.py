"""The FLOWERS state and view types (data only; the rules that change them live elsewhere).

`State` is an immutable record (a NamedTuple: one is built per action, and a named tuple is
several times cheaper to build than a frozen dataclass).  Each garden is a dict that is
never mutated once a state holds it; every other field is a tuple or a scalar, so a new
state shares everything it did not change.

`View` is what one seat may see; it is a separate type and holds no hidden card.

At a sealed table (`hedgerow.core.sealedtable`) each card no seat has been shown is a
`Sealed` token in its place in the public state: the stacks (the face-down one, and each
face-up one below its top), the box, and the card a seat took face down (``holding``,
whose face only its holder's information state has).  The rules move tokens and never
read one; they read a card only once every seat has been shown it (a face-up top, a
garden card) or as it is planted (see `turn`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from hedgerow.plugins.flowers.garden import Garden, Stack
from hedgerow.plugins.flowers.scoring import GardenScore

DEAL, TAKE, PLANT, OVER = "deal", "take", "plant", "over"
NOBODY = -1  # no card held, no stack, no active seat


class State(NamedTuple):
    """Everything about a game of FLOWERS in progress.

    * ``players``: the number of seats (1 is the solo game);
    * ``gardens``: each seat's garden, ``(x, y) -> stack`` bottom card first (`garden`);
    * ``targets``: each seat's cell keys where a card may be planted now, sorted (derived data,
      kept so that listing plantings costs nothing; not part of the hash);
    * ``stacks``: the draw stacks, each bottom card first so the top is the last one; the
      last stack is the face-down one, the top of every other one is face up;
    * ``active``: the seat to act (-1 before the deal and once the game is over);
    * ``phase``: ``"deal"`` (waiting for the deal: a chance node), ``"take"`` (a turn's
      start: the active seat plants a face-up card or takes the face-down one), ``"plant"``
      (it plants the face-down card it took) or ``"over"``;
    * ``holding``: the face-down card taken and not yet planted (-1 when none; at a sealed
      table a `Sealed` token, compared with -1 only by ``==`` / ``!=``);
    * ``source``: the stack it was taken from (-1 when none);
    * ``discards``: solo only, the face-up cards discarded after each turn, in order;
    * ``box``: the cards dealt to no stack (hidden from everyone, in id order; at a sealed
      table tokens, in the order of their positions in the shuffle);
    * ``sizes``: while waiting for the deal, the sizes of the stacks it will make.
    """

    players: int
    gardens: tuple[Garden, ...]
    targets: tuple[tuple[int, ...], ...]
    stacks: tuple[Stack, ...]
    active: int
    phase: str
    holding: int = NOBODY
    source: int = NOBODY
    discards: Stack = ()
    box: Stack = ()
    sizes: tuple[int, ...] = ()


#: One garden as a view shows it: ``(x, y, stack)`` per occupied cell, sorted by cell.
GardenCells = tuple[tuple[int, int, Stack], ...]


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see of a game of FLOWERS.

    * ``seat``, ``players``;
    * ``gardens``: every seat's garden as ``(x, y, stack)`` sorted by cell, each stack
      bottom card first (the visible card last).  Covered cards were seen when they were
      planted, so they are shown: a UI shows the visible card and the stack's height;
    * ``tops``: for each stack, its face-up top card, or -1 (the face-down stack, an empty
      stack); ``sizes``: the number of cards in each stack; ``face_down``: the index of
      the face-down stack (the last one);
    * ``active``, ``phase``: as in `State`;
    * ``holding``: the face-down card the active seat took and must plant now, or -1 when
      there is none or this seat is not the one holding it; ``source``: the stack it came
      from, -1 when no card is held (``source >= 0`` with ``holding == -1``: another seat
      holds a card this seat has not seen);
    * ``discards``: solo only, the discarded face-up cards; ``box_count``: cards out of the
      game, unseen;
    * ``final``: once the game is over, every seat's full scoring detail (the removed
      groups and their penalties, the colour groups, the butterflies), else ``()``.
    """

    seat: int
    players: int
    gardens: tuple[GardenCells, ...]
    tops: tuple[int, ...]
    sizes: tuple[int, ...]
    face_down: int
    active: int
    phase: str
    holding: int
    source: int
    discards: Stack
    box_count: int
    final: tuple[GardenScore, ...] = ()
