"""Flourish plays the same sealed as open (issue 29), and a sealed table keeps its secrets.

`check_sealed` plays seeded random games open and sealed side by side (one sealed table per
seat, dealt by the open dealer) and checks every view, every list of legal actions and the
outcome against the open game, and that the rules read only cards every seat is shown.  It
runs here for every variant and allowed combination, at several player counts, solo
included (one seat: trivially sealed, but the same rules run).

Beyond that check, a watched game follows what each peer is shown, step by step: a card
passed between two seats is shown to its receiver and to no third seat; a card composted
and a card discarded face down in the final round are shown to nobody; a card the compost
pile brought back into the deck under a new token is recognised by its old holder only by
its face (the public memory keeps the old token).  A forged action naming another seat's
card is refused without a reveal.  And the open game is the one it was before the sealed
work: seeded games end on the same state hashes.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from hedgerow.clients.cli import main
from hedgerow.core import Action, Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealed import Known, Sealed, tokens_in
from hedgerow.core.sealedcheck import SealedRun, check_sealed
from hedgerow.core.sealedtable import Waiting
from hedgerow.plugins.flourish.knowledge import COMPOST
from hedgerow.plugins.flourish.state import OVER
from hedgerow.plugins.flourish.view import view

HOST = PluginHost(autoload=False)

#: (variants, players, seeds): every variant and allowed combination, the player counts
#: spread so that the whole file runs in under 20 s (the watched games below are sealed
#: checks too: compost at 4 and 7 players).
CASES = [
    ((), 1, range(3)),
    ((), 2, range(2)),
    ((), 3, range(2)),
    ((), 5, range(1)),
    ((), 7, range(1)),
    (("solo",), 1, range(3, 5)),
    (("solo", "compost"), 1, range(2)),
    (("compost",), 2, range(2)),
    (("cooperative",), 2, range(1)),
    (("cooperative",), 4, range(1)),
    (("garden-show",), 3, range(1)),
    (("compost", "cooperative"), 3, range(1)),
    (("compost", "garden-show"), 2, range(1)),
]


@pytest.mark.parametrize(("variants", "players", "seeds"), CASES,
                         ids=[f"{'+'.join(v) or 'standard'}-{p}p" for v, p, _ in CASES])
def test_flourish_plays_the_same_sealed_as_open(variants: tuple[str, ...], players: int,
                                                seeds: range) -> None:
    report = check_sealed(HOST.ruleset("flourish", variants, players=players), players, seeds)
    assert report.games == len(seeds) and report.reveals > 0


# -- a watched game: who is shown what ---------------------------------------------------------


def _keys(cards: Any) -> set[tuple[int, int, int]]:
    return {t.key for t in tokens_in(cards)}


class WatchedRun(SealedRun):
    """A sealed check that also looks, at every resting point, at what each peer has been
    shown during the step that led there (its own seat's cards: ``SealedTable.mine``)."""

    def __init__(self, variants: tuple[str, ...], players: int, seed: int) -> None:
        super().__init__(HOST.ruleset("flourish", variants, players=players), players, seed)
        self.known_before = [set(p.mine) for p in self.peers]
        self.compost_before: set[tuple[int, int, int]] = set()
        self.passes = self.composts = self.discards = self.recognised = 0

    def learned(self, seat: int) -> set[tuple[int, int, int]]:
        """The cards ``seat``'s peer was shown in the last step."""
        return set(self.peers[seat].mine) - self.known_before[seat]

    def compare(self, step: str) -> None:
        super().compare(step)
        state = self.peers[0].state
        players = self.players
        for giver in range(players):
            for card, zone in state.last[giver].passed:
                if type(card) is not Sealed or zone >= players:
                    continue
                for seat in range(players):
                    if seat == zone:
                        assert card.key in self.peers[seat].mine, step
                    elif seat != giver:
                        assert card.key not in self.learned(seat), (step, giver, zone, seat)
                        self.passes += 1
        composted = _keys(state.compost) - self.compost_before
        for seat in range(players):
            assert not composted & self.learned(seat), step
        self.composts += len(composted) * (players - 1)
        if state.turn == OVER:
            discarded = _keys(state.discard)
            for seat in range(players):
                assert not discarded & self.learned(seat), step
            self.discards += len(discarded)
        for seat in range(players):
            self._recognise(seat, step)
        self.known_before = [set(p.mine) for p in self.peers]
        self.compost_before = _keys(state.compost)

    def _recognise(self, seat: int, step: str) -> None:
        """A card the public memory keeps under an old token (a compost card reshuffled into
        the deck) that the seat holds again under its new one: its view drops it."""
        peer = self.peers[seat]
        public = peer.state
        elsewhere = _keys(public._replace(memory=()))
        info = peer.info_state()
        hand = set(info.hands[seat])
        seen = view(info, seat)
        for card, _ in info.memory[seat]:
            if type(card) is Known and card.token.key not in elsewhere and card in hand:
                assert all(c != card for c, _ in seen.known + seen.unsure), step
                self.recognised += 1


def test_a_card_passed_composted_or_discarded_is_shown_to_nobody_else() -> None:
    run = WatchedRun(("compost",), 4, 1)
    run.play(5000)
    # (a discarded card every seat has held is public: it is no secret from anyone)
    assert run.passes > 100 and run.composts > 10 and run.discards > 0


def test_a_reshuffled_card_is_recognised_by_its_old_holder_by_its_face() -> None:
    run = WatchedRun(("compost",), 7, 0)
    run.play(5000)
    assert run.recognised > 0


def test_the_composter_alone_knows_where_its_card_went() -> None:
    run = SealedRun(HOST.ruleset("flourish", ("compost",), players=3), 3, 2)
    # the first step: every seat plays, passes and composts a card
    choices = {seat: next(a for a in run.peers[seat].legal_actions(seat)
                          if a.get("compost") is not None) for seat in range(3)}
    prepared = {}
    for seat, action in choices.items():
        made = run.peers[seat].prepare(seat, action)
        assert not isinstance(made, Refusal)
        assert type(made.action["compost"]) is Sealed and len(made.attached) == 1  # the play
        prepared[seat] = made
    reveals = {k: f for made in prepared.values() for k, f in made.attached.items()}
    for table in run.everyone:
        result = table.submit_step({s: m.action for s, m in prepared.items()}, reveals=reveals)
        assert isinstance(result, tuple)
    run.pump("the compost step")
    for seat, action in choices.items():
        card, token = action["compost"], prepared[seat].action["compost"]
        assert type(card) is Known and type(token) is Sealed
        assert (int(card), COMPOST) in run.peers[seat].view(seat).known
        assert all(token.key not in run.peers[other].mine for other in range(3) if other != seat)
    assert run.peers[0].view(0).compost_count == 3


def test_every_peer_tells_a_step_as_the_open_table_does() -> None:
    run = SealedRun(HOST.ruleset("flourish", ("compost",), players=3), 3, 4)
    choices = {seat: list(run.open.legal_actions(seat))[3 + 40 * seat] for seat in range(3)}
    prepared = {}
    for seat, choice in choices.items():
        mine = list(run.peers[seat].legal_actions(seat))
        made = run.peers[seat].prepare(seat, mine[mine.index(choice)])
        assert not isinstance(made, Refusal)
        prepared[seat] = made
    reveals = {k: f for made in prepared.values() for k, f in made.attached.items()}
    told = []
    for table in run.everyone:
        applied = table.submit_step({s: m.action for s, m in prepared.items()}, reveals=reveals)
        assert isinstance(applied, tuple)
        told.append([table.describe_entry(a.entry, a.before) for a in applied[:3]])
    opened = run.open.submit_step(choices)
    assert isinstance(opened, tuple)
    words = [run.open.describe_entry(a.entry, a.before) for a in opened[:3]]
    assert told == [words] * len(told)
    assert "plays" in words[0] and "composts a card" in " ".join(words)


# -- forged actions -------------------------------------------------------------------------------


def test_an_action_naming_another_seats_card_is_refused_without_a_reveal() -> None:
    run = SealedRun(HOST.ruleset("flourish", (), players=3), 3, 5)
    peer = run.peers[1]
    hands = peer.state.hands
    before = peer.state_hash()
    stolen = hands[1][0]
    assert type(stolen) is Sealed
    forged = Action.of("turn", play=stolen, left=hands[0][1], right=hands[0][2])
    for table in run.everyone:
        assert isinstance(table.submit_step(
            {0: forged, 1: Action.of("turn", play=hands[1][1], left=hands[1][2],
                                     right=hands[1][3]),
             2: Action.of("turn", play=hands[2][1], left=hands[2][2], right=hands[2][3])}),
            Refusal)
    checked = peer.check(0, forged)
    assert isinstance(checked, Refusal) and not isinstance(checked, Waiting)
    face = run.peers[0].view(0).hand[0]  # a face, not the token: no card of the public state
    assert isinstance(peer.check(0, Action.of("turn", play=face, left=hands[0][1],
                                              right=hands[0][2])), Refusal)
    assert peer.state_hash() == before and not peer.take_obligations()
    assert stolen.key not in run.peers[0].mine and stolen.key not in peer.public


# -- the open game is unchanged ------------------------------------------------------------------

#: Final state hashes of seeded `hedgerow simulate flourish` games, recorded before the
#: sealed work (and unchanged by it).
OPEN_GAMES = [
    (["--players", "3", "--seed", "3"],
     "91391de488e37aa3727cd2026cba2ac3c99af6b27edc4cdeeef5a7914ff9f813"),
    (["--players", "1", "--seed", "11", "--variant", "solo"],
     "d44b1cb66ee869f7e2ff0dd074091af0bb8b90e61109555e9d63c431463b539d"),
    (["--players", "2", "--seed", "9", "--variant", "compost"],
     "375b5aa07de696aee6036996f0f1e4ae021d742a4fc1e63aab094bc5746cfe3f"),
    (["--players", "6", "--seed", "7", "--variant", "garden-show"],
     "a0529bf13054ff93ace06e2f8fb1eaa9ca2c3a04281bf3b0169eb949a41d5748"),
    (["--players", "2", "--seed", "2", "--bots", "greedy,random"],
     "51bd4c8817a80d152a6ca7b0f6e00673e5616ff4f79f16b5e51bf6901eb8d6b1"),
]


@pytest.mark.parametrize(("args", "head"), OPEN_GAMES,
                         ids=[" ".join(a) for a, _ in OPEN_GAMES])
def test_the_open_game_ends_where_it_did(capsys: pytest.CaptureFixture[str], args: list[str],
                                         head: str) -> None:
    assert main(["simulate", "flourish", *args, "--games", "1", "--json"]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["state_hash"] == head
