"""The ``ismcts`` bot: single-observer information-set Monte Carlo tree search.

After Cowling, Powley & Whitehouse, *Information Set Monte Carlo Tree Search* (IEEE TCIAIG,
2012), as OpenSpiel's ``ismcts.py`` does it.  One tree per decision, its root the bot's
information set (its view).  Each iteration:

1. **Determinize**: take a complete state consistent with the view (`BotModel.sample`).
   A state costs a game's sampler about as much as ten ``apply`` calls, so the bot keeps a
   pool of ``samples`` states drawn once per decision and cycles through it (``samples=0``
   samples afresh every iteration).
2. **Select**: walk down the tree, at each node choosing among the actions legal *in this
   state* by UCB1 with availability counts (a child's exploration term uses how often it
   was available, not its parent's visits).  Long action lists stay lazy: a node widens
   progressively (a new child at random while it has fewer than ``1 + 2 sqrt(visits)``
   children) and its UCB only looks at the children it has.  At the root the legal actions
   are the ones the bot was given, the same in every sample: they are listed once and
   their UCB values kept in a list, refreshed as the visit count grows.
3. **Expand** one new child (a root action is first judged on its own, before any reply
   is searched below it), then **roll out**: ``rollout`` uniform random actions (``-1``:
   to the end of the game), and judge where it stopped: the `Outcome` when the game is
   over (`BotModel.rewards`), otherwise every seat's ``score`` now (`BotModel.estimate`).
4. **Back up** the reward of every seat: each node adds the reward of the seat that acted
   into it.

Chance is resolved at random inside iterations (`BotModel.settle`).  Simultaneous steps:
the searching seat chooses against the step's starting state (its tree node), the other
seats' choices in the step are drawn at random, and the step is applied whole in seat
order.  The final choice is the root action with the best mean reward among those visited
at least half as often as the most visited one.

Parameters (``--bot ismcts:PARAMS``), comma separated:

* a budget per move: ``2000`` (iterations), ``1s``, ``250ms``, ``1.5s`` (time); default
  ``1s``;
* ``c=0.7`` (UCB exploration constant), ``rollout=N`` (default 0: judge at once by the
  score), ``samples=N`` (pool size, default 32), ``nodes=N`` (memory bound: the tree stops
  growing at N nodes and keeps at most N/4 states, default 200000).

Determinism: only the bot's own stream (``BotContext.rng``) is used, so with an iteration
budget the same seed gives the same moves in any process.  A time budget makes the number
of iterations depend on the machine and its load, so those games are not reproducible.
Where the game cannot sample a state from a view the bot plays uniformly at random.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hedgerow.core import Action, BotContext, BotSpec, hookimpl
from hedgerow.core.botmodel import BotModel, Sampled
from hedgerow.core.rng import Rng

PARAMS_HELP = ("a budget per move, N iterations or a time (1s, 250ms; default 1s), then "
               "optionally c=FLOAT, rollout=N (-1: to the end), samples=N, nodes=N")


@dataclass(frozen=True, slots=True)
class Params:
    """What ``ismcts:...`` asks for (see the module docstring)."""

    iterations: int | None = None
    seconds: float | None = 1.0
    c: float = 0.7
    rollout: int = 0
    samples: int = 32
    nodes: int = 200_000


def parse_params(text: str) -> Params:
    """``"1s"``, ``"250ms"``, ``"2000,c=1.0,rollout=4"`` -> `Params`; ValueError otherwise."""
    fields: dict[str, Any] = {}
    for raw in (p.strip() for p in text.split(",")) if text.strip() else ():
        if not raw:
            raise ValueError(f"empty parameter in {text!r}")
        key, eq, value = raw.partition("=")
        if not eq:
            if "seconds" in fields:
                raise ValueError(f"two budgets in {text!r}")
            fields.update(_budget(raw))
            continue
        key, value = key.strip(), value.strip()
        if key == "c":
            fields["c"] = _number(key, value, float, 0.0)
        elif key in ("rollout", "samples", "nodes"):
            low = {"rollout": -1, "samples": 0, "nodes": 1}[key]
            fields[key] = _number(key, value, int, low)
        else:
            raise ValueError(f"unknown parameter {key!r}")
    return Params(**fields)


def _budget(raw: str) -> dict[str, Any]:
    text = raw.lower()
    try:
        if text.endswith("ms"):
            seconds = float(text[:-2]) / 1000.0
        elif text.endswith("s"):
            seconds = float(text[:-1])
        else:
            iterations = int(text)
            if iterations < 1:
                raise ValueError
            return {"iterations": iterations, "seconds": None}
    except ValueError:
        raise ValueError(f"bad budget {raw!r}: write iterations (2000) or a time "
                         "(1s, 250ms)") from None
    if not 0.0 < seconds <= 3600.0 or math.isnan(seconds):
        raise ValueError(f"bad budget {raw!r}: a time between 1ms and 3600s")
    return {"iterations": None, "seconds": seconds}


def _number(key: str, value: str, kind: type, low: float) -> Any:
    try:
        number = kind(value)
    except ValueError:
        raise ValueError(f"{key}={value!r} is not a {'number' if kind is float else 'whole number'}"
                         ) from None
    if not number >= low or (kind is float and math.isinf(number)):
        raise ValueError(f"{key}={value!r} must be at least {low:g}")
    return number


def check_params(text: str) -> None:
    """Raise ValueError when ``text`` is not a valid ``ismcts`` parameter string."""
    parse_params(text)


#: Legal lists up to this long are walked whole at a node (the textbook ISMCTS choice).
SHORT = 24


class Node:
    """A tree node below the root: the decision after a path of actions.  ``visits`` and
    ``total`` (rewards of the seat that acted into it) and ``avail`` (times it could be
    chosen) are this node's statistics as its parent's child."""

    __slots__ = ("avail", "children", "states", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        #: The state at this node for each pool sample that reached it (see `_enter`).
        self.states: dict[int, Sampled[Any]] | None = None
        self.visits = 0
        self.avail = 1
        self.total = 0.0


class IsmctsBot:
    """Information-set MCTS for one seat (see the module docstring)."""

    def __init__(self, ctx: BotContext) -> None:
        self.model: BotModel = ctx.model
        self.seat = ctx.seat
        self.rng = ctx.rng
        self.params = parse_params(ctx.params)
        #: Iterations run by the last `choose` (for benches and tests).
        self.last_iterations = 0
        self._nodes = 0
        self._cached = 0

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        """The most visited root action after the budget's iterations."""
        rng = self.rng
        if len(legal) == 1:
            return legal[0]
        if not self.model.can_sample:
            return legal[rng.randbelow(len(legal))]
        return self._search(view, list(legal))

    # -- the search --------------------------------------------------------------------------

    def _search(self, view: Any, actions: list[Action]) -> Action:
        model, rng, params, me = self.model, self.rng, self.params, self.seat
        n = len(actions)
        vis = [0] * n
        tot = [0.0] * n
        subtrees = [Node() for _ in range(n)]
        ucb = [math.inf] * n
        order = list(range(n))
        rng.shuffle(order)  # untried root actions are tried in a random order
        untried = n
        c = params.c
        self._nodes = n
        self._cached = 0
        pool: list[Sampled[Any]] = []
        size = params.samples
        limit = params.iterations
        deadline = None if params.seconds is None else time.monotonic() + params.seconds
        refresh_at = 2 * n
        done = 0
        log = math.log
        sqrt = math.sqrt
        while True:
            if limit is not None:
                if done >= limit:
                    break
            elif done & 7 == 0 and deadline is not None and time.monotonic() >= deadline:
                break
            if untried:
                untried -= 1
                i = order[untried]
            else:
                i = ucb.index(max(ucb))
            if size:
                # The j-th visit of a root action uses pool sample j mod size, so states
                # kept on the tree for that sample are met again from the size-th visit on.
                k = vis[i] % size
                if k >= len(pool):
                    pool.append(model.sample(view, rng))
                    k = len(pool) - 1
                state = pool[k]
            else:
                k = -1
                state = model.sample(view, rng)
            if vis[i]:
                rewards = self._descend(state, actions[i], subtrees[i], k)
            else:  # a root action's first visit judges the action itself
                rewards = self._rollout(self._enter(subtrees[i], state, me, actions[i], k))
            done += 1
            r = rewards[me]
            vis[i] += 1
            tot[i] += r
            v = vis[i]
            if not untried:
                if done >= refresh_at:
                    refresh_at = done + done // 16 + 1
                    logn = log(done)
                    ucb = [tot[k] / vis[k] + c * sqrt(logn / vis[k]) for k in range(n)]
                else:
                    ucb[i] = tot[i] / v + c * sqrt(log(done) / v)
            elif untried == 0:
                logn = log(done)
                ucb = [tot[k] / vis[k] + c * sqrt(logn / vis[k]) for k in range(n)]
        self.last_iterations = done
        # The best mean reward among the actions visited at least half as often as the most
        # visited one (the most visited alone is noise while visits are few and even).
        floor = max(vis) / 2
        means = [tot[k] / vis[k] if vis[k] and vis[k] >= floor else -1.0 for k in range(n)]
        top = max(means)
        best = [k for k in range(n) if means[k] == top]
        return actions[best[rng.randbelow(len(best))] if len(best) > 1 else best[0]]

    def _descend(self, state: Sampled[Any], first: Action, node: Node,
                 k: int) -> tuple[float, ...]:
        """One iteration below the root: ``first`` played in ``state`` (pool sample ``k``,
        -1 for a fresh one), then tree, rollout, backup.  Returns every seat's reward."""
        model, rng, me, c = self.model, self.rng, self.seat, self.params.c
        state = self._enter(node, state, me, first, k)
        path: list[tuple[Node, int]] = []
        expanded = False
        while not expanded:
            active = model.active_seats(state)
            if not active:
                break
            if len(active) == 1:
                seat = active[0]
            elif me in active:
                seat = me
            else:
                state = _play(model, state, -1, None, rng)
                continue
            legal = model.legal_actions(state, seat)
            action, child, expanded = self._select(node, legal, c)
            if child is None:  # the tree is full: go on without growing it
                state = _play(model, state, seat, action, rng)
                break
            state = self._enter(child, state, seat, action, k)
            path.append((child, seat))
            node = child
        rewards = self._rollout(state)
        for child, seat in path:
            child.visits += 1
            child.total += rewards[seat]
        return rewards

    def _enter(self, node: Node, state: Sampled[Any], seat: int, action: Action,
               k: int) -> Sampled[Any]:
        """The state at ``node``: ``state`` after ``seat`` plays ``action``.  For pool sample
        ``k`` it is computed once and kept on the node (chance it causes is then fixed for
        that sample, as the hidden cards are); a simultaneous step, whose other choices are
        drawn afresh each time, is never kept."""
        states = node.states
        if k >= 0 and states is not None:
            known = states.get(k)
            if known is not None:
                return known
        model = self.model
        after = _play(model, state, seat, action, self.rng)
        if (k >= 0 and self._cached < self.params.nodes // 4
                and len(model.active_seats(state)) == 1):
            if states is None:
                states = node.states = {}
            states[k] = after
            self._cached += 1
        return after

    def _select(self, node: Node, legal: Sequence[Action],
                c: float) -> tuple[Action, Node | None, bool]:
        """A child of ``node`` among ``legal``: widen at random, else UCB over the children
        legal here.  Returns the action, its node (None when the tree is full) and whether
        the node is new."""
        children = node.children
        n = len(legal)
        count = len(children)
        if n <= SHORT or n <= count:
            return self._select_listed(node, legal, c)
        if count < n and count * count < 4 * node.visits + 1:
            action = legal[self.rng.randbelow(n)] if n > 1 else legal[0]
            return self._child(children, action)
        best: Node | None = None
        best_action: Action | None = None
        top = -1.0
        for action, child in children.items():
            if action in legal:
                child.avail += 1
                visits = child.visits
                if not visits:
                    return action, child, False
                value = child.total / visits + c * math.sqrt(math.log(child.avail) / visits)
                if value > top:
                    top, best, best_action = value, child, action
        if best is None or best_action is None:
            return self._child(children, legal[self.rng.randbelow(n)])
        return best_action, best, False

    def _select_listed(self, node: Node, legal: Sequence[Action],
                       c: float) -> tuple[Action, Node | None, bool]:
        """The textbook choice for a short legal list: an untried action if there is one,
        else UCB with availability over the children legal here."""
        children = node.children
        untried: list[Action] = []
        best: Node | None = None
        best_action: Action | None = None
        top = -1.0
        log, sqrt = math.log, math.sqrt
        for action in legal:
            child = children.get(action)
            if child is None:
                untried.append(action)
                continue
            child.avail += 1
            if untried:
                continue
            visits = child.visits
            if not visits:
                return action, child, False
            value = child.total / visits + c * sqrt(log(child.avail) / visits)
            if value > top:
                top, best, best_action = value, child, action
        if untried:
            pick = untried[self.rng.randbelow(len(untried))] if len(untried) > 1 else untried[0]
            return self._child(children, pick)
        assert best is not None and best_action is not None
        return best_action, best, False

    def _child(self, children: dict[Action, Node],
               action: Action) -> tuple[Action, Node | None, bool]:
        child = children.get(action)
        if child is not None:
            return action, child, False
        if self._nodes >= self.params.nodes:
            return action, None, True
        self._nodes += 1
        child = children[action] = Node()
        return action, child, True

    def _rollout(self, state: Sampled[Any]) -> tuple[float, ...]:
        """``rollout`` random actions from ``state``, then judge it."""
        model, rng = self.model, self.rng
        steps = self.params.rollout
        while steps:
            if not model.active_seats(state):
                break
            state = _play(model, state, -1, None, rng)
            steps -= 1
        outcome = model.outcome(state)
        if outcome is not None:
            return model.rewards(outcome)
        return model.estimate(state)


