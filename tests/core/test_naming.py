"""`host` names the table's host peer (or a network host), never the plugin host.

The plugin host is ``plugins`` everywhere (issue 28): checked by reading every module's
syntax tree for a parameter annotated as a `PluginHost` and for a name bound to a new
`PluginHost(...)`, under any other name than one that says plugins.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("clients", "net", "core", "plugins", "bench", "tests", "scripts", "docs")


def _mentions_plugin_host(node: ast.expr | None) -> bool:
    if node is None:
        return False
    return any((isinstance(n, ast.Name) and n.id == "PluginHost")
               or (isinstance(n, ast.Attribute) and n.attr == "PluginHost")
               or (isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and "PluginHost" in n.value)
               for n in ast.walk(node))


def _is_new_plugin_host(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and _mentions_plugin_host(node.func)


def offenders() -> list[str]:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            where = path.relative_to(ROOT)
            for node in ast.walk(tree):
                if isinstance(node, ast.arg) and node.arg == "host" and \
                        _mentions_plugin_host(node.annotation):
                    found.append(f"{where}:{node.lineno}: parameter 'host: PluginHost'")
                elif isinstance(node, ast.Assign) and _is_new_plugin_host(node.value):
                    found += [f"{where}:{node.lineno}: host = PluginHost(...)"
                              for target in node.targets
                              if isinstance(target, ast.Name) and target.id == "host"]
    return found


def test_the_plugin_host_is_never_called_host() -> None:
    assert offenders() == []
