"""Mandala's UI object (plugins/mandala/ui.py) and the seat client showing it.

The object is reached through the host as the client reaches it.  Its drawing, previews,
prompts and details are checked on the spec's worked example §13.2 (claims, completion,
the tile choice), its public face-down colours (another seat's face-down cards in their
colour, spec §5) on that example and on random states, and the whole object against
seeded games of 2-4 players with and without Draw four (`hedgerow.core.uicheck`).  Then
the real seat client (pipe input, dummy output, 80x24) plays whole games by keys, a tile
choice included.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from hedgerow.core import Action, Rng
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Table
from hedgerow.core.ui import DrawContext, Target, problems
from hedgerow.core.uicheck import check_ui
from hedgerow.plugins.mandala.cards import COLOURS, tile_name
from hedgerow.plugins.mandala.choices import take_action
from hedgerow.plugins.mandala.render import COLOUR_STYLES, DIM, DOWN, GHOST, RULE, UP
from hedgerow.plugins.mandala.resolution import empty_mandala
from hedgerow.plugins.mandala.state import CHOOSE, Play, State, View
from hedgerow.plugins.mandala.ui import MandalaUI
from hedgerow.plugins.mandala.view import view as view_of

from .conftest import applied, deck_of, hand, make_state, play, take, tiles

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))
from appdriver import drawn, running, screen_lines

A, B, C = 0, 1, 2
PURPLE2, ORANGE1 = tiles("purple-2", "orange-1")
NEXT = tiles("red-3", "yellow-3")


@pytest.fixture(scope="module")
def ui(plugins: PluginHost, standard: Ruleset) -> MandalaUI:
    found = plugins.game_ui("mandala", standard)
    assert isinstance(found, MandalaUI)
    return found


def text(fragments) -> str:
    return "".join(f[1] for f in fragments)


def targets(fragments) -> list[Target]:
    found: list[Target] = []
    for fragment in fragments:
        if len(fragment) > 2 and fragment[2] not in found:
            found.append(fragment[2])
    return found


def draw(ui: MandalaUI, part: str, v: View, preview: Action | None = None,
         width: int = 47):
    return ui.draw(part, DrawContext(v, v.seat, width, preview))


def rows(ui: MandalaUI, v: View, preview: Action | None = None) -> dict[str, str]:
    """The mandalas table's rows by their label (players by "You" / "Seat n")."""
    lines = text(draw(ui, "mandalas", v, preview)).split("\n")
    return {line[:8].strip(): line[8:].replace(RULE, " ") for line in lines}  # cells only


def example(standard: Ruleset, *, b_yellow: int = 2) -> State:
    """Spec §13.2 up to step 5 (B plays ``b_yellow`` yellow), C to play."""
    s = make_state(
        players=3,
        hands={A: hand(red=3, gray=2), B: hand(purple=1, yellow=2, gray=2),
               C: hand(gray=3, green=1, yellow=2)},
        mandalas=[(PURPLE2, ORANGE1)], deck=deck_of(*["orange"] * 20),
        dark=(NEXT[0],), light=(NEXT[1],))
    for seat, action in ((A, play(0, "red", 2)), (B, play(0, "purple", 1)),
                         (C, play(0, "gray", 3)), (A, play(0, "red", 1)),
                         (B, play(0, "yellow", b_yellow))):
        s = applied(standard, s, seat, action)
    return s


# -- the object and its hook ---------------------------------------------------------------


def test_the_hook_answers_a_ui_for_mandala_with_the_tables_draw_rule(
        plugins: PluginHost, standard: Ruleset, drawfour: Ruleset) -> None:
    assert isinstance(plugins.game_ui("mandala"), MandalaUI)
    assert plugins.game_ui("petals-not", standard) is None
    four = plugins.game_ui("mandala", drawfour)
    assert isinstance(four, MandalaUI) and four.rule.after_single == 4
    assert "draw 4" in four.help and "draw 2" in plugins.game_ui("mandala", standard).help
    assert len(four.help) < 480 and "claim" in four.help and "face-down" in four.help


def test_the_forms_fit_the_legal_actions(ui: MandalaUI, standard: Ruleset) -> None:
    s = example(standard)
    assert problems(ui, standard.gamedef.legal_actions(s, C)) == []
    chosen = applied(standard, example(standard, b_yellow=1), C, play(0, "green", 1))
    assert chosen.phase == CHOOSE
    assert problems(ui, standard.gamedef.legal_actions(chosen, C)) == []


