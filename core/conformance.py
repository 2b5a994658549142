"""The conformance kit: seeded random games that check any game plugin keeps the contract.

Use it from a plugin's test suite (it needs no pytest import, so it ships in the package)::

    from hedgerow.core.conformance import check_game
    from hedgerow.core.host import Host

    def test_conformance():
        ruleset = Host(autoload=False).ruleset("mygame", ["myvariant"])
        check_game(ruleset, players=3, seeds=range(50))

For every seed it plays one game with uniformly random legal actions and checks, at every
step:

* some seat is active until the game is over, and each active seat has a legal action;
* every legal action it tries applies (all of them on the first steps, a sample after);
* ``apply`` never mutates the state it is given (the state hash is unchanged);
* a seat that is not active is refused, a made-up action and mutated actions that are not
  legal are refused, and a refusal leaves the state unchanged;
* ``view`` returns a type that is not the state's type, and, when the game provides
  ``determinize``, a seat's view is the same for a state re-dealt from its point of view
  (the view leaks nothing that is hidden from it);
* your ``invariants(before, after)`` hold (see `Invariant`);

and at the end: the game ended within ``max_actions``, the outcome is well formed, and
replaying the log from the seed gives the same state hash.

A failure raises `ConformanceError`, naming the seed, the step and the action so it can be
reproduced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hedgerow.core.actions import Action, Value
from hedgerow.core.canon import state_hash
from hedgerow.core.errors import Refusal
from hedgerow.core.game import GameDef, Outcome
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table

#: ``invariant(before, after, seat, action)``: raise AssertionError when broken.
#: ``before`` is None for the initial state (then ``seat`` is -1 and ``action`` None).
Invariant = Callable[[Any, Any, int, "Action | None"], None]

#: ``final_check(table)``: raise AssertionError when the finished game is wrong.
FinalCheck = Callable[[Table], None]


class ConformanceError(AssertionError):
    """A broken contract, with what is needed to reproduce it."""


@dataclass(frozen=True, slots=True)
class Report:
    """What a conformance run did."""

    games: int
    actions: int
    actions_checked: int
    refusals_checked: int


def _hash(game: GameDef[Any, Any], state: Any) -> bytes:
    return state_hash(game.hash_data(state) if game.hash_data else state)


def _mutations(action: Action) -> Iterable[Action]:
    """Nearby actions: each int argument shifted far away, and an unknown extra argument."""
    for i, (name, value) in enumerate(action.args):
        if isinstance(value, int) and not isinstance(value, bool):
            for delta in (1000, -1000):
                args: list[tuple[str, Value]] = list(action.args)
                args[i] = (name, value + delta)
                yield Action(action.kind, tuple(args))
    yield Action("conformance-no-such-action", ())


def check_outcome(outcome: Outcome | None, players: int) -> None:
    """Raise `ConformanceError` unless ``outcome`` is a well-formed result for ``players``."""
    if outcome is None:
        raise ConformanceError("the game has no active seat but no outcome")
    if len(outcome.scores) != players or len(outcome.ranking) != players:
        raise ConformanceError(f"outcome needs one score and one rank per seat: {outcome}")
    if not outcome.winners or any(not 0 <= w < players for w in outcome.winners):
        raise ConformanceError(f"outcome winners are not seats: {outcome.winners}")
    if sorted(outcome.winners) != [s for s in range(players) if outcome.ranking[s] == 1]:
        raise ConformanceError("outcome winners must be exactly the seats ranked 1")
    if set(outcome.winners) & set(outcome.eliminated):
        raise ConformanceError("an eliminated seat cannot win")
    for label, column in outcome.breakdown:
        if len(column) != players:
            raise ConformanceError(f"breakdown column {label!r} needs one value per seat")
    if not outcome.explanation:
        raise ConformanceError("the outcome needs an explanation")


def check_game(
    ruleset: Ruleset,
    *,
    players: int,
    seeds: Iterable[int],
    invariants: Sequence[Invariant] = (),
    final_checks: Sequence[FinalCheck] = (),
    exhaustive_steps: int = 3,
    sample: int = 4,
    max_actions: int = 10_000,
) -> Report:
    """Play one seeded random game per seed and check the contract (see the module doc)."""
    game = ruleset.gamedef
    games = actions = checked = refusals = 0
    for seed_number in seeds:
        seed = seed_from_int(seed_number)
        rng = Rng(seed, "conformance")
        table = Table(ruleset, players, seed)
        where = f"{ruleset.fingerprint}, {players} players, seed {seed_number}"
        for inv in invariants:
            _run_invariant(inv, None, table.state, -1, None, f"{where}, initial state")
        log: list[tuple[int, Action]] = []
        while True:
            active = table.active_seats()
            if not active:
                break
            step = f"{where}, step {table.index}"
            if table.index >= max_actions:
                raise ConformanceError(f"{where}: the game did not end in {max_actions} actions")
            state = table.state
            before = _hash(game, state)
            _check_views(game, state, players, rng, step)
            for seat in range(players):
                if seat not in active:
                    refusals += _expect_refused(table, seat, None, before, step)
            seat = active[rng.randbelow(len(active))]
            legal = list(game.legal_actions(state, seat))
            if not legal:
                raise ConformanceError(f"{step}: active seat {seat} has no legal action")
            if len(set(legal)) != len(legal):
                raise ConformanceError(f"{step}: legal_actions lists an action twice")
            tries = (
                legal
                if table.index < exhaustive_steps
                else [legal[rng.randbelow(len(legal))] for _ in range(min(sample, len(legal)))]
            )
            for action in tries:
                result = game.apply(state, seat, action)
                if isinstance(result, Refusal):
                    raise ConformanceError(f"{step}: legal action {action} is refused: {result}")
                if _hash(game, state) != before:
                    raise ConformanceError(
                        f"{step}: apply({action}) mutated the state it was given"
                    )
                checked += 1
            legal_set = set(legal)
            for action in _mutations(legal[0]):
                if action not in legal_set:
                    refusals += _expect_refused(table, seat, action, before, step)
            action = legal[rng.randbelow(len(legal))]
            describe = game.describe(state, seat, action)
            if not isinstance(describe, str) or not describe:
                raise ConformanceError(f"{step}: describe({action}) must be a non-empty string")
            entry = table.submit(seat, action)
            if isinstance(entry, Refusal):
                raise ConformanceError(
                    f"{step}: legal action {action} refused by the table: {entry}"
                )
            log.append((seat, action))
            for inv in invariants:
                _run_invariant(inv, state, table.state, seat, action, f"{step}, after {action}")
            actions += 1
        check_outcome(table.outcome(), players)
        replayed = Table.replay(ruleset, players, seed, log)
        if replayed.state_hash() != table.state_hash() or replayed.head != table.head:
            raise ConformanceError(f"{where}: replaying the log gives another state")
        for final in final_checks:
            try:
                final(table)
            except AssertionError as exc:
                raise ConformanceError(f"{where}, end of game: {exc}") from exc
        games += 1
    return Report(games, actions, checked, refusals)


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
    if table.index != index or table.head != head or table.state_hash() != before:
        raise ConformanceError(f"{step}: refusing {action} changed the table")
    return 1


def _check_views(game: GameDef[Any, Any], state: Any, players: int, rng: Rng, step: str) -> None:
    for seat in range(players):
        view = game.view(state, seat)
        if type(view) is type(state):
            raise ConformanceError(f"{step}: view() must return a View type, not the state")
        if game.determinize is not None:
            other = game.determinize(state, seat, rng.fork(f"det{seat}"))
            if game.view(other, seat) != view:
                raise ConformanceError(
                    f"{step}: seat {seat}'s view changes when hidden cards are re-dealt: "
                    "the view leaks hidden information"
                )
