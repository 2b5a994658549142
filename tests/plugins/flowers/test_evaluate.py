"""``evaluate``: FLOWERS' judgement of a position for bots
(`hedgerow.plugins.flowers.bots.evaluate`).

Once nothing is left to come it is ``score``; while the game goes on it ranks half-built
positions the way a player would (a group being built is not a group removed, unless it is
boxed in or out of time; a colour patch about to score, a butterfly with room for a partner
are worth something, under Summer only where the patch can reach the purple card); it is
deterministic and never raises on the states a bot samples, in every variant.  What it
remembers (gardens by identity, contents least recently used first) and the standard colour
rule called without the hook never change an answer.
"""

from __future__ import annotations

import math

import pytest

from hedgerow.core import Rng, SetupContext
from hedgerow.core.chance import draw_all
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.plugins.flowers.bots import colour_rule
from hedgerow.plugins.flowers.bots import evaluate as evaluate_module
from hedgerow.plugins.flowers.bots.evaluate import Outlook, judge, outlook, turns_left
from hedgerow.plugins.flowers.game import bind
from hedgerow.plugins.flowers.garden import Garden
from hedgerow.plugins.flowers.scoring import ColourPoints, score_garden, standard_colour_points
from hedgerow.plugins.flowers.state import OVER, State
from hedgerow.plugins.flowers.summer import summer_colour_points

from .conftest import SUMMER, grid, make_state

VARIANTS = [(), ("summer",)]

def _stacks(size: int) -> tuple[tuple[int, ...], ...]:
    """Three stacks of ``size`` cards (their identity does not matter to ``evaluate``)."""
    return tuple(tuple(range(20 * i, 20 * i + size)) for i in range(3))


def _judge(ruleset: Ruleset, rows: list[str], size: int = 20,
           coverable: tuple[bool, ...] | None = None) -> tuple[float, float]:
    """(evaluate, score) of seat 0 whose garden is ``rows``, two players, stacks of ``size``."""
    bots = ruleset.bots
    assert bots.evaluate is not None and bots.score is not None
    garden = grid(*rows)
    other = grid("B1")
    kwargs = {} if coverable is None else {"coverable": coverable}
    state = make_state((garden, other), _stacks(size), **kwargs)
    return bots.evaluate(state, 0), bots.score(state, 0)


def _games(ruleset: Ruleset, players: int, games: int):
    """Every state of ``games`` seeded random games, the final one included."""
    game = ruleset.gamedef
    for seed in range(games):
        rng = Rng(seed_from_int(seed), "evaluate-test")
        state = game.setup(SetupContext(players))
        chance = game.pending_chance(state)
        assert chance is not None and game.resolve is not None
        state = game.resolve(state, draw_all(rng.fork("deal"), chance))
        while True:
            yield state
            seats = game.active_seats(state)
            if not seats:
                break
            legal = game.legal_actions(state, seats[0])
            after = game.apply(state, seats[0], legal[rng.randbelow(len(legal))])
            assert isinstance(after, State), after
            state = after


# -- nothing left to come ------------------------------------------------------------------


