"""Flourish as a plugin: its rules import nothing nondeterministic, no UI or network, and
never its bot support, which the plugin module registers beside them."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamechecks import (
    assert_imports_nothing_nondeterministic,
    assert_rules_import_no_ui_or_network,
    assert_rules_leave_bots_alone,
    rules_modules,
)

from hedgerow.core.pluginhost import PluginHost
from hedgerow.plugins import flourish


def test_the_game_offers_bot_support(plugins: PluginHost) -> None:
    spec = plugins.game("flourish")
    assert spec.bots is not None and not spec.leaderboard
    bots = plugins.ruleset("flourish", players=3).bots
    assert bots is not None and bots.evaluate is not None and bots.lookahead == 2


def test_rules_import_no_ui_or_network() -> None:
    assert_rules_import_no_ui_or_network("hedgerow.plugins.flourish")


@pytest.mark.parametrize("path", rules_modules(flourish),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rules_modules_import_nothing_nondeterministic(path: Path) -> None:
    assert_imports_nothing_nondeterministic(path, docstring=False)


def test_the_rules_never_import_the_bot_support() -> None:
    assert_rules_leave_bots_alone(flourish)
