"""`BotModel`: a bot's only door to the rules, over states it sampled from its own view.

A bot is handed its seat's view and the legal actions, never the table's state.  A bot that
searches needs complete states to think about; it gets them here: ``model.sample(view,
rng)`` asks the game's bot support (`hedgerow.core.botsupport.BotSupport`, which a game
offers beside its rules) for a state consistent with the view (everything the view does
not fix dealt at random), and every other method works on such states only.

The model is made from two values: the table's rules, typed by the small `Rules` protocol
here (the functions of a `hedgerow.core.game.GameDef` it calls), and the game's
`BotSupport`, or None when the game offers none (then ``can_sample`` and ``has_score`` are
False, and a bot plays on without them).

What the types promise, and what they do not.  States a bot holds are `Sampled` wrappers,
which only this module makes (from ``BotSupport.sample`` and from applying actions or chance
to a `Sampled`), and every method takes a `Sampled`: a bot that hands the model a raw state,
or a view, by mistake is a mypy error and, at run time, an `AttributeError` on the missing
wrapper.  The model keeps the rules and the support in name-mangled slots and offers no
method that returns them.  None of this is enforced against a bot that means to look: in
one process nothing is private (``ctx.model._BotModel__game`` is the rules,
``Sampled._state`` the sampled state, and the live table can be found with `gc`), so within
one process the boundary is a convention the built-in bots keep.  What is closed for a bot
that only looks at what it was handed or at its own call stack, and where the boundary is
real (a bot peer at a sealed networked table), is in docs/plugins.md, "What a bot is
handed, and what that promises".

What the model offers (all pure, none touches a table):

* ``sample(view, rng)``; ``can_sample`` says whether the game has a sampler; ``lookahead``
  (``BotSupport.lookahead``): how many of its own turns a search should span by default;
  ``for_themselves`` (``BotSupport.for_themselves``): whether a search should take the
  other seats to play their own best rather than search their replies; ``tempo``
  (``BotSupport.tempo``): whether the seat to move has an edge the judgement misses;
* ``active_seats``, ``legal_actions``, ``apply`` (a new `Sampled`, or the `Refusal`);
* ``settle(state, rng)``: resolve pending chance at random, the way the engine resolves it
  from the seed (`hedgerow.core.chance.draw_all`), until none is pending; ``step`` is
  ``apply`` then ``settle`` (raises `BotModelError` on a refusal, which is a bot's bug);
* ``outcome``, ``rewards`` (one number in [0, 1] per seat, for search: see `rewards`),
  ``score`` (``BotSupport.score``), ``judge`` (``BotSupport.evaluate`` where the game has
  it, else ``score``; ``has_score``), ``judge_each`` (``judge`` after each of a seat's
  actions, through ``BotSupport.evaluate_each`` where the game has it), ``judges`` (every
  seat's figure at once, to weigh against each other: ``BotSupport.prospects`` where the
  game has it, else ``judge``), ``estimate`` (rewards from ``judges`` of a state that is
  not over), ``view``.

The wrapper costs one small object per state: cheap next to any ``apply``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar, final

from hedgerow.core.actions import Action
from hedgerow.core.botsupport import BotSupport
from hedgerow.core.chance import Chance, ChanceOutcome, draw_all
from hedgerow.core.errors import HedgerowError, Refusal
from hedgerow.core.outcome import Cooperative, Match, Outcome, Ranked, Solo
from hedgerow.core.rng import Rng

S = TypeVar("S")


class Rules(Protocol):
    """What the model calls of a table's rules: the functions of a
    `hedgerow.core.game.GameDef` (which is one), named here so that neither module needs
    the other's types."""

    @property
    def name(self) -> str: ...
    @property
    def active_seats(self) -> Callable[..., tuple[int, ...]]: ...
    @property
    def legal_actions(self) -> Callable[[Any, int], Sequence[Action]]: ...
    @property
    def apply(self) -> Callable[[Any, int, Action], Any]: ...
    @property
    def view(self) -> Callable[[Any, int], Any]: ...
    @property
    def outcome(self) -> Callable[[Any], Outcome | None]: ...
    @property
    def chance(self) -> Callable[[Any], Chance | None] | None: ...
    @property
    def resolve(self) -> Callable[[Any, ChanceOutcome], Any] | None: ...


