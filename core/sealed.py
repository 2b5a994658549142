"""Sealed cards: what a sealed table's rules hold in place of a card nobody has shown them.

At a sealed table (mental poker, docs/protocol.md §10) no peer knows the order of a shuffled
deck.  A `Shuffle` is resolved with a `SealedOrder` instead of a permutation, and
``permute(items, order)`` returns one `Sealed` token per position: the card that lies there,
known only as *the card at position ``pos`` of draw ``draw`` of chance entry ``entry``*.
The rules move tokens like cards (deal them into hands, pass them, stack them) but may
never **read** one: any use of a token that would depend on the card it stands for (an
index into a card table, arithmetic, ordering against a card, truth, a hash, an attribute)
raises `SealedRead`, which the sealed engine (`hedgerow.core.sealedtable`) turns into a
reveal.  Comparing two tokens, and sorting tokens among themselves, is not a read: tokens
are distinct identities, ordered by position.  A token is equal to no face (``7 in hand``
walks past the hand's sealed cards without reading them).

When a card is shown to a peer, the engine puts its face in place of the token
(`substitute`): a plain face where every seat may see it (the *public* state, which every
peer holds identically and hashes), a `Known` face where only this peer's seat knows it (its
*information state*).  A `Known` face is the face itself (an ``int`` or ``str`` subclass:
the rules treat it exactly as the face) that remembers its token, so that when the seat's
own action names the card, the engine can send the token instead of the face.

Nothing here does cryptography: which token is which card is the business of the mental
poker layer (`hedgerow.net.mentalpoker`), or of a trusted in-process dealer in tests.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NoReturn, TypeVar, overload

T = TypeVar("T")

#: A token's identity: (chance entry, draw within the entry, position in the shuffle).
Key = tuple[int, int, int]


class SealedRead(Exception):
    """The rules used a sealed card in a way that depends on what it is."""

    def __init__(self, token: Sealed, how: str) -> None:
        super().__init__(f"the rules read the sealed card {token!r} ({how})")
        self.token = token
        self.how = how


def _read(how: str) -> Callable[..., NoReturn]:
    def refuse(self: Sealed, *args: object) -> NoReturn:
        raise SealedRead(self, how)
    refuse.__name__ = f"read_{how}"
    return refuse


class Sealed:
    """The card at position ``pos`` of draw ``draw`` of chance entry ``entry``, unseen.

    Two tokens are equal when they are the same position; tokens sort by
    ``(entry, draw, pos)``.  Everything else that would need the card raises `SealedRead`.
    """

    __slots__ = ("draw", "entry", "pos")

    entry: int
    draw: int
    pos: int

    def __init__(self, entry: int, draw: int, pos: int) -> None:
        object.__setattr__(self, "entry", entry)
        object.__setattr__(self, "draw", draw)
        object.__setattr__(self, "pos", pos)

    @property
    def key(self) -> Key:
        """``(entry, draw, pos)``: the token's identity, usable as a dict key."""
        return (self.entry, self.draw, self.pos)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("a sealed card cannot be changed")

    def __repr__(self) -> str:
        return f"Sealed({self.entry}.{self.draw}.{self.pos})"

    def __reduce__(self) -> tuple[type[Sealed], Key]:
        return (Sealed, self.key)

    def __eq__(self, other: object) -> bool:
        # A sealed card is never equal to a face: asking "is this card 7?" of a card nobody
        # has shown reads nothing and says no.  (Raising here would reveal every card a
        # membership test walks past: ``7 in hand`` compares 7 with each card of the hand.)
        # Rules must not ask it of a hidden card; the sealed check compares every step with
        # the open game, where the answer could differ.
        if type(other) is Sealed:
            return self.key == other.key
        return False

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def _order(self, other: object) -> Key:
        if type(other) is Sealed:
            return other.key
        raise SealedRead(self, "ordered against a card")

    def __lt__(self, other: object) -> bool:
        return self.key < self._order(other)

    def __le__(self, other: object) -> bool:
        return self.key <= self._order(other)

    def __gt__(self, other: object) -> bool:
        return self.key > self._order(other)

    def __ge__(self, other: object) -> bool:
        return self.key >= self._order(other)

    __hash__ = _read("hashed")
    __bool__ = _read("tested for truth")
    __index__ = _read("used as an index")
    __int__ = _read("turned into a number")
    __float__ = _read("turned into a number")
    __str__ = _read("turned into text")
    __format__ = _read("formatted")
    __len__ = _read("measured")
    __iter__ = _read("iterated")
    __contains__ = _read("searched")
    __getitem__ = _read("indexed")

    def __getattr__(self, name: str) -> NoReturn:
        if name.startswith("__"):
            raise AttributeError(name)
        raise SealedRead(self, f"asked for .{name}")


