"""What ``hedgerow games`` and ``hedgerow --help`` import in a fresh interpreter.

The start-up figures live in bench/startup.py and bench/README.md; this guards the cuts
they rest on without timing anything: listing the catalogue loads every plugin and scans
the installed distributions, but no network, terminal, cluster or seat-client code, and
not `importlib.metadata` (with the ``email``/``zipfile`` packages it brings in).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

#: Never imported by ``hedgerow games``: the wire, the terminal, LAN discovery, the cluster,
#: the seat client's screens, the games' rules and bot support (read when a table is
#: built: ``GameSpec.build`` and ``GameSpec.bots`` import them), and the slow way to read
#: installed distributions.
NOT_FOR_GAMES = (
    "zmq", "google.protobuf", "prompt_toolkit", "zeroconf", "nacl", "dask", "distributed",
    "hedgerow.net", "hedgerow.proto", "hedgerow.clients.app",
    "hedgerow.plugins.flowers.ui", "hedgerow.plugins.mandala.ui",
    "hedgerow.plugins.flourish.ui",
    *(f"hedgerow.plugins.{game}.{part}" for game in ("petals", "flowers", "mandala", "flourish")
      for part in ("game", "bots")),
    "importlib.metadata", "email", "zipfile",
)

_RUN = """
import sys
from hedgerow.clients.cli import main
try:
    sys.exit(main(sys.argv[1:]))
finally:  # also after --help, which exits through argparse
    sys.stdout.flush()
    print("MODULES", *sorted(sys.modules), file=sys.stderr)
"""


def _fresh(*args: str, env: dict[str, str] | None = None) -> tuple[str, set[str]]:
    """``hedgerow ARGS`` in a new interpreter, third-party plugins loaded from the path as
    for a user: its output and the modules it imported."""
    full = {k: v for k, v in os.environ.items() if k != "HEDGEROW_DISABLE_PLUGIN_AUTOLOAD"}
    out = subprocess.run([sys.executable, "-c", _RUN, *args], capture_output=True, text=True,
                         env={**full, **(env or {})}, timeout=120)
    assert out.returncode == 0, out.stderr
    line = next(ln for ln in out.stderr.splitlines() if ln.startswith("MODULES "))
    return out.stdout, set(line.split()[1:])


def _imported(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_games_imports_no_network_ui_or_metadata_code_and_still_lists_third_parties(
    tmp_path: Path,
) -> None:
    # a third-party plugin installed the usual way: a module and its dist-info on the path
    (tmp_path / "hedgerow_lean.py").write_text(textwrap.dedent("""
        from hedgerow.core import BotSpec, hookimpl
        from hedgerow.plugins.bots.random_bot import RandomBot

        @hookimpl
        def hedgerow_register_bots(register):
            register(BotSpec("lean", "0.4.0", RandomBot, summary="a third party's bot"))
    """))
    info = tmp_path / "hedgerow_lean-0.4.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hedgerow-lean\nVersion: 0.4\n")
    (info / "entry_points.txt").write_text("[hedgerow]\nlean = hedgerow_lean\n")
    out, modules = _fresh("games", env={"PYTHONPATH": str(tmp_path)})
    assert _imported(modules, NOT_FOR_GAMES) == []
    assert "hedgerow_lean" in modules and "hedgerow.plugins.flourish" in modules
    assert "lean         0.4.0  a third party's bot (any game)  [hedgerow-lean 0.4]" in out
    for game in ("petals", "flowers", "mandala", "flourish"):
        assert f"\n  {game} " in out
    assert "[hedgerow " in out  # the built-ins with this distribution's version


def test_games_imports_the_plugin_modules_and_none_of_their_rules() -> None:
    # Each built-in plugin module, its game's extension hookspecs and Mandala's draw rule
    # (a small record its hookspec returns), and nothing else of the plugins: the standard
    # rules their hooks call load at a table's first call (`rules_module`), the UI objects
    # when a seat client asks.
    from hedgerow.core.pluginhost import DEFAULT_PLUGINS

    _, modules = _fresh("games")
    allowed = {"hedgerow.plugins", "hedgerow.plugins.bots", "hedgerow.plugins.mandala.drawing",
               *(module for _, module in DEFAULT_PLUGINS),
               *(f"hedgerow.plugins.{game}.hookspecs"
                 for game in ("petals", "flowers", "mandala", "flourish"))}
    assert sorted(m for m in modules if m.startswith("hedgerow.plugins")
                  and m not in allowed) == []
    assert _imported(modules, ("hedgerow.core.ui", "hedgerow.core.ranking")) == []


def test_a_game_spec_states_the_player_counts_its_setup_checks() -> None:
    # The plugin modules write the counts out (reading them from `setup` would load the
    # rules with the plugin); these must stay the ones the rules enforce.
    from hedgerow.plugins import flourish, flowers, mandala, petals
    from hedgerow.plugins.flourish import setup as flourish_setup
    from hedgerow.plugins.flowers import setup as flowers_setup
    from hedgerow.plugins.mandala import setup as mandala_setup
    from hedgerow.plugins.petals import setup as petals_setup

    for plugin, setup in ((petals, petals_setup), (flowers, flowers_setup),
                          (mandala, mandala_setup), (flourish, flourish_setup)):
        assert (plugin.SPEC.min_players, plugin.SPEC.max_players) == (
            setup.MIN_PLAYERS, setup.MAX_PLAYERS), plugin.SPEC.name


def test_help_imports_no_plugin_and_not_the_plugin_host() -> None:
    out, modules = _fresh("--help")
    assert "COMMAND" in out
    assert _imported(modules, ("pluggy", "hedgerow.core", "hedgerow.plugins",
                               *NOT_FOR_GAMES)) == []
