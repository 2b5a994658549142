"""A bot asked to play a game that offers no bot support says so once, and still plays."""

from __future__ import annotations

import dataclasses
import logging

import pytest
from toygames import PLUGINS

from hedgerow.core import botsupport
from hedgerow.core.botchoice import resolve
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost


@pytest.fixture(scope="module")
def plugins() -> PluginHost:
    return PluginHost(autoload=False, extra=PLUGINS)


@pytest.fixture(autouse=True)
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(botsupport, "_SAID", set())  # "once" is once per process


def _said(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "hedgerow.bots"]


@pytest.mark.parametrize("bot", ["greedy", "ismcts:10"])
def test_a_bot_without_support_says_so_once(plugins: PluginHost, bot: str,
                                           caplog: pytest.LogCaptureFixture) -> None:
    ruleset = plugins.ruleset("relay", players=3)
    assert ruleset.bots is None
    caplog.set_level(logging.WARNING, logger="hedgerow.bots")
    for seed in (b"one", b"two"):  # two games, three seats each: one line in all
        table = play(ruleset, 3, seed, [resolve(plugins, bot, "relay")])
        assert table.outcome() is not None
    name = bot.partition(":")[0]
    assert _said(caplog) == [
        f"{name}: relay offers no bot support (GameSpec.bots, docs/plugins.md \"Bot support\"), "
        f"so {name} plays uniformly at random"]


def test_random_and_a_supported_game_say_nothing(plugins: PluginHost,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="hedgerow.bots")
    play(plugins.ruleset("relay", players=2), 2, b"r", [resolve(plugins, "random", "relay")])
    play(plugins.ruleset("posy", players=2), 2, b"p", [resolve(plugins, "greedy", "posy"),
                                                    resolve(plugins, "ismcts:10", "posy")])
    assert _said(caplog) == []


def test_support_without_a_judgement_is_named(plugins: PluginHost,
                                              caplog: pytest.LogCaptureFixture) -> None:
    ruleset = plugins.ruleset("posy", players=2)
    assert ruleset.bots is not None
    blind = dataclasses.replace(ruleset, bots=dataclasses.replace(ruleset.bots, score=None))
    caplog.set_level(logging.WARNING, logger="hedgerow.bots")
    play(blind, 2, b"b",
         [resolve(plugins, "greedy", "posy"), resolve(plugins, "ismcts:10", "posy")])
    said = _said(caplog)
    assert len(said) == 2
    assert said[0].startswith("greedy: posy offers no score or evaluate in its bot support")
    assert said[1].startswith("ismcts: posy offers no score or evaluate in its bot support")
    assert "rollout=-1" in said[1]
