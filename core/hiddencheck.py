"""The conformance kit's own re-deal: views across states that differ only in hidden cards.

A game's ``determinize`` says what a seat cannot know; a game whose ``determinize`` is built
from its view (or that has none) says nothing the view has not said already, so a view
that leaks (the deck's order, say) passes every check made with it.  This module makes
such states without the game's help, from a finished game's log, the way a sealed deck
would deal them: the same actions, another outcome of a shuffle.

For a ``Shuffle`` draw of a logged chance entry, two positions ``i`` and ``j`` of its
permutation are swapped and the log is played again from there: every later chance entry
resolved with its logged outcome, every later action applied as logged.  The states of
the two logs differ in where two cards went, and in nothing else.  At each decision point
(the start of a turn or a simultaneous step) of the replay:

* **legal actions follow the view**: a seat whose view is the same in both states has the
  same legal actions in both; otherwise its legal actions depend on something it cannot
  see (`legal_problem`);
* **the view hides what nobody sees in play** (`LEAK`): when *every* seat's view differs
  at the first decision point after the re-deal, and for the whole game the two cards
  change nothing any seat can do (every seat's legal actions the same at every decision
  point, every legal action described in the same words) nor the result, then nobody at
  the table could ever tell the two games apart by play, and the views show cards nobody
  has seen: undealt cards, the bottom of a deck never reached.  (A view that differs for
  some seats only is a seat's own knowledge, a card it drew; a card turned face up for
  everyone either changes what someone can do or scores, or is turned up after the
  deal.)

What it cannot see: a view that shows cards which do come into play later (a deck's next
cards, drawn in time) looks like cards dealt face up; only the game can say which of its
cards are hidden, with a ``determinize`` written from the state (never from the view),
which the kit checks against the view at every step.

The replay of a pair stops at the first action the other deal refuses, the first chance
that differs, or the first decision point where some seat's legal actions differ: from
there the two games are no longer the same game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.chance import Chance, Shuffle, outcome_of
from hedgerow.core.errors import Refusal
from hedgerow.core.game import GameDef
from hedgerow.core.rng import Rng

#: Legal actions per seat whose words are compared before a view is called leaky.
DESCRIBED = 256


@dataclass(frozen=True, slots=True)
class Logged:
    """One entry of a finished game: its seat, its action and the state it applied to."""

    seat: int
    action: Action
    before: Any


def swapped_pairs(chance: Chance, rng: Rng, pairs: int) -> list[tuple[int, int, int]]:
    """Up to ``pairs`` (draw, i, j) swaps of ``chance``'s shuffles, drawn from ``rng``."""
    shuffles = [k for k, draw in enumerate(chance.draws)
                if isinstance(draw, Shuffle) and draw.n >= 2]
    out: list[tuple[int, int, int]] = []
    for _ in range(pairs if shuffles else 0):
        k = shuffles[rng.randbelow(len(shuffles))]
        n = chance.draws[k].n
        i = rng.randbelow(n)
        j = (i + 1 + rng.randbelow(n - 1)) % n
        out.append((k, min(i, j), max(i, j)))
    return out


def _swap(outcome: tuple[Any, ...], k: int, i: int, j: int) -> tuple[Any, ...]:
    order = list(outcome[k])
    order[i], order[j] = order[j], order[i]
    return (*outcome[:k], tuple(order), *outcome[k + 1:])


def check_redeals(gamedef: GameDef[Any, Any], log: Sequence[Logged], final: Any,
                  decisions: set[int], players: int, rng: Rng, *, entries: int = 2,
                  pairs: int = 4) -> str | None:
    """Replay ``log`` with two positions of a shuffle swapped, for the first and the last
    shuffled chance entries (``entries`` of them at most) and ``pairs`` swaps each, and
    return the first problem found (see the module docstring), or None.

    ``final`` is the state after the last entry; ``decisions`` are the entry indices at
    which a turn or a step started.
    """
    shuffled = [n for n, e in enumerate(log) if _shuffle_outcome(gamedef, e) is not None]
    chosen = sorted({*shuffled[:1], *shuffled[-(entries - 1):]}) if entries > 1 \
        else shuffled[:1]
    for n in chosen:
        entry = log[n]
        chance = gamedef.pending_chance(entry.before)
        outcome = _shuffle_outcome(gamedef, entry)
        assert chance is not None and outcome is not None
        for k, i, j in swapped_pairs(chance, rng.fork(f"redeal/{n}"), pairs):
            problem = _replay(gamedef, log, final, decisions, players, n,
                              _swap(outcome, k, i, j))
            if problem is not None:
                return (f"{problem} (chance entry #{n}, {chance.label!r}, dealt again with "
                        f"positions {i} and {j} of its shuffle swapped)")
    return None


