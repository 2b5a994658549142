"""Sealed cards: tokens move like cards, refuse to be read, and known faces remember them."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import NamedTuple

import pytest

from hedgerow.core.actions import Action
from hedgerow.core.canon import encode
from hedgerow.core.chance import permute
from hedgerow.core.sealed import (
    Known,
    KnownText,
    Sealed,
    SealedOrder,
    SealedRead,
    known,
    knowns_in,
    packed,
    plain,
    substitute,
    token_of,
    tokens_in,
)

T1, T2, T3 = Sealed(0, 0, 1), Sealed(0, 0, 2), Sealed(3, 1, 0)


def test_tokens_are_identities_ordered_by_position() -> None:
    assert Sealed(0, 0, 1) == T1 and T1 != T2
    assert sorted([T3, T2, T1]) == [T1, T2, T3]
    assert T1 in (T2, T1) and (T2, T1).index(T1) == 1
    assert T1 != None  # noqa: E711 (a sentinel check is not a read)


def test_a_token_equals_no_face_so_membership_tests_read_nothing() -> None:
    assert T1 != 5 and not operator.eq(5, T1) and 7 not in (T1, T2) and 7 in (T1, 7)
    assert (T2, 7).index(7) == 1


@pytest.mark.parametrize("use", [
    lambda t: t < 3, lambda t: sorted([1, t]),
    lambda t: [10, 20][t], lambda t: t + 1, lambda t: 4 * t, lambda t: bool(t), lambda t: hash(t),
    lambda t: {t: 1}, lambda t: int(t), lambda t: str(t), lambda t: f"{t}", lambda t: t.colour,
])
def test_any_use_that_needs_the_card_is_a_read(use: object) -> None:
    with pytest.raises(SealedRead) as read:
        use(T1)  # type: ignore[operator]
    assert read.value.token is T1


def test_tokens_cannot_change_and_pickle_as_themselves() -> None:
    import pickle

    with pytest.raises(AttributeError):
        T1.pos = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(T1)) == T1


def test_a_token_encodes_as_a_record() -> None:
    @dataclass
    class Sealed:  # the same name and fields as a dataclass
        draw: int
        entry: int
        pos: int

    assert encode(T3) == encode(Sealed(1, 3, 0))
    assert Action.of("pass", card=T1).problem() is None


def test_known_faces_are_the_faces_and_remember_their_token() -> None:
    face = known(7, T1)
    assert isinstance(face, Known) and face == 7 and face + 1 == 8 and hash(face) == hash(7)
    assert token_of(face) is T1 and token_of(T2) is T2 and token_of(7) is None
    assert [10] * 8 and [0, 1, 2, 3, 4, 5, 6, 7][face] == 7
    text = known("red", T2)
    assert isinstance(text, KnownText) and text == "red" and token_of(text) is T2
    assert known((1, 2), T3) == (1, 2)  # no memory for other faces
    assert repr(face) == "7" and type(plain(face)) is int and type(plain(text)) is str


class Hands(NamedTuple):
    hands: tuple[tuple[object, ...], ...]
    pile: tuple[object, ...]


@dataclass(frozen=True)
class Table:
    state: Hands
    garden: dict[tuple[int, int], object]
    seen: frozenset[int]


def test_substitute_replaces_tokens_everywhere_and_shares_the_rest() -> None:
    untouched = (1, 2, 3)
    state = Table(Hands(((T1, 4), untouched), (T2, T3)), {(0, 0): T3}, frozenset({1}))
    out = substitute(state, {T1.key: 9, T3.key: 11})
    assert out.state.hands == ((9, 4), (1, 2, 3)) and out.state.pile == (T2, 11)
    assert out.garden == {(0, 0): 11} and type(out.state) is Hands
    assert out.state.hands[1] is untouched and out.seen is state.seen
    assert substitute(state, {}) is state
    assert substitute(state, {(9, 9, 9): 1}) is state
    mine = substitute(state, {T1.key: 9}, remember=True)
    assert type(mine.state.hands[0][0]) is Known and token_of(mine.state.hands[0][0]) is T1
    assert [token_of(k) for k in knowns_in(mine)] == [T1]
    assert list(tokens_in(state)) == [T1, T2, T3, T3]
    assert plain(mine) == substitute(state, {T1.key: 9})


def test_a_face_may_be_a_token_of_an_earlier_deck() -> None:
    new = Sealed(5, 0, 0)
    assert substitute((new,), {new.key: T1, T1.key: 3}) == (3,)
    assert substitute((new,), {new.key: T1}) == (T1,)


def test_packed_runs_are_bytes_until_sealed() -> None:
    assert packed((1, 2, 3)) == b"\x01\x02\x03"
    assert packed((1, T1)) == (1, T1)


def test_a_sealed_order_binds_its_items_once_and_hands_out_tokens() -> None:
    order = SealedOrder(4, 1, 3)
    assert isinstance(order, tuple) and order.n == 3
    dealt = permute(("a", "b", "c"), order)
    assert dealt == (Sealed(4, 1, 0), Sealed(4, 1, 1), Sealed(4, 1, 2))
    assert order.items == ("a", "b", "c")
    with pytest.raises(ValueError):
        order.bind(("a", "b", "x"))
    with pytest.raises(ValueError):
        SealedOrder(4, 1, 3).bind(("a", "b"))
    shown = SealedOrder(4, 1, 3, {(4, 1, 2): "c"})
    assert permute(("a", "b", "c"), shown)[2] == "c"
    assert permute(("a", "b", "c"), (2, 0, 1)) == ("c", "a", "b")


def test_plain_actions_hand_out_plain_faces_over_a_lazy_list() -> None:
    from hedgerow.core.sealed import PlainActions

    listed = [Action.of("play", card=Known(7, Sealed(0, 0, 3))), Action.of("pass")]
    shown = PlainActions(listed)
    assert len(shown) == 2 and shown[0] == Action.of("play", card=7)
    assert type(shown[0]["card"]) is int and shown[1] == Action.of("pass")
    assert [type(a["card"]) for a in shown[:1]] == [int]
    assert shown.index(Action.of("pass")) == 1  # a bot's own action is found again
