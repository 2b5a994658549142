"""The UI contract (hedgerow.core.ui): a UI object's declared roles checked against legal
actions, the plain fallback, and `check_ui` catching what the client could not point at."""

from __future__ import annotations

from hedgerow.core import Action
from hedgerow.core.ui import (
    Choose,
    ChooseMany,
    Cycle,
    DrawContext,
    Form,
    GameUI,
    Menu,
    Part,
    Target,
    plain_view,
    problems,
)
from hedgerow.core.uicheck import drawn_targets, undrawn

PLACE = [Action.of("place", card=c, x=x, y=0, rot=r) for c in (1, 2) for x in (0, 1)
         for r in (0, 1)]


def ui_with(**forms: Form) -> GameUI:
    ui = GameUI("toy")
    ui.forms = forms
    return ui


def test_a_form_that_fits_has_no_problems() -> None:
    ui = ui_with(place=Form((Choose("card", ("card",), free=True), Choose("cell", ("x", "y")),
                            Cycle("rot"))))
    assert problems(ui, PLACE) == []


def test_an_argument_without_a_role_is_reported_by_name() -> None:
    ui = ui_with(place=Form((Choose("card", ("card",), free=True), Choose("cell", ("x", "y")))))
    assert problems(ui, PLACE) == [
        "place: argument 'rot' has no role (no step of the form fills it)"]


def test_a_kind_without_a_form_is_reported_unless_it_takes_no_argument() -> None:
    ui = ui_with()
    found = problems(ui, [*PLACE, Action.of("pass")])
    assert found == ["place: no form; its arguments card, rot, x, y are chosen from menus"]


def test_every_kind_of_mismatch_is_named() -> None:
    ui = ui_with(place=Form((Choose("card", ("card",), free=True),
                             Choose("card", ("card",), free=True),
                             Choose("cell", ("x", "y", "z")), Cycle("rot", key="q"))),
                 keep=Form((ChooseMany("card", "cards"),)),
                 aim=Form((Choose("cell", ("x", "y")),)))
    legal = [*PLACE, Action.of("keep", cards=3), Action.of("aim", x=1)]
    found = problems(ui, legal)
    assert "place: the form fills 'z', which no legal place action has" in found
    assert "place: argument 'card' is filled by more than one step" in found
    assert "place: 2 free steps; at most one can have the number keys" in found
    assert "place: the 'rot' cycle uses a key the client keeps ('q'/'R')" in found
    assert "keep: 'cards' is chosen as several card targets but its value is not a tuple" in found
    assert "aim: the form fills 'y', which no legal aim action has" in found
    assert "aim: some actions have only part of x, y" in found


def test_the_base_object_is_the_plain_fallback() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class View:
        hand: tuple[int, ...]
        pile: int

    ui = GameUI("anything")
    assert ui.game == "anything" and [p.area for p in ui.parts] == ["board"]
    drawing = ui.draw("view", DrawContext(View((3, 4), 9), 0, 40))
    assert drawing == plain_view(View((3, 4), 9), 40) == [("", "hand: (3, 4)\npile: 9")]
    form = ui.form("place", ["y", "card", "x"])
    assert [s.arg for s in form.steps if isinstance(s, Menu)] == ["card", "x", "y"]
    assert ui.target_text(Target("cell", (1, 2))) == "(1, 2)"


def test_check_finds_what_is_not_drawn_and_drawings_that_break() -> None:
    class Half(GameUI):
        parts = (Part("board"), Part("broken"))
        forms = {"place": Form((Choose("card", ("card",), free=True),
                                Choose("cell", ("x", "y")), Cycle("rot")))}

        def draw(self, part, ctx):
            if part == "broken":
                raise ValueError("oops")
            return [("", "a", Target("card", 1)), ("", "b", Target("cell", (0, 0))),
                    ("bad",)]

    ui = Half("toy")
    targets, found = drawn_targets(ui, None, 0)
    assert targets == {Target("card", 1), Target("cell", (0, 0))}
    assert "drawing 'broken' raised ValueError: oops" in found
    assert any("not (style, text[, target])" in f for f in found)
    missing = undrawn(ui, PLACE, targets)
    assert "place: Target(role='card', value=2) can be chosen but is not drawn" in missing
    assert "place: Target(role='cell', value=(1, 0)) can be chosen but is not drawn" in missing


def test_blocks_side_by_side_as_many_to_a_row_as_fit() -> None:
    from hedgerow.core.ui import lines_of, side_by_side

    a = [("", "AAAA\nAA"), ("x", "A", Target("cell", (0, 0)))]
    b = [("", "BBB\nB\nB")]
    c = [("", "CC")]
    out = side_by_side([a, b, c], width=10, gap=1)
    assert "".join(f[1] for f in out).split("\n") == ["AAAA BBB", "AAA  B", "     B", "", "CC"]
    assert ("x", "A", Target("cell", (0, 0))) in out  # targets kept
    fixed = side_by_side([a, b], width=40, gap=2, size=6)  # each block at least 6 wide
    assert "".join(f[1] for f in fixed).split("\n")[0] == "AAAA    BBB"
    assert [len(line) for line in lines_of([("", "a\n\nbc")])] == [1, 0, 1]
