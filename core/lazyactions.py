"""`LazyActions`: a read-only sequence of legal actions that makes each one only when asked.

``GameDef.legal_actions`` may return any ``Sequence[Action]``.  A game whose lists are
long (a card times every free cell times a rotation) returns a `LazyActions` subclass
instead of a list: picking one action at random then costs one index, not the whole list.
A subclass says how long it is (``__len__``) and how to make the action at an index
(``_at``); it may answer ``in`` faster than a scan (``__contains__``) and iterate faster
than by index (``__iter__``).  Everything else a list offers to a reader is here, with a
list's meaning: indexing (negative too) and slicing, iteration in index order, and
equality with any sequence of the same actions in the same order.  The sequences are
unhashable, like lists, and never change once made.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from hedgerow.core.actions import Action


class LazyActions(Sequence[Action]):
    """A sequence of actions made on demand: subclasses define ``__len__`` and ``_at``."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]

    def _at(self, index: int) -> Action:
        """The action at ``index``, ``0 <= index < len(self)``."""
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if type(index) is int and 0 <= index < len(self):  # the common case, a random pick
            return self._at(index)
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("action index out of range")
        return self._at(index)

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self._at(i)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {len(self)} actions>"
