"""FLOWERS in the seat client (plugins/flowers/ui.py, render.py, words.py).

The UI object is reached through the host as the client reaches it.  Its drawings, previews
and words are checked on views of the rules' worked examples (../shared/rules/flowers.md
§10), under Summer and alone; `hedgerow.core.uicheck` runs it through whole seeded games for
1-4 players with and without Summer; and the real seat client (pipe input, dummy output)
plays a solo game and a 3-player game by keys to the results.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from hedgerow.core import Action
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.ui import BOARD, HAND, RESULTS, DrawContext, Target
from hedgerow.core.uicheck import check_ui
from hedgerow.plugins.flowers.choices import plant_action, take_action
from hedgerow.plugins.flowers.garden import Garden, key
from hedgerow.plugins.flowers.render import removed_text
from hedgerow.plugins.flowers.state import NOBODY, OVER, PLANT, View
from hedgerow.plugins.flowers.ui import FlowersUI

from .conftest import SUMMER, cards, grid, make_state

CLIENT_TESTS = Path(__file__).resolve().parents[2] / "clients"
if str(CLIENT_TESTS) not in sys.path:  # the client tests' driver, `appdriver`
    sys.path.insert(0, str(CLIENT_TESTS))


def text(fragments) -> str:
    return "".join(f[1] for f in fragments or ())


def targets(fragments) -> list[Target]:
    found: list[Target] = []
    for fragment in fragments or ():
        if len(fragment) > 2 and fragment[2] not in found:
            found.append(fragment[2])
    return found


def stacks(*tops_first: tuple[str, ...], skip: tuple[str, ...] = ()) -> tuple[tuple[int, ...], ...]:
    """Stacks written top card first, stored bottom first; ``skip`` names cards already used
    in the gardens, so the stacks get other copies."""
    out = []
    used = list(skip)
    for stack in tops_first:
        ids = cards(*used, *stack)[len(used):]
        used += stack
        out.append(tuple(reversed(ids)))
    return tuple(out)


def view_of(ruleset: Ruleset, gardens: tuple[Garden, ...], piles, seat: int = 0, **kw) -> View:
    state = make_state(gardens, piles, **kw)
    return ruleset.gamedef.view(state, seat)


def draw(ui: FlowersUI, part: str, view: View, seat: int = 0, preview: Action | None = None,
         width: int = 47, reading: Target | None = None):
    return ui.draw(part, DrawContext(view, seat, width, preview, reading=reading))


@pytest.fixture(scope="module")
def ui(standard: Ruleset) -> FlowersUI:
    found = PluginHost(autoload=False).game_ui("flowers", standard)
    assert isinstance(found, FlowersUI)
    return found


@pytest.fixture(scope="module")
def summer_ui(plugins: PluginHost, summer: Ruleset) -> FlowersUI:
    found = plugins.game_ui("flowers", summer)
    assert isinstance(found, FlowersUI)
    return found


EXAMPLE_3 = grid("Y3 Y3 Y3", "Y2/R4 . .")  # rules §10 #3: the lone 2 goes with the R4
EXAMPLE_7 = grid("G1 Y4g Y4", ". Y4 Y4")  # #7: the green butterfly touches G1


# -- the hook and the parts -----------------------------------------------------------------


def test_the_flowers_plugin_answers_its_ui_object_for_flowers_only(plugins: PluginHost,
                                                                   standard: Ruleset) -> None:
    assert isinstance(plugins.game_ui("flowers", standard), FlowersUI)
    assert isinstance(plugins.game_ui("flowers"), FlowersUI)  # no table: rules read from the view
    assert plugins.game_ui("petals") is None
    ui = plugins.game_ui("flowers", standard)
    assert {(p.name, p.area) for p in ui.parts} == {("gardens", BOARD), ("stacks", HAND),
                                                    ("final", RESULTS)}


def test_every_garden_is_a_grid_of_cards_yours_first_with_the_cells_you_can_plant_on(
        ui: FlowersUI, standard: Ruleset) -> None:
    mine = {key(0, 0): cards("B2", "R3"), key(1, 0): (cards("Y4g")[0],)}
    theirs = {key(0, 0): (cards("G1")[0],)}
    view = view_of(standard, (mine, theirs), stacks(("R1",), ("Y1",), ("B1",)), seat=1,
                   active=1)
    board = draw(ui, "gardens", view, seat=1)
    lines = text(board).splitlines()
    assert lines[0].startswith("Your garden") and "1 card" in lines[0]
    assert any(line.startswith("Seat 0") and "3 cards" in line for line in lines)
    assert "R3²" in text(board) and "Y4g" in text(board)  # the pile's height; the butterfly
    own = [t for t in targets(board) if t.role == "cell"]  # seat 1's own: the G1 and around it
    assert set(own) == {Target("cell", c) for c in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
    plots = [t for t in targets(board) if t.role == "plot"]  # seat 0's: read, never chosen
    assert plots == [Target("plot", (0, 0, 0)), Target("plot", (0, 1, 0))]
    grid_lines = [line for line in lines if not line.startswith(("Your", "Seat"))]
    assert sum(line.count("·") for line in grid_lines) == 4  # the empty cells around the G1


def test_the_planting_being_composed_is_drawn_where_it_would_go(ui: FlowersUI,
                                                                standard: Ruleset) -> None:
    view = view_of(standard, (EXAMPLE_7, EXAMPLE_7), stacks(("R2",), ("B3",), ("G3",),
                                                            skip=("G1",)))
    plain = text(draw(ui, "gardens", view))
    ghost = draw(ui, "gardens", view, preview=plant_action(0, 0, 1))
    assert text(ghost).count("R2") == plain.count("R2") + 1
    assert any(f[1].startswith("R2") and "underline" in f[0] for f in ghost)
    covered = text(draw(ui, "gardens", view, preview=plant_action(1, 1, 0)))
    assert "B3²" in covered  # on top of the Y4g: a pile of two


def test_the_stacks_show_their_face_up_tops_sizes_and_the_number_keys(
        ui: FlowersUI, standard: Ruleset) -> None:
    start = {key(0, 0): (cards("G1")[0],)}
    view = view_of(standard, (start, start), stacks(("R3", "R4"), ("Y4g",), ("B2", "B3", "B1")))
    drawing = draw(ui, "stacks", view)
    lines = text(drawing).splitlines()
    assert lines[0].startswith("A [1] R3") and "2 cards" in lines[0]
    assert lines[1].startswith("B [2] Y4g") and "1 card" in lines[1]
    assert lines[2].startswith("C") and "░░░" in lines[2] and "3 cards" in lines[2]
    assert "B2" not in text(drawing)  # the face-down card stays hidden
    assert targets(drawing) == [Target("stack", 0), Target("stack", 1), Target("stack", 2)]


def test_the_card_taken_face_down_is_shown_to_its_taker_only(standard: Ruleset,
                                                             ui: FlowersUI) -> None:
    start = {key(0, 0): (cards("G1")[0],)}
    held = cards("B2")[0]
    piles = stacks(("R3",), ("Y4",), ("B3",))
    mine = view_of(standard, (start, start), piles, phase=PLANT, holding=held, source=2)
    assert "In your hand: B2 from C" in text(draw(ui, "stacks", mine))
    assert ui.prompt(mine, 0) is not None and "B2" in ui.prompt(mine, 0)
    theirs = view_of(standard, (start, start), piles, seat=1, phase=PLANT, holding=held,
                     source=2)
    assert "B2" not in text(draw(ui, "stacks", theirs, seat=1))
    assert "Seat 0 took the top card of C" in text(draw(ui, "stacks", theirs, seat=1))
    assert ui.prompt(theirs, 1) is None


# -- the words --------------------------------------------------------------------------------


def test_a_planting_is_previewed_with_the_score_now_and_what_it_does(ui: FlowersUI,
                                                                    standard: Ruleset) -> None:
    garden = grid("Y3 Y3", "Y2/R4 . .")
    view = view_of(standard, (garden,), stacks(("Y3", "R2", "R1"), ("B1",), skip=("Y3", "Y3")))
    # now: two 3s and a lone 2 on a R4 are removed: -4
    complete = ui.preview(view, 0, plant_action(0, 2, 0))
    assert complete.startswith("Plant Y3 from A at (2,0): score now -2 (+2)")
    assert complete.endswith("3s: 3 of 3, complete · yellow group: 3 of 5")  # the Y2 goes
    pair = ui.preview(view, 0, plant_action(0, 1, -1))
    assert pair.startswith("Plant Y3 from A at (1,-1)") and "3s: 3 of 3" in pair
    on_top = ui.preview(view, 0, plant_action(0, 0, -1))
    assert "on Y2 at (0,-1)" in on_top and "3s: 3 of 3" in on_top
    assert ui.preview(view, 0, take_action(1)).startswith(
        "Take B's face-down top card (1 left): see it, then plant it")


def test_a_preview_names_the_butterflies_and_colour_groups(ui: FlowersUI,
                                                          standard: Ruleset) -> None:
    view = view_of(standard, (grid("G1 . Y4", ". Y4 Y4"),), stacks(("Y4g", "B1"), ("B3",),
                                                                    skip=("G1",)))
    text_ = ui.preview(view, 0, plant_action(0, 1, 0))  # rules §10 #7 once planted
    assert "score now 1 (+4)" in text_ and "4s: 4 of 4, complete" in text_
    assert "butterflies +1" in text_
    alone = ui.preview(view, 0, plant_action(0, 3, 0))
    assert "its butterfly needs a green neighbour" in alone and "4s: 4 of 4" in alone
    blues = view_of(standard, (grid("B1 B4 B4 B4"),), stacks(("B4", "R1"), ("B3",),
                                                              skip=("B4", "B4", "B4")))
    assert "blue group of 5: +5" in ui.preview(blues, 0, plant_action(0, 4, 0))


def test_a_preview_says_when_the_planting_ends_the_game(ui: FlowersUI, standard: Ruleset,
                                                       ) -> None:
    start = {key(0, 0): (cards("G1")[0],)}
    last = view_of(standard, (start, start), stacks(("R3",), ("Y4", "Y3"), ("B3",)))
    assert ui.preview(last, 0, plant_action(0, 1, 0)).endswith("A runs out: the game ends")
    assert "the game ends" not in ui.preview(last, 0, plant_action(1, 1, 0))
    solo = view_of(standard, (start,), stacks(("R3", "R4"), ("B3", "B1")))
    assert ui.preview(solo, 0, plant_action(0, 1, 0)).endswith(
        "A's last card is discarded: the game ends")
    assert ui.preview(solo, 0, take_action(1)).endswith(" · then A's R3 is discarded")


def test_a_cell_and_a_stack_read_in_full(ui: FlowersUI, standard: Ruleset) -> None:
    view = view_of(standard, (EXAMPLE_3, EXAMPLE_7), stacks(("R1",), ("B1",), ("G1",),
                                                             skip=("G1", "R4")))
    pile = ui.details(view, 0, Target("cell", (0, -1)))
    assert pile.startswith("Your garden (0,-1): Y2 on R4 (2 cards).")
    assert "would be removed if the game ended now (-2)" in pile
    assert "complete" in ui.details(view, 0, Target("cell", (1, 0)))
    wing = ui.details(view, 0, Target("plot", (1, 1, 0)))
    assert wing.startswith("Seat 1's garden (1,0): Y4g.") and "(it does)" in wing
    assert ui.details(view, 0, Target("cell", (1, -1))) is None  # an empty spot: the dot
    assert ui.details(view, 0, Target("stack", 2)).startswith("Stack C: 1 cards, face down")
    assert "R1" in ui.details(view, 0, Target("stack", 0))
    assert ui.details(view, 0, Target("plot", (5, 0, 0))) is None
    assert len(ui.details(view, 0, Target("cell", (0, -1)))) <= 230
    # a group in words that read: "Its group of 2s: 1 of 2; it would be removed …"
    assert "Its group of 2s: 1 of 2; it would be removed" in pile
    lone = view_of(standard, ({key(0, 0): (cards("G1")[0],)},), stacks(("R3",), ("B3",)))
    assert ui.details(lone, 0, Target("cell", (0, 0))) == "Your garden (0,0): G1. A lone 1: right."


def test_score_columns_are_the_cards_and_the_score_now_and_alone_the_rank(
        ui: FlowersUI, standard: Ruleset) -> None:
    view = view_of(standard, (EXAMPLE_3, EXAMPLE_7), stacks(("R1",), ("B1",), ("G1",),
                                                             skip=("G1", "R4")))
    columns = ui.score_columns(view)
    assert [(c.label, c.values) for c in columns] == [("Cards", (5, 5)), ("Now", (-2, 1))]
    blues = grid("B1 B4 B4 B4 B4", "B2 B2 . . .", "B3 B3 B3 B1 .", "R4 R4 R4 R4 .")
    solo = view_of(standard, (blues,), stacks(("Y1",), ("G3",)))
    assert [(c.label, c.values) for c in ui.score_columns(solo)] == [
        ("Now", (11,)), ("Rank", ("Apprentice",))]


def test_help_says_how_to_play_in_our_words(ui: FlowersUI, summer_ui: FlowersUI) -> None:
    assert "plant" in ui.help and "four 4s" in ui.help and "discarded" in ui.help
    assert "Summer" not in ui.help and len(ui.help) < 560
    assert summer_ui.help.endswith("Summer: only colour groups touching the purple card score.")
    assert ui.target_text(Target("stack", 1)) == "B"
    assert ui.target_text(Target("cell", (1, -2))) == "(1,-2)"
    assert ui.target_text(Target("plot", (2, 0, 3))) == "seat 2 (0,3)"


# -- the end ----------------------------------------------------------------------------------


def test_the_results_show_each_removed_group_with_its_penalty(ui: FlowersUI,
                                                             standard: Ruleset) -> None:
    view = view_of(standard, (EXAMPLE_3, EXAMPLE_7), stacks((), ("B1",), ("G1",),
                                                             skip=("G1", "R4")),
                   active=NOBODY, phase=OVER)
    final = text(draw(ui, "final", view, width=78))
    assert "You: -2 = colour groups 0 + butterflies 0 \u2212 cards removed 2" in final
    assert "-2  a lone 2 at (0,-1) with one card under it (2s go in pairs)" in final
    assert "Seat 1: 1 = colour groups 0 + butterflies 1" in final
    assert "butterfly Y4g at (1,0): +1 (it touches a green card)" in final
    assert "\u00d7Y2" in final  # the removed card, crossed in the final garden
    board = text(draw(ui, "gardens", view))
    assert "final score -2" in board and "\u00d7Y2" in board
    assert not any("·" in line for line in board.splitlines() if line[:1] == " ")  # no spots
    assert "stack A ran out" in text(draw(ui, "stacks", view))
    columns = ui.score_columns(view)
    assert columns[1].label == "Final" and columns[1].values == (-2, 1)


def test_the_solo_results_list_the_ranks(ui: FlowersUI, standard: Ruleset) -> None:
    view = view_of(standard, (EXAMPLE_7,), stacks((), ("B1",), skip=("G1",)),
                   active=NOBODY, phase=OVER)
    final = text(draw(ui, "final", view, width=78))
    assert ("Ranks: Beginner up to 10 · Apprentice 11-17 · Expert 18-25 · Master 26+"
            in final)
    mine = [f for f in draw(ui, "final", view, width=78) if f[1] == "Beginner up to 10"]
    assert "bold" in mine[0][0]


# -- Summer -----------------------------------------------------------------------------------


def test_summer_reads_on_screen(summer_ui: FlowersUI, summer: Ruleset) -> None:
    reds = grid("P R1 R4 R4", ". . R4 R4")  # five reds touching the purple card: +5
    view = view_of(summer, (reds,), stacks(("R2", "B1", "B2"), ("G3",), skip=("R4",) * 4),
                   coverable=SUMMER)
    board = draw(summer_ui, "gardens", view)
    assert text(board).startswith("Summer: only colour groups touching P score.")
    assert any(f[1].strip() == "P" and "magenta" in f[0] for f in board)
    assert summer_ui.score_columns(view)[0].values == (5,)
    assert summer_ui.preview(view, 0, plant_action(0, 0, -1)) == (
        "Plant R2 from A at (0,-1): score now 4 (-1) · 2s: 1 of 2")
    assert summer_ui.details(view, 0, Target("cell", (0, 0))).startswith(
        "Your garden (0,0): the purple start card. It is never covered nor removed")
    apart = grid("P Y1 B4 B4 B4 B4 B1")  # five blues, but the Y1 keeps them from the P
    away = view_of(summer, (apart,), stacks(("B1", "Y2", "Y3"), ("G3",), skip=("B1",)),
                   coverable=SUMMER)
    assert summer_ui.score_columns(away)[0].values == (0,)
    assert summer_ui.preview(away, 0, plant_action(0, 3, 1)).endswith(
        "blue group of 6, not touching P")  # a B1 above the row: six blues, still nothing
    over = view_of(summer, (apart,), stacks((), ("G3",)), coverable=SUMMER, active=NOBODY,
                   phase=OVER)
    assert "blue group of 5: it does not touch the purple card" in text(
        draw(summer_ui, "final", over, width=78))


# -- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize("variants", [(), ("summer",)])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_ui_object_fits_whole_games(plugins: PluginHost, players: int,
                                        variants: tuple[str, ...]) -> None:
    """Every legal action's arguments have a role, every choice is drawn, nothing raises."""
    ruleset = plugins.ruleset("flowers", list(variants))
    ui = plugins.game_ui("flowers", ruleset)
    seeds = range({1: 8, 2: 4}.get(players, 2))
    assert check_ui(ui, ruleset, players=players, seeds=seeds) == []


