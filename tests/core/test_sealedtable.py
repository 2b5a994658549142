"""The sealed table engine: public state, information states, reveals, and the sealed check.

The built-in games are checked sealed against open in tests/plugins/*; here are the engine's
own rules on a small game made for it (*parcel*), and the sealed check catching the ways a
game's rules can give a hidden card away.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from toygames import toy_host

from hedgerow.core import (
    Action,
    Chance,
    GameDef,
    GameSpec,
    Ranked,
    Refusal,
    SetupContext,
    Shuffle,
    hookimpl,
    permute,
)
from hedgerow.core.errors import RulesError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealed import Known, Sealed
from hedgerow.core.sealedcheck import SealedCheckError, check_sealed
from hedgerow.core.sealedtable import OpenDealer, SealedTable, Waiting
from hedgerow.core.seeding import seed_from_int

# -- parcel: play a card face up (and draw), or pass one face down to the left ----------------


@dataclass(frozen=True, slots=True)
class Parcel:
    hands: tuple[tuple[object, ...], ...]
    deck: tuple[object, ...]
    table: tuple[object, ...]  # cards played, face up
    turn: int
    dealt: bool


@dataclass(frozen=True, slots=True)
class ParcelView:
    seat: int
    hand: tuple[object, ...]
    hand_sizes: tuple[int, ...]
    deck_count: int
    table: tuple[object, ...]
    turn: int


TURNS = 8


def build_parcel(ext: object, *, draw_peek: bool = False, view_peek: bool = False) -> GameDef:
    def setup(ctx: SetupContext) -> Parcel:
        return Parcel(((),) * ctx.players, tuple(range(1, 13)), (), 0, False)

    def chance(s: Parcel) -> Chance | None:
        return None if s.dealt else Chance((Shuffle(len(s.deck)),), "shuffle and deal")

    def resolve(s: Parcel, outcome: tuple) -> Parcel:
        deck = permute(s.deck, outcome[0])
        n = len(s.hands)
        return Parcel(tuple(deck[2 * k: 2 * k + 2] for k in range(n)), deck[2 * n:], (), 0,
                      True)

    def active(s: Parcel) -> tuple[int, ...]:
        return (s.turn % len(s.hands),) if s.dealt and s.turn < TURNS else ()

    def legal(s: Parcel, seat: int) -> list[Action]:
        if seat not in active(s):
            return []
        return ([Action.of("play", card=c) for c in s.hands[seat]]
                + [Action.of("pass", card=c) for c in s.hands[seat]])

    def apply(s: Parcel, seat: int, a: Action) -> Parcel | Refusal:
        card = a.get("card")
        if seat not in active(s) or a.kind not in ("play", "pass") or card not in s.hands[seat]:
            return Refusal("parcel.bad", "play or pass a card of your hand")
        hands = list(s.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        table, deck = s.table, s.deck
        if a.kind == "play":
            table = (*table, card + 0)  # playing reads the card: it is shown
            if deck:
                drawn, deck = deck[0], deck[1:]
                if draw_peek and drawn > 6:  # a bug: reads the card as it is drawn
                    pass
                hands[seat] = (*hands[seat], drawn)
        else:
            left = (seat + 1) % len(hands)
            hands[left] = (*hands[left], card)
        return Parcel(tuple(hands), deck, table, s.turn + 1, True)

    def view(s: Parcel, seat: int) -> ParcelView:
        if view_peek:
            sum(s.hands[seat])  # a bug: a view that looks at the cards
        return ParcelView(seat, s.hands[seat], tuple(len(h) for h in s.hands), len(s.deck),
                          s.table, s.turn)

    def outcome(s: Parcel) -> Ranked | None:
        if active(s) or not s.dealt:
            return None
        n = len(s.hands)
        totals = tuple(sum(1 for c in s.table) for _ in range(n))
        return Ranked(totals, (1,) * n, tuple(range(n)), "everybody wins")

    def describe(s: Parcel, seat: int, a: Action) -> str:
        return f"seat {seat} {a.kind}s"

    return GameDef("parcel", setup, active, legal, apply, view, outcome, describe,
                   chance=chance, resolve=resolve)


class ParcelPlugin:
    def __init__(self, **bugs: bool) -> None:
        self.bugs = bugs

    @hookimpl
    def hedgerow_register_games(self, register) -> None:  # type: ignore[no-untyped-def]
        register(GameSpec("parcel", "Parcel", "1.0.0", 2, 4,
                          lambda ext: build_parcel(ext, **self.bugs)))


def parcel(players: int = 3, **bugs: bool) -> object:
    plugins = PluginHost(autoload=False, builtins=(), extra=[ParcelPlugin(**bugs)])
    return plugins.ruleset("parcel", ())


SEED = seed_from_int(7)


def dealt(players: int = 3) -> tuple[list[SealedTable], OpenDealer]:
    """One sealed table per seat, dealt and each shown its own hand."""
    ruleset = parcel(players)
    peers = [SealedTable(ruleset, players, SEED, seats=[s]) for s in range(players)]
    dealer = OpenDealer(SEED)
    waiting = peers[0].waiting
    assert isinstance(waiting, Waiting) and len(waiting.shuffles) == 1
    (job,) = waiting.shuffles
    assert job.items == tuple(range(1, 13)) and job.entry == 0
    chance = peers[0].pending_chance()
    assert chance is not None
    for (entry, draw), deck in dealer.deal(chance, waiting.shuffles).items():
        for peer in peers:
            peer.shuffled(entry, draw, deck)
            assert peer.settle()
    for peer in peers:
        (owed,) = peer.take_obligations()
        assert owed.public == ()
        for seat, tokens in owed.private:
            assert tokens == tuple(Sealed(0, 0, p) for p in range(2 * seat, 2 * seat + 2))
            if seat in peer.seats:
                peer.reveal_private({t.key: dealer.face(t.key) for t in tokens})
    return peers, dealer


def test_the_deal_waits_for_the_shuffle_and_shows_each_seat_its_own_hand() -> None:
    peers, dealer = dealt()
    hashes = {p.state_hash() for p in peers}
    assert len(hashes) == 1  # one public state
    assert peers[0].state.hands[1] == (Sealed(0, 0, 2), Sealed(0, 0, 3))
    assert peers[0].view(0).hand == tuple(dealer.face((0, 0, p)) for p in (0, 1))
    mine = peers[0].legal_actions(0)
    assert all(type(a["card"]) is Known for a in mine)
    chance_entry = peers[0].entries[0]
    (digest,) = chance_entry.action["draws"]  # type: ignore[misc]
    assert type(digest) is bytes and len(digest) == 32


def test_a_played_card_travels_as_its_token_with_its_face_attached() -> None:
    peers, dealer = dealt()
    card = peers[0].legal_actions(0)[0]
    prepared = peers[0].prepare(0, card)
    assert not isinstance(prepared, Refusal)
    token = Sealed(0, 0, 0)
    assert prepared.action == Action.of("play", card=token)
    assert prepared.attached == {token.key: dealer.face(token.key)}
    for peer in peers:
        applied = peer.submit(0, prepared.action, reveals=prepared.attached)
        assert isinstance(applied, tuple) and len(applied) == 1
    assert {p.state_hash() for p in peers} == {peers[0].state_hash()}
    assert peers[1].state.table == (dealer.face(token.key),)  # public now, everywhere
    (owed,) = peers[0].take_obligations()  # the card drawn: shown to seat 0 only
    assert owed.public == () and owed.private == ((0, (Sealed(0, 0, 6),)),)


def test_a_passed_card_moves_unseen_and_is_shown_to_its_new_holder_only() -> None:
    peers, _ = dealt()
    passing = peers[0].legal_actions(0)[2]
    assert passing.kind == "pass"
    prepared = peers[0].prepare(0, passing)
    assert not isinstance(prepared, Refusal)
    assert prepared.attached == {} and type(prepared.action["card"]) is Sealed
    for peer in peers:
        assert isinstance(peer.submit(0, prepared.action), tuple)
        (owed,) = peer.take_obligations()
        assert owed.private == ((1, (Sealed(0, 0, 0),)),) and owed.public == ()
    assert Sealed(0, 0, 0).key not in peers[2].mine
    # seat 0 still knows the card it passed: it is in its information state, not its view
    assert type(peers[0].info_state().hands[1][-1]) is Known


def test_an_action_without_its_reveal_waits_for_a_public_round() -> None:
    peers, dealer = dealt()
    prepared = peers[0].prepare(0, peers[0].legal_actions(0)[0])
    assert not isinstance(prepared, Refusal)
    result = peers[1].submit(0, prepared.action)  # the reveal did not come with it
    assert result == Waiting(reveals=(Sealed(0, 0, 0),), seat=0)
    assert peers[1].index == 1  # nothing applied
    peers[1].reveal_public({(0, 0, 0): dealer.face((0, 0, 0))})
    assert isinstance(peers[1].submit(0, prepared.action), tuple)


def test_a_refused_action_changes_nothing() -> None:
    peers, _ = dealt()
    before = peers[1].state_hash()
    stolen = Action.of("play", card=Sealed(0, 0, 2))  # seat 1's card
    assert isinstance(peers[1].submit(0, stolen), Refusal)
    assert peers[1].state_hash() == before and peers[1].index == 1


@pytest.mark.parametrize("pos", [2, 5, 9])  # seat 1's hand, seat 2's, the deck
def test_an_action_naming_a_card_its_seat_was_never_shown_is_refused_before_any_read(
        pos: int) -> None:
    """Not a wait for a public round: that would open another seat's card (or the deck's)
    to everyone on a cheat's say-so."""
    peers, _ = dealt()
    for peer in peers:
        refused = peer.submit(0, Action.of("play", card=Sealed(0, 0, pos)))
        assert isinstance(refused, Refusal) and refused.code == "illegal_action"
        assert f"card 0.0.{pos}" in refused.message and "never shown" in refused.message
        assert peer.take_obligations() == [] and peer.index == 1


