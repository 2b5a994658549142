"""Scrolling the board by hand (PageUp/PageDown, the mouse wheel, the arrows when not
choosing) in the real client: the other gardens of a 4-player FLOWERS table can be read at
80x24, a final Petals garden wider than the pane too, the board says where lines are out
of sight, and moving the cursor brings the board back to it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from appdriver import drawn, play_to_the_end, running

from hedgerow.clients.app.keys import ACROSS_STEP
from hedgerow.clients.app.layout import SIDE, more_label
from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.app.render import help_text, keys_line
from hedgerow.clients.app.state import SeatState
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int

PAGE_DOWN, PAGE_UP = "\x1b[6~", "\x1b[5~"


def wheel(driver, down: bool) -> None:
    """One turn of the mouse wheel over the board (SGR mouse codes 64 up, 65 down)."""
    info = driver.app.panes["board"].render_info
    x, y = info._x_offset + 5, info._y_offset + 2
    driver.pipe.send_text(f"\x1b[<{65 if down else 64};{x + 1};{y + 1}M")


def click_at(driver, x: int, y: int) -> None:
    """A left click (press and release, SGR mouse codes) at screen column ``x``, row ``y``."""
    driver.pipe.send_text(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")


def local_flowers(plugins: PluginHost, players: int = 4, seed: int = 3) -> LocalSeat:
    ruleset = plugins.ruleset("flowers", players=players)
    return LocalSeat(ruleset, players, seed_from_int(seed),
                     bots=[plugins.bot("random", "flowers")], name="Ann")


@contextlib.asynccontextmanager
async def grown_board(lines: int) -> AsyncIterator[tuple[Any, SeatState]]:
    """The client at a 4-player FLOWERS table, played on from our first turn (Enter: the
    first choice) until the board is ``lines`` taller than its pane and it is our turn to
    choose a kind of move again: the driver and the seat's state."""
    plugins = PluginHost(autoload=False)
    async with running(local_flowers(plugins), plugins) as d:
        s = d.state
        await d.until(lambda: s.my_turn, what="our turn")
        for _ in range(60):
            _, rows_, drawn_lines = s.board_shown
            if drawn_lines - rows_ >= lines and s.my_turn and s.picker.kind is None:
                break
            before = d.progress()
            d.press("enter")
            await d.until(lambda before=before: d.progress() != before and (
                s.my_turn or s.outcome is not None), what="Enter to take effect")
        yield d, s


@contextlib.asynccontextmanager
async def final_garden() -> AsyncIterator[tuple[Any, SeatState]]:
    """The client at a finished 4-player Petals game (random bots), back from the results
    on the board: the final garden, wider than the pane at 80 columns."""
    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset("petals", players=4)
    seat = LocalSeat(ruleset, 4, seed_from_int(5), bots=[plugins.bot("random", "petals")],
                     name="Ann")
    async with running(seat, plugins) as d:
        await play_to_the_end(d)
        d.press("b")  # from the results back to the board: the final garden
        await drawn(d, lambda rows: any("the final garden" in r for r in rows),
                    what="the final garden")
        yield d, d.state


def test_page_down_shows_the_last_garden_and_a_cursor_key_scrolls_back() -> None:
    async def main() -> None:
        async with grown_board(3) as (d, s):
            last = s.name_of(3)
            rows = await drawn(d, lambda rows: any("Your garden" in r for r in rows),
                               what="the board")
            assert s.board_scrolls(), "4 gardens must be taller than the board at 24 rows"
            hidden = s.board_shown[2] - s.board_shown[1]
            assert hidden >= 3  # the last garden's rows run off the bottom
            keys = "".join(f[1] for f in keys_line(s, 80))
            assert "PgUp" in keys and " i " in keys
            d.press(PAGE_DOWN, PAGE_DOWN)
            rows = await drawn(d, lambda rows: not any("Your garden" in r for r in rows),
                               what="the board scrolled by Page Down")
            assert any(last + " ·" in r for r in rows)
            assert s.board_top == hidden  # as far as the drawing goes, no further
            d.press(PAGE_UP, PAGE_UP)
            await drawn(d, lambda rows: any("Your garden" in r for r in rows),
                        what="the top again after Page Up")
            assert s.board_top == 0
            wheel(d, down=True)
            await d.until(lambda: (s.board_top or 0) > 0, what="the wheel to scroll down")
            wheel(d, down=False)
            await d.until(lambda: s.board_top == 0, what="the wheel to scroll up")
            # The cursor (here the kind menu's, then the board's) takes the board back.
            d.press(PAGE_DOWN, PAGE_DOWN)
            await d.until(lambda: (s.board_top or 0) > 0, what="scrolled down")
            d.press("down")
            await d.until(lambda: s.board_top is None, what="following the cursor again")
            await drawn(d, lambda rows: any("Your garden" in r for r in rows),
                        what="the board back at the cursor")

    asyncio.run(main())