class BotModelError(HedgerowError):
    """A bot asked the model something it cannot answer (no sampler, an illegal action)."""


@final
class Sampled(Generic[S]):
    """A complete state a bot may think about: sampled from its view, or played on from one.

    Opaque: a bot passes it back to its `BotModel` and reads nothing from it.  Only this
    module makes one.
    """

    __slots__ = ("_state",)

    def __init__(self, state: S, _key: object = None) -> None:
        if _key is not _KEY:
            raise TypeError("a Sampled state comes from BotModel.sample, not from a bot")
        self._state = state

    def __repr__(self) -> str:
        return "<Sampled state>"


_KEY = object()


def _wrap(state: S) -> Sampled[S]:
    return Sampled(state, _KEY)


#: How many chance nodes in a row `settle` resolves before it calls the game broken.
MAX_CHANCE_CHAIN = 1000


@final
class BotModel:
    """The rules of one table, as a bot at ``seat`` may use them (see the module docstring)."""

    __slots__ = ("__game", "__support", "game", "players", "seat")

    def __init__(self, rules: Rules, support: BotSupport[Any, Any] | None, seat: int,
                 players: int) -> None:
        self.__game = rules
        self.__support = support
        #: The game's name.
        self.game: str = rules.name
        self.seat = seat
        self.players = players

    def __repr__(self) -> str:
        return f"<BotModel {self.game} seat {self.seat}>"

    # -- what the game offers --------------------------------------------------------------

    @property
    def can_sample(self) -> bool:
        """True when the game can sample a state from a view (it offers `BotSupport`)."""
        return self.__support is not None

    @property
    def lookahead(self) -> int:
        """How many of a seat's own turns a search should span by default
        (``BotSupport.lookahead``; 1 for a game without support)."""
        return self.__support.lookahead if self.__support is not None else 1

    @property
    def for_themselves(self) -> bool:
        """Whether a search should take every other seat to play its own best action by its
        own judgement rather than search its replies (``BotSupport.for_themselves``)."""
        return self.__support is not None and self.__support.for_themselves

    @property
    def tempo(self) -> bool:
        """Whether the seat to move has an edge the game's judgement does not count
        (``BotSupport.tempo``): a search judging a leaf with its seat to move should also
        judge it after that seat's own best move."""
        return self.__support is not None and self.__support.tempo

    @property
    def has_score(self) -> bool:
        """True when the game can judge a state that is not over (``BotSupport.score`` or
        ``BotSupport.evaluate``)."""
        return self.__support is not None and self.__support.judge is not None

    # -- states ------------------------------------------------------------------------------

    def sample(self, view: Any, rng: Rng) -> Sampled[Any]:
        """A complete state consistent with ``view`` (this seat's view), the rest at random.

        Raises `BotModelError` when the game has no sampler (``can_sample`` is False).
        """
        support = self.__support
        if support is None:
            raise BotModelError(f"{self.game} cannot sample a state from a view "
                                "(it offers no bot support)", code="no_sample")
        return _wrap(support.sample(view, self.seat, rng))

    def active_seats(self, state: Sampled[Any]) -> tuple[int, ...]:
        """Who must act in ``state`` (``()`` when it is over or waits for chance)."""
        s = state._state
        game = self.__game
        if game.chance is not None and game.chance(s) is not None:
            return ()
        return game.active_seats(s)

    def legal_actions(self, state: Sampled[Any], seat: int) -> Sequence[Action]:
        """What ``seat`` may do in ``state`` (possibly a lazy sequence: index it)."""
        return self.__game.legal_actions(state._state, seat)

    def apply(self, state: Sampled[Any], seat: int, action: Action) -> Sampled[Any] | Refusal:
        """``state`` after ``seat`` plays ``action`` (chance it causes left pending), or why
        not."""
        result = self.__game.apply(state._state, seat, action)
        if isinstance(result, Refusal):
            return result
        return _wrap(result)

    def chance_pending(self, state: Sampled[Any]) -> bool:
        """True while ``state`` waits for chance (resolve it with `settle`)."""
        chance = self.__game.chance
        return chance is not None and chance(state._state) is not None

    def settle(self, state: Sampled[Any], rng: Rng) -> Sampled[Any]:
        """``state`` with every pending chance resolved at random from ``rng``."""
        game = self.__game
        chance = game.chance
        if chance is None or game.resolve is None:
            return state
        pending = chance(state._state)
        if pending is None:
            return state
        return _wrap(self._resolved(state._state, pending, rng))

    def _resolved(self, s: Any, pending: Chance, rng: Rng) -> Any:
        """The raw state ``s`` (waiting for ``pending``) once every chance is resolved."""
        game = self.__game
        chance, resolve = game.chance, game.resolve
        assert chance is not None and resolve is not None
        waiting: Chance | None = pending
        for _ in range(MAX_CHANCE_CHAIN):
            assert waiting is not None
            s = resolve(s, draw_all(rng, waiting))
            waiting = chance(s)
            if waiting is None:
                return s
        raise BotModelError(f"{self.game}: chance never stopped ({MAX_CHANCE_CHAIN} in a row)")

    def step(self, state: Sampled[Any], seat: int, action: Action, rng: Rng) -> Sampled[Any]:
        """`apply` then `settle`; raises `BotModelError` when the action is refused."""
        game = self.__game
        result = game.apply(state._state, seat, action)
        if isinstance(result, Refusal):
            raise BotModelError(f"seat {seat} cannot play {action}: {result.message}",
                                code="bot_illegal")
        chance = game.chance
        if chance is not None:  # asked once: the answer is the chance `_resolved` starts on
            pending = chance(result)
            if pending is not None:
                result = self._resolved(result, pending, rng)
        return Sampled(result, _KEY)

    def view(self, state: Sampled[Any], seat: int) -> Any:
        """What ``seat`` would see in ``state``."""
        return self.__game.view(state._state, seat)

    # -- results -----------------------------------------------------------------------------

    def outcome(self, state: Sampled[Any]) -> Outcome | None:
        """The result when ``state`` is over, else None."""
        return self.__game.outcome(state._state)

    def score(self, state: Sampled[Any], seat: int) -> float:
        """``seat``'s points if ``state`` were scored now (the team's in a cooperative game).

        Raises `BotModelError` when the game has no ``score`` (``has_score`` is False).
        """
        score = self.__support.score if self.__support is not None else None
        if score is None:
            raise BotModelError(f"{self.game} cannot score a state that is not over "
                                "(its bot support has no score)", code="no_score")
        return float(score(state._state, seat))

    def judge(self, state: Sampled[Any], seat: int) -> float:
        """How good ``state`` is for ``seat``, in points: the game's ``evaluate`` where it
        has one (the score now plus what is likely to come), else its ``score``.

        Raises `BotModelError` when the game has neither (``has_score`` is False).
        """
        evaluate = self.__support.evaluate if self.__support is not None else None
        if evaluate is not None:
            return float(evaluate(state._state, seat))
        return self.score(state, seat)

    def judge_each(self, state: Sampled[Any], seat: int, actions: Sequence[Action],
                   rng: Rng) -> list[float]:
        """`judge` of the state after each of ``actions`` by ``seat``, which acts alone in
        ``state``: ``judge(step(state, seat, action, rng), seat)`` for each, in order, the
        same figures, for less where the game's ``evaluate_each`` answers without building
        the state after an action.  Only the actions it does not answer are stepped, in
        their order, so ``rng`` draws what stepping them all would have drawn (an answered
        action waits for no chance).  Raises `BotModelError` as `judge` and `step` do."""
        each = self.__support.evaluate_each if self.__support is not None else None
        quick = each(state._state, seat, actions) if each is not None else None
        if quick is not None and len(quick) != len(actions):
            raise BotModelError(f"{self.game}: evaluate_each gave {len(quick)} figures for "
                                f"{len(actions)} actions")
        out: list[float] = []
        for i, action in enumerate(actions):
            value = quick[i] if quick is not None else None
            out.append(float(value) if value is not None
                       else self.judge(self.step(state, seat, action, rng), seat))
        return out

    def judges(self, state: Sampled[Any]) -> tuple[float, ...] | None:
        """Every seat's figure of ``state``, in seat order, for a bot that weighs them
        against each other: the game's ``prospects`` where it has them (each seat's outlook
        without a term for the others', which their own figures hold), else its `judge`;
        None when the game can judge nothing (``has_score`` is False)."""
        judge = self.__support.compare if self.__support is not None else None
        if judge is None:
            return None
        s = state._state
        return tuple(float(judge(s, p)) for p in range(self.players))

    def rewards(self, outcome: Outcome) -> tuple[float, ...]:
        """One reward per seat in [0, 1] for a finished game (see `rewards`)."""
        return rewards(outcome, self.players)

    def estimate(self, state: Sampled[Any]) -> tuple[float, ...]:
        """Rewards judged from every seat's figure (`judges`) of a state that is not over
        (see `estimate`); every seat 0.5 when the game can judge nothing."""
        judge = self.__support.compare if self.__support is not None else None
        if judge is None:
            return (0.5,) * self.players
        s = state._state
        return estimate(tuple(float(judge(s, p)) for p in range(self.players)))


