"""The table engine: one gate for every action, refusals change nothing, a verifiable chain."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hedgerow.core.actions import Action
from hedgerow.core.chance import CHANCE_SEAT, SeededChance, chance_action
from hedgerow.core.errors import Code, Refusal, RulesError
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Applied, LogEntry, ReplayError, Table

SEED = seed_from_int(7)


@pytest.fixture
def table(toy_host) -> Table:
    return Table(toy_host.ruleset("posy", players=2), 2, SEED)


def _snapshot(t: Table) -> tuple:
    return (t.index, t.head, t.state_hash(), t.state)


def _expect(t: Table, result: object, code: str) -> None:
    assert isinstance(result, Refusal), result
    assert result.code == code
    assert result.message


def test_setup_is_a_function_of_the_seed(toy_host) -> None:
    r = toy_host.ruleset("posy", players=3)
    assert Table(r, 3, SEED).state == Table(r, 3, SEED).state
    assert Table(r, 3, SEED).state != Table(r, 3, seed_from_int(8)).state


def test_refusals_leave_everything_unchanged(table: Table) -> None:
    seat = table.active_seats()[0]
    other = 1 - seat
    before = _snapshot(table)
    legal = table.legal_actions(seat)[0]
    _expect(table, table.submit(other, legal), Code.NOT_YOUR_TURN)
    _expect(table, table.submit(5, legal), Code.BAD_SEAT)
    _expect(table, table.submit(seat, legal, index=3), Code.BAD_INDEX)
    _expect(table, table.submit(seat, legal, prev=b"\x00" * 32), Code.BROKEN_CHAIN)
    _expect(table, table.submit(seat, Action.of("play", card=99)), "posy.not_in_hand")
    _expect(table, table.submit(seat, Action.of("dance")), "posy.unknown")
    _expect(table, table.submit(seat, Action("play", (("card", 1.0),))), Code.MALFORMED)
    assert _snapshot(table) == before


def _entry(result: object) -> LogEntry:
    """The one entry a turn without chance after it adds."""
    assert isinstance(result, tuple) and len(result) == 1, result
    (applied,) = result
    assert isinstance(applied, Applied)
    return applied.entry


def test_the_deal_is_entry_zero_resolved_from_the_seed(table: Table) -> None:
    genesis = table.header.genesis
    (deal,) = table.entries
    assert deal.seat == CHANCE_SEAT and deal.is_chance and deal.index == 0
    assert deal.prev == genesis and deal.digest == LogEntry.chain(genesis, 0, -1, deal.action)
    assert table.opening[0].entry == deal
    chance = table.gamedef.chance(table.opening[0].before)
    assert deal.action == chance_action(SeededChance(SEED).resolve(0, chance))
    assert table.describe_entry(deal, table.opening[0].before) == "chance: deal"


def test_accepted_actions_chain(table: Table) -> None:
    head = table.head
    seat = table.active_seats()[0]
    action = table.legal_actions(seat)[0]
    before = table.state
    result = table.submit(seat, action, index=1, prev=head)
    entry = _entry(result)
    assert result[0].before is before and result[0].after is table.state
    assert entry.prev == head
    assert entry.digest == LogEntry.chain(head, 1, seat, action)
    assert table.head == entry.digest and table.index == 2


def test_game_over_refuses_everything(table: Table) -> None:
    while table.active_seats():
        seat = table.active_seats()[0]
        table.submit(seat, table.legal_actions(seat)[0])
    assert table.outcome() is not None
    _expect(table, table.submit(0, Action.of("play", card=1)), Code.GAME_OVER)
    assert table.legal_actions(0) == []


def test_replay_rebuilds_the_same_state_and_chain(toy_host) -> None:
    ruleset = toy_host.ruleset("posy", players=2)
    t = Table(ruleset, 2, SEED)
    log = []
    while t.active_seats():
        seat = t.active_seats()[0]
        action = t.legal_actions(seat)[-1]
        t.submit(seat, action)
    log = [(e.seat, e.action) for e in t.entries]
    again = Table.replay(ruleset, 2, SEED, log)
    assert (again.state_hash(), again.head) == (t.state_hash(), t.head)


def test_replay_names_the_first_refused_entry(toy_host) -> None:
    ruleset = toy_host.ruleset("posy", players=2)
    t = Table(ruleset, 2, SEED)
    seat = t.active_seats()[0]
    deal = (t.entries[0].seat, t.entries[0].action)
    log = [deal, (seat, t.legal_actions(seat)[0]), (seat, Action.of("play", card=1))]
    with pytest.raises(ReplayError) as err:
        Table.replay(ruleset, 2, SEED, log)
    assert err.value.index == 2
    assert err.value.refusal.code == Code.NOT_YOUR_TURN


def test_replay_refuses_a_forged_deal(toy_host) -> None:
    ruleset = toy_host.ruleset("posy", players=2)
    t = Table(ruleset, 2, SEED)
    forged = chance_action((tuple(range(12)), 0))
    assert forged != t.entries[0].action
    with pytest.raises(ReplayError) as err:
        Table.replay(ruleset, 2, SEED, [(CHANCE_SEAT, forged)])
    assert err.value.index == 0 and err.value.refusal.code == Code.BROKEN_CHAIN
    assert "chance" in err.value.refusal.message


def test_a_chance_entry_where_none_is_pending_is_refused(table: Table) -> None:
    before = _snapshot(table)
    result = table.follow(table.index, CHANCE_SEAT, table.entries[0].action)
    _expect(table, result, Code.ILLEGAL_ACTION)
    assert _snapshot(table) == before


def test_header_genesis_commits_to_rules_players_and_seed(toy_host) -> None:
    a = Table(toy_host.ruleset("posy"), 2, SEED).header.genesis
    assert a != Table(toy_host.ruleset("posy"), 3, SEED).header.genesis
    assert a != Table(toy_host.ruleset("posy", ["lowball"]), 2, SEED).header.genesis
    assert a != Table(toy_host.ruleset("posy"), 2, seed_from_int(8)).header.genesis


def _pick(n: int) -> Action:
    return Action.of("pick", n=n)


def test_a_simultaneous_step_takes_every_choice_at_once(toy_host) -> None:
    t = Table(toy_host.ruleset("duel"), 3, SEED)
    assert t.active_seats() == (0, 1, 2) and t.simultaneous()
    before = _snapshot(t)
    _expect(t, t.submit(1, _pick(2)), Code.SIMULTANEOUS)
    _expect(t, t.submit_step({1: _pick(2), 2: _pick(3)}), Code.NOT_YOUR_TURN)
    _expect(t, t.submit_step({0: _pick(1), 1: _pick(2), 2: _pick(9)}), "duel.bad_pick")
    _expect(t, t.submit_step({0: _pick(1), 1: _pick(2), 2: _pick(3)}, index=7), Code.BAD_INDEX)
    assert _snapshot(t) == before
    # each choice is checked against the step's starting state, without applying it
    assert not isinstance(t.check(1, _pick(2)), Refusal) and _snapshot(t) == before
    result = t.submit_step({2: _pick(3), 0: _pick(3), 1: _pick(2)})
    assert isinstance(result, tuple)
    assert [(a.entry.seat, a.entry.action) for a in result] == [
        (0, _pick(3)), (1, _pick(2)), (2, _pick(3))]
    assert [a.entry.index for a in result] == [0, 1, 2]
    assert t.state.round == 1 and t.state.scores == (0, 2, 0)  # 2 is the only unique pick


def test_a_game_that_cannot_apply_a_step_whole_is_a_rules_error(toy_host) -> None:
    r = toy_host.ruleset("duel")

    def greedy_active(state):  # claims every seat stays active inside the step
        return (0, 1) if state.round < 3 else ()

    broken = Ruleset(r.spec, r.variants, replace(r.gamedef, active_seats=greedy_active))
    t = Table(broken, 2, SEED)
    with pytest.raises(RulesError, match="inside a simultaneous step"):
        t.submit_step({0: _pick(1), 1: _pick(2)})


def test_follow_holds_a_logged_step_until_it_is_whole(toy_host) -> None:
    ruleset = toy_host.ruleset("duel")
    live = Table(ruleset, 3, SEED)
    live.submit_step({0: _pick(1), 1: _pick(1), 2: _pick(3)})
    fed = Table(ruleset, 3, SEED)
    e0, e1, e2 = live.entries
    assert fed.follow(0, e0.seat, e0.action, prev=e0.prev) == ()
    _expect(fed, fed.follow(1, 0, _pick(2)), Code.BAD_INDEX)  # seats come in ascending order
    assert fed.follow(1, e1.seat, e1.action, prev=e1.prev) == ()
    assert fed.index == 0 and fed.following == 2 and fed.state.round == 0
    applied = fed.follow(2, e2.seat, e2.action, prev=e2.prev)
    assert isinstance(applied, tuple) and len(applied) == 3
    assert fed.entries == live.entries and fed.state_hash() == live.state_hash()
    assert fed.follow(1, e1.seat, e1.action) == ()  # a repeat of an entry we have
    _expect(fed, fed.follow(1, 1, _pick(3)), Code.BROKEN_CHAIN)


def test_a_replay_that_ends_inside_a_step_is_refused(toy_host) -> None:
    with pytest.raises(ReplayError, match="inside a simultaneous step"):
        Table.replay(toy_host.ruleset("duel"), 2, SEED, [(0, _pick(1))])


def test_play_defers_the_chain_but_gives_the_same_digests(toy_host) -> None:
    ruleset = toy_host.ruleset("posy", players=3)
    eager, lazy = Table(ruleset, 3, SEED), Table(ruleset, 3, SEED)
    while eager.active_seats():
        seat = eager.active_seats()[0]
        action = eager.legal_actions(seat)[0]
        assert isinstance(eager.submit(seat, action), tuple)
        assert lazy.play(seat, action) is None
        assert lazy.index == eager.index
    assert lazy.entries == eager.entries and lazy.head == eager.head
    assert lazy.state_hash() == eager.state_hash()


def test_play_refuses_like_submit(table: Table) -> None:
    seat = table.active_seats()[0]
    before = _snapshot(table)
    result = table.play(1 - seat, table.legal_actions(seat)[0])
    assert isinstance(result, Refusal) and result.code == Code.NOT_YOUR_TURN
    assert _snapshot(table) == before


def test_submit_after_play_chains_in_order(table: Table) -> None:
    seat = table.active_seats()[0]
    first = table.legal_actions(seat)[0]
    table.play(seat, first)
    seat2 = table.active_seats()[0]
    second = table.legal_actions(seat2)[0]
    entry = _entry(table.submit(seat2, second, index=2))
    assert entry.index == 2
    assert entry.prev == table.entries[1].digest
