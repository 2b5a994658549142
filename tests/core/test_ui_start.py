"""Where a step's cursor starts (`GameUI.start`): the base answer, the picker honouring a
game's answer (and ignoring one that is not legal), and `uicheck` reporting a bad one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hedgerow.clients.app.picker import Picker
from hedgerow.core import Action
from hedgerow.core.ui import Choose, Form, GameUI, Target
from hedgerow.core.uicheck import start_problems

CELL = Choose("cell", ("x", "y"), "a cell")
PLACE = [Action.of("place", x=x, y=0) for x in (0, 1, 2)]


class Toy(GameUI):
    forms = {"place": Form((CELL,))}

    def __init__(self, answer: Target | None) -> None:
        super().__init__("toy")
        self.answer = answer

    def start(self, view: Any, seat: int, step: Choose, options: Sequence[Target],
              ) -> Target | None:
        return self.answer


def picker(ui: GameUI, previous: Picker | None = None) -> Picker:
    return Picker(PLACE, ui, previous=previous,
                  start=lambda step, options: ui.start(None, 0, step, options))


def test_the_base_class_leaves_the_start_to_the_client() -> None:
    assert GameUI().start(None, 0, CELL, [Target("cell", (0, 0))]) is None


def test_the_cursor_starts_where_the_game_says_rather_than_where_it_last_was() -> None:
    last = Picker(PLACE, Toy(None))
    last.cursor = (2, 0)
    last.last["cell"] = (2, 0)
    assert Picker(PLACE, Toy(None), previous=last).cursor == (2, 0)  # no hook: the last one
    assert picker(Toy(None), last).cursor == (2, 0)  # the game leaves it: the last one
    assert picker(Toy(Target("cell", (1, 0))), last).cursor == (1, 0)
    # An answer that is not a legal target is ignored.
    assert picker(Toy(Target("cell", (9, 9))), last).cursor == (2, 0)


def test_the_hook_gets_the_options_in_drawn_order() -> None:
    seen: list[list[Target]] = []

    def start(step: Choose, options: list[Target]) -> Target | None:
        seen.append(options)
        return None

    Picker(PLACE, Toy(None), orders={"cell": [(2, 0), (0, 0), (1, 0)]}, start=start)
    assert seen == [[Target("cell", (2, 0)), Target("cell", (0, 0)), Target("cell", (1, 0))]]


def test_uicheck_reports_a_start_that_is_not_legal_or_that_raises() -> None:
    assert start_problems(Toy(Target("cell", (1, 0))), None, 0, PLACE) == []
    assert start_problems(Toy(None), None, 0, PLACE) == []
    found = start_problems(Toy(Target("cell", (9, 9))), None, 0, PLACE)
    assert found and "not a legal target" in found[0]

    class Broken(Toy):
        def start(self, view: Any, seat: int, step: Choose, options: Sequence[Target],
                  ) -> Target | None:
            raise ValueError("no")

    assert "start raised ValueError" in start_problems(Broken(None), None, 0, PLACE)[0]
