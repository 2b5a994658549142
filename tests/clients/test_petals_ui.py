"""Petals' UI object (plugins/petals/ui.py), reached through the host as the client does.

Exercises `hedgerow_game_ui` and the object's drawing, preview, prompt, score columns and
help on views built from the rules' worked examples (docs/rules/petals.md), and checks the
object against whole seeded games (`hedgerow.core.uicheck`).
"""

from __future__ import annotations

import pytest

from hedgerow.core import Action
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ui import DrawContext, Target
from hedgerow.core.uicheck import check_ui
from hedgerow.plugins.petals.state import LastTurn, Pending, View
from hedgerow.plugins.petals.ui import PetalsUI


@pytest.fixture(scope="module")
def plugins():
    return PluginHost(autoload=False)


@pytest.fixture(scope="module")
def ui(plugins):
    return plugins.game_ui("petals")


def view(garden, hand=(7, 25), pending=None, phase="play",
         trackers=((0, 0, 0, 0), (3, 1, 0, 2)), last=None):
    return View(seat=0, players=2, hand=tuple(hand),
                garden=tuple(sorted((x, y, c, r) for (x, y), (c, r) in garden.items())),
                trackers=trackers, pile_count=20, hand_sizes=(2, 2), active=0,
                pending=pending, phase=phase, final_left=0, out_of_play=(), set_aside_count=0,
                scored_directly=(), last=last)


EXAMPLE_9 = {(0, 0): (1, 0), (1, 1): (9, 0), (2, 2): (13, 0)}


def text(fragments) -> str:
    return "".join(f[1] for f in fragments)


def targets(fragments) -> list[Target]:
    found = []
    for fragment in fragments:
        if len(fragment) > 2 and fragment[2] not in found:
            found.append(fragment[2])
    return found


def draw(ui, part, v, width=60, preview=None):
    return ui.draw(part, DrawContext(v, 0, width, preview))


def test_the_hook_answers_petals_ui_for_petals_only(plugins) -> None:
    assert isinstance(plugins.pm.hook.hedgerow_game_ui(game="petals", ruleset=None), PetalsUI)
    assert plugins.game_ui("chess") is None


def test_the_preview_says_what_a_placement_scores(ui) -> None:
    v = view(EXAMPLE_9)
    say = lambda **a: ui.preview(v, 0, Action.of("place", card=7, x=1, y=0, **a))  # noqa: E731
    assert say(rot=3) == "Play #07 at (1,0), turned 270°: Water +7, Fire +1"
    assert say(rot=2) == "Play #07 at (1,0), turned 180°: Water +4"
    assert say(rot=0).endswith(": nothing")


def test_the_preview_of_effect_choices(ui) -> None:
    garden = {**EXAMPLE_9, (1, 0): (16, 1), (2, 0): (25, 2)}
    v = view(garden, pending=Pending("different", (2, 0), ((2, 0), (1, 0))))
    assert ui.preview(v, 0, Action.of("score")) == "Score the card you played: nothing"
    move = Action.of("move", from_x=2, from_y=2, to_x=2, to_y=1, rot=1)
    assert ui.preview(v, 0, move) == "Move #13 from (2,2) to (2,1), turned 90°: Earth +3"
    assert ui.prompt(v, 0).startswith("Different symbols met!")
    assert ui.prompt(view(EXAMPLE_9), 0) is None


def test_the_board_marks_every_cell_and_draws_the_preview(ui) -> None:
    v = view(EXAMPLE_9)
    plain = draw(ui, "garden", v)
    cells = targets(plain)
    assert Target("cell", (1, 0)) in cells and Target("cell", (0, 0)) in cells
    assert all(t.role == "cell" and len(t.value) == 2 for t in cells)
    assert all(len(f) == 3 for f in plain if "·" in f[1])  # the open-cell dots are targets
    place = Action.of("place", card=7, x=1, y=0, rot=3)
    ghost = draw(ui, "garden", v, preview=place)
    assert text(ghost).count("W3") == text(plain).count("W3") + 1  # the ghost shows #07's W3
    underlined = [f[1] for f in ghost if "underline" in f[0]]
    assert sorted(underlined) == ["F1", "W1", "W3", "W3"]  # both sides of both scoring pairs
    assert any("italic" in f[0] and f[1] == "07" for f in ghost)  # the ghost's id
    assert draw(ui, "dice", v) is None


def rows_of(fragments) -> list[str]:
    return text(fragments).split("\n")


def corners_at(fragments, cell) -> str:
    """The corner characters drawn in ``cell``."""
    return "".join(f[1] for f in fragments if len(f) > 2 and f[2] == Target("cell", cell)
                   and f[1] in "┏┓┗┛╭╮╰╯")


