"""The distribution: every package folder is shipped, and a built wheel holds the whole tree."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP = ("core", "net", "plugins", "proto", "clients")


def _declared() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return set(config["packages"])


def _on_disk() -> set[str]:
    found = set()
    for top in TOP:
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT).parts
            found.add(".".join(("hedgerow", *rel)))
    return found


def test_every_package_folder_is_declared() -> None:
    assert _on_disk() - _declared() == set(), "add these to [tool.setuptools] packages"
    assert _declared() - _on_disk() == set(), "these declared packages have no __init__.py"


@pytest.mark.timeout(300)
def test_wheel_contains_every_module_under_the_hedgerow_namespace(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("hedgerow-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for top in TOP:
        for path in (ROOT / top).rglob("*.py"):
            if "__pycache__" not in path.parts:
                assert "hedgerow/" + str(path.relative_to(ROOT)) in names
    assert "hedgerow/proto/hedgerow.proto" in names
    assert not any(n.startswith(("core/", "tests/", "bench/")) for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert (
        "hedgerow = hedgerow.clients.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    )
