"""The results screen for each kind of outcome, drawn by the real client (pipe input, dummy
output), and the line ``hedgerow play`` prints after the screen closes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from appdriver import drawn, running

from hedgerow.clients.app.local import NoDepartures
from hedgerow.clients.app.results import farewell
from hedgerow.clients.app.state import RESULTS
from hedgerow.core import Cooperative, Match, Ranked, Solo
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.seat import Link, Phase, SeatInfo


class FinishedSeat:
    """A `Seat` whose game is over with ``outcome`` (no view, no moves)."""

    def __init__(self, plugins: PluginHost, outcome, players: int, *, sealed: bool = False,
                 verdict: str | None = None, settled: bool = True) -> None:
        self.seat = 0
        self.departures = NoDepartures()  # nobody left: the game is over
        self.players = players
        self.ruleset = plugins.ruleset("petals", players=max(players, 2))
        self._outcome = outcome
        self.sealed = sealed  # (a sealed table: the check of its deck, `verdict`)
        self._verdict = verdict
        self._settled = settled

    def verdict(self):
        return self._verdict

    def confirmed_end(self):
        return self._settled

    def deck_wait(self):
        return None

    def phase(self):
        return Phase.FINISHED

    def view(self):
        return None

    def active_seats(self):
        return ()

    def legal_actions(self):
        return ()

    def outcome(self):
        return self._outcome

    def seats(self):
        return [SeatInfo(0, "Ann", Link.YOU),
                *(SeatInfo(s, f"Bot {s}", Link.CONNECTED, bot="random")
                  for s in range(1, self.players))]

    def history(self):
        return ()

    def problem(self):
        return None

    def watchers(self):
        return ()

    def log_path(self):
        return Path("/tmp/table.log")

    async def submit(self, action):
        raise AssertionError("nothing to submit")

    def subscribe(self, callback):
        pass

    async def close(self):
        pass


def results_screen(outcome, players: int, rows: int = 24) -> str:
    plugins = PluginHost(autoload=False)
    seat = FinishedSeat(plugins, outcome, players)
    found: list[str] = []

    async def main() -> None:
        async with running(seat, plugins, rows=rows) as d:
            screen = await drawn(d, lambda rows: any("Log saved to" in r for r in rows),
                                 what="the results screen")
            assert d.state.screen == RESULTS
            assert all(len(r) <= 80 for r in screen)
            found.append("\n".join(screen))

    asyncio.run(main())
    return found[0]


FIRE = ("Fire", (5, 4, 3))


def test_ranked_shows_the_ranks_the_winners_and_the_eliminated() -> None:
    outcome = Ranked(scores=(12, 9, 4), ranking=(1, 2, 3), winners=(0,),
                     explanation="You led Fire and Water.", eliminated=(2,),
                     breakdown=(FIRE, ("Water", (7, 5, 1))))
    screen = results_screen(outcome, 3)
    assert "You win!" in screen
    assert "★ 1. Ann (you)" in screen and "  2. Bot 1" in screen and "✗ 3. Bot 2" in screen
    assert "Fire" in screen and "Water" in screen
    assert "★ winner" in screen and "best in its column" not in screen
    assert "✗ eliminated: Bot 2." in screen and "You led Fire and Water." in screen
    assert screen.index("1. Ann") < screen.index("2. Bot 1") < screen.index("3. Bot 2")
    # No column is starred for its largest value: only the winner's row is.
    assert next(r for r in screen.splitlines() if "2. Bot 1" in r).count("★") == 0


def test_ranked_shared_victory() -> None:
    outcome = Ranked(scores=(9, 9), ranking=(1, 1), winners=(0, 1), explanation="A tie.")
    screen = results_screen(outcome, 2)
    assert "Ann, Bot 1 share the victory" in screen and "Score" in screen


def test_cooperative_shows_the_total_the_grade_the_thresholds_and_everyone() -> None:
    outcome = Cooperative(scores=(100, 110, 90), total=300, won=True, grade="Silver",
                          explanation="300 reaches Silver (285).",
                          grades=(("Bronze", 255), ("Silver", 285), ("Gold", 315)))
    screen = results_screen(outcome, 3)
    assert "The team wins: 300 points, Silver" in screen
    assert "Team total  300 points  — Silver" in screen
    assert "✓ Bronze 255" in screen and "✓ Silver 285 (reached)" in screen
    assert "· Gold 315 (15 more)" in screen
    assert "Everyone's contribution" in screen
    for name, points in (("Ann", "100"), ("Bot 1", "110"), ("Bot 2", "90")):
        line = next(r for r in screen.splitlines() if r.startswith(f"  {name}"))
        assert points in line


def test_cooperative_loss_without_a_grade() -> None:
    outcome = Cooperative(scores=(100, 100), total=200, won=False, grade="",
                          explanation="200 is short of Bronze (255).",
                          grades=(("Bronze", 255), ("Silver", 285)))
    screen = results_screen(outcome, 2)
    assert "The team loses: 200 points, no grade" in screen and "— no grade" in screen
    assert "· Bronze 255 (55 more)" in screen and "(reached)" not in screen


def test_solo_graded_only() -> None:
    outcome = Solo(score=23, grade="Expert", explanation="18-25 is Expert.",
                   breakdown=(("Colours", (20,)), ("Butterflies", (5,)), ("Removed", (-2,))))
    screen = results_screen(outcome, 1)
    assert "Ann: 23 — Expert" in screen
    assert "Score  23" in screen and "Grade  Expert" in screen
    assert "Result" not in screen and "Opponent" not in screen
    assert "Butterflies" in screen and "-2" in screen


def test_solo_against_an_opponent_lost() -> None:
    outcome = Solo(score=-6, grade="", explanation="McGregor scored more.", won=False,
                   opponent=41)
    screen = results_screen(outcome, 1)
    assert "Ann: -6 (lost)" in screen
    assert "Grade  none" in screen and "Result  lost" in screen
    assert "Opponent's score  41" in screen


def test_match_shows_each_game_the_running_totals_and_the_winner() -> None:
    games = (Ranked((52, 48), (1, 2), (0,), "game 1"), Ranked((40, 55), (2, 1), (1,), "game 2"),
             Ranked((61, 45), (1, 2), (0,), "game 3"))
    outcome = Match(games=games, totals=((52, 48), (92, 103), (153, 148)),
                    final=Ranked((153, 148), (1, 2), (0,), "153 beats 148.",
                                 breakdown=(("Ribbons", (1, 2)),)))
    screen = results_screen(outcome, 2, rows=30)
    assert "You win the match!" in screen
    lines = screen.splitlines()
    head = next(r for r in lines if "Game 1" in r and "Total" in r)
    assert "Game 2" in head and "Game 3" in head and "Ribbons" in head
    mine = next(r for r in lines if "1. Ann (you)" in r)
    assert mine.split()[4:] == ["52", "★", "40", "61", "★", "153", "1"]
    assert "Running totals" in screen
    theirs = [r for r in lines if r.strip().startswith("Bot 1")]
    assert theirs and theirs[-1].split()[2:] == ["48", "103", "148"]
    assert "Game 1: you won — game 1" in screen and "Game 2: Bot 1 won — game 2" in screen
    assert "153 beats 148." in screen


@pytest.mark.parametrize(("outcome", "line"), [
    (Ranked((9, 3), (1, 2), (0,), ""), "Game over: you won!"),
    (Ranked((3, 9), (2, 1), (1,), ""), "Game over: Bot 1 won."),
    (Ranked((9, 9), (1, 1), (0, 1), ""), "Game over: you and Bot 1 won."),
    (Cooperative((5, 5), 10, False, "", ""), "Game over: the team lost with 10 points "
                                             "(no grade)."),
    (Cooperative((5, 5), 10, True, "Gold", ""), "Game over: the team won with 10 points (Gold)."),
    (Solo(23, "Expert", ""), "Game over: 23 points, Expert."),
    (Solo(-3, "", "", won=False, opponent=40), "Game over: -3 points. You lost."),
    (Match((), (), Ranked((1, 2), (2, 1), (1,), "")), "Game over: Bot 1 won the match."),
    (None, "You left before the end of the game."),
])
def test_the_line_after_the_screen_reads_every_kind(outcome, line) -> None:
    assert farewell(outcome, ["Ann", "Bot 1"], 0) == line


def test_a_results_screen_taller_than_the_terminal_scrolls() -> None:
    outcome = Ranked(scores=(5, 4, 3, 2, 1), ranking=(1, 2, 3, 4, 5), winners=(0,),
                     explanation="A long story. " * 70 + "The end.")
    plugins = PluginHost(autoload=False)
    seat = FinishedSeat(plugins, outcome, 5)

    async def main() -> None:
        async with running(seat, plugins, rows=20, columns=60) as d:
            first = await drawn(d, lambda rows: "scroll" in rows[-1], what="a scroll key")
            assert "You win!" in "\n".join(first) and "The end." not in "\n".join(first)
            assert "Log saved to" in first[-2]  # it stays in view under the results
            # the explanation below the fold: its last row says so, and which keys show it
            below = first[-3].strip()
            assert below.startswith("▼ ") and below.endswith("more lines below: ↓ or PgDn")
            assert not any("▲" in r for r in first)
            d.press("\x1b[6~", "\x1b[6~")  # Page Down, twice
            rows = await drawn(d, lambda rows: any("The end." in r for r in rows),
                               what="the end of the screen")
            assert "You win!" not in "\n".join(rows) and "Log saved to" in rows[-2]
            assert rows[2].strip().endswith("more lines above: ↑ or PgUp"), rows
            assert "The end." in rows[-3] and not any("▼" in r for r in rows)
            d.press("up")
            await d.until(lambda: d.state.results_top == d.state.results_lines
                          - d.state.results_room - 1, what="one line up")

    asyncio.run(main())


def test_a_narrow_results_screen_turns_the_table_rather_than_cut_its_heads() -> None:
    columns = (("Fire", (6, 6, 5, 1)), ("Water", (9, 6, 2, 8)), ("Earth", (11, 12, 7, 3)),
               ("Air", (14, 3, 5, 6)), ("Trackers won", (3, 2, 0, 0)),
               ("Spread", (8, 9, 5, 7)), ("Two lowest", (15, 9, 7, 4)))
    outcome = Ranked(scores=(-8, -9, -5, -7), ranking=(1, 2, 3, 4), winners=(0,),
                     explanation="", eliminated=(2, 3), breakdown=columns)
    plugins = PluginHost(autoload=False)
    seat = FinishedSeat(plugins, outcome, 4)

    async def main() -> None:
        async with running(seat, plugins, rows=20, columns=60) as d:
            rows = await drawn(d, lambda rows: any("Two lowest" in r for r in rows),
                               what="the results")
            assert all(len(r) <= 60 for r in rows)
            ranks = next(r for r in rows if "★ 1." in r)
            assert ranks.split() == ["★", "1.", "2.", "✗", "3.", "✗", "4."]
            names = rows[rows.index(ranks) + 1]
            assert names.split() == ["Ann", "(you)", "Bot", "1", "Bot", "2", "Bot", "3"]
            assert next(r for r in rows if r.startswith("Spread")).split() == ["Spread", "8",
                                                                              "9", "5", "7"]

    asyncio.run(main())


def test_a_ranked_result_without_a_total_column_gets_one() -> None:
    """Mandala's breakdown has no column of the points it ranks by: the table adds it."""
    outcome = Ranked(scores=(15, 5, 16), ranking=(2, 3, 1), winners=(2,), explanation="",
                     breakdown=(("Flower points", (11, 3, 9)), ("Single points", (4, 2, 7))))
    screen = results_screen(outcome, 3)
    head = next(r for r in screen.splitlines() if "Flower" in r)
    assert head.split()[-1] == "Score"
    assert next(r for r in screen.splitlines() if "1. Bot 2" in r).split()[-1] == "16"