@pytest.mark.parametrize("variants", VARIANTS, ids=["standard", "summer"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_once_the_game_is_over_evaluate_is_the_score(plugins: PluginHost, players: int,
                                                     variants: tuple[str, ...]) -> None:
    ruleset = plugins.ruleset("flowers", variants, players=players)
    game = ruleset.gamedef
    bots = ruleset.bots
    assert bots.evaluate is not None and bots.score is not None
    rule = summer_colour_points if variants else standard_colour_points
    ends = 0
    for step, state in enumerate(_games(ruleset, players, 2)):
        seat = step % players  # along the way, the score now is the score, too
        assert outlook(state.gardens[seat], rule).now == bots.score(state, seat)
        if state.phase == OVER:
            ends += 1
            outcome = game.outcome(state)
            assert outcome is not None
            for seat in range(players):
                assert bots.evaluate(state, seat) == bots.score(state, seat)
                assert turns_left(state, seat) == 0
    assert ends == 2


def test_with_no_turn_left_every_term_but_the_score_vanishes() -> None:
    """The garden-only judgement with 0 turns left is the final score, whatever it holds: live
    groups cost their full removal, patches and butterflies promise nothing."""
    for rows in (["B4 B4 B4", "Y3 Y3 ."], ["Y4g R1 R2 R2"], ["G1 G3 G3 G3 G2"],
                 ["R3 R3 R3 R1 R2 R2"], ["Y2/R4 Y3 Y3 Y3"]):
        garden = grid(*rows)
        assert judge(outlook(garden, standard_colour_points), 0) == score_garden(garden).total


# -- half-built positions, ordered as a player would order them ------------------------------


def test_a_group_being_built_is_not_a_group_removed(standard: Ruleset) -> None:
    """Three 4s early on: ``score`` removes them (-3); ``evaluate`` sees one 4 missing."""
    value, score = _judge(standard, ["B4 R4 G4"])
    assert score == -3
    assert -1 < value < 0


def test_closer_to_complete_is_better(standard: Ruleset) -> None:
    """Of the same four cards, a group of 3s lacking one card beats two lone starts."""
    three, _ = _judge(standard, ["Y3 Y3 R1", ". . ."])
    apart, _ = _judge(standard, ["Y3 R1 Y3", ". . ."])
    assert three > apart


def test_a_boxed_in_group_is_as_bad_as_its_removal(standard: Ruleset) -> None:
    """Two 3s walled in by valid pairs of 2s and lone 1s cannot grow: they cost their
    removal, as in ``score``; with one side open they are a group in the making."""
    boxed = [". G2 G2 .", "B1 Y3 Y3 R1", ". G2 G2 ."]
    open_ = [". G2 G2 .", "B1 Y3 Y3 .", ". G2 G2 ."]
    boxed_value, boxed_score = _judge(standard, boxed)
    open_value, open_score = _judge(standard, open_)
    assert boxed_score == open_score == -2
    assert boxed_value < open_value
    seen = outlook(grid(*boxed), standard_colour_points)
    assert seen.pending == () and seen.now == seen.hoped == -2


def test_a_free_side_that_would_join_another_group_is_no_room(standard: Ruleset) -> None:
    """A pair of 3s whose only free side touches a finished trio of 3s: a 3 there would
    make a group of six, so the pair cannot grow."""
    rows = [". G2 G2 . B3", "B1 Y3 Y3 . B3", ". G2 G2 . B3"]
    seen = outlook(grid(*rows), standard_colour_points)
    assert seen.pending == () and seen.now == seen.hoped == -2
    rows = [". G2 G2 .", "B1 Y3 Y3 .", ". G2 G2 ."]  # no trio beside it: room to grow
    assert outlook(grid(*rows), standard_colour_points).pending == ((1, 2),)


def test_the_same_group_is_worth_less_as_the_stacks_run_out(standard: Ruleset) -> None:
    early, score = _judge(standard, ["B4 B4 G1"], size=20)
    late, _ = _judge(standard, ["B4 B4 G1"], size=3)
    last, _ = _judge(standard, ["B4 B4 G1"], size=1)
    assert early > late > last
    assert last == score  # about one turn left and two 4s missing: as good as removed


def test_a_patch_about_to_score_is_worth_something(standard: Ruleset) -> None:
    """Four reds in valid groups beat the same numbers in four colours (both score 0)."""
    red, red_score = _judge(standard, ["R1 R2 R2 R1"])
    mixed, mixed_score = _judge(standard, ["R1 B2 G2 Y1"])
    assert red_score == mixed_score == -2 + 2  # the 2s are a valid pair: 0 both
    assert red > mixed


def test_a_butterfly_with_room_for_its_colour_is_worth_something(standard: Ruleset) -> None:
    lone, lone_score = _judge(standard, ["Y4g Y4 Y4 Y4", "R1 . . ."])
    plain, plain_score = _judge(standard, ["Y4 Y4 Y4 Y4", "R1 . . ."])
    assert lone_score == plain_score
    assert lone > plain


def test_summer_credits_a_patch_only_where_it_can_reach_the_purple_card() -> None:
    """Under Summer a patch scores only touching the purple card: the reds right beside it
    are promising, the same reds far from it are not; the standard rule credits both."""
    near = grid("P R1 R2 R2 R1")
    far = grid("P G1 B3 B3 B3 R1 R2 R2 R1")
    assert outlook(near, summer_colour_points).patches == ((1, 4),)
    assert outlook(far, summer_colour_points).patches == ()
    assert (1, 4) in outlook(far, standard_colour_points).patches


def test_summer_evaluates_through_the_table_hooks(summer: Ruleset, standard: Ruleset) -> None:
    rows = ["P G1 B3 B3 B3 R1 R2 R2 R1"]
    in_summer, _ = _judge(summer, rows, coverable=SUMMER)
    in_standard, _ = _judge(standard, rows)
    assert in_standard > in_summer


# -- a bot's states ---------------------------------------------------------------------------


@pytest.mark.parametrize("variants", VARIANTS, ids=["standard", "summer"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_sampled_states_of_every_variant_evaluate_to_a_number(
        plugins: PluginHost, players: int, variants: tuple[str, ...]) -> None:
    """On states sampled from every seat's view along a game: a finite number, the same
    from the same state asked twice and from a table built afresh (nothing remembered
    changes the answer)."""
    ruleset = plugins.ruleset("flowers", variants, players=players)
    fresh = plugins.ruleset("flowers", variants, players=players).bots
    game = ruleset.gamedef
    bots = ruleset.bots
    assert bots.evaluate is not None and bots.sample is not None and fresh.evaluate is not None
    for step, state in enumerate(_games(ruleset, players, 1)):
        if step % 2 and state.phase != OVER:
            continue  # every other state keeps the test quick
        for seat in range(players):
            dealt = bots.sample(game.view(state, seat), seat, Rng(b"eval", f"{step}/{seat}"))
            value = bots.evaluate(dealt, seat)
            assert math.isfinite(value)
            assert bots.evaluate(dealt, seat) == value == fresh.evaluate(dealt, seat)
            assert value == bots.evaluate(state, seat)  # a garden is public: the same value


def test_garden_identity_is_what_is_remembered(standard: Ruleset) -> None:
    bots = standard.bots
    assert bots.evaluate is not None
    gardens: list[Garden] = [grid("B4 B4 B4"), grid("B4 B4 B4 B4")]
    values = []
    for garden in gardens * 2:
        state = make_state((garden, grid("B1")), _stacks(20))
        values.append(bots.evaluate(state, 0))
    assert values[:2] == values[2:] and values[0] < values[1]
    copy = make_state((dict(gardens[0]), grid("B1")), _stacks(20))  # same cards, a new dict
    assert bots.evaluate(copy, 0) == values[0]
    moved = make_state((grid("B4 B4 B4 B4 B4"), grid("B1")), _stacks(20))
    assert bots.evaluate(moved, 0) == -5 - 0.0  # five 4s: removed, nothing to hope for


def test_contents_are_forgotten_least_recently_used_first(
        standard: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    """A garden's outlook is worked out once while its content stays among the last
    ``KEPT_CONTENTS`` asked for (a new dict of the same cards included), and again once it
    has dropped out; asking for a content keeps it in."""
    monkeypatch.setattr(evaluate_module, "KEPT_CONTENTS", 3)
    worked: list[frozenset[tuple[int, tuple[int, ...]]]] = []
    real = evaluate_module.outlook

    def counted(garden: Garden, colour_points: ColourPoints) -> Outlook:
        worked.append(frozenset(garden.items()))
        return real(garden, colour_points)

    monkeypatch.setattr(evaluate_module, "outlook", counted)
    evaluate = evaluate_module.make_evaluate(standard_colour_points, lambda s, seat: 0.0)
    rows = ["B1", "B1 R2", "B1 R2 R2", "G3 G3"]

    def ask(row: str) -> None:  # a new dict every time: only its content can be found
        evaluate(make_state((grid(row), grid("B1")), _stacks(20)), 0)

    for row in rows[:3]:
        ask(row)
    ask(rows[0])  # remembered, and now the most recently used
    assert len(worked) == 3
    ask(rows[3])  # the fourth content: the least recently used (rows[1]) goes
    ask(rows[0])
    ask(rows[2])
    assert len(worked) == 4
    ask(rows[1])
    assert len(worked) == 5 and worked[-1] == frozenset(grid(rows[1]).items())


@pytest.mark.parametrize("variants", VARIANTS, ids=["standard", "summer"])
def test_the_colour_rule_is_the_tables(plugins: PluginHost, variants: tuple[str, ...]) -> None:
    """At a table whose only colour rule is FLOWERS' own, the bots call the standard rule
    itself (no hook dispatch per garden); under Summer they call the table's hook.  Either
    way every sampled state is judged as through the table's hook."""
    ruleset = plugins.ruleset("flowers", variants, players=2)
    assert ruleset.ext is not None and ruleset.bots is not None
    rules = bind(ruleset.ext)
    rule = colour_rule(ruleset.ext, rules)
    assert (rule is standard_colour_points) == (not variants)
    bots = ruleset.bots
    assert bots.evaluate is not None and bots.score is not None and bots.sample is not None
    hooked = evaluate_module.make_evaluate(rules.colour_points, bots.score)
    game = ruleset.gamedef
    for step, state in enumerate(_games(ruleset, 2, 2)):
        for seat in range(2):
            dealt = bots.sample(game.view(state, seat), seat, Rng(b"rule", f"{step}/{seat}"))
            assert bots.evaluate(dealt, seat) == hooked(dealt, seat)
