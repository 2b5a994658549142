"""The table engine: one gate for every action, refusals change nothing, a verifiable chain."""

from __future__ import annotations

import pytest

from hedgerow.core.actions import Action
from hedgerow.core.errors import Code, Refusal
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import LogEntry, ReplayError, Table

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


def test_accepted_actions_chain(table: Table) -> None:
    genesis = table.head
    seat = table.active_seats()[0]
    action = table.legal_actions(seat)[0]
    entry = table.submit(seat, action, index=0, prev=genesis)
    assert isinstance(entry, LogEntry)
    assert entry.prev == genesis
    assert entry.digest == LogEntry.chain(genesis, 0, seat, action)
    assert table.head == entry.digest and table.index == 1


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
        log.append((seat, action))
    again = Table.replay(ruleset, 2, SEED, log)
    assert (again.state_hash(), again.head) == (t.state_hash(), t.head)


def test_replay_names_the_first_refused_entry(toy_host) -> None:
    ruleset = toy_host.ruleset("posy", players=2)
    t = Table(ruleset, 2, SEED)
    seat = t.active_seats()[0]
    log = [(seat, t.legal_actions(seat)[0]), (seat, Action.of("play", card=1))]
    with pytest.raises(ReplayError) as err:
        Table.replay(ruleset, 2, SEED, log)
    assert err.value.index == 1
    assert err.value.refusal.code == Code.NOT_YOUR_TURN


def test_header_genesis_commits_to_rules_players_and_seed(toy_host) -> None:
    a = Table(toy_host.ruleset("posy"), 2, SEED).header.genesis
    assert a != Table(toy_host.ruleset("posy"), 3, SEED).header.genesis
    assert a != Table(toy_host.ruleset("posy", ["lowball"]), 2, SEED).header.genesis
    assert a != Table(toy_host.ruleset("posy"), 2, seed_from_int(8)).header.genesis


def test_simultaneous_step_accepts_each_active_seat_once(toy_host) -> None:
    t = Table(toy_host.ruleset("duel"), 3, SEED)
    assert t.active_seats() == (0, 1, 2)
    assert isinstance(t.submit(1, Action.of("pick", n=2)), LogEntry)
    assert t.active_seats() == (0, 2)
    _expect(t, t.submit(1, Action.of("pick", n=3)), Code.NOT_YOUR_TURN)
    # the other seats cannot see seat 1's pick until the round is complete
    assert t.view(0).my_pick == 0 and t.view(0).picked == (False, True, False)


def test_play_defers_the_chain_but_gives_the_same_digests(toy_host) -> None:
    ruleset = toy_host.ruleset("posy", players=3)
    eager, lazy = Table(ruleset, 3, SEED), Table(ruleset, 3, SEED)
    while eager.active_seats():
        seat = eager.active_seats()[0]
        action = eager.legal_actions(seat)[0]
        assert isinstance(eager.submit(seat, action), LogEntry)
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
    entry = table.submit(seat2, second, index=1)
    assert isinstance(entry, LogEntry) and entry.index == 1
    assert entry.prev == table.entries[0].digest
