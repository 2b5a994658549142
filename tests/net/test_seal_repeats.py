"""Repeats of only what a peer lacks (docs/protocol.md §10.8): a party's heartbeat says what
it holds of the sealed deck (`SealHeld`), and the others send it again only the passes,
keys and escrow it lacks, and nothing still on its way to it; a peer that says nothing gets
everything again, as before.

The sealed table is the one-process table of tests/sealnet.py (real mental poker); the
repeat timing is `SealedPlay`'s own, driven beat by beat with a stand-in for the peer
around it (sockets are not the point here: tests/reliability/test_slow_link.py plays a
whole game over an 8 kbit/s link).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sealnet import LocalTable, Wire

from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.members import Member, Roster
from hedgerow.net.messages import (
    CardKeys,
    EscrowKey,
    EscrowShares,
    PeerInfo,
    SealBody,
    SealHeld,
    ShufflePhase,
    ShuffleStep,
)
from hedgerow.net.sealplay import SealedPlay

HOST = PluginHost(autoload=False)
SLOW = 3  # the party whose messages are lost


def petals(wire: Wire) -> LocalTable:
    return LocalTable(HOST.ruleset("petals", ()), 4, 0, wire=wire)


def drop_once(match: Any) -> tuple[Wire, list[Any]]:
    """A wire that loses the first message to `SLOW` that ``match(sender, body)`` accepts."""
    lost: list[Any] = []

    def tamper(to: int, sender: int, body: Any) -> Any:
        if to == SLOW and not lost and match(sender, body):
            lost.append(body)
            return None
        return body

    return Wire(tamper=tamper), lost


def is_lock_of(party: int) -> Any:
    return lambda sender, body: (isinstance(body, ShuffleStep) and body.party == party
                                 and body.phase == ShufflePhase.LOCK)


def test_a_peer_that_lost_a_pass_is_sent_again_that_pass_and_nothing_else() -> None:
    wire, lost = drop_once(is_lock_of(1))
    table = petals(wire)
    assert lost, "party 1's lock pass never went to the slow party"
    slow = table.peers[SLOW].sealing
    assert slow.table.waiting is not None, "the deal should stand still"
    held = slow.held()
    (deck,) = held.decks
    assert (deck.lock, deck.rekey) == (0b0101, 0)  # parties 0 and 2 (held for its turn)
    assert held.escrow_keys == held.escrow_shares == 0b1111
    repeats = {p.party: p.sealing.repeats(SLOW, held) for p in table.peers if p.party != SLOW}
    assert repeats == {0: [], 1: lost, 2: []}
    # Without what it holds, a party sends it everything it made, as a version-4 peer did.
    full = table.peers[0].sealing.repeats(SLOW, None)
    assert {type(b) for b in full} == {ShuffleStep, EscrowKey, EscrowShares}
    for body in repeats[1]:
        wire.post(SLOW, 1, body)
    table.deliver()
    assert slow.held().decks[0].rekey == 0b1111  # the deal went on
    table.play()
    assert not table.halted
    assert all(p.sealing.verdict().ok for p in table.peers)


def test_a_peer_that_lost_the_keys_to_its_hand_is_sent_those_keys_by_that_party_only() -> None:
    wire, lost = drop_once(lambda sender, body: (sender == 0 and isinstance(body, CardKeys)
                                                 and not body.public))
    table = petals(wire)
    assert lost
    slow = table.peers[SLOW].sealing
    assert slow.owed_to_me()
    held = slow.held()
    hand = {k.card for k in lost[0].keys}
    assert {w.card for w in held.wants} == hand
    assert {w.parties for w in held.wants} == {0b0001}  # party 0's key is missing
    repeats = {p.party: p.sealing.repeats(SLOW, held) for p in table.peers if p.party != SLOW}
    assert repeats[1] == repeats[2] == []
    (again,) = repeats[0]
    assert isinstance(again, CardKeys) and not again.public
    assert {k.card for k in again.keys} == hand
    wire.post(SLOW, 0, again)
    table.deliver()
    assert not slow.owed_to_me()
    assert slow.held().wants == ()


class Ctx:
    """The peer around `SealedPlay`, as far as repeats go: a roster, and sends that number
    their envelopes (`seq`) and remember what went to whom."""

    def __init__(self, parties: int, me: int) -> None:
        self.roster = Roster(parties, bytes([me]) * 32)
        for p in range(parties):
            self.roster.add(PeerInfo(p, bytes([p]) * 32, f"p{p}"), 0.0)
        self.identity = SimpleNamespace(public=bytes([me]) * 32)
        self.seq = 0
        self.sent: list[tuple[int, int, SealBody]] = []  # (seq, party, body)

    def send(self, member: Member, body: SealBody) -> None:
        self.seq += 1
        self.sent.append((self.seq, member.seat, body))

    def broadcast(self, body: SealBody) -> None:
        self.seq += 1
        for m in self.roster.others():
            self.sent.append((self.seq, m.seat, body))


def test_what_is_still_on_its_way_is_not_repeated_until_the_peer_has_seen_past_it() -> None:
    wire, lost = drop_once(is_lock_of(1))
    table = petals(wire)
    party1 = table.peers[1]
    ctx = Ctx(4, 1)
    play = SealedPlay(ctx, applied=lambda entries: None, opened=lambda: None,  # type: ignore[arg-type]
                      author_of=lambda seat: seat)
    play.sealing, play._started = party1.sealing, True  # (as `SealedPlay.start` leaves it)
    party1.sealing.out = play
    for other in (0, 2):  # they hold all that party 1 made
        play.heard_held(bytes([other]) * 32, table.peers[other].sealing.held())
    play.send(SLOW, lost[0])  # sent to it again in envelope 1, which it has not seen yet
    slow_key = bytes([SLOW]) * 32
    held = table.peers[SLOW].sealing.held()
    play.heard_held(slow_key, SealHeld(0, held.decks, held.wants, held.escrow_keys,
                                       held.escrow_shares, held.disclosed))
    for _ in range(12):  # the deck stands still: repeats at beats 3 and 9
        play.resend_stalled()
    assert [party for _, party, _ in ctx.sent] == [SLOW], "repeated while on its way"
    play.heard_held(slow_key, SealHeld(1, held.decks, held.wants, held.escrow_keys,
                                       held.escrow_shares, held.disclosed))
    for _ in range(12):
        play.resend_stalled()
    # It has seen envelope 1 and still lacks the pass (lost again): now it goes again, and
    # only to it, only that pass (the others hold everything party 1 made).
    assert [(party, body) for _, party, body in ctx.sent[1:]] == [(SLOW, lost[0])]
    # A peer that says nothing of what it holds gets everything again.
    play.heard_held(slow_key, None)
    play.peer_back(slow_key)
    assert {type(body) for _, party, body in ctx.sent[2:] if party == SLOW} == {
        ShuffleStep, EscrowKey, EscrowShares}
