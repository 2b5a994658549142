"""Every host hook is a documented contract, listed in docs/plugins.md, and really called.

"Called" is measured, not guessed from a test mentioning the name: tests/conftest.py records
every ``hedgerow`` hook called in the test process (`HookCalls`), and the last test here runs
the code paths that call them — a host loading the built-in plugins, each game's UI object,
and seeded games of every game, variant combination and player count to their outcome — then
checks that every host hook and every game's extension hook (plugins/*/hookspecs.py) was
called.  It runs them itself, so it holds whatever order the tests run in.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import itertools
from pathlib import Path

import pytest

from hedgerow.core import hookspecs
from hedgerow.core.errors import HedgerowError
from hedgerow.core.game import GameDef
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int

ROOT = Path(__file__).resolve().parents[2]
HOOKS = sorted(
    n for n, f in vars(hookspecs).items() if n.startswith("hedgerow_") and inspect.isfunction(f)
)


def test_there_are_hooks() -> None:
    assert {
        "hedgerow_addhooks",
        "hedgerow_register_games",
        "hedgerow_register_variants",
        "hedgerow_register_bots",
        "hedgerow_game_ui",
    } <= set(HOOKS)


@pytest.mark.parametrize("name", HOOKS)
def test_hook_has_a_contract(name: str) -> None:
    doc = inspect.getdoc(getattr(hookspecs, name)) or ""
    assert "Called" in doc, f"{name}: say when it is called and by whom"
    assert ":return:" in doc, f"{name}: say what it returns"
    for param in inspect.signature(getattr(hookspecs, name)).parameters:
        assert f":param {param}:" in doc, f"{name}: document parameter {param}"


@pytest.mark.parametrize("name", HOOKS)
def test_hook_is_in_the_plugin_reference(name: str) -> None:
    assert f"`{name}" in (ROOT / "docs" / "plugins.md").read_text()


def extension_hooks() -> list[str]:
    """Every hook a built-in game publishes for its variants (plugins/*/hookspecs.py)."""
    names = []
    for path in sorted((ROOT / "plugins").glob("*/hookspecs.py")):
        module = importlib.import_module(f"hedgerow.plugins.{path.parent.name}.hookspecs")
        names += [n for n, f in vars(module).items()
                  if inspect.isfunction(f) and hasattr(f, f"{hookspecs.PROJECT}_spec")]
    return sorted(names)


def test_every_game_publishes_extension_hooks() -> None:
    hooks = extension_hooks()
    assert {h.split("_")[0] for h in hooks} == {"petals", "flowers", "mandala", "flourish"}


def test_every_hook_is_called(hook_calls) -> None:
    plugins = PluginHost(autoload=False)
    for game in sorted(plugins.games):
        plugins.game_ui(game, plugins.ruleset(game))
        variants = [v.name for v in plugins.variants_of(game)]
        for combo in itertools.chain.from_iterable(
                itertools.combinations(variants, k) for k in range(len(variants) + 1)):
            try:
                ruleset = plugins.ruleset(game, list(combo))
            except HedgerowError:  # variants that refuse to be combined
                continue
            low, high = ruleset.player_range
            for players in range(low, high + 1):
                table = play(ruleset, players, seed_from_int(players), [plugins.bot("random")])
                assert table.outcome() is not None
    missing = [name for name in (*HOOKS, *extension_hooks()) if name not in hook_calls.called]
    assert not missing, f"hooks never called: {missing}"


def test_every_gamedef_function_and_setting_is_in_the_contract_table() -> None:
    # a game author reads docs/plugins.md's table of the GameDef, not the source
    text = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`").split("(")[0]
            for line in text.splitlines() if line.startswith("| `")}
    names = {f.name for f in dataclasses.fields(GameDef)} - {"name"}
    assert names <= rows, sorted(names - rows)
    assert all(f"``{n}" in (GameDef.__doc__ or "") for n in names)