# -- the table of mandalas -----------------------------------------------------------------


def test_the_table_shows_tiles_needs_claim_and_every_side(ui: MandalaUI,
                                                          standard: Ruleset) -> None:
    s = example(standard)
    table = rows(ui, view_of(s, A))
    assert table[""].split()[:3] == ["M0", "M1", "M2"]
    assert table["tiles"].split()[:2] == ["pu2", "og1"]
    assert table["needs"].split()[:1] == ["gn"]  # purple orange red gray yellow are there
    assert table["claim"].split()[:2] == ["Seat", "2"]
    assert table["You"].split()[:2] == ["3", UP * 2 + DOWN]  # 2 red up, 1 red down
    assert table["Seat 1"].split()[:2] == ["3", UP * 2 + DOWN]  # 2 yellow up, 1 down
    assert table["Seat 2"].split()[:2] == ["3", UP * 3]
    assert "deck 16" in text(draw(ui, "mandalas", view_of(s, A)))


def test_another_seats_face_down_cards_show_their_colour(ui: MandalaUI,
                                                         standard: Ruleset) -> None:
    """Spec §5: a face-down card's colour is public, so A sees B's purple as B does."""
    s = example(standard)
    mine = draw(ui, "mandalas", view_of(s, B))  # B's own face-down card is purple
    theirs = draw(ui, "mandalas", view_of(s, A))
    b_side = Target("side", (0, B))
    own = [f for f in mine if len(f) > 2 and f[2] == b_side and DOWN in f[1]]
    seen = [f for f in theirs if len(f) > 2 and f[2] == b_side and DOWN in f[1]]
    assert own and "#af5fff" in own[0][0]  # purple, as B knows
    assert seen and seen[0][0] == own[0][0]  # and as A sees it
    assert "purple" in ui.details(view_of(s, B), B, b_side)
    words = ui.details(view_of(s, A), A, b_side)
    assert "1 purple face-down" in words


def test_a_previewed_play_is_drawn_with_its_majority(ui: MandalaUI,
                                                     standard: Ruleset) -> None:
    s = example(standard)  # C to play; C holds the claim with 3
    v = view_of(s, C)
    ghost = play(0, "green", 1)
    table = rows(ui, v, ghost)
    assert table["You"].split()[:2] == ["4", UP * 4]  # 3 gray and the green ghost
    assert table["needs"].split()[0] == "complete!"
    assert any(GHOST in f[0] and f[1] == UP for f in draw(ui, "mandalas", v, ghost))
    hand_text = text(draw(ui, "hand", v, ghost))
    assert hand_text.endswith("[1] 1 green -1  [2] 2 yellow")
    # A out-numbering C on M1 takes the claim: the claim row says so
    s = applied(standard, s, C, play(1, "yellow", 1))
    v = view_of(s, A)
    assert v.hand == hand(gray=2, orange=2)  # the deck holds only orange
    assert rows(ui, v)["claim"].split()[2:4] == ["Seat", "2"]
    assert rows(ui, v, play(1, "orange", 2))["claim"].split()[2:4] == ["→", "you"]


def test_previews_say_how_cards_lie_the_claim_and_the_draw(ui: MandalaUI,
                                                           standard: Ruleset) -> None:
    s = make_state(players=3, hands={A: hand(red=3, gray=2), B: hand(purple=1, yellow=4),
                                     C: hand(gray=3, green=1, yellow=2)},
                   mandalas=[(PURPLE2, ORANGE1)], deck=deck_of(*["orange"] * 20))
    say = lambda st, seat, a: ui.preview(view_of(st, seat), seat, a)  # noqa: E731
    assert say(s, A, play(0, "red", 2)) == "2 red on M0 face-up: you take the claim; no draw."
    s = applied(standard, s, A, play(0, "red", 2))
    assert say(s, A, play(0, "red", 1)) == (  # not A's turn: a preview all the same
        "1 red on M0 face-down (red shows): you keep the claim; draw 2.")
    assert say(s, B, play(0, "purple", 1)) == (  # too long to say why it is face-down
        "1 purple on M0 face-down: no claim (no face-up card of yours); draw 2.")
    s = applied(standard, s, B, play(0, "purple", 1))
    assert say(s, C, play(0, "gray", 3)) == (
        "3 gray on M0 face-up: you take the claim, 3 cards to 2; no draw.")
    s = applied(standard, s, C, play(0, "gray", 3))
    assert say(s, A, play(0, "red", 1)) == (
        "1 red on M0 face-down: seat 2 keeps the claim, 3 to your 3 (+1); draw 2.")
    assert say(s, B, play(0, "yellow", 1)) == (
        "1 yellow on M0 face-up: seat 2 keeps the claim, 3 to your 2 (+2); draw 2.")


