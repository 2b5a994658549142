"""The UI contract's reading and per-table forms: `GameUI.details` (the ``i`` key),
`DrawContext.reading`, `GameUI.declared`, and how the client's `ClientUI` reads targets in
turn, scrolls to the one read and mentions the key in the help."""

from __future__ import annotations

from hedgerow.clients.app.gameui import READ_HELP, ClientUI, scrolled_to
from hedgerow.core import Action
from hedgerow.core.ui import (
    RESERVED_KEYS,
    Choose,
    ChooseMany,
    DrawContext,
    Form,
    GameUI,
    Target,
    problems,
)
from hedgerow.core.uicheck import details_problems, undrawn

CARD = "card"


class Reader(GameUI):
    """Cards 1-3 in a row; card 2 has nothing more to say."""

    game = "toy"
    help = "Play a card."

    def draw(self, part, ctx: DrawContext):
        return [(("reverse" if ctx.reading == Target(CARD, c) else ""), f"[{c}]",
                 Target(CARD, c)) for c in (1, 2, 3)]

    def details(self, view, seat, target):
        return None if target.value == 2 else f"Card {target.value} in full."


class PerTable(GameUI):
    game = "toy"
    forms = {"turn": Form((Choose(CARD, ("play",)), Choose(CARD, ("left",))))}

    def declared(self, kind, names):
        if kind == "turn" and "passed" in names:
            return Form((Choose(CARD, ("play",)), ChooseMany(CARD, "passed")))
        return super().declared(kind, names)


def test_the_base_object_has_no_details_and_i_is_the_client_s() -> None:
    assert GameUI("x").details(None, 0, Target(CARD, 1)) is None
    assert "i" in RESERVED_KEYS
    assert DrawContext(None, 0, 80).reading is None


def test_a_form_can_depend_on_the_arguments_a_table_s_actions_have() -> None:
    ui = PerTable()
    two = [Action.of("turn", play=1, passed=(2, 3)), Action.of("turn", play=2, passed=(1, 3))]
    three = [Action.of("turn", play=1, left=2)]
    assert problems(ui, two) == [] and problems(ui, three) == []
    assert ui.form("turn", {"play", "passed"}).args == ("play", "passed")
    assert ui.form("turn", {"play", "left"}).args == ("play", "left")
    drawn = {Target(CARD, 1), Target(CARD, 2), Target(CARD, 3)}
    assert undrawn(ui, two, drawn) == []
    assert undrawn(ui, two, drawn - {Target(CARD, 3)}) != []
    plain = GameUI("toy")
    plain.forms = PerTable.forms
    assert "turn: argument 'passed' has no role (no step of the form fills it)" in problems(
        plain, two)


def test_check_reports_details_that_break() -> None:
    class Broken(Reader):
        def details(self, view, seat, target):
            if target.value == 3:
                raise KeyError(3)
            return "" if target.value == 2 else "fine"

    found = details_problems(Broken(), None, 0, [Target(CARD, c) for c in (1, 2, 3)])
    assert found == ["details of Target(role='card', value=2) is not a non-empty string or "
                     "None: ''", "details of Target(role='card', value=3) raised KeyError: 3"]
    assert details_problems(Reader(), None, 0, [Target(CARD, 1)]) == []


def test_i_reads_the_cursor_then_each_next_target_with_details_round_to_the_first() -> None:
    ui = ClientUI(Reader())
    view = object()
    drawn = [Target(CARD, c) for c in (1, 2, 3)]
    assert ui.read(view, 0, drawn, cursor=Target(CARD, 3)) == "Card 3 in full."
    assert ui.reading == Target(CARD, 3)
    assert ui.read(view, 0, drawn, cursor=Target(CARD, 3)) == "Card 1 in full."  # 2: none
    assert ui.read(view, 0, drawn, cursor=Target(CARD, 3)) == "Card 3 in full."
    assert ui.read(view, 0, drawn) == "Card 1 in full."  # the cursor moved away: go on
    assert ui.read(view, 0, drawn, cursor=Target(CARD, 3)) == "Card 3 in full."  # moved onto 3
    assert ui.read(view, 0, []) is None and ui.read(None, 0, drawn) is None


def test_the_target_read_is_drawn_marked_and_scrolled_to_until_the_table_moves_on() -> None:
    ui = ClientUI(Reader())
    view = object()
    part = ui.parts("board")[0]
    ui.read(view, 0, [Target(CARD, 3)])
    drawing = ui.draw(part, view, 0, 80, None) or []
    assert ("[SetCursorPosition]", "") in drawing
    marked = drawing[drawing.index(("[SetCursorPosition]", "")) + 1]
    assert marked == ("reverse", "[3]", Target(CARD, 3))
    drawing = ui.draw(part, object(), 0, 80, None) or []  # a new view: reading is over
    assert ("[SetCursorPosition]", "") not in drawing and ui.reading is None
    assert scrolled_to([("", "x")], Target(CARD, 9)) == [("", "x")]


def test_the_help_mentions_i_only_for_a_game_that_gives_details() -> None:
    assert ClientUI(Reader()).help(None) == "Play a card. " + READ_HELP
    plain = GameUI("toy")
    plain.help = "Play a card."
    assert ClientUI(plain).help(None) == "Play a card."
