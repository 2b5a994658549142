"""Petals as plugins: registration, extension hooks, and Harmony active only where chosen."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from hedgerow.core import HedgerowError
from hedgerow.core.host import Host
from hedgerow.plugins import petals
from hedgerow.plugins.petals import harmony


def test_game_and_variant_are_registered(host: Host) -> None:
    spec = host.game("petals")
    assert (spec.name, spec.title, spec.version) == ("petals", "Petals", "2.0.0")
    assert (spec.min_players, spec.max_players) == (2, 5) and spec.summary
    assert spec.players_default == 4
    variant = host.variants[("petals", "harmony")]
    assert variant.version == "1.0.0" and variant.summary
    assert variant.impl is not harmony and isinstance(variant.impl, harmony.HarmonyRules)


def test_extension_hooks_are_declared(host: Host) -> None:
    for name in ("petals_winner", "petals_final_scoring"):
        caller = getattr(host.pm.hook, name)
        assert caller.spec is not None and caller.spec.opts["firstresult"]


def test_fingerprints(host: Host) -> None:
    assert host.ruleset("petals").fingerprint == "petals@2.0.0"
    assert host.ruleset("petals", ["harmony"]).fingerprint == "petals@2.0.0+harmony@1.0.0"


def test_player_count_is_checked(host: Host) -> None:
    with pytest.raises(HedgerowError):
        host.ruleset("petals", [], players=6)
    with pytest.raises(HedgerowError):
        host.ruleset("petals", [], players=1)


def test_harmony_module_holds_no_rule_hook() -> None:
    # The module is registered at every table; only HarmonyRules may change the ranking.
    assert not hasattr(harmony, "petals_winner")


def test_rules_import_no_ui_or_network() -> None:
    code = ("import sys, hedgerow.plugins.petals, hedgerow.plugins.petals.harmony;"
            "bad=[m for m in sys.modules if m.split('.')[0] in ('prompt_toolkit','zmq','google')"
            " or m.startswith(('hedgerow.net','hedgerow.clients'))];"
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


FORBIDDEN = {"random", "time", "datetime", "prompt_toolkit", "zmq", "google", "hedgerow.net",
             "hedgerow.clients", "hedgerow.proto"}


@pytest.mark.parametrize("path", sorted(Path(petals.__file__).parent.glob("*.py")),
                         ids=lambda p: p.name)
def test_rules_modules_import_nothing_nondeterministic(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        for name in names:
            assert not any(name == f or name.startswith(f + ".") for f in FORBIDDEN), name
