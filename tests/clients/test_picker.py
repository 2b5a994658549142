"""The generic action picker: roles and steps from the game's forms, and only legal results."""

from __future__ import annotations

import itertools

from hedgerow.clients.app.picker import Picker
from hedgerow.core import Action
from hedgerow.core.ui import Choose, ChooseMany, Cycle, Form, GameUI, Menu, Target


def nowhere(target):
    return None


class Garden(GameUI):
    """Petals-like forms: a card (free), a cell, a rotation; a move in two cell steps."""

    forms = {
        "place": Form((Choose("card", ("card",), "a card", free=True),
                       Choose("cell", ("x", "y"), "a cell"), Cycle("rot", "rotate"))),
        "move": Form((Choose("cell", ("from_x", "from_y"), "the card to move"),
                      Choose("cell", ("to_x", "to_y"), "where it goes"), Cycle("rot", "rotate")),
                     "move a card"),
    }


UI = Garden("garden")


def place_actions(cards=(7, 9), cells=((0, 1), (1, 0), (2, 1)), rots=range(4)):
    return [Action.of("place", card=c, x=x, y=y, rot=r)
            for c, (x, y), r in itertools.product(cards, cells, rots)]


def test_roles_come_from_the_form_not_from_the_argument_names() -> None:
    odd = GameUI("odd")
    odd.forms = {"sow": Form((Choose("seed", ("what",), "a seed", free=True),
                              Choose("plot", ("a", "b"), "a plot")))}
    legal = [Action.of("sow", what=w, a=a, b=b) for w in (3, 4) for a, b in ((0, 0), (5, 1))]
    picker = Picker(legal, odd)
    assert picker.free_step.role == "seed" and picker.slot.role == "plot"
    assert picker.option_targets() == {Target("seed", 3), Target("seed", 4),
                                       Target("plot", (0, 0)), Target("plot", (5, 1))}
    assert picker.point_at(Target("seed", 4)) == "free"
    assert picker.point_at(Target("plot", (5, 1))) == "cursor"
    assert picker.confirm() == Action.of("sow", what=4, a=5, b=1)
    # The same actions without a form: every argument is a menu, in name order.
    plain = Picker(legal, GameUI("odd"))
    assert plain.free_step is None and isinstance(plain.slot, Menu) and plain.slot.arg == "a"
    assert [e.label for e in plain.menu()] == ["0", "5"]
    # A form that leaves an argument out gets a menu for it, after its own steps.
    half = GameUI("half")
    half.forms = {"sow": Form((Choose("plot", ("a", "b"), "a plot"),))}
    form = half.form("sow", {"what", "a", "b"})
    assert [type(s).__name__ for s in form.steps] == ["Choose", "Menu"]
    assert form.steps[1].arg == "what"


def test_a_placement_is_composed_by_card_cell_and_rotation() -> None:
    legal = place_actions()
    picker = Picker(legal, UI)
    assert picker.kind == "place" and picker.free == (7,) and picker.cursor == (0, 1)
    assert picker.current() == Action.of("place", card=7, x=0, y=1, rot=0)
    assert picker.pick_number(2) and picker.free == (9,)
    assert picker.cycle("r") and picker.cycle("R") and picker.cycle("r")
    assert picker.move("right", nowhere)  # (0,1) -> (1,0)? right means larger x
    assert picker.cursor[0] > 0
    action = picker.confirm()
    assert action in legal and action["card"] == 9 and action["rot"] == 1


def test_arrows_visit_only_legal_cells_and_stop_at_the_edge() -> None:
    picker = Picker(place_actions(), UI)
    seen = {picker.cursor}
    for direction in ["right", "right", "right", "left", "down", "up", "left", "left"]:
        picker.move(direction, nowhere)
        seen.add(picker.cursor)
    assert seen <= {(0, 1), (1, 0), (2, 1)}
    assert not picker.move("up", nowhere) or picker.cursor in seen


