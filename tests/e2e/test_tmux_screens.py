"""The screens at 80x24 (and 160x48) in a real terminal (tmux), played by keys.

Each test runs ``hedgerow play`` in a detached tmux session of its own (the `Terminal` of
test_tmux_play.py) against bot peer processes, and checks what a player reads:

* the move preview and the prompt are broken between words, never inside one (joined
  again, they read as the preview's own words), and Flourish's card names are whole (or
  shortened as botanists do), never cut;
* Enter in a step that waits for marked cards says so (Flourish solo);
* Petals keeps its bearings: between your turns the last card played is on screen; the
  final garden keeps its coordinates on screen while it scrolls down and across; the
  results say where lines are out of sight and the arrows show them;
* ``hedgerow play``'s seating screen invites nobody (its other seats are its own bots),
  and once the game is over ``q`` leaves without a question;
* at 160x48 the room is used: a wider sidebar and the gardens side by side.

Every wait polls the screen with a timeout.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from e2e.test_tmux_play import TMUX, Terminal, leave_table, ready, title

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (CI installs it: .ci/run)"),
]


def play(home: Path, args: str) -> str:
    return (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli play {args} "
            "--name Ann")


def over(screen: str) -> bool:
    return "Game over" in title(screen)


def prompt_rows(screen: str) -> list[str]:
    """The rows under the table (the prompt pane): after the last row of the sidebar,
    before the key line."""
    rows = screen.rstrip("\n").split("\n")
    last_side = max(i for i, row in enumerate(rows) if "│" in row)
    return rows[last_side + 1:-1]


def preview(screen: str) -> str:
    """The preview in the prompt pane, its rows joined with a space (broken between
    words, the joined text is the preview itself; broken inside a word, a word comes out
    in two pieces)."""
    rows = prompt_rows(screen)
    start = next(i for i, row in enumerate(rows) if "▶ " in row)
    text = " ".join(row.strip() for row in rows[start:] if row.strip() and
                    not row.startswith("New to the game?"))
    return text[text.index("▶ "):]


#: A Flourish preview: ``▶ Plant NAME (+N now), pass NAME left and NAME right``.
FLOURISH_PLAN = re.compile(r"▶ Plant (.+?)(?: \(\+\d+ now\))?, pass (.+) left and (.+) right$")
#: A Petals preview: where, then what it scores ("nothing", "Water +2, Fire +1"), or the
#: sentences of a symbol effect, every word of them whole.
PETALS_PLAY = re.compile(r"▶ Play #\d\d at \(-?\d+,-?\d+\)(, turned \d+°)?: (.+)$")
POINTS = r"(nothing|(Fire|Water|Earth|Air) \+\d+(, (Fire|Water|Earth|Air) \+\d+)*)"
PETALS_SCORES = re.compile(rf"{POINTS}$|different symbols meet: you then choose to score it "
                           rf"\({POINTS}\) or move another card$|{POINTS}, and identical "
                           r"symbols let you move another card$")


def card_names() -> set[str]:
    """Every Flourish card's name, whole and as `short_name` writes it."""
    from hedgerow.plugins.flourish.cards import SIZE, card
    from hedgerow.plugins.flourish.uiwords import short_name

    return {card(i).name for i in range(1, SIZE + 1)} | {short_name(i)
                                                         for i in range(1, SIZE + 1)}


@pytest.mark.timeout(200)
def test_flourish_previews_break_between_words_and_names_are_whole(tmp_path: Path) -> None:
    """Four players, Enter on each step (plant, pass left, pass right): every screen of
    every turn has its prompt broken between words and no name cut with "…"."""
    home = tmp_path / "home"
    term = Terminal(tmp_path, play(home, "flourish --seed 3 --bot-delay 0"))
    try:
        names = card_names()
        screens = plans = 0
        while True:
            screen = term.wait(lambda s: ready(s) or over(s), "our turn or the end",
                               timeout=30)
            if over(screen):
                break
            table = screen.rstrip("\n").split("\n")[:-len(prompt_rows(screen)) - 1]
            cards = [row for row in table if not row.startswith(("Passed ", "Gave "))]
            assert "…" not in "\n".join(cards), screen  # names whole, or as botanists write
            final = "Final round" in screen
            if not final and not any("▶ " in row for row in prompt_rows(screen)):
                term.wait(lambda s, screen=screen: s != screen, "the turn's choices")
                continue
            plan = None if final else FLOURISH_PLAN.match(preview(screen))
            if plan is not None:  # the whole turn: every name in it a card's
                plans += 1
                assert all(name in names for name in plan.groups()), (plan.groups(), screen)
            assert all(len(row) <= 80 for row in screen.splitlines())
            before = screen
            term.keys("1", "2", "3", "Enter") if final else term.keys("Enter")
            term.wait(lambda s, before=before: s != before, "the key to show")
            screens += 1
            assert screens < 60, "the game does not end"
        assert screens >= 20 and plans >= 6, (screens, plans)  # 9 turns of 3 steps, 1 final
        assert "End-of-game points, card by card" in screen, screen
        leave_table(term, home)
    finally:
        term.close()