def test_the_last_turn_is_marked_and_the_ghost_is_not_a_placed_card(ui) -> None:
    garden = {**EXAMPLE_9, (1, 0): (7, 3)}
    v = view(garden, last=LastTurn(1, (1, 0)))
    plain = draw(ui, "garden", v, width=100)
    assert corners_at(plain, (1, 0)) == "┏┓┗┛"  # the other seat's last card
    assert corners_at(plain, (0, 0)) == corners_at(plain, (1, 1)) == ""
    assert rows_of(plain)[0].split()[0] == "x-1"  # the column labels: the first line
    hand = draw(ui, "hand", v, width=47)  # whose card is last: under the hand, in view
    assert rows_of(hand)[-2:] == ["Draw pile 20", "┏┓ last turn: Seat 1"]
    assert [f[2] for f in hand if f[1] == "Seat 1"] == [Target("seat", 1)]  # named by client
    ghost = draw(ui, "garden", v, width=100,
                 preview=Action.of("place", card=25, x=2, y=1, rot=0))
    assert corners_at(ghost, (2, 1)) == "╭╮╰╯" and corners_at(ghost, (1, 0)) == "┏┓┗┛"
    # A move leaves "moved" where the card was, and marks where it went.
    moved = view({(0, 0): (1, 0), (1, 1): (9, 0), (1, 0): (16, 1), (2, 0): (25, 2),
                  (2, 1): (13, 1)}, last=LastTurn(0, (2, 0), ((2, 2), (2, 1))))
    drawn = draw(ui, "garden", moved, width=100)
    assert corners_at(drawn, (2, 0)) == corners_at(drawn, (2, 1)) == "┏┓┗┛"
    assert any(f[1].strip() == "moved" and f[2] == Target("cell", (2, 2))
               for f in drawn if len(f) > 2)
    assert rows_of(draw(ui, "hand", moved, width=47))[-1].endswith(": yours")


def test_narrow_cells_line_up(ui) -> None:
    garden = {**EXAMPLE_9, (1, 0): (7, 3)}
    rows = rows_of(draw(ui, "garden", view(garden, last=LastTurn(1, (1, 0))), width=30))
    assert len({len(r) for r in rows[1:]}) == 1  # every row of cells as wide as the others


def test_the_hand_names_the_card_to_move_and_shows_the_pile(ui) -> None:
    garden = {**EXAMPLE_9, (1, 0): (16, 1), (2, 0): (25, 2)}
    v = view(garden, pending=Pending("different", (2, 0), ((2, 0), (1, 0))))
    hand = ui.draw("hand", DrawContext(v, 0, 80, None, {"from_x": 2, "from_y": 2}))
    assert "Draw pile 20" in text(hand)
    assert "Card to move: #13 at (2,2)" in text(hand)
    later = ui.draw("hand", DrawContext(v, 0, 80, Action.of("move", from_x=2, from_y=2,
                                                              to_x=2, to_y=1, rot=1),
                                        {"from_x": 2, "from_y": 2, "to_x": 2, "to_y": 1}))
    assert "Card to move" not in text(later)  # the preview line names it by then


def test_the_hand_is_numbered_and_marked_in_order(ui) -> None:
    fragments = draw(ui, "hand", view(EXAMPLE_9))
    assert targets(fragments) == [Target("card", 7), Target("card", 25)]
    assert "[1]" in text(fragments) and "[2]" in text(fragments)


def test_score_columns_are_the_trackers_and_the_score(ui) -> None:
    columns = ui.score_columns(view(EXAMPLE_9))
    assert [c.label for c in columns] == ["F", "W", "E", "A", "Score"]
    assert columns[0].values == (0, 3) and columns[4].values == (0, 1)


def test_help_text_says_how_to_play(ui) -> None:
    assert "LOWEST" in ui.help and len(ui.help) < 600
    assert "trackers" in ui.help and "last card" in ui.help


def test_targets_have_words(ui) -> None:
    assert ui.target_text(Target("card", 7)) == "#07"
    assert ui.target_text(Target("cell", (1, -2))) == "(1,-2)"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_ui_object_fits_whole_games(plugins, ui, players) -> None:
    """Every legal action's arguments have a role, every choice is drawn, nothing raises."""
    ruleset = plugins.ruleset("petals", players=players)
    assert check_ui(ui, ruleset, players=players, seeds=range(4)) == []


def test_the_cursor_is_a_block_of_its_own_not_a_reversed_card() -> None:
    """Symbols are drawn reversed, and the options have a green background: the cursor
    (a card to move among highlighted ones, or the ghost) must look like neither."""
    from hedgerow.clients.app.render import Highlights, decorate
    from hedgerow.clients.app.state import Drawn
    from hedgerow.clients.app.style import STYLE

    here, there = Target("cell", (0, 0)), Target("cell", (1, 0))
    marks = Highlights(options={here, there}, cursor=here)
    out = decorate([("fg:ansired", "F3", here), ("fg:ansiblue", "W1", there)], Drawn(), marks,
                   lambda target: None)
    styles = [f[0] for f in out if f[1] in ("F3", "W1")]
    assert styles[0].endswith("class:target.cursor") and "target.option" not in styles[0]
    assert styles[1].endswith("class:target.option")
    rules = dict(STYLE.style_rules)
    assert "reverse" not in rules["target.cursor"] and "bg:" in rules["target.cursor"]
    assert rules["target.cursor"] != rules["target.option"]
