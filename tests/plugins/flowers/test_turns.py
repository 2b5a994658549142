"""Turns (rules §4, §5): take and plant, refills, covering, the end, solo discards and ranks,
the winner and its tie-breaks (rules §7): the procedure examples 16-21 of rules §10."""

from __future__ import annotations

import pytest
from gamechecks import applied

from hedgerow.core import Action, Ranked, Refusal, Solo
from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.flowers.cards import DECK, PURPLES
from hedgerow.plugins.flowers.choices import plant_action, take_action
from hedgerow.plugins.flowers.garden import key
from hedgerow.plugins.flowers.ranking import solo_rank
from hedgerow.plugins.flowers.state import OVER, PLANT, TAKE

from .conftest import SUMMER, cards, grid, make_state

START = {key(0, 0): (cards("G1")[0],)}


def _stacks(*tops_first: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Stacks written top card first (as rules §10 does), stored bottom card first."""
    out = []
    used: list[str] = []
    for stack in tops_first:
        ids = cards(*used, *stack)[len(used):]
        used += stack
        out.append(tuple(reversed(ids)))
    return tuple(out)


def test_a_turn_from_a_face_up_stack_is_one_planting(standard: Ruleset) -> None:
    state = make_state((START, START), _stacks(("R3", "R4"), ("Y3",), ("B2", "B3")))
    game = standard.gamedef
    cells = ((-1, 0), (0, -1), (0, 0), (0, 1), (1, 0))
    legal = list(game.legal_actions(state, 0))
    assert legal == ([plant_action(0, x, y) for x, y in cells]
                     + [plant_action(1, x, y) for x, y in cells] + [take_action(2)])
    assert game.legal_actions(state, 1) == ()
    state = applied(standard, state, 0, plant_action(0, 1, 0))
    assert state.phase == TAKE and state.active == 1
    assert state.gardens[0][key(1, 0)] == (cards("R3")[0],) and state.gardens[1] == START
    assert state.stacks[0] == (cards("R3", "R4")[1],)


def test_a_turn_from_the_face_down_stack_is_take_then_plant(standard: Ruleset) -> None:
    state = make_state((START, START), _stacks(("R3", "R4"), ("Y3",), ("B2", "B3")))
    game = standard.gamedef
    state = applied(standard, state, 0, take_action(2))
    assert state.phase == PLANT and state.active == 0 and state.holding == cards("B2")[0]
    cells = ((-1, 0), (0, -1), (0, 0), (0, 1), (1, 0))
    assert list(game.legal_actions(state, 0)) == [plant_action(2, x, y) for x, y in cells]
    state = applied(standard, state, 0, plant_action(2, 0, 0))
    assert state.gardens[0][key(0, 0)] == (cards("G1")[0], cards("B2")[0])
    assert state.phase == TAKE and state.active == 1 and state.holding == -1


def test_17_taking_a_face_up_top_reveals_the_next_and_the_face_down_stack_reveals_nothing(
        standard: Ruleset) -> None:
    x1, x2, x3 = cards("R1", "R2", "R3")
    state = make_state((START, START), ((x3, x2, x1), cards("Y3", "Y4"), cards("B3", "B4")))
    game = standard.gamedef
    assert game.view(state, 1).tops == (x1, cards("Y3", "Y4")[1], -1)
    after = applied(standard, state, 0, plant_action(0, 1, 0))
    assert game.view(after, 1).tops[0] == x2
    down = applied(standard, state, 0, take_action(2))
    assert game.view(down, 1).tops == game.view(state, 1).tops
    assert game.view(down, 1).holding == -1 and game.view(down, 1).source == 2
    assert game.view(down, 0).holding == cards("B3", "B4")[1]


def test_planting_next_to_a_card_or_on_top_of_any_card_at_any_height(play) -> None:
    garden = grid("Y1 Y2")
    deck = _stacks(tuple(["R3"] * 8), tuple(["B3"] * 8), ("G3",))
    state = make_state((garden, START), deck)
    for height in range(2, 8):
        state = play(state, 0, plant_action(0, 1, 0))
        assert len(state.gardens[0][key(1, 0)]) == height
        state = play(state, 1, plant_action(1, 0, 1))
    assert state.phase == TAKE and len(state.gardens[1][key(0, 1)]) == 6
    assert state.gardens[0][key(0, 0)] == grid("Y1")[key(0, 0)]


def test_20_illegal_plants_are_refused(standard: Ruleset, summer: Ruleset) -> None:
    state = make_state((grid("Y1 Y2"), START), _stacks(("R3",), ("B3",), ("G3",)))
    game = standard.gamedef
    cases = {
        plant_action(0, 2, 1): "flowers.not_adjacent",  # a corner only
        plant_action(0, 5, 5): "flowers.not_adjacent",
        plant_action(1, 10_000, 0): "flowers.not_adjacent",
        plant_action(2, 2, 0): "flowers.face_down",  # take the face-down card first
        plant_action(3, 2, 0): "flowers.no_stack",
        Action.of("plant", stack=0, x=1, y=1, garden=1): "flowers.bad_action",  # not another's
        Action.of("plant", stack=0, x="1", y=0): "flowers.bad_action",
        Action.of("water"): "flowers.unknown_action",
    }
    for action, code in cases.items():
        result = game.apply(state, 0, action)
        assert isinstance(result, Refusal) and result.code == code, (action, result)
        assert action not in game.legal_actions(state, 0)
        assert "refused" in game.describe(state, 0, action)
    result = game.apply(state, 1, plant_action(0, 0, 1))
    assert isinstance(result, Refusal) and result.code == "flowers.not_your_turn"
    held = make_state((grid("Y1 Y2"), START), _stacks(("R3",), ("B3",), ("G3",)),
                      phase=PLANT, holding=cards("G4")[0], source=2)
    for action, code in ((plant_action(0, 2, 0), "flowers.wrong_stack"),
                         (take_action(2), "flowers.plant_first"),
                         (plant_action(2, 2, 1), "flowers.not_adjacent")):
        result = game.apply(held, 0, action)
        assert isinstance(result, Refusal) and result.code == code, (action, result)
    purple = {key(0, 0): (PURPLES[0],)}
    state = make_state((purple, purple), _stacks(("R3",), ("B3",), ("G3",)), coverable=SUMMER)
    result = summer.gamedef.apply(state, 0, plant_action(0, 0, 0))
    assert isinstance(result, Refusal) and result.code == "flowers.uncoverable"
    assert plant_action(0, 0, 0) not in summer.gamedef.legal_actions(state, 0)
    assert len(summer.gamedef.legal_actions(state, 0)) == 2 * 4 + 1


def test_takes_are_refused_outside_the_rules(standard: Ruleset) -> None:
    state = make_state((START, START), _stacks(("R3",), ("B3",), ("G3",)))
    game = standard.gamedef
    for action, code in ((take_action(0), "flowers.face_up"),
                         (take_action(3), "flowers.no_stack"),
                         (Action.of("take", stack=2, card=1), "flowers.bad_action")):
        result = game.apply(state, 0, action)
        assert isinstance(result, Refusal) and result.code == code
    empty = make_state((START, START), (*_stacks(("R3",), ("B3",)), ()))
    result = game.apply(empty, 0, take_action(2))
    assert isinstance(result, Refusal) and result.code == "flowers.empty_stack"
    assert take_action(2) not in game.legal_actions(empty, 0)


def test_16_the_turn_that_empties_a_stack_plants_then_the_game_ends(standard: Ruleset) -> None:
    state = make_state((START, START), _stacks(("R3", "R4"), ("Y3",), ("B3", "B4")), active=0)
    game = standard.gamedef
    assert "emptying" not in game.describe(state, 0, plant_action(0, 0, 1))
    assert "stack B is empty, so the game is over" in game.describe(
        state, 0, plant_action(1, 0, 1))
    state = applied(standard, state, 0, plant_action(1, 0, 1))
    assert state.phase == OVER and state.stacks[1] == () and game.active_seats(state) == ()
    assert game.legal_actions(state, 1) == ()  # seat 1 gets no extra turn
    result = game.apply(state, 1, plant_action(0, 0, 1))
    assert isinstance(result, Refusal) and result.code == "flowers.game_over"
    assert isinstance(game.outcome(state), Ranked)


def test_16_the_face_down_card_that_empties_its_stack_is_still_planted(
        standard: Ruleset) -> None:
    state = make_state((START, START), _stacks(("R3", "R4"), ("Y3", "Y4"), ("B3",)))
    game = standard.gamedef
    assert game.describe(state, 0, take_action(2)) == (
        "Seat 0 takes the face-down card of stack C, emptying stack C")
    state = applied(standard, state, 0, take_action(2))
    assert state.phase == PLANT and game.outcome(state) is None
    state = applied(standard, state, 0, plant_action(2, 1, 0))
    assert state.phase == OVER and state.gardens[0][key(1, 0)] == (cards("B3")[0],)


def test_18_solo_discards_the_face_up_top_after_every_turn(standard: Ruleset) -> None:
    x1, x2, x3, x4, x5 = cards("R1", "R2", "R3", "R4", "R1")
    d1, d2, d3 = cards("B1", "B2", "B3")
    state = make_state((START,), ((x5, x4, x3, x2, x1), (d3, d2, d1)))
    game = standard.gamedef
    assert "R2 is discarded" in game.describe(state, 0, plant_action(0, 1, 0))
    state = applied(standard, state, 0, plant_action(0, 1, 0))  # X1 planted, X2 discarded
    assert state.gardens[0][key(1, 0)] == (x1,)
    assert state.discards == (x2,) and game.view(state, 0).tops == (x3, -1)
    assert state.phase == TAKE and state.active == 0
    state = applied(standard, state, 0, take_action(1))
    assert "B1" in game.describe(state, 0, plant_action(1, 2, 0))
    assert "R3 is discarded" in game.describe(state, 0, plant_action(1, 2, 0))
    state = applied(standard, state, 0, plant_action(1, 2, 0))
    assert state.discards == (x2, x3) and game.view(state, 0).tops == (x4, -1)
    assert state.stacks == ((x5, x4), (d3, d2))


def test_18_solo_a_take_that_empties_a_ends_the_game_without_a_discard(
        standard: Ruleset) -> None:
    (x1,) = cards("R1")
    state = make_state((START,), ((x1,), cards("B1", "B2")))
    state = applied(standard, state, 0, plant_action(0, 1, 0))
    assert state.phase == OVER and state.discards == ()


def test_solo_the_discard_that_empties_a_ends_the_game(standard: Ruleset) -> None:
    x1, x2 = cards("R1", "R2")
    state = make_state((START,), ((x1,), cards("B1", "B2")))
    state = applied(standard, state, 0, take_action(1))
    state = applied(standard, state, 0, plant_action(1, 1, 0))
    assert state.phase == OVER and state.discards == (x1,) and state.stacks[0] == ()
    state = make_state((START,), ((x2, x1), cards("B1")))
    state = applied(standard, state, 0, take_action(1))  # B is empty: no discard either
    state = applied(standard, state, 0, plant_action(1, 1, 0))
    assert state.phase == OVER and state.discards == ()


@pytest.mark.parametrize(("score", "rank"), [(10, "Beginner"), (-3, "Beginner"),
                                             (11, "Apprentice"), (17, "Apprentice"),
                                             (18, "Expert"), (25, "Expert"), (26, "Master")])
def test_19_solo_ranks(score: int, rank: str) -> None:
    assert solo_rank(score) == rank


def test_a_finished_solo_game_is_graded_and_never_won_or_lost(standard: Ruleset) -> None:
    garden = grid("B1 B4 B4 B4 B4")
    state = make_state((garden,), ((), (1,)))._replace(phase=OVER, active=-1)
    result = standard.gamedef.outcome(state)
    assert isinstance(result, Solo)
    assert (result.score, result.grade, result.won) == (5, "Beginner", None)
    assert dict(result.breakdown) == {"Colour groups": (5,), "Butterflies": (0,),
                                      "Removed": (0,), "Groups removed": (0,),
                                      "Largest group": (5,)}


A_12 = ("B4 B4 B1 B3 B3 B3 B2 B2", "B4 B4 B2 B2 B1 R2 . .")
B_12 = ("B4 B4 B1 B3 B3 B3 B2 B2", "B4 B4 B2 B2 B1 R2/G3/G4 . .", "B2 B2 . . . . . .")


def _finished(ruleset: Ruleset, *gardens):
    state = make_state(tuple(gardens), ((), (1,), (2,)))._replace(phase=OVER, active=-1)
    return ruleset.gamedef.outcome(state), ruleset.gamedef.view(state, 0)


def test_21_level_totals_go_to_fewer_cards_removed(standard: Ruleset) -> None:
    result, view = _finished(standard, grid(*A_12), grid(*B_12))
    assert isinstance(result, Ranked)
    assert result.scores == (12, 12) and result.winners == (0,) and result.ranking == (1, 2)
    assert dict(result.breakdown)["Removed"] == (-1, -3)
    assert "fewer cards removed: 1 against 3" in result.explanation
    a, b = view.final
    assert [g.cells for g in a.removed] == [((5, -1),)]
    assert [(len(g.cells), g.cards) for g in b.removed] == [(1, 3)]
    assert [len(g.cells) for g, _ in b.scoring] == [15]


def test_the_later_tie_breaks_and_a_shared_victory(standard: Ruleset) -> None:
    # level on 6 points and no card removed: more butterfly points win
    result, _ = _finished(standard, grid(". G1 . .", "Y1 Y4g Y4 .", ". Y4 Y4 ."),
                          grid("R3 R3 R3 R1 R2 R2"))
    assert result.scores == (6, 6) and result.winners == (0,)
    assert dict(result.breakdown)["Butterflies"] == (1, 0)
    assert "wins on butterfly points: 1 against 0" in result.explanation
    # level on 10 points, nothing removed, no butterfly: the larger single group wins
    result, _ = _finished(standard, grid("B1 B4 B4 B4 B4 R1 R4 R4 R4 R4"),
                          grid("B4 B4 B1 B3 B3 B3 B2 B2", "B4 B4 . . . . . ."))
    assert result.scores == (10, 10) and result.winners == (1,)
    assert dict(result.breakdown)["Largest group"] == (5, 10)
    # level on everything: a shared victory
    result, _ = _finished(standard, grid("B1 B4 B4 B4 B4"), grid("G1 G4 G4 G4 G4"),
                          grid("Y1"))
    assert result.winners == (0, 1) and result.ranking == (1, 1, 3)
    assert "share the victory" in result.explanation


def test_describe_says_what_happens(standard: Ruleset) -> None:
    state = make_state((START, START), _stacks(("R3", "R4"), ("Y3",), ("B3", "B4")))
    game = standard.gamedef
    assert game.describe(state, 0, plant_action(0, 1, 0)) == (
        "Seat 0 plants R3 from stack A at (1, 0)")
    assert game.describe(state, 0, plant_action(0, 0, 0)) == (
        "Seat 0 plants R3 from stack A on top of G1 at (0, 0) (a stack of 2)")
    assert game.describe(state, 0, take_action(2)) == (
        "Seat 0 takes the face-down card of stack C (1 left)")
    state = applied(standard, state, 0, take_action(2))
    assert game.describe(state, 0, plant_action(2, 0, 1)) == "Seat 0 plants B3 at (0, 1)"
    assert all(c in DECK for s in state.stacks for c in s)
