"""The conformance kit on Flourish: 1-7 players, every variant and every allowed combination,
seeded random games checked at every step, with Flourish's own invariants (every card in one
place, hand and garden sizes, every seat's memory true, re-deals within it)."""

from __future__ import annotations

import pytest

from hedgerow.core.conformance import check_game
from hedgerow.core.pluginhost import PluginHost

from .conftest import ruleset
from .invariants import check_step

#: (variants, player counts, seeds per count): the standard game gets the most seeds.  With a
#: line tracer over plugins/flourish and core, 3 standard and 2 compost seeds per count reach
#: the very lines that 5 and 3 reach.
RUNS = [
    ((), range(1, 8), 3),
    (("compost",), range(1, 8), 2),
    (("cooperative",), range(2, 8), 2),
    (("garden-show",), range(2, 8), 1),
    (("compost", "cooperative"), range(2, 8), 1),
    (("compost", "garden-show"), (2, 4, 7), 1),
    (("solo",), (1,), 2),
    (("compost", "solo"), (1,), 2),
]
KIND = {(): "ranked", ("compost",): "ranked", ("cooperative",): "cooperative",
        ("garden-show",): "match", ("compost", "cooperative"): "cooperative",
        ("compost", "garden-show"): "match", ("solo",): "solo", ("compost", "solo"): "solo"}


@pytest.mark.parametrize(("variants", "counts", "seeds"), RUNS,
                         ids=["+".join(r[0]) or "standard" for r in RUNS])
def test_conformance(plugins: PluginHost, variants: tuple[str, ...], counts: range,
                     seeds: int) -> None:
    for players in counts:
        rules = ruleset(plugins, *variants, players=players)
        # the first seed tries every legal action of the first step; the others a sample
        first = check_game(rules, players=players, seeds=range(1), invariants=[check_step])
        rest = check_game(rules, players=players, seeds=range(1, seeds),
                          invariants=[check_step], exhaustive_steps=0)
        assert first.games + rest.games == seeds
        want = "solo" if players == 1 else KIND[variants]
        assert set(first.kinds + rest.kinds) == {want}
        steps = first.simultaneous_steps + rest.simultaneous_steps
        games = 3 if "garden-show" in variants else 1
        assert steps == (0 if players == 1 else seeds * 10 * games)
        assert first.actions_checked >= 60 * players  # every action of a whole first step
        if players == 1:  # the deal and McGregor's nine shuffles
            assert first.chances + rest.chances == seeds * 10
