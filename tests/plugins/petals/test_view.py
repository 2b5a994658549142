"""The view (what a seat sees), a state dealt from it, hash_data, describe and the terminal
drawing."""

from __future__ import annotations

import dataclasses

from hedgerow.core import Action, Rng, SetupContext
from hedgerow.core.canon import state_hash
from hedgerow.core.chance import draw_all
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.ui import DrawContext, Target
from hedgerow.plugins.petals.bots.sample import sample
from hedgerow.plugins.petals.setup import deal, deal_chance, setup
from hedgerow.plugins.petals.state import Pending, State, View
from hedgerow.plugins.petals.ui import PetalsUI
from hedgerow.plugins.petals.view import hash_data, view


def dealt(players: int, rng: Rng) -> State:
    """A Petals table set up and dealt, with ``rng`` standing in for the engine's chance."""
    fresh = setup(SetupContext(players))
    chance = deal_chance(fresh)
    assert chance is not None
    return deal(fresh, draw_all(rng, chance))



def test_view_holds_only_what_the_seat_may_see() -> None:
    state = dealt(3, Rng(b"view"))
    seen = view(state, 1)
    assert isinstance(seen, View) and not isinstance(seen, State)
    assert seen.hand == state.hands[1]
    assert seen.hand_sizes == (2, 2, 2) and seen.pile_count == len(state.pile)
    assert seen.set_aside_count == 2 and seen.trackers == state.trackers
    assert seen.active == state.active and seen.pending is None
    assert len(seen.garden) == 3 and seen.garden == tuple(sorted(seen.garden))
    fields = {f.name for f in dataclasses.fields(View)}
    assert "pile" not in fields and "hands" not in fields and "set_aside" not in fields
    hidden = set(state.pile) | set(state.set_aside) | set(state.hands[0]) | set(state.hands[2])
    shown = {c for _, _, c, _ in seen.garden} | set(seen.hand) | set(seen.out_of_play)
    assert not hidden & shown


def test_a_state_dealt_from_a_view_redeals_only_what_is_hidden() -> None:
    state = dealt(3, Rng(b"det"))
    for seat in range(3):
        other = sample(view(state, seat), seat, Rng(b"other", str(seat)))
        assert view(other, seat) == view(state, seat)
        assert other.hands[seat] == state.hands[seat]
        assert other != state  # something hidden moved
        pooled = sorted(c for s in (state, other) for c in
                        [*s.pile, *s.set_aside, *(c for i, h in enumerate(s.hands)
                                                 if i != seat for c in h)])
        assert pooled[::2] == pooled[1::2]  # the same cards, re-dealt


def test_hash_data_is_plain_and_ignores_the_derived_frontier() -> None:
    state = dealt(4, Rng(b"hash"))
    data = hash_data(state)
    assert isinstance(data, tuple)
    again = state._replace(garden=dict(reversed(list(state.garden.items()))),
                                frontier=())
    assert state_hash(hash_data(again)) == state_hash(data)
    moved = state._replace(active=(state.active + 1) % 4)
    assert state_hash(hash_data(moved)) != state_hash(data)


def test_describe_every_kind(board, standard: Ruleset, play) -> None:
    start = {(0, 0): (1, 0), (1, 1): (9, 0), (2, 2): (13, 0), (1, 0): (16, 1)}
    state = board(start, hands=((7, 25), (21, 22)))
    describe = standard.gamedef.describe
    text = describe(state, 0, Action.of("place", card=7, x=0, y=1, rot=0))
    assert text.startswith("Seat 0 plays #07 F1 W3 E2 A2 at (0, 1), rotation 0")
    placed = Action.of("place", card=25, x=2, y=0, rot=2)
    assert "different symbols" in describe(state, 0, placed)
    pending = play(state, 0, placed)
    assert "scores the card just played, #25: nothing" in describe(pending, 0,
                                                                   Action.of("score"))
    move = Action.of("move", from_x=2, from_y=2, to_x=2, to_y=1, rot=1)
    assert describe(pending, 0, move) == (
        "Seat 0 moves #13 F1 W3 E1 A3 from (2, 2) to (2, 1), rotation 1: Earth +3")
    identical = board(start, hands=((1,), (2,)), pending=Pending("identical", (1, 0), ((1, 0),)))
    assert describe(identical, 0, Action.of("decline")) == "Seat 0 declines to move a card"


def _text(fragments) -> str:
    return "".join(f[1] for f in fragments)


def _draw(view_: View, part: str, width: int = 100, seat: int = 0):
    return PetalsUI().draw(part, DrawContext(view_, seat, width))


def test_render_draws_garden_hand_trackers_and_pile() -> None:
    state = dealt(2, Rng(b"render"))
    seen = view(state, 0)
    garden, hand = _draw(seen, "garden"), _draw(seen, "hand")
    for fragments in (garden, hand):
        assert all(isinstance(f[0], str) and isinstance(f[1], str) for f in fragments)
    text = _text(garden)
    assert "Draw pile 28" in _text(hand) and "Your" in _text(hand)  # the pile never scrolls
    assert "No card played yet" in _text(hand)  # whose card is last: under the hand
    assert text.split("\n")[0].split() == ["x-1", "x0", "x1", "x2", "x3"]  # column labels
    for *_, c, _ in seen.garden:
        assert f"{c:02d}" in text
    for c in seen.hand:
        assert f"{c:02d}" in _text(hand)
    columns = PetalsUI().score_columns(seen)  # the trackers, in the players table
    assert [c.label for c in columns] == ["F", "W", "E", "A", "Score"]
    assert [c.values for c in columns[:4]] == [tuple(t[e] for t in state.trackers)
                                               for e in range(4)]
    assert any(f[0].startswith("fg:ansired") for f in garden)
    assert all(len(line) <= 100 for line in text.split("\n"))
    narrow = _text(_draw(seen, "garden", 30))  # ids dropped: 5 columns a cell, not 8
    assert max(len(line) for line in narrow.split("\n")) < max(len(line) for line in
                                                               text.split("\n"))
    assert not any(f"{c:02d}" in narrow for *_, c, _ in seen.garden)


def test_the_ui_hook_answers_only_for_petals(plugins: PluginHost) -> None:
    assert isinstance(plugins.game_ui("petals"), PetalsUI)
    from hedgerow.plugins.petals import ui_plugin

    assert ui_plugin.hedgerow_game_ui(game="other", ruleset=None) is None


def test_render_shows_a_pending_effect(board) -> None:
    state = board({(1, 0): (16, 1), (2, 0): (25, 2), (1, 1): (9, 0)},
                  hands=((1,), (2, 3)), pending=Pending("different", (2, 0), ((2, 0), (1, 0))))
    text = _text(_draw(view(state, 0), "garden", 80))
    assert "Different symbols" in text and "(2,0), (1,0)" in text


def test_the_results_part_shows_what_was_scored_directly(board) -> None:
    state = board({(0, 0): (1, 0)}, hands=((), ()))._replace(
        phase="over", scored_directly=((7,), (25, 16)), direct=((1, 3, 2, 2), (3, 1, 3, 3)))
    drawing = _draw(view(state, 1), "scored", 80, seat=1)
    text = _text(drawing)
    assert "Seat 0" in text and "Seat 1" in text and "#07" in text and "#25" in text
    # The players are named by "seat" targets, which the client fills with their names.
    assert [f[2] for f in drawing if "Seat" in f[1]] == [Target("seat", 0), Target("seat", 1)]
    assert "→ F+1 W+3 E+2 A+2" in text  # what the last card added
    assert _draw(view(state._replace(phase="play"), 1), "scored", 80, seat=1) == []
