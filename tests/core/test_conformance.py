"""The conformance kit passes good games and catches each kind of broken one."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hedgerow.core.conformance import ConformanceError, check_game
from hedgerow.core.errors import Refusal
from hedgerow.core.ruleset import Ruleset


@pytest.mark.parametrize(
    ("game", "variants", "players"),
    [
        ("posy", [], 2),
        ("posy", [], 4),
        ("posy", ["lowball"], 3),
        ("posy", ["bonus"], 2),
        ("duel", [], 2),
        ("duel", [], 5),
    ],
)
def test_toy_games_conform(toy_host, game: str, variants: list[str], players: int) -> None:
    report = check_game(toy_host.ruleset(game, variants, players), players=players, seeds=range(15))
    assert report.games == 15
    assert report.actions > 0 and report.actions_checked >= report.actions
    assert report.refusals_checked > 0


def _broken(toy_host, **changes) -> Ruleset:
    r = toy_host.ruleset("posy", players=2)
    return Ruleset(r.game, r.variants, replace(r.gamedef, **changes))


def test_catches_a_leaky_view(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)
    leaky = _broken(toy_host, view=lambda s, seat: (r.gamedef.view(s, seat), s.hands))
    with pytest.raises(ConformanceError, match="leaks hidden information"):
        check_game(leaky, players=2, seeds=[1])


def test_catches_a_view_that_is_the_state(toy_host) -> None:
    with pytest.raises(ConformanceError, match="View type"):
        check_game(_broken(toy_host, view=lambda s, seat: s), players=2, seeds=[1])


def test_catches_accepting_any_action(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)

    def lax(state, seat, action):
        if action.kind != "play":
            return state
        return r.gamedef.apply(state, seat, action)

    with pytest.raises(ConformanceError, match="should be refused"):
        check_game(_broken(toy_host, apply=lax), players=2, seeds=[1])


def test_catches_a_game_that_never_ends(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)

    def forever(state, seat, action):
        new = r.gamedef.apply(state, seat, action)
        return new if isinstance(new, Refusal) else replace(new, hands=state.hands, pile=state.pile)

    with pytest.raises(ConformanceError, match="did not end"):
        check_game(_broken(toy_host, apply=forever), players=2, seeds=[1], max_actions=200)


def test_catches_a_broken_invariant(toy_host) -> None:
    def scores_never_move(before, after, seat, action):
        assert before is None or before.scores == after.scores, "scores changed"

    with pytest.raises(ConformanceError, match="scores_never_move: scores changed"):
        check_game(
            toy_host.ruleset("posy", players=2),
            players=2,
            seeds=[1],
            invariants=[scores_never_move],
        )


def test_catches_a_bad_outcome(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)

    def no_winner(state):
        out = r.gamedef.outcome(state)
        return out and replace(out, winners=())

    with pytest.raises(ConformanceError, match="winners"):
        check_game(_broken(toy_host, outcome=no_winner), players=2, seeds=[1])


def test_catches_a_rule_that_raises_instead_of_refusing(toy_host) -> None:
    r = toy_host.ruleset("posy", players=2)

    def strict(state, seat, action):
        if action.kind != "play":
            raise KeyError(action.kind)
        return r.gamedef.apply(state, seat, action)

    with pytest.raises(ConformanceError, match="raised KeyError instead of refusing"):
        check_game(_broken(toy_host, apply=strict), players=2, seeds=[1])
