"""The generic action picker: roles from argument names, steps, and only legal results."""

from __future__ import annotations

import itertools

from hedgerow.clients.app.picker import Picker, shape_of
from hedgerow.core import Action


def nowhere(slot, value):
    return None


def place_actions(cards=(7, 9), cells=((0, 1), (1, 0), (2, 1)), rots=range(4)):
    return [Action.of("place", card=c, x=x, y=y, rot=r)
            for c, (x, y), r in itertools.product(cards, cells, rots)]


def test_roles_follow_the_argument_names() -> None:
    shape = shape_of(["card", "x", "y", "rot"])
    assert (shape.card, shape.rot) == ("card", "rot")
    assert [s.args for s in shape.steps] == [("x", "y")]
    move = shape_of(["to_x", "to_y", "from_x", "from_y", "rot"])
    assert [s.name for s in move.steps] == ["from", "to"]
    menu = shape_of(["n"])
    assert [(s.name, s.is_cell, s.label()) for s in menu.steps] == [("n", False, "n")]
    assert [s.label() for s in move.steps] == ["the card to move", "where it goes"]


def test_a_placement_is_composed_by_card_cell_and_rotation() -> None:
    legal = place_actions()
    picker = Picker(legal)
    assert picker.kind == "place" and picker.card == 7 and picker.cursor == (0, 1)
    assert picker.current() == Action.of("place", card=7, x=0, y=1, rot=0)
    assert picker.pick_number(2) and picker.card == 9
    assert picker.rotate() and picker.rotate(-1) and picker.rotate()
    assert picker.move("right", nowhere)  # (0,1) -> (1,0)? right means larger x
    assert picker.cursor[0] > 0
    action = picker.confirm()
    assert action in legal and action["card"] == 9 and action["rot"] == 1


def test_arrows_visit_only_legal_cells_and_stop_at_the_edge() -> None:
    picker = Picker(place_actions())
    seen = {picker.cursor}
    for direction in ["right", "right", "right", "left", "down", "up", "left", "left"]:
        picker.move(direction, nowhere)
        seen.add(picker.cursor)
    assert seen <= {(0, 1), (1, 0), (2, 1)}
    assert not picker.move("up", nowhere) or picker.cursor in seen


def test_arrows_follow_the_drawn_positions_when_given() -> None:
    picker = Picker(place_actions(cells=((0, 0), (5, 5))))
    drawn = {(0, 0): (0, 10), (5, 5): (0, 0)}  # drawn mirrored: (5,5) is at the left
    assert picker.cursor == (0, 0)
    assert picker.move("left", lambda slot, value: drawn[value])
    assert picker.cursor == (5, 5)


def test_number_keys_follow_the_hand_order() -> None:
    picker = Picker(place_actions())
    picker.set_card_order([9, 7])
    assert picker.card == 9  # the first card as drawn, until one is picked
    assert picker.pick_number(1) and picker.card == 9
    assert not picker.pick_number(3)


def test_a_move_takes_two_cell_steps_and_esc_goes_back() -> None:
    legal = [Action.of("move", from_x=0, from_y=0, to_x=tx, to_y=0, rot=r)
             for tx in (1, 2) for r in range(4)] + [Action.of("score")]
    picker = Picker(legal)
    assert picker.kind is None
    menu = picker.menu()
    assert [e.kind for e in menu] == ["move", "score"]
    assert menu[1].action == Action.of("score") and menu[0].action is None
    assert picker.highlighted() is None
    assert picker.pick_number(1)  # a kind that needs more: entered at once
    assert picker.kind == "move" and picker.slot.name == "from"
    assert picker.current() is None
    assert picker.confirm() is None and picker.slot.name == "to"
    assert picker.chosen_cells() == [(0, 0)]
    assert picker.current() in legal
    assert picker.cancel() and picker.slot.name == "from"
    assert picker.cancel() and picker.kind is None
    assert not picker.cancel()
    picker.move("down", nowhere)
    assert picker.confirm() == Action.of("score")


def test_clicks_pick_cards_move_the_cursor_and_confirm() -> None:
    legal = place_actions()
    picker = Picker(legal)
    assert picker.point_at({"card": 9}) == "card" and picker.card == 9
    assert picker.point_at({"card": 99}) is None
    assert picker.point_at({"x": 2, "y": 1}) == "cursor" and picker.cursor == (2, 1)
    assert picker.point_at({"x": 2, "y": 1}) == "confirm"
    assert picker.point_at({"x": 5, "y": 5}) is None


def test_a_menu_argument_and_a_lone_card() -> None:
    picks = [Action.of("pick", n=n) for n in (1, 2, 3)]
    picker = Picker(picks)
    assert [e.label for e in picker.menu()] == ["1", "2", "3"]
    picker.move("down", nowhere)
    assert picker.confirm() == Action.of("pick", n=2)
    plays = [Action.of("play", card=c) for c in (4, 11)]
    picker = Picker(plays)
    assert picker.current() == Action.of("play", card=4)
    assert picker.move("right", nowhere) and picker.confirm() == Action.of("play", card=11)


def test_whatever_the_keys_the_result_is_legal() -> None:
    legal = [*place_actions(cells=((0, 1), (1, 0)), rots=(0, 2)),
             Action.of("move", from_x=1, from_y=1, to_x=3, to_y=3, rot=1)]
    keys = ["right", "left", "up", "down", "1", "2", "3", "r", "R", "esc", "enter"]
    for sequence in itertools.islice(itertools.product(keys, repeat=4), 0, None, 7):
        picker = Picker(legal)
        for key in sequence:
            if key == "enter":
                result = picker.confirm()
                assert result is None or result in legal
            elif key == "esc":
                picker.cancel()
            elif key.isdigit():
                picker.pick_number(int(key))
            elif key in ("r", "R"):
                picker.rotate(1 if key == "r" else -1)
            else:
                picker.move(key, nowhere)
            assert picker.current() is None or picker.current() in legal


def test_nothing_to_pick_when_it_is_not_your_turn() -> None:
    picker = Picker(())
    assert picker.empty and picker.current() is None and picker.confirm() is None
    assert not picker.move("up", nowhere) and not picker.rotate() and not picker.cancel()


def test_the_cursor_starts_near_where_it_was_last_turn() -> None:
    first = Picker(place_actions(cells=((0, 1), (1, 0), (2, 1))))
    first.point_at({"x": 2, "y": 1})
    waiting = Picker((), previous=first)
    again = Picker(place_actions(cells=((0, 1), (1, 0), (3, 1))), previous=waiting)
    assert again.cursor == (3, 1)