@pytest.mark.timeout(90)
def test_flourish_solo_enter_with_nothing_marked_says_what_it_waits_for(tmp_path: Path,
                                                                        ) -> None:
    home = tmp_path / "home"
    term = Terminal(tmp_path, play(home, "flourish --variant solo --seed 3"))
    try:
        term.wait(ready, "our first turn")
        term.keys("Enter")  # the card to plant: the cursor's
        term.wait(lambda s: "Choose two cards to pass" in " ".join(s.split()),
                  "the step that marks two cards")
        term.keys("Enter")  # nothing marked yet
        screen = term.wait(lambda s: "Mark two cards to pass" in s, "a word on why")
        words = " ".join(" ".join(prompt_rows(screen)).split())
        assert "Mark two cards to pass with Space (or a click), then press Enter; none is " \
            "marked yet." in words, screen  # broken between words: whole once joined
        term.keys("2", "Enter")
        term.wait(lambda s: "1 is marked" in " ".join(s.split()), "the count marked")
    finally:
        term.close()


def board_rows(screen: str) -> list[str]:
    """The board pane's rows: left of the sidebar, under the title, above the hand."""
    rows = screen.split("\n")[1:]
    out = []
    for row in rows:
        if "│" not in row or row.startswith("Your"):
            break
        out.append(row.split("│")[0])
    return out


@pytest.mark.timeout(200)
def test_petals_keeps_its_bearings_at_80x24(tmp_path: Path) -> None:
    home = tmp_path / "home"
    term = Terminal(tmp_path, play(home, "petals --seed 7 --bot-delay 0.6"))
    try:
        seen_waiting = 0
        while True:
            screen = term.wait(lambda s: ready(s) or over(s), "our turn or the end",
                               timeout=30)
            if over(screen):
                break
            if any("▶ Play" in row for row in prompt_rows(screen)):  # (not a menu)
                played = PETALS_PLAY.match(preview(screen))  # every word of it whole
                assert played is not None and PETALS_SCORES.match(played.group(2)), screen
            # the board's first row: its column labels (or the corner's ▲ marker)
            first = board_rows(screen)[0].split()
            assert first and (first[0].startswith(("x", "▲"))), screen
            term.keys("Enter")
            # between our turns: after each bot's move its card (heavy corners) is in view
            waiting = term.wait(lambda s, screen=screen: "to play" in title(s) or over(s) or (
                ready(s) and "Sending" not in s and s != screen), "the bots' turn")
            if "to play" in title(waiting):  # a bot's card, while the next bot thinks
                moved = term.wait(lambda s: "last turn: Bot" in s or ready(s) or over(s),
                                  "a bot's move")
                if "to play" in title(moved) and "last turn: Bot" in moved:
                    seen_waiting += 1
                    assert "┏" in "\n".join(board_rows(moved)), moved
        assert seen_waiting >= 3, seen_waiting
        # the results: the rows out of sight are said, and PgDn shows the explanation
        screen = term.wait(lambda s: "more lines below" in s, "the results' marker")
        assert "↓ or PgDn" in screen and "Tracker winners" not in screen, screen
        term.keys("NPage", "NPage")
        screen = term.wait(lambda s: "Tracker winners" in s, "the explanation")
        assert "more lines above" in screen, screen
        # the final garden: its coordinates stay on screen while it scrolls
        term.keys("b")
        screen = term.wait(lambda s: "the final garden" in s, "the final garden")
        term.keys("PPage", "PPage", "PPage")
        term.keys("j", "j")
        screen = term.wait(lambda s: board_rows(s)[0].startswith("▲2"), "two lines down")
        top = board_rows(screen)[0]
        assert re.search(r"x-?\d", top), screen  # the column labels on the top row
        assert any(re.match(r" *y-?\d", row) for row in board_rows(screen)[1:]), screen
        term.keys("Right", "Right")
        screen = term.wait(lambda s: "◀" in s, "the garden scrolled across")
        rows = board_rows(screen)
        assert re.search(r"x-?\d", rows[0]), screen
        assert any(re.match(r" *y-?\d", row) for row in rows[1:]), screen  # row labels
        leave_table(term, home)  # over: q leaves without a question
    finally:
        term.close()


@pytest.mark.timeout(90)
def test_play_s_seating_screen_invites_nobody(tmp_path: Path) -> None:
    """Five seats, four of them this command's own bots: no screen on the way to the game
    says "Others join with" (a loopback table nobody else can join)."""
    home = tmp_path / "home"
    term = Terminal(tmp_path, play(home, "petals --players 5 --seed 2 --bot-delay 0"))
    try:
        seen = []

        def started(screen: str) -> bool:
            seen.append(screen)
            return ready(screen) or over(screen) or " to play" in title(screen)

        term.wait(started, "the game to start", timeout=60)
        assert not any("Others join" in s or "hedgerow join" in s for s in seen), seen
        seating = [s for s in seen if "Seating" in title(s)]
        assert all("The bots are taking their seats" in " ".join(s.split())
                   or "agreeing on the deal" in s for s in seating), seating
    finally:
        term.close()


@pytest.mark.timeout(120)
def test_at_160x48_the_sidebar_widens_and_the_gardens_stand_side_by_side(
        tmp_path: Path) -> None:
    home = tmp_path / "home"
    term = Terminal(tmp_path, play(home, "flowers --players 4 --seed 3 --bot-delay 0"),
                    width=160, height=48)
    try:
        screen = term.wait(lambda s: ready(s) and "Your garden" in s, "our turn")
        rows = screen.split("\n")
        side = rows[1].index("│")
        assert 160 - side - 1 == 48, rows[1]  # the sidebar: 48 columns, not 32
        headers = [row for row in rows if row.count("· score now") >= 2]
        assert headers, screen  # two gardens' headers on one row: side by side
        assert headers[0].lstrip().startswith("Your garden"), headers
        assert all(len(row) <= 160 for row in rows)
    finally:
        term.close()
