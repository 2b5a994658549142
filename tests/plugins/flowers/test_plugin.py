"""FLOWERS as plugins: registration, its extension hooks, Summer only where chosen, imports."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from gamechecks import (
    assert_imports_nothing_nondeterministic,
    assert_rules_import_no_ui_or_network,
    assert_rules_leave_bots_alone,
    rules_modules,
)

from hedgerow.core import HedgerowError
from hedgerow.core.pluginhost import DEFAULT_PLUGINS, PluginHost
from hedgerow.plugins import flowers
from hedgerow.plugins.flowers import summer
from hedgerow.plugins.flowers.cards import ALL_CARDS, PURPLES
from hedgerow.plugins.flowers.game import bind

HOOKS = ("flowers_setup", "flowers_coverable", "flowers_colour_points")


def test_registered_as_built_ins() -> None:
    assert ("flowers", "hedgerow.plugins.flowers") in DEFAULT_PLUGINS
    assert ("summer", "hedgerow.plugins.flowers.summer") in DEFAULT_PLUGINS


def test_game_and_variant_are_registered(plugins: PluginHost) -> None:
    spec = plugins.game("flowers")
    assert (spec.name, spec.title, spec.version) == ("flowers", "FLOWERS", "1.0.0")
    assert (spec.min_players, spec.max_players, spec.players_default) == (1, 4, 2)
    assert spec.summary
    variant = plugins.variants[("flowers", "summer")]
    assert variant.version == "1.0.0" and variant.summary and variant.players is None
    assert isinstance(variant.impl, summer.SummerRules) and variant.impl is not summer


def test_extension_hooks_are_declared_with_standard_defaults(plugins: PluginHost) -> None:
    for name in HOOKS:
        caller = getattr(plugins.pm.hook, name)
        assert caller.spec is not None and caller.spec.opts["firstresult"]
        doc = inspect.getdoc(caller.spec.function) or ""
        assert "Called" in doc and ":return:" in doc, name
        for param in inspect.signature(caller.spec.function).parameters:
            assert f":param {param}:" in doc, (name, param)
        defaults = [i for i in caller.get_hookimpls() if i.plugin is flowers]
        assert len(defaults) == 1 and defaults[0].trylast


def test_summer_answers_only_at_tables_that_chose_it(plugins: PluginHost) -> None:
    plain = bind(plugins.ruleset("flowers", players=2).gamedef and _relay(plugins, ()))
    hot = bind(_relay(plugins, ("summer",)))
    assert all(plain.coverable) and plain.layout(2).starts == (-1, -1)
    assert [c for c in ALL_CARDS if not hot.coverable[c]] == list(PURPLES)
    assert hot.layout(3).starts == PURPLES[:3]


def _relay(plugins: PluginHost, variants: tuple[str, ...]):
    from hedgerow.core.ruleset import ExtensionRelay

    chosen = [plugins.variants[("flowers", v)] for v in variants]
    inactive = [v.impl for v in plugins.variants.values() if v not in chosen]
    return ExtensionRelay(plugins.pm, inactive, variants)


def test_fingerprints_and_player_counts(plugins: PluginHost) -> None:
    assert plugins.ruleset("flowers").fingerprint == "flowers@1.0.0"
    assert plugins.ruleset("flowers", ["summer"]).fingerprint == "flowers@1.0.0+summer@1.0.0"
    plugins.ruleset("flowers", ["summer"], players=1)  # Summer combines with solo
    for players in (0, 5):
        with pytest.raises(HedgerowError):
            plugins.ruleset("flowers", [], players=players)


def test_summer_module_holds_no_rule_hook() -> None:
    # The module is registered at every table; only SummerRules may change the rules.
    assert not any(hasattr(summer, name) for name in HOOKS)


def test_rules_import_no_ui_or_network() -> None:
    assert_rules_import_no_ui_or_network("hedgerow.plugins.flowers",
                                         "hedgerow.plugins.flowers.summer")


@pytest.mark.parametrize("path", rules_modules(flowers),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rules_modules_import_nothing_nondeterministic_and_say_what_they_own(path: Path) -> None:
    assert_imports_nothing_nondeterministic(path)


def test_the_rules_never_import_the_bot_support() -> None:
    assert_rules_leave_bots_alone(flowers)
