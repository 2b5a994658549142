"""The ``ismcts`` bot: single-observer information-set Monte Carlo tree search.

This module owns the bot: its parameters (`Params`, `parse_params`, `check_params`), the search
(`IsmctsBot`: one tree per decision, its root the bot's view; root candidates ranked by a
one-ply prior, iterations over states sampled from the view, leaves judged by the game's
bot support) and its registration (`spec`).  The design, step by step, and what every
parameter does are in docs/ismcts.md; the measurements behind each choice in
bench/README.md ("ISMCTS").

It thinks only through its `BotModel`: states sampled from its view, played on with the
rules, judged by the game's ``evaluate`` (else ``score``).  The game's hints
(``BotModel.lookahead``, ``BotModel.for_themselves``) set how many of its own turns the
tree spans and how the other seats are played, unless its parameters say otherwise.
Only the bot's own stream (``BotContext.rng``) is used, so with an iteration budget the
same seed gives the same moves in any process; a time budget does not replay.  Where the
game offers no bot support it plays uniformly at random, and says so once.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from hedgerow.core import Action, BotContext, BotSpec, hookimpl
from hedgerow.core.botmodel import BotModel, Sampled
from hedgerow.core.botsupport import say_unsupported
from hedgerow.core.rng import Rng
from hedgerow.plugins.bots.greedy import (
    WIDEST,
    apply_step,
    best_after,
    draws,
    scanned,
    subset,
)

PARAMS_HELP = ("a budget per move, N iterations or a time (1s, 250ms; default 1s), then "
               "optionally c=FLOAT, rollout=N (-1: to the end), samples=N, nodes=N, "
               "top=K (root candidates kept, default 8, 0: all), bias=M (visits the one-ply prior "
               "counts for), turns=D (own turns the tree spans, 0: any), parity=0|1|2 (2: the "
               "others' last replies their own best), "
               "order=0|1|2 (children made best one-ply first; 2: by the acting seat's own judge), "
               "scan=N (actions judged to order a node), others=R (draws the others' "
               "simultaneous choice is the best of, 1: uniform), policy=K (the others always play "
               "their best of the K likeliest; 0: never; default: where the order fails, or "
               "everywhere where the game says the others play for themselves), tempo=0|1|2 "
               "(leaves judged as they are, after the bot's own best move, or the mean of "
               "both; default 2 where the game says the seat to move has an edge, else 0)")


@dataclass(frozen=True, slots=True)
class Params:
    """What ``ismcts:...`` asks for (docs/ismcts.md)."""

    iterations: int | None = None
    seconds: float | None = 1.0
    c: float = 0.7
    rollout: int = 0
    samples: int = 32
    nodes: int = 200_000
    top: int = 8
    turns: int | None = None
    order: int = 1
    bias: int = 10
    parity: int | None = None
    others: int = 4
    scan: int = WIDEST
    policy: int | None = None
    tempo: int | None = None


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
        elif key in ("rollout", "samples", "nodes", "top", "bias", "parity", "turns",
                     "order", "others", "scan", "policy", "tempo"):
            if key in ("order", "tempo") and value.strip() not in ("0", "1", "2"):
                raise ValueError(f"{key}={value!r} must be 0, 1 or 2")
            low = {"rollout": -1, "samples": 0, "nodes": 1, "top": 0, "bias": 0,
                   "parity": 0, "turns": 0, "order": 0, "others": 1, "scan": 1,
                   "policy": 0, "tempo": 0}[key]
            fields[key] = _number(key, value, int, low)
            if key == "parity" and fields[key] > 2:
                raise ValueError(f"parity={value!r} must be 0, 1 or 2")
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


#: How far a won (lost) finish ranks above (below) any points, ordering with ``order=2``.
FINISHED = 1e9

#: The least scale of a lead, in points, when judgements become rewards (`IsmctsBot._frame`).
MIN_SCALE = 5.0
#: The most random replies a rollout plays to get back to the bot's seat (``parity=1``).
PARITY_STEPS = 8

#: Legal lists up to this long are walked whole at a node (the textbook ISMCTS choice).
SHORT = 24

#: The pool samples a root action's prior is averaged over where the bot acts again after
#: it and sees what the samples disagree on (`IsmctsBot._through`).
THROUGH = 8


class Node:
    """A tree node below the root: the decision after a path of actions.  ``visits`` and
    ``total`` (rewards of the seat that acted into it) and ``avail`` (times it could be
    chosen) are this node's statistics as its parent's child."""

    __slots__ = ("avail", "children", "legal_of", "order", "picked", "seen", "seen_of",
                 "states", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        #: The state at this node for each pool sample that reached it (see `_enter`).
        self.states: dict[int, Sampled[Any]] | None = None
        #: For a pool sample whose state is kept here: how many children (in the order
        #: they were made) were checked against that state's legal actions, and the legal
        #: ones (a lazy legal list's ``in`` costs about as much as reading the action).
        self.legal_of: dict[int, tuple[int, list[tuple[Action, Node]]]] | None = None
        #: The actions in the order new children are made, best one-ply value first for
        #: the seat acting here (`IsmctsBot._order`); None: at random.
        self.order: list[Action] | None = None
        #: ``policy=K``: the other seat's choice here in each kept pool sample.
        self.picked: dict[int, Action] | None = None
        #: Where the bot is to act alone: the node for each thing it may see here (its
        #: view), and the one each kept pool sample leads to (`IsmctsBot._seen`).
        self.seen: dict[object, Node] | None = None
        self.seen_of: dict[int, Node] | None = None
        self.visits = 0
        self.avail = 1
        self.total = 0.0


class IsmctsBot:
    """Information-set MCTS for one seat (docs/ismcts.md)."""

    def __init__(self, ctx: BotContext) -> None:
        self.model: BotModel = ctx.model
        self.seat = ctx.seat
        self.rng = ctx.rng
        self.params = parse_params(ctx.params)
        #: Iterations run by the last `choose` (for benches and tests).
        self.last_iterations = 0
        #: The root candidates of the last search, best prior first: (action, prior,
        #: visits, mean reward or None) (for benches and tests).
        self.last_root: list[tuple[Action, float, int, float | None]] = []
        self._nodes = 0
        self._cached = 0
        #: This search has seen the bot's view differ between samples at one of its
        #: decisions (`_seen`, `_through`): a split node is then ordered on its first visit.
        self._differ = False
        self._scale = MIN_SCALE
        self._team = False
        #: The bot's turns the tree spans: ``turns=`` if given, else the game's lookahead.
        self.turns = (self.params.turns if self.params.turns is not None
                      else self.model.lookahead)
        #: How the other seats are played: ``policy=``/``parity=`` if given, else by the
        #: game's hint (`BotModel.for_themselves`: their own best everywhere).
        mine = self.model.for_themselves
        self.policy = (self.params.policy if self.params.policy is not None
                       else WIDEST if mine else None)
        self.parity = (self.params.parity if self.params.parity is not None
                       else 2 if mine else 1)
        #: How a leaf with the bot to move is judged: ``tempo=`` if given, else by the
        #: game's hint (`BotModel.tempo`: the mean of the leaf and the leaf after the bot's
        #: own best move).
        self.tempo = (self.params.tempo if self.params.tempo is not None
                      else 2 if self.model.tempo else 0)
        if not self.model.can_sample:
            say_unsupported("ismcts", self.model.game, "no bot support",
                            "uniformly at random")
        elif not self.model.has_score and self.params.rollout != -1:
            say_unsupported("ismcts", self.model.game, "no score or evaluate in its bot "
                            "support", "blind to every position short of the end (try "
                            "ismcts:...,rollout=-1 to play each iteration to the end)")

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        """The best root candidate after the budget's iterations (docs/ismcts.md)."""
        rng = self.rng
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        if not self.model.can_sample:
            return legal[rng.randbelow(len(legal))]
        return self._search(view, list(legal))

    # -- the search --------------------------------------------------------------------------

    def _search(self, view: Any, actions: list[Action]) -> Action:
        model, rng, params = self.model, self.rng, self.params
        self._nodes = 0
        self._cached = 0
        self._differ = False
        size = params.samples
        deadline = None if params.seconds is None else time.monotonic() + params.seconds
        first = model.sample(view, rng)
        pool: list[Sampled[Any]] = [first] if size else []
        cands, priors, subtrees = self._rank(first, actions, view, pool)
        n = len(cands)
        m = float(params.bias)
        c = params.c
        vis = [0] * n
        tot = [0.0] * n
        # The prior counts as m visits of its value.  It judges the state right after the
        # bot's move, the search after the others' replies too, which lowers every action
        # alike: the prior is shifted by the mean gap seen so far between a visit's reward
        # and its action's prior, so that it ranks without pulling the level.
        lean = [m * p for p in priors]
        gap = 0.0
        log, sqrt = math.log, math.sqrt
        ucb = [(lean[i] / m if m else math.inf) + c for i in range(n)]
        limit = params.iterations
        refresh_at = 2 * n
        done = 0
        while True:
            if limit is not None:
                if done >= limit:
                    break
            elif done & 7 == 0 and deadline is not None and time.monotonic() >= deadline:
                break
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
            subtree = subtrees[i]
            rewards = self._descend(state, cands[i], subtree, k)
            done += 1
            r = rewards[self.seat]
            subtree.visits += 1  # its progressive widening counts its visits
            subtree.total += r
            vis[i] += 1
            tot[i] += r
            gap += r - priors[i]
            shift = m * gap / done
            logn = log(done + 1)
            if done >= refresh_at:
                refresh_at = done + done // 16 + 1
                ucb = [(tot[j] + lean[j] + shift) / (vis[j] + m) + c * sqrt(logn / (vis[j] + 1))
                       if vis[j] + m > 0 else math.inf for j in range(n)]
            else:
                v = vis[i]
                ucb[i] = (tot[i] + lean[i] + shift) / (v + m) + c * sqrt(logn / (v + 1))
        self.last_iterations = done
        # The best value (the prior counted as m visits) among the actions visited at least
        # half as often as the most visited one (the most visited alone is noise while
        # visits are few and even); with no search at all, the best prior: greedy's choice.
        floor = max(vis) / 2
        shift = m * gap / done if done else 0.0
        values = [(tot[j] + lean[j] + shift) / (vis[j] + m) if vis[j] + m > 0 else priors[j]
                  for j in range(n)]
        best = max((j for j in range(n) if vis[j] >= floor), key=lambda j: values[j])
        self.last_root = [(cands[j], priors[j], vis[j], tot[j] / vis[j] if vis[j] else None)
                          for j in range(n)]
        return cands[best]

    def _rank(self, state: Sampled[Any], actions: list[Action], view: Any,
              pool: list[Sampled[Any]]) -> tuple[list[Action], list[float], list[Node]]:
        """The root candidates, best first by their one-ply value in ``state`` (the first
        pool sample): each action is played and the state after it judged, as ``greedy``
        does (ties in an order drawn from the bot's stream, equal rewards, such as two
        won finishes, by the seat's own judgement as ``greedy`` ranks).  Also fixes how
        this search squashes judgements into rewards (`_frame`).  Keeps the ``top`` best;
        lists longer than `WIDEST` are weighed on a uniform subset, as ``greedy`` does.
        An action after which the bot acts again, having seen something the samples
        disagree on, is judged one decision further (`_through`)."""
        model, rng, me = self.model, self.rng, self.seat
        n = len(actions)
        indices = list(scanned(n, WIDEST, rng))
        rng.shuffle(indices)
        k = 0 if self.params.samples else -1
        afters: list[tuple[int, Node, Sampled[Any], tuple[float, ...] | None]] = []
        for i in indices:
            node = Node()
            after = self._enter(node, state, me, actions[i], k)
            afters.append((i, node, after, model.judges(after)))
        self._nodes = len(afters)
        self._frame(model.judges(state), [judged for *_, judged in afters])
        keyed = []
        alone = len(model.active_seats(state)) == 1
        for i, node, after, judged in afters:
            outcome = model.outcome(after)
            if outcome is not None:
                reward = model.rewards(outcome)[me]
            else:
                reward = self._reward(judged)[me]
                if alone and model.active_seats(after) == (me,):
                    through = self._through(node, actions[i], after, view, pool)
                    if through is not None:
                        reward = through
            keyed.append((reward, judged[me] if judged is not None else 0.0, i, node))
        keyed.sort(key=lambda t: (-t[0], -t[1]))
        keyed = keyed[:self.params.top or len(keyed)]
        return ([actions[i] for _, _, i, _ in keyed], [p for p, *_ in keyed],
                [node for *_, node in keyed])

    def _through(self, node: Node, action: Action, after: Sampled[Any], view: Any,
                 pool: list[Sampled[Any]]) -> float | None:
        """The prior of a root ``action`` after which the bot acts again and sees something
        the samples disagree on (FLOWERS' card taken face down): the mean, over `THROUGH`
        pool samples (drawn now where the pool is shorter), of the best reward of its next
        decision in each, one ply as ``greedy`` judges (on a subset of at most ``scan``
        actions).  Judged after the action alone, a card taken but not placed yet adds
        nothing, so such an action would rank last and never be searched.  None where the
        first two samples show the bot the same view (nothing seen, as after a Petals
        symbol: the plain prior stands).  The states after ``action`` are kept on
        ``node`` for the search."""
        model, rng, me = self.model, self.rng, self.seat
        size = self.params.samples
        scan = min(WIDEST, self.params.scan)
        first = model.view(after, me)
        afters = [after]
        for j in range(1, THROUGH if size == 0 else min(THROUGH, size)):
            if size:
                while len(pool) <= j:
                    pool.append(model.sample(view, rng))
                other = self._enter(node, pool[j], me, action, j)
            else:
                other = self._enter(node, model.sample(view, rng), me, action, -1)
            if j == 1:
                if model.view(other, me) == first:
                    return None
                self._differ = True
            afters.append(other)
        if len(afters) < 2:
            return None
        total = 0.0
        for state in afters:
            if model.active_seats(state) != (me,):
                total += self._judge(state)[me]
                continue
            legal = model.legal_actions(state, me)
            total += max(self._judge(_play(model, state, me, legal[t], rng))[me]
                         for t in scanned(len(legal), scan, rng))
        return total / len(afters)

    def _seen(self, node: Node, state: Sampled[Any], k: int) -> Node:
        """Where the bot is to act alone at ``node``: the node below it for what the bot
        sees in ``state``.  What it saw on the way (the card it drew, a card turned face
        up) may differ between samples, and what it does next depends on it, so the tree
        splits here by the bot's view, as single-observer ISMCTS keys a node by the
        searching player's information set (one node where every sample shows the same).
        Remembered per kept pool sample ``k``, whose state is kept below the split too; no
        split once the tree is full."""
        memo = node.seen_of
        if k >= 0 and memo is not None:
            found = memo.get(k)
            if found is not None:
                return found
        seen = node.seen
        if seen is None:
            seen = node.seen = {}
        key: object = self.model.view(state, self.seat)
        try:
            sub = seen.get(key)
        except TypeError:  # a view that cannot be hashed: every sample sees the same
            key = None
            sub = seen.get(key)
        if sub is None:
            if self._nodes >= self.params.nodes:
                return node
            self._nodes += 1
            sub = seen[key] = Node()
            if len(seen) > 1:
                self._differ = True
        if k >= 0 and node.states is not None and k in node.states:
            if memo is None:
                memo = node.seen_of = {}
            memo[k] = sub
            # The same state, kept for the sample below the split too.
            if sub.states is None:
                sub.states = {}
            sub.states[k] = state
        return sub

    def _frame(self, root: tuple[float, ...] | None,
               afters: list[tuple[float, ...] | None]) -> None:
        """Fix, for one decision, how judgements become rewards (`_reward`), from every
        seat's judgement at the root (``root``) and after each root action (``afters``).
        The game judges the team when every seat is judged alike after every root action:
        then the figure itself is squashed, as there is no lead to measure.  Otherwise the
        scale of a lead is the largest of `MIN_SCALE`, half the largest judgement at the
        root, and the largest lead after a root action, so that the search's leads fall
        where ``tanh`` still tells them apart."""
        self._scale = MIN_SCALE
        self._team = self.model.players == 1
        if root is None:
            return
        scale = max(MIN_SCALE, 0.5 * max(abs(j) for j in root))
        team = True
        for judged in afters:
            if judged is None or len(judged) < 2:
                continue
            if min(judged) != max(judged):
                team = False
            for seat, mine in enumerate(judged):
                scale = max(scale, abs(mine - max(judged[:seat] + judged[seat + 1:])))
        self._scale = scale
        self._team = self._team or team

    def _judge(self, state: Sampled[Any]) -> tuple[float, ...]:
        """Every seat's reward in [0, 1] for ``state``: the `Outcome`'s when it is over,
        else squashed from every seat's ``judge`` (`_reward`)."""
        model = self.model
        outcome = model.outcome(state)
        if outcome is not None:
            return model.rewards(outcome)
        return self._reward(model.judges(state))

    def _own(self, state: Sampled[Any], seat: int) -> float:
        """``seat``'s own judgement of ``state``, for ordering with ``order=2``: its
        ``judge`` alone (one call, not every seat's; the others' prospects left out), a
        finished game won or lost first or last whatever the points, ties by the points
        (0 when the game judges nothing), as the root ranking breaks them."""
        model = self.model
        outcome = model.outcome(state)
        points = model.judge(state, seat) if model.has_score else 0.0
        if outcome is not None:
            points += (model.rewards(outcome)[seat] - 0.5) * FINISHED
        return points

    def _reward(self, judged: tuple[float, ...] | None) -> tuple[float, ...]:
        """Every seat's reward in (0, 1) from every seat's ``judge`` (the game's
        ``evaluate``), with one scale for the whole decision (`_frame`): a seat's lead over
        the best other seat, ``0.5 + 0.5 tanh(lead / scale)`` (zero-sum between two seats),
        or for a team the figure itself, ``0.5 + 0.5 tanh(figure / 50)``; 0.5 each when the
        game judges nothing."""
        if judged is None:
            return (0.5,) * self.model.players
        tanh = math.tanh
        if self._team:
            return tuple(0.5 + 0.5 * tanh(j / 50.0) for j in judged)
        scale = self._scale
        if len(judged) == 2:
            r = 0.5 + 0.5 * tanh((judged[0] - judged[1]) / scale)
            return (r, 1.0 - r)
        out = []
        for seat, mine in enumerate(judged):
            best = max(judged[:seat] + judged[seat + 1:])
            out.append(0.5 + 0.5 * tanh((mine - best) / scale))
        return tuple(out)

    def _descend(self, state: Sampled[Any], first: Action, node: Node,
                 k: int) -> tuple[float, ...]:
        """One iteration below the root: ``first`` played in ``state`` (pool sample ``k``,
        -1 for a fresh one), then tree, rollout, backup.  Returns every seat's reward."""
        model, rng, me, c = self.model, self.rng, self.seat, self.params.c
        # ``waited``: another seat acted since the bot's last decision; a decision of the
        # bot after that starts one of its turns, and the tree spans ``turns`` of them.
        waited = len(model.active_seats(state)) > 1
        turns = self.turns
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
                state = self._step(state, -1, None)
                waited = True
                continue
            alone = seat == me and len(active) == 1
            if seat == me and waited:
                turns -= 1
                if not turns:
                    break  # the bot's turn again, the others' replies seen: judge here
                waited = False
            if len(active) > 1 or seat != me:
                waited = True
            fresh = False  # a node split by what the bot sees: ordered on its first visit
            if alone:
                split = self._seen(node, state, k)
                if split is not node:
                    fresh = not split.visits and self._differ
                    node = split
                    path.append((node, me))
            legal = model.legal_actions(state, seat)
            if (node.order is None and (node.visits or fresh) and self.params.order
                    and len(legal) > 1):
                node.order = self._order(state, seat, legal)
            kept = k if k >= 0 and node.states is not None and k in node.states else -1
            if seat != me and self._for_itself(node, legal, kept):
                action, child, expanded = self._policy(node, state, seat, legal, kept)
            else:
                action, child, expanded = self._select(node, legal, c, kept)
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
        after = self._step(state, seat, action)
        if (k >= 0 and self._cached < self.params.nodes // 4
                and len(model.active_seats(state)) == 1):
            if states is None:
                states = node.states = {}
            states[k] = after
            self._cached += 1
        return after

    def _step(self, state: Sampled[Any], seat: int, action: Action | None) -> Sampled[Any]:
        """`_play` in the tree: in a simultaneous step each other seat's choice is, with
        ``others=R`` above 1, the best by its own ``judge`` of R uniform draws (the step
        applied whole for each, the rest of the seats' choices fixed)."""
        model, rng, tries = self.model, self.rng, self.params.others
        active = model.active_seats(state)
        if tries <= 1 or len(active) < 2 or not model.has_score:
            return _play(model, state, seat, action, rng)
        choices = draws(model, state, active, seat, action, rng)
        after: Sampled[Any] | None = None
        for who in active:
            if who == seat and action is not None:
                continue
            legal = model.legal_actions(state, who)
            top = -math.inf
            for _ in range(tries if len(legal) > 1 else 1):
                choice = legal[rng.randbelow(len(legal))]
                tried = apply_step(model, state, {**choices, who: choice}, rng)
                value = model.judge(tried, who)
                if value > top or after is None:
                    top, after, choices[who] = value, tried, choice
        assert after is not None
        return after

    def _for_itself(self, node: Node, legal: Sequence[Action], k: int = -1) -> bool:
        """Whether another seat's decision at ``node`` is its own best (`_policy`) rather
        than searched (`_select`): always with ``policy=K`` above 0, never with 0, and by
        default where the node's order (made in another sample) knows none of the actions
        legal here and they are more than `SHORT` (known without looking when its choice
        in kept pool sample ``k`` is remembered: the order and that state do not
        change)."""
        order = node.order
        if order is None:
            return False
        policy = self.policy
        if policy is None:
            picked = node.picked
            return ((picked is not None and k in picked)
                    or (len(legal) > SHORT and not _knows(order, legal)))
        return policy > 0

    def _policy(self, node: Node, state: Sampled[Any], seat: int, legal: Sequence[Action],
                k: int) -> tuple[Action, Node | None, bool]:
        """``policy=K``: another seat's choice at its own turn, the best by its own ``judge``
        of the first K actions of the node's order legal here, or of every legal action
        (at most ``scan``) when the order, made in another sample, has none of them (the
        seat's hidden hand differs there); ties broken at random.  Remembered for a kept
        state."""
        picked = node.picked
        action = picked.get(k) if picked is not None and k >= 0 else None
        if action is None:
            action = self._own_best(state, seat,
                                    _likely(node.order or [], legal, self.policy or 1))
            if k >= 0:
                if picked is None:
                    picked = node.picked = {}
                picked[k] = action
        return self._child(node.children, action)

    def _own_best(self, state: Sampled[Any], seat: int, options: Sequence[Action]) -> Action:
        """``seat``'s best of ``options`` by its own ``judge`` (at most ``scan`` of them,
        drawn at random from a longer list), as ``greedy`` plays: among equally good actions
        the seat is indifferent, so one at random, as ``greedy`` breaks its ties."""
        rng = self.rng
        scan = min(WIDEST, self.params.scan)
        if len(options) > scan:
            options = [options[i] for i in subset(len(options), scan, rng)]
        best = best_after(self.model, state, seat, options, rng)
        return best[rng.randbelow(len(best))] if len(best) > 1 else best[0]

    def _select(self, node: Node, legal: Sequence[Action], c: float,
                k: int = -1) -> tuple[Action, Node | None, bool]:
        """A child of ``node`` among ``legal``: widen at random, else UCB over the children
        legal here.  ``k``: the pool sample whose kept state this is (-1: none), so that
        which children are legal in it is worked out once.  Returns the action, its node
        (None when the tree is full) and whether the node is new."""
        children = node.children
        n = len(legal)
        count = len(children)
        if n <= SHORT or n <= count:
            return self._select_listed(node, legal, c)
        if count < n and count * count < 4 * node.visits + 1:
            ordered = _next(node, legal) if node.order is not None else None
            if ordered is not None:
                return self._child(children, ordered)
            action = legal[self.rng.randbelow(n)] if n > 1 else legal[0]
            return self._child(children, action)
        best: Node | None = None
        best_action: Action | None = None
        top = -1.0
        here: Iterable[tuple[Action, Node]]
        if k >= 0:
            memo = node.legal_of
            if memo is None:
                memo = node.legal_of = {}
            seen, here = memo.get(k, (0, []))
            if seen < count:
                here.extend(pair for pair in islice(children.items(), seen, None)
                            if pair[0] in legal)
                memo[k] = (count, here)
        else:
            here = [pair for pair in children.items() if pair[0] in legal]
        log, sqrt = math.log, math.sqrt
        for action, child in here:
            child.avail += 1
            visits = child.visits
            if not visits:
                return action, child, False
            value = child.total / visits + c * sqrt(log(child.avail) / visits)
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
            ordered = _next(node, untried) if node.order is not None else None
            if ordered is not None:
                return self._child(children, ordered)
            pick = untried[self.rng.randbelow(len(untried))] if len(untried) > 1 else untried[0]
            return self._child(children, pick)
        assert best is not None and best_action is not None
        return best_action, best, False

    def _order(self, state: Sampled[Any], seat: int, legal: Sequence[Action]) -> list[Action]:
        """``legal`` best first for ``seat`` by the reward of the state after each (one
        ply, as ``greedy`` ranks; lists longer than `WIDEST` on a uniform subset): the
        order a node's new children are made in (ordered widening).  Worked out on the
        state the node is at on its second visit; in another sample the first actions of
        the order that are legal there are taken."""
        model, rng = self.model, self.rng
        scan = min(WIDEST, self.params.scan)
        own = self.params.order == 2
        scored = sorted((((self._own(after, seat) if own else self._judge(after)[seat]), i)
                         for i in scanned(len(legal), scan, rng)
                         for after in (_play(model, state, seat, legal[i], rng),)),
                        key=lambda t: -t[0])
        return [legal[i] for _, i in scored]

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
        """``rollout`` random actions from ``state``, then (``parity=1``) random replies of
        the other seats (``parity=2``: their own best, `_best_reply`) until the bot's seat
        is to act again, then judge it (`_judge`; with ``tempo``, `_tempo`)."""
        model, rng, me = self.model, self.rng, self.seat
        steps = self.params.rollout
        while steps:
            if not model.active_seats(state):
                break
            state = _play(model, state, -1, None, rng)
            steps -= 1
        if self.parity:
            best = self.parity == 2 and model.has_score
            for _ in range(PARITY_STEPS):
                active = model.active_seats(state)
                if not active or me in active:
                    break
                if best and len(active) == 1:
                    state = self._best_reply(state, active[0])
                else:
                    state = _play(model, state, -1, None, rng)
        if self.tempo and model.has_score and model.active_seats(state) == (me,):
            return self._tempo(state)
        return self._judge(state)

    def _tempo(self, state: Sampled[Any]) -> tuple[float, ...]:
        """A leaf where the bot is to act alone, judged with its move in hand: ``tempo=1``,
        after its own best move by its ``judge`` (as ``greedy`` plays, `_best_reply`);
        ``tempo=2``, the mean of that and the leaf as it is.  A leaf is always judged with
        the bot to move, just after the others' replies: where moving first is worth
        something the game's judgement does not count (a Mandala refilled after a
        resolution goes to whoever plays on it first, and a claim taken in the last reply
        is taken back in the next move), every leaf would favour the others, and a move
        that gives them something to answer (completing a mandala) would look worse than
        one that waits."""
        answered = self._judge(self._best_reply(state, self.seat))
        if self.tempo == 1:
            return answered
        return tuple(0.5 * (a + b) for a, b in zip(self._judge(state), answered, strict=True))

    def _best_reply(self, state: Sampled[Any], seat: int) -> Sampled[Any]:
        """``parity=2``: ``state`` after ``seat``'s own best action by its ``judge`` (at
        most ``scan`` of them weighed, ties at random), as ``greedy`` plays."""
        legal = self.model.legal_actions(state, seat)
        action = self._own_best(state, seat, legal) if len(legal) > 1 else legal[0]
        return self.model.step(state, seat, action, self.rng)


