"""Chance nodes: the only way randomness enters a game, resolved by the engine, never the rules.

A game never holds a random generator.  When the rules need luck — the deal at setup, a
discard pile reshuffled into a new deck, an automaton's deck, the next game of a match —
the state says so: ``GameDef.chance(state)`` returns a `Chance` (what to draw), and the
engine resolves it and hands the result to ``GameDef.resolve(state, outcome)``.  This is
OpenSpiel's chance node.  While a chance is pending the rules are asked nothing else: no
seat is active, no view is drawn, no action is checked.

A `Chance` is a tuple of draws, resolved in order:

* `Pick(n)` — a uniform integer in ``[0, n)``;
* `Shuffle(n)` — a uniform permutation of ``range(n)``: apply it with `permute`
  (``permute(items, p)[i] == items[p[i]]``).  Drawing ``k`` of ``n`` cards is a shuffle of
  the ``n`` and taking the first ``k``.

How the engine resolves it (the seeded source, `SeededChance`; docs/protocol.md §7 has the
test vectors): the chance that becomes log entry ``i`` uses ``Rng(seed, "chance/<i>")``;
``Pick(n)`` is ``randbelow(n)``; ``Shuffle(n)`` shuffles ``[0, 1, ..., n-1]`` with the
generator's Fisher-Yates.  Every peer computes the same outcome from the table seed.

The outcome is recorded in the log as an entry of the chance seat (`CHANCE_SEAT`, -1) whose
action is ``chance(draws=<outcome>)``, so it is in the hash chain and a replay checks it.

The seam for a sealed deck: a `ChanceSource` other than the seeded one (a mental-poker
protocol) can resolve the same `Chance` without any peer learning the permutation.  To
keep that door open, rules must read a card's identity only when it is revealed (drawn into
a hand, played, turned face up, scored at the end), never branch on an undrawn card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, cast

from hedgerow.core.actions import Action, Value
from hedgerow.core.rng import Rng
from hedgerow.core.sealed import SealedOrder

T = TypeVar("T")

#: The seat number of chance entries in a table's log.
CHANCE_SEAT = -1
#: The action kind of a chance entry.
CHANCE_KIND = "chance"


@dataclass(frozen=True, slots=True)
class Pick:
    """A uniform integer in ``[0, n)``."""

    n: int


@dataclass(frozen=True, slots=True)
class Shuffle:
    """A uniform permutation of ``range(n)``."""

    n: int


Draw = Pick | Shuffle
#: One result per draw: an int for a `Pick`, a tuple of ints for a `Shuffle`.
ChanceOutcome = tuple[int | tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Chance:
    """What a state asks chance for: ``draws`` in order, and what they are for in plain words
    (``"shuffle the deck"``: the log and the client show it)."""

    draws: tuple[Draw, ...]
    label: str

    def __post_init__(self) -> None:
        if not self.draws:
            raise ValueError("a Chance needs at least one draw")
        for draw in self.draws:
            if not isinstance(draw, Pick | Shuffle) or type(draw.n) is not int or draw.n < 1:
                raise ValueError(f"a chance draw is Pick(n) or Shuffle(n) with n >= 1: {draw!r}")


class ChanceSource(Protocol):
    """Resolves chance nodes for a table.  The seeded source is the open-deck one."""

    def resolve(self, index: int, chance: Chance) -> ChanceOutcome:
        """The outcome of ``chance``, which becomes log entry ``index``."""
        ...


class SeededChance:
    """Chance from the table seed: entry ``i`` draws from ``Rng(seed, "chance/<i>")``."""

    __slots__ = ("seed",)

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def resolve(self, index: int, chance: Chance) -> ChanceOutcome:
        """The outcome every peer computes for ``chance`` at log index ``index``."""
        return draw_all(Rng(self.seed, f"chance/{index}"), chance)


def draw_all(rng: Rng, chance: Chance) -> ChanceOutcome:
    """Resolve every draw of ``chance`` from ``rng``, in order."""
    out: list[int | tuple[int, ...]] = []
    for draw in chance.draws:
        if isinstance(draw, Pick):
            out.append(rng.randbelow(draw.n))
        else:
            order = list(range(draw.n))
            rng.shuffle(order)
            out.append(tuple(order))
    return tuple(out)


def problem(chance: Chance, outcome: object) -> str | None:
    """Why ``outcome`` is not a possible result of ``chance`` (wrong shape, out of range, not
    a permutation), or None when it is."""
    if type(outcome) is not tuple or len(outcome) != len(chance.draws):
        return f"expected {len(chance.draws)} results for {chance.label!r}"
    for i, (draw, got) in enumerate(zip(chance.draws, outcome, strict=True)):
        if isinstance(draw, Pick):
            if type(got) is not int or not 0 <= got < draw.n:
                return f"result {i} must be an int in [0, {draw.n})"
        elif (type(got) is not tuple or len(got) != draw.n
              or sorted(got) != list(range(draw.n))):
            return f"result {i} must be a permutation of range({draw.n})"
    return None


def permute(items: Sequence[T], order: Sequence[int]) -> tuple[T, ...]:
    """``items`` in a `Shuffle` outcome's order: position ``i`` holds ``items[order[i]]``.

    At a sealed table the outcome of a shuffle is a `hedgerow.core.sealed.SealedOrder`:
    nobody knows the order, and position ``i`` holds a `hedgerow.core.sealed.Sealed` token
    for the card that lies there.  Rules apply every `Shuffle` outcome through this
    function, exactly once, and treat what it returns as cards they may move but not read
    until they are revealed (`hedgerow.core.sealed`).
    """
    if isinstance(order, SealedOrder):
        # Tokens (and faces already shown) stand for the items: the rules treat them alike.
        return cast(tuple[T, ...], order.bind(items))
    return tuple(items[i] for i in order)


def chance_action(outcome: ChanceOutcome) -> Action:
    """The log action that records ``outcome``: ``chance(draws=outcome)``."""
    value: Value = outcome
    return Action(CHANCE_KIND, (("draws", value),))


def outcome_of(action: Action) -> ChanceOutcome | None:
    """The outcome recorded by a chance entry's action, or None when it is not one."""
    if action.kind != CHANCE_KIND or len(action.args) != 1 or action.args[0][0] != "draws":
        return None
    value = action.args[0][1]
    # Only the outer shape is known here; `problem` checks each draw against its node.
    return cast(ChanceOutcome, value) if type(value) is tuple else None
