"""``sample`` (a whole state dealt from one seat's view) and ``score`` (a seat's points if the
game were scored now): the two functions search bots build on.

Along seeded random games of every player count, with and without Summer, at every decision
(a turn's start, the planting after a face-down take, the turn that empties a stack, the end)
and for every seat: the sampled state shows the seat exactly its view, holds every card once,
deals the hidden cards afresh for each rng, and plays on to an outcome.  ``score`` agrees with
the final scoring at the end, with the worked examples of the rules and with the score the
seat client shows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from math import perm

import pytest

from hedgerow.core import Rng, SetupContext
from hedgerow.core.chance import draw_all
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.plugins.flowers.bots.score import SCORED_GARDENS
from hedgerow.plugins.flowers.choices import take_action
from hedgerow.plugins.flowers.scoring import score_garden
from hedgerow.plugins.flowers.state import DEAL, OVER, PLANT, TAKE, State
from hedgerow.plugins.flowers.ui import flowers_ui

from .conftest import SUMMER, cards, grid, make_state
from .test_scoring import EXAMPLES

VARIANTS = [(), ("summer",)]
GAMES = {1: 3, 2: 3, 3: 2, 4: 2}


def _places(state: State) -> list[int]:
    """Every card of ``state``, wherever it lies (gardens, stacks, box, discards, hand)."""
    out = [c for g in state.gardens for s in g.values() for c in s]
    out += [c for s in state.stacks for c in s] + list(state.box) + list(state.discards)
    return out + ([state.holding] if state.holding != -1 else [])


def _hidden(state: State, seat: int) -> tuple[object, ...]:
    """What ``seat`` cannot see of ``state``: the stacks under their tops, the box, and a card
    another seat holds."""
    down = len(state.stacks) - 1
    held = state.holding if seat != state.active else -1
    return (tuple(s if i == down else s[:-1] for i, s in enumerate(state.stacks)),
            state.box, held)


def _play_out(ruleset: Ruleset, state: State, rng: Rng) -> object:
    game = ruleset.gamedef
    while (seats := game.active_seats(state)):
        legal = game.legal_actions(state, seats[0])
        after = game.apply(state, seats[0], legal[rng.randbelow(len(legal))])
        assert isinstance(after, State), after
        state = after
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome


def _games(ruleset: Ruleset, players: int, games: int):
    """Every state of ``games`` seeded games from the deal on (a third of turns take the
    face-down card, so plantings after a take are common), the final one included."""
    game = ruleset.gamedef
    for seed in range(games):
        rng = Rng(seed_from_int(seed), "sample-test")
        state = game.setup(SetupContext(players))
        chance = game.pending_chance(state)
        assert chance is not None and game.resolve is not None
        state = game.resolve(state, draw_all(rng.fork("deal"), chance))
        while True:
            yield state
            seats = game.active_seats(state)
            if not seats:
                break
            legal = game.legal_actions(state, seats[0])
            if legal[-1].kind == "take" and rng.randbelow(3) == 0:
                action = legal[-1]
            else:
                action = legal[rng.randbelow(len(legal))]
            after = game.apply(state, seats[0], action)
            assert isinstance(after, State), after
            state = after


@pytest.mark.parametrize("variants", VARIANTS, ids=["standard", "summer"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_sample_shows_the_seat_its_view_and_plays_on(plugins: PluginHost, players: int,
                                                       variants: tuple[str, ...]) -> None:
    ruleset = plugins.ruleset("flowers", variants, players=players)
    game = ruleset.gamedef
    bots = ruleset.bots
    assert bots.sample is not None and bots.score is not None
    everything = sorted(_places(next(_games(ruleset, players, 1))))
    seen = Counter[str]()
    for step, state in enumerate(_games(ruleset, players, GAMES[players])):
        for seat in range(players):
            view = game.view(state, seat)
            rng = Rng(b"sample", f"{step}/{seat}")
            dealt = bots.sample(view, seat, rng.fork("a"))
            assert game.view(dealt, seat) == view
            assert sorted(_places(dealt)) == everything  # every card once, none made up
            assert dealt.box == tuple(sorted(dealt.box)) and dealt.targets == state.targets
            assert list(game.legal_actions(dealt, seat)) == list(game.legal_actions(state, seat))
            again = bots.sample(view, seat, rng.fork("b"))
            assert game.view(again, seat) == view
            stacks, box, held = _hidden(state, seat)
            placed = sum(map(len, stacks)) + (held != -1)  # the cards dealt in order
            if perm(placed + len(box), placed) > 10**9:
                assert _hidden(again, seat) != _hidden(dealt, seat)  # really re-dealt
            if seat == step % players and (step % 5 == 0 or state.phase != TAKE):
                _play_out(ruleset, dealt, rng.fork("play"))  # one seat's sample, often
            seen[state.phase] += 1
            if state.phase == PLANT and seat != state.active:
                seen["held by another"] += 1
            if state.phase == PLANT and not state.stacks[state.source]:
                seen["emptied by a take"] += 1
    assert seen[TAKE] and seen[PLANT] and seen[OVER] == players * GAMES[players]
    assert players == 1 or (seen["held by another"] and seen["emptied by a take"])


def test_a_card_another_seat_holds_is_dealt_from_the_unseen_cards(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("flowers", players=3)
    game = ruleset.gamedef
    bots = ruleset.bots
    assert bots.sample is not None
    state = next(s for s in _games(ruleset, 3, 1) if s.phase == TAKE and len(s.gardens[0]) > 3)
    taker = state.active
    state = game.apply(state, taker, take_action(2))
    assert isinstance(state, State)
    mine = game.view(state, taker)
    assert {bots.sample(mine, taker, Rng(b"h", str(i))).holding for i in range(8)} == {
        state.holding}
    other = (taker + 1) % 3
    view = game.view(state, other)
    shown = {c for g in view.gardens for _, _, s in g for c in s} | set(view.tops)
    held = [bots.sample(view, other, Rng(b"h", str(i))).holding for i in range(40)]
    assert len(set(held)) > 20 and not set(held) & shown


def test_a_sample_reads_the_view_only(plugins: PluginHost) -> None:
    """Two states that one seat cannot tell apart give that seat the same samples: nothing of
    the real hidden cards reaches a sample."""
    for players, variants in ((2, ()), (4, ("summer",))):
        ruleset = plugins.ruleset("flowers", variants, players=players)
        game = ruleset.gamedef
        bots = ruleset.bots
        assert bots is not None
        for i, state in enumerate(_games(ruleset, players, 1)):
            if i % 5:
                continue
            for seat in range(players):
                twin = bots.sample(game.view(state, seat), seat, Rng(b"twin", str(i)))
                assert game.view(twin, seat) == game.view(state, seat)
                a = bots.sample(game.view(state, seat), seat, Rng(b"same"))
                b = bots.sample(game.view(twin, seat), seat, Rng(b"same"))
                assert a == b


def test_the_same_rng_gives_the_same_sample(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("flowers", players=2)
    game = ruleset.gamedef
    bots = ruleset.bots
    assert bots.sample is not None
    state = next(s for i, s in enumerate(_games(ruleset, 2, 1)) if i == 6)
    view = game.view(state, 1)
    assert bots.sample(view, 1, Rng(b"r", "x")) == bots.sample(view, 1, Rng(b"r", "x"))
    rng = Rng(b"r", "y")
    first, second = bots.sample(view, 1, rng), bots.sample(view, 1, rng)
    assert first != second
    views = [game.view(state, seat) for seat in (0, 1)] * 2  # two bots thinking by turns
    for i, each in enumerate(views * 3):
        dealt = bots.sample(each, each.seat, Rng(b"r", str(i % 4)))
        assert game.view(dealt, each.seat) == each
        assert dealt == bots.sample(replace(each), each.seat, Rng(b"r", str(i % 4)))


def test_a_view_before_the_deal_samples_the_table_before_the_deal(plugins: PluginHost) -> None:
    for variants in VARIANTS:
        ruleset = plugins.ruleset("flowers", variants, players=3)
        game = ruleset.gamedef
        bots = ruleset.bots
        assert bots.sample is not None
        state = game.setup(SetupContext(3))
        assert state.phase == DEAL
        dealt = bots.sample(game.view(state, 2), 2, Rng(b"d"))
        assert dealt == state and game.pending_chance(dealt) is not None


def test_a_view_no_state_could_show_is_refused(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("flowers", players=2)
    game = ruleset.gamedef
    bots = ruleset.bots
    assert bots.sample is not None
    state = next(s for i, s in enumerate(_games(ruleset, 2, 1)) if i == 8)
    view = game.view(state, 0)
    bots.sample(view, 0, Rng(b"ok"))
    with pytest.raises(ValueError, match="seat 0's view, asked as seat 1's"):
        bots.sample(view, 1, Rng(b"bad"))  # the view just sampled, asked for another seat
    mine, theirs = view.gardens
    moved = tuple((x + 300, y, s) for x, y, s in theirs)  # the same cards, far away
    cases = {
        "stacks hide": replace(view, box_count=view.box_count + 1),
        "lists one cell twice": replace(view, gardens=(mine + mine[:1], theirs)),
        "shown twice": replace(view, gardens=(mine, theirs + moved)),
        "cards are unseen": replace(view, sizes=(*view.sizes[:-1], view.sizes[-1] + 1)),
        "stack 0 of": replace(view, tops=(-1, *view.tops[1:])),
        "unknown phase": replace(view, phase="dance"),
        "holds": replace(view, holding=200, phase=TAKE),
        "asked as seat": replace(view, seat=1),
    }
    for why, bad in cases.items():
        with pytest.raises(ValueError, match=why):
            bots.sample(bad, 0, Rng(b"bad"))
    with pytest.raises(ValueError, match="View"):
        bots.sample(state, 0, Rng(b"bad"))  # type: ignore[arg-type]
    assert game.view(bots.sample(view, 0, Rng(b"ok")), 0) == view  # nothing was changed


# -- score --------------------------------------------------------------------------------


@pytest.mark.parametrize("variants", VARIANTS, ids=["standard", "summer"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_score_is_the_final_score_at_the_end(plugins: PluginHost, players: int,
                                             variants: tuple[str, ...]) -> None:
    ruleset = plugins.ruleset("flowers", variants, players=players)
    game = ruleset.gamedef
    bots = ruleset.bots
    assert bots.score is not None
    ui = flowers_ui(ruleset)
    for state in _games(ruleset, players, 6):
        if state.phase == OVER:
            outcome = game.outcome(state)
            assert outcome is not None
            assert tuple(bots.score(state, s) for s in range(players)) == outcome.scores
        elif len(state.gardens[0]) % 4 == 0:  # mid-game: what the client shows as "now"
            view = game.view(state, 0)
            assert [bots.score(state, s) for s in range(players)] == [
                ui.score(view, s).total for s in range(players)]


@pytest.mark.parametrize(("number", "rows", "total"), [(e[0], e[1], e[5]) for e in EXAMPLES],
                         ids=[f"example-{e[0]}" for e in EXAMPLES])
def test_score_of_the_worked_examples_mid_game(standard: Ruleset, number: int,
                                               rows: list[str], total: int) -> None:
    bots = standard.bots
    assert bots.score is not None
    other = grid("R1")
    state = make_state((other, grid(*rows)), (cards("B3", "Y2"), cards("G3"), cards("R4")),
                       active=0)
    assert bots.score(state, 1) == total
    assert bots.score(state, 0) == 0  # a lone R1: valid, in no colour group of 5


def test_score_under_summer_counts_only_groups_touching_the_purple_card(summer: Ruleset,
                                                                        standard: Ruleset) -> None:
    touching = grid("P G1 G4 G4", ". . G4 G4")
    apart = grid("P Y2 G1 G4 G4", ". Y2 . G4 G4")
    stacks = (cards("B3"), cards("G3"), cards("R4"))
    state = make_state((touching, apart), stacks, coverable=SUMMER)
    assert summer.bots.score is not None and standard.bots.score is not None
    assert (summer.bots.score(state, 0), summer.bots.score(state, 1)) == (5, 0)
    assert standard.bots.score(state, 1) == 5  # the same greens score without Summer


def test_score_stays_right_past_the_gardens_it_remembers(standard: Ruleset) -> None:
    """``score`` remembers recent gardens by identity; through many more than it keeps, and
    with each garden asked again, every answer is the garden's own score."""
    bots = standard.bots
    assert bots.score is not None
    states = [s for s in _games(standard, 2, 10) for _ in (0, 1)]  # each state twice in a row
    assert len({id(g) for s in states for g in s.gardens}) > 2 * SCORED_GARDENS
    for state in states:
        for seat in range(2):
            assert bots.score(state, seat) == score_garden(state.gardens[seat]).total
