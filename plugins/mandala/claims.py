"""Majorities on one mandala: presence, the claim check, second place, and previews.

Pure functions over what every seat sees of a mandala (its colour set, each seat's cards
and face-up cards, the claim holder), so the rules, a bot and the seat client share them:
anything with the `MandalaLike` attributes works (the rules' `Mandala`, a seat's
`MandalaView`).

* a colour is *present* when a tile or a face-up card shows it; a mandala with all six
  present is *complete* (spec §5);
* a seat is *eligible* with at least one face-up card there;
* the claim check (spec §6 step 3): the seat that just played takes the claim when it is
  eligible and has strictly more cards than every other eligible seat;
* second place (spec §8.2): the eligible seat other than the holder with the most cards,
  then the most face-up cards; a tie there, or nobody, leaves both tiles to the holder;
* for a client or a bot: `status` (who holds, who is eligible, who would be second, colours
  missing), `cards_to_claim`, and `preview` (what a play would do to the majorities).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from hedgerow.plugins.mandala.cards import ALL_COLOURS, ColourSet


class MandalaLike(Protocol):
    """What the helpers read of a mandala."""

    @property
    def present(self) -> ColourSet: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def ups(self) -> tuple[int, ...]: ...
    @property
    def claim(self) -> int: ...


def is_present(present: ColourSet, colour: int) -> bool:
    """True when ``colour`` is present (a play of it would go face-down)."""
    return bool(present >> colour & 1)


def is_complete(present: ColourSet) -> bool:
    """True when all six colours are present."""
    return present == ALL_COLOURS


def claims(totals: tuple[int, ...], ups: tuple[int, ...], seat: int) -> bool:
    """The claim check for ``seat``: eligible, and strictly more cards than every other
    eligible seat."""
    if ups[seat] < 1:
        return False
    mine = totals[seat]
    return all(mine > totals[o] for o in range(len(totals)) if o != seat and ups[o] >= 1)


def second_place(totals: tuple[int, ...], ups: tuple[int, ...], holder: int) -> int:
    """The seat that takes the tile the claim holder leaves, or -1 (the holder takes both)."""
    best: tuple[int, int] | None = None
    seats: list[int] = []
    for o in range(len(totals)):
        if o == holder or ups[o] < 1:
            continue
        key = (totals[o], ups[o])
        if best is None or key > best:
            best, seats = key, [o]
        elif key == best:
            seats.append(o)
    return seats[0] if len(seats) == 1 else -1


def missing(present: ColourSet) -> int:
    """How many colours a mandala still lacks before it is complete."""
    return 6 - present.bit_count()


class ClaimStatus(NamedTuple):
    """Who stands where on one mandala: the claim holder (-1: unclaimed), the eligible seats,
    the seat that would take the second tile if it were completed now (-1: the holder would
    take both), and how many colours are still missing."""

    holder: int
    eligible: tuple[int, ...]
    second: int
    missing: int


def status(mandala: MandalaLike) -> ClaimStatus:
    """The `ClaimStatus` of ``mandala``."""
    eligible = tuple(s for s, n in enumerate(mandala.ups) if n >= 1)
    holder = mandala.claim
    second = second_place(mandala.totals, mandala.ups, holder) if holder >= 0 else -1
    return ClaimStatus(holder, eligible, second, missing(mandala.present))


def cards_to_claim(mandala: MandalaLike, seat: int) -> int:
    """How many more cards ``seat`` needs on ``mandala`` to out-number every other eligible
    seat (0 when it already does; it must also be, or become, eligible to take the claim)."""
    others = [t for o, t in enumerate(mandala.totals) if o != seat and mandala.ups[o] >= 1]
    return max(0, (max(others) if others else 0) + 1 - mandala.totals[seat])


class PlayPreview(NamedTuple):
    """What a play would do to one mandala, before any draw or resolution.

    ``face_up``: how the cards would lie; ``present``, ``totals``, ``ups``: the mandala
    after the play; ``claim``: the claim holder after the claim check; ``completes``: True
    when the play completes the mandala (it is resolved at once); ``second``: then, the
    seat that would take the tile the holder leaves (-1: the holder takes both).
    """

    face_up: bool
    present: ColourSet
    totals: tuple[int, ...]
    ups: tuple[int, ...]
    claim: int
    completes: bool
    second: int


def preview(mandala: MandalaLike, seat: int, colour: int, count: int) -> PlayPreview:
    """What ``seat`` playing ``count`` cards of ``colour`` on ``mandala`` would do to it."""
    present = mandala.present
    up = not is_present(present, colour)
    totals = list(mandala.totals)
    ups = list(mandala.ups)
    totals[seat] += count
    if up:
        ups[seat] += count
        present |= 1 << colour
    t, u = tuple(totals), tuple(ups)
    claim = seat if claims(t, u, seat) else mandala.claim
    done = is_complete(present)
    return PlayPreview(up, present, t, u, claim, done,
                       second_place(t, u, claim) if done else -1)
