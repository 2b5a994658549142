"""Setup (§4), the turn and its effects (§5), drawing and the final round (§6, example 16)."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from hedgerow.core import Action, Rng, SetupContext
from hedgerow.core.chance import draw_all
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.petals import turn
from hedgerow.plugins.petals.cards import LADYBUGS, REGULAR
from hedgerow.plugins.petals.choices import DECLINE, SCORE
from hedgerow.plugins.petals.scoring import add, direct_points
from hedgerow.plugins.petals.setup import deal, deal_chance, setup
from hedgerow.plugins.petals.state import FINAL, OVER, PLAY, Pending, State

PILE = {2: 28, 3: 24, 4: 24, 5: 25}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_for_each_player_count(players: int) -> None:
    state = dealt(players, Rng(b"petals-setup"))
    assert sorted(state.garden) == [(0, 0), (1, 1), (2, 2)]
    assert all(len(h) == 2 for h in state.hands) and len(state.hands) == players
    assert len(state.pile) == PILE[players]
    assert state.trackers == ((0, 0, 0, 0),) * players
    assert state.phase == PLAY and state.pending is None
    assert 0 <= state.active < players
    assert state.out_of_play == (() if players == 5 else LADYBUGS)
    assert len(state.set_aside) == (2 if players == 3 else 0)
    assert set(state.set_aside) <= set(REGULAR)
    everything = [v >> 2 for v in state.garden.values()] + [c for h in state.hands for c in h]
    everything += [*state.pile, *state.out_of_play, *state.set_aside]
    assert sorted(everything) == list(range(1, 39))

def dealt(players: int, rng: Rng) -> State:
    """A Petals table set up and dealt, with ``rng`` standing in for the engine's chance."""
    fresh = setup(SetupContext(players))
    chance = deal_chance(fresh)
    assert chance is not None
    return deal(fresh, draw_all(rng, chance))



def test_setup_is_a_function_of_the_seed() -> None:
    one = dealt(3, Rng(b"a"))
    assert dealt(3, Rng(b"a")) == one
    others = [dealt(3, Rng(bytes([i]) * 8)) for i in range(40)]
    assert len({s.pile for s in others}) == 40
    assert len({s.set_aside for s in others}) > 30
    assert {s.active for s in others} == {0, 1, 2}
    assert {v & 3 for s in others for v in s.garden.values()} == {0, 1, 2, 3}


# -- effects ------------------------------------------------------------------------------

# #16 r0 shows F* on top; #17 r2 shows F* at the bottom and E3 on the right; #10 r2 shows E3
# on the left.
IDENTICAL = {(0, 0): (16, 0), (1, 1): (10, 2), (2, 2): (13, 0)}


def test_identical_symbols_score_first_then_offer_a_move(board, play, standard) -> None:
    state = board(IDENTICAL, hands=((17, 1), (2, 3)))
    after = play(state, 0, Action.of("place", card=17, x=0, y=1, rot=2))
    assert after.trackers[0] == (0, 0, 6, 0)  # Earth +6 from E3 vs E3, Fire +0 from F* vs F*
    assert after.pending == Pending("identical", (0, 1), ((0, 1), (0, 0)))
    assert after.active == 0 and len(after.hands[0]) == 1  # no draw yet
    legal = list(standard.gamedef.legal_actions(after, 0))
    assert legal[-1] == DECLINE and SCORE not in legal
    declined = play(after, 0, DECLINE)
    assert declined.trackers == after.trackers and declined.active == 1
    assert declined.hands[0] == (1, 31)  # drew the top of the pile (its end)
    moved = play(after, 0, Action.of("move", from_x=2, from_y=2, to_x=2, to_y=1, rot=0))
    assert moved.active == 1 and (2, 1) in moved.garden


def test_a_moved_card_never_triggers(board, play) -> None:
    # Move #17 so that its F* faces #16's F* again: the pair scores as a pair (0), no effect.
    state = board({(0, 0): (16, 0), (1, 1): (10, 2), (2, 2): (13, 0), (2, 1): (17, 0)},
                  hands=((1, 2), (3, 4)), pending=Pending("identical", (2, 2), ((2, 2),)))
    after = play(state, 0, Action.of("move", from_x=2, from_y=1, to_x=0, to_y=1, rot=2))
    assert after.pending is None and after.active == 1
    assert after.trackers[0] == (0, 0, 6, 0)


def test_identical_with_no_legal_move_is_skipped(board, play) -> None:
    state = board({(0, 0): (16, 0)}, hands=((17, 1), (2, 3)))
    after = play(state, 0, Action.of("place", card=17, x=0, y=1, rot=2))
    assert after.pending is None and after.active == 1


