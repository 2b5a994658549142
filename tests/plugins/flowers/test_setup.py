"""Setting up (rules §3): the stack sizes per player count, the start cards, the deal as one
chance node that another implementation can reproduce from its documented procedure."""

from __future__ import annotations

import pytest

from hedgerow.core import SetupContext
from hedgerow.core.chance import permute
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.flowers.cards import DECK, PURPLES
from hedgerow.plugins.flowers.garden import key
from hedgerow.plugins.flowers.setup import Layout, round_robin, stack_sizes, standard_layout
from hedgerow.plugins.flowers.state import TAKE

# players -> (stack sizes, cards left in the box), rules §3
STANDARD = {1: ((40, 40), 27), 2: ((26, 26, 26), 28), 3: ((30, 30, 30), 15),
            4: ((35, 35, 34), 0)}
SUMMER = {1: ((40, 40), 28), 2: ((26, 26, 26), 30), 3: ((30, 30, 30), 18),
          4: ((36, 36, 36), 0)}


@pytest.mark.parametrize("summer", [False, True], ids=["standard", "summer"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_stack_sizes_and_start_cards(plugins: PluginHost, players: int, summer: bool) -> None:
    ruleset = plugins.ruleset("flowers", ["summer"] if summer else [], players=players)
    sizes, box = (SUMMER if summer else STANDARD)[players]
    for seed in range(3):
        table = Table(ruleset, players, seed_from_int(seed))
        state = table.state
        assert tuple(len(s) for s in state.stacks) == sizes
        assert len(state.box) == box and state.phase == TAKE
        assert 0 <= state.active < players
        for seat, garden in enumerate(state.gardens):
            assert list(garden) == [key(0, 0)] and len(garden[key(0, 0)]) == 1
            if summer:
                assert garden[key(0, 0)] == (PURPLES[seat],)
            else:
                assert garden[key(0, 0)][0] in DECK
        view = table.view(0)
        assert view.sizes == sizes and view.face_down == len(sizes) - 1
        assert view.tops[-1] == -1 and all(t in DECK for t in view.tops[:-1])


def test_the_layouts() -> None:
    assert standard_layout(2) == Layout((-1, -1), (26, 26, 26))
    assert stack_sizes(4, 4) == (35, 35, 34) and stack_sizes(4, 0) == (36, 36, 36)
    assert round_robin((3, 3, 2)) == ((0, 3, 6), (1, 4, 7), (2, 5))


def test_the_deal_is_one_chance_entry_following_the_documented_procedure(
        plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("flowers", players=4)
    table = Table(ruleset, 4, seed_from_int(7))
    (entry,) = table.entries
    assert entry.is_chance and table.index == 1
    order, first = entry.action["draws"]  # type: ignore[misc]
    deck = permute(DECK, order)
    state = table.state
    assert [g[key(0, 0)] for g in state.gardens] == [(deck[s],) for s in range(4)]
    rest = deck[4:]
    assert state.stacks == (rest[0::3][:35], rest[1::3][:35], rest[2::3][:34])
    assert state.active == first and state.box == ()


def test_same_seed_same_table_and_another_seed_another(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("flowers", players=3)
    a, b = (Table(ruleset, 3, seed_from_int(1)) for _ in range(2))
    assert a.state_hash() == b.state_hash()
    assert Table(ruleset, 3, seed_from_int(2)).state_hash() != a.state_hash()


def test_setup_refuses_a_player_count_or_layout_it_cannot_deal(standard) -> None:
    with pytest.raises(ValueError):
        standard.gamedef.setup(SetupContext(5))
    from hedgerow.plugins.flowers.setup import setup
    with pytest.raises(ValueError):
        setup(SetupContext(2), Layout((-1, -1), (60, 60)))
    with pytest.raises(ValueError):
        setup(SetupContext(2), Layout((3, -1), (26, 26, 26)))  # a deck card as a fixed start