# -- the real seat client, by keys ------------------------------------------------------------


def local_flowers(plugins: PluginHost, players: int, seed: int, variants=()):
    from hedgerow.clients.app.local import LocalSeat
    from hedgerow.core.seeding import seed_from_int

    ruleset = plugins.ruleset("flowers", list(variants), players=players)
    bots = [plugins.bot("random", "flowers")] if players > 1 else []
    return LocalSeat(ruleset, players, seed_from_int(seed), bots=bots, name="Ann")


def results_text(d) -> str:
    """The whole results screen as text (it scrolls on a terminal)."""
    from hedgerow.clients.app.results import results

    return "".join(f[1] for f in results(d.state, 78))


def test_a_solo_game_by_keys_in_the_seat_client(plugins: PluginHost) -> None:
    """Alone: the stacks and the discard rule on screen, a face-down take composed by keys,
    a planting aimed with the arrows, then Enter to the results and the rank."""
    from appdriver import drawn, play_to_the_end, running

    seat = local_flowers(plugins, 1, 4)

    async def main() -> None:
        async with running(seat, plugins) as d:
            rows = await drawn(d, lambda rows: any("Your garden" in r for r in rows),
                               what="the table screen")
            screen = "\n".join(rows)
            assert "A [1] " in screen and "face down" in screen
            assert "After each turn, A's top card is discarded." in screen
            assert "Rank" in rows[1] and "Beginner" in screen
            assert all(len(r) <= 80 for r in rows)
            # the kinds: 1 plant a face-up card, 2 take the face-down card; a number
            # highlights its line and Enter takes it
            d.press("2", "enter")
            rows = await drawn(d, lambda rows: any("▶ Take B's face-down top card" in r
                                                   for r in rows), what="the take previewed")
            d.press("enter")
            await d.until(lambda: d.state.view is not None and d.state.view.holding >= 0,
                          what="the card taken")
            held = d.state.view.holding
            rows = await drawn(d, lambda rows: any("In your hand:" in r for r in rows),
                               what="the card in hand")
            assert any("Plant the" in r and "you took from B" in r for r in rows)
            d.press("left")
            await drawn(d, lambda rows: any("▶ Plant" in r and "at (-1,0)" in r for r in rows),
                        what="the planting aimed left of the start card")
            d.press("enter")
            await d.until(lambda: len(d.state.view.gardens[0]) == 2, what="the planting")
            assert dict(((x, y), s) for x, y, s in d.state.view.gardens[0])[(-1, 0)] == (held,)
            assert len(d.state.view.discards) == 1  # and A's top went to the discards
            await play_to_the_end(d)
            rows = await drawn(d, lambda rows: any("Beginner" in r or "Apprentice" in r
                                                   or "Expert" in r or "Master" in r
                                                   for r in rows), what="the rank")
            text_ = results_text(d)
            assert "How each garden scored" in text_
            assert "Ranks: Beginner up to 10 · Apprentice 11-17 · Expert 18-25" in text_
            total = d.state.view.final[0].total
            assert f"You: {total} = colour groups" in text_
            d.press("b")
            await drawn(d, lambda rows: any("final score" in r for r in rows),
                        what="the final garden")
        await seat.close()

    asyncio.run(main())


