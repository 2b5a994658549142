"""The conformance kit: seeded random games that check any game plugin keeps the contract.

Use it from a plugin's test suite (it needs no pytest import, so it ships in the package)::

    from hedgerow.core.conformance import check_game
    from hedgerow.core.pluginhost import PluginHost

    def test_conformance():
        ruleset = PluginHost(autoload=False).ruleset("mygame", ["myvariant"])
        check_game(ruleset, players=3, seeds=range(50))

For every seed it plays one game with uniformly random legal actions and checks, at every
step:

* chance: the rules are asked nothing (no active seats, legal actions, view, apply, outcome
  or describe) about a state that waits for chance; every chance outcome in the log is the
  one the seeded source gives for its index (same seed, same luck); the game also accepts
  other possible outcomes of the same chance (what a sealed deck would draw);
* some seat is active until the game is over, and each active seat has a legal action;
* every legal action it tries applies (all of them on the first steps, a sample after);
* ``apply`` never mutates the state it is given (the state hash is unchanged);
* nothing but a legal action applies: the `neighbours` of every action tried (arguments a
  little or far off, flipped, swapped for other values seen, left out or added, a kind
  that does not exist), the actions legal for the other seats of a simultaneous step and
  `ELSEWHERE` actions seen legal earlier in the game are refused, each with a code and a
  message, and the state is left as it was; a seat that is not active is refused (a
  made-up action, and the active seats' own), through the table;
* a simultaneous step is played whole: every active seat chooses against the starting
  state, a lone choice (`Table.submit`) and an incomplete step are refused, and the step's
  choices apply together (a game that cannot apply them in seat order fails with
  `RulesError`);
* ``view`` returns a type that is not the state's type, and, when the game provides
  ``determinize``, a seat's view and its legal actions are the same for a state re-dealt
  from its point of view, re-dealt twice included (the view leaks nothing hidden, and
  re-dealing never hands the seat knowledge it could not have);
* when the game offers bot support (``Ruleset.bots``, `hedgerow.core.botsupport`; on the
  first steps and every fourth after, to keep the kit quick): a state sampled from a
  seat's view shows the seat that same view and the same legal actions, and (twice a
  game, for every seat) plays on with random actions and chance to a well-formed outcome;
  with ``score``, every seat's score is a finite number, in the state and in the sampled
  one; with ``evaluate_each``, for the acting seat's legal actions and the neighbours of
  the first, every figure it gives is exactly ``evaluate`` of the state ``apply`` gives,
  that state waits for no chance, and a refused action gets None;
* your ``invariants(before, after)`` hold (see `Invariant`), and your
  ``redeal_checks(state, seat, redealt)`` hold for every re-deal (what a seat remembers
  beyond its view: see `RedealCheck`);

and at the end: the game ended within ``max_actions``, the outcome is well formed for its
kind (`Ranked`, `Cooperative`, `Solo`, `Match`), replaying the log from the seed gives
the same state hash and chain, and the kit's own re-deal (`hedgerow.core.hiddencheck`:
the log played again with two cards of a shuffle swapped, ``redeals`` swaps of the first
and last shuffles) finds no seat whose legal actions change while its view does not, and
no view showing cards nobody sees in play.

A failure raises `ConformanceError`, naming the seed, the step and the action so it can be
reproduced.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hedgerow.core.actions import Action, Value
from hedgerow.core.botsupport import BotSupport
from hedgerow.core.canon import state_hash
from hedgerow.core.chance import Chance, ChanceOutcome, Pick, SeededChance, draw_all, outcome_of
from hedgerow.core.errors import Code, Refusal, RulesError
from hedgerow.core.game import GameDef
from hedgerow.core.hiddencheck import Logged, check_redeals
from hedgerow.core.outcome import Cooperative, Match, Outcome, Ranked, Solo
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table

#: ``invariant(before, after, seat, action)``: raise AssertionError when broken.
#: ``before`` is None for the initial state (then ``seat`` is -1 and ``action`` None).
#: In a simultaneous step it runs once for the whole step, with ``seat`` the first seat.
Invariant = Callable[[Any, Any, int, "Action | None"], None]

#: ``final_check(table)``: raise AssertionError when the finished game is wrong.
FinalCheck = Callable[[Table], None]

#: ``redeal_check(state, seat, redealt)``: raise AssertionError when ``determinize`` moved
#: something ``seat`` knows that its view does not show (a game's own memory rules).
RedealCheck = Callable[[Any, int, Any], None]


class ConformanceError(AssertionError):
    """A broken contract, with what is needed to reproduce it."""


@dataclass(frozen=True, slots=True)
class Report:
    """What a conformance run did."""

    games: int
    actions: int
    actions_checked: int
    refusals_checked: int
    chances: int = 0
    simultaneous_steps: int = 0
    kinds: tuple[str, ...] = ()


def _hash(gamedef: GameDef[Any, Any], state: Any) -> bytes:
    return state_hash(gamedef.hash_data(state) if gamedef.hash_data else state)


#: Far-off shifts tried on every int argument, besides the near ones (``NEAR``).
FAR = (1000, -1000)
#: Near shifts tried on every int argument (an id, a cell, a count next to a legal one).
NEAR = (1, -1, 2, -2)


def neighbours(action: Action, seen: dict[str, list[Value]]) -> Iterator[Action]:
    """Actions one step from ``action``: each int argument shifted by `NEAR` and `FAR`
    (each int in a tuple argument by one, and the tuple reversed), each bool flipped, each
    other argument replaced by the other values ``seen`` for that name in legal actions, an
    argument left out, an unknown one added, and an action of no known kind."""
    args = action.args
    for i, (name, value) in enumerate(args):
        for other in _near_values(value, seen.get(name, ())):
            changed: list[tuple[str, Value]] = list(args)
            changed[i] = (name, other)
            yield Action(action.kind, tuple(changed))
        yield Action(action.kind, args[:i] + args[i + 1:])
    yield Action(action.kind, (*args, ("conformance_extra", 0)))
    yield Action("conformance-no-such-action", ())


def _near_values(value: Value, seen: Iterable[Value]) -> Iterator[Value]:
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        for delta in (*NEAR, *FAR):
            yield value + delta
    elif isinstance(value, tuple):
        if len(value) > 1:
            yield tuple(reversed(value))
        for k, item in enumerate(value):
            if isinstance(item, int) and not isinstance(item, bool):
                for delta in (1, -1):
                    yield (*value[:k], item + delta, *value[k + 1:])
    for other in seen:
        if other != value and type(other) is type(value) and not isinstance(value, int):
            yield other


class _Seen:
    """Actions seen legal so far in a game (any seat, any step; the latest `LIMIT`), and the
    values each argument name took in them: what `neighbours` and the kit's tries of
    actions legal elsewhere draw from."""

    LIMIT = 512
    VALUES = 16

    def __init__(self) -> None:
        self.actions: dict[Action, None] = {}
        self.values: dict[str, list[Value]] = {}

    def add(self, actions: Iterable[Action]) -> None:
        for action in actions:
            if action in self.actions:
                continue
            self.actions[action] = None
            if len(self.actions) > self.LIMIT:
                del self.actions[next(iter(self.actions))]
            for name, value in action.args:
                values = self.values.setdefault(name, [])
                if value not in values and len(values) < self.VALUES:
                    values.append(value)

    def draw(self, rng: Rng, count: int, exclude: set[Action]) -> list[Action]:
        """Up to ``count`` of the seen actions not in ``exclude``, drawn at random."""
        pool = [a for a in self.actions if a not in exclude]
        if len(pool) <= count:
            return pool
        return [pool[i] for i in sorted({rng.randbelow(len(pool)) for _ in range(count)})]


def check_outcome(outcome: Outcome | None, players: int) -> None:
    """Raise `ConformanceError` unless ``outcome`` is a well-formed result for ``players``."""
    if outcome is None:
        raise ConformanceError("the game has no active seat but no outcome")
    if not isinstance(outcome, Ranked | Cooperative | Solo | Match):
        raise ConformanceError(f"an outcome is Ranked, Cooperative, Solo or Match: {outcome!r}")
    if len(outcome.scores) != players:
        raise ConformanceError(f"outcome needs one score per seat: {outcome}")
    if not outcome.explanation:
        raise ConformanceError("the outcome needs an explanation")
    for label, column in outcome.breakdown:
        if len(column) != players:
            raise ConformanceError(f"breakdown column {label!r} needs one value per seat")
    if isinstance(outcome, Ranked):
        _check_ranked(outcome, players)
    elif isinstance(outcome, Cooperative):
        labels = [label for label, _ in outcome.grades]
        if outcome.grade and outcome.grade not in labels and outcome.grades:
            raise ConformanceError(f"grade {outcome.grade!r} is not one of {labels}")
        thresholds = [at for _, at in outcome.grades]
        if thresholds != sorted(thresholds):
            raise ConformanceError("cooperative grades are listed lowest threshold first")
        reached = [label for label, at in outcome.grades if outcome.total >= at]
        if outcome.grades and outcome.grade != (reached[-1] if reached else ""):
            raise ConformanceError(f"a total of {outcome.total} reaches "
                                   f"{reached[-1] if reached else 'no grade'}, not "
                                   f"{outcome.grade or 'no grade'}")
    elif isinstance(outcome, Solo):
        if players != 1:
            raise ConformanceError(f"a Solo outcome is for one seat, not {players}")
    else:
        if not outcome.games or len(outcome.totals) != len(outcome.games):
            raise ConformanceError("a match lists each game's result and the totals after it")
        for game in outcome.games:
            check_outcome(game, players)
        if any(len(t) != players for t in outcome.totals):
            raise ConformanceError("match totals need one value per seat")
        _check_ranked(outcome.final, players)
        if outcome.final.scores != outcome.totals[-1]:
            raise ConformanceError("a match's final scores are its last running totals")


def _check_ranked(outcome: Ranked, players: int) -> None:
    if len(outcome.ranking) != players:
        raise ConformanceError(f"outcome needs one rank per seat: {outcome}")
    if not outcome.winners or any(not 0 <= w < players for w in outcome.winners):
        raise ConformanceError(f"outcome winners are not seats: {outcome.winners}")
    if sorted(outcome.winners) != [s for s in range(players) if outcome.ranking[s] == 1]:
        raise ConformanceError("outcome winners must be exactly the seats ranked 1")
    if set(outcome.winners) & set(outcome.eliminated):
        raise ConformanceError("an eliminated seat cannot win")


class _ChanceGuard:
    """Wraps a game so that any question about a state waiting for chance fails."""

    ASKED = ("active_seats", "legal_actions", "apply", "view", "outcome", "describe")

    def __init__(self, gamedef: GameDef[Any, Any]) -> None:
        self.gamedef = gamedef
        self.problem: str | None = None

    def wrap(self) -> GameDef[Any, Any]:
        gamedef = self.gamedef
        if gamedef.chance is None:
            return gamedef
        wrapped: dict[str, Any] = {name: self._guard(name, getattr(gamedef, name))
                                   for name in self.ASKED}
        return replace(gamedef, **wrapped)

    def _guard(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        chance = self.gamedef.chance
        assert chance is not None

        def guarded(state: Any, *args: Any) -> Any:
            if self.problem is None and chance(state) is not None:
                self.problem = f"{name}() was called on a state that waits for chance"
            return fn(state, *args)

        return guarded


def _other_outcome(chance: Chance, outcome: ChanceOutcome) -> ChanceOutcome:
    """A different possible outcome of ``chance``: every pick shifted, every order reversed."""
    other: list[int | tuple[int, ...]] = []
    for draw, got in zip(chance.draws, outcome, strict=True):
        if isinstance(draw, Pick):
            assert isinstance(got, int)
            other.append((got + 1) % draw.n)
        else:
            assert isinstance(got, tuple)
            other.append(tuple(reversed(got)))
    return tuple(other)


class _Run:
    """One seeded game of the kit, with its counters."""

    def __init__(self, ruleset: Ruleset, players: int, seed_number: int, guard: _ChanceGuard,
                 ) -> None:
        self.ruleset = ruleset
        self.players = players
        self.seed = seed_from_int(seed_number)
        self.rng = Rng(self.seed, "conformance")
        self.where = f"{ruleset.fingerprint}, {players} players, seed {seed_number}"
        self.guard = guard
        self.gamedef = ruleset.gamedef  # the unguarded rules, for the kit's own questions
        self.chances = 0  # chance entries checked
        self.chances_seen = 0  # log entries looked at by `check_chance`
        self.state_before: dict[int, Any] = {}  # entry index -> the state it applied to
        try:
            self.table = Table(replace(ruleset, gamedef=guard.wrap()), players, self.seed)
        except RulesError as exc:
            raise ConformanceError(f"{self.where}, setup: {exc}") from exc
        self.check_guard("setup")

    def check_guard(self, step: str) -> None:
        if self.guard.problem is not None:
            raise ConformanceError(f"{self.where}, {step}: {self.guard.problem}")

    def check_chance(self, upto: int) -> None:
        """Every chance entry so far is the seeded outcome, and other outcomes resolve too."""
        table, gamedef = self.table, self.gamedef
        source = SeededChance(self.seed)
        entries = table.entries
        for entry in entries[self.chances_seen:upto]:
            self.chances_seen += 1
            if not entry.is_chance:
                continue
            self.chances += 1
            outcome = outcome_of(entry.action)
            before = self.state_before.get(entry.index)
            if outcome is None or before is None:
                raise ConformanceError(f"{self.where}: chance entry #{entry.index} is malformed")
            chance = gamedef.pending_chance(before)
            assert chance is not None and gamedef.resolve is not None
            if source.resolve(entry.index, chance) != outcome:
                raise ConformanceError(f"{self.where}: chance entry #{entry.index} is not the "
                                       "seeded outcome")
            try:
                gamedef.resolve(before, _other_outcome(chance, outcome))
            except Exception as exc:
                raise ConformanceError(
                    f"{self.where}: resolving {chance.label!r} with another possible outcome "
                    f"raised {type(exc).__name__}: {exc}") from exc


def check_game(
    ruleset: Ruleset,
    *,
    players: int,
    seeds: Iterable[int],
    invariants: Sequence[Invariant] = (),
    final_checks: Sequence[FinalCheck] = (),
    redeal_checks: Sequence[RedealCheck] = (),
    exhaustive_steps: int = 3,
    sample: int = 4,
    redeals: int = 4,
    max_actions: int = 10_000,
) -> Report:
    """Play one seeded random game per seed and check the contract (see the module doc)."""
    gamedef, bots = ruleset.gamedef, ruleset.bots
    games = actions = checked = refusals = chances = steps = 0
    kinds: set[str] = set()
    for seed_number in seeds:
        guard = _ChanceGuard(gamedef)
        run = _Run(ruleset, players, seed_number, guard)
        table, rng, where = run.table, run.rng, run.where
        run.state_before = {a.entry.index: a.before for a in table.opening}
        seen = _Seen()
        decisions: set[int] = set()
        for inv in invariants:
            _run_invariant(inv, None, table.state, -1, None, f"{where}, initial state")
        while True:
            run.check_chance(table.index)
            active = table.active_seats()
            if not active:
                break
            step = f"{where}, step {table.index}"
            if table.index >= max_actions:
                raise ConformanceError(f"{where}: the game did not end in {max_actions} actions")
            decisions.add(table.index)
            state = table.state
            before = _hash(gamedef, state)
            listed = [list(gamedef.legal_actions(state, seat)) for seat in range(players)]
            exhaustive = table.index < exhaustive_steps
            _check_views(gamedef, bots, state, listed, rng, step, redeal_checks,
                         sampled=table.index < exhaustive_steps or table.index % 4 == 0)
            if table.index in (exhaustive_steps, 4 * exhaustive_steps + 1):
                for seat in range(players):
                    check_sample_plays_on(gamedef, bots, state, seat, players, rng, step,
                                          max_actions)
            theirs = [a for seat in active for a in listed[seat][:1]]
            for seat in range(players):
                if seat not in active:
                    refusals += _expect_refused(table, seat, None, before, step)
                    for action in theirs:  # an active seat's action, offered out of turn
                        refusals += _expect_refused(table, seat, action, before, step)
            choices: dict[int, Action] = {}
            for seat in active:
                legal = listed[seat]
                if not legal:
                    raise ConformanceError(f"{step}: active seat {seat} has no legal action")
                if len(set(legal)) != len(legal):
                    raise ConformanceError(f"{step}: legal_actions lists an action twice")
                tried = _check_legal(gamedef, state, seat, legal, before, step, rng,
                                     exhaustive=exhaustive, sample=sample)
                checked += len(tried)
                others = [a for other in active if other != seat for a in listed[other]]
                refusals += _check_nearby(gamedef, state, seat, legal, tried, others, seen,
                                          rng, before, step)
                refusals += _expect_refused(table, seat, None, before, step)
                if (len(active) == 1 and bots is not None and bots.evaluate_each is not None
                        and (table.index < exhaustive_steps or table.index % 4 == 0)):
                    _check_evaluate_each(gamedef, bots, state, seat, legal, step)
                choices[seat] = legal[rng.randbelow(len(legal))]
                describe = gamedef.describe(state, seat, choices[seat])
                if not isinstance(describe, str) or not describe:
                    raise ConformanceError(
                        f"{step}: describe({choices[seat]}) must be a non-empty string")
            try:
                if len(active) > 1:
                    refusals += _check_step_gate(table, choices, before, step)
                    result = table.submit_step(choices)
                    steps += 1
                else:
                    (seat,) = active
                    result = table.submit(seat, choices[seat])
            except RulesError as exc:
                raise ConformanceError(f"{step}: {exc}") from exc
            run.check_guard(step)
            if isinstance(result, Refusal):
                raise ConformanceError(f"{step}: legal choices {choices} refused: {result}")
            for applied in result:
                run.state_before[applied.entry.index] = applied.before
            seen.add(a for legal in listed for a in legal[:_Seen.LIMIT])
            first = min(choices)
            for inv in invariants:
                _run_invariant(inv, state, table.state, first, choices[first],
                               f"{step}, after {choices}")
            actions += len(choices)
        outcome = table.outcome()
        run.check_guard("outcome")
        try:
            check_outcome(outcome, players)
        except ConformanceError as exc:
            raise ConformanceError(f"{where}: {exc}") from exc
        assert outcome is not None
        kinds.add(outcome.kind)
        log = [(e.seat, e.action) for e in table.entries]
        replayed = Table.replay(ruleset, players, run.seed, log)
        if replayed.state_hash() != table.state_hash() or replayed.head != table.head:
            raise ConformanceError(f"{where}: replaying the log gives another state")
        logged = [Logged(e.seat, e.action, run.state_before[e.index]) for e in table.entries]
        problem = check_redeals(gamedef, logged, table.state, decisions, players, rng,
                                pairs=redeals)
        if problem is not None:
            raise ConformanceError(f"{where}: {problem}")
        for final in final_checks:
            try:
                final(table)
            except AssertionError as exc:
                raise ConformanceError(f"{where}, end of game: {exc}") from exc
        games += 1
        chances += run.chances
    return Report(games, actions, checked, refusals, chances, steps, tuple(sorted(kinds)))


def _check_evaluate_each(gamedef: GameDef[Any, Any], bots: BotSupport[Any, Any], state: Any,
                         seat: int, legal: list[Action], step: str) -> None:
    """``evaluate_each`` against ``apply`` then ``evaluate``, on every legal action and the
    mutations of the first (see the module docstring)."""
    assert bots.evaluate_each is not None and bots.evaluate is not None
    listed = set(legal)
    actions = legal + [a for a in neighbours(legal[0], {}) if a not in listed]
    figures = list(bots.evaluate_each(state, seat, actions))
    if len(figures) != len(actions):
        raise ConformanceError(f"{step}: evaluate_each gave {len(figures)} figures for "
                               f"{len(actions)} actions")
    for action, figure in zip(actions, figures, strict=True):
        if figure is None:
            continue
        after = gamedef.apply(state, seat, action)
        if isinstance(after, Refusal):
            raise ConformanceError(f"{step}: evaluate_each judged {action}, which apply "
                                   f"refuses ({after.code}); it must give None")
        if gamedef.pending_chance(after) is not None:
            raise ConformanceError(f"{step}: evaluate_each judged {action}, whose result "
                                   "waits for chance; it must give None")
        expected = bots.evaluate(after, seat)
        if figure != expected:
            raise ConformanceError(f"{step}: evaluate_each gave {figure!r} for {action}, "
                                   f"evaluate of the state after it {expected!r}")


def _check_legal(gamedef: GameDef[Any, Any], state: Any, seat: int, legal: list[Action],
                 before: bytes, step: str, rng: Rng, *, exhaustive: bool, sample: int,
                 ) -> list[Action]:
    """Apply every legal action (or a sample) to ``state``: none refused, none mutating it.
    Returns the actions tried."""
    tries = (legal if exhaustive
             else [legal[rng.randbelow(len(legal))] for _ in range(min(sample, len(legal)))])
    for action in tries:
        result = gamedef.apply(state, seat, action)
        if isinstance(result, Refusal):
            raise ConformanceError(f"{step}: legal action {action} is refused: {result}")
        if _hash(gamedef, state) != before:
            raise ConformanceError(f"{step}: apply({action}) mutated the state it was given")
    return tries


#: Actions seen legal earlier in the game (any seat) a seat is offered at each step.
ELSEWHERE = 8


def _check_nearby(gamedef: GameDef[Any, Any], state: Any, seat: int, legal: list[Action],
                  tried: list[Action], others: list[Action], seen: _Seen, rng: Rng,
                  before: bytes, step: str) -> int:
    """Actions that are not legal for ``seat`` now are refused, with a code and a message,
    and leave the state as it was: the `neighbours` of every action tried, the actions
    legal for the other seats of a simultaneous step, and `ELSEWHERE` actions seen legal
    earlier in the game (a card it may not play now, another seat's card).  Returns how
    many it offered."""
    legal_set = set(legal)
    offered: dict[Action, None] = {}
    for action in tried:
        offered.update((a, None) for a in neighbours(action, seen.values))
    offered.update((a, None) for a in others)
    offered.update((a, None) for a in seen.draw(rng, ELSEWHERE, legal_set))
    count = 0
    for action in offered:
        if action in legal_set:
            continue
        count += 1
        try:
            result = gamedef.apply(state, seat, action)
        except Exception as exc:
            raise ConformanceError(f"{step}: {action} by seat {seat} raised "
                                   f"{type(exc).__name__} instead of refusing") from exc
        if not isinstance(result, Refusal):
            raise ConformanceError(f"{step}: {action} by seat {seat} should be refused but "
                                   "applied: it is not among the seat's legal actions")
        if not result.code or not result.message:
            raise ConformanceError(f"{step}: a refusal needs a code and a message: {result!r}")
    if count and _hash(gamedef, state) != before:
        raise ConformanceError(f"{step}: refusing an action changed the state apply was given")
    return count


def _check_step_gate(table: Table, choices: dict[int, Action], before: bytes, step: str,
                     ) -> int:
    """A simultaneous step refuses a lone choice and an incomplete set, changing nothing."""
    index, head = table.index, table.head
    seat = min(choices)
    attempts: list[tuple[str, Any]] = [
        ("a lone choice", lambda: table.submit(seat, choices[seat])),
        ("an incomplete step", lambda: table.submit_step({seat: choices[seat]})),
    ]
    for what, attempt in attempts:
        result = attempt()
        if not isinstance(result, Refusal):
            raise ConformanceError(f"{step}: {what} in a simultaneous step was accepted")
        if table.index != index or table.head != head or table.state_hash() != before:
            raise ConformanceError(f"{step}: refusing {what} changed the table")
    return len(attempts)


def _run_invariant(
    inv: Invariant, before: Any, after: Any, seat: int, action: Action | None, where: str
) -> None:
    try:
        inv(before, after, seat, action)
    except AssertionError as exc:
        raise ConformanceError(
            f"{where}: invariant {getattr(inv, '__name__', inv)}: {exc}"
        ) from exc


def _expect_refused(
    table: Table, seat: int, action: Action | None, before: bytes, step: str
) -> int:
    """Offer an action that must be refused; check the refusal and that nothing changed."""
    if action is None:
        action = Action("conformance-no-such-action", ())
    index, head = table.index, table.head
    try:
        result = table.submit(seat, action)
    except Exception as exc:
        raise ConformanceError(
            f"{step}: {action} by seat {seat} raised {type(exc).__name__} instead of refusing"
        ) from exc
    if not isinstance(result, Refusal):
        raise ConformanceError(f"{step}: {action} by seat {seat} should be refused but applied")
    if not result.code or not result.message:
        raise ConformanceError(f"{step}: a refusal needs a code and a message: {result!r}")
    if result.code == Code.SIMULTANEOUS:
        raise ConformanceError(f"{step}: {action} by seat {seat} reached the step gate: the "
                               "rules accepted it")
    if table.index != index or table.head != head or table.state_hash() != before:
        raise ConformanceError(f"{step}: refusing {action} changed the table")
    return 1


def _check_views(gamedef: GameDef[Any, Any], bots: BotSupport[Any, Any] | None, state: Any,
                 listed: list[list[Action]], rng: Rng, step: str,
                 redeal_checks: Sequence[RedealCheck] = (), sampled: bool = True) -> None:
    """Each seat's view is a View, and neither it nor the seat's legal actions (``listed``,
    one list per seat) change when what the seat cannot know is re-dealt."""
    for seat, legal in enumerate(listed):
        view = gamedef.view(state, seat)
        if type(view) is type(state):
            raise ConformanceError(f"{step}: view() must return a View type, not the state")
        if gamedef.determinize is None:
            if sampled:
                _check_sample(gamedef, bots, state, seat, view, legal, rng, step,
                              redeal_checks)
            continue
        other = gamedef.determinize(state, seat, rng.fork(f"det{seat}"))
        if gamedef.view(other, seat) != view:
            raise ConformanceError(
                f"{step}: seat {seat}'s view changes when hidden cards are re-dealt: "
                "the view leaks hidden information, or determinize re-deals a card the "
                "seat has seen (one it passed, or saw revealed)"
            )
        _run_redeal_checks(redeal_checks, state, seat, other, step)
        again = gamedef.determinize(other, seat, rng.fork(f"det{seat}/again"))
        if gamedef.view(again, seat) != view:
            raise ConformanceError(
                f"{step}: seat {seat}'s view changes when re-dealt twice: determinize "
                "re-deals a card the seat has seen, or hands it knowledge it could not have"
            )
        if list(gamedef.legal_actions(other, seat)) != legal:
            raise ConformanceError(
                f"{step}: seat {seat}'s legal actions change when hidden cards are re-dealt: "
                "they depend on something the seat cannot see"
            )
        if sampled:
            _check_sample(gamedef, bots, state, seat, view, legal, rng, step, redeal_checks)


def _run_redeal_checks(redeal_checks: Sequence[RedealCheck], state: Any, seat: int,
                       redealt: Any, step: str) -> None:
    for redeal in redeal_checks:
        try:
            redeal(state, seat, redealt)
        except AssertionError as exc:
            raise ConformanceError(f"{step}: re-dealt for seat {seat}: "
                                   f"{getattr(redeal, '__name__', redeal)}: {exc}") from exc


def _check_sample(gamedef: GameDef[Any, Any], bots: BotSupport[Any, Any] | None, state: Any,
                  seat: int, view: Any, legal: list[Action], rng: Rng, step: str,
                  redeal_checks: Sequence[RedealCheck] = ()) -> None:
    """``sample(view)`` agrees with the view and the seat's legal actions and passes the
    game's own re-deal checks; ``score`` is a finite number for every seat, in the real
    state and in the sampled one."""
    if bots is None:
        return
    sampled = bots.sample(view, seat, rng.fork(f"sample{seat}"))
    _run_redeal_checks(redeal_checks, state, seat, sampled, step)
    if gamedef.view(sampled, seat) != view:
        raise ConformanceError(
            f"{step}: seat {seat}'s view of a state sampled from its view differs from "
            "the view: sample() must keep everything the view shows"
        )
    if list(gamedef.legal_actions(sampled, seat)) != legal:
        raise ConformanceError(
            f"{step}: seat {seat}'s legal actions differ in a state sampled from its view"
        )
    if bots.score is not None:
        for where, some in (("state", state), ("sampled state", sampled)):
            value = bots.score(some, seat)
            if not isinstance(value, int | float) or isinstance(value, bool) \
                    or not math.isfinite(value):
                raise ConformanceError(f"{step}: score() of seat {seat} in the {where} is "
                                       f"{value!r}, not a finite number")


def check_sample_plays_on(gamedef: GameDef[Any, Any], bots: BotSupport[Any, Any] | None,
                          state: Any, seat: int, players: int, rng: Rng, step: str,
                          max_actions: int) -> None:
    """A state sampled from ``seat``'s view of ``state`` plays on, with random legal actions
    and chance drawn at random, to a well-formed outcome within ``max_actions``."""
    if bots is None:
        return
    some = bots.sample(gamedef.view(state, seat), seat, rng.fork("plays-on"))
    for _ in range(max_actions):
        pending = gamedef.pending_chance(some)
        if pending is not None:
            assert gamedef.resolve is not None
            some = gamedef.resolve(some, draw_all(rng, pending))
            continue
        active = gamedef.active_seats(some)
        if not active:
            try:
                check_outcome(gamedef.outcome(some), players)
            except ConformanceError as exc:
                raise ConformanceError(f"{step}: a state sampled for seat {seat} ended "
                                       f"badly: {exc}") from exc
            return
        for who in active:  # a simultaneous step: every choice against the same state
            legal = gamedef.legal_actions(some, who)
            if not legal:
                raise ConformanceError(f"{step}: in a state sampled for seat {seat}, active "
                                       f"seat {who} has no legal action")
        choices = [(who, (lambda lg: lg[rng.randbelow(len(lg))])(
            gamedef.legal_actions(some, who))) for who in active]
        for who, action in choices:
            result = gamedef.apply(some, who, action)
            if isinstance(result, Refusal):
                raise ConformanceError(f"{step}: in a state sampled for seat {seat}, "
                                       f"{action} by seat {who} was refused: {result}")
            some = result
    raise ConformanceError(f"{step}: a state sampled for seat {seat} did not end in "
                           f"{max_actions} actions")
