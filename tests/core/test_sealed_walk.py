"""The walks of `hedgerow.core.sealed` find the same cards however much they remember.

`substitute` skips the immutable parts of a state that hold no card it replaces, from a memo
of what each part holds (`_scan`); these tests hold it to the answers of a walk that
remembers nothing, on parts shared between states, on parts that can change (never
remembered), and when the memo is emptied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pytest

from hedgerow.core import sealed
from hedgerow.core.rng import Rng
from hedgerow.core.sealed import Known, Sealed, knowns_in, substitute, tokens_in


@dataclass(frozen=True)
class Hand:
    cards: tuple[Any, ...]
    owner: int = 0


@dataclass(frozen=True)
class Loose:
    cards: list[Any] = field(default_factory=list)


@dataclass
class Mutable:
    cards: tuple[Any, ...] = ()


class Pair(NamedTuple):
    left: Any
    right: Any


def reference(value: Any, faces: dict[tuple[int, int, int], object], remember: bool) -> Any:
    """`substitute` as a walk that remembers nothing (what the memo must never change)."""
    if type(value) is Sealed:
        face: Any = value
        while type(face) is Sealed and face.key in faces:
            face = faces[face.key]
        if face is value:
            return value
        return sealed.known(face, value) if remember and type(face) is not Sealed else face
    if isinstance(value, Hand):
        return Hand(reference(value.cards, faces, remember), value.owner)
    if isinstance(value, Loose):
        return Loose(reference(value.cards, faces, remember))
    if isinstance(value, Mutable):
        return Mutable(reference(value.cards, faces, remember))
    if isinstance(value, Pair):
        return Pair(reference(value.left, faces, remember), reference(value.right, faces, remember))
    if isinstance(value, tuple | list):
        return type(value)(reference(v, faces, remember) for v in value)
    if isinstance(value, dict):
        return {k: reference(v, faces, remember) for k, v in value.items()}
    return value


def random_state(rng: Rng, depth: int = 0) -> Any:
    pick = rng.randbelow(9 if depth < 4 else 3)
    if pick == 0:
        return Sealed(1, 0, rng.randbelow(12))
    if pick == 1:
        return rng.randbelow(50)
    if pick == 2:
        return "text"
    parts = tuple(random_state(rng, depth + 1) for _ in range(rng.randbelow(4)))
    if pick == 3:
        return parts
    if pick == 4:
        return list(parts)
    if pick == 5:
        return Hand(parts, rng.randbelow(3))
    if pick == 6:
        return Loose(list(parts))
    if pick == 7:
        return Pair(parts, random_state(rng, depth + 1))
    return {n: p for n, p in enumerate(parts)}


def walked(value: Any) -> list[Any]:
    """Every card in ``value`` in the order `_walk` meets them."""
    found: list[Any] = []
    sealed._walk(value, lambda item: found.append(item) or item, rebuild=False)
    return found


@pytest.mark.parametrize("number", range(40))
def test_substitute_is_the_walk_that_remembers_nothing(number: int) -> None:
    rng = Rng(b"sealed-walk", f"{number}")
    state = random_state(rng)
    for _ in range(4):  # the same parts again and again: the memo answers the later ones
        faces: dict[tuple[int, int, int], object] = {
            (1, 0, rng.randbelow(12)): rng.randbelow(9) for _ in range(rng.randbelow(5))}
        for remember in (False, True):
            assert substitute(state, faces, remember=remember) == reference(state, faces,
                                                                             remember)
        state = substitute(state, faces, remember=True)
        cards = walked(state)
        assert list(tokens_in(state)) == [c for c in cards if type(c) is Sealed]
        assert list(knowns_in(state)) == [c for c in cards if type(c) is not Sealed]


def test_a_part_without_a_replaced_card_is_the_same_object() -> None:
    untouched = Hand((Sealed(1, 0, 5), 3, (4, 5)))
    touched = Hand((Sealed(1, 0, 1),))
    state = (untouched, touched, [untouched])
    out = substitute(state, {(1, 0, 1): 7})
    assert out[0] is untouched and out[2][0] is untouched
    assert out[1] == Hand((7,))
    assert substitute(state, {(9, 9, 9): 1}) is state


def test_a_part_that_can_change_is_looked_at_each_time() -> None:
    loose = Loose([1])
    mutable = Mutable((2,))
    state = (loose, mutable)
    assert substitute(state, {(1, 0, 0): 9}) is state  # no card yet: all as it was
    loose.cards.append(Sealed(1, 0, 0))
    mutable.cards = (Sealed(1, 0, 0),)
    out = substitute(state, {(1, 0, 0): 9})
    assert out[0].cards == [1, 9] and out[1].cards == (9,)
    assert list(tokens_in(state)) == [Sealed(1, 0, 0), Sealed(1, 0, 0)]


def test_the_memo_emptied_midway_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sealed, "_MEMO_LIMIT", 3)
    sealed._MEMO.clear()
    state = tuple(Hand((Sealed(1, 0, n), n)) for n in range(10))
    out = substitute(state, {(1, 0, n): 100 + n for n in range(0, 10, 2)}, remember=True)
    assert [hand.cards[0] for hand in out] == [
        100 if n == 0 else (100 + n if n % 2 == 0 else Sealed(1, 0, n)) for n in range(10)]
    assert len(sealed._MEMO) <= 3
    assert [k.token for k in knowns_in(out)] == [Sealed(1, 0, n) for n in range(0, 10, 2)]
    assert all(type(k) is Known for k in knowns_in(out))
