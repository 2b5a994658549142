"""``evaluate`` (`outlook`): the score plus what the open mandalas promise, for bots.

* where nothing is left to come (the game is over) it is the score exactly;
* on half-built positions from the spec's worked example (§13.2) and hand-made ones, it
  orders positions the way a player would, where the plain score sees no difference;
* its terms are exactly the documented ones (tiles weighed by colours missing, the rival's
  share against, cards in hand), also under a variant that changes scoring;
* deterministic (a fresh rules object with nothing remembered gives the same numbers) and
  finite, never raising, on every state of random games and on states sampled from every
  seat's view, for every variant and player count.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import pytest

from hedgerow.core import Ranked, Rng, SetupContext
from hedgerow.core.botsupport import BotSupport
from hedgerow.core.chance import draw_all
from hedgerow.core.game import GameDef
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.mandala import bots as mandala_bots
from hedgerow.plugins.mandala import game as mandala_game
from hedgerow.plugins.mandala.bots.outlook import STANDARD, Outlook
from hedgerow.plugins.mandala.cards import colour_named
from hedgerow.plugins.mandala.ranking import standard_outcome
from hedgerow.plugins.mandala.state import CHOOSE, OVER, PLAY, State, View

from .conftest import applied, hand, make_state, play, take, tiles
from .test_sample import _DoubledScores

VARIANTS = ((), ("draw-four",))
PLAYERS = (2, 3, 4)
W = STANDARD


def _walk(game: GameDef[State, View], players: int, seed: bytes) -> Iterator[State]:
    """Every state of one random game, chance nodes resolved from ``seed``."""
    state = game.setup(SetupContext(players))
    pick = Rng(seed, "picks")
    for index in itertools.count():
        yield state
        pending = game.pending_chance(state)
        if pending is not None:
            state = game.resolve(state, draw_all(Rng(seed, f"chance/{index}"), pending))
            continue
        seats = game.active_seats(state)
        if not seats:
            return
        legal = game.legal_actions(state, seats[0])
        result = game.apply(state, seats[0], legal[pick.randbelow(len(legal))])
        assert isinstance(result, State)
        state = result


@pytest.fixture(scope="module")
def games(plugins: PluginHost) -> list[tuple[Ruleset, list[State]]]:
    """One random game per variant and player count: ``(rules, states)``."""
    out = []
    for variants, players in itertools.product(VARIANTS, PLAYERS):
        ruleset = plugins.ruleset("mandala", list(variants), players=players)
        seed = f"outlook/{'+'.join(variants)}/{players}".encode()
        out.append((ruleset, list(_walk(ruleset.gamedef, players, seed))))
    return out


def _judge(ruleset: Ruleset) -> tuple[Outlook, GameDef[State, View], BotSupport[State, View]]:
    game = ruleset.gamedef
    bots = ruleset.bots
    assert isinstance(bots.evaluate, Outlook) and bots.score is not None
    return bots.evaluate, game, bots


def _cards(state: State, seat: int) -> float:
    return W.card * sum(state.hands[seat])


# -- nothing left to come --------------------------------------------------------------------

def test_at_the_end_evaluate_is_the_score(games: list[tuple[Ruleset, list[State]]]) -> None:
    for ruleset, states in games:
        judge, game, _ = _judge(ruleset)
        final = states[-1]
        assert final.phase == OVER
        outcome = game.outcome(final)
        assert outcome is not None
        for seat in range(final.players):
            assert judge(final, seat) == outcome.scores[seat]


def test_with_every_mandala_unclaimed_only_the_cards_in_hand_are_added(
        standard: Ruleset) -> None:
    judge, _, bots = _judge(standard)
    state = make_state(players=2, held={0: tiles("gray-1", "gray-3"), 1: tiles("red-2")},
                       hands={0: hand(red=3, gray=1), 1: hand(green=2)})
    assert bots.score is not None
    for seat in (0, 1):
        assert judge(state, seat) == pytest.approx(bots.score(state, seat)
                                                   + _cards(state, seat))


# -- half-built positions ------------------------------------------------------------------

def _contest(standard: Ruleset) -> State:
    """Two players.  M0 shows red-3 (dark) and yellow-1 (light); seat 1 laid 2 gray face up
    there and holds its claim (3 colours missing).  Seat 0 to play, holding 3 green, 1
    purple, 2 orange."""
    s = make_state(players=2, mandalas=[tiles("red-3", "yellow-1")],
                   hands={0: hand(green=3, purple=1, orange=2), 1: hand(gray=2, purple=3)},
                   deck=(colour_named("orange"),) * 20, turn=1)
    return applied(standard, s, 1, play(0, "gray", 2))


def test_taking_the_claim_beats_coming_second_and_playing_elsewhere(standard: Ruleset) -> None:
    """Score sees no difference between seat 0's three plays (nobody holds a tile); a player
    sees one: 3 green on M0 take its claim (seat 0 would keep red-3 and leave yellow-1),
    1 green there only makes seat 0 the runner-up (it would get yellow-1, seat 1 red-3),
    1 purple on M1 leaves M0 whole to seat 1 (both tiles)."""
    judge, _, bots = _judge(standard)
    s = _contest(standard)
    assert s.mandalas[0].claim == 1
    claim = applied(standard, s, 0, play(0, "green", 3))
    runner_up = applied(standard, s, 0, play(0, "green", 1))
    elsewhere = applied(standard, s, 0, play(1, "purple", 1))
    assert claim.mandalas[0].claim == 0 and runner_up.mandalas[0].claim == 1
    assert bots.score is not None
    assert {bots.score(x, 0) for x in (claim, runner_up, elsewhere)} == {0.0}
    assert judge(claim, 0) > judge(runner_up, 0)
    assert judge(claim, 0) > judge(elsewhere, 0)
    # and seat 1 sees it the other way round
    assert judge(claim, 1) < judge(runner_up, 1) and judge(claim, 1) < judge(elsewhere, 1)


def test_the_terms_are_the_documented_ones(standard: Ruleset) -> None:
    """After 3 green on M0 (2 colours missing): seat 0 holds the claim and would keep red-3
    (3 points), seat 1 would be second and take yellow-1 (1 point)."""
    judge, _, _ = _judge(standard)
    claim = applied(standard, _contest(standard), 0, play(0, "green", 3))
    ahead = W.ahead[2]
    assert judge(claim, 0) == pytest.approx(ahead * 3 - W.rival * ahead * 1 + _cards(claim, 0))
    assert judge(claim, 1) == pytest.approx(ahead * 1 - W.rival * ahead * 3 + _cards(claim, 1))


def test_prospects_are_the_outlook_without_the_others_share(standard: Ruleset) -> None:
    """What a search weighs seat against seat (``BotSupport.prospects``): the same terms
    as `test_the_terms_are_the_documented_ones` without the share the other seat stands to
    take, which that seat's own prospects hold."""
    _, _, bots = _judge(standard)
    assert bots.prospects is not None
    claim = applied(standard, _contest(standard), 0, play(0, "green", 3))
    ahead = W.ahead[2]
    assert bots.prospects(claim, 0) == pytest.approx(ahead * 3 + _cards(claim, 0))
    assert bots.prospects(claim, 1) == pytest.approx(ahead * 1 + _cards(claim, 1))


