"""Illegal actions are refused with a ``petals.*`` code whose message names the rule."""

from __future__ import annotations

import pytest

from hedgerow.core import Action, Refusal
from hedgerow.core.errors import Code
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Table
from hedgerow.plugins.petals.state import Pending

START = {(0, 0): (1, 0), (1, 1): (9, 0), (2, 2): (13, 0)}


def _refused(ruleset: Ruleset, state, seat: int, action: Action) -> Refusal:
    result = ruleset.gamedef.apply(state, seat, action)
    assert isinstance(result, Refusal), f"{action} should be refused"
    assert result.code.startswith("petals."), result
    return result


@pytest.mark.parametrize(("action", "code", "words"), [
    (Action.of("place", card=7, x=3, y=3, rot=0), "petals.not_adjacent", "corner"),
    (Action.of("place", card=7, x=5, y=5, rot=0), "petals.not_adjacent", "rule 5.1"),
    (Action.of("place", card=8, x=1, y=0, rot=0), "petals.not_in_hand", "rule 5.1"),
    (Action.of("place", card=7, x=1, y=1, rot=0), "petals.occupied", "rule 5.1"),
    (Action.of("place", card=7, x=1, y=0, rot=4), "petals.bad_rotation", "0 to 3"),
    (Action.of("place", card=7, x=1, y=0), "petals.bad_action", "rot"),
    (Action.of("place", card="7", x=1, y=0, rot=0), "petals.bad_action", "whole numbers"),
    (Action.of("place", card=True, x=1, y=0, rot=0), "petals.bad_action", "whole numbers"),
    (Action.of("score"), "petals.no_effect", "rule 5.3"),
    (Action.of("decline"), "petals.no_effect", "rule 5.3"),
    (Action.of("pass"), "petals.unknown_action", "place"),
])
def test_bad_placements(board, standard: Ruleset, action: Action, code: str, words: str) -> None:
    state = board(START, hands=((7, 20), (21, 22)))
    refusal = _refused(standard, state, 0, action)
    assert refusal.code == code and words in refusal.message


def test_acting_out_of_turn(board, standard: Ruleset) -> None:
    state = board(START, hands=((7, 20), (21, 22)))
    refusal = _refused(standard, state, 1, Action.of("place", card=21, x=1, y=0, rot=0))
    assert refusal.code == "petals.not_your_turn" and "seat 0" in refusal.message


def test_acting_out_of_turn_is_refused_by_the_table(standard: Ruleset) -> None:
    table = Table(standard, 3, b"out-of-turn")
    active = table.active_seats()[0]
    other = (active + 1) % 3
    card = table.state.hands[other][0]
    before = table.state_hash()
    refusal = table.submit(other, Action.of("place", card=card, x=1, y=0, rot=0))
    assert isinstance(refusal, Refusal) and refusal.code == Code.NOT_YOUR_TURN
    assert table.state_hash() == before and table.index == 1  # only the deal, entry #0


EX11 = {**START, (1, 0): (16, 1), (2, 0): (25, 2)}
PENDING = Pending("different", (2, 0), ((2, 0), (1, 0)))


def _move(src, dst, rot=0) -> Action:
    return Action.of("move", from_x=src[0], from_y=src[1], to_x=dst[0], to_y=dst[1], rot=rot)


@pytest.mark.parametrize(("action", "code", "words"), [
    (_move((1, 0), (0, 1)), "petals.triggering_card", "triggered"),
    (_move((2, 0), (3, 1)), "petals.triggering_card", "rule 5.4"),
    (_move((1, 1), (-1, 0)), "petals.disconnects", "connected"),
    (_move((2, 2), (3, 2)), "petals.not_adjacent", "rule 5.4"),
    (_move((2, 2), (2, 2)), "petals.same_cell", "another cell"),
    (_move((2, 2), (1, 0)), "petals.occupied", "rule 5.4"),
    (_move((5, 5), (2, 1)), "petals.no_card", "no card"),
    (_move((2, 2), (2, 1), rot=7), "petals.bad_rotation", "0 to 3"),
    (Action.of("move", from_x=2, from_y=2, to_x=2), "petals.bad_action", "to_y"),
    (Action.of("decline"), "petals.wrong_choice", "rule 5.3"),
    (Action.of("place", card=7, x=3, y=0, rot=0), "petals.effect_pending", "rule 5.3"),
])
def test_bad_effect_choices(board, standard: Ruleset, action: Action, code: str,
                            words: str) -> None:
    state = board(EX11, hands=((7,), (21, 22)), pending=PENDING)
    refusal = _refused(standard, state, 0, action)
    assert refusal.code == code and words in refusal.message


def test_moving_a_surrounded_card(board, standard: Ruleset) -> None:
    cells = {(1, 1): (9, 0), (1, 2): (2, 0), (2, 1): (38, 0), (1, 0): (7, 3), (0, 1): (3, 0),
             (3, 1): (4, 0)}
    state = board(cells, hands=((5,), (6,)), pending=Pending("identical", (3, 1), ((3, 1),)))
    refusal = _refused(standard, state, 0, _move((1, 1), (2, 2)))
    assert refusal.code == "petals.surrounded" and "four sides" in refusal.message


def test_a_refusal_leaves_the_state_alone(board, standard: Ruleset) -> None:
    state = board(START, hands=((7, 20), (21, 22)))
    snapshot = (dict(state.garden), state.hands, state.trackers)
    _refused(standard, state, 0, Action.of("place", card=7, x=3, y=3, rot=0))
    assert (dict(state.garden), state.hands, state.trackers) == snapshot


def test_describe_names_the_refusal(board, standard: Ruleset) -> None:
    state = board(START, hands=((7, 20), (21, 22)))
    text = standard.gamedef.describe(state, 0, Action.of("place", card=7, x=3, y=3, rot=0))
    assert "refused" in text and "corner" in text
