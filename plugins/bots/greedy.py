"""The ``greedy`` bot: the legal action that scores best right now, by the game's own scoring.

At each decision it samples one complete state from its view (`BotModel.sample`), plays
every legal action on it, and keeps the actions after which its seat is judged best
(`BotModel.judge`: the game's ``evaluate`` where it has one, else its ``score``; where it
acts alone, through `BotModel.judge_each`, the same figures for less where the game's
``evaluate_each`` answers).  An
action's consequences are played out as far as the action itself reaches: chance it
causes is resolved at random, and in a simultaneous step the other seats' choices are
drawn at random, so the step resolves and is judged whole.  Ties are broken
with the bot's own random stream, so with the same table seed it makes the same choices
in any process.

Where the game cannot sample a state or judge one (it offers no bot support, or one without
``score`` or ``evaluate``) it falls back to a uniform choice (``random``'s play), and says
so once (`hedgerow.core.botsupport.say_unsupported`).  A decision with more than `WIDEST`
legal actions (a Petals symbol effect lists over a thousand moves) weighs `WIDEST` of them
drawn at random, so that no decision takes more than a few milliseconds.  It takes no parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from hedgerow.core import Action, BotContext, BotSpec, hookimpl
from hedgerow.core.botmodel import BotModel, Sampled
from hedgerow.core.botsupport import say_unsupported
from hedgerow.core.rng import Rng

T = TypeVar("T")


def after_step(model: BotModel, state: Sampled[Any], seat: int, action: Action,
               rng: Rng) -> Sampled[Any]:
    """``state`` after ``seat`` plays ``action``; in a simultaneous step every other active
    seat plays a uniform choice against the same starting state, all applied in seat
    order; pending chance is resolved at random."""
    active = model.active_seats(state)
    if len(active) <= 1:
        return model.step(state, seat, action, rng)
    return apply_step(model, state, draws(model, state, active, seat, action, rng), rng)


def draws(model: BotModel, state: Sampled[Any], active: Sequence[int], seat: int,
          action: Action | None, rng: Rng) -> dict[int, Action]:
    """Every active seat's choice in a simultaneous step: ``action`` for ``seat`` (unless
    None), a uniform draw from its legal actions for every other, in ``active``'s order."""
    choices: dict[int, Action] = {}
    for who in active:
        if who == seat and action is not None:
            choices[who] = action
        else:
            legal = model.legal_actions(state, who)
            choices[who] = legal[rng.randbelow(len(legal))]
    return choices


def apply_step(model: BotModel, state: Sampled[Any], choices: dict[int, Action],
               rng: Rng) -> Sampled[Any]:
    """``state`` after a simultaneous step whose every choice is in ``choices``, applied in
    seat order; pending chance resolved at random."""
    for who in sorted(choices):
        state = model.step(state, who, choices[who], rng)
    return state


def tied_best(options: Iterable[T], value: Callable[[T], float]) -> list[T]:
    """The options of the highest ``value``, in their order (several when they tie), each
    valued once in that order; never empty for options (the first is kept until one
    compares higher)."""
    top = float("-inf")
    best: list[T] = []
    for option in options:
        judged = value(option)
        if judged > top or not best:
            top, best = judged, [option]
        elif judged == top:
            best.append(option)
    return best


def best_after(model: BotModel, state: Sampled[Any], seat: int, actions: Sequence[Action],
               rng: Rng) -> list[Action]:
    """The ``actions`` after which ``seat``, acting alone in ``state``, is judged best
    (`BotModel.judge_each`), in their order; several when they tie."""
    values = model.judge_each(state, seat, actions, rng)
    return [actions[j] for j in tied_best(range(len(actions)), values.__getitem__)]


#: The most actions a decision weighs (drawn at random from longer legal lists).
WIDEST = 256


class GreedyBot:
    """Best immediate score for its seat; ties and fallbacks by its own seeded stream."""

    def __init__(self, ctx: BotContext) -> None:
        self.model = ctx.model
        self.seat = ctx.seat
        self.rng = ctx.rng
        self.informed = ctx.model.can_sample and ctx.model.has_score
        if not ctx.model.can_sample:
            say_unsupported("greedy", ctx.model.game, "no bot support", "uniformly at random")
        elif not ctx.model.has_score:
            say_unsupported("greedy", ctx.model.game, "no score or evaluate in its bot support",
                            "uniformly at random")

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        """One of the best-scoring legal actions (a uniform one if the game cannot say)."""
        if len(legal) == 1 or not self.informed:
            return legal[self.rng.randbelow(len(legal))]
        model, seat, rng = self.model, self.seat, self.rng
        state = model.sample(view, rng)
        indices = scanned(len(legal), WIDEST, rng)
        if len(model.active_seats(state)) == 1:
            best = best_after(model, state, seat, [legal[i] for i in indices], rng)
            return best[rng.randbelow(len(best))]
        tied = tied_best(indices, lambda index: model.judge(
            after_step(model, state, seat, legal[index], rng), seat))
        return legal[tied[rng.randbelow(len(tied))]]


def subset(n: int, k: int, rng: Rng) -> list[int]:
    """``k`` distinct indices below ``n`` (``k < n``), drawn uniformly, in order."""
    chosen: set[int] = set()
    while len(chosen) < k:
        chosen.add(rng.randbelow(n))
    return sorted(chosen)


def scanned(n: int, k: int, rng: Rng) -> Sequence[int]:
    """The indices below ``n`` a decision weighs: all of them when they are at most ``k``,
    else ``k`` of them drawn uniformly (`subset`), in order."""
    return range(n) if n <= k else subset(n, k, rng)


def spec() -> BotSpec:
    """The ``greedy`` bot's registration."""
    return BotSpec(name="greedy", version="1.0.0", make=GreedyBot,
                   summary="plays the action that scores best right now (the game's own "
                           "scoring)")


@hookimpl
def hedgerow_register_bots(register: Callable[[BotSpec], None]) -> None:
    """The ``greedy`` bot (built-in plugin ``greedy-bot``)."""
    register(spec())
