"""Mandala at a sealed table: the same game as open, with no hidden card read or shown.

`check_sealed` plays seeded random games open and sealed side by side (one sealed table per
seat, and an observer) for every player count, with and without Draw four: views, legal
actions, hashes shared by every peer and the outcome must agree, and every card the rules
read must be shown to all.  The seeds reach the deal, plays that take counted cards (ones
that came back from a mandala) and named hidden ones, the tile choice, the reshuffle of the
discard pile and refills; a pass, which random games almost never reach, is tested on a
state built for it.

Then what the sealed rules do on their own: a sealed deal, how a play names the cards it
takes, and the plays a cheating peer could send (another seat's card, a card twice, too
few or too many, a card of another colour, a pass with a play in hand), each refused, and
refused before any card is read when the cheat is visible without reading one.
"""

from __future__ import annotations

from typing import Any

import pytest

from hedgerow.core import Action, Refusal, Rng
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.sealed import Known, Sealed, SealedRead, substitute
from hedgerow.core.sealedcheck import SealedRun, check_sealed
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.mandala.cards import GREEN, NO_CARDS, RED, counts
from hedgerow.plugins.mandala.choices import (
    PASS,
    can_play,
    name_cards,
    play_action,
    play_args,
    play_cards,
    plays,
)
from hedgerow.plugins.mandala.drawing import DRAW_FOUR, STANDARD
from hedgerow.plugins.mandala.state import PLAY, State

from .conftest import make_state

VARIANTS = [(), ("draw-four",)]
#: Seeds per player count: a 4-seat sealed game costs about four 2-seat ones (five tables).
SEEDS = {2: 3, 3: 2, 4: 2}


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: "+".join(v) or "standard")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_mandala_plays_the_same_sealed_as_open(plugins: PluginHost, variants: tuple[str, ...],
                                               players: int) -> None:
    report = check_sealed(plugins.ruleset("mandala", variants, players), players,
                          range(SEEDS[players]))
    assert report.games == SEEDS[players] and report.actions > 0 and report.reveals > 0


# -- a sealed deal --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def run(plugins: PluginHost) -> SealedRun:
    """A 2-seat game sealed and open, dealt and at rest (nobody has played)."""
    return SealedRun(plugins.ruleset("mandala", (), 2), 2, 5)


def test_a_sealed_deal_hides_every_hand_in_tokens_and_shows_the_tiles(run: SealedRun) -> None:
    public: State = run.peers[0].state
    assert public.phase == PLAY and public.hands == (NO_CARDS, NO_CARDS)
    assert [len(h) for h in public.hidden] == [5, 6]
    assert all(type(card) is Sealed for h in public.hidden for card in h)
    assert all(type(card) is Sealed for card in (*public.deck, *public.dark, *public.light))
    assert [m.tiles for m in public.mandalas] == [m.tiles for m in run.open.state.mandalas]
    # the public state's view holds a seat's own tokens (so it is shown them), no count
    seen = run.peers[0].gamedef.view(public, 0)
    assert seen.sealed == public.hidden[0] and seen.hand == NO_CARDS
    assert seen.hand_sizes == (5, 6)
    # each peer knows its own cards only; its view counts them as the open game does
    for seat, peer in enumerate(run.peers):
        info = peer.info_state()
        assert all(type(c) is Known for c in info.hidden[seat])
        assert all(type(c) is Sealed for c in info.hidden[1 - seat])
        assert peer.view(seat) == run.open.view(seat) and peer.view(seat).sealed == ()


def test_the_open_game_has_no_hidden_cards(run: SealedRun) -> None:
    state = run.open.state
    assert state.hidden == () and sum(state.hands[1]) == 6


# -- naming the cards a play takes ----------------------------------------------------------


def _token(pos: int) -> Sealed:
    return Sealed(0, 0, pos)