for _op in ("add", "sub", "mul", "floordiv", "truediv", "mod", "pow", "lshift", "rshift",
            "and", "or", "xor", "divmod", "matmul"):
    setattr(Sealed, f"__{_op}__", _read("used in arithmetic"))
    setattr(Sealed, f"__r{_op}__", _read("used in arithmetic"))
for _op in ("neg", "pos", "abs", "invert", "round", "trunc", "floor", "ceil"):
    setattr(Sealed, f"__{_op}__", _read("used in arithmetic"))


class Known(int):
    """An ``int`` card face known to this peer's seat, remembering its sealed token."""

    token: Sealed

    def __new__(cls, face: int, token: Sealed) -> Known:
        obj = super().__new__(cls, face)
        obj.token = token
        return obj

    __repr__ = int.__repr__


class KnownText(str):
    """A ``str`` card face known to this peer's seat, remembering its sealed token."""

    token: Sealed

    def __new__(cls, face: str, token: Sealed) -> KnownText:
        obj = super().__new__(cls, face)
        obj.token = token
        return obj

    __repr__ = str.__repr__


def known(face: object, token: Sealed) -> object:
    """``face`` as a `Known` (or `KnownText`) remembering ``token``; other faces as they are
    (their token cannot be remembered: an action that names such a card names its face)."""
    if type(face) is int:
        return Known(face, token)
    if type(face) is str:
        return KnownText(face, token)
    return face


def packed(cards: Sequence[int]) -> bytes | tuple[object, ...]:
    """A run of card ids as compact hash data: ``bytes`` while every card is a face (ids
    0-255), the tuple itself once it holds a sealed card (encoded as `Sealed` records)."""
    try:
        return bytes(cards)
    except SealedRead:
        return tuple(cards)


def token_of(value: object) -> Sealed | None:
    """The token a value stands for: itself for a `Sealed`, the remembered one for a known
    face, None for anything else."""
    if isinstance(value, Sealed):
        return value
    if isinstance(value, Known | KnownText):
        return value.token
    return None


def plain(value: T) -> T:
    """``value`` with every known face turned back into a plain face (what a view hands to a
    client or a bot: nothing that leads back to a token)."""
    result: T = _walk(value, _plain_leaf)
    return result


class PlainActions(Sequence[Any]):
    """Legal actions as a sealed table hands them to a client or a bot: each read plain
    (`plain`: its `Known` cards turned back into faces, so a bot's model, which checks a
    card's type as the rules do, takes it), the game's own sequence (possibly lazy: a
    Petals placement turn) underneath.  The table takes the chosen action back to the
    listed one it equals (`hedgerow.net.sync.Sync`), which names the card's token."""

    __slots__ = ("_actions",)

    def __init__(self, actions: Sequence[Any]) -> None:
        self._actions = actions

    def __len__(self) -> int:
        return len(self._actions)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [plain(action) for action in self._actions[index]]
        return plain(self._actions[index])


def _plain_leaf(value: Any) -> Any:
    kind = type(value)
    if kind is Known:
        return int(value)
    if kind is KnownText:
        return str.__str__(value)
    return value


def substitute(value: T, faces: Mapping[Key, object], *, remember: bool = False) -> T:
    """``value`` with each token whose key is in ``faces`` replaced by its face.

    With ``remember`` the face is a `Known` that remembers the token (an information
    state); without, a plain face (the public state).  A face may itself be a token (a
    card reshuffled into a new deck is the card it was): it is looked up again.  Parts that
    hold no such token are returned as they are (the same objects), so substituting into a
    state shares everything the reveal did not touch.
    """
    if not faces:
        return value

    def leaf(item: Any) -> Any:
        if type(item) is not Sealed:
            return item
        face: Any = item
        seen = 0
        while type(face) is Sealed and face.key in faces:
            face = faces[face.key]
            seen += 1
            if seen > 64:
                raise ValueError(f"the faces of {item!r} form a cycle")
        if face is item:
            return item
        return known(face, item) if remember and type(face) is not Sealed else face

    def wanted(leaves: tuple[Any, ...]) -> bool:
        return any(type(item) is Sealed and item.key in faces for item in leaves)

    result: T = _walk(value, leaf, wanted=wanted)
    return result


