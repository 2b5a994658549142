"""Words on the table screen: seats named in every text a game gives (previews, menu
entries, choices so far, details), names cut where they still differ, a single choice
offered without "(arrows)", "1 player", and results labels given the room they need."""

from __future__ import annotations

import asyncio
from typing import Any

from hedgerow.clients.app.gameui import ClientUI
from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.app.names import cut, fill_name, fit_names
from hedgerow.clients.app.render import keys_line, prompt, title
from hedgerow.clients.app.results import bar_chart, label_lines
from hedgerow.clients.app.state import SeatState
from hedgerow.core import Action
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.ui import Form, Target
from hedgerow.plugins.flowers.ranking import solo_outcome
from hedgerow.plugins.flowers.scoring import GardenScore
from hedgerow.plugins.flowers.ui import FlowersUI


def text(fragments: Any) -> str:
    return "".join(f[1] for f in fragments)


class SeatWords(FlowersUI):
    """FLOWERS speaking of seats by number, as rules texts do."""

    forms = {**FlowersUI.forms, "take": Form(FlowersUI.forms["take"].steps,
                                             "leave seat 1 the face-up cards")}

    def preview(self, view: Any, seat: int, action: Action) -> str | None:
        return "seat 1 gets the other" if action.kind == "take" else "Seat 0 plants"


async def _my_turn(state: SeatState) -> None:
    for _ in range(2000):
        state.stale = True
        state.refresh()
        if state.my_turn:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("our turn never came")


def test_previews_menu_entries_and_choices_name_the_seats() -> None:
    plugins = PluginHost(autoload=False)
    seat = LocalSeat(plugins.ruleset("flowers", players=2), 2, seed_from_int(4),
                     bots=[plugins.bot("random", "flowers")], name="Ann")

    async def main() -> None:
        state = SeatState(seat, ClientUI(SeatWords()))
        await _my_turn(state)
        other = state.name_of(1)
        assert other != "Seat 1"
        assert state.picker.kind is None  # the kind menu
        shown = text(prompt(state, 200))
        assert f"Leave {other} the face-up cards…" in shown and "seat 1" not in shown.lower()
        take = state.picker.kinds.index("take")
        state.picker.pick_number(take + 1)  # the kind that needs a stack: highlighted,
        state.picker.confirm()  # then Enter goes on to its step
        assert state.picker.kind == "take"
        shown = text(prompt(state, 200))
        assert f"{other} gets the other" in shown and "seat 1" not in shown.lower()
        # One face-down stack: no "(arrows)", no arrow keys in the key bar.
        assert len(state.picker.step_options()) == 1
        assert "(arrows)" not in shown and "arrows choose another" not in shown
        assert "move" not in text(keys_line(state, 200))
        await seat.close()

    asyncio.run(main())


def test_a_solo_table_says_one_player_and_one_point() -> None:
    plugins = PluginHost(autoload=False)
    seat = LocalSeat(plugins.ruleset("flowers", players=1), 1, seed_from_int(2), bots=[],
                     name="Ann")

    async def main() -> None:
        state = SeatState(seat, ClientUI(FlowersUI()))
        state.refresh()
        assert " 1 player · " in text(title(state, 80))
        await seat.close()

    asyncio.run(main())
    score = GardenScore(numbers=(), groups=(), points=(), butterflies=(), colour=1,
                        butterfly=0, penalty=1, dropped=0, largest=1, total=1)
    words = solo_outcome(score).explanation
    assert words.startswith("1 point:") and "1 card removed" in words


def test_names_cut_where_they_still_differ() -> None:
    assert cut("Bot Aster", 20) == "Bot Aster"
    assert fit_names(["Bot Aster", "Bot Briar"], 7) == ["Bot As…", "Bot Br…"]
    two = fit_names(["random bot 1", "random bot 2", "Ann"], 8)
    assert two[0] != two[1] and two[0].endswith(" 1") and len(two[0]) == 8
    assert two[2] == "Ann"
    names = ["Ann", "random bot 1", "random bot 2"]
    filled = [fill_name(("", "seat 2  ", Target("seat", s)), names) for s in (1, 2)]
    assert filled[0][1] != filled[1][1] and len(filled[0][1]) == 8


FLOWERS = [("Colour groups", (12, 8, 5, 3)), ("Butterflies", (4, 6, 2, 0)),
           ("Removed", (-1, -2, 0, -3)), ("Groups removed", (0, 1, 0, 2)),
           ("Largest group", (6, 4, 3, 2))]
FLOURISH = [*((f"Round {r}", (4, 3, 2, 1)) for r in range(1, 5)),
            ("End of game", (10, 3, 2, 1)), ("Total", (40, 35, 30, 20)),
            ("unique plant symbols", (4, 3, 3, 2)), ("unique stone symbols", (2, 1, 1, 0)),
            ("cards with an end-of-round ability", (1, 0, 0, 1))]
ROWS = [(0, "★ 1. Ann (you)  ", ""), (1, "  2. random bot 1  ", ""),
        (2, "  3. random bot 2  ", ""), (3, "  4. Bot Clover  ", "")]


def test_results_labels_keep_their_words_at_80_and_60_columns() -> None:
    for width in (78, 58):  # the results pane of an 80- and a 60-column terminal
        for columns in (FLOWERS, FLOURISH):
            drawn = text(bar_chart(ROWS, columns, width))
            assert all(len(line) <= width for line in drawn.split("\n"))
            words = drawn.split()
            for label, _ in columns:
                for word in label.split():
                    assert word in words or any(
                        w.endswith(".") and word.startswith(w[:-1]) and len(w) > 4
                        for w in words), (width, label, word, drawn)
            for n in (1, 2):  # two bots told apart, whole or cut in the middle
                assert f"random bot {n}" in drawn or f"… {n}" in drawn


def test_a_long_label_wraps_and_abbreviates() -> None:
    assert label_lines("Butterflies", 11) == ["Butterflies"]
    assert label_lines("Butterflies", 8) == ["Butterf."]
    assert label_lines("unique plant symbols", 9) == ["unique", "plant", "symbols"]
    assert len(label_lines("cards with an end-of-round ability", 6)) == 3


def test_flowers_starts_where_to_plant_on_an_empty_cell_not_the_card_just_planted() -> None:
    plugins = PluginHost(autoload=False)
    seat = LocalSeat(plugins.ruleset("flowers", players=2), 2, seed_from_int(4),
                     bots=[plugins.bot("random", "flowers")], name="Ann")

    async def main() -> None:
        state = SeatState(seat, ClientUI(FlowersUI()))
        for _turn in range(3):
            await _my_turn(state)
            picker = state.picker
            if picker.kind is None:
                picker.pick_number(picker.kinds.index("plant") + 1)
                picker.confirm()
            cursor = picker.cursor_target()
            assert cursor is not None and cursor.role == "cell"
            taken = {(x, y) for x, y, _ in state.view.gardens[0]}
            assert cursor.value not in taken, (cursor, taken)
            state.confirm()  # plant there
            for _ in range(2000):
                if not state.busy:
                    break
                await asyncio.sleep(0.005)
        await seat.close()

    asyncio.run(main())
