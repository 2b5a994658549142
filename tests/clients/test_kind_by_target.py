"""In the menu of kinds, a click on a target enters the kind whose form selects it (FLOWERS:
stack C means take, stack A means plant from A); nothing is played until the next Enter."""

from __future__ import annotations

import asyncio

from appdriver import click, drawn, running

from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.app.picker import Picker
from hedgerow.core import Action
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.ui import Choose, Form, GameUI, Target

STACK = Choose("stack", ("stack",), "a stack", free=True)
LEGAL = [*(Action.of("plant", stack=s, x=x, y=0) for s in (0, 1) for x in (0, 1)),
         Action.of("take", stack=2), Action.of("pass")]


def toy() -> GameUI:
    ui = GameUI("toy")
    ui.forms = {"plant": Form((STACK, Choose("cell", ("x", "y"), "a cell"))),
                "take": Form((Choose("stack", ("stack",), "the face-down stack"),)),
                "pass": Form()}
    return ui


def test_a_target_only_one_kind_selects_enters_that_kind_with_it() -> None:
    p = Picker(LEGAL, toy())
    assert p.kind is None and p.point_at(Target("stack", 2)) == "cursor"
    assert p.kind == "take" and p.cursor == (2,) and p.current() == Action.of("take", stack=2)
    p = Picker(LEGAL, toy())
    assert p.point_at(Target("stack", 1)) == "free" and p.kind == "plant" and p.free == (1,)
    p = Picker(LEGAL, toy())
    assert p.point_at(Target("cell", (1, 0))) == "cursor"
    assert p.kind == "plant" and p.cursor == (1, 0)


def test_a_target_no_kind_or_several_kinds_select_leaves_the_menu() -> None:
    p = Picker(LEGAL, toy())
    assert p.point_at(Target("stack", 7)) is None and p.kind is None
    both = [*LEGAL, Action.of("take", stack=0)]  # stack 0: plant's and take's
    p = Picker(both, toy())
    assert p.point_at(Target("stack", 0)) is None and p.kind is None


def test_clicking_the_face_down_stack_in_flowers_means_take() -> None:
    plugins = PluginHost(autoload=False)
    seat = LocalSeat(plugins.ruleset("flowers", players=2), 2, seed_from_int(4),
                     bots=[plugins.bot("random", "flowers")], name="Ann")

    async def main() -> None:
        async with running(seat, plugins) as d:
            s = d.state
            await d.until(lambda: s.my_turn and s.picker.kind is None, what="the kind menu")
            await drawn(d, lambda rows: any("face down" in r for r in rows), what="stacks")
            down = Target("stack", 2)
            assert down in s.hand.positions
            lines = len(s.lines)
            click(d, "hand", down)
            await d.until(lambda: s.picker.kind == "take", what="the take to be chosen")
            assert len(s.lines) == lines and s.picker.cursor_target() == down  # not played
            d.press("esc")
            await d.until(lambda: s.picker.kind is None, what="back to the menu")
            click(d, "hand", Target("stack", 1))
            await d.until(lambda: s.picker.kind == "plant", what="plant from B")
            assert s.picker.free == (1,)
        await seat.close()

    asyncio.run(main())