def test_arrows_follow_the_drawn_positions_when_given() -> None:
    picker = Picker(place_actions(cells=((0, 0), (5, 5))), UI)
    drawn = {Target("cell", (0, 0)): (0, 10), Target("cell", (5, 5)): (0, 0)}  # mirrored
    assert picker.cursor == (0, 0)
    assert picker.move("left", lambda target: drawn.get(target))
    assert picker.cursor == (5, 5)


def petals_like(cell):
    """Where a Petals cell is drawn in the wide garden: 3 rows by 9 columns (y grows up)."""
    x, y = cell.value
    return (3 * (6 - y), 4 + 9 * (x + 1))


def test_arrows_move_spatially_not_to_a_far_cell_straight_ahead() -> None:
    # Up from (1,-1): (1,6) is straight up but seven rows away; (0,0) is one up, one left.
    picker = Picker(place_actions(cells=((1, -1), (1, 6), (0, 0), (3, -1))), UI)
    picker.cursor = (1, -1)
    assert picker.move("up", petals_like) and picker.cursor == (0, 0)
    assert picker.move("up", petals_like) and picker.cursor == (1, 6)  # the only one above
    # Down from (1,6): both are far; the one straight down its column before the one aside
    assert picker.move("down", petals_like) and picker.cursor == (1, -1)
    assert picker.move("up", petals_like) and picker.cursor == (0, 0)
    assert picker.move("right", petals_like) and picker.cursor == (1, -1)  # not (3,-1)
    assert picker.move("right", petals_like) and picker.cursor == (3, -1)
    assert not picker.move("right", petals_like)
    # The same by the cells themselves when nothing is drawn.
    picker.cursor = (1, -1)
    assert picker.move("up", nowhere) and picker.cursor == (0, 0)


def test_an_arrow_keeps_to_its_row_before_a_diagonal_beside_it() -> None:
    """Right from (0,0): a cell two or three ahead in the same row before the cell
    diagonally beside (a step aside counts as two ahead); four ahead, the diagonal."""
    for straight, expected in (((2, 0), (2, 0)), ((3, 0), (3, 0)), ((4, 0), (1, 1))):
        picker = Picker(place_actions(cells=((0, 0), (1, 1), straight)), UI)
        picker.cursor = (0, 0)
        assert picker.move("right", petals_like) and picker.cursor == expected, straight
    # up and down alike: the column first
    picker = Picker(place_actions(cells=((0, 0), (1, 1), (0, 2), (0, -2), (-1, -1))), UI)
    picker.cursor = (0, 0)
    assert picker.move("up", petals_like) and picker.cursor == (0, 2)
    assert picker.move("down", petals_like) and picker.cursor == (0, 0)
    assert picker.move("down", petals_like) and picker.cursor == (0, -2)


def test_number_keys_follow_the_drawn_order() -> None:
    picker = Picker(place_actions(), UI)
    picker.set_orders({"card": [9, 7]})
    assert picker.free == (9,)  # the first card as drawn, until one is picked
    assert picker.pick_number(1) and picker.free == (9,)
    assert picker.pick_number(2) and picker.free == (7,)
    assert not picker.pick_number(3)


def test_a_move_takes_two_cell_steps_and_esc_goes_back() -> None:
    legal = [Action.of("move", from_x=0, from_y=0, to_x=tx, to_y=0, rot=r)
             for tx in (1, 2) for r in range(4)] + [Action.of("score")]
    picker = Picker(legal, UI)
    assert picker.kind is None
    menu = picker.menu()
    assert [e.kind for e in menu] == ["move", "score"]
    assert [e.label for e in menu] == ["move a card", "score"]
    assert menu[1].action == Action.of("score") and menu[0].action is None
    assert picker.highlighted() is None
    assert picker.pick_number(1)  # a kind that needs more: highlighted, as the keys say
    assert picker.kind is None and picker.menu_index == 0
    assert picker.pick_number(2) and picker.menu_index == 1 and picker.kind is None
    assert picker.highlighted() == Action.of("score")  # previewed, not played
    assert picker.pick_number(1) and picker.confirm() is None  # Enter enters it
    assert picker.kind == "move" and picker.slot.label == "the card to move"
    assert picker.current() is None
    assert picker.confirm() is None and picker.slot.label == "where it goes"
    assert picker.chosen_targets() == {Target("cell", (0, 0))}
    assert picker.choices_so_far() == [("the card to move", Target("cell", (0, 0)))]
    assert picker.current() in legal
    assert picker.cancel() and picker.slot.label == "the card to move"
    assert picker.cancel() and picker.kind is None
    assert not picker.cancel()
    picker.move("down", nowhere)
    assert picker.confirm() == Action.of("score")


