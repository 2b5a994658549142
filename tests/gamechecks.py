"""Checks every game plugin's tests share (importable as ``gamechecks``: tests/conftest.py
puts tests/ on ``sys.path``).

* `applied` / `refused`: apply an action that must be legal (or must be refused);
* `redeal`: a state a seat cannot tell from the real one, dealt from its view by the game's
  bot support (``BotSupport.sample``);
* `simulate`: ``hedgerow simulate <game> ... --json`` in a fresh process with a given hash
  seed, its records (for reproducibility across processes);
* `assert_rules_import_no_ui_or_network`: importing the rules in a fresh interpreter pulls
  in no UI, network or protobuf module;
* `assert_imports_nothing_nondeterministic`: a rules module's own import statements name
  nothing random, timed, or of the UI and network (`FORBIDDEN`);
* `assert_rules_leave_bots_alone`: no module of a game's rules imports its bot support
  (``<game>.bots``), which only the plugin module (``<game>/__init__.py``) names.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hedgerow.core import Action, Refusal, Rng
from hedgerow.core.ruleset import Ruleset

#: What a rules module may not import (nor any module below these).
FORBIDDEN = frozenset({"random", "time", "datetime", "prompt_toolkit", "zmq", "google",
                       "hedgerow.net", "hedgerow.clients", "hedgerow.proto"})


def applied(ruleset: Ruleset, state: Any, seat: int, action: Action, *,
            listed: bool = False) -> Any:
    """Apply an action that must be legal (and, when ``listed``, listed by legal_actions)."""
    if listed:
        assert action in ruleset.gamedef.legal_actions(state, seat), action
    result = ruleset.gamedef.apply(state, seat, action)
    assert not isinstance(result, Refusal), result
    return result


def refused(ruleset: Ruleset, state: Any, seat: int, action: Action) -> Refusal:
    """Apply an action that must be refused (and is not listed by legal_actions)."""
    assert action not in ruleset.gamedef.legal_actions(state, seat), action
    result = ruleset.gamedef.apply(state, seat, action)
    assert isinstance(result, Refusal), result
    return result


def redeal(ruleset: Ruleset, state: Any, seat: int, rng: Rng) -> Any:
    """A state ``seat`` cannot tell from ``state``: its view sampled by the bot support."""
    assert ruleset.bots is not None
    return ruleset.bots.sample(ruleset.gamedef.view(state, seat), seat, rng)


def simulate(game: str, *args: str, hash_seed: str,
             env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """``hedgerow simulate game *args --json`` in a new process with ``PYTHONHASHSEED`` set
    to ``hash_seed`` (and ``env`` on top of this process's environment): its records."""
    done = subprocess.run(
        [sys.executable, "-m", "hedgerow.clients.cli", "simulate", game, *args, "--json"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONHASHSEED": hash_seed, **(env or {})},
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def assert_rules_import_no_ui_or_network(*modules: str) -> None:
    """Importing ``modules`` in a fresh interpreter loads no UI, network or protobuf module
    (prompt_toolkit, zmq, google, hedgerow.net, hedgerow.clients)."""
    code = (f"import sys, {', '.join(modules)};"
            "bad=[m for m in sys.modules if m.split('.')[0] in ('prompt_toolkit','zmq','google')"
            " or m.startswith(('hedgerow.net','hedgerow.clients'))];"
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def rules_modules(package: Any) -> list[Path]:
    """The modules of a plugin package (``package`` as imported) and of its sub-packages (its
    bot support), sorted (for parametrize)."""
    return sorted(Path(package.__file__).parent.rglob("*.py"))


def assert_rules_leave_bots_alone(package: Any) -> None:
    """No module of ``package``'s rules imports its bot support package (``.bots``): only
    the plugin module itself (``__init__.py``, which registers both) and the bot support's
    own modules name it."""
    root = Path(package.__file__).parent
    bots = f"{package.__name__}.bots"
    for path in sorted(root.glob("*.py")):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if isinstance(node, ast.ImportFrom) and node.module == package.__name__:
                names += [f"{package.__name__}.{a.name}" for a in node.names]
            for name in names:
                assert not (name == bots or name.startswith(bots + ".")), (
                    f"{path.name} (rules) imports the bot support {name}")


def assert_imports_nothing_nondeterministic(path: Path, *, docstring: bool = True) -> None:
    """The module at ``path`` imports nothing `FORBIDDEN` (and, when ``docstring``, has a
    module docstring saying what it owns)."""
    tree = ast.parse(path.read_text())
    if docstring:
        assert ast.get_docstring(tree), f"{path.name} needs a docstring saying what it owns"
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        for name in names:
            assert not any(name == f or name.startswith(f + ".") for f in FORBIDDEN), name
