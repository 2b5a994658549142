"""`Action`: one decision a seat makes, as plain, hashable, wire-friendly data.

An action is a ``kind`` (``"place"``, ``"move"``, ``"decline"`` ...) plus named arguments whose
values are ints, strings, bools, bytes or tuples of those; at a sealed table a value may also
be a `Sealed` card (a card the action moves without showing it, `hedgerow.core.sealed`).
That is all the wire codec needs to carry any game's or any third-party variant's actions
without new ``.proto`` messages, and all the canonical encoder needs to hash them.
"""

from __future__ import annotations

from dataclasses import dataclass

from hedgerow.core.sealed import Sealed

Value = int | str | bool | bytes | Sealed | tuple["Value", ...]


def _check_value(value: object) -> bool:
    # Exact types: an IntEnum or a str subclass would hash differently from what the wire
    # carries (a plain int or str), so it is malformed here.
    kind = type(value)
    if kind in (bool, int, str, bytes, Sealed):
        return True
    if kind is tuple:
        return all(_check_value(v) for v in value)  # type: ignore[attr-defined]
    return False


@dataclass(frozen=True, slots=True)
class Action:
    """A decision: ``kind`` plus ``args``, a tuple of ``(name, value)`` pairs sorted by name.

    Build one with `Action.of`: ``Action.of("place", card=7, x=1, y=0, rot=3)``.
    """

    kind: str
    args: tuple[tuple[str, Value], ...] = ()

    @classmethod
    def of(cls, kind: str, /, **args: Value) -> Action:
        """Make an action with keyword arguments (sorted by name so equal actions compare equal)."""
        return cls(kind, tuple(sorted(args.items())))

    def __getitem__(self, name: str) -> Value:
        for key, value in self.args:
            if key == name:
                return value
        raise KeyError(name)

    def get(self, name: str, default: Value | None = None) -> Value | None:
        """The argument ``name``, or ``default`` when the action has none by that name."""
        for key, value in self.args:
            if key == name:
                return value
        return default

    def as_dict(self) -> dict[str, Value]:
        """The arguments as a new dict."""
        return dict(self.args)

    def problem(self) -> str | None:
        """Why this action is malformed (bad kind, unsorted or repeated names, bad value), or None.

        Used on data that comes from outside (the wire, a log file); actions built with
        `Action.of` are always well formed.
        """
        if type(self.kind) is not str or not self.kind:
            return "an action needs a non-empty kind"
        previous = ""
        for pair in self.args:
            if type(pair) is not tuple or len(pair) != 2:
                return "arguments must be (name, value) pairs"
            name, value = pair
            if type(name) is not str or not name:
                return "argument names must be non-empty strings"
            if name <= previous:
                return "argument names must be unique and sorted"
            previous = name
            kind = type(value)
            if kind is not int and kind is not str and not _check_value(value):
                return (
                    f"argument {name!r} has unsupported type {kind.__name__}: values "
                    "must be exactly int, str, bool, bytes, a sealed card or a tuple of those"
                )
        return None

    def __str__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.args)
        return f"{self.kind}({inner})"
