"""The third-party variant example in docs/plugins.md is real code that works as written."""

from __future__ import annotations

import re
import types
from pathlib import Path

from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int

DOC = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"


def _example_module() -> types.ModuleType:
    code = re.search(r"```python\n(# hedgerow_petals_blossom\.py\n.*?)```", DOC.read_text(),
                     re.DOTALL)
    assert code, "docs/plugins.md lost its variant example"
    module = types.ModuleType("hedgerow_petals_blossom")
    exec(compile(code.group(1), str(DOC), "exec"), module.__dict__)
    return module


def test_the_documented_variant_registers_and_decides_the_winner() -> None:
    host = PluginHost(autoload=False, extra=[_example_module()])
    assert [v.name for v in host.variants_of("petals")] == ["blossom", "harmony"]
    ruleset = host.ruleset("petals", ["blossom"], players=3)
    assert ruleset.fingerprint == "petals@2.1.0+blossom@1.0.0"
    outcome = play(ruleset, 3, seed_from_int(4), [host.bot("random")]).outcome()
    assert outcome.explanation.startswith("the highest single tracker wins")
    trackers = dict(outcome.breakdown)
    best = [max(trackers[e][seat] for e in ("Fire", "Water", "Earth", "Air")) for seat in range(3)]
    assert list(outcome.scores) == best
    assert all(best[w] == max(best) for w in outcome.winners)


def test_the_documented_bot_registers_takes_parameters_and_plays() -> None:
    from hedgerow.core.botchoice import resolve
    from hedgerow.core.errors import HedgerowError

    code = re.search(r"```python\n(# hedgerow_cautious\.py\n.*?)```", DOC.read_text(),
                     re.DOTALL)
    assert code, "docs/plugins.md lost its bot example"
    module = types.ModuleType("hedgerow_cautious")
    exec(compile(code.group(1), str(DOC), "exec"), module.__dict__)
    host = PluginHost(autoload=False, extra=[module])
    spec = resolve(host, "cautious:2", "flowers")
    assert spec.params == "2"
    try:
        resolve(host, "cautious:lots", "flowers")
    except HedgerowError as exc:
        assert "expected a number of tries" in str(exc) and "default 8" in str(exc)
    else:
        raise AssertionError("bad parameters were accepted")
    ruleset = host.ruleset("flowers", players=2)
    assert play(ruleset, 2, seed_from_int(1), [spec, host.bot("random")]).outcome()
