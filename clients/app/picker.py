"""The action picker: composes one of a seat's legal actions from keys and clicks, generically.

It knows nothing about any game.  It reads the legal actions' kinds and argument names and
sorts each argument into a role by the conventions of docs/client.md:

* ``card`` — a card from the seat's hand: picked with the number keys (or a click);
* ``x``, ``y`` — a cell; ``P_x``, ``P_y`` — a cell named ``P`` (``from_x``/``from_y``):
  picked with a cursor that moves over the legal cells only;
* ``rot`` (or ``rotation``) — a rotation: cycled with ``r``;
* any other argument — a menu.

Composing an action is a short walk: choose the kind (a menu, skipped when only one kind is
legal), then one step per cell or menu argument in a fixed order (plain cells, then
``from``/``src`` cells, then other cells by name, then menus by name); the card and the
rotation can be changed at any time.  The picker only ever offers values that some legal
action has, so whatever it returns from `Picker.confirm` is one of the legal actions
themselves: illegal input cannot be composed at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from hedgerow.core.actions import Action, Value

CARD_ARGS = ("card",)
ROT_ARGS = ("rot", "rotation")
#: Cell prefixes chosen first, in this order; other prefixes follow by name.
FIRST_PREFIXES = ("", "from", "src", "source")

#: How cell steps are named to the player, by prefix.
CELL_LABELS = {"": "a cell", "from": "the card to move", "src": "the card to move",
               "source": "the card to move", "to": "where it goes", "dst": "where it goes",
               "dest": "where it goes"}

Args = tuple[tuple[str, Value], ...]
#: A screen position (row, column) of a target, as drawn.
Pos = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Slot:
    """One sequential step of a kind: a cell (two args) or a menu (one arg)."""

    name: str  # the cell's prefix ("" for plain x, y) or the menu argument's name
    args: tuple[str, ...]  # ("x", "y"), ("from_x", "from_y") or ("n",)
    is_cell: bool

    def value(self, action_args: dict[str, Value]) -> tuple[Value, ...]:
        """This slot's values in one action's arguments."""
        return tuple(action_args.get(a) for a in self.args)  # type: ignore[misc]

    def tag(self, value: tuple[Value, ...]) -> dict[str, Value]:
        """The target tag a drawn cell carries for ``value`` (always ``x``, ``y``)."""
        if self.is_cell:
            return {"x": value[0], "y": value[1]}
        return {self.name: value[0]}

    def label(self) -> str:
        """How the step is named to the player ("the card to move", "where it goes")."""
        if not self.is_cell:
            return self.name
        return CELL_LABELS.get(self.name, f"the {self.name} cell")


@dataclass(frozen=True, slots=True)
class Shape:
    """How one kind's arguments split into roles."""

    card: str | None
    rot: str | None
    steps: tuple[Slot, ...]