def test_completing_says_who_takes_the_tiles(ui: MandalaUI, standard: Ruleset) -> None:
    tied = example(standard)  # A and B level: C takes both
    words = ui.preview(view_of(tied, C), C, play(0, "green", 1))
    assert words == ("1 green on M0 completes it: you take both tiles; you discard your 4 "
                     "there; draw 2.")
    tiles = text(draw(ui, "tiles", view_of(tied, C), play(0, "green", 1)))
    assert "You        pu2? og1?" in tiles  # tentative: taken if the play is made
    assert tiles.startswith("Tiles taken (? = if you make this move)")
    second = example(standard, b_yellow=1)  # A is second
    words = ui.preview(view_of(second, C), C, play(0, "green", 1))
    assert "you choose a tile, seat 0 gets the other" in words


# -- the tile choice -------------------------------------------------------------------------


def test_the_claim_holder_chooses_a_tile_on_the_board(ui: MandalaUI,
                                                      standard: Ruleset) -> None:
    s = applied(standard, example(standard, b_yellow=1), C, play(0, "green", 1))
    assert s.phase == CHOOSE and s.second == A
    v = view_of(s, C)
    assert ui.prompt(v, C) == "M0 is complete: keep one tile (1, 2, Enter); seat 0 gets the other."
    drawing = draw(ui, "mandalas", v)
    choosable = [t for t in targets(drawing) if t.role == "tile"]
    assert choosable == [Target("tile", PURPLE2), Target("tile", ORANGE1)]  # keys 1 and 2
    assert "keep one of its tiles" in text(drawing)
    assert ui.preview(v, C, take("purple-2")) == (
        "Keep purple-2: +2; seat 0 gets orange-1 (+1).")
    after = text(draw(ui, "tiles", v, take("orange-1")))
    assert "You        og1?" in after and "Seat 0     pu2?" in after  # the previewed tiles
    watcher = view_of(s, A)
    assert ui.prompt(watcher, A) is None
    assert "chooses a tile" in text(draw(ui, "mandalas", watcher))
    assert "Last completed" not in text(drawing)
    # once taken: what happened shows for about a round, then makes room
    s = applied(standard, s, C, take("orange-1"))
    words = text(draw(ui, "mandalas", view_of(s, B)))
    assert "Last completed: M0; 2 cards came back to you." in words
    assert "  Seat 2 took og1; Seat 0 took pu2" in words
    for seat in (A, B, C):
        s = applied(standard, s, seat, standard.gamedef.legal_actions(s, seat)[0])
    assert "Last completed" not in text(draw(ui, "mandalas", view_of(s, B)))
    assert not [t for t in targets(draw(ui, "mandalas", view_of(s, B)))
                if t.role == "tile" and t.value not in (PURPLE2, ORANGE1)]


def test_a_tile_that_completes_a_flower_says_so(ui: MandalaUI, standard: Ruleset) -> None:
    s = applied(standard, example(standard, b_yellow=1), C, play(0, "green", 1))
    s = s._replace(tiles=(tiles("yellow-x3"), (), tiles("orange-3")))
    v = view_of(s, C)
    assert ui.preview(v, C, take("orange-1")) == (
        "Keep orange-1: +2, a flower; seat 0 gets purple-2 (+2).")
    assert ui.preview(view_of(s._replace(tiles=((), (), ())), C), C, take("purple-2")) == (
        "Keep purple-2: +2; seat 0 gets orange-1 (+1).")
    three = s._replace(tiles=(tiles("purple-3"), (), tiles("gray-1", "gray-2", "red-1", "red-2",
                                                           "orange-3")))
    assert ui.preview(view_of(three, C), C, take("orange-1")) == (
        "Keep orange-1: +2, a third flower: game over; seat 0 gets purple-2 (+4, a flower).")


