"""Petals as plugins: registration, extension hooks, and Harmony active only where chosen."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamechecks import (
    assert_imports_nothing_nondeterministic,
    assert_rules_import_no_ui_or_network,
    assert_rules_leave_bots_alone,
    rules_modules,
)

from hedgerow.core import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.plugins import petals
from hedgerow.plugins.petals import harmony


def test_game_and_variant_are_registered(plugins: PluginHost) -> None:
    spec = plugins.game("petals")
    assert (spec.name, spec.title, spec.version) == ("petals", "Petals", "2.1.0")
    assert (spec.min_players, spec.max_players) == (2, 5) and spec.summary
    assert spec.players_default == 4
    variant = plugins.variants[("petals", "harmony")]
    assert variant.version == "1.0.0" and variant.summary
    assert variant.impl is not harmony and isinstance(variant.impl, harmony.HarmonyRules)


def test_extension_hooks_are_declared(plugins: PluginHost) -> None:
    for name in ("petals_winner", "petals_final_scoring"):
        caller = getattr(plugins.pm.hook, name)
        assert caller.spec is not None and caller.spec.opts["firstresult"]


def test_fingerprints(plugins: PluginHost) -> None:
    assert plugins.ruleset("petals").fingerprint == "petals@2.1.0"
    assert plugins.ruleset("petals", ["harmony"]).fingerprint == "petals@2.1.0+harmony@1.0.0"


def test_player_count_is_checked(plugins: PluginHost) -> None:
    with pytest.raises(HedgerowError):
        plugins.ruleset("petals", [], players=6)
    with pytest.raises(HedgerowError):
        plugins.ruleset("petals", [], players=1)


def test_harmony_module_holds_no_rule_hook() -> None:
    # The module is registered at every table; only HarmonyRules may change the ranking.
    assert not hasattr(harmony, "petals_winner")


def test_rules_import_no_ui_or_network() -> None:
    assert_rules_import_no_ui_or_network("hedgerow.plugins.petals",
                                         "hedgerow.plugins.petals.harmony")


@pytest.mark.parametrize("path", rules_modules(petals),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rules_modules_import_nothing_nondeterministic(path: Path) -> None:
    assert_imports_nothing_nondeterministic(path, docstring=False)


def test_the_rules_never_import_the_bot_support() -> None:
    assert_rules_leave_bots_alone(petals)
