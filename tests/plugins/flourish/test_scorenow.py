"""``score``: a seat's points if the game were scored now.

It is the final scoring at the end of every game (every variant, every seat), the worked
examples of the spec where they give points in the middle of a game, the team's total in
the cooperative game, the margin in solo, and the Garden Show's ribbons count in it.
"""

from __future__ import annotations

from typing import Any

import pytest

from hedgerow.core import Cooperative, GameDef, Match, Ranked, Refusal, Rng, Solo
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.flourish.garden_show import KINDS, RIBBON_POINTS
from hedgerow.plugins.flourish.knowledge import chosen_cards
from hedgerow.plugins.flourish.ranking import game_totals
from hedgerow.plugins.flourish.state import FINAL, OVER, Config, GameRecord, State

from .conftest import make_state, ruleset

RUNS = [
    (1, ()),
    (1, ("compost",)),
    (2, ()),
    (3, ("cooperative",)),
    (4, ("compost",)),
    (2, ("garden-show",)),
    (5, ("compost", "cooperative")),
    (7, ()),
]


def expected(state: State, seat: int, variants: tuple[str, ...]) -> int:
    """The seat's figure from a finished table's points, counted by hand."""
    totals = [sum(game_totals(r)[s] for r in state.history) for s in range(state.cfg.gardens)]
    if state.cfg.solo:
        return totals[0] - totals[1]
    if "cooperative" in variants:
        return sum(totals)
    return totals[seat]


def scored_now(state: State, plays: dict[int, tuple[int, ...]]) -> State:
    """The final round's cards laid in the gardens, not scored yet (McGregor's too)."""
    gardens = [g + plays[s] if s in plays else g for s, g in enumerate(state.gardens)]
    mcg = state.mcg
    if state.cfg.solo:
        gardens[1], mcg = gardens[1] + mcg, ()
    return state._replace(gardens=tuple(gardens), mcg=mcg)


@pytest.mark.parametrize(("players", "variants"), RUNS,
                         ids=[f"{p}p-{'+'.join(v) or 'standard'}" for p, v in RUNS])
def test_score_is_the_final_scoring_at_the_end(plugins: PluginHost, players: int,
                                               variants: tuple[str, ...]) -> None:
    rules = ruleset(plugins, *variants, players=players)
    game: GameDef[Any, Any] = rules.gamedef
    assert rules.bots is not None and rules.bots.score is not None
    score = rules.bots.score
    table = Table(rules, players, seed_from_int(3))
    rng = Rng(b"score")
    ends = 0
    while table.active_seats():
        state = table.state
        choices = {}
        for s in table.active_seats():
            legal = game.legal_actions(state, s)
            choices[s] = legal[rng.randbelow(len(legal))]
        if state.turn == FINAL:  # the game ends with this step: score it before it does
            plays = {s: dict(a.args)["play"] for s, a in choices.items()}
            before = [score(scored_now(state, plays), s) for s in range(players)]
        table.submit_step(choices)
        if state.turn == FINAL:
            ends += 1
            assert [score(table.state, s) for s in range(players)] == before
    final = table.state
    assert final.turn == OVER and ends == (3 if "garden-show" in variants else 1)
    outcome = game.outcome(final)
    for seat in range(players):
        figure = score(final, seat)
        assert figure == expected(final, seat, variants)
        if isinstance(outcome, Cooperative):
            assert figure == outcome.total
        elif isinstance(outcome, Solo):
            assert figure == outcome.score
        else:
            assert isinstance(outcome, Ranked | Match) and figure == outcome.scores[seat]


def test_a_choice_inside_a_step_is_not_scored_yet(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=3)
    game, score = rules.gamedef, rules.bots.score if rules.bots else None
    assert score is not None
    table = Table(rules, 3, seed_from_int(5))
    state = table.state
    legal = game.legal_actions(state, 0)
    inside = game.apply(state, 0, legal[0])
    assert not isinstance(inside, Refusal) and chosen_cards(inside.choices[0])
    assert [score(inside, s) for s in range(3)] == [score(state, s) for s in range(3)]


# -- the worked examples (spec §13) ---------------------------------------------------------

ROUND1 = [53, 43, 91]
ROUND2 = [83, 65, 10]
LEFT = [17, 18, 21]


def _score(plugins: PluginHost, state: State, seat: int = 0, *variants: str) -> float:
    bots = ruleset(plugins, *variants, players=state.cfg.players).bots
    assert bots is not None and bots.score is not None
    return bots.score(state, seat)