def _play(model: BotModel, state: Sampled[Any], seat: int, action: Action | None,
          rng: Rng) -> Sampled[Any]:
    """``state`` after one decision: ``seat`` plays ``action`` (every other seat active in a
    simultaneous step plays a uniform choice against the same starting state); ``seat``
    -1 means every active seat plays a uniform choice.  Chance is resolved at random."""
    active = model.active_seats(state)
    if len(active) == 1:
        who = active[0]
        if who != seat or action is None:
            legal = model.legal_actions(state, who)
            action = legal[rng.randbelow(len(legal))]
        return model.step(state, who, action, rng)
    choices: list[tuple[int, Action]] = []
    for who in active:
        if who == seat and action is not None:
            choices.append((who, action))
        else:
            legal = model.legal_actions(state, who)
            choices.append((who, legal[rng.randbelow(len(legal))]))
    for who, choice in sorted(choices, key=lambda pair: pair[0]):
        state = model.step(state, who, choice, rng)
    return state


def spec() -> BotSpec:
    """The ``ismcts`` bot's registration."""
    return BotSpec(name="ismcts", version="1.0.0", make=IsmctsBot,
                   summary="information-set Monte Carlo tree search (budget: ismcts:1s, "
                           "ismcts:2000)",
                   check=check_params, params_help=PARAMS_HELP)


@hookimpl
def hedgerow_register_bots(register: Callable[[BotSpec], None]) -> None:
    """The ``ismcts`` bot (built-in plugin ``ismcts-bot``)."""
    register(spec())
