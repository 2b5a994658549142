"""Hidden information: what a view shows, what a state dealt from it re-deals, what the hash
names."""

from __future__ import annotations

from collections import Counter

from gamechecks import applied, redeal

from hedgerow.core import Rng
from hedgerow.core.canon import state_hash
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.flowers.choices import plant_action, take_action
from hedgerow.plugins.flowers.garden import from_cells
from hedgerow.plugins.flowers.scoring import score_garden
from hedgerow.plugins.flowers.state import PLANT, TAKE, State, View
from hedgerow.plugins.flowers.summer import summer_colour_points
from hedgerow.plugins.flowers.view import hash_data


def _midgame(ruleset: Ruleset, players: int, turns: int) -> State:
    """The state after ``turns`` whole turns of a seeded game (a seat about to take)."""
    table = Table(ruleset, players, seed_from_int(5))
    game = ruleset.gamedef
    while table.index < 1 + 2 * turns and table.active_seats():
        (seat,) = table.active_seats()
        legal = game.legal_actions(table.state, seat)
        table.play(seat, legal[table.index % len(legal)])
    return table.state


def _hidden(state: State) -> list[int]:
    down = len(state.stacks) - 1
    cards = [c for i, s in enumerate(state.stacks) for c in (s if i == down else s[:-1])]
    return cards + list(state.box)


def _shown(view: View) -> list[int]:
    cards = [c for g in view.gardens for _, _, stack in g for c in stack]
    return cards + [t for t in view.tops if t >= 0] + list(view.discards) + [view.holding]


def test_a_view_shows_gardens_tops_and_sizes_and_no_hidden_card(plugins: PluginHost) -> None:
    for players in (1, 3):
        ruleset = plugins.ruleset("flowers", players=players)
        state = _midgame(ruleset, players, 9)
        view = ruleset.gamedef.view(state, 0)
        assert view.sizes == tuple(len(s) for s in state.stacks)
        assert view.tops[:-1] == tuple(s[-1] for s in state.stacks[:-1]) and view.tops[-1] == -1
        assert view.box_count == len(state.box) and view.final == ()
        assert not set(_hidden(state)) & set(_shown(view))
        assert sum(len(g) for g in view.gardens) == sum(len(g) for g in state.gardens)


def test_a_card_taken_face_down_is_seen_by_its_taker_only(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("flowers", players=3)
    state = _midgame(ruleset, 3, 4)
    seat = state.active
    state = applied(ruleset, state, seat, take_action(2))
    game = ruleset.gamedef
    assert game.view(state, seat).holding == state.holding
    other = (seat + 1) % 3
    assert game.view(state, other).holding == -1 and game.view(state, other).source == 2
    rng = Rng(b"det")
    regiven = [redeal(ruleset, state, other, rng.fork(str(i))).holding for i in range(12)]
    assert len(set(regiven)) > 1  # another seat cannot know it
    assert {redeal(ruleset, state, seat, rng.fork(str(i))).holding for i in range(5)} == {
        state.holding}


def test_a_state_dealt_from_a_view_re_deals_only_the_hidden_cards(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("flowers", players=2)
    game = ruleset.gamedef
    state = _midgame(ruleset, 2, 6)
    assert state.phase == TAKE
    other = redeal(ruleset, state, 0, Rng(b"x"))
    assert game.view(other, 0) == game.view(state, 0)
    assert Counter(_hidden(other)) == Counter(_hidden(state))
    assert _hidden(other) != _hidden(state)
    assert other.gardens == state.gardens and other.targets == state.targets
    assert [s[-1] for s in other.stacks[:-1]] == [s[-1] for s in state.stacks[:-1]]
    assert list(game.legal_actions(other, state.active)) == list(
        game.legal_actions(state, state.active))


def test_hash_data_names_the_state_and_leaves_out_derived_data(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("flowers", players=2)
    state = _midgame(ruleset, 2, 5)
    assert state_hash(hash_data(state)) == state_hash(hash_data(state._replace(targets=((),) * 2)))
    swapped = state._replace(stacks=(state.stacks[0][::-1], *state.stacks[1:]))
    assert state_hash(hash_data(swapped)) != state_hash(hash_data(state))
    moved = state._replace(gardens=(state.gardens[1], state.gardens[0]))
    assert state_hash(hash_data(moved)) != state_hash(hash_data(state))


def test_the_final_view_carries_every_seats_scoring_detail(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("flowers", ["summer"], players=2)
    table = Table(ruleset, 2, seed_from_int(3))
    game = ruleset.gamedef
    while table.active_seats():
        (seat,) = table.active_seats()
        legal = game.legal_actions(table.state, seat)
        if table.state.phase == PLANT:
            assert plant_action(2, 0, 0) not in legal  # the purple card stays uncovered
        else:
            assert plant_action(0, 0, 0) not in legal
        table.play(seat, legal[-1])
    view = table.view(1)
    outcome = table.outcome()
    assert outcome is not None and len(view.final) == 2
    assert tuple(s.total for s in view.final) == outcome.scores
    assert dict(outcome.breakdown)["Removed"] == tuple(-s.penalty for s in view.final)
    # a client can score a view's garden itself with the pure function
    for seat, cells in enumerate(view.gardens):
        assert score_garden(from_cells(cells), summer_colour_points) == view.final[seat]
