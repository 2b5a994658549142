"""Board-level worked examples 9, 11, 12 and 14 (rules §10), played through the rules."""

from __future__ import annotations

import pytest

from hedgerow.core import Action, Refusal
from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.petals.choices import SCORE
from hedgerow.plugins.petals.legality import check_move
from hedgerow.plugins.petals.state import Pending, State

START = {(0, 0): (1, 0), (1, 1): (9, 0), (2, 2): (13, 0)}
EX11 = {**START, (1, 0): (16, 1)}


def gained(before: State, after: State, seat: int = 0) -> tuple[int, ...]:
    return tuple(b - a for a, b in zip(before.trackers[seat], after.trackers[seat], strict=True))


@pytest.mark.parametrize(("rot", "points"), [
    (0, (0, 0, 0, 0)),
    (1, (0, 0, 0, 0)),
    (2, (0, 4, 0, 0)),  # Water +4: Left W3 vs W1
    (3, (1, 7, 0, 0)),  # Water +7, Fire +1: Top W3 vs W3, Left F1 vs W1
])
def test_example_9_rotation_matters(board, play, rot: int, points: tuple[int, ...]) -> None:
    state = board(START, hands=((7, 20), (21, 22)))
    after = play(state, 0, Action.of("place", card=7, x=1, y=0, rot=rot))
    assert gained(state, after) == points
    assert after.active == 1 and after.pending is None


@pytest.fixture
def ex11(board, play) -> State:
    """Example 11 after #25 r2 is played at (2,0): the different effect waits."""
    state = board(EX11, hands=((25, 20), (21, 22)))
    return play(state, 0, Action.of("place", card=25, x=2, y=0, rot=2))


def test_example_11_different_symbols_wait_for_a_choice(ex11: State, standard: Ruleset) -> None:
    assert ex11.pending == Pending("different", (2, 0), ((2, 0), (1, 0)))
    assert standard.gamedef.active_seats(ex11) == (0,)  # the same seat stays active
    assert ex11.trackers[0] == (0, 0, 0, 0)  # nothing scored yet
    legal = list(standard.gamedef.legal_actions(ex11, 0))
    assert legal[0] == SCORE
    sources = {(a["from_x"], a["from_y"]) for a in legal if a.kind == "move"}
    assert sources == {(0, 0), (1, 1), (2, 2)}
    assert standard.gamedef.legal_actions(ex11, 1) == ()


def test_example_11_option_a_scores_the_played_card(ex11: State, play) -> None:
    after = play(ex11, 0, SCORE)
    assert gained(ex11, after) == (0, 0, 0, 0)
    assert after.pending is None and after.active == 1
    assert len(after.hands[0]) == 2  # the turn ended with the draw


@pytest.mark.parametrize(("rot", "points"), [
    (0, (0, 0, 2, 0)),  # Earth +2
    (1, (0, 0, 3, 0)),  # Earth +3
    (2, (1, 0, 1, 0)),  # Fire +1, Earth +1
    (3, (0, 0, 0, 0)),
])
def test_example_11_option_b_moves_13_and_scores_it(ex11: State, play, rot: int,
                                                    points: tuple[int, ...]) -> None:
    action = Action.of("move", from_x=2, from_y=2, to_x=2, to_y=1, rot=rot)
    after = play(ex11, 0, action)
    assert gained(ex11, after) == points
    assert after.garden[(2, 1)] >> 2 == 13 and (2, 2) not in after.garden
    assert after.garden[(2, 0)] >> 2 == 25  # the played card stays
    assert after.pending is None and after.active == 1


@pytest.mark.parametrize(("src", "dst", "code"), [
    ((2, 2), (3, 2), "petals.not_adjacent"),
    ((1, 1), (-1, 0), "petals.disconnects"),
    ((1, 1), (2, 1), None),
    ((0, 0), (1, -1), None),
    ((1, 0), (0, 1), "petals.triggering_card"),
    ((2, 0), (3, 1), "petals.triggering_card"),
])
def test_example_12_move_legality(ex11: State, standard: Ruleset, src, dst, code) -> None:
    action = Action.of("move", from_x=src[0], from_y=src[1], to_x=dst[0], to_y=dst[1], rot=0)
    result = standard.gamedef.apply(ex11, 0, action)
    legal = standard.gamedef.legal_actions(ex11, 0)
    if code is None:
        assert not isinstance(result, Refusal), result
        assert action in legal and action in list(legal)
    else:
        assert isinstance(result, Refusal) and result.code == code
        assert "rule 5.4" in result.message
        assert action not in legal and action not in list(legal)
    assert check_move(ex11.garden, ex11.pending.triggers, src, dst, 0) == (
        None if code is None else result)


EX14 = {(0, 0): (1, 0), (1, 0): (7, 3), (1, 1): (9, 0), (2, 0): (14, 0), (2, 1): (38, 0),
        (1, 2): (2, 0), (0, 1): (3, 0), (2, 2): (13, 0)}


def test_example_14_a_surrounded_card_may_not_move(board, standard: Ruleset) -> None:
    # An identical effect is waiting (triggered elsewhere), so moves are on offer.
    state = board(EX14, pending=Pending("identical", (2, 2), ((2, 2),)))
    action = Action.of("move", from_x=1, from_y=1, to_x=3, to_y=1, rot=0)
    refused = standard.gamedef.apply(state, 0, action)
    assert isinstance(refused, Refusal) and refused.code == "petals.surrounded"
    sources = {(a["from_x"], a["from_y"])
               for a in standard.gamedef.legal_actions(state, 0) if a.kind == "move"}
    assert (1, 1) not in sources
    assert sources  # other cards may move
