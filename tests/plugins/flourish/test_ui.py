"""Flourish's UI object (plugins/flourish/ui.py): the hook, the forms for each table shape,
the drawing of gardens and hand, the words, every variant, whole random games through
`check_ui`, and the real client driven by keys (pipe input, dummy output)."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
import textwrap
from pathlib import Path

import pytest

from hedgerow.core import Action
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.core.ui import DrawContext, Target, problems
from hedgerow.core.uicheck import check_ui
from hedgerow.plugins.flourish.state import Config
from hedgerow.plugins.flourish.ui import CARD, PLANTED, SEAT, FlourishUI, card_words
from hedgerow.plugins.flourish.view import view as view_of

from .conftest import make_state, ruleset, turn

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))
from appdriver import drawn, running

OAK, MOSS_PATH, SUNDIAL, ROSA_ALBA = 43, 53, 91, 41


def text(drawing) -> str:
    return "".join(f[1] for f in drawing or ())


def targets(drawing) -> list[Target]:
    return list(dict.fromkeys(f[2] for f in drawing or () if len(f) > 2))


def ui_for(plugins: PluginHost, *variants: str, players: int | None = None) -> FlourishUI:
    found = plugins.game_ui("flourish", ruleset(plugins, *variants, players=players))
    assert isinstance(found, FlourishUI)
    return found


def draw(ui: FlourishUI, part: str, view, width: int = 47, **more):
    return ui.draw(part, DrawContext(view, view.seat, width, **more))


def test_the_hook_answers_for_flourish_only(plugins: PluginHost) -> None:
    assert isinstance(plugins.game_ui("flourish", ruleset(plugins)), FlourishUI)
    assert plugins.game_ui("flourish") is not None  # no table: still an object
    assert not isinstance(plugins.game_ui("petals"), FlourishUI)


@pytest.mark.parametrize(("players", "variants", "args"), [
    (3, (), ("play", "left", "right")),
    (7, ("compost",), ("play", "left", "right", "compost")),
    (2, (), ("play", "passed")),
    (1, ("compost",), ("play", "passed", "compost")),
])
def test_the_turn_form_fits_each_table(plugins: PluginHost, players, variants, args) -> None:
    rules = ruleset(plugins, *variants, players=players)
    ui = ui_for(plugins, *variants, players=players)
    table = Table(rules, players, b"form")
    legal = list(table.legal_actions(0))
    assert problems(ui, legal) == []
    names = {n for a in legal for n, _ in a.args}
    assert ui.form("turn", names).args == args


@pytest.mark.parametrize(("players", "variants"), [
    (1, ()), (1, ("compost",)), (2, ()), (3, ()), (4, ("compost",)), (5, ()),
    (6, ("cooperative",)), (7, ()), (2, ("garden-show",)), (4, ("cooperative", "compost")),
    (3, ("garden-show", "compost")),
])
def test_check_ui_finds_nothing_in_whole_random_games(plugins: PluginHost, players,
                                                      variants) -> None:
    rules = ruleset(plugins, *variants, players=players)
    ui = plugins.game_ui("flourish", rules)
    assert ui is not None
    # 47 columns: the board of an 80-column terminal, the players table beside it
    assert check_ui(ui, rules, players=players, seeds=range(2), width=47) == []
    if players in (1, 7):
        assert check_ui(ui, rules, players=players, seeds=range(1), width=120) == []
    table = play(rules, players, seed_from_int(players), [plugins.bot("random")])
    for seat in range(players):  # the final screen of every seat fits the 47 columns
        for part in ("gardens", "hand"):
            lines = text(draw(ui, part, table.view(seat))).splitlines()
            assert all(len(line) <= 47 for line in lines), lines


def f1_view(players: int = 3):
    """Spec F1/F2: you planted Moss Path, Oak, Sundial in round 1 (scored 5)."""
    cfg = Config(players)
    gardens = [(MOSS_PATH, OAK, SUNDIAL), (17, 18, 21), (1, 44, 2)][:players]
    state = make_state(cfg, [(10, 65, 83, 5, 6, 7), (11, 12, 13, 14, 15, 16),
                             (19, 20, 22, 23, 24, 25)][:players], gardens, turn=3)
    points = ((5, 0, 0, 0, 0), (3, 0, 0, 0, 0), (2, 0, 0, 0, 0))[:players]
    return view_of(state._replace(points=points), 0)


def test_gardens_in_rows_by_round_with_symbols_abilities_and_round_points(
        plugins: PluginHost) -> None:
    """A board of 80 columns: a row of cells per round, names whole, abilities under
    them."""
    ui = ui_for(plugins)
    v = f1_view()
    lines = text(draw(ui, "gardens", v, width=80)).splitlines()
    assert lines[1] == "You · 5 points"
    row, abilities = lines[2], lines[3]
    assert row.startswith("R1 Path G2 Moss Path ") and "Tree G3 Oak" in row
    assert "Feat Sundial" in row
    assert abilities.startswith("+5 e3/Tree nb+nb") and "r1/G e4/G-Path" in abilities
    assert "e9 Tree" in abilities
    assert "B1 Campanula persicifolia" in lines[5]  # the longest name, whole
    assert all(len(line) <= 80 for line in lines)


def test_a_board_with_room_to_spare_shows_the_gardens_side_by_side(plugins: PluginHost) -> None:
    """160 columns leave the board 111: two gardens to a row, a card a line each."""
    ui = ui_for(plugins)
    v = f1_view()
    drawing = draw(ui, "gardens", v, width=111)
    lines = text(drawing).splitlines()
    assert lines[1].startswith("You · 5 points") and "Seat 1       (your left)" in lines[1]
    assert lines[2].split()[:5] == ["R1", "Path", "G2", "Moss", "Path"]
    assert "Delphinium elatum" in lines[2]  # the left neighbour's first card, beside
    assert "Seat 2       (your right)" in text(drawing)
    assert all(len(line) <= 111 for line in lines)
    names = [f for f in drawing if len(f) > 2 and f[2] == Target(SEAT, 1)]
    assert names and len(names[0][1]) == 12  # padded: the client fits the name there


def test_an_80_column_board_lists_each_card_on_a_line_with_its_name_whole(
        plugins: PluginHost) -> None:
    """47 columns (an 80-column terminal): a row of three cells has no room for the names,
    so each card goes on a line, the round at the left of its first, its points under."""
    ui = ui_for(plugins)
    v = f1_view()
    drawing = draw(ui, "gardens", v)
    lines = text(drawing).splitlines()
    assert lines[0].startswith("Round 2 of 4, turn 1 of 3")
    assert lines[1] == "You · 5 points"
    assert lines[2].split() == ["R1", "Path", "G2", "Moss", "Path", "e3/Tree", "nb+nb"]
    assert lines[3].split() == ["+5", "Tree", "G3", "Oak", "r1/G", "e4/G-Path"]
    assert lines[4].split() == ["Feat", "Sundial", "e9", "Tree"]
    assert "Campanula persicifolia" in text(drawing) and "…" not in text(drawing)
    assert "Seat 1 (your left) · 3 points" in lines
    assert "Seat 2 (your right) · 2 points" in lines
    assert all(len(line) <= 47 for line in lines)
    planted = {t for t in targets(drawing) if t.role == PLANTED}
    assert planted == {Target(PLANTED, c) for g in v.gardens for c in g}
    assert {t for t in targets(drawing) if t.role != PLANTED} == {Target(SEAT, 1),
                                                                   Target(SEAT, 2)}


def test_while_a_pass_is_chosen_the_receiving_garden_comes_first(plugins: PluginHost) -> None:
    ui = ui_for(plugins)
    v = f1_view()
    first = lambda partial: text(draw(ui, "gardens", v, partial=partial)).splitlines()[1]  # noqa: E731
    assert first({"play": 10}).startswith("You")
    assert first({"play": 10, "left": 65}).startswith("Seat 1 (your left)")
    assert first({"play": 10, "left": 65, "right": 83}).startswith("Seat 2 (your right)")


def test_the_hand_marks_each_card_s_part_in_the_turn(plugins: PluginHost) -> None:
    ui = ui_for(plugins)
    v = f1_view()
    drawing = draw(ui, "hand", v, partial={"play": 10, "left": 65, "right": 83})
    lines = text(drawing).splitlines()
    assert lines[0] == "Your hand (6 cards)"
    assert v.hand == (5, 6, 7, 10, 65, 83)
    assert lines[1].startswith("1 G1 ") and "Buxus" in lines[1]
    assert lines[1].rstrip().endswith("nb")
    assert lines[4].startswith("4 R1 ") and "Rosa gallica" in lines[4]
    assert lines[4].endswith("plant")
    assert lines[5].endswith("→ left") and "Poppy Hive" in lines[5]
    assert lines[6].endswith("→ right") and "Green Lawn" in lines[6]
    assert targets(drawing) == [Target(CARD, c) for c in v.hand]  # numbered in hand order


def test_what_you_passed_and_received_after_a_turn(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=3)
    table = Table(rules, 3, b"passes")
    hands = [table.view(s).hand for s in range(3)]
    table.play_step({s: turn(*hands[s][:3]) for s in range(3)})
    v = table.view(0)
    hand = text(draw(ui_for(plugins), "hand", v)).splitlines()
    from_left = hands[1][2]  # seat 1 passed its right card to seat 0
    from_right = hands[2][1]  # seat 2 passed its left card to seat 0
    # where the new cards came from, by their numbers, on the heading line
    head, new = hand[0].split(" · new: ")
    assert head in ("Your hand (6 cards)", "Your hand", "Hand"), hand[0]
    came = dict(item.split(" ", 1) for item in new.split(", "))
    assert came[str(v.hand.index(from_left) + 1)] == "← left"  # seat 1: seat 0's left
    assert came[str(v.hand.index(from_right) + 1)] == "← right"
    assert sorted(came.values()) == ["drawn", "← left", "← right"]
    assert hand[-1].startswith("Passed ") and hand[-1].endswith(" right")
    assert "…" not in "\n".join(hand)


def test_scores_per_round_in_the_players_table(plugins: PluginHost) -> None:
    ui = ui_for(plugins)
    v = f1_view()
    columns = {c.label: c.values for c in ui.score_columns(v)}
    assert columns == {"R1": (5, 3, 2), "R2": (0, 0, 0), "R3": (0, 0, 0), "R4": (0, 0, 0),
                       "Tot": (5, 3, 2)}


def test_a_card_in_full_with_where_it_is_and_what_it_scored(plugins: PluginHost) -> None:
    ui = ui_for(plugins)
    v = f1_view()
    oak = ui.details(v, 0, Target(PLANTED, OAK))
    assert oak == ("Oak (C43): tree, G3. End of round: 1 point for each green symbol in your "
                   "garden. End of game: 4 points for each path in your garden showing a "
                   "green symbol. Your garden, round 1: scored 5; 4 at game end so far.")
    assert ui.details(v, 0, Target(CARD, 10)).endswith("In your hand.")
    assert "Seat 1's garden, round 1" in (ui.details(v, 0, Target(PLANTED, 17)) or "")
    assert "any colour" in card_words(ROSA_ALBA)
    assert "your garden and theirs together" in card_words(MOSS_PATH, one_neighbour=True)
    assert ui.details(v, 0, Target("cell", (0, 0))) is None
    for ident in range(1, 99):  # every card in full fits three lines of 80 columns
        for where in (Target(CARD, 10), Target(PLANTED, 17)):
            words = ui.details(v, 0, Target(where.role, ident)) or ""
            assert len(textwrap.wrap(words, 80)) <= 3, words


def test_the_preview_and_the_prompt_name_who_gets_what(plugins: PluginHost) -> None:
    ui = ui_for(plugins)
    v = f1_view()
    action = Action.of("turn", play=10, left=65, right=83)
    # Rosa gallica 1/G+1/R in your garden with Moss Path G2 and Oak G3: 5 + 1
    assert ui.preview(v, 0, action) == ("Plant Rosa gallica (+6 now), pass Poppy Hive left and "
                                        "Green Lawn right")
    assert ui.preview(v, 0, Action.of("turn", play=5, left=65, right=83)).startswith(
        "Plant Buxus sempervirens, pass")  # an end-of-game ability only: nothing now
    assert ui.prompt(v, 0) == "Round 2, turn 1: plant a card, pass one left and one right."
    composting = dataclasses.replace(v, compost=True)
    assert ui.prompt(composting, 0) == ("Round 2, turn 1: plant, pass left, pass right, then "
                                        "compost one or none.")
    assert all(len(ui.prompt(dataclasses.replace(v, players=p, solo=p == 1, compost=c), 0)
                   or "") <= 80 for p in (1, 2, 3) for c in (False, True))
    final = dataclasses.replace(v, turn=9, round=4)
    assert ui.preview(final, 0, Action.of("final", play=(5, 6, 7))).startswith(
        "Plant Buxus sempervirens, Festuca glauca and Thymus vulgaris, discard ")
    assert ui.preview(final, 0, Action.of("final", play=(10, 65, 83))).startswith(
        "Plant Rosa gallica, Poppy Hive and Green Lawn (+18 now), discard ")  # spec F2
    assert ui.prompt(final, 0).startswith("Final round: Space marks the 3 cards to plant")


def test_cooperative_shows_the_team_total_and_the_medals(plugins: PluginHost) -> None:
    ui = ui_for(plugins, "cooperative")
    v = f1_view()
    lines = text(draw(ui, "gardens", v)).splitlines()
    assert lines[1:3] == ["Team total 10", "Medals: Bronze 255 · Silver 285 · Gold 315"]
    wide = text(draw(ui, "gardens", v, width=80)).splitlines()
    assert wide[1] == "Team total 10 · Medals: Bronze 255 · Silver 285 · Gold 315"
    raised = ui_for(plugins, "cooperative", "compost")
    assert "Bronze 270 · Silver 300 · Gold 330" in text(draw(raised, "gardens", v))
    assert "Cooperative" in raised.help and "compost" in raised.help


def test_solo_shows_mcgregor_the_margin_and_the_medals(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=1)
    table = play(rules, 1, seed_from_int(3), [plugins.bot("random")])
    v = table.view(0)
    ui = ui_for(plugins, players=1)
    lines = text(draw(ui, "gardens", v, width=80)).splitlines()
    mine, his = sum(v.points[0]), sum(v.points[1])
    assert lines[1].startswith(f"You {mine} - McGregor {his} = {mine - his:+d} · Medals: "
                               "Bronze 30")
    assert lines[2].startswith("You · ") and any(x.startswith("McGregor · ") for x in lines)
    assert "Bronze 35" in text(draw(ui_for(plugins, "compost", players=1), "gardens", v))
    assert "give McGregor two" in (ui.prompt(Table(rules, 1, b"x").view(0), 0) or "")


def test_the_garden_show_shows_ribbons_and_the_match(plugins: PluginHost) -> None:
    rules = ruleset(plugins, "garden-show", players=3)
    table = play(rules, 3, seed_from_int(4), [plugins.bot("random")])
    v = table.view(1)
    ui = ui_for(plugins, "garden-show", players=3)
    board = text(draw(ui, "gardens", v, width=80))
    assert board.startswith("Game 3 of 3 · Game over")
    assert board.count("ribbons: ") == 3
    columns = {c.label: c.values for c in ui.score_columns(v)}
    outcome = table.outcome()
    assert columns["Match"] == outcome.final.scores  # type: ignore[union-attr]
    assert sum(columns["Rib"]) == sum(sum(r.bonus) for r in table.state.history)


def local_flourish(plugins: PluginHost, *variants: str, players: int, seed: int):
    from hedgerow.clients.app.local import LocalSeat
    rules = ruleset(plugins, *variants, players=players)
    return LocalSeat(rules, players, seed_from_int(seed), bots=[plugins.bot("random", "flourish")],
                     name="Ann")


def test_the_client_plays_a_turn_by_numbers_and_reads_cards_with_i(plugins: PluginHost) -> None:
    seat = local_flourish(plugins, players=3, seed=11)

    async def main() -> None:
        async with running(seat, plugins) as d:
            screen = await drawn(d, lambda rows: any("Your hand" in r for r in rows),
                                 what="the hand")
            assert screen[1].startswith("Round 1 of 4, turn 1 of 3")
            assert all(len(r) <= 80 for r in screen)
            # the bots choose first: a seat choosing rebuilds the client's picker (state.py)
            await d.until(lambda: d.state.active == (0,), what="the bots' choices")
            hand = d.state.view.hand
            d.press("i")  # the card under the cursor: the first of the hand
            await d.until(lambda: d.state.message is not None, what="the card in full")
            assert d.state.message.endswith("In your hand.")
            assert d.state.ui.reading == Target(CARD, hand[0])
            d.press("2", "enter", "3", "enter", "5")
            await d.until(lambda: d.state.picker.current() is not None, what="a whole turn")
            assert d.state.picker.current() == Action.of("turn", play=hand[1], left=hand[2],
                                                         right=hand[4])
            rows = await drawn(d, lambda rows: any("▶ Plant" in r for r in rows))
            assert any(r.rstrip(" │").endswith("→ right") for r in rows)
            d.press("enter")
            await d.until(lambda: d.state.view.turn == 1, what="the next turn")
            assert hand[1] in d.state.view.gardens[0]
            # the bots choose again; each choice redraws with a new view, which ends reading
            await d.until(lambda: d.state.active == (0,), what="the bots' choices")
            d.press("i")  # the cursor did not move since: the next card to read
            d.press("i")
            await d.until(lambda: d.state.ui.reading is not None, what="reading")
        await seat.close()

    asyncio.run(main())


def test_a_half_chosen_turn_survives_the_others_choosing(plugins: PluginHost) -> None:
    from hedgerow.clients.app.local import LocalSeat
    # the bots think for a while, so they choose while Ann is composing her turn
    seat = LocalSeat(ruleset(plugins, players=3), 3, seed_from_int(11),
                     bots=[plugins.bot("random", "flourish")], name="Ann", bot_delay=0.4)

    async def main() -> None:
        async with running(seat, plugins) as d:
            await d.until(lambda: d.state.view is not None and 0 in d.state.active,
                          what="the first turn")
            hand = d.state.view.hand
            d.press("2", "enter")  # the card to plant: the form moves on to the left pass
            await d.until(lambda: d.state.picker.step == 1, what="the plant chosen")
            await d.until(lambda: d.state.active == (0,), what="both bots' choices")
            assert d.state.picker.step == 1  # still composing, the plant still chosen
            d.press("3", "enter", "5")
            await d.until(lambda: d.state.picker.current() is not None, what="a whole turn")
            assert d.state.picker.current() == Action.of("turn", play=hand[1], left=hand[2],
                                                         right=hand[4])
        await seat.close()

    asyncio.run(main())


def test_a_whole_game_by_keys_to_the_results(plugins: PluginHost) -> None:
    seat = local_flourish(plugins, "cooperative", players=2, seed=12)

    async def main() -> None:
        async with running(seat, plugins) as d:
            state = d.state
            while state.outcome is None:
                await d.until(lambda: state.active == (0,) or state.outcome is not None,
                              what="our turn, the bots' choices made")
                if state.outcome is not None:
                    break
                before = len(state.lines)
                picker = state.picker
                if picker.kind == "turn":  # plant 1, then Space on 2 and 3 to pass them
                    d.press("1", "enter", "2", "3", "enter")
                else:  # the final round: three of five
                    d.press("1", "2", "3", "enter")
                await d.until(lambda before=before: len(state.lines) > before or
                              state.outcome is not None, what="the turn to be played")
            await drawn(d, lambda rows: any("Team" in r for r in rows), what="the results")
        await seat.close()
        assert seat.outcome() is not None

    asyncio.run(main())


def test_a_name_too_long_is_shortened_as_botanists_do_before_it_is_cut() -> None:
    from hedgerow.plugins.flourish.cards import SIZE, card
    from hedgerow.plugins.flourish.uiwords import short_name

    narcissus = next(i for i in range(1, SIZE + 1) if card(i).name.startswith("Narcissus"))
    assert short_name(narcissus) == "N. pseudonarcissus"  # 25 letters in full
    assert short_name(narcissus, 25) == "Narcissus pseudonarcissus"
    assert short_name(narcissus, 10) == "N. pseudo…"
    hive = next(i for i in range(1, SIZE + 1) if card(i).name == "Cornflower Hive")
    assert short_name(hive, 12) == "Cornflower …"  # not a plant: no genus to shorten
    # every card's name in words (previews, what was passed) is whole or shortened, not cut
    assert all("…" not in short_name(i) for i in range(1, SIZE + 1))


def test_enter_with_nothing_marked_says_what_it_waits_for(plugins: PluginHost) -> None:
    """Solo: plant a card, then Enter before marking McGregor's two: the screen says to
    mark them, and how many are marked; nothing is sent."""
    seat = local_flourish(plugins, "solo", players=1, seed=3)

    async def main() -> None:
        async with running(seat, plugins) as d:
            state = d.state
            await d.until(lambda: state.my_turn, what="our turn")
            d.press("enter")  # the card to plant: the cursor's
            await d.until(lambda: state.picker.step == 1, what="the cards to give")
            d.press("enter")
            await d.until(lambda: state.message is not None, what="a word on why")
            assert state.message == ("Mark two cards to pass with Space (or a click), then "
                                     "press Enter; none is marked yet.")
            assert len(state.lines) == 1  # the deal only: nothing was played
            rows = await drawn(d, lambda rows: any("Mark two cards" in r for r in rows),
                               what="the words on screen")
            assert "none is marked yet." in " ".join(" ".join(rows).split()), rows
            d.press("2", "enter")
            await d.until(lambda: state.message is not None and "1 is marked" in
                          state.message, what="the count marked")
        await seat.close()

    asyncio.run(main())


def test_the_results_say_where_each_garden_s_end_of_game_points_came_from(
        plugins: PluginHost) -> None:
    import re

    rules = ruleset(plugins, players=3)
    finished = play(rules, 3, seed_from_int(5), [plugins.bot("random", "flourish")])
    v = finished.view(0)
    ui = ui_for(plugins, players=3)
    lines = text(ui.draw("endgame", DrawContext(v, 0, 78))).split("\n")
    assert lines[0] == "End-of-game points, card by card"
    assert all(len(line) <= 78 for line in lines)
    words = " ".join(lines[1:])
    found = re.findall(r"(You|Seat \d \([a-z ]+\)) (\d+) = (.*?)(?= Seat \d|$)", words)
    assert [who for who, _, _ in found] == ["You", "Seat 1 (your left)", "Seat 2 (your right)"]
    for seat, (_, total, cards) in zip((0, 1, 2), found, strict=True):
        assert int(total) == v.points[seat][4]  # the results table's End of game
        points = [int(n) for n in re.findall(r" (\d+)(?: \+|$)", cards)]
        assert sum(points) == int(total) and points == sorted(points, reverse=True)
    assert ui.draw("endgame", DrawContext(f1_view(), 0, 78)) is None  # not before the end
