"""A sealed table in one process, with real mental poker: nobody learns what it should not,
everybody ends with the same game, and every cheat is named."""

from __future__ import annotations

from typing import Any

import pytest
from sealnet import LocalTable, Play, Wire

from hedgerow.core.actions import Action
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealed import Sealed
from hedgerow.net import mentalpoker as mp
from hedgerow.net.messages import CardKey, CardKeys, ShufflePhase, ShuffleStep

HOST = PluginHost(autoload=False)


def petals(players: int, seed: int = 0, wire: Wire | None = None) -> LocalTable:
    return LocalTable(HOST.ruleset("petals", ()), players, seed, wire=wire)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_sealed_game_ends_the_same_on_every_peer_and_verifies(players: int) -> None:
    table = petals(players)
    table.play()
    assert not table.halted
    assert len({p.table.state_hash() for p in table.peers}) == 1
    assert table.peers[0].table.outcome() is not None
    for peer in table.peers:
        assert peer.sealing.all_disclosed
        verdict = peer.sealing.verdict()
        assert verdict.ok, verdict.message


def test_each_peer_can_open_its_own_hand_and_nobody_elses() -> None:
    table = petals(3)
    peer0, peer1 = table.peers[0], table.peers[1]
    hand1 = peer0.table.state.hands[1]
    assert all(type(card) is Sealed for card in hand1)  # seat 0 holds tokens for seat 1's hand
    assert all(card.key not in peer0.table.mine for card in hand1)
    assert all(card.key in peer1.table.mine for card in hand1)  # seat 1 sees them
    # what seat 0 received: no key of any other party for seat 1's cards
    for to, _sender, body in table.wire.sent:
        if to == 0 and isinstance(body, CardKeys) and not body.public:
            assert not {k.card for k in body.keys} & {c.key for c in hand1}


def test_a_card_played_is_shown_with_its_action_and_opened_by_everyone() -> None:
    table = petals(2)
    play = table.choose(table.peers[0].table.active_seats()[0])
    assert play.reveals and type(play.action["card"]) is Sealed
    table.act([play])
    card = play.reveals[0].card
    assert all(card in p.table.public for p in table.peers)


def _steps_of(table: LocalTable, phase: ShufflePhase, party: int) -> list[ShuffleStep]:
    return [b for _, s, b in table.wire.sent if isinstance(b, ShuffleStep)
            and b.phase == phase and b.party == party]


def test_a_duplicated_card_in_a_shuffle_is_caught_at_once_and_named() -> None:
    def duplicate(to: int, sender: int, body: Any) -> Any:
        if isinstance(body, ShuffleStep) and body.party == 1 and body.phase == ShufflePhase.LOCK:
            points = body.points
            return ShuffleStep(body.entry, body.draw, body.phase, body.party,
                               points[:32] + points[:32] + points[64:])
        return body

    table = petals(3, wire=Wire(tamper=duplicate))
    assert table.halted
    assert {party for _, party in table.halted} == {1}
    assert all("duplicated" in message for message, _ in table.halted)


def test_a_card_swapped_for_another_point_halts_when_opened_and_verification_names_the_cheat(
) -> None:
    def swap(to: int, sender: int, body: Any) -> Any:
        if isinstance(body, ShuffleStep) and body.party == 1 and body.phase == ShufflePhase.LOCK:
            points = list(body.points[i:i + 32] for i in range(0, len(body.points), 32))
            points = [mp.mul(mp.reduce64(b"\x07" * 64), p) for p in points]  # not its lock
            return ShuffleStep(body.entry, body.draw, body.phase, body.party, b"".join(points))
        return body

    table = petals(3, wire=Wire(tamper=swap))
    table.deliver()
    assert table.halted and all("does not open to a card" in m for m, _ in table.halted)
    for peer in (table.peers[0], table.peers[2]):  # the honest ones
        assert peer.sealing.all_disclosed
        verdict = peer.sealing.verdict()
        assert not verdict.ok and verdict.party == 1, verdict


def test_a_wrong_key_for_another_seats_card_is_caught_and_named() -> None:
    def wrong(to: int, sender: int, body: Any) -> Any:
        if isinstance(body, CardKeys) and sender == 2 and not body.public and to == 0:
            keys = tuple(CardKey(k.entry, k.draw, k.pos, mp.reduce64(b"\x05" * 64))
                         for k in body.keys)
            return CardKeys(keys)
        return body

    table = petals(3, wire=Wire(tamper=wrong))
    assert table.halted == [(table.halted[0][0], 2)]
    assert "wrong key" in table.halted[0][0]


def test_playing_a_card_one_does_not_hold_is_caught_and_named() -> None:
    table = petals(3)
    seat = table.peers[0].table.active_seats()[0]
    other = (seat + 1) % 3
    theirs = table.peers[seat].table.state.hands[other][0]
    honest = table.choose(seat)
    forged = Play(seat, Action(honest.action.kind, tuple(
        (n, theirs if n == "card" else v) for n, v in honest.action.args)), honest.reveals)
    table.act([forged])
    assert table.halted and {party for _, party in table.halted} == {seat}


def test_a_forged_reveal_for_a_card_of_another_seat_is_caught() -> None:
    table = petals(3)
    seat = table.peers[0].table.active_seats()[0]
    other = (seat + 1) % 3
    theirs = table.peers[seat].table.state.hands[other][0]
    honest = table.choose(seat)
    fake = type(honest.reveals[0])(*theirs.key, bytes(32) * 3)
    forged = Play(seat, Action(honest.action.kind, tuple(
        (n, theirs if n == "card" else v) for n, v in honest.action.args)), (fake,))
    table.act([forged])
    assert table.halted and all("wrong key" in m for m, _ in table.halted)


def test_a_departed_seat_is_taken_over_with_its_escrowed_secret_and_the_game_verifies() -> None:
    table = petals(3, seed=4)
    for _ in range(4):
        active = table.peers[0].table.active_seats()
        table.act([table.choose(seat) for seat in active])
    hand2 = [c for c in table.peers[0].table.state.hands[2] if type(c) is Sealed]
    table.take_over(2, runner=0)
    runner, other = table.peers[0], table.peers[1]
    assert runner.sealing.recovered.keys() == {2} and other.sealing.recovered.keys() == {2}
    assert all(card.key in runner.table.mine for card in hand2)  # the runner sees seat 2's hand
    assert not any(card.key in other.table.mine for card in hand2)  # the other seat does not
    table.play()
    assert not table.halted
    assert runner.table.outcome() is not None
    for peer in table.present:
        assert peer.sealing.all_disclosed
        assert peer.sealing.verdict().ok


def test_a_two_party_table_escrows_nothing() -> None:
    table = petals(2)
    assert not table.peers[0].sealing.escrowed
    assert not table.peers[0].sealing.can_recover(1)
    assert not any(type(b).__name__.startswith("Escrow") for _, _, b in table.wire.sent)
