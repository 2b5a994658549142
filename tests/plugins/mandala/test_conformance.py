"""Seeded random games for 2-4 players, with and without Draw four, checked at every step.

Invariants (after every applied action and chance entry): all 90 cards are somewhere
(hands, deck, discard pile, mandalas) and all 36 tiles are somewhere (stacks, mandalas, in
front of players), each once; every hand holds at least one card (the keep-one rule); known
cards are in their hand; each mandala's colour set, totals and face-up counts agree with
its tiles and plays; a face-down play's colour was present, a face-up one's was not; the
claim holder is eligible and no eligible seat has more cards on that mandala (spec §6);
a mandala with an eligible seat is claimed; an open mandala is never complete outside the
tile choice.  The core conformance kit checks the contract itself (views and legal actions
unchanged across re-deals, refusals, chance entries, replay).

`SEEDS` random games per configuration: with a line tracer over plugins/mandala and core,
the 15 reach every line that 30 reach but four, the dead ends of the bots' sampler's
colouring search (plugins/mandala/bots/colouring.py), which
tests/plugins/mandala/test_sample.py takes on purpose, at a fraction of the cost.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from gamechecks import redeal

from hedgerow.core import Action, Refusal, Rng
from hedgerow.core.conformance import check_game
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.mandala.cards import CARDS, TILES, tile_colour
from hedgerow.plugins.mandala.claims import is_complete
from hedgerow.plugins.mandala.state import CHOOSE, DEAL, State

VARIANTS = [(), ("draw-four",)]
SEEDS = 15  # random games per configuration (see the module docstring for why this many)


def _cards(state: State) -> Counter[int]:
    total: Counter[int] = Counter(state.deck)
    for counts in (*state.hands, state.discard):
        for colour, n in enumerate(counts):
            total[colour] += n
    for m in state.mandalas:
        for p in m.plays:
            total[p.colour] += p.cards
    return total


def check_state(before: Any, after: State, seat: int, action: Action | None) -> None:
    """Every invariant of the module docstring."""
    if after.phase == DEAL:
        return
    assert _cards(after) == Counter(CARDS), "a card was lost or made up"
    held = [*after.dark, *after.light, *(t for h in after.tiles for t in h)]
    held += [t for m in after.mandalas for t in m.tiles]
    assert sorted(held) == list(TILES), "a tile was lost or made up"
    for h, k in zip(after.hands, after.known, strict=True):
        assert sum(h) >= 1, "a hand is empty"
        assert all(a >= b >= 0 for a, b in zip(h, k, strict=True)), "known cards not in hand"
    for i, m in enumerate(after.mandalas):
        present = 0
        for tile in m.tiles:
            present |= 1 << tile_colour(tile)
        totals, ups = [0] * after.players, [0] * after.players
        for p in m.plays:
            assert p.up == (not p.present >> p.colour & 1), "a play lies the wrong way"
            assert p.present & present == present, "the colour set shrank"
            present |= (1 << p.colour) if p.up else 0
            totals[p.seat] += p.cards
            ups[p.seat] += p.cards if p.up else 0
        assert (m.present, m.totals, m.ups) == (present, tuple(totals), tuple(ups))
        if not m.tiles:
            assert m.plays == () and m.claim == -1
        eligible = [s for s in range(after.players) if m.ups[s] >= 1]
        if eligible:
            assert m.claim in eligible, "an eligible seat but no eligible holder"
            assert all(m.totals[s] <= m.totals[m.claim] for s in eligible)
        else:
            assert m.claim == -1
        if is_complete(m.present):
            assert after.phase == CHOOSE and after.at == i


@pytest.mark.parametrize("variants", VARIANTS, ids=["standard", "draw-four"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_core_conformance_kit(plugins: PluginHost, players: int, variants: tuple[str, ...]) -> None:
    ruleset = plugins.ruleset("mandala", variants, players=players)
    report = check_game(ruleset, players=players, seeds=range(4), invariants=[check_state])
    assert report.games == 4 and report.kinds == ("ranked",)
    assert report.chances >= 4


@pytest.mark.parametrize("variants", VARIANTS, ids=["standard", "draw-four"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(plugins: PluginHost, players: int,
                                           variants: tuple[str, ...]) -> None:
    """Many more seeds through the table: the invariants after every entry, views against
    states dealt from them now and then, and the ways games end."""
    ruleset = plugins.ruleset("mandala", variants, players=players)
    game = ruleset.gamedef
    assert ruleset.bots is not None
    endings: Counter[str] = Counter()
    reshuffles = choices = 0
    for n in range(SEEDS):
        seed = seed_from_int(1000 + n)
        table = Table(ruleset, players, seed)
        rng = Rng(seed, "mandala-test")
        check_state(None, table.state, -1, None)
        while active := table.active_seats():
            state = table.state
            (seat,) = active
            legal = game.legal_actions(state, seat)
            if table.index % 9 == 0:
                for other in range(players):
                    redealt = redeal(ruleset, state, other, rng.fork(str(table.index)))
                    assert game.view(redealt, other) == game.view(state, other)
            result = table.submit(seat, legal[rng.randbelow(len(legal))])
            assert not isinstance(result, Refusal), result
            check_state(state, table.state, seat, None)
        endings[table.state.ended.split(" ")[-1]] += 1
        reshuffles += sum(1 for e in table.entries if e.is_chance) - 1
        choices += sum(1 for e in table.entries if e.action.kind == "take")
        outcome = table.outcome()
        assert outcome is not None and outcome.winners
    assert reshuffles > 0 and choices > 0, (reshuffles, choices)
    assert endings["flowers"] > SEEDS // 2, endings