def test_a_complete_flower_is_marked_and_scored(ui: MandalaUI) -> None:
    held = tiles("gray-1", "red-2", "gray-3")
    s = make_state(players=2, held={A: held})
    v = view_of(s, A)
    assert "✿gy1+gy3 rd2" in text(draw(ui, "tiles", v))
    assert ui.details(v, A, Target("held", (A, 0))) == (
        "Your complete gray flower: gray-1 + gray-3 = 5 points.")
    assert ui.details(view_of(s, B), B, Target("held", (A, 1))).startswith(
        "Seat 0's single half red-2: 2 points; another red tile")
    columns = ui.score_columns(v)
    assert [c.label for c in columns] == ["Pts", "Fl", "Hand"]
    assert columns[0].values == (7, 0) and columns[1].values == (1, 0)


# -- the hand, words and details -------------------------------------------------------------


def test_the_hand_is_numbered_by_colour(ui: MandalaUI) -> None:
    s = make_state(players=2, hands={A: hand(gray=2, red=1, yellow=3)})
    drawing = draw(ui, "hand", view_of(s, A))
    assert [t for t in targets(drawing)] == [Target("colour", c) for c in (0, 2, 5)]
    words = text(drawing)
    assert "Your hand: 6 cards" in words and "[1] 2 gray" in words and "[3] 3 yellow" in words


def test_targets_and_details_in_words(ui: MandalaUI, standard: Ruleset) -> None:
    v = view_of(example(standard), A)
    assert ui.target_text(Target("mandala", 2)) == "M2"
    assert ui.target_text(Target("tile", PURPLE2)) == "purple-2"
    assert ui.target_text(Target("colour", 3)) == "green"
    words = ui.details(v, A, Target("mandala", 0))
    assert "It needs green" in words and "Claim: seat 2 (3 cards)" in words
    assert ui.details(v, A, Target("colour", 4)) == (  # orange: a tile of M0 only
        "Orange: 2 in your hand. Played now it lies face-up on M1, M2 and face-down on M0.")
    assert "x3" not in ui.details(v, A, Target("board-tile", PURPLE2))
    assert "triples" in ui.details(v, A, Target("board-tile", tiles("red-x3")[0]))
    for target in targets(draw(ui, "mandalas", v)):
        words = ui.details(v, A, target)
        assert words is None or len(words) <= 240, (target, words)


# -- whole games ----------------------------------------------------------------------------


