"""Fixtures for the Petals tests: the host's rules with and without Harmony, and boards."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.petals.geometry import frontier, placed
from hedgerow.plugins.petals.state import PLAY, Pending, State


@pytest.fixture(scope="session")
def standard(plugins: PluginHost) -> Ruleset:
    """Petals without variants."""
    return plugins.ruleset("petals", [])


@pytest.fixture(scope="session")
def harmony(plugins: PluginHost) -> Ruleset:
    """Petals with Harmony."""
    return plugins.ruleset("petals", ["harmony"])


Board = Callable[..., State]


def make_board(cards: dict[tuple[int, int], tuple[int, int]], *, players: int = 2,
               hands: tuple[tuple[int, ...], ...] | None = None, pile: tuple[int, ...] = (30, 31),
               active: int = 0, pending: Pending | None = None) -> State:
    """A mid-game state with ``cards`` as ``{(x, y): (card_id, rotation)}``."""
    garden = {cell: placed(c, r) for cell, (c, r) in cards.items()}
    if hands is None:
        hands = ((),) * players
    return State(players=players, garden=garden, frontier=frontier(garden), hands=hands,
                 pile=pile, trackers=((0, 0, 0, 0),) * players, active=active,
                 pending=pending, phase=PLAY)


@pytest.fixture
def board() -> Board:
    """``board({(x, y): (card, rot)}, hands=..., ...)``: a state built from a spec board."""
    return make_board