def test_the_board_says_how_many_lines_are_out_of_sight_and_a_click_there_scrolls() -> None:
    async def main() -> None:
        async with grown_board(3) as (d, s):
            info = d.app.panes["board"].render_info
            top, rows, lines = s.board_shown
            assert top == 0
            down = more_label(lines - rows + 1, below=True).strip()
            up = more_label(lines - rows + 1, below=False).strip()
            screen = await drawn(d, lambda screen: any(down in r for r in screen),
                                 what="the marker of the lines below")
            bottom = info._y_offset + rows - 1
            assert down in screen[bottom] and not any(up in r for r in screen)
            assert screen[bottom].index(down) + len(down) < 80
            # A click on the marker scrolls a page down.
            x = screen[bottom].index(down)
            click_at(d, x + 2, bottom)
            await d.until(lambda: (s.board_top or 0) > 0, what="the click to scroll down")
            d.press(PAGE_DOWN, PAGE_DOWN, PAGE_DOWN)
            await d.until(lambda: s.board_top == lines - rows, what="the bottom")
            # At the bottom: the marker of the lines above, none below.
            screen = await drawn(d, lambda screen: any(up in r for r in screen),
                                 what="the marker of the lines above")
            assert up in screen[info._y_offset] and not any("▼" in r for r in screen)
            # The cursor takes the board back to the top: the first marker again.
            d.press("down")
            await drawn(d, lambda screen: any(down in r for r in screen)
                        and not any("▲" in r for r in screen), what="the top again")

    asyncio.run(main())


