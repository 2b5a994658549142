"""Seeded random games for 2-5 players, with and without Harmony, checked at every step.

Invariants (on every applied action): the garden stays 8-connected; every card is in
exactly one place (pile, a hand, the garden, out of play, set aside, scored directly); the
stored frontier is the garden's; trackers never decrease; a seat with an effect to resolve
stays active, and otherwise play passes in seat order.  At the end: every seat had the same
number of turns, the outcome is well formed, a replay gives the same hash.

Half the seats prefer placements that make symbol pairs, so effects (rare in uniform play)
are exercised by the dozen in every configuration; the test checks each kind of effect
choice was taken.  `SEEDS` games per configuration: with a line tracer over plugins/petals
and core, every line that 40 seeds reach is first reached within the first three seeds of
a configuration, and each configuration has taken every kind of effect choice by its third
game (the rarest, declining an identical-pair effect, comes about once in two games).
"""

from __future__ import annotations

from collections import Counter

import pytest
from gamechecks import redeal

from hedgerow.core import Action, Refusal, Rng
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.petals.geometry import SIDES, connected, frontier, placed
from hedgerow.plugins.petals.state import OVER, State

SEEDS = 20  # games per configuration (see the module docstring for why this many)
TURNS = {2: 15, 3: 9, 4: 7, 5: 6}


def _places(state: State) -> list[int]:
    cards = [v >> 2 for v in state.garden.values()]
    cards += [c for h in state.hands for c in h] + list(state.pile)
    cards += [*state.out_of_play, *state.set_aside]
    cards += [c for h in state.scored_directly for c in h]
    return cards


def check_step(before: State | None, after: State, seat: int, action: Action | None) -> None:
    """Every invariant of the module docstring that holds across one step."""
    assert connected(after.garden), "the garden is not 8-connected"
    cards = _places(after)
    assert sorted(cards) == list(range(1, 39)), Counter(cards).most_common(2)
    assert after.frontier == frontier(after.garden)
    if before is None:
        return
    n = after.players
    for old, new in zip(before.trackers, after.trackers, strict=True):
        assert all(b >= a for a, b in zip(old, new, strict=True)), "a tracker went down"
    if after.pending is not None:
        assert after.active == seat, "the turn ended before its effect was resolved"
        assert action is not None and action.kind == "place"
    elif after.phase != OVER:
        assert after.active == (seat + 1) % n
        if after.phase == "play":
            assert all(len(h) == 2 for h in after.hands)


def _triggers(state: State, action: Action) -> bool:
    """Does this placement make a symbol pair (cheaply, without applying it)?"""
    sides = SIDES[placed(action["card"], action["rot"])]
    x, y = action["x"], action["y"]
    for side, cell in enumerate(((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y))):
        other = state.garden.get(cell)
        if other is not None and not sides[side] & 3 and not SIDES[other][side ^ 2] & 3:
            return True
    return False


def play_checked(ruleset, players: int, seed: int, kinds: Counter[str]) -> Table:
    """One random game through the table, checking everything at every step."""
    game = ruleset.gamedef
    table = Table(ruleset, players, seed_from_int(seed))
    rng = Rng(seed_from_int(seed), "petals-test")
    check_step(None, table.state, -1, None)
    log = []
    while table.active_seats():
        state = table.state
        (seat,) = table.active_seats()
        legal = game.legal_actions(state, seat)
        assert len(legal) > 0
        full = state.pending is None or table.index % 5 == 0
        if full:  # list everything: no duplicates, lazy and listed forms agree
            listed = list(legal)
            assert len(listed) == len(legal) and len(set(listed)) == len(listed)
            assert all(a in legal for a in listed[:: max(1, len(listed) // 7)])
            assert legal == listed and legal[-1] == listed[-1] and legal[:3] == listed[:3]
        for other in range(players):
            assert (game.legal_actions(state, other) == ()) == (other != seat)
            seen = game.view(state, other)
            assert game.view(redeal(ruleset, state, other, rng.fork("det")), other) == seen
        if state.pending is None:
            if seat % 2 == 0:
                listed = [a for a in listed if _triggers(state, a)] or listed
            action = listed[rng.randbelow(len(listed))]
        elif rng.randbelow(3) == 0:  # score or decline, the one choice that is not a move
            action = legal[0] if state.pending.kind == "different" else legal[-1]
        else:
            action = legal[rng.randbelow(len(legal))]
            assert action in legal
        if state.pending is not None:
            kinds[f"{state.pending.kind}:{action.kind}"] += 1
        assert game.describe(state, seat, action)
        entry = table.submit(seat, action)
        assert not isinstance(entry, Refusal), entry
        check_step(state, table.state, seat, action)
        log.append((seat, action))
    counts = Counter(seat for seat, a in log if a.kind == "place")
    assert counts == {s: TURNS[players] for s in range(players)}
    outcome = table.outcome()
    assert outcome is not None and outcome.winners
    assert set(outcome.winners).isdisjoint(outcome.eliminated)
    assert [c for c, _ in outcome.breakdown][:4] == ["Fire", "Water", "Earth", "Air"]
    assert [e.seat for e in table.entries if e.is_chance] == [-1]  # the deal, entry #0
    assert [(e.seat, e.action) for e in table.entries[1:]] == log
    replayed = Table.replay(ruleset, players, seed_from_int(seed),
                            [(e.seat, e.action) for e in table.entries])
    assert replayed.state_hash() == table.state_hash()
    return table


@pytest.mark.parametrize("variants", [(), ("harmony",)], ids=["standard", "harmony"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(plugins: PluginHost, players: int,
                                           variants: tuple[str, ...]) -> None:
    ruleset = plugins.ruleset("petals", variants, players=players)
    kinds: Counter[str] = Counter()
    for seed in range(SEEDS):
        play_checked(ruleset, players, seed, kinds)
    assert kinds["different:move"] and kinds["different:score"], kinds
    assert kinds["identical:move"] and kinds["identical:decline"], kinds


def test_core_conformance_kit(plugins: PluginHost) -> None:
    conformance = pytest.importorskip("hedgerow.core.conformance")
    for variants in ((), ("harmony",)):
        for players in (2, 3, 4, 5):
            ruleset = plugins.ruleset("petals", variants, players=players)
            conformance.check_game(ruleset, players=players, seeds=range(6),
                                   invariants=[check_step])