def shape_of(names: Iterable[str]) -> Shape:
    """Sort a kind's argument names into roles (see the module docstring)."""
    names = set(names)
    card = next((n for n in CARD_ARGS if n in names), None)
    rot = next((n for n in ROT_ARGS if n in names), None)
    rest = names - {card, rot}
    cells: list[Slot] = []
    if {"x", "y"} <= rest:
        cells.append(Slot("", ("x", "y"), True))
        rest -= {"x", "y"}
    prefixes = sorted(n[:-2] for n in rest if n.endswith("_x") and n[:-2] + "_y" in rest)
    prefixes.sort(key=lambda p: (FIRST_PREFIXES.index(p) if p in FIRST_PREFIXES else 99, p))
    for p in prefixes:
        cells.append(Slot(p, (p + "_x", p + "_y"), True))
        rest -= {p + "_x", p + "_y"}
    menus = [Slot(n, (n,), False) for n in sorted(rest)]
    return Shape(card, rot, (*cells, *menus))


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a menu: a kind to enter, or a value of a menu argument."""

    label: str
    kind: str
    value: tuple[Value, ...] = ()
    action: Action | None = None  # the complete action this entry stands for, if any


@dataclass(slots=True)
class _Kind:
    name: str
    actions: list[Action] = field(default_factory=list)
    args: list[dict[str, Value]] = field(default_factory=list)
    shape: Shape = field(default_factory=lambda: Shape(None, None, ()))


def _distinct(values: Iterable[tuple[Value, ...]]) -> list[tuple[Value, ...]]:
    seen: dict[tuple[Value, ...], None] = {}
    for v in values:
        seen.setdefault(v, None)
    return list(seen)


def _step_towards(here: Pos, options: dict[tuple[Value, ...], Pos], direction: str,
                  ) -> tuple[Value, ...] | None:
    """The option nearest to ``here`` in ``direction`` (preferring straight lines)."""
    dr, dc = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[direction]
    best, best_cost = None, None
    for value, (r, c) in options.items():
        along = (r - here[0]) * dr + (c - here[1]) * dc
        if along <= 0:
            continue
        across = abs((r - here[0]) * dc) + abs((c - here[1]) * dr)
        cost = (along + 2 * across, across, r, c)
        if best_cost is None or cost < best_cost:
            best, best_cost = value, cost
    return best


class Picker:
    """Composes one legal action.  Rebuilt whenever the legal actions change; ``previous``
    (the picker it replaces) passes on where the cursor last was.

    ``positions(slot, value)`` tells where a target is drawn, as (row, column) on screen,
    or None when it is not drawn; arrows move by it, else by the cell's coordinates
    (x grows right, y grows up).
    """

    def __init__(self, legal: Sequence[Action], *, previous: Picker | None = None) -> None:
        kinds: dict[str, _Kind] = {}
        for action in legal:
            k = kinds.get(action.kind)
            if k is None:
                k = kinds[action.kind] = _Kind(action.kind)
            k.actions.append(action)
            k.args.append(dict(action.args))
        for k in kinds.values():
            k.shape = shape_of({n for a in k.args for n in a})
        self._kinds = kinds
        self.kind: str | None = next(iter(kinds)) if len(kinds) == 1 else None
        self.fixed: dict[str, Value] = {}
        self.step = 0
        self.cursor: tuple[Value, ...] | None = None
        self.menu_index = 0
        self.card: Value | None = None
        self._card_picked = False  # until the player picks, the first card is the one
        self.rot: Value | None = None
        self.card_order: list[Value] | None = None
        #: The last cell the cursor was on, kept from turn to turn (the next turn starts near it).
        self.last_cell: tuple[Value, ...] | None = previous.last_cell if previous else None
        if self.slot is not None and self.slot.is_cell:
            self.cursor = self.last_cell
        self._settle()

    # -- what is offered now ---------------------------------------------------------------

    @property
    def empty(self) -> bool:
        """True when there is nothing to pick (not this seat's turn)."""
        return not self._kinds

    @property
    def kinds(self) -> list[str]:
        """The legal kinds, in the order of the legal actions."""
        return list(self._kinds)

    @property
    def shape(self) -> Shape | None:
        """The roles of the chosen kind's arguments."""
        return self._kinds[self.kind].shape if self.kind else None

    @property
    def slot(self) -> Slot | None:
        """The current sequential step, or None when every step is chosen."""
        shape = self.shape
        if shape is None or self.step >= len(shape.steps):
            return None
        return shape.steps[self.step]

    @property
    def last_step(self) -> bool:
        """True at the last sequential step (or when the kind has none)."""
        shape = self.shape
        return shape is not None and self.step >= len(shape.steps) - 1

    def _matching(self, extra: dict[str, Value] | None = None, *, card: bool = True,
                  ) -> list[int]:
        """Indexes of the chosen kind's actions that agree with what is chosen so far."""
        if self.kind is None:
            return []
        k = self._kinds[self.kind]
        want = dict(self.fixed)
        if card and k.shape.card and self.card is not None:
            want[k.shape.card] = self.card
        if extra:
            want.update(extra)
        return [i for i, a in enumerate(k.args) if all(a.get(n) == v for n, v in want.items())]

    def card_options(self) -> list[Value]:
        """The cards that can be picked now (hand order when known, else legal order)."""
        shape = self.shape
        if shape is None or shape.card is None:
            return []
        k = self._kinds[self.kind]  # type: ignore[index]
        found = [v[0] for v in _distinct((k.args[i][shape.card],)
                                         for i in self._matching(card=False))]
        if self.card_order:
            order = {v: n for n, v in enumerate(self.card_order)}
            found.sort(key=lambda v: order.get(v, len(order)))
        return found

    def step_options(self) -> list[tuple[Value, ...]]:
        """The values the current step can take, in legal order."""
        slot = self.slot
        if slot is None:
            return []
        k = self._kinds[self.kind]  # type: ignore[index]
        return _distinct(slot.value(k.args[i]) for i in self._matching())

    def _here(self) -> dict[str, Value]:
        slot = self.slot
        if slot is None or self.cursor is None:
            return {}
        return dict(zip(slot.args, self.cursor, strict=True))

    def rot_options(self) -> list[Value]:
        """The rotations legal with everything else chosen (only at the last step)."""
        shape = self.shape
        if shape is None or shape.rot is None or not self.last_step:
            return []
        k = self._kinds[self.kind]  # type: ignore[index]
        return [v[0] for v in _distinct((k.args[i][shape.rot],)
                                        for i in self._matching(self._here()))]

    def current(self) -> Action | None:
        """The complete legal action composed so far, or None."""
        shape = self.shape
        if shape is None or not self.last_step:
            return None
        extra = self._here()
        if shape.rot is not None:
            extra[shape.rot] = self.rot  # type: ignore[assignment]
        found = self._matching(extra)
        return self._kinds[self.kind].actions[found[0]] if found else None  # type: ignore[index]

    def menu(self) -> list[Entry]:
        """The entries to choose from, when the current step is a menu (or the kind)."""
        if self.kind is None:
            entries = []
            for name, k in self._kinds.items():
                whole = k.actions[0] if len(k.actions) == 1 and not k.args[0] else None
                entries.append(Entry(name, name, action=whole))
            return entries
        slot = self.slot
        if slot is None or slot.is_cell:
            return []
        entries = []
        for value in self.step_options():
            whole = None
            if self.last_step:
                shape = self.shape
                extra = dict(zip(slot.args, value, strict=True))
                if shape is not None and shape.rot is not None:
                    extra[shape.rot] = self.rot  # type: ignore[assignment]
                found = self._matching(extra)
                if found:
                    whole = self._kinds[self.kind].actions[found[0]]
            entries.append(Entry(str(value[0]), self.kind, value, whole))
        return entries

    def highlighted(self) -> Action | None:
        """The action to preview: the composed one, or the highlighted menu entry's."""
        entries = self.menu()
        if entries:
            return entries[self.menu_index].action if self.menu_index < len(entries) else None
        return self.current()

    # -- keeping choices valid -------------------------------------------------------------

    def _settle(self) -> None:
        """Snap the card, the cursor and the rotation to values that are still legal."""
        cards = self.card_options()
        if cards and (self.card not in cards or not self._card_picked):
            self.card = cards[0]
        options = self.step_options()
        slot = self.slot
        if slot is not None and slot.is_cell and options and self.cursor not in options:
            if self.cursor is not None and len(self.cursor) == 2:
                cx, cy = self.cursor
                self.cursor = min(options, key=lambda v: (abs(v[0] - cx) + abs(v[1] - cy),  # type: ignore[operator]
                                                          options.index(v)))
            else:
                self.cursor = options[0]
        elif slot is not None and not slot.is_cell:
            self.cursor = None
        menu = self.menu()
        self.menu_index = min(self.menu_index, max(len(menu) - 1, 0))
        rots = self.rot_options()
        if rots and self.rot not in rots:
            self.rot = rots[0]
        if slot is not None and slot.is_cell and self.cursor is not None:
            self.last_cell = self.cursor

    # -- input -----------------------------------------------------------------------------

    def move(self, direction: str, positions: Callable[[Slot, tuple[Value, ...]], Pos | None],
             ) -> bool:
        """Move the cursor (a cell, a menu line, or the card) one step; True if it moved."""
        menu = self.menu()
        if menu:
            step = -1 if direction in ("up", "left") else 1
            new = max(0, min(len(menu) - 1, self.menu_index + step))
            moved, self.menu_index = new != self.menu_index, new
            return moved
        slot = self.slot
        if slot is not None and slot.is_cell and self.cursor is not None:
            options = self.step_options()
            drawn = {v: positions(slot, v) for v in options}
            if all(p is not None for p in drawn.values()) and drawn.get(self.cursor):
                where: dict[tuple[Value, ...], Pos] = drawn  # type: ignore[assignment]
            else:  # fall back on the coordinates: x grows right, y grows up
                where = {v: (-int(v[1]), int(v[0])) for v in options}  # type: ignore[arg-type]
            target = _step_towards(where[self.cursor], where, direction)
            if target is not None:
                self.cursor = target
                self._settle()
                return True
            return False
        cards = self.card_options()
        if len(cards) > 1 and direction in ("left", "right"):
            i = cards.index(self.card) + (1 if direction == "right" else -1)
            return self.pick_card(cards[i % len(cards)])
        return False

    def set_card_order(self, order: list[Value]) -> None:
        """The hand's order as drawn: number keys follow it, and it picks the first card."""
        if order != self.card_order:
            self.card_order = order
            self._settle()

    def pick_card(self, card: Value) -> bool:
        """Choose ``card`` from the hand; False when it cannot be played now."""
        if card not in self.card_options():
            return False
        self.card = card
        self._card_picked = True
        self._settle()
        return True

    def pick_number(self, n: int) -> bool:
        """The number key ``n`` (1-based): a menu entry, else the n-th card."""
        menu = self.menu()
        if menu:
            if not 1 <= n <= len(menu):
                return False
            self.menu_index = n - 1
            if menu[n - 1].action is None:  # a kind or value that needs more: go on at once
                self.confirm()
            return True
        cards = self.card_options()
        if not 1 <= n <= len(cards):
            return False
        return self.pick_card(cards[n - 1])

    def rotate(self, step: int = 1) -> bool:
        """Turn to the next legal rotation; False when there is nothing to turn."""
        rots = self.rot_options()
        if len(rots) < 2:
            return False
        i = rots.index(self.rot) if self.rot in rots else -step
        self.rot = rots[(i + step) % len(rots)]
        return True

    def point_at(self, tag: dict[str, Value]) -> str | None:
        """A click on a drawn target: ``"card"``, ``"cursor"``, ``"confirm"`` or None.

        Clicking a card picks it; clicking a legal cell moves the cursor there; clicking
        the cell under the cursor again means confirm (the caller then calls `confirm`).
        """
        shape = self.shape
        if shape and shape.card and shape.card in tag and self.pick_card(tag[shape.card]):
            return "card"
        slot = self.slot
        if slot is not None and slot.is_cell and "x" in tag and "y" in tag:
            value = (tag["x"], tag["y"])
            if value == self.cursor:
                return "confirm"
            if value in self.step_options():
                self.cursor = value
                self._settle()
                return "cursor"
        return None

    def confirm(self) -> Action | None:
        """Enter: finish the current step; the complete action once there is one to play."""
        menu = self.menu()
        if self.kind is None:
            if not menu:
                return None
            entry = menu[self.menu_index]
            if entry.action is not None:
                return entry.action
            self.kind, self.step, self.cursor, self.menu_index = entry.kind, 0, None, 0
            self._settle()
            return None
        slot = self.slot
        if slot is not None and not slot.is_cell:
            if not menu:
                return None
            entry = menu[self.menu_index]
            if entry.action is not None:
                return entry.action
            self.fixed.update(zip(slot.args, entry.value, strict=True))
            self.step, self.menu_index = self.step + 1, 0
            self._settle()
            return None
        if self.last_step:
            return self.current()
        if slot is not None and self.cursor is not None:
            self.fixed.update(zip(slot.args, self.cursor, strict=True))
            self.step += 1
            self._settle()
        return None

    def cancel(self) -> bool:
        """Esc: undo the last step (or leave the kind); False when there is nothing to undo."""
        shape = self.shape
        if shape is not None and self.step > 0:
            self.step -= 1
            slot = shape.steps[self.step]
            value = tuple(self.fixed.pop(a, None) for a in slot.args)
            self.cursor = value if slot.is_cell else None
            self.menu_index = 0
            self._settle()
            return True
        if self.kind is not None and len(self._kinds) > 1:
            self.menu_index = self.kinds.index(self.kind)
            self.kind, self.fixed, self.step, self.cursor = None, {}, 0, None
            self._settle()
            return True
        return False

    def chosen_cells(self) -> list[tuple[Value, ...]]:
        """Cells fixed by earlier steps (e.g. the card being moved), to keep highlighted."""
        shape = self.shape
        if shape is None:
            return []
        return [tuple(self.fixed[a] for a in s.args) for s in shape.steps[: self.step]
                if s.is_cell and all(a in self.fixed for a in s.args)]