def test_clicks_pick_cards_move_the_cursor_and_confirm() -> None:
    picker = Picker(place_actions(), UI)
    assert picker.point_at(Target("card", 9)) == "free" and picker.free == (9,)
    assert picker.point_at(Target("card", 99)) is None
    assert picker.point_at(Target("cell", (2, 1))) == "cursor" and picker.cursor == (2, 1)
    assert picker.point_at(Target("cell", (2, 1))) == "confirm"
    assert picker.point_at(Target("cell", (5, 5))) is None
    assert picker.point_at(Target("stack", 0)) is None  # a role this form does not use


def test_a_menu_argument_and_a_lone_card() -> None:
    picks = [Action.of("pick", n=n) for n in (1, 2, 3)]
    picker = Picker(picks, UI)
    assert [e.label for e in picker.menu()] == ["1", "2", "3"]
    picker.move("down", nowhere)
    assert picker.confirm() == Action.of("pick", n=2)
    ui = GameUI("solo")
    ui.forms = {"play": Form((Choose("card", ("card",), "a card", free=True),))}
    plays = [Action.of("play", card=c) for c in (4, 11)]
    picker = Picker(plays, ui)
    assert picker.current() == Action.of("play", card=4)
    assert picker.move("right", nowhere) and picker.confirm() == Action.of("play", card=11)


def test_whatever_the_keys_the_result_is_legal() -> None:
    legal = [*place_actions(cells=((0, 1), (1, 0)), rots=(0, 2)),
             Action.of("move", from_x=1, from_y=1, to_x=3, to_y=3, rot=1)]
    keys = ["right", "left", "up", "down", "1", "2", "3", "r", "R", "esc", "enter"]
    for sequence in itertools.islice(itertools.product(keys, repeat=4), 0, None, 7):
        picker = Picker(legal, UI)
        for key in sequence:
            if key == "enter":
                result = picker.confirm()
                assert result is None or result in legal
            elif key == "esc":
                picker.cancel()
            elif key.isdigit():
                picker.pick_number(int(key))
            elif key in ("r", "R"):
                picker.cycle(key)
            else:
                picker.move(key, nowhere)
            assert picker.current() is None or picker.current() in legal


def test_nothing_to_pick_when_it_is_not_your_turn() -> None:
    picker = Picker((), UI)
    assert picker.empty and picker.current() is None and picker.confirm() is None
    assert not picker.move("up", nowhere) and not picker.cycle("r") and not picker.cancel()


def test_the_cursor_starts_near_where_it_was_last_turn() -> None:
    first = Picker(place_actions(cells=((0, 1), (1, 0), (2, 1))), UI)
    first.point_at(Target("cell", (2, 1)))
    waiting = Picker((), UI, previous=first)
    again = Picker(place_actions(cells=((0, 1), (1, 0), (3, 1))), UI, previous=waiting)
    assert again.cursor == (3, 1)


# -- the shapes of the games to come (docs/client.md, "The UI object") ------------------------


def test_flowers_take_from_a_stack_then_plant_in_your_own_garden() -> None:
    ui = GameUI("flowers")
    ui.forms = {"take": Form((Choose("stack", ("stack",), "a stack"),)),
                "plant": Form((Choose("cell", ("x", "y"), "a cell of your garden"),))}
    picker = Picker([Action.of("take", stack=s) for s in (0, 1, 2)], ui)
    picker.set_orders({"stack": [0, 1, 2]})
    assert picker.pick_number(3) and picker.cursor == (2,)
    assert picker.confirm() == Action.of("take", stack=2)
    plant = [Action.of("plant", x=x, y=y) for x, y in ((0, 0), (1, 0), (0, 1))]  # on or next to
    picker = Picker(plant, ui)
    assert picker.option_targets() == {Target("cell", c) for c in ((0, 0), (1, 0), (0, 1))}
    assert picker.point_at(Target("cell", (0, 1))) == "cursor"
    assert picker.confirm() == Action.of("plant", x=0, y=1)


