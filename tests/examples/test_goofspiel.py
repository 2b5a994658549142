"""The example game of docs/plugins.md (docs/examples/goofspiel.py) plays and conforms.

It is the contract's smallest complete user: chance after setup (each prize), a
simultaneous step (every bid at once), and a non-ranking result (solo against the house).
"""

from __future__ import annotations

import re
from pathlib import Path

import goofspiel
import pytest

from hedgerow.core import Action, Refusal, Solo
from hedgerow.core.chance import CHANCE_SEAT, outcome_of
from hedgerow.core.conformance import check_game
from hedgerow.core.playout import play
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _bid(card: int) -> Action:
    return Action.of("bid", card=card)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_conforms_for_every_player_count(goofspiel_host, players: int) -> None:
    report = check_game(goofspiel_host.ruleset("goofspiel", players=players),
                        players=players, seeds=range(25))
    assert report.games == 25 and report.chances == 25 * goofspiel.CARDS
    assert report.simultaneous_steps == (0 if players == 1 else 25 * goofspiel.CARDS)
    assert report.kinds == (("solo",) if players == 1 else ("ranked",))


def test_each_prize_is_chance_logged_before_the_bids(goofspiel_host) -> None:
    ruleset = goofspiel_host.ruleset("goofspiel", players=2)
    t = Table(ruleset, 2, seed_from_int(3))
    (first,) = t.entries
    assert first.seat == CHANCE_SEAT and t.state.prize in range(1, 9)
    assert t.active_seats() == (0, 1)
    prize = t.state.prize
    result = t.submit_step({0: _bid(8), 1: _bid(3)})
    assert isinstance(result, tuple)
    assert [a.entry.seat for a in result] == [0, 1, CHANCE_SEAT]  # the bids, then a new prize
    assert t.state.scores == (prize, 0) and t.state.last == (8, 3)
    (index,) = outcome_of(result[2].entry.action)
    assert t.state.prize == result[2].before.prizes[index]


def test_a_tie_for_the_highest_bid_takes_nothing(goofspiel_host) -> None:
    t = Table(goofspiel_host.ruleset("goofspiel", players=3), 3, seed_from_int(1))
    t.submit_step({0: _bid(5), 1: _bid(5), 2: _bid(2)})
    assert t.state.scores == (0, 0, 0)
    assert t.view(2).unplayed[0] == (1, 2, 3, 4, 6, 7, 8)


def test_bids_are_refused_outside_the_rules(goofspiel_host) -> None:
    t = Table(goofspiel_host.ruleset("goofspiel", players=2), 2, seed_from_int(1))
    t.submit_step({0: _bid(5), 1: _bid(4)})
    for bad, code in ((_bid(5), "goofspiel.not_in_hand"), (Action.of("fold"), "goofspiel.unknown")):
        result = t.submit_step({0: bad, 1: _bid(1)})
        assert isinstance(result, Refusal) and result.code == code


def test_solo_is_graded_against_the_house(goofspiel_host) -> None:
    ruleset = goofspiel_host.ruleset("goofspiel", players=1)
    t = Table(ruleset, 1, seed_from_int(2))
    while t.active_seats():  # always outbid the house by one where you can
        prize = t.state.prize
        hand = t.state.hands[0]
        above = [c for c in hand if c > prize]
        t.submit(0, _bid(min(above) if above else min(hand)))
    result = t.outcome()
    assert isinstance(result, Solo) and result.opponent == t.state.house
    assert result.score == t.state.scores[0] - t.state.house
    assert result.won == (result.score > 0)
    expected = [label for label, at in goofspiel.GRADES if result.score >= at]
    assert result.grade == (expected[-1] if expected else "")


def test_bots_play_it_to_the_end(goofspiel_host) -> None:
    ruleset = goofspiel_host.ruleset("goofspiel", players=4)
    bot = goofspiel_host.bot("random")
    table = play(ruleset, 4, seed_from_int(9), [bot])
    again = play(ruleset, 4, seed_from_int(9), [bot])
    assert table.outcome() is not None and table.head == again.head


def _walkthrough() -> list[str]:
    text = (DOCS / "plugins.md").read_text()
    section = text.split("## Write a new game", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def test_the_walkthrough_quotes_the_example_as_it_is() -> None:
    source = (DOCS / "examples" / "goofspiel.py").read_text()
    quoted = [block for block in _walkthrough() if not block.startswith("# test_")]
    assert len(quoted) >= 7
    for block in quoted:
        for piece in block.split("\n...\n"):
            assert piece.strip() in source, piece


def test_the_walkthrough_test_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    (block,) = [b for b in _walkthrough() if b.startswith("# test_goofspiel.py")]
    monkeypatch.setenv("HEDGEROW_PLUGINS", "goofspiel")
    namespace: dict[str, object] = {}
    exec(compile(block, "docs/plugins.md", "exec"), namespace)
    test = namespace["test_goofspiel_conforms"]
    for players in (1, 3):
        test(players)  # type: ignore[operator]


def test_the_example_offers_bot_support_and_greedy_uses_it(goofspiel_host) -> None:
    """With its bot support, greedy beats random over 100 two-player games (60.5 of these
    100; 65.5% of a tournament's 200 against random's 40.5%: docs/plugins.md), where
    without it greedy plays random's own moves; the kit checked the support above."""
    ruleset = goofspiel_host.ruleset("goofspiel", players=2)
    assert ruleset.bots is not None and ruleset.bots.evaluate is not None
    greedy, rand = goofspiel_host.bot("greedy"), goofspiel_host.bot("random")
    wins = 0.0
    for n in range(100):
        seats = [greedy, rand] if n % 2 == 0 else [rand, greedy]
        outcome = play(ruleset, 2, seed_from_int(n), seats).outcome()
        assert outcome is not None
        mine = n % 2
        if mine in outcome.winners:
            wins += 1 / len(outcome.winners)
    assert wins >= 55  # random against random wins half
