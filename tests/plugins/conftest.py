"""Fixtures every game's tests share: the host, and ``play`` on a game's standard rules.

A game's own conftest.py defines ``standard`` (its ruleset without variants) and may
override ``host`` (FLOWERS' tests use a host with only their plugins)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from gamechecks import applied

from hedgerow.core import Action
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset


@pytest.fixture(scope="session")
def plugins() -> PluginHost:
    """A host with the built-in plugins and no third-party ones."""
    return PluginHost(autoload=False)


@pytest.fixture
def play(standard: Ruleset) -> Callable[[Any, int, Action], Any]:
    """``play(state, seat, action)``: the new state of a legal action (standard rules)."""
    return lambda state, seat, action: applied(standard, state, seat, action)