def test_mandala_a_mandala_a_colour_and_how_many() -> None:
    ui = GameUI("mandala")
    ui.forms = {"play": Form((Choose("mandala", ("mandala",), "a mandala"),
                              Choose("colour", ("colour",), "a colour", free=True),
                              Cycle("count", "how many", key="+", back="-"))),
                "tile": Form((Choose("tile", ("tile",), "a tile"),))}
    hand = {"red": 3, "blue": 1}
    legal = [Action.of("play", mandala=m, colour=c, count=q)
             for m in (0, 1, 2) for c, n in hand.items() for q in range(1, n + 1)]
    picker = Picker(legal, ui)
    picker.set_orders({"colour": ["red", "blue"], "mandala": [0, 1, 2]})
    assert picker.free == ("red",)
    assert picker.move("right", nowhere) and picker.cursor == (1,)  # mandalas, in order
    assert next(c for c, _ in picker.cycle_keys()).key == "+"
    assert picker.cycle("+") and picker.cycle("+") and picker.cycles["count"] == 3
    assert picker.confirm() == Action.of("play", mandala=1, colour="red", count=3)
    assert picker.pick_number(2) and picker.free == ("blue",)
    assert not picker.cycle("+")  # one blue card: nothing to turn
    assert picker.current() == Action.of("play", mandala=1, colour="blue", count=1)


def test_flourish_one_card_to_play_and_one_to_pass_each_way() -> None:
    ui = GameUI("flourish")
    ui.forms = {"turn": Form((Choose("card", ("play",), "the card to play"),
                              Choose("card", ("left",), "the card to pass left"),
                              Choose("card", ("right",), "the card to pass right"),
                              Choose("card", ("compost",), "a card to compost"))),
                "keep": Form((ChooseMany("card", "cards", "three cards to play"),))}
    hand = (11, 12, 13, 14)
    legal = [Action.of("turn", play=p, left=left, right=r, **({"compost": c} if c else {}))
             for p, left, r in itertools.permutations(hand, 3)
             for c in (0, *(x for x in hand if x not in (p, left, r)))]
    picker = Picker(legal, ui)
    picker.set_orders({"card": list(hand)})
    assert picker.pick_number(2) and picker.confirm() is None  # play 12
    assert Target("card", 12) not in picker.option_targets()  # distinct cards only
    assert picker.pick_number(4) and picker.confirm() is None  # pass 14 left
    assert picker.pick_number(1) and picker.confirm() is None  # pass 11 right
    assert picker.chosen_targets() == {Target("card", 12), Target("card", 14),
                                       Target("card", 11)}
    assert picker.cursor == (None,)  # composting is optional: nothing to start with
    assert picker.confirm() == Action.of("turn", play=12, left=14, right=11)
    assert picker.pick_number(3) and picker.current()["compost"] == 13
    assert picker.can_clear() and picker.clear() and picker.cursor == (None,)
    keep = [Action.of("keep", cards=c) for c in itertools.combinations((1, 2, 3, 4, 5), 3)]
    picker = Picker(keep, ui)
    picker.set_orders({"card": [5, 4, 3, 2, 1]})
    assert picker.pick_number(1) and picker.pick_number(3)  # cards 5 and 3
    assert picker.current() is None and picker.confirm() is None  # two are not enough
    assert picker.point_at(Target("card", 1)) == "toggle"
    assert picker.selected_targets() == {Target("card", c) for c in (5, 3, 1)}
    assert not picker.pick_number(2)  # a fourth card is in no legal set
    assert picker.confirm() == Action.of("keep", cards=(1, 3, 5))