def tokens_in(value: object) -> Iterator[Sealed]:
    """Every token in ``value``, each as often as it occurs (in the order of the structure:
    callers that need an order sort them; a token is never in a set, being unhashable)."""
    return iter(_leaves_of(value, _is_token))


def knowns_in(value: object) -> Iterator[Known | KnownText]:
    """Every known face in ``value``, each as often as it occurs."""
    return iter(_leaves_of(value, _is_known))


def _is_token(item: Any) -> bool:
    return type(item) is Sealed


def _is_known(item: Any) -> bool:
    kind = type(item)
    return kind is Known or kind is KnownText


def _leaves_of(value: object, keep: Callable[[Any], bool]) -> list[Any]:
    """The cards of ``value`` that ``keep`` keeps, in the order a walk meets them.  (A plain
    search: what is searched is mostly a view or an action, built afresh each time, so there
    is nothing for `_scan` to remember.)"""
    found: list[Any] = []
    _collect(value, keep, found)
    return found


def _collect(value: Any, keep: Callable[[Any], bool], found: list[Any]) -> None:
    """`_walk` without rebuilding: append each card of ``value`` that ``keep`` keeps."""
    kind = type(value)
    if kind in _LEAF_TYPES:
        if keep(value):
            found.append(value)
        return
    if kind in _ATOM_TYPES:
        return
    if isinstance(value, tuple | list | set | frozenset):
        atoms, cards = _ATOM_TYPES, _LEAF_TYPES
        for item in value:
            item_kind = type(item)
            if item_kind in atoms:
                continue
            if item_kind in cards:
                if keep(item):
                    found.append(item)
                continue
            _collect(item, keep, found)
    elif isinstance(value, dict):
        for key, item in value.items():
            _collect(key, keep, found)
            _collect(item, keep, found)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for name in _fields(kind)[0]:
            _collect(getattr(value, name), keep, found)


_ATOMS = (int, str, bytes, bool, float, type(None))
_ATOM_TYPES = frozenset(_ATOMS)
_LEAVES = (Sealed, Known, KnownText)
_LEAF_TYPES = frozenset(_LEAVES)

#: The field names of each dataclass walked so far, and whether it is frozen.
_FIELDS: dict[type, tuple[tuple[str, ...], bool]] = {}


def _fields(kind: type) -> tuple[tuple[str, ...], bool]:
    shape = _FIELDS.get(kind)
    if shape is None:
        shape = (tuple(f.name for f in dataclasses.fields(kind)),
                 bool(kind.__dataclass_params__.frozen))  # type: ignore[attr-defined]
        _FIELDS[kind] = shape
    return shape


#: The cards found in each immutable value scanned lately, by identity: ``id(value) ->
#: (value, cards)``.  States are immutable and share most of their parts from one entry to
#: the next (and a view shares them with its state), so a walk that finds a part here
#: already knows what is in it.  The value is held, so its id cannot be reused while it is
#: remembered; the memo is emptied when it grows past `_MEMO_LIMIT`.  It changes how fast a
#: walk is, never what it finds.  The limit is small because what it holds is whole parts
#: of old states: at 200,000 a process that plays table after table (a bot peer, the soak)
#: kept every state of its last dozens of games, about 100 KiB more per toy table, while a
#: walk's hits come from the last few entries: at 4,096 the CPU per action is the same
#: (bench/README.md, "The sealed walk's memo").
_MEMO: dict[int, tuple[object, tuple[Any, ...]]] = {}
_MEMO_LIMIT = 4_096


def _scan(value: Any) -> tuple[Any, ...] | None:
    """Every card (`Sealed`, `Known`, `KnownText`) in ``value`` in the order a walk meets
    them, when ``value`` cannot change (atoms, tuples, frozensets and frozen dataclasses of
    such); None when it or a part of it could (a list, a dict, a set, a mutable dataclass)."""
    kind = type(value)
    if kind in _LEAF_TYPES:
        return (value,)
    if kind in _ATOM_TYPES:
        return ()
    hit = _MEMO.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1]
    if isinstance(value, tuple | frozenset):
        parts: Any = value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        names, frozen = _fields(kind)
        if not frozen:
            return None
        parts = [getattr(value, name) for name in names]
    elif isinstance(value, list | dict | set):
        return None
    else:
        return ()  # anything else is opaque to a walk: it holds no card a walk would find
    found: list[Any] = []
    atoms, cards = _ATOM_TYPES, _LEAF_TYPES
    for part in parts:
        part_kind = type(part)
        if part_kind in atoms:
            continue
        if part_kind in cards:
            found.append(part)
            continue
        inner = _scan(part)
        if inner is None:
            return None
        if inner:
            found.extend(inner)
    leaves = tuple(found) if found else ()
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[id(value)] = (value, leaves)
    return leaves