def test_a_three_player_summer_game_by_keys_in_the_seat_client(plugins: PluginHost) -> None:
    """Every garden on the board, the purple card, the score of every seat, and at the end
    the groups each garden lost, in words."""
    from appdriver import drawn, play_to_the_end, running

    seat = local_flowers(plugins, 3, 8, ("summer",))

    async def main() -> None:
        async with running(seat, plugins, rows=40, columns=100) as d:
            rows = await drawn(d, lambda rows: sum("score now" in r for r in rows) == 3,
                               what="every garden")
            screen = "\n".join(rows)
            assert "Summer: only colour groups touching P score." in screen
            assert "Your garden" in screen and "P   " in screen
            for other in (1, 2):  # each garden under its player's name, as the table has it
                assert any(r.startswith(d.state.name_of(other) + " · ") for r in rows)
            assert "Cards" in rows[1] and "Now" in rows[1]
            await d.until(lambda: d.state.my_turn, what="our turn")
            d.press("1", "enter")  # plant a face-up card: the stack is chosen with 1 and 2
            await drawn(d, lambda rows: any("▶ Plant" in r and "from A" in r for r in rows),
                        what="a planting from A")
            d.press("2")
            await drawn(d, lambda rows: any("▶ Plant" in r and "from B" in r for r in rows),
                        what="a planting from B")
            await play_to_the_end(d)
            text_ = results_text(d)
            assert "How each garden scored" in text_
            lost = [g for score in d.state.view.final for g in score.removed]
            assert lost, "random gardens lose groups"
            for group in lost:  # each removed group in words, with its penalty
                assert removed_text(group) in text_.replace("\n           ", " ")
        await seat.close()

    asyncio.run(main())
