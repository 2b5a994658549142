"""Actions: canonical argument order, access, and the malformed-action check."""

from __future__ import annotations

from hedgerow.core.actions import Action


def test_of_sorts_arguments() -> None:
    a = Action.of("place", y=1, x=2, card=3)
    assert a.args == (("card", 3), ("x", 2), ("y", 1))
    assert a == Action.of("place", card=3, x=2, y=1)
    assert hash(a) == hash(Action.of("place", x=2, y=1, card=3))


def test_access() -> None:
    a = Action.of("move", to=(1, 2))
    assert a["to"] == (1, 2)
    assert a.get("nope") is None
    assert a.get("nope", 5) == 5
    assert a.as_dict() == {"to": (1, 2)}
    assert str(a) == "move(to=(1, 2))"


def test_problem_finds_malformed_actions() -> None:
    assert Action.of("ok", n=1, s="x", b=True, raw=b"\x00", t=(1, (2,))).problem() is None
    assert Action("", ()).problem() is not None
    assert Action("k", (("b", 1), ("a", 2))).problem() is not None
    assert Action("k", (("a", 1), ("a", 2))).problem() is not None
    assert Action("k", (("a", 1.5),)).problem() is not None  # type: ignore[arg-type]
    assert Action("k", (("", 1),)).problem() is not None


def test_problem_wants_exact_types() -> None:
    from enum import IntEnum

    class Side(IntEnum):
        TOP = 0

    assert Action("k", (("a", Side.TOP),)).problem() is not None
    assert Action("k", (("a", [1]),)).problem() is not None  # type: ignore[arg-type]
