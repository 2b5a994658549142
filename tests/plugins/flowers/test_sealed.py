"""FLOWERS at a sealed table (issue 29): the same game sealed as open, and no card shown early.

`check_sealed` plays seeded random games open and sealed side by side (one peer per seat)
for every player count with and without Summer: the same views, legal actions and outcome,
and every card the rules read is shown to every seat.  The tests after it follow the cards
of one table: the deal reads none (the start cards and face-up tops are shown to everyone
at once, the stacks and the box stay sealed), a card taken face down is shown to its holder
alone until it is planted, and a refused action shows nothing.
"""

from __future__ import annotations

import pytest

from hedgerow.core import Action, Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealed import Sealed
from hedgerow.core.sealedcheck import SealedRun, check_sealed
from hedgerow.core.sealedtable import OpenDealer, SealedTable, Waiting
from hedgerow.core.seeding import seed_from_int
from hedgerow.plugins.flowers.cards import card_text
from hedgerow.plugins.flowers.setup import START
from hedgerow.plugins.flowers.state import NOBODY, PLANT

VARIANTS = [(), ("summer",)]
#: Games per player count (a 4-player game is the longest: about 75 actions, each checked
#: on five tables).
SEEDS = {1: 6, 2: 4, 3: 3, 4: 2}


@pytest.mark.parametrize("variants", VARIANTS, ids=["standard", "summer"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_flowers_plays_the_same_sealed_as_open(plugins: PluginHost, players: int,
                                               variants: tuple[str, ...]) -> None:
    ruleset = plugins.ruleset("flowers", list(variants), players=players)
    report = check_sealed(ruleset, players, range(SEEDS[players]))
    assert report.games == SEEDS[players] and report.actions > 0 and report.reveals > 0


@pytest.mark.parametrize("variants", VARIANTS, ids=["standard", "summer"])
@pytest.mark.parametrize("players", [1, 4])
def test_the_deal_reads_no_card(plugins: PluginHost, players: int,
                                variants: tuple[str, ...]) -> None:
    ruleset = plugins.ruleset("flowers", list(variants), players=players)
    seed = seed_from_int(5)
    peers = [SealedTable(ruleset, players, seed, seats=[s]) for s in range(players)]
    dealer = OpenDealer(seed)
    waiting = peers[0].waiting
    assert isinstance(waiting, Waiting) and len(waiting.shuffles) == 1 and not waiting.reveals
    chance = peers[0].pending_chance()
    assert chance is not None
    decks = dealer.deal(chance, waiting.shuffles)
    for peer in peers:
        for (entry, draw), deck in decks.items():
            peer.shuffled(entry, draw, deck)
        assert peer.settle()
        assert peer.waiting is None  # no public reveal round: the deal read no card
    assert len({peer.state_hash() for peer in peers}) == 1
    state = peers[0].state
    assert all(type(card) is Sealed for stack in state.stacks for card in stack)
    assert all(type(card) is Sealed for card in state.box)
    drawn = [g[START][0] for g in state.gardens if type(g[START][0]) is Sealed]
    assert len(drawn) == (0 if variants else players)
    tops = [stack[-1] for stack in state.stacks[:-1]]
    for peer in peers:
        (owed,) = peer.take_obligations()
        # shown to every seat: the start cards drawn from the deck and the face-up tops;
        # to no seat alone: nothing
        assert sorted(owed.public) == sorted(drawn + tops)
        assert owed.private == ()


def _act(run: SealedRun, seat: int, action: Action, step: str) -> list[str]:
    """``seat`` takes ``action`` on every sealed peer (prepared by its own) and open; how
    each describes the entry it logged (every sealed peer, then the open table)."""
    made = run.peers[seat].prepare(seat, action)
    assert not isinstance(made, Refusal), made
    words = []
    for peer in run.everyone:
        applied = peer.submit(seat, made.action, reveals=made.attached)
        assert isinstance(applied, tuple), applied
        words.append(peer.describe_entry(applied[0].entry, applied[0].before))
    opened = run.open.submit(seat, action)
    assert isinstance(opened, tuple)
    words.append(run.open.describe_entry(opened[0].entry, opened[0].before))
    run.pump(step)
    run.compare(step)
    return words


def _holding(players: int, plugins: PluginHost) -> tuple[SealedRun, int, Sealed]:
    """A sealed table whose active seat has just taken the face-down card (its token)."""
    run = SealedRun(plugins.ruleset("flowers", [], players=players), players, 11)
    seat = run.open.state.active
    down = len(run.open.state.stacks) - 1
    _act(run, seat, Action("take", (("stack", down),)), "take")
    token = run.peers[0].state.holding
    assert type(token) is Sealed
    return run, seat, token


def test_a_card_taken_face_down_is_seen_by_its_holder_alone_until_it_is_planted(
        plugins: PluginHost) -> None:
    run, seat, token = _holding(3, plugins)
    face = run.dealer.face(token.key)
    for other, peer in enumerate(run.peers):
        view = peer.view(other)
        assert view.phase == PLANT and view.source == len(view.sizes) - 1
        assert view.holding == (face if other == seat else NOBODY)
        assert (token.key in peer.mine) == (other == seat)
        assert token.key not in peer.public
    planting = run.peers[seat].legal_actions(seat)[0]
    made = run.peers[seat].prepare(seat, planting)
    assert not isinstance(made, Refusal)
    assert made.action == planting and made.attached == {token.key: face}  # shown as planted
    words = _act(run, seat, planting, "plant")
    assert words == [words[-1]] * len(words)  # every peer names the card planted
    assert card_text(face) in words[-1]
    (x, y) = (planting["x"], planting["y"])
    for peer in run.everyone:
        assert token.key in peer.public
        assert peer.view(0).gardens[seat] == run.open.view(0).gardens[seat]
        assert any(cx == x and cy == y and stack[-1] == face
                   for cx, cy, stack in peer.view(0).gardens[seat])


def test_a_refused_action_shows_no_card(plugins: PluginHost) -> None:
    run, seat, token = _holding(3, plugins)
    face = card_text(run.dealer.face(token.key))
    down = len(run.open.state.stacks) - 1
    again = Action("take", (("stack", down),))
    elsewhere = Action("plant", (("stack", 0), ("x", 0), ("y", 1)))
    for action, code, words in ((again, "flowers.plant_first", "plant the {} you took"),
                                (elsewhere, "flowers.wrong_stack", "you hold the {} taken")):
        opened = run.open.check(seat, action)
        assert isinstance(opened, Refusal) and opened.code == code
        assert words.format(face) in opened.message  # the open game names it, as it did
        for peer in run.everyone:
            before = peer.state_hash()
            refused = peer.submit(seat, action)
            # refused at once, with no reveal round: a refusal never shows the card
            assert isinstance(refused, Refusal) and refused.code == code, refused
            assert words.format("card") in refused.message
            assert peer.state_hash() == before and token.key not in peer.public
        assert isinstance(run.peers[seat].prepare(seat, action), Refusal)