def test_f1_and_f14_in_the_middle_of_round_one(plugins: PluginHost) -> None:
    # two cards played: the Oak's round-1 ability (1 per green: 2 + 3) would score 5, its
    # end-of-game ability 4 per green Path (the Moss Path); the Moss Path counts the trees
    # of both neighbours (none)
    state = make_state(Config(3), [[], [], []], [[53, 43], [], []], turn=2)
    assert _score(plugins, state) == 5 + 4
    # the Sundial completes round 1 (F1: 5) and adds 9 at the end (a tree)
    state = make_state(Config(3), [[], [], []], [ROUND1, [], []], turn=3)
    state = state._replace(points=((5, 0, 0, 0, 0),) + ((0,) * 5,) * 2)
    assert _score(plugins, state) == 5 + 4 + 9


def test_f1_f2_f3_after_round_two(plugins: PluginHost) -> None:
    # rounds 1 and 2 scored (F1: 5, F2: 18); the end of game as the gardens stand (F3: 21)
    state = make_state(Config(3), [[], [], []], [ROUND1 + ROUND2, LEFT, [44, 1]], turn=6)
    state = state._replace(points=((5, 18, 0, 0, 0),) + ((0,) * 5,) * 2)
    assert _score(plugins, state) == 5 + 18 + 21


def test_f2_in_the_middle_of_round_two(plugins: PluginHost) -> None:
    # round 1 scored (5); round 2's three cards played into a garden of five, scored now
    # as round 2 would score them (F2: 18) plus the end of game (F3 with R = {C01}: the
    # Moss Path counts no tree, so 21 - 3)
    state = make_state(Config(3), [[], [], []], [ROUND1 + ROUND2, LEFT, [1]], turn=5)
    state = state._replace(points=((5, 0, 0, 0, 0),) + ((0,) * 5,) * 2)
    assert _score(plugins, state) == 5 + 18 + 18


def test_f10_two_players_and_the_path_exception(plugins: PluginHost) -> None:
    state = make_state(Config(2), [[], []], [[53, 43], [44, 45]], turn=2)
    # Moss Path: 3 x (1 own tree + 2) = 9; Oak: 1 per green (2 + 3) now and 4 per green Path
    assert _score(plugins, state) == 9 + 5 + 4


def _finished(cfg: Config, totals: list[int]) -> State:
    record = GameRecord(((),) * len(totals), tuple((t, 0, 0, 0, 0) for t in totals),
                        (0,) * cfg.players)
    return make_state(cfg, [()] * cfg.players)._replace(turn=OVER, points=record.points,
                                                        history=(record,))


def test_cooperative_is_the_team_total(plugins: PluginHost) -> None:
    state = _finished(Config(3), [90, 95, 100])  # §13.3: 285, Silver
    assert [_score(plugins, state, s, "cooperative") for s in range(3)] == [285.0] * 3
    assert [_score(plugins, state, s) for s in range(3)] == [90.0, 95.0, 100.0]
    middle = make_state(Config(2), [[], []], [[53, 43], [44, 45]], turn=2)
    assert _score(plugins, middle, 1, "cooperative") == _score(plugins, middle, 0) + _score(
        plugins, middle, 1)


def test_solo_is_your_total_minus_mcgregors(plugins: PluginHost) -> None:
    assert _score(plugins, _finished(Config(1, solo=True), [87, 50])) == 37  # §13.3
    middle = make_state(Config(1, solo=True), [[]], [[53, 43], [44, 45]], turn=2)
    # you as in F10 (18); McGregor: Beech 2 per tree (4), Maple 1 per red (3) and 4 per red
    # Path (none)
    assert _score(plugins, middle) == 18 - (4 + 3)


def test_garden_show_ribbons_count_now(plugins: PluginHost) -> None:
    tree = KINDS.index("tree")
    wall = KINDS.index("wall")
    ribbons = (((tree, False), (wall, False), (0, False)), ((1, False), (2, False), (3, False)),
               ((4, False), (5, False), (6, False)))
    state = make_state(Config(3, games=3), [[], [], []], [[53, 43], [1, 2], [9, 17]], turn=2)
    state = state._replace(extras=ribbons)
    standard = _score(plugins, state)
    # seat 0 wins its tree ribbon (1 tree, the others none) and its green one (5 green
    # against 2 and 0), not its wall ribbon (no walls anywhere: not strictly the most);
    # seat 2 wins none of purple, tree and path
    assert _score(plugins, state, 0, "garden-show") == standard + 2 * RIBBON_POINTS
    assert _score(plugins, state, 2, "garden-show") == _score(plugins, state, 2)


def test_the_remembered_answer_follows_the_points(plugins: PluginHost) -> None:
    state = make_state(Config(3), [[], [], []], [ROUND1, [], []], turn=3)
    first = _score(plugins, state)
    more = state._replace(points=((5, 0, 0, 0, 0),) + ((0,) * 5,) * 2)
    assert _score(plugins, more) == first + 5
    assert _score(plugins, state) == first
