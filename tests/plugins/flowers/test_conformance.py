"""Seeded random games for 1-4 players, with and without Summer, through the conformance kit.

Invariants (on every applied action): every deck card is in exactly one place (a garden, a
stack, the box, the solo discards, or the hand of the seat about to plant it); each garden
is side-connected and its stored targets are the ones its cards give; a take leaves the
same seat to plant; a planting passes the turn in seat order (or keeps the solo player)
unless a stack is empty; the game is over once a stack is empty and the turn that
emptied it has planted its card; in Summer the
purple card stays visible at (0, 0).
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from hedgerow.core import Action, Rng, SetupContext, Solo
from hedgerow.core.chance import draw_all
from hedgerow.core.conformance import check_game, check_outcome
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.flowers.cards import DECK, PURPLES
from hedgerow.plugins.flowers.garden import Garden, key, side_neighbours, targets
from hedgerow.plugins.flowers.state import OVER, PLANT, TAKE, State

from .conftest import EVERY, SUMMER

#: Kit games per player count (the kit re-deals every seat's hidden cards twice a step, which
#: is most of its time); `test_many_seeded_games_keep_every_invariant` plays many more.
SEEDS = {1: 32, 2: 16, 3: 12, 4: 8}
MANY = 120


def _connected(garden: Garden) -> bool:
    start = min(garden)
    seen, todo = {start}, [start]
    while todo:
        for n in side_neighbours(todo.pop()):
            if n in garden and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(garden)


def invariants(summer: bool):
    coverable = SUMMER if summer else EVERY

    def check(before: State | None, after: State, seat: int, action: Action | None) -> None:
        places = [c for g in after.gardens for s in g.values() for c in s if c in DECK]
        places += [c for s in after.stacks for c in s] + list(after.box) + list(after.discards)
        if after.holding != -1:
            places.append(after.holding)
        assert sorted(places) == list(DECK), "a card is lost or in two places"
        for seat_garden, fringe in zip(after.gardens, after.targets, strict=True):
            assert _connected(seat_garden)
            assert fringe == targets(seat_garden, coverable)
        if summer:
            assert all(g[key(0, 0)] == (PURPLES[i],) for i, g in enumerate(after.gardens))
        empty = not all(after.stacks)
        if after.phase == OVER:
            assert empty
        elif after.phase == TAKE:
            assert not empty
        elif empty:  # the take that emptied a stack: its card is still planted
            assert not after.stacks[after.source]
        if before is None or action is None:
            return
        if action.kind == "take":
            assert after.phase == PLANT and after.active == seat and after.holding != -1
            assert after.source == len(after.stacks) - 1
        else:
            assert sum(map(len, after.gardens[seat].values())) == sum(
                map(len, before.gardens[seat].values())) + 1
            if not empty:
                assert after.phase == TAKE
                assert after.active == (seat + 1) % after.players

    return check


@pytest.mark.parametrize("variants", [(), ("summer",)], ids=["standard", "summer"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_conformance_kit(plugins: PluginHost, players: int, variants: tuple[str, ...]) -> None:
    ruleset = plugins.ruleset("flowers", variants, players=players)
    report = check_game(ruleset, players=players, seeds=range(SEEDS[players]),
                        invariants=[invariants(bool(variants))], exhaustive_steps=4)
    assert report.games == SEEDS[players] and report.chances == SEEDS[players]
    assert report.kinds == (("solo",) if players == 1 else ("ranked",))


@pytest.mark.parametrize("variants", [(), ("summer",)], ids=["standard", "summer"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_many_seeded_games_keep_every_invariant(plugins: PluginHost, players: int,
                                                variants: tuple[str, ...]) -> None:
    """Many more seeds than the kit, straight through the rules: the invariants at every step
    of one game in ten, the end of every game, and a well-formed result.  Uniform picks
    rarely take the face-down card (one action among about 40), so half the games take it a
    third of the time."""
    ruleset = plugins.ruleset("flowers", variants, players=players)
    game = ruleset.gamedef
    check = invariants(bool(variants))
    assert game.resolve is not None
    grades = set()
    for seed in range(MANY):
        state = game.setup(SetupContext(players))
        chance = game.pending_chance(state)
        assert chance is not None
        rng = Rng(seed_from_int(seed), "many")
        state = game.resolve(state, draw_all(rng.fork("deal"), chance))
        check(None, state, -1, None)
        while (seats := game.active_seats(state)):
            (seat,) = seats
            legal = game.legal_actions(state, seat)
            if seed % 2 and legal[-1].kind == "take" and rng.randbelow(3) == 0:
                action = legal[-1]  # half the games take the face-down card a third of turns
            else:
                action = legal[rng.randbelow(len(legal))]
            after = game.apply(state, seat, action)
            assert isinstance(after, State), after
            if seed % 10 == 0:
                check(state, after, seat, action)
            state = after
        check(None, state, -1, None)
        outcome = game.outcome(state)
        check_outcome(outcome, players)
        if seed % 10 == 0:  # the view's full detail agrees with the quick ranking scores
            final = game.view(state, 0).final
            assert outcome is not None and tuple(s.total for s in final) == outcome.scores
            assert dict(outcome.breakdown)["Groups removed"] == tuple(
                len(s.removed) for s in final)
        if isinstance(outcome, Solo):
            grades.add(outcome.grade)
    assert grades <= {"Beginner", "Apprentice", "Expert", "Master"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_ends_when_a_stack_empties_after_that_turn(plugins: PluginHost,
                                                            players: int) -> None:
    ruleset = plugins.ruleset("flowers", players=players)
    game = ruleset.gamedef
    for seed in range(5):
        table = Table(ruleset, players, bytes([seed + 1]) * 8)
        while table.active_seats():
            (seat,) = table.active_seats()
            legal = game.legal_actions(table.state, seat)
            table.play(seat, legal[(seed * 7 + table.index) % len(legal)])
        final = table.state
        assert final.phase == OVER and sum(1 for s in final.stacks if not s) == 1
        moves = [(e.seat, e.action.kind) for e in table.entries if not e.is_chance]
        assert moves[-1][1] == "plant"  # the emptying turn still plants its card
        for (seat, kind), after in pairwise(moves):
            if kind == "take":
                assert after == (seat, "plant")
        plants = [seat for seat, kind in moves if kind == "plant"]  # one a turn
        assert plants == [(plants[0] + i) % players for i in range(len(plants))]
        counts = [plants.count(s) for s in range(players)]
        assert max(counts) - min(counts) <= 1  # no equalising round