def test_evaluate_each_is_the_outlook_after_each_play(
        games: list[tuple[Ruleset, list[State]]]) -> None:
    """``evaluate_each`` answers every play that completes no mandala and waits for no
    reshuffle with exactly the outlook of the state after it (the conformance kit checks
    the same on every legal action), and leaves the others (None) to ``apply``."""
    answered = left = 0
    for ruleset, states in games:
        judge, game, bots = _judge(ruleset)
        assert bots.evaluate_each is not None
        for state in states[::3]:
            if state.phase != PLAY:
                continue
            seat = state.turn
            legal = game.legal_actions(state, seat)
            for action, figure in zip(legal, bots.evaluate_each(state, seat, legal),
                                      strict=True):
                if figure is None:
                    left += 1
                    continue
                after = game.apply(state, seat, action)
                assert isinstance(after, State) and after.phase == PLAY
                assert figure == judge(after, seat)
                answered += 1
    assert answered > 5 * left > 0  # most plays complete nothing


def test_closer_to_completion_weighs_more(standard: Ruleset) -> None:
    """The same lead on M0 with fewer colours missing is worth more to its holder."""
    judge, _, _ = _judge(standard)
    claim = applied(standard, _contest(standard), 0, play(0, "green", 3))  # 2 missing
    later = applied(standard, claim, 1, play(1, "purple", 1))  # elsewhere, still 2 missing
    closer = applied(standard, later, 0, play(0, "orange", 1))  # M0: 1 missing
    assert closer.mandalas[0].claim == 0
    gain_far = judge(later, 0) - _cards(later, 0)
    gain_near = judge(closer, 0) - _cards(closer, 0)
    assert gain_near > gain_far > 0


def _example_13_2(standard: Ruleset, steps: int, b_yellow: int = 2) -> State:
    """Spec §13.2 after its first ``steps`` plays (B lays ``b_yellow`` yellow at step 5)."""
    a, b, c = 0, 1, 2
    s = make_state(players=3,
                   hands={a: (2, 0, 3, 0, 0, 0), b: (2, 1, 0, 0, 0, 2),
                          c: (3, 0, 0, 1, 0, 2)},
                   mandalas=[tiles("purple-2", "orange-1")],
                   deck=(colour_named("orange"),) * 20,
                   dark=tiles("red-3"), light=tiles("yellow-3"))
    moves = ((a, play(0, "red", 2)), (b, play(0, "purple", 1)), (c, play(0, "gray", 3)),
             (a, play(0, "red", 1)), (b, play(0, "yellow", b_yellow)),
             (c, play(0, "green", 1)))
    for seat, action in moves[:steps]:
        s = applied(standard, s, seat, action)
    return s