def test_when_not_choosing_the_arrows_scroll_the_final_garden_across_and_down() -> None:
    async def main() -> None:
        async with final_garden() as (d, s):
            assert not s.my_turn and s.board_wider() and s.board_left is None
            keys = "".join(f[1] for f in keys_line(s, 80))
            assert "←↑↓→" in keys and keys.count("scroll") == 1
            left, columns, width = s.board_across
            d.press("right", "right")
            await d.until(lambda: s.board_across[0] == min(left + 2 * ACROSS_STEP,
                                                           width - columns),
                          what="two arrows to scroll the board right")
            assert s.board_left == s.board_across[0]
            d.press("l")
            await d.until(lambda: s.board_across[0] == min(left + 3 * ACROSS_STEP,
                                                           width - columns),
                          what="l to scroll right too")
            for _ in range(width // ACROSS_STEP + 1):  # no further than the drawing
                d.press("right")
            await d.until(lambda: s.board_across[0] == width - columns,
                          what="the right edge of the drawing")
            d.press("left")
            await d.until(lambda: s.board_across[0] == width - columns - ACROSS_STEP,
                          what="the left arrow to scroll back")
            # Where the board stands up and down is where the last redraw left it (with
            # no cursor in the final garden, prompt_toolkit keeps the last scroll): at the
            # bottom on a busy machine.  From the top, a line down can always move.
            d.press(*[PAGE_UP] * (s.board_shown[0] // s.board_page() + 1))
            await d.until(lambda: s.board_shown[0] == 0, what="Page Up to the top")
            assert s.board_across[0] == width - columns - ACROSS_STEP  # still across
            top = s.board_shown[0]
            d.press("down")
            await d.until(lambda: s.board_shown[0] == top + 1, what="a line down")
            assert s.board_across[0] == width - columns - ACROSS_STEP  # still across
            d.press("up")
            await d.until(lambda: s.board_shown[0] == top, what="a line up")

    asyncio.run(main())


def test_side_markers_show_hidden_columns_and_a_click_there_scrolls_across() -> None:
    async def main() -> None:
        async with final_garden() as (d, s):
            info = d.app.panes["board"].render_info
            x0, y = info._x_offset, info._y_offset + info.window_height // 2
            x1 = x0 + info.window_width - 1

            def sides(screen: list[str]) -> tuple[bool, bool]:
                row = screen[y]
                return row[x0] == SIDE[0], row[x1] == SIDE[1]

            left, columns, width = s.board_across
            assert width > columns
            screen = await drawn(d, lambda screen: sides(screen)[1], what="the right marker")
            assert sides(screen) == (left > 0, True)
            click_at(d, x1, y)  # scrolls right
            await d.until(lambda: s.board_across[0] == min(left + ACROSS_STEP, width - columns),
                          what="a click on the right marker")
            for _ in range(width // ACROSS_STEP + 1):
                d.press("right")
            await d.until(lambda: s.board_across[0] == width - columns, what="the right edge")
            screen = await drawn(d, lambda screen: sides(screen) == (True, False),
                                 what="only the left marker at the right edge")
            click_at(d, x0, y)  # scrolls left
            await d.until(lambda: s.board_across[0] == width - columns - ACROSS_STEP,
                          what="a click on the left marker")

    asyncio.run(main())


@pytest.mark.parametrize(("tall", "wide", "line"), [
    (True, True, "PgUp/PgDn  ←↑↓→ scroll"), (True, False, "PgUp/PgDn  ←↑↓→ scroll"),
    (False, True, "←↑↓→ scroll"), (False, False, None)])
def test_waiting_the_status_line_names_the_scroll_keys_with_one_word(
        tall: bool, wide: bool, line: str | None) -> None:
    """Another seat's turn: Page Up/Down and the arrows both scroll, said once."""
    from types import SimpleNamespace

    waiting = SimpleNamespace(overlay=None, screen="board", my_turn=False, outcome=None,
                              over=False, departed=(), picker=None,
                              board_scrolls=lambda: tall, board_wider=lambda: wide,
                              ui=SimpleNamespace(has_details=lambda: False))
    text = " ".join("".join(f[1] for f in keys_line(waiting, 200)).split())  # type: ignore[arg-type]
    assert text.count("scroll") == (1 if line else 0)
    if line is not None:
        assert " ".join(line.split()) in text


def test_the_more_label_counts_lines_and_names_the_key() -> None:
    assert more_label(1, below=True) == " ▼ 1 more line · PgDn "
    assert more_label(7, below=False) == " ▲ 7 more lines · PgUp "


def test_the_help_lists_scrolling_and_reading() -> None:
    plugins = PluginHost(autoload=False)
    seat = local_flowers(plugins, players=2)

    async def main() -> None:
        async with running(seat, plugins) as d:
            await d.until(lambda: d.state.my_turn, what="our turn")
            text = "".join(f[1] for f in help_text(d.state, 68))
            assert "PgUp PgDn" in text and "scroll the board" in text
            assert "read a piece in full" in text and "wheel" in text

    asyncio.run(main())


def _pane(d: Any, rows: list[str]) -> list[str]:
    """The board pane's rows as drawn on screen."""
    info = d.app.panes["board"].render_info
    x0, y0 = info._x_offset, info._y_offset
    return [r[x0:x0 + info.window_width] for r in rows[y0:y0 + info.window_height]]


def test_the_garden_s_coordinates_stay_on_screen_while_it_scrolls() -> None:
    """Petals' column labels stay on the pane's top row when the final garden is scrolled
    down, and its row labels at the left when it is scrolled across (`Part.head_rows`,
    `Part.head_columns`); the marker of the lines above sits in their corner."""
    async def main() -> None:
        async with final_garden() as (d, s):
            assert s.board_head == (1, 4)
            d.press(PAGE_UP, PAGE_UP, PAGE_UP, PAGE_UP)  # to the very top
            await d.until(lambda: s.board_shown[0] == 0, what="the top")
            d.press("j", "j")
            await d.until(lambda: s.board_shown[0] == 2, what="two lines down")
            pane = _pane(d, await drawn(d, lambda rows: True))
            assert pane[0].startswith("▲2  "), pane[0]  # the corner: two lines above
            assert pane[0][4:].split()[0].startswith("x"), pane[0]  # the column labels
            labels = [row[:4].strip() for row in pane[1:]]
            assert any(label.startswith("y") for label in labels)
            d.press("right", "right")
            await d.until(lambda: s.board_across[0] > 0, what="scrolled across")
            pane = _pane(d, await drawn(d, lambda rows: True))
            # every row still starts with its row label (or the label column's blank; the
            # middle row's ◀ says columns are hidden that way)
            assert [row[:4].strip("◀ ") for row in pane[1:]] == labels, pane
            assert pane[0][4:].split()[0].startswith(("x", "-")) or pane[0][4] == " "

    asyncio.run(main())


def test_between_turns_the_board_shows_the_last_card_played() -> None:
    """Petals' focus (`GameUI.focus`): whoever played last, the board scrolls to that card
    after each move, without the player touching a key."""
    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset("petals", players=4)
    seat = LocalSeat(ruleset, 4, seed_from_int(5), bots=[plugins.bot("random", "petals")],
                     name="Ann", bot_delay=0.3)

    async def main() -> None:
        async with running(seat, plugins) as d:
            s = d.state
            checked = away = 0
            while s.outcome is None and (checked < 6 or not away):
                await d.until(lambda: s.my_turn or s.outcome is not None, timeout=20,
                              what="our turn")
                if s.outcome is not None:
                    break
                d.press("enter")
                await d.until(lambda: not s.my_turn, what="the bots' turn")
                seen = len(s.lines)
                await d.until(lambda seen=seen: len(s.lines) > seen, what="a bot's move")
                last = s.view.last
                cell = ("cell", last.placed)
                await d.until(lambda cell=cell: any(
                    t.role == cell[0] and t.value == cell[1] for t in s.board.order),
                    what="the card drawn")
                from hedgerow.core.ui import Target

                target = Target(*cell)

                def in_view(target: Target = target) -> bool:
                    first, room, _ = s.board_shown
                    return first <= s.board.positions[target][0] < first + room

                await d.until(lambda in_view=in_view: in_view() or s.my_turn,
                              what="the last card in view")
                if not s.my_turn:
                    row = s.board.positions[target][0]
                    first, room, _ = s.board_shown
                    assert first <= row < first + room, (row, s.board_shown)
                    checked += 1
                    away += first > 0  # the board had to scroll to show it
            assert checked >= 3 and away, (checked, away)

    asyncio.run(main())
