"""Fixtures for the FLOWERS tests: the rules with and without Summer, and gardens written the
way the rules spec writes them."""

from __future__ import annotations

from collections import Counter

import pytest

from hedgerow.core.pluginhost import DEFAULT_PLUGINS, PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.flowers.cards import ALL_CARDS, PURPLES, find
from hedgerow.plugins.flowers.garden import Garden, key, targets
from hedgerow.plugins.flowers.state import TAKE, State

EVERY = tuple(True for _ in ALL_CARDS)
SUMMER = tuple(c not in PURPLES for c in ALL_CARDS)


#: The built-ins these tests need: FLOWERS, Summer and the random bot, as the host lists them.
BUILTINS = tuple(p for p in DEFAULT_PLUGINS if p[0] in ("flowers", "summer", "random-bot"))


@pytest.fixture(scope="session")
def plugins() -> PluginHost:
    """A host with FLOWERS and Summer (registered as the default list does) and no others."""
    return PluginHost(builtins=BUILTINS, autoload=False)


@pytest.fixture(scope="session")
def standard(plugins: PluginHost) -> Ruleset:
    """FLOWERS without variants."""
    return plugins.ruleset("flowers", [])


@pytest.fixture(scope="session")
def summer(plugins: PluginHost) -> Ruleset:
    """FLOWERS with Summer."""
    return plugins.ruleset("flowers", ["summer"])


def cards(*texts: str) -> tuple[int, ...]:
    """Distinct card ids for cards written like ``"Y4g"`` (repeats get the next copy)."""
    seen: Counter[str] = Counter()
    out = []
    for text in texts:
        out.append(find(text, seen[text]))
        seen[text] += 1
    return tuple(out)


def grid(*rows: str) -> Garden:
    """A garden from rows written top row first, cells separated by spaces, ``.`` for an empty
    cell and stacks top card first (``"Y2/R4"``: Y2 lies on R4).  The top row is y = 0, the
    next y = -1, ...; the first column is x = 0.  Copies of a card get distinct ids."""
    seen: Counter[str] = Counter()
    garden: Garden = {}
    for r, row in enumerate(rows):
        for x, cell in enumerate(row.split()):
            if cell == ".":
                continue
            stack = []
            for text in reversed(cell.split("/")):
                stack.append(find(text, seen[text]) if text[0] != "P" else PURPLES[0])
                seen[text] += 1
            garden[key(x, -r)] = tuple(stack)
    return garden


def make_state(gardens: tuple[Garden, ...], stacks: tuple[tuple[int, ...], ...], *,
               active: int = 0, phase: str = TAKE, holding: int = -1, source: int = -1,
               coverable: tuple[bool, ...] = EVERY, box: tuple[int, ...] = ()) -> State:
    """A mid-game state (stacks bottom card first, the top last)."""
    return State(players=len(gardens), gardens=gardens,
                 targets=tuple(targets(g, coverable) for g in gardens), stacks=stacks,
                 active=active, phase=phase, holding=holding, source=source, box=box)