def _sealed_state(hand: tuple[int, ...], hidden: tuple[object, ...],
                  other: tuple[object, ...] = (), deck: int = 10) -> State:
    """A 2-seat sealed state in seat 0's turn: seat 0 counts ``hand`` and holds ``hidden``;
    seat 1 holds ``other`` (tokens); the deck holds ``deck`` tokens."""
    state = make_state(players=2, hands={0: hand, 1: NO_CARDS})
    return state._replace(hidden=(hidden, other),
                          deck=tuple(_token(80 - i) for i in range(deck)))


def test_a_play_names_its_hidden_cards_after_the_counted_ones() -> None:
    reds = (Known(RED, _token(1)), Known(GREEN, _token(2)), Known(RED, _token(3)),
            Known(RED, _token(4)))
    info = _sealed_state(counts(red=1), reds)
    assert play_action(0, RED, 1) in plays(info, 0, STANDARD)
    assert name_cards(info, 0, play_action(0, RED, 1)) == play_action(0, RED, 1)
    two = name_cards(info, 0, play_action(1, RED, 2))
    assert two.args[0] == ("cards", (reds[0],)) and play_cards(two) == (1, RED, 2, (reds[0],))
    assert play_args(two) is None  # not a play as listed
    three = name_cards(info, 0, play_action(2, RED, 3))
    assert play_cards(three) == (2, RED, 3, (reds[0], reds[2]))
    # a play the seat cannot make, and other actions, come back as they are
    assert name_cards(info, 0, play_action(0, RED, 5)) == play_action(0, RED, 5)
    assert name_cards(info, 0, PASS) == PASS


def _apply(rules: Ruleset, state: State, action: Action,
           faces: dict[Any, int] | None = None) -> State | Refusal:
    """Apply seat 0's ``action`` to a public state, showing ``faces`` as the table does when
    the rules read them (a read of any other card fails the test)."""
    faces = faces or {}
    for _ in range(8):
        try:
            return rules.gamedef.apply(state, 0, action)
        except SealedRead as read:
            assert read.token.key in faces, f"the rules read {read.token}"
            face = faces[read.token.key]
            state = _shown(state, read.token, face)
            action = _shown(action, read.token, face)
    raise AssertionError("too many reads")


def _shown(value: Any, token: Sealed, face: int) -> Any:
    return substitute(value, {token.key: face})


def test_an_honest_sealed_play_shows_the_named_cards_and_draws_tokens(
        standard: Ruleset) -> None:
    state = _sealed_state(counts(red=1), (_token(1), _token(2), _token(3)))
    play = Action("play", (("cards", (_token(3),)), *play_action(0, RED, 2).args))
    after = _apply(standard, state, play, {(0, 0, 3): RED})
    assert isinstance(after, State)
    assert after.hands[0] == NO_CARDS and after.hidden[0] == (_token(1), _token(2))
    assert after.mandalas[0].plays[-1][:3] == (0, RED, 2)
    # a single card (the counted one: nothing named, nothing read) draws two sealed cards
    # from the top of the deck
    drawn = _apply(standard, state, play_action(1, RED, 1))
    assert isinstance(drawn, State) and drawn.hands[0] == NO_CARDS
    assert drawn.hidden[0] == (*state.hidden[0], state.deck[-2], state.deck[-1])
    assert drawn.deck == state.deck[:-2] and drawn.hidden[1] == state.hidden[1]


@pytest.mark.parametrize("cards, why", [
    ((Sealed(0, 0, 1), Sealed(0, 0, 50)), "does not hold"),  # one of seat 1's cards
    ((Sealed(0, 0, 1), Sealed(0, 0, 1)), "twice"),  # one card named twice
    ((), "names 2"),                                # too few
    ((Sealed(0, 0, 1), Sealed(0, 0, 2), Sealed(0, 0, 3)), "not 3"),  # too many
])
def test_a_cheating_play_is_refused_before_a_card_is_read(
        standard: Ruleset, cards: tuple[Sealed, ...], why: str) -> None:
    state = _sealed_state(counts(red=1), (_token(1), _token(2), _token(3)),
                          other=(Sealed(0, 0, 50),))
    extra = (("cards", cards),) if cards else ()
    play = Action("play", (*extra, *play_action(0, RED, 3).args))
    refused = _apply(standard, state, play)  # any read fails the test
    assert isinstance(refused, Refusal) and refused.code == "mandala.not_in_hand"
    assert why in refused.message