def test_different_with_no_legal_move_scores_the_played_card(board, play) -> None:
    # #25 r2 shows W* on its left, against the F* on the right of #16 r1 at (1,0).
    with_choice = board({(1, 0): (16, 1), (1, 1): (9, 0)}, hands=((25, 1), (2, 3)))
    after = play(with_choice, 0, Action.of("place", card=25, x=2, y=0, rot=2))
    assert after.pending is not None  # the card at (1,1) may move, so the choice is offered
    lone = board({(1, 0): (16, 1)}, hands=((25, 1), (2, 3)))
    after = play(lone, 0, Action.of("place", card=25, x=2, y=0, rot=2))
    assert after.pending is None and after.active == 1  # both cards trigger: scored, passed


def test_a_pending_effect_blocks_other_actions(board, play, standard) -> None:
    state = board(IDENTICAL, hands=((17, 1), (2, 3)))
    after = play(state, 0, Action.of("place", card=17, x=0, y=1, rot=2))
    refused = standard.gamedef.apply(after, 0, Action.of("place", card=1, x=0, y=2, rot=0))
    assert refused.code == "petals.effect_pending"
    assert standard.gamedef.apply(after, 0, SCORE).code == "petals.wrong_choice"
    assert standard.gamedef.apply(after, 1, DECLINE).code == "petals.not_your_turn"


# -- end of the game ----------------------------------------------------------------------


def _random_game(ruleset: Ruleset, players: int, seed: int) -> tuple[Table, list]:
    table = Table(ruleset, players, seed_from_int(seed))
    rng = Rng(seed_from_int(seed), "test-player")
    log = []
    while table.active_seats():
        seat = table.active_seats()[0]
        legal = ruleset.gamedef.legal_actions(table.state, seat)
        action = legal[rng.randbelow(len(legal))]
        log.append((seat, action, table.state))
        table.submit(seat, action)
    return table, log


def test_example_16_end_sequencing_two_players(standard: Ruleset) -> None:
    table, log = _random_game(standard, 2, seed=16)
    first = log[0][2].active
    second = 1 - first
    places = [(seat, before) for seat, action, before in log if action.kind == "place"]
    assert Counter(seat for seat, _ in places) == {first: 15, second: 15}
    assert [seat for seat, _ in places] == [first, second] * 15  # strict alternation
    # The pile holds 28: the 28th placement is seat 2's 14th turn and its draw empties it.
    phases = [before.phase for _, before in places]
    assert phases == [PLAY] * 28 + [FINAL, FINAL]
    assert [len(before.pile) for _, before in places][27] == 1
    assert places[28][1].active == first and places[29][1].active == second
    state = table.state
    assert state.phase == OVER and all(len(c) == 1 for c in state.scored_directly)
    assert len(state.garden) == 3 + 2 * 15
    assert len(state.garden) + 2 == 35


@pytest.mark.parametrize(("players", "turns"), [(2, 15), (3, 9), (4, 7), (5, 6)])
def test_everyone_gets_the_same_number_of_turns(standard: Ruleset, players: int,
                                                turns: int) -> None:
    _, log = _random_game(standard, players, seed=players)
    counts = Counter(seat for seat, action, _ in log if action.kind == "place")
    assert counts == {seat: turns for seat in range(players)}
    final = [before for _, a, before in log if a.kind == "place" and before.phase == FINAL]
    assert [b.final_left for b in final] == list(range(players, 0, -1))
    assert all(len(b.pile) == 0 for b in final)


def test_final_card_is_scored_directly(standard: Ruleset) -> None:
    table, log = _random_game(standard, 3, seed=7)
    *_, (seat, action, before) = log
    placed_only = turn.apply(before, seat, action, lambda trackers, remaining: trackers)
    expected = []
    for points, cards in zip(placed_only.trackers, table.state.scored_directly, strict=True):
        for c in cards:
            points = add(points, direct_points(c))
        expected.append(points)
    assert table.state.trackers == tuple(expected)
    assert table.state.hands == ((), (), ())
    assert table.outcome() is not None and table.active_seats() == ()


def test_the_state_keeps_the_last_turn_and_the_direct_points_for_the_screens(
        standard: Ruleset) -> None:
    table, log = _random_game(standard, 2, seed=1)
    moved = 0
    for (seat, action, before), (_, _, after) in pairwise(log):
        if action.kind == "place":
            cell = (action["x"], action["y"])
            assert after.last is not None and (after.last.seat, after.last.placed) == (seat,
                                                                                       cell)
        elif action.kind == "move":
            moved += 1
            src, dst = (action["from_x"], action["from_y"]), (action["to_x"], action["to_y"])
            assert after.last is not None and after.last.moved == (src, dst)
            assert after.last.placed == before.pending.played
    state = table.state
    assert state.direct == tuple(direct_points(c) for (c,) in state.scored_directly)
    assert state.last is not None
    assert moved  # the seed plays at least one move