def _shuffle_outcome(gamedef: GameDef[Any, Any], entry: Logged) -> tuple[Any, ...] | None:
    if entry.seat >= 0:
        return None
    chance = gamedef.pending_chance(entry.before)
    outcome = outcome_of(entry.action)
    if chance is None or outcome is None:
        return None
    if not any(isinstance(d, Shuffle) and d.n >= 2 for d in chance.draws):
        return None
    return outcome


def _replay(gamedef: GameDef[Any, Any], log: Sequence[Logged], final: Any,
            decisions: set[int], players: int, start: int, outcome: tuple[Any, ...],
            ) -> str | None:
    """The problem a replay of ``log`` from entry ``start`` (resolved with ``outcome``)
    shows, or None; it stops where the two games part (the module docstring)."""
    assert gamedef.resolve is not None
    other = gamedef.resolve(log[start].before, outcome)
    first = True  # the first decision point after the re-deal is still to come
    unseen = False  # every view differed there, and nothing anyone can do has since
    for n in range(start + 1, len(log)):
        real = log[n].before
        if n in decisions:
            if gamedef.pending_chance(other) is not None:
                return None
            legal = [list(gamedef.legal_actions(real, s)) for s in range(players)]
            legal_other = [list(gamedef.legal_actions(other, s)) for s in range(players)]
            differ = [gamedef.view(real, s) != gamedef.view(other, s) for s in range(players)]
            problem = legal_problem(legal, legal_other, differ, n)
            if problem is not None:
                return problem
            if legal != legal_other:
                return None
            if first:
                first, unseen = False, all(differ)
            if unseen and not same_words(gamedef, real, other, legal):
                unseen = False
        entry = log[n]
        if entry.seat < 0:
            if gamedef.pending_chance(other) != gamedef.pending_chance(real):
                return None
            other = gamedef.resolve(other, outcome_of(entry.action) or ())
            continue
        if gamedef.pending_chance(other) is not None:
            return None
        after = gamedef.apply(other, entry.seat, entry.action)
        if isinstance(after, Refusal):
            return None
        other = after
    if unseen and gamedef.outcome(other) == gamedef.outcome(final):
        return LEAK
    return None


#: What `check_redeals` says of a view that shows cards nobody sees in play.
LEAK = ("every seat's view differs, from the deal on, between two states that differ only "
        "in where two cards went, cards that change nothing any seat can do, nor the words "
        "of it, nor the result, for the whole game: the view shows cards nobody has seen "
        "(the deck's order, an undealt card)")


def legal_problem(legal: Sequence[list[Action]], legal_other: Sequence[list[Action]],
                  differ: Sequence[bool], n: int) -> str | None:
    """A seat whose view is the same in both states but whose legal actions are not."""
    for seat, (mine, theirs) in enumerate(zip(legal, legal_other, strict=True)):
        if not differ[seat] and mine != theirs:
            return (f"at entry #{n}, seat {seat}'s legal actions differ between two states "
                    "its view does not tell apart: they depend on something it cannot see")
    return None


def same_words(gamedef: GameDef[Any, Any], real: Any, other: Any,
               legal: Sequence[list[Action]]) -> bool:
    """True when every legal action (`DESCRIBED` of each seat's at most) is described in
    the same words in both states."""
    return all(gamedef.describe(real, seat, action) == gamedef.describe(other, seat, action)
               for seat, actions in enumerate(legal) for action in _some(actions))


def _some(actions: list[Action]) -> Iterable[Action]:
    if len(actions) <= DESCRIBED:
        return actions
    step = len(actions) / DESCRIBED
    return (actions[int(k * step)] for k in range(DESCRIBED))