def test_a_named_card_of_another_colour_is_refused_once_shown(standard: Ruleset) -> None:
    state = _sealed_state(NO_CARDS, (_token(1), _token(2)))
    play = Action("play", (("cards", (_token(2),)), *play_action(0, RED, 1).args))
    refused = _apply(standard, state, play, {(0, 0, 2): GREEN})
    assert isinstance(refused, Refusal) and "names a green card as red" in refused.message


def test_an_open_table_refuses_named_cards(standard: Ruleset) -> None:
    state = make_state(players=2, hands={0: counts(red=2)})
    play = Action("play", (("cards", (RED,)), *play_action(0, RED, 2).args))
    refused = standard.gamedef.apply(state, 0, play)
    assert isinstance(refused, Refusal) and refused.code == "mandala.not_in_hand"
    empty = Action("play", (("cards", ()), *play_action(0, RED, 1).args))
    assert isinstance(standard.gamedef.apply(state, 0, empty), Refusal)


def test_a_pass_is_checked_on_public_facts(standard: Ruleset) -> None:
    holding = _sealed_state(NO_CARDS, (_token(1),), deck=0)
    refused = _apply(standard, holding, PASS)  # one card, nothing to draw: no play
    assert isinstance(refused, State) and refused.passes == 1
    two = _sealed_state(NO_CARDS, (_token(1), _token(2)), deck=0)
    must = _apply(standard, two, PASS)
    assert isinstance(must, Refusal) and must.code == "mandala.must_play"
    drawable = _sealed_state(NO_CARDS, (_token(1),), deck=1)
    assert isinstance(_apply(standard, drawable, PASS), Refusal)


def test_can_play_is_whether_there_is_a_play(plugins: PluginHost) -> None:
    """The pass check reads public facts only; on every state of random open games it says
    what the list of plays says."""
    for variants, rule in (((), STANDARD), (("draw-four",), DRAW_FOUR)):
        for players in (2, 4):
            rules = plugins.ruleset("mandala", variants, players)
            for seed in range(6):
                table = Table(rules, players, seed_from_int(seed))
                rng = Rng(seed_from_int(seed), "can-play")
                while table.active_seats():
                    state = table.state
                    for seat in range(players):
                        assert can_play(state, seat, rule) == bool(plays(state, seat, rule))
                    seat = table.active_seats()[0]
                    legal = table.legal_actions(seat)
                    assert table.play(seat, legal[rng.randbelow(len(legal))]) is None


def test_a_play_naming_a_card_of_another_colour_halts_nobody_and_changes_nothing(
        plugins: PluginHost) -> None:
    """At a dealt sealed table, seat 0 claims one of its cards is a colour it is not: every
    peer refuses the play, with the card's true face attached, and nothing changes."""
    run = SealedRun(plugins.ruleset("mandala", (), 2), 2, 5)
    info = run.peers[0].info_state()
    card = info.hidden[0][0]
    other = (int(card) + 1) % 6
    cheat = Action("play", (("cards", (card.token,)), *play_action(0, other, 1).args))
    for peer in run.peers:
        before = peer.state_hash()
        result = peer.submit(0, cheat, reveals={card.token.key: int(card)})
        assert isinstance(result, Refusal) and result.code == "mandala.not_in_hand"
        assert peer.state_hash() == before and peer.index == run.open.index


def test_a_sealed_play_is_described_without_its_tokens(run: SealedRun) -> None:
    peer = run.peers[0]
    action = peer.legal_actions(0)[0]
    prepared = peer.prepare(0, action)
    assert not isinstance(prepared, Refusal)
    assert type(prepared.action.args[0][1][0]) is Sealed
    assert peer.describe(0, prepared.action) == peer.describe(0, action)
    assert "seat 0 plays" in peer.describe(0, prepared.action)
