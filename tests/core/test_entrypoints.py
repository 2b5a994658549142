"""`hedgerow.core.entrypoints` finds what `importlib.metadata` finds, on real folders of
installed distributions (the interpreter's own and made-up ones), and hands a path it does
not read itself (a zip file) to `importlib.metadata`."""

from __future__ import annotations

import importlib.metadata as metadata
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from hedgerow.core import entrypoints
from hedgerow.core.pluginhost import PluginHost

GROUPS = ("hedgerow", "other", "console_scripts", "pytest11")


def _dist(folder: Path, info: str, meta: str, entry_points: str | None,
          meta_name: str = "METADATA") -> None:
    path = folder / info
    path.mkdir()
    (path / meta_name).write_text(meta)
    if entry_points is not None:
        (path / "entry_points.txt").write_text(textwrap.dedent(entry_points))


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of installed distributions, first on the path, in the shapes found in the
    wild: dist-info and egg-info, a name two distributions declare, comments, extras,
    headers in another case and order, a folded header, no entry points at all."""
    _dist(tmp_path, "Alpha_Plug-1.0.dist-info",
          "Metadata-Version: 2.1\nName: Alpha.Plug\nVersion: 1.0\nSummary: a\n\nName: not me\n",
          """
          # a comment
          [hedgerow]
          alpha = alpha_plug
          shared=alpha_plug.other : obj.attr [extra]

          [other]
          alpha = somewhere:else
          """)
    _dist(tmp_path, "beta-2.0b1.egg-info",
          "metadata-version: 1.1\nversion:   2.0b1  \nname: beta\n",
          "[hedgerow]\nshared = beta\n[console_scripts]\nbeta = beta.cli:main\n",
          meta_name="PKG-INFO")
    _dist(tmp_path, "gamma-0.1.dist-info", "Name: gamma\nVersion: 0.1\n", None)
    _dist(tmp_path, "delta-3.dist-info",
          "Name: delta\nSummary: folded\n  over two lines\nVersion: 3\n",
          "[hedgerow]\n  delta  =  delta.plugin  \n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _folders() -> list[str]:
    """The folders the fast reading reads: the tests call it directly, since a process that
    imported the ``importlib_metadata`` backport (a test dependency may) is answered by
    `importlib.metadata` (the fallback has its own test below)."""
    folders = entrypoints.path_folders()
    assert folders is not None
    return folders


def _slow(group: str) -> list[tuple[str, str, str, str]]:
    return [(ep.name, ep.value, dist.metadata["name"], dist.version)
            for dist in metadata.distributions() for ep in dist.entry_points
            if ep.group == group]


def test_entry_points_are_what_importlib_metadata_finds(site: Path) -> None:
    for group in GROUPS:
        fast = [(f.name, f.value, f.distribution, f.version)
                for f in entrypoints.read_entry_points(group, _folders())]
        assert fast == _slow(group), group
    ours = [(f.name, f.distribution, f.version)
            for f in entrypoints.read_entry_points("hedgerow", _folders())]
    assert sorted(ours[:4]) == [  # in the folder's listing order, as importlib.metadata has it
        ("alpha", "Alpha.Plug", "1.0"),
        ("delta", "delta", "3"),
        ("shared", "Alpha.Plug", "1.0"),
        ("shared", "beta", "2.0b1  "),
    ]


def test_versions_are_what_importlib_metadata_finds(site: Path) -> None:
    names = {dist.metadata["name"] for dist in metadata.distributions()}
    assert {"Alpha.Plug", "beta", "gamma", "delta", "hedgerow", "pluggy"} <= names
    for name in names:
        assert entrypoints.read_version(name, _folders()) == metadata.version(name), name
        assert entrypoints.version(name) == metadata.version(name), name  # either way
    assert entrypoints.read_version("alpha-plug", _folders()) == "1.0"  # normalized, as pip
    assert entrypoints.version("not-installed-anywhere") is None


def test_an_entry_point_loads_its_object(site: Path) -> None:
    (site / "alpha_plug").mkdir()
    (site / "alpha_plug" / "__init__.py").write_text("")
    (site / "alpha_plug" / "other.py").write_text(
        "class obj:\n    attr = 'found'\n")
    found = {f.name: f for f in entrypoints.read_entry_points("hedgerow", _folders())}
    assert found["shared"].load() == "found"
    assert found["alpha"].load() is sys.modules["alpha_plug"]


def test_a_malformed_entry_point_is_one_broken_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _dist(tmp_path, "bent-1.dist-info", "Name: bent\nVersion: 1\n",
          "[hedgerow]\nbent = not a module!\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for extra in ([], [_NoDistributions()]):  # the second only importlib.metadata asks
        monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, *extra])
        assert (entrypoints._plain_path() is None) or not extra
        plugins = PluginHost()
        assert plugins.broken == [("bent", "bent 1: ValueError: malformed entry point "
                                        "'not a module!' (want module or module:attr)")]
        assert "random" in plugins.bots


class _NoDistributions:
    """A meta-path finder that finds no module and no distribution."""

    def find_spec(self, *_args: object) -> None:
        return None

    def find_distributions(self, *_args: object) -> list[object]:
        return []


def test_the_fast_reading_is_used_only_where_it_reads_what_importlib_metadata_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from importlib.machinery import PathFinder

    standard = [f for f in sys.meta_path
                if f is PathFinder or not hasattr(f, "find_distributions")]
    monkeypatch.setattr(sys, "meta_path", standard)
    if hasattr(PathFinder, "find_distributions"):
        assert entrypoints._plain_path() == entrypoints.path_folders() is not None
    else:  # the importlib_metadata backport took the standard finder's place
        assert entrypoints._plain_path() is None
    monkeypatch.setattr(sys, "meta_path", [*standard, _NoDistributions()])
    assert entrypoints._plain_path() is None
    monkeypatch.setattr(sys, "meta_path", [f for f in standard if f is not PathFinder])
    assert entrypoints._plain_path() is None


def test_a_zipped_distribution_is_read_by_importlib_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped_bot-0.2.dist-info/METADATA", "Name: zipped-bot\nVersion: 0.2\n")
        z.writestr("zipped_bot-0.2.dist-info/entry_points.txt", "[hedgerow]\nzbot = zipped_bot\n")
        z.writestr("zipped_bot.py", textwrap.dedent("""
            from hedgerow.core import BotSpec, hookimpl
            from hedgerow.plugins.bots.random_bot import RandomBot

            @hookimpl
            def hedgerow_register_bots(register):
                register(BotSpec("zipped", "0.2.0", RandomBot, summary="from a zip"))
        """))
    monkeypatch.syspath_prepend(str(archive))
    assert entrypoints._plain_path() is None
    assert [(f.name, f.distribution, f.version) for f in entrypoints.entry_points("hedgerow")
            ][:1] == [("zbot", "zipped-bot", "0.2")]
    plugins = PluginHost()
    origin = plugins.origin_of[plugins.bots["zipped"]]
    assert (origin.plugin, origin.distribution, origin.version) == ("zbot", "zipped-bot", "0.2")
