"""The third-party variant example in docs/plugins.md is real code that works as written."""

from __future__ import annotations

import re
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import pytest

from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int

DOC = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"


def _example_module() -> types.ModuleType:
    code = re.search(r"```python\n(# src/hedgerow_petals_blossom/__init__\.py\n.*?)```",
                     DOC.read_text(), re.DOTALL)
    assert code, "docs/plugins.md lost its variant example"
    module = types.ModuleType("hedgerow_petals_blossom")
    exec(compile(code.group(1), str(DOC), "exec"), module.__dict__)
    return module


def test_the_documented_variant_registers_and_decides_the_winner() -> None:
    plugins = PluginHost(autoload=False, extra=[_example_module()])
    assert [v.name for v in plugins.variants_of("petals")] == ["blossom", "harmony"]
    ruleset = plugins.ruleset("petals", ["blossom"], players=3)
    assert ruleset.fingerprint == "petals@2.1.0+blossom@1.0.0"
    outcome = play(ruleset, 3, seed_from_int(4), [plugins.bot("random")]).outcome()
    assert outcome.explanation.startswith("the highest single tracker wins")
    trackers = dict(outcome.breakdown)
    best = [max(trackers[e][seat] for e in ("Fire", "Water", "Earth", "Air")) for seat in range(3)]
    assert list(outcome.scores) == best
    assert all(best[w] == max(best) for w in outcome.winners)


def test_the_documented_variant_tells_the_screens_and_the_bots_its_figure() -> None:
    """It answers ``petals_score_rule``: the bots' score is its figure, not the standard."""
    module = _example_module()
    plugins = PluginHost(autoload=False, extra=[module])
    ruleset = plugins.ruleset("petals", ["blossom"], players=3)
    assert ruleset.ext is not None and ruleset.ext.petals_score_rule() is module.BLOSSOM
    table = play(ruleset, 3, seed_from_int(4), [plugins.bot("random")])
    assert ruleset.bots is not None and ruleset.bots.score is not None
    trackers = table.state.trackers
    assert [ruleset.bots.score(table.state, s) for s in range(3)] == [
        float(max(t)) for t in trackers]
    assert module.BLOSSOM.sum_words(trackers[0]) == str(max(trackers[0]))


@pytest.mark.timeout(300)
def test_the_documented_package_layout_ships_a_second_module(tmp_path: Path) -> None:
    """The pyproject and the src/ layout of docs/plugins.md build a wheel, and a module
    added beside __init__.py is in it (a flat layout refuses a second top-level module)."""
    text = DOC.read_text()
    toml = re.search(r"```toml\n# pyproject.toml of hedgerow-petals-blossom\n(.*?)```", text,
                     re.DOTALL)
    code = re.search(r"```python\n(# src/hedgerow_petals_blossom/__init__\.py\n.*?)```", text,
                     re.DOTALL)
    assert toml and code
    (tmp_path / "pyproject.toml").write_text(toml.group(1))
    package = tmp_path / "src" / "hedgerow_petals_blossom"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(code.group(1))
    (package / "words.py").write_text('"""A second module, added as the package grows."""\n')
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(out), str(tmp_path)], check=True, capture_output=True)
    (wheel,) = out.glob("hedgerow_petals_blossom-1.0.0-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"hedgerow_petals_blossom/__init__.py", "hedgerow_petals_blossom/words.py"} <= names
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "blossom = hedgerow_petals_blossom" in zipfile.ZipFile(wheel).read(entry).decode()


def test_the_documented_bot_registers_takes_parameters_and_plays() -> None:
    from hedgerow.core.botchoice import resolve
    from hedgerow.core.errors import HedgerowError

    code = re.search(r"```python\n(# hedgerow_cautious\.py\n.*?)```", DOC.read_text(),
                     re.DOTALL)
    assert code, "docs/plugins.md lost its bot example"
    module = types.ModuleType("hedgerow_cautious")
    exec(compile(code.group(1), str(DOC), "exec"), module.__dict__)
    plugins = PluginHost(autoload=False, extra=[module])
    spec = resolve(plugins, "cautious:2", "flowers")
    assert spec.params == "2"
    try:
        resolve(plugins, "cautious:lots", "flowers")
    except HedgerowError as exc:
        assert "expected a number of tries" in str(exc) and "default 8" in str(exc)
    else:
        raise AssertionError("bad parameters were accepted")
    ruleset = plugins.ruleset("flowers", players=2)
    assert play(ruleset, 2, seed_from_int(1), [spec, plugins.bot("random")]).outcome()