def test_a_column_of_the_totals_is_shown_once() -> None:
    """Petals' last column is its score; Flourish's cooperative breakdown has its Total:
    no second column of the same numbers."""
    petals = Ranked(scores=(9, 4), ranking=(1, 2), winners=(0,), explanation="",
                    breakdown=(("Fire", (5, 4)), ("Two lowest", (9, 4))))
    assert "Score" not in results_screen(petals, 2)
    team = Cooperative(scores=(71, 78), total=149, won=False, grade="", explanation="",
                       breakdown=(("End of game", (51, 51)), ("Total", (71, 78))))
    screen = results_screen(team, 2)
    assert "Points" not in screen and screen.count("Total") == 1


def test_a_match_shows_its_total_once_and_wraps_long_heads() -> None:
    """The Garden Show's own columns repeat the total: it shows once, and "Ribbons won"
    goes on two lines rather than being cut."""
    games = (Ranked((52, 48), (1, 2), (0,), ""), Ranked((40, 55), (2, 1), (1,), ""))
    outcome = Match(games=games, totals=((52, 48), (92, 103)),
                    final=Ranked((92, 103), (2, 1), (1,), "",
                                 breakdown=(("Total", (92, 103)), ("Ribbons won", (1, 2)))))
    lines = results_screen(outcome, 2, rows=30).splitlines()
    at = next(i for i, r in enumerate(lines) if "Points per game" in r)
    heads = " ".join(lines[at + 1: at + 3]).split()
    assert heads.count("Total") == 1 and "Ribbons" in heads and "won" in heads, heads
    from hedgerow.clients.app.results import label_lines

    assert label_lines("Ribbons won", 8, 2) == ["Ribbons", "won"]  # a narrow column