def _walk(value: Any, leaf: Callable[[Any], Any], *, rebuild: bool = True,
          wanted: Callable[[tuple[Any, ...]], bool] | None = None) -> Any:
    """Apply ``leaf`` to every card of ``value`` (a state, a view, an action: tuples, named
    tuples, lists, dicts, sets and dataclasses of them), rebuilding only what changed.

    ``wanted`` (when given) says from the cards of an immutable part whether ``leaf`` could
    change any of them: a part where it could not is returned as it is, unwalked."""
    kind = type(value)
    if kind in _LEAF_TYPES:
        return leaf(value)
    if kind in _ATOM_TYPES:
        return value
    if wanted is not None:
        leaves = _scan(value)
        if leaves is not None and not wanted(leaves):
            return value
    if isinstance(value, tuple | list):
        out = [_walk(item, leaf, rebuild=rebuild, wanted=wanted) for item in value]
        if not rebuild or all(a is b for a, b in zip(out, value, strict=True)):
            return value
        if kind is tuple or kind is list:
            return kind(out)
        if hasattr(value, "_fields"):  # a NamedTuple
            return kind._make(out)
        return kind(out)
    if isinstance(value, dict):
        items = list(value.items())
        pairs = [(_walk(k, leaf, rebuild=rebuild, wanted=wanted),
                  _walk(v, leaf, rebuild=rebuild, wanted=wanted)) for k, v in items]
        if not rebuild or all(k2 is k and v2 is v
                              for (k2, v2), (k, v) in zip(pairs, items, strict=True)):
            return value
        return kind(pairs)
    if isinstance(value, set | frozenset):
        members = list(value)
        out = [_walk(v, leaf, rebuild=rebuild, wanted=wanted) for v in members]
        if not rebuild or all(a is b for a, b in zip(out, members, strict=True)):
            return value
        return kind(out)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes: dict[str, Any] = {}
        for name in _fields(kind)[0]:
            old = getattr(value, name)
            new = _walk(old, leaf, rebuild=rebuild, wanted=wanted)
            if new is not old:
                changes[name] = new
        if not rebuild or not changes:
            return value
        return _replace(value, changes)
    return value


def _replace(value: Any, changes: dict[str, Any]) -> Any:
    """A copy of dataclass ``value`` with ``changes``, without running ``__init__`` again
    (a frozen dataclass's post-init checks were passed by the original)."""
    cls = type(value)
    copy = object.__new__(cls)
    for name in _fields(cls)[0]:
        object.__setattr__(copy, name, changes.get(name, getattr(value, name)))
    return copy


class SealedOrder(tuple[Sealed, ...]):
    """The outcome of one `Shuffle` draw at a sealed table: nobody knows the permutation.

    It is a tuple (rules may check that a shuffle's result is one) of the ``n`` positions'
    tokens, but its only use is ``permute(items, order)``, which binds the items being
    shuffled (their canonical order, which is public) and returns one token per position,
    or the face of a position already shown to everyone (``faces``).  The mental poker
    layer then shuffles those items.
    """

    entry: int
    draw: int
    items: tuple[object, ...] | None
    faces: Mapping[Key, object]

    def __new__(cls, entry: int, draw: int, n: int,
                faces: Mapping[Key, object] | None = None) -> SealedOrder:
        order = super().__new__(cls, (Sealed(entry, draw, pos) for pos in range(n)))
        order.entry = entry
        order.draw = draw
        order.items = None
        order.faces = faces or {}
        return order

    @property
    def n(self) -> int:
        """The number of positions."""
        return len(self)

    def bind(self, items: Sequence[object]) -> tuple[object, ...]:
        """Take the ``items`` a shuffle permutes; the tokens (or shown faces) of its
        positions."""
        if len(items) != len(self):
            raise ValueError(f"a Shuffle({len(self)}) was applied to {len(items)} items")
        if self.items is not None and tuple(items) != self.items:
            raise ValueError("a sealed shuffle was applied to two different lists of items")
        self.items = tuple(items)
        faces = self.faces
        return tuple(faces.get(token.key, token) for token in self)

    def __reduce__(self) -> Any:
        raise TypeError("a sealed order is not a value to store")
