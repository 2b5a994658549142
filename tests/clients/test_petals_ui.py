"""Petals' seat client hooks (plugins/petals/ui.py), called through the host as the client does.

Exercises `hedgerow_render_part`, `hedgerow_score_columns`, `hedgerow_preview_action` and
`hedgerow_turn_prompt` on views built from the rules' worked examples (docs/rules/petals.md).
"""

from __future__ import annotations

import pytest

from hedgerow.clients.app.render import parse_tag
from hedgerow.core import Action
from hedgerow.core.host import Host
from hedgerow.plugins.petals.state import Pending, View


@pytest.fixture(scope="module")
def hook():
    return Host(autoload=False).pm.hook


def view(garden, hand=(7, 25), pending=None, phase="play",
         trackers=((0, 0, 0, 0), (3, 1, 0, 2))):
    return View(seat=0, players=2, hand=tuple(hand),
                garden=tuple(sorted((x, y, c, r) for (x, y), (c, r) in garden.items())),
                trackers=trackers, pile_count=20, hand_sizes=(2, 2), active=0,
                pending=pending, phase=phase, final_left=0, out_of_play=(), set_aside_count=0,
                scored_directly=())


EXAMPLE_9 = {(0, 0): (1, 0), (1, 1): (9, 0), (2, 2): (13, 0)}


def text(fragments) -> str:
    return "".join(t for _, t in fragments)


def tags(fragments) -> list[dict]:
    found = []
    for style, _ in fragments:
        tag = parse_tag(style)
        if tag is not None and tag not in found:
            found.append(tag)
    return found


def test_the_preview_says_what_a_placement_scores(hook) -> None:
    v = view(EXAMPLE_9)
    say = lambda **a: hook.hedgerow_preview_action(  # noqa: E731
        game="petals", view=v, seat=0, action=Action.of("place", card=7, x=1, y=0, **a))
    assert say(rot=3) == "Play #07 at (1,0), turned 270°: Water +7, Fire +1"
    assert say(rot=2) == "Play #07 at (1,0), turned 180°: Water +4"
    assert say(rot=0).endswith(": nothing")
    assert hook.hedgerow_preview_action(game="chess", view=v, seat=0,
                                        action=Action.of("place")) is None


def test_the_preview_of_effect_choices(hook) -> None:
    garden = {**EXAMPLE_9, (1, 0): (16, 1), (2, 0): (25, 2)}
    v = view(garden, pending=Pending("different", (2, 0), ((2, 0), (1, 0))))
    say = lambda a: hook.hedgerow_preview_action(game="petals", view=v, seat=0, action=a)  # noqa: E731
    assert say(Action.of("score")) == "Score the card you played: nothing"
    move = Action.of("move", from_x=2, from_y=2, to_x=2, to_y=1, rot=1)
    assert say(move) == "Move #13 from (2,2) to (2,1), turned 90°: Earth +3"
    prompt = hook.hedgerow_turn_prompt(game="petals", view=v, seat=0)
    assert prompt.startswith("Different symbols met!")
    assert hook.hedgerow_turn_prompt(game="petals", view=view(EXAMPLE_9), seat=0) is None


def test_the_board_tags_every_cell_and_draws_the_preview(hook) -> None:
    v = view(EXAMPLE_9)
    plain = hook.hedgerow_render_part(game="petals", part="board", view=v, seat=0, width=60,
                                      preview=None)
    cells = tags(plain)
    assert {"x": 1, "y": 0} in cells and {"x": 0, "y": 0} in cells
    assert all(set(t) == {"x", "y"} for t in cells)
    place = Action.of("place", card=7, x=1, y=0, rot=3)
    ghost = hook.hedgerow_render_part(game="petals", part="board", view=v, seat=0, width=60,
                                      preview=place)
    assert text(ghost).count("W3") == text(plain).count("W3") + 1  # the ghost shows #07's W3
    underlined = [t for s, t in ghost if "underline" in s]
    assert sorted(underlined) == ["F1", "W1", "W3", "W3"]  # both sides of both scoring pairs
    assert hook.hedgerow_render_part(game="petals", part="dice", view=v, seat=0, width=60,
                                     preview=None) is None


def test_the_hand_is_numbered_and_tagged_in_order(hook) -> None:
    fragments = hook.hedgerow_render_part(game="petals", part="hand", view=view(EXAMPLE_9),
                                          seat=0, width=60, preview=None)
    assert tags(fragments) == [{"card": 7}, {"card": 25}]
    assert "[1]" in text(fragments) and "[2]" in text(fragments)


def test_score_columns_are_the_trackers_and_the_score(hook) -> None:
    columns = hook.hedgerow_score_columns(game="petals", view=view(EXAMPLE_9))
    assert [c[0] for c in columns] == ["F", "W", "E", "A", "Score"]
    assert columns[0][1] == (0, 3) and columns[4][1] == (0, 1)


def test_help_text_says_how_to_play(hook) -> None:
    text = hook.hedgerow_help_text(game="petals")
    assert "LOWEST" in text and len(text) < 600
    assert hook.hedgerow_help_text(game="chess") is None