@pytest.mark.parametrize("variants", [(), ("draw-four",)], ids=["standard", "draw-four"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_ui_object_fits_whole_games(plugins: PluginHost, players: int,
                                        variants: tuple[str, ...]) -> None:
    """Every argument has a role, every choice is drawn, nothing raises (uicheck)."""
    ruleset = plugins.ruleset("mandala", list(variants))
    ui = plugins.game_ui("mandala", ruleset)
    seeds = range(2 if players < 4 else 1)  # a 4-player game has ~4x the views to draw
    assert check_ui(ui, ruleset, players=players, seeds=seeds) == []


@pytest.mark.parametrize("players", [2, 4])
def test_random_states_preview_every_action_and_show_face_down_colours(
        plugins: PluginHost, drawfour: Ruleset, players: int) -> None:
    ui = plugins.game_ui("mandala", drawfour)
    table = Table(drawfour, players, b"ui-random")
    rng = Rng(b"ui-random", "test")
    steps = 0
    while table.active_seats() and steps < 400:
        (seat,) = table.active_seats()
        v = table.view(seat)
        for action in table.legal_actions(seat):
            words = ui.preview(v, seat, action)
            assert words and len(words) < 160, (action, words)
            assert text(draw(ui, "mandalas", v, action))
        for other in range(players):
            ov = table.view(other)
            for fragment in draw(ui, "mandalas", ov):
                if len(fragment) > 2 and fragment[2].role == "side" and DOWN in fragment[1]:
                    # in its colour, anyone's; or a side too long for its cell, cut to a
                    # count of its face-down cards
                    shortened = fragment[0] == DIM and fragment[1][:-1].isdigit()
                    assert fragment[0] in COLOUR_STYLES or shortened, fragment
        table.play(seat, rng.choice(table.legal_actions(seat)))
        steps += 1
    assert not table.active_seats()


# -- the seat client --------------------------------------------------------------------------


def local_mandala(plugins: PluginHost, seed: int, players: int = 2):
    from hedgerow.clients.app.local import LocalSeat
    from hedgerow.core.seeding import seed_from_int

    ruleset = plugins.ruleset("mandala", [])
    return LocalSeat(ruleset, players, seed_from_int(seed),
                     bots=[plugins.bot("random", "mandala")], name="Ann")


async def play_choosing_the_second_tile(d, limit: float = 60.0) -> list[str]:
    """Enter on every turn; on a tile choice, ``2`` then Enter.  The tiles kept."""
    import time

    state = d.state
    kept: list[str] = []
    deadline = time.monotonic() + limit
    while state.outcome is None:
        assert time.monotonic() < deadline, "the game did not end in time"
        await d.until(lambda: state.my_turn or state.outcome is not None,
                      timeout=15, what="our turn or the end")
        if state.outcome is not None:
            break
        before = d.progress()
        view = state.view
        if view.phase == CHOOSE:
            second = view.mandalas[view.at].tiles[1]
            d.press("2")
            await d.until(lambda second=second: state.picker.current() == take_action(second),
                          what="the second tile")
            name = tile_name(second)
            await drawn(d, lambda r, name=name: any(f"▶ Keep {name}:" in x for x in r),
                        what="the tile's preview")
            kept.append(name)
            before = d.progress()
        d.press("enter")
        await d.until(lambda before=before: d.progress() != before,
                      timeout=10, what="the move to take effect")
    return kept


def test_the_seat_client_plays_mandala_by_keys_with_a_tile_choice(plugins: PluginHost) -> None:
    seat = local_mandala(plugins, seed=SEED_WITH_A_CHOICE)

    async def main() -> None:
        async with running(seat, plugins) as d:
            screen = await drawn(d, lambda r: any("needs" in line for line in r),
                                 what="the table screen")
            words = "\n".join(screen)
            for label in ("M0", "M1", "M2", "tiles", "needs", "claim", "Your hand",
                          "Tiles taken", "Pts", "Fl", "Hand"):
                assert label in words, (label, words)
            assert all(len(line) <= 80 for line in screen)
            assert any(line.startswith("▶ ") and " on M" in line for line in screen)
            d.press("?")
            help_screen = await drawn(d, lambda r: any("ONE colour" in line for line in r),
                                      what="the help")
            assert any("+ / -" in line for line in help_screen)
            d.press("esc")
            await d.until(lambda: d.state.overlay is None, what="the help to close")
            kept = await play_choosing_the_second_tile(d)
            assert kept, "no tile choice came up in this game"
            results = await drawn(d, lambda r: any("Log saved to" in line for line in r),
                                  what="the results")
            assert any("Complete" in line for line in results)
            assert any("Tiles taken" in line for line in results)
        await seat.close()
        lines = [line.text for line in seat.history()]
        for name in kept:
            assert any(f"seat 0 takes {name}" in line for line in lines), (name, lines)

    asyncio.run(main())


def test_the_count_turns_with_plus_and_minus(plugins: PluginHost) -> None:
    seat = local_mandala(plugins, seed=3)

    async def main() -> None:
        async with running(seat, plugins) as d:
            await drawn(d, lambda r: any("needs" in line for line in r), what="the table")
            await d.until(lambda: d.state.my_turn, what="our turn")
            view = d.state.view
            most = max(view.hand)
            colour = view.hand.index(most)
            number = sum(1 for c in range(colour) if view.hand[c]) + 1
            d.press(str(number), "right")
            await d.until(lambda: d.state.picker.current() is not None
                          and d.state.picker.current().get("colour") == colour,
                          what="the colour")
            if most > 1:
                d.press("+")
                await d.until(lambda: d.state.picker.current().get("count") == 2,
                              what="two cards")
                screen = await drawn(d, lambda r: any(f"▶ 2 {COLOURS[colour]} on M" in x
                                                      for x in r), what="the preview of 2")
                assert any("no draw" in line for line in screen)
                d.press("-")
                await d.until(lambda: d.state.picker.current().get("count") == 1,
                              what="one card again")
            chosen = d.state.picker.current()
            d.press("enter")
            await d.until(lambda: len(seat.history()) > 1, what="the play")
            assert screen_lines(d)
        await seat.close()
        assert any(f"seat 0 plays {chosen.get('count')}" in line.text
                   for line in seat.history())

    asyncio.run(main())


#: A seed whose game, played by Enter (and 2 on a tile choice), gives seat 0 a tile choice.
SEED_WITH_A_CHOICE = 1


def test_a_long_side_is_shortened_to_counts(ui: MandalaUI) -> None:
    s = make_state(players=2, hands={A: hand(red=8, gray=8, purple=8, green=8)},
                   mandalas=[tiles("gray-1", "green-1")])
    lays = [(A, "red", 1), (A, "red", 2), (A, "purple", 1), (A, "gray", 8),
            (A, "purple", 7)]
    m = s.mandalas[0]
    plays = []
    present = m.present
    for seat, colour, count in lays:
        c = COLOURS.index(colour)
        up = not present >> c & 1
        plays.append(Play(seat, c, count, up, present))
        present |= (1 << c) if up else 0
    totals = (sum(p.cards for p in plays), 0)
    ups = (sum(p.cards for p in plays if p.up), 0)
    big = empty_mandala(2, m.tiles)._replace(plays=tuple(plays), present=present,
                                             totals=totals, ups=ups, claim=A)
    s = s._replace(mandalas=(big, *s.mandalas[1:]))
    # red and purple face-up, then 2 red, 8 gray and 7 purple face-down
    assert rows(ui, view_of(s, A))["You"].split()[:3] == ["19", "2■", "17□"]  # too long
    assert rows(ui, view_of(s, B))["Seat 0"].split()[:3] == ["19", "2■", "17□"]  # the same


def test_a_closed_mandala_takes_no_play_and_says_so(ui: MandalaUI, standard: Ruleset) -> None:
    s = make_state(players=2, mandalas=[()], hands={A: hand(red=2)})
    v = view_of(s, A)
    table = rows(ui, v)
    assert table["tiles"].split()[0] == "—" and table["needs"].split()[0] == "closed"
    assert ui.details(v, A, Target("mandala", 0)).startswith("M0 is closed")
    legal = standard.gamedef.legal_actions(s, A)
    assert {a.get("mandala") for a in legal} == {1, 2}
    assert problems(ui, legal) == []


def test_a_seat_that_can_only_pass_is_told_why(ui: MandalaUI, standard: Ruleset) -> None:
    s = make_state(players=2, hands={A: hand(red=1)})  # one card, nothing left to draw
    legal = standard.gamedef.legal_actions(s, A)
    assert [a.kind for a in legal] == ["pass"] and problems(ui, legal) == []
    v = view_of(s, A)
    assert ui.prompt(v, A) == ("You have one card and nothing is left to draw: you can only "
                               "pass (Enter).")
    assert ui.preview(v, A, legal[0]).startswith("Pass: you hold one card")


def test_the_piece_read_with_i_is_underlined(ui: MandalaUI, standard: Ruleset) -> None:
    v = view_of(example(standard), A)
    side = Target("side", (0, C))
    drawing = ui.draw("mandalas", DrawContext(v, A, 47, reading=side))
    marked = [f for f in drawing if len(f) > 2 and f[2] == side]
    assert marked and all("underline" in f[0] for f in marked)
    assert not any("underline" in f[0] for f in drawing if len(f) < 3 or f[2] != side)


def test_at_80_columns_the_names_have_ten_columns_and_orange_is_og(ui: MandalaUI,
                                                                 standard: Ruleset) -> None:
    """An 80-column terminal gives the board 47 columns: the rows' names get 10 of them
    (the client writes "Bot Clover" whole there, not "Bot Cl…"); a dim rule parts the
    mandalas' columns, so that a full cell ("pu rd gn og") reads apart from the next; and
    orange is "og", never the word "or"."""
    v = view_of(example(standard), A)
    drawing = draw(ui, "mandalas", v)
    names = [f for f in drawing if len(f) > 2 and f[2].role == "seat"]
    assert names and all(len(f[1]) >= 10 for f in names)  # a row's label, or a claim cell
    lines = text(drawing).split("\n")
    assert all(line.count(RULE) == 2 for line in lines[:4 + v.players])
    assert all(len(line) <= 47 for line in lines)
    assert " or " not in text(drawing) and not any(w.startswith("or") for w in
                                                    text(drawing).replace(RULE, " ").split())