def rewards(outcome: Outcome, players: int) -> tuple[float, ...]:
    """One number per seat in [0, 1] for search to maximise, from any result kind.

    * `Ranked` (and a `Match`'s final): 1 for a sole winner, ``1/k`` each for ``k`` winners
      sharing a victory, 0 for the others.
    * `Cooperative`: every seat 1 on a win; on a loss ``0.5 * total / lowest threshold``
      (capped below 0.5), so coming closer still counts.
    * `Solo`: 1 on a win, 0 on a loss; where the game only grades (``won`` is None) the
      score squashed into (0, 1): ``0.5 + 0.5 * tanh(score / 50)``.
    """
    if isinstance(outcome, Match):
        outcome = outcome.final
    if isinstance(outcome, Ranked):
        winners = outcome.winners
        share = 1.0 / len(winners) if winners else 0.0
        out = [0.0] * players
        for w in winners:
            if w < players:
                out[w] = share
        return tuple(out)
    if isinstance(outcome, Cooperative):
        if outcome.won:
            return (1.0,) * players
        goal = outcome.grades[0][1] if outcome.grades else 0
        value = min(0.49, 0.5 * outcome.total / goal) if goal > 0 else 0.0
        return (max(0.0, value),) * players
    if isinstance(outcome, Solo):
        if outcome.won is not None:
            value = 1.0 if outcome.won else 0.0
        else:
            value = 0.5 + 0.5 * math.tanh(outcome.score / 50.0)
        return (value,) + (0.0,) * (players - 1)
    raise BotModelError(f"unknown outcome kind {type(outcome).__name__}")


def estimate(scores: tuple[float, ...]) -> tuple[float, ...]:
    """Rewards in (0, 1) judged from every seat's score now, for a game that is not over.

    With one seat, or when every seat scores the same (a cooperative game scores the team),
    the score itself is squashed: ``0.5 + 0.5 * tanh(score / 50)``.  Otherwise each seat's
    lead over the best other seat, on a scale of half the largest of the other seats' scores
    (at least 5 points; never its own, so more points always judge better), so that a seat
    far behind still sees which move loses less:
    ``0.5 + 0.5 * tanh(lead / scale)``.
    """
    if len(scores) == 1 or min(scores) == max(scores):
        return tuple(0.5 + 0.5 * math.tanh(s / 50.0) for s in scores)
    out = []
    for seat, mine in enumerate(scores):
        others = scores[:seat] + scores[seat + 1:]
        best = max(others)
        scale = max(5.0, 0.5 * max(abs(s) for s in others))
        out.append(0.5 + 0.5 * math.tanh((mine - best) / scale))
    return tuple(out)
