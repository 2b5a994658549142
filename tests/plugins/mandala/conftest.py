"""Fixtures for the Mandala tests: the host's rules with and without Draw four, and tables
built by hand from the spec's worked examples."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import gamechecks
import pytest

from hedgerow.core import Action
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.mandala.cards import (
    DARK_TILES,
    LIGHT_TILES,
    NO_CARDS,
    PER_COLOUR,
    TILE_FLOWERS,
    TILES_PER_COLOUR,
    Counts,
    colour_named,
    counts,
    tile_colour,
)
from hedgerow.plugins.mandala.choices import play_action, take_action
from hedgerow.plugins.mandala.resolution import empty_mandala
from hedgerow.plugins.mandala.state import PLAY, State


@pytest.fixture(scope="session")
def standard(plugins: PluginHost) -> Ruleset:
    """Mandala without variants (draw 2 after a single card)."""
    return plugins.ruleset("mandala", [])


@pytest.fixture(scope="session")
def drawfour(plugins: PluginHost) -> Ruleset:
    """Mandala with Draw four."""
    return plugins.ruleset("mandala", ["draw-four"])


def tiles(*names: str) -> tuple[int, ...]:
    """Distinct tile ids for names like ``"green-2"``: a name given twice gets its colour's
    two tiles of that value (the spec's examples hold e.g. green-2 and green-2)."""
    used: list[int] = []
    for name in names:
        colour, _, value = name.partition("-")
        flowers = 0 if value == "x3" else int(value)
        base = colour_named(colour) * TILES_PER_COLOUR
        ids = [base + k for k, f in enumerate(TILE_FLOWERS) if f == flowers]
        used.append(next(t for t in ids if t not in used))
    return tuple(used)


def hand(**by_colour: int) -> Counts:
    """A hand from colour names: ``hand(red=3, gray=1)``."""
    return counts(**by_colour)


#: Tiles for the mandalas a test does not care about (both always open).
SPARE = (tiles("gray-1")[0], tiles("green-1")[0])


def make_state(*, players: int = 3, hands: Mapping[int, Counts] | None = None,
               mandalas: Sequence[tuple[int, ...]] = (), deck: Sequence[int] = (),
               discard: Counts = NO_CARDS, dark: Sequence[int] = (), light: Sequence[int] = (),
               turn: int = 0, held: Mapping[int, Sequence[int]] | None = None) -> State:
    """A state in the play phase.

    ``hands`` by seat (missing seats hold 5 yellow cards); ``mandalas``: tile pairs of M0,
    M1, M2 (missing ones get `SPARE`, ``()`` is closed); ``deck`` as colour names' indices
    with its top at the end; ``held``: tiles already in front of each seat.
    """
    hands = hands or {}
    all_hands = tuple(hands.get(s, hand(yellow=5)) for s in range(players))
    pairs = [*mandalas, *[SPARE] * (3 - len(mandalas))]
    for pair in pairs:
        assert len(pair) in (0, 2) and (not pair or tile_colour(pair[0]) < 3)
    return State(
        players=players, phase=PLAY, turn=turn, hands=all_hands,
        known=(NO_CARDS,) * players, deck=tuple(deck), discard=discard,
        dark=tuple(dark), light=tuple(light),
        mandalas=tuple(empty_mandala(players, tuple(p)) for p in pairs),
        tiles=tuple(tuple((held or {}).get(s, ())) for s in range(players)),
    )


def complete(state: State) -> State:
    """``state`` made a whole table, as sampling a view needs (every one of the 90 cards and
    36 tiles somewhere): cards the state lacks go to the discard pile (public, so no seat's
    unknown cards change), a mandala repeating an earlier one's tiles gets the lowest unused
    pair, and the tiles left over form the stacks (in id order, tops at the end)."""
    cards = list(counts())
    for h in state.hands:
        cards = [a + b for a, b in zip(cards, h, strict=True)]
    for c in state.deck:
        cards[c] += 1
    cards = [a + b for a, b in zip(cards, state.discard, strict=True)]
    for m in state.mandalas:
        for p in m.plays:
            cards[p.colour] += p.cards
    missing = tuple(PER_COLOUR - n for n in cards)
    used = {t for held in state.tiles for t in held}  # membership only
    mandalas = []
    for m in state.mandalas:
        if any(t in used for t in m.tiles):
            assert not m.plays, "a repeated mandala must be empty to be refilled"
            dark = next(t for t in DARK_TILES if t not in used)
            light = next(t for t in LIGHT_TILES if t not in used)
            m = empty_mandala(state.players, (dark, light))
        used.update(m.tiles)
        mandalas.append(m)
    return state._replace(
        discard=tuple(a + b for a, b in zip(state.discard, missing, strict=True)),
        mandalas=tuple(mandalas),
        dark=tuple(t for t in DARK_TILES if t not in used),
        light=tuple(t for t in LIGHT_TILES if t not in used))


def deck_of(*names: str) -> tuple[int, ...]:
    """A deck from colour names, top last."""
    return tuple(colour_named(n) for n in names)


def play(mandala: int, colour: str, count: int) -> Action:
    """``play`` by colour name."""
    return play_action(mandala, colour_named(colour), count)


def take(name: str) -> Action:
    """``take`` by tile name (the first tile of that name)."""
    return take_action(tiles(name)[0])


def applied(ruleset: Ruleset, state: State, seat: int, action: Action) -> State:
    """Apply an action that must be legal (and is listed by legal_actions)."""
    result: State = gamechecks.applied(ruleset, state, seat, action, listed=True)
    return result

