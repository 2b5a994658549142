"""Mandala as plugins: registration, extension hooks, Draw four active only where chosen, a
third-party variant through the same hooks, and rules modules free of I/O and luck."""

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

from hedgerow.core import HedgerowError, Ranked, VariantSpec, hookimpl
from hedgerow.core.pluginhost import PluginHost
from hedgerow.plugins import mandala
from hedgerow.plugins.mandala import drawfour
from hedgerow.plugins.mandala.drawing import DRAW_FOUR, STANDARD
from hedgerow.plugins.mandala.state import OVER

from .conftest import applied, hand, make_state, play, take, tiles


def test_game_and_variant_are_registered(plugins: PluginHost) -> None:
    spec = plugins.game("mandala")
    assert (spec.name, spec.title, spec.version) == (
        "mandala", "Flowers: A Mandala Game", "1.1.0")
    assert (spec.min_players, spec.max_players, spec.players_default) == (2, 4, 3)
    assert spec.summary
    variant = plugins.variants[("mandala", "draw-four")]
    assert variant.version == "1.0.0" and variant.summary
    assert variant.impl is not drawfour and isinstance(variant.impl, drawfour.DrawFourRules)


def test_extension_hooks_are_declared_and_documented(plugins: PluginHost) -> None:
    for name in ("mandala_draw_rule", "mandala_game_end", "mandala_winner"):
        caller = getattr(plugins.pm.hook, name)
        assert caller.spec is not None and caller.spec.opts["firstresult"]
        doc = inspect.getdoc(caller.spec.function) or ""
        assert "Called" in doc and ":return:" in doc, name
        for param in inspect.signature(caller.spec.function).parameters:
            assert f":param {param}:" in doc, (name, param)


def test_fingerprints_and_player_counts(plugins: PluginHost) -> None:
    assert plugins.ruleset("mandala").fingerprint == "mandala@1.1.0"
    assert (plugins.ruleset("mandala", ["draw-four"]).fingerprint
            == "mandala@1.1.0+draw-four@1.0.0")
    for players in (1, 5):
        with pytest.raises(HedgerowError):
            plugins.ruleset("mandala", [], players=players)


def test_draw_four_is_active_only_where_chosen(plugins: PluginHost) -> None:
    standard = plugins.ruleset("mandala", [])
    both = plugins.ruleset("mandala", ["draw-four"])
    assert standard.gamedef.name == both.gamedef.name == "mandala"
    s = make_state(players=2, hands={0: hand(red=3)}, deck=(5,) * 9)
    assert sum(applied(standard, s, 0, play(0, "red", 1)).hands[0]) == 4
    assert sum(applied(both, s, 0, play(0, "red", 1)).hands[0]) == 6
    assert sum(applied(plugins.ruleset("mandala", []), s, 0, play(0, "red", 1)).hands[0]) == 4
    assert STANDARD.after_single == 2 and DRAW_FOUR.after_single == 4


def test_variant_module_holds_no_rule_hook() -> None:
    # The module is registered at every table; only DrawFourRules may change the rules.
    assert not hasattr(drawfour, "mandala_draw_rule")


class FourFlowers:
    """A third-party variant: four complete flowers to end, fewest tiles win ties."""

    @hookimpl
    def mandala_game_end(self, tiles, open_mandalas, passes, players):
        from hedgerow.plugins.mandala.scoring import complete_flowers

        if any(complete_flowers(t) >= 4 for t in tiles):
            return "four flowers"
        return "" if open_mandalas and passes < players else "stuck"

    @hookimpl
    def mandala_winner(self, tiles, ended):
        return Ranked(scores=tuple(-len(t) for t in tiles), ranking=(1,) * len(tiles),
                      winners=tuple(range(len(tiles))), explanation=f"everyone: {ended}")


class FourFlowersPlugin:
    @hookimpl
    def hedgerow_register_variants(self, register):
        register(VariantSpec("mandala", "four-flowers", "0.1.0", FourFlowers(), summary="x"))


def test_a_third_party_variant_changes_the_end_and_the_winner() -> None:
    plugins = PluginHost(autoload=False, extra=[FourFlowersPlugin()])
    held = {0: tiles("gray-1", "gray-2", "purple-1", "purple-2", "red-2"),
            1: tiles("orange-1", "orange-2")}
    red1, green1 = tiles("red-1", "green-1")
    s = make_state(players=2, hands={0: hand(gray=3, orange=2), 1: hand(purple=2, yellow=3)},
                   mandalas=[(red1, green1)], deck=(4,) * 9, dark=tiles("red-3"),
                   light=tiles("green-3"), held=held)
    for ruleset, over in ((plugins.ruleset("mandala", []), True),
                          (plugins.ruleset("mandala", ["four-flowers"]), False)):
        t = applied(ruleset, s, 0, play(0, "gray", 2))
        t = applied(ruleset, t, 1, play(0, "purple", 1))
        t = applied(ruleset, t, 0, play(0, "orange", 1))
        t = applied(ruleset, t, 1, play(0, "yellow", 1))
        t = applied(ruleset, t, 0, take("red-1"))  # seat 0's third complete flower
        assert (t.phase == OVER) == over
    variant = plugins.ruleset("mandala", ["four-flowers"])
    ended = make_state(players=2)._replace(phase=OVER, ended="stuck")
    outcome = variant.gamedef.outcome(ended)
    assert outcome is not None and outcome.explanation == "everyone: stuck"


def test_rules_import_no_ui_or_network() -> None:
    assert_rules_import_no_ui_or_network("hedgerow.plugins.mandala",
                                         "hedgerow.plugins.mandala.drawfour")


@pytest.mark.parametrize("path", rules_modules(mandala),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rules_modules_import_nothing_nondeterministic(path: Path) -> None:
    assert_imports_nothing_nondeterministic(path)


def test_the_rules_never_import_the_bot_support() -> None:
    assert_rules_leave_bots_alone(mandala)
