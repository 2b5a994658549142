"""A built-in game's spec is read without its rules (``hedgerow games`` lists it from the
spec alone, tests/clients/test_startup_imports.py): the rules and the bot support load when a
table is built, and what they build matches the spec."""

from __future__ import annotations

import pickle

import pytest

from hedgerow.core.pluginhost import PluginHost


@pytest.mark.parametrize("game", ["petals", "flowers", "mandala", "flourish"])
def test_the_rules_and_bots_built_on_first_use_match_the_spec(game: str) -> None:
    import importlib

    package = importlib.import_module(f"hedgerow.plugins.{game}")
    setup = importlib.import_module(f"hedgerow.plugins.{game}.setup")
    spec = package.SPEC
    assert (spec.min_players, spec.max_players) == (setup.MIN_PLAYERS, setup.MAX_PLAYERS)
    ruleset = PluginHost().ruleset(game, (), spec.min_players)
    assert ruleset.gamedef.name == spec.name
    assert ruleset.bots is not None
    assert pickle.loads(pickle.dumps(spec.build)) == spec.build  # as a module function is