def test_parcel_plays_the_same_sealed_as_open() -> None:
    report = check_sealed(parcel(3), 3, range(6))
    assert report.games == 6 and report.reveals > 0


def test_the_check_catches_rules_that_read_a_card_as_it_is_drawn() -> None:
    with pytest.raises(SealedCheckError, match="cannot see it"):
        check_sealed(parcel(3, draw_peek=True), 3, range(6))


def test_a_view_that_looks_at_a_sealed_card_is_a_rules_error() -> None:
    with pytest.raises((SealedCheckError, RulesError), match="view"):
        check_sealed(parcel(3, view_peek=True), 3, range(1))


def test_a_shuffle_not_applied_with_permute_cannot_be_sealed() -> None:
    with pytest.raises(SealedCheckError, match="permute"):
        check_sealed(toy_host().ruleset("relay", ()), 3, range(1))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_petals_plays_the_same_sealed_as_open(players: int) -> None:
    plugins = PluginHost(autoload=False)
    for variants in ((), ("harmony",)):
        check_sealed(plugins.ruleset("petals", variants), players, range(2))


def test_toy_games_play_the_same_sealed_as_open() -> None:
    plugins = toy_host()
    check_sealed(plugins.ruleset("posy", ()), 3, range(3))
    check_sealed(plugins.ruleset("duel", ()), 2, range(3))


def test_hash_data_may_not_read_a_sealed_card() -> None:
    ruleset = parcel(2)
    gamedef = replace(ruleset.gamedef, hash_data=lambda s: tuple(sum(h) for h in s.hands))
    with pytest.raises(RulesError, match="hash_data"):
        table = SealedTable(replace(ruleset, gamedef=gamedef), 2, SEED)
        table.shuffled(0, 0, b"\0" * 32)
        table.settle()
        table.state_hash()
