"""Every host hook is a documented contract, listed in docs/plugins.md, and exercised by a test."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from hedgerow.core import hookspecs

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


@pytest.mark.parametrize("name", HOOKS)
def test_hook_is_exercised_by_a_test(name: str) -> None:
    here = Path(__file__).resolve()
    users = [p for p in (ROOT / "tests").rglob("*.py") if p != here and name in p.read_text()]
    assert users, f"no test mentions {name}"
