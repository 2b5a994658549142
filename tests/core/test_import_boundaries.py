"""Imports flow one way: plugins -> core; net -> core, proto; clients -> core, net.

``hedgerow.core`` never imports zmq, protobuf or prompt_toolkit; game plugins never import
the network or the client.  Checked two ways: by importing in a fresh interpreter, and by
reading every module's import statements.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("zmq", "google.protobuf", "prompt_toolkit")

#: package folder -> hedgerow sub-packages it may import
ALLOWED = {
    "core": {"core"},
    "plugins": {"core", "plugins"},
    "proto": {"proto"},
    "net": {"core", "net", "proto"},
    "clients": {"core", "net", "clients"},
}


def test_importing_core_pulls_in_no_io_or_ui_library() -> None:
    modules = sorted(p.stem for p in (ROOT / "core").glob("*.py") if p.stem != "__init__")
    code = "\n".join(
        [
            "import sys",
            *[f"import hedgerow.core.{m}" for m in modules],
            "import hedgerow.core.pluginhost; hedgerow.core.pluginhost.PluginHost(autoload=False)",
            "heavy = ('zmq', 'google', 'prompt_toolkit')",
            "print([m for m in sys.modules if m.split('.')[0] in heavy])",
        ]
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def _hedgerow_imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_flow_one_way(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, name in _hedgerow_imports(path):
            parts = name.split(".")
            if parts[0] == "hedgerow" and len(parts) > 1 and parts[1] not in ALLOWED[package]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
            if (
                package in ("core", "plugins") and name.split(".")[0] in ("zmq", "prompt_toolkit")
            ) or (package in ("core", "plugins") and name.startswith("google.protobuf")):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not bad, "\n".join(bad)


def _client_commands(source: str) -> list[tuple[int, str]]:
    """What a command line starting the client is built from: a string naming the module
    ``hedgerow.clients...`` (docstrings aside), or a list starting with the ``hedgerow``
    command."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docstrings
                and any(w.startswith("hedgerow.clients") for w in node.value.split())):
            found.append((node.lineno, node.value))  # python -m hedgerow.clients...
        elif (isinstance(node, (ast.List, ast.Tuple)) and node.elts
                and isinstance(node.elts[0], ast.Constant) and node.elts[0].value == "hedgerow"):
            found.append((node.lineno, "hedgerow"))  # the console script as argv[0]
    return found


def test_the_client_check_catches_a_command_line() -> None:
    bad = 'import sys\ncmd = [sys.executable, "-m", "hedgerow.clients.cli", "join"]\n'
    assert _client_commands(bad) == [(2, "hedgerow.clients.cli")]
    assert _client_commands('run(["hedgerow", "join", address])') == [(1, "hedgerow")]
    assert _client_commands('"""Started by `hedgerow.clients.spawn`."""') == []


@pytest.mark.parametrize("package", ["core", "plugins", "net", "proto"])
def test_no_layer_below_clients_starts_a_client_process(package: str) -> None:
    """A subprocess running ``hedgerow.clients`` (or the ``hedgerow`` command) is a reverse
    dependency the import check cannot see: only clients/ may build such a command line."""
    bad = [f"{path.relative_to(ROOT)}:{line} names {text!r}"
           for path in sorted((ROOT / package).rglob("*.py"))
           for line, text in _client_commands(path.read_text())]
    assert not bad, "\n".join(bad)


def test_only_the_codec_and_the_log_file_use_the_generated_code() -> None:
    users = sorted(
        str(path.relative_to(ROOT))
        for package in ("core", "net", "clients", "plugins")
        for path in (ROOT / package).rglob("*.py")
        if any("_pb2" in name for _, name in _hedgerow_imports(path))
    )
    assert users in ([], ["net/codec.py"]), users


def test_only_the_host_facade_touches_pm_hook() -> None:
    """Hooks are called through typed `PluginHost` methods (and a table's `ExtensionRelay`)."""
    facade = {"core/pluginhost.py", "core/ruleset.py"}
    users = sorted(
        str(path.relative_to(ROOT))
        for package in ALLOWED
        for path in (ROOT / package).rglob("*.py")
        if ".hook." in path.read_text() and str(path.relative_to(ROOT)) not in facade
    )
    assert users == [], users