def _legal_in_order(order: Iterable[Action], legal: Sequence[Action],
                    skip: Container[Action] = ()) -> Iterator[Action]:
    """The actions of a node's ``order`` that are in ``legal`` (the actions legal in this
    sample), best first, ``skip``ped ones passed over; the walk gives up after `ORDER_LOOK`
    actions that are neither (an order made in another sample may know none of them)."""
    looked = 0
    for action in order:
        if action in skip:
            continue
        if action in legal:
            yield action
        else:
            looked += 1
            if looked >= ORDER_LOOK:
                return


def _knows(order: list[Action], legal: Sequence[Action]) -> bool:
    """Whether one of the first `ORDER_LOOK` actions of ``order`` is in ``legal``."""
    return next(_legal_in_order(order, legal), None) is not None


def _likely(order: list[Action], legal: Sequence[Action], count: int) -> list[Action]:
    """The first ``count`` actions of ``order`` that are in ``legal`` (looking at most
    `ORDER_LOOK` past them); ``legal`` itself when none is."""
    return list(islice(_legal_in_order(order, legal), count)) or list(legal)


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
    return apply_step(model, state, draws(model, state, active, seat, action, rng), rng)


#: How many actions neither legal in this sample nor passed over a walk down a node's
#: order (`_legal_in_order`) looks at before it gives up.
ORDER_LOOK = 16


def _next(node: Node, legal: Sequence[Action]) -> Action | None:
    """The first action of ``node.order`` that is not a child yet and is in ``legal``,
    looking at most `ORDER_LOOK` actions down; None when there is none."""
    assert node.order is not None
    return next(_legal_in_order(node.order, legal, node.children), None)


def spec() -> BotSpec:
    """The ``ismcts`` bot's registration."""
    return BotSpec(name="ismcts", version="1.4.0", make=IsmctsBot,
                   summary="information-set Monte Carlo tree search (budget: ismcts:1s, "
                           "ismcts:2000)",
                   check=check_params, params_help=PARAMS_HELP)


@hookimpl
def hedgerow_register_bots(register: Callable[[BotSpec], None]) -> None:
    """The ``ismcts`` bot (built-in plugin ``ismcts-bot``)."""
    register(spec())