def test_worked_example_the_claim_holder_leads(standard: Ruleset) -> None:
    """§13.2 after step 3: C holds the claim (it would keep purple-2), A would be second
    (orange-1), B is not eligible.  Leaving the cards in hand aside, C's position is the
    best, A's next, B's the worst; by the score all three are level at 0."""
    judge, _, bots = _judge(standard)
    s = _example_13_2(standard, 3)
    assert s.mandalas[0].claim == 2
    on_board = [judge(s, seat) - _cards(s, seat) for seat in range(3)]
    assert on_board[2] > on_board[0] > on_board[1]
    assert bots.score is not None and {bots.score(s, seat) for seat in range(3)} == {0.0}


def test_worked_example_the_tile_choice(standard: Ruleset) -> None:
    """§13.2's variant: B laid one yellow, so A is second and C chooses.  While C chooses,
    nothing is left to chance (weight 1): C counts purple-2 (2) and A's orange-1 against
    it.  Taking purple-2 is judged better for C than taking orange-1, and once taken the
    tiles are in the score and only the cards in hand are added."""
    judge, _, bots = _judge(standard)
    s = _example_13_2(standard, 6, b_yellow=1)
    assert s.phase == CHOOSE and s.mandalas[0].claim == 2 and s.second == 0
    assert judge(s, 2) == pytest.approx(2 - W.rival * 1 + _cards(s, 2))
    assert judge(s, 0) == pytest.approx(1 - W.rival * 2 + _cards(s, 0))
    best = applied(standard, s, 2, take("purple-2"))
    worse = applied(standard, s, 2, take("orange-1"))
    assert best.phase == PLAY
    assert judge(best, 2) > judge(worse, 2)
    assert bots.score is not None
    for seat in range(3):
        assert judge(best, seat) == pytest.approx(bots.score(best, seat) + _cards(best, seat))


def test_a_variant_that_changes_scoring_changes_the_tiles_worth() -> None:
    """Under a winner hook that doubles every score, every tile promises twice as much."""
    rules = mandala_game.build(_PlainScores())  # type: ignore[arg-type]
    plain = mandala_bots.build(_PlainScores())  # type: ignore[arg-type]
    doubled = mandala_bots.build(_DoubledScores())  # type: ignore[arg-type]
    assert plain.evaluate is not None and doubled.evaluate is not None
    s = make_state(players=2, mandalas=[tiles("red-3", "yellow-1")],
                   hands={0: hand(green=3), 1: hand(gray=2, purple=1)}, turn=1,
                   held={0: tiles("red-2")})
    result = rules.apply(s, 1, play(0, "gray", 2))
    assert isinstance(result, State)
    for seat in (0, 1):
        on_plain = plain.evaluate(result, seat) - _cards(result, seat)
        on_doubled = doubled.evaluate(result, seat) - _cards(result, seat)
        assert on_doubled == pytest.approx(2 * on_plain) and on_plain != 0


class _PlainScores(_DoubledScores):
    """The same relay with the standard winner hook."""

    active = ("plain",)

    def mandala_winner(self, tiles: tuple[tuple[int, ...], ...], ended: str) -> Ranked:
        return standard_outcome(tiles, ended)


# -- every state, every variant ------------------------------------------------------------

def test_deterministic_and_finite_on_every_state(
        games: list[tuple[Ruleset, list[State]]], plugins: PluginHost) -> None:
    for ruleset, states in games:
        judge, _, _ = _judge(ruleset)
        fresh = plugins.ruleset("mandala", list(ruleset.variant_names),
                             players=states[0].players).bots.evaluate
        assert fresh is not None and fresh is not judge
        for state in states:
            for seat in range(state.players):
                value = judge(state, seat)
                assert math.isfinite(value)
                assert judge(state, seat) == value == fresh(state, seat)


def test_never_raises_on_sampled_states(games: list[tuple[Ruleset, list[State]]]) -> None:
    rng = Rng(b"outlook/samples")
    for ruleset, states in games:
        judge, game, bots = _judge(ruleset)
        assert bots.sample is not None
        for state in states[:: max(1, len(states) // 25)]:
            if game.pending_chance(state) is not None:
                continue
            for seat in range(state.players):
                sampled = bots.sample(game.view(state, seat), seat, rng)
                for judged in range(state.players):
                    assert math.isfinite(judge(sampled, judged))
