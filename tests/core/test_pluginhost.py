"""The plugin host: registration, loading rules, variants per table, clear errors."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest

from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import DEFAULT_PLUGINS, PluginHost


def test_toy_games_variants_and_bots_are_registered(toy_host) -> None:
    assert sorted(toy_host.games) == ["duel", "posy", "relay", "tokens"]
    assert [v.name for v in toy_host.variants_of("posy")] == ["bonus", "lowball"]
    assert toy_host.variants_of("duel") == []
    assert toy_host.origin_of[toy_host.games["posy"]].distribution == "(local)"


def test_builtins_come_from_the_default_list() -> None:
    plugins = PluginHost(autoload=False)
    names = {name for name, _ in DEFAULT_PLUGINS}
    assert names <= {plugins.pm.get_name(p) for p in plugins.pm.get_plugins()}
    assert "random" in plugins.bots
    assert plugins.origin_of[plugins.bots["random"]].distribution == "hedgerow"


def test_block_list_by_argument_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "random" not in PluginHost(autoload=False, block=["random-bot"]).bots
    monkeypatch.setenv("HEDGEROW_BLOCK_PLUGINS", "random-bot, other")
    assert "random" not in PluginHost(autoload=False).bots


def test_plugins_by_module_name_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEDGEROW_PLUGINS", "toygames")
    plugins = PluginHost(autoload=False)
    assert {"posy", "duel"} <= set(plugins.games)
    assert [v.name for v in plugins.variants_of("posy")] == ["bonus", "lowball"]


def _fake_distribution(tmp_path: Path) -> Path:
    """A real installed distribution on sys.path: a module and its dist-info with an entry point."""
    (tmp_path / "hedgerow_thirdparty.py").write_text(
        textwrap.dedent("""
        from hedgerow.core import VariantSpec, hookimpl

        class Fast:
            pass

        @hookimpl
        def hedgerow_register_variants(register):
            register(VariantSpec("posy", "fast", "0.3.0", Fast(), summary="third party"))
    """)
    )
    info = tmp_path / "hedgerow_thirdparty-0.3.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: hedgerow-thirdparty\nVersion: 0.3.0\n"
    )
    (info / "entry_points.txt").write_text("[hedgerow]\nthirdparty = hedgerow_thirdparty\n")
    return tmp_path


def test_entry_points_load_third_party_variants(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(_fake_distribution(tmp_path)))
    monkeypatch.setenv("HEDGEROW_PLUGINS", "toygames")
    plugins = PluginHost()
    fast = plugins.variants[("posy", "fast")]
    origin = plugins.origin_of[fast]
    assert (origin.plugin, origin.distribution, origin.version) == (
        "thirdparty",
        "hedgerow-thirdparty",
        "0.3.0",
    )
    assert plugins.ruleset("posy", ["fast"]).fingerprint == "posy@1.0.0+fast@0.3.0"
    # the same plugin is skipped when autoload is disabled, or when blocked by name
    monkeypatch.setenv("HEDGEROW_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert ("posy", "fast") not in PluginHost().variants
    monkeypatch.delenv("HEDGEROW_DISABLE_PLUGIN_AUTOLOAD")
    assert ("posy", "fast") not in PluginHost(block=["thirdparty"]).variants


def test_unknown_names_list_the_choices(toy_host) -> None:
    with pytest.raises(HedgerowError,
                       match=r"unknown game 'chess' \(choose from: duel, posy, relay, tokens\)"):
        toy_host.game("chess")
    with pytest.raises(
        HedgerowError, match=r"unknown variant 'x' for posy \(choose from: bonus, lowball\)"
    ):
        toy_host.ruleset("posy", ["x"])
    with pytest.raises(HedgerowError, match=r"unknown bot 'deep'"):
        toy_host.bot("deep")


def test_conflicting_and_repeated_variants_are_refused(toy_host) -> None:
    with pytest.raises(HedgerowError, match="cannot be combined with lowball"):
        toy_host.ruleset("posy", ["bonus", "lowball"])
    with pytest.raises(HedgerowError, match="named twice"):
        toy_host.ruleset("posy", ["bonus", "bonus"])


def test_player_counts_of_game_and_variant(toy_host) -> None:
    with pytest.raises(HedgerowError, match="posy is for 2 to 4 players, not 5"):
        toy_host.ruleset("posy", players=5)
    with pytest.raises(HedgerowError, match=r"posy \+ bonus is for 2 to 3 players, not 4"):
        toy_host.ruleset("posy", ["bonus"], players=4)


def test_variants_are_active_only_at_tables_that_chose_them(toy_host) -> None:
    plain = toy_host.ruleset("posy").gamedef
    low = toy_host.ruleset("posy", ["lowball"]).gamedef
    from toygames import PosyState

    done = PosyState((), ((), ()), (10, 4), 0, 12)
    assert plain.outcome(done).winners == (0,)
    assert low.outcome(done).winners == (1,)
    assert plain.outcome(done).winners == (0,)  # still, after the other table ran


def test_fingerprint_names_variants_in_order(toy_host) -> None:
    assert toy_host.ruleset("posy").fingerprint == "posy@1.0.0"
    r = toy_host.ruleset("posy", ["lowball"])
    assert r.fingerprint == "posy@1.0.0+lowball@1.0.0"
    assert r.fingerprint_hash != toy_host.ruleset("posy").fingerprint_hash


def test_duplicate_game_names_are_refused() -> None:
    import toygames

    with pytest.raises(HedgerowError, match="already registered"):
        PluginHost(builtins=(), autoload=False,
                   extra=[toygames.DuelPlugin(), toygames.DuelPlugin()])


def test_the_ui_hook_answers_for_its_own_game_only(toy_host) -> None:
    from toygames import PosyUI, PosyView

    from hedgerow.core.ui import DrawContext, Target
    from hedgerow.core.uicheck import check_ui

    ui = toy_host.game_ui("posy")
    assert isinstance(ui, PosyUI) and toy_host.game_ui("duel") is None
    view = PosyView(0, (3, 4), (2, 2), 5, (0, 0), 0)
    assert ui.draw("hand", DrawContext(view, 0, 80)) == [
        ("bold", "hand"), ("", " 3", Target("card", 3)), ("", " 4", Target("card", 4))]
    assert check_ui(ui, toy_host.ruleset("posy"), players=2, seeds=range(3)) == []


def test_a_ui_gets_the_tables_rules_and_answers_as_its_variants_do() -> None:
    import toygames

    from hedgerow.core import hookimpl
    from hedgerow.core.ui import GameUI

    class RankingUI(GameUI):
        def __init__(self, ruleset) -> None:
            super().__init__("posy")
            self.ruleset = ruleset

        def rank(self, scores):  # a preview that ranks as this table's variants do
            return self.ruleset.ext.posy_rank(scores=scores)

    class Plugin:
        @hookimpl(tryfirst=True)
        def hedgerow_game_ui(self, game, ruleset):
            return RankingUI(ruleset) if game == "posy" and ruleset is not None else None

    plugins = PluginHost(builtins=(), autoload=False, extra=[*toygames.PLUGINS, Plugin()])
    plain = plugins.game_ui("posy", plugins.ruleset("posy"))
    lowball = plugins.game_ui("posy", plugins.ruleset("posy", ["lowball"]))
    assert isinstance(plain, RankingUI) and isinstance(lowball, RankingUI)
    assert plain.rank((3, 9)) == (2, 1) and lowball.rank((3, 9)) == (1, 2)
    assert lowball.ruleset.variant_names == ("lowball",)


def test_a_ui_hook_answering_something_else_is_refused() -> None:
    from hedgerow.core import hookimpl

    class Wrong:
        @hookimpl
        def hedgerow_game_ui(self, game):
            return "a string"

    plugins = PluginHost(builtins=(), autoload=False, extra=[Wrong()])
    with pytest.raises(HedgerowError, match="not a GameUI"):
        plugins.game_ui("posy")


def test_hedgerow_register_bots_adds_a_bot_that_plays(toy_host) -> None:
    from hedgerow.core import BotSpec, hookimpl
    from hedgerow.core.playout import play
    from hedgerow.core.seeding import seed_from_int

    class FirstBot:
        def __init__(self, ctx) -> None:
            self.seat = ctx.seat

        def choose(self, view, legal):
            return legal[0]

    class Plugin:
        @hookimpl
        def hedgerow_register_bots(self, register) -> None:
            register(BotSpec("first", "0.1", FirstBot, summary="always the first", games=("posy",)))

    import toygames

    plugins = PluginHost(builtins=(), autoload=False, extra=[*toygames.PLUGINS, Plugin()])
    assert plugins.bot("first", "posy").summary == "always the first"
    with pytest.raises(HedgerowError, match="unknown bot 'first' for duel"):
        plugins.bot("first", "duel")
    table = play(plugins.ruleset("posy"), 2, seed_from_int(3), [plugins.bot("first")])
    assert table.outcome() is not None


def test_hedgerow_addhooks_lets_a_game_add_its_extension_hooks(toy_host) -> None:
    assert toy_host.pm.hook.posy_rank.spec is not None
    assert toy_host.pm.hook.posy_rank.spec.opts["firstresult"]


def test_a_third_party_plugin_that_fails_to_load_is_reported_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "hedgerow_broken.py").write_text("raise ImportError('needs numpy 9')\n")
    info = tmp_path / "hedgerow_broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hedgerow-broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[hedgerow]\nbroken = hedgerow_broken\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins = PluginHost()
    assert plugins.broken == [("broken", "hedgerow-broken 0.1: ImportError: needs numpy 9")]
    assert "random" in plugins.bots


def test_a_variant_for_a_missing_game_is_reported_and_left_out() -> None:
    import toygames

    plugins = PluginHost(builtins=(), autoload=False, extra=[toygames.PosyVariants()])
    assert plugins.variants == {}
    assert sorted(why for _, why in plugins.broken) == [
        "variant 'bonus' needs game 'posy', which is not installed",
        "variant 'lowball' needs game 'posy', which is not installed",
    ]
    assert plugins.pm.get_plugin("variant:posy:bonus") is None


def test_a_variant_narrows_the_default_player_count(toy_host) -> None:
    plain = toy_host.ruleset("posy")
    assert plain.player_range == (2, 4) and plain.players_default == 2
    bonus = toy_host.ruleset("posy", ["bonus"])
    assert bonus.player_range == (2, 3)
    four = dataclasses.replace(bonus, spec=dataclasses.replace(bonus.spec, default_players=4))
    assert four.spec.players_default == 4 and four.players_default == 3  # moved into range


def test_a_bot_is_found_with_its_parameters_and_each_generic_bot_is_its_own_plugin() -> None:
    plugins = PluginHost(autoload=False)
    assert plugins.bot("ismcts:2000", "petals").params == "2000"
    assert plugins.bot("greedy").params == ""
    with pytest.raises(HedgerowError, match="bad budget"):
        plugins.bot("ismcts:soon")
    blocked = PluginHost(autoload=False, block=["ismcts-bot"])
    assert sorted(blocked.bots) == ["greedy", "random"]


def test_the_host_finds_the_hook_implementations_pluggy_finds() -> None:
    """The host's manager reads a module's names faster than pluggy (`_Manager`); every
    name of every built-in plugin, the toy games and the example game gets the same answer."""
    import importlib
    import types

    import goofspiel
    import pluggy
    import toygames

    from hedgerow.core.pluginhost import _Manager

    ours, plain = _Manager("hedgerow"), pluggy.PluginManager("hedgerow")
    modules = [importlib.import_module(m) for _, m in DEFAULT_PLUGINS] + [toygames, goofspiel]
    odd = types.ModuleType("odd")  # wrapped and bound hook implementations in a module
    odd.wrapped = staticmethod(toygames.hedgerow_register_games)  # type: ignore[attr-defined]
    odd.bound = toygames.PosyVariants().hedgerow_register_variants  # type: ignore[attr-defined]
    found = 0
    for plugin in [*modules, odd, toygames.PosyVariants()]:
        for name in dir(plugin):
            answer = ours.parse_hookimpl_opts(plugin, name)
            assert answer == plain.parse_hookimpl_opts(plugin, name), (plugin, name)
            found += answer is not None
    assert found >= 40
