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


def _generated_modules_used(path: Path) -> set[str]:
    """The ``*_pb2`` modules ``path`` imports (``import x_pb2``, ``from ... import x_pb2``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name.rsplit(".", 1)[-1] for a in node.names if "_pb2" in a.name}
        elif isinstance(node, ast.ImportFrom) and node.module:
            if "_pb2" in node.module:
                found.add(node.module.rsplit(".", 1)[-1])
            found |= {a.name for a in node.names if "_pb2" in a.name}
    return found


def test_only_the_codecs_use_the_generated_code() -> None:
    """Tables' messages go through `hedgerow.net.codec`, the shared leaderboard's through
    `hedgerow.net.boardwire` (its own envelope, proto/board.proto)."""
    users = {
        str(path.relative_to(ROOT)): used
        for package in ("core", "net", "clients", "plugins")
        for path in sorted((ROOT / package).rglob("*.py"))
        if (used := _generated_modules_used(path))
    }
    assert users == {"net/boardwire.py": {"board_pb2"}, "net/codec.py": {"hedgerow_pb2"}}, users


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


# -- no import circle at run time -----------------------------------------------------------

def _modules() -> dict[str, Path]:
    """The installed package's modules: dotted name -> file."""
    found = {}
    for package in ALLOWED:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(["hedgerow", *parts])] = path
    return found


def _run_time_imports(source: str, modules: set[str]) -> set[str]:
    """The project's modules ``source`` imports when it runs: every import statement,
    those inside functions included, but not those under ``if TYPE_CHECKING:`` (never
    run).  ``from package import module`` imports that module (the package's own
    ``__init__`` is loaded first by any import of it, and is not counted as an edge)."""
    tree = ast.parse(source)
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test).endswith("TYPE_CHECKING")
        for statement in block.body for node in ast.walk(statement)
    }
    names = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in modules
                      else node.module for alias in node.names]
    found = set()
    for name in names:
        while name and name not in modules:  # a name inside a module: the module
            name = name.rpartition(".")[0]
        if name:
            found.add(name)
    return found


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other, directly or round about (the strongly
    connected components of ``graph`` with more than one module, or a module importing
    itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]  # an explicit stack: no recursion limit
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, todo = work[-1]
            child = next(todo, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in graph.get(node, ()):
                    circles.append(sorted(group))
    return circles


def test_the_circle_check_finds_a_circle_however_it_is_imported() -> None:
    modules = {"hedgerow.a", "hedgerow.b", "hedgerow.c", "hedgerow.p", "hedgerow.p.m"}
    lazy = "def f():\n    from hedgerow.b import thing\n"
    hidden = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import hedgerow.a\n"
    assert _run_time_imports(lazy, modules) == {"hedgerow.b"}  # inside a function: counts
    assert _run_time_imports(hidden, modules) == set()  # for the type checker only
    assert _run_time_imports("from hedgerow.p import m\n", modules) == {"hedgerow.p.m"}
    graph = {"hedgerow.a": {"hedgerow.b"}, "hedgerow.b": {"hedgerow.c"},
             "hedgerow.c": {"hedgerow.a"}, "hedgerow.p": {"hedgerow.p.m"}, "hedgerow.p.m": set()}
    assert import_circles(graph) == [["hedgerow.a", "hedgerow.b", "hedgerow.c"]]
    assert import_circles({"hedgerow.a": {"hedgerow.a"}}) == [["hedgerow.a"]]


def test_no_import_circle_among_the_modules_at_run_time() -> None:
    """No module imports, directly or through others, one that imports it: not even inside a
    function, where a circle hides until that function first runs."""
    modules = _modules()
    graph = {name: _run_time_imports(path.read_text(), set(modules)) - {name}
             for name, path in modules.items()}
    circles = import_circles(graph)
    assert not circles, "\n".join(" <-> ".join(group) for group in circles)
