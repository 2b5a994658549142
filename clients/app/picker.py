"""The action picker: composes one of a seat's legal actions from keys and clicks.

It knows no game.  For each legal action kind it takes the game's `Form`
(`hedgerow.core.ui`): the steps that fill the kind's arguments, each naming the *role* of
what it selects.  Composing an action is a short walk:

* choose the kind (a menu, skipped when only one kind is legal);
* take the sequential steps in the form's order, each confirmed with Enter: a `Choose`
  (a cursor over the legal targets of its role: arrows, the number keys, a click), a
  `ChooseMany` (toggle targets with Space, the number keys or a click) or a `Menu`;
* meanwhile, change the free `Choose` (if the form has one: the number keys, a click, or
  ``←``/``→`` when nothing else is aimed) and, at the last step, the `Cycle` values (their
  keys, e.g. ``r``).

The picker offers only values that some legal action has, given everything chosen so far,
and whatever `Picker.confirm` returns is one of the legal actions themselves: illegal input
cannot be composed at all.  Values are kept per step as tuples of argument values; ``None``
in them means the argument is absent (an optional step left empty).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from math import gcd
from typing import TypeAlias, cast

from hedgerow.core.actions import Action, Value
from hedgerow.core.ui import Choose, ChooseMany, Cycle, Form, GameUI, Menu, Target, step_args

#: A screen position (row, column) of a target, as drawn.
Pos = tuple[int, int]
#: One step's value: its arguments' values in the step's order (None: absent).
Values = tuple[Value | None, ...]
Sequential: TypeAlias = Choose | ChooseMany | Menu
FormOf = Callable[[str, Iterable[str]], Form]
#: Where a `Choose` step's cursor starts, among its legal targets in drawn order (None: the
#: picker's own choice); the game's `GameUI.start`, with the view bound.
StartOf = Callable[[Choose, list[Target]], Target | None]


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a menu: a kind to enter, or a value of a menu argument."""

    label: str
    kind: str
    value: Values = ()
    action: Action | None = None  # the complete action this entry stands for, if any


@dataclass(slots=True)
class _Kind:
    name: str
    form: Form
    actions: list[Action] = field(default_factory=list)
    args: list[dict[str, Value]] = field(default_factory=list)
    free: Choose | None = None
    cycles: tuple[Cycle, ...] = ()
    steps: tuple[Sequential, ...] = ()

    def settle_form(self) -> None:
        """Split the form into its free step, its cycles and its sequential steps."""
        free = [s for s in self.form.steps if isinstance(s, Choose) and s.free]
        self.free = free[0] if free else None
        self.cycles = tuple(s for s in self.form.steps if isinstance(s, Cycle))
        self.steps = tuple(s for s in self.form.steps
                           if isinstance(s, (ChooseMany, Menu))
                           or (isinstance(s, Choose) and s is not self.free))


def _distinct(values: Iterable[Values]) -> list[Values]:
    return list(dict.fromkeys(values))


def _absent(values: Values) -> bool:
    return all(v is None for v in values)


def _as_cell(values: Values) -> tuple[int, int] | None:
    """Two int values read as a cell (x grows right, y grows up), else None."""
    if len(values) == 2 and all(type(v) is int for v in values):
        return cast(int, values[0]), cast(int, values[1])
    return None


def _pitch(values: Iterable[int]) -> int:
    """The grid step of drawn coordinates: the greatest common divisor of their gaps."""
    found = sorted(set(values))
    step = 0
    for a, b in pairwise(found):
        step = gcd(step, b - a)
    return step or 1


def _step_towards(here: Pos, options: dict[Values, Pos], direction: str) -> Values | None:
    """The option a step ``direction`` from ``here`` reaches, moving spatially.

    Positions are first scaled by the grid they are drawn on (a Petals cell is 3 rows by
    9 columns: one step each way), so that "up" weighs rows and columns alike.  Among the
    options ahead, those within 45° of the direction come first, the nearest of them
    counting a step aside as two steps ahead: a cell two or three ahead in the same row
    (column) comes before one diagonally beside (no diagonal surprise), and one beside
    before one far ahead across the garden; only when none is within 45°, the nearest
    anywhere ahead.  Ties go to the one less aside.
    """
    dr, dc = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[direction]
    rows = _pitch([p[0] for p in options.values()] + [here[0]])
    cols = _pitch([p[1] for p in options.values()] + [here[1]])
    best, best_cost = None, None
    for value, (r, c) in options.items():
        dy, dx = (r - here[0]) / rows, (c - here[1]) / cols
        along = dy * dr + dx * dc
        if along <= 0:
            continue
        across = abs(dy * dc) + abs(dx * dr)
        cost = (across > along, along + 2 * across if across <= along else
                along * along + across * across, across, r, c)
        if best_cost is None or cost < best_cost:
            best, best_cost = value, cost
    return best


def step_label(step: Sequential | Cycle) -> str:
    """How a step is named to the player."""
    return step.label or ", ".join(step_args(step))


class Picker:
    """Composes one legal action.  Rebuilt whenever the legal actions change; ``previous``
    (the picker it replaces) passes on where the cursor last was, role by role.

    ``form_of(kind, argument names)`` gives each kind's form (`GameUI.form`); ``positions``
    given to `move` tells where a target was drawn, as (row, column) on screen, or None;
    arrows move by it, else by the values read as cells (x grows right, y grows up), else
    through the options in order.
    """

    def __init__(self, legal: Sequence[Action], form_of: FormOf | GameUI | None = None, *,
                 previous: Picker | None = None, orders: dict[str, list[Value]] | None = None,
                 start: StartOf | None = None) -> None:
        if form_of is None:
            form_of = GameUI().form
        elif isinstance(form_of, GameUI):
            form_of = form_of.form
        kinds: dict[str, _Kind] = {}
        for action in legal:
            k = kinds.get(action.kind)
            if k is None:
                k = kinds[action.kind] = _Kind(action.kind, Form())
            k.actions.append(action)
            k.args.append(dict(action.args))
        for k in kinds.values():
            k.form = form_of(k.name, {n for a in k.args for n in a})
            k.settle_form()
        self._kinds = kinds
        self.kind: str | None = next(iter(kinds)) if len(kinds) == 1 else None
        self.fixed: dict[str, Value | None] = {}  # arguments fixed by confirmed steps
        self.step = 0
        self.cursor: Values | None = None  # the current Choose step's value
        self.selection: list[Value] = []  # the current ChooseMany step's targets
        self.menu_index = 0
        self.free: Values | None = None  # the free step's value
        self._free_picked = False  # until the player picks, the first option is the one
        self.cycles: dict[str, Value] = {}
        #: The drawn order of each role's targets (number keys follow it).
        self.orders: dict[str, list[Value]] = dict(orders or {})
        self._start = start
        #: The last value chosen per role, kept from turn to turn (the cursor starts near it).
        self.last: dict[str, Values] = dict(previous.last) if previous else {}
        self._enter_step()

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
    def _k(self) -> _Kind | None:
        return self._kinds[self.kind] if self.kind is not None else None

    @property
    def form(self) -> Form | None:
        """The chosen kind's form."""
        k = self._k
        return k.form if k else None

    @property
    def free_step(self) -> Choose | None:
        """The chosen kind's free step, if it has one."""
        k = self._k
        return k.free if k else None

    @property
    def slot(self) -> Sequential | None:
        """The current sequential step, or None when every step is chosen (or none needed)."""
        k = self._k
        if k is None or self.step >= len(k.steps):
            return None
        return k.steps[self.step]

    @property
    def last_step(self) -> bool:
        """True at the last sequential step (or when the kind has none)."""
        k = self._k
        return k is not None and self.step >= len(k.steps) - 1

    def _want(self, *, free: bool = True, extra: dict[str, Value | None] | None = None,
              ) -> dict[str, Value | None]:
        k = self._k
        want = dict(self.fixed)
        if free and k is not None and k.free is not None and self.free is not None:
            want.update(zip(k.free.args, self.free, strict=True))
        if extra:
            want.update(extra)
        return want

    def _matching(self, want: dict[str, Value | None]) -> list[int]:
        """Indexes of the chosen kind's actions that agree with ``want`` (None: absent)."""
        k = self._k
        if k is None:
            return []
        return [i for i, a in enumerate(k.args) if all(a.get(n) == v for n, v in want.items())]

    def _values(self, args: tuple[str, ...], indexes: Iterable[int]) -> list[Values]:
        k = self._k
        assert k is not None
        return _distinct(tuple(k.args[i].get(a) for a in args) for i in indexes)

    def _in_order(self, role: str, values: list[Values]) -> list[Values]:
        order = self.orders.get(role)
        if not order:
            return values
        rank = {v: n for n, v in enumerate(order)}

        def key(v: Values) -> int:
            if _absent(v):
                return len(rank) + 1
            return rank.get(cast(Value, v[0] if len(v) == 1 else v), len(rank))

        return sorted(values, key=key)

    def free_options(self) -> list[Values]:
        """The values the free step can take now (drawn order when known)."""
        k = self._k
        if k is None or k.free is None:
            return []
        found = self._values(k.free.args, self._matching(self._want(free=False)))
        return self._in_order(k.free.role, found)

    def step_options(self) -> list[Values]:
        """The values the current sequential step can take, in legal order; for a
        `ChooseMany`, the targets that can still be added or removed (one value each)."""
        slot = self.slot
        if slot is None:
            return []
        matching = self._matching(self._want())
        if isinstance(slot, ChooseMany):
            k = self._k
            assert k is not None
            chosen = set(self.selection)
            out: list[Values] = []
            for i in matching:
                value = k.args[i].get(slot.arg)
                if isinstance(value, tuple) and chosen <= set(value):
                    out += [(v,) for v in value]
            return _distinct(out)
        return self._values(step_args(slot), matching)

    def _here(self) -> dict[str, Value | None]:
        slot = self.slot
        if isinstance(slot, Choose) and self.cursor is not None:
            return dict(zip(slot.args, self.cursor, strict=True))
        return {}

    def cycle_options(self, cycle: Cycle) -> list[Value]:
        """The values ``cycle`` can take with everything else chosen (only at the last step)."""
        k = self._k
        if k is None or cycle not in k.cycles or not self.last_step:
            return []
        want = self._want(extra=self._here())
        for earlier in k.cycles[: k.cycles.index(cycle)]:
            want[earlier.arg] = self.cycles.get(earlier.arg)
        return [v[0] for v in self._values((cycle.arg,), self._matching(want))
                if v[0] is not None]

    def _complete(self, want: dict[str, Value | None]) -> Action | None:
        k = self._k
        assert k is not None
        slot = self.slot
        for i in self._matching(want):
            if isinstance(slot, ChooseMany):
                value = k.args[i].get(slot.arg)
                if not isinstance(value, tuple) or sorted(map(repr, value)) != sorted(
                        map(repr, self.selection)):
                    continue
            return k.actions[i]
        return None

    def current(self) -> Action | None:
        """The complete legal action composed so far, or None."""
        k = self._k
        if k is None or not self.last_step or isinstance(self.slot, Menu):
            return None
        want = self._want(extra=self._here())
        want.update({c.arg: self.cycles.get(c.arg) for c in k.cycles})
        return self._complete(want)

    def partial(self) -> dict[str, Value]:
        """Every argument chosen so far, the cursor's included (for the game's drawing)."""
        k = self._k
        if k is None:
            return {}
        want = self._want(extra=self._here())
        if isinstance(self.slot, ChooseMany):
            want[self.slot.arg] = tuple(self.selection)
        if self.last_step:
            want.update({c.arg: self.cycles[c.arg] for c in k.cycles if c.arg in self.cycles})
        return {n: v for n, v in want.items() if v is not None}

    def menu(self) -> list[Entry]:
        """The entries to choose from, when the current step is a menu (or the kind)."""
        entries: list[Entry] = []
        if self.kind is None:
            for name, each in self._kinds.items():
                whole = each.actions[0] if len(each.actions) == 1 and not each.args[0] else None
                entries.append(Entry(each.form.label or name, name, action=whole))
            return entries
        slot = self.slot
        if not isinstance(slot, Menu):
            return []
        k = self._k
        assert k is not None
        for value in self.step_options():
            whole = None
            if self.last_step:
                want = self._want(extra={slot.arg: value[0]})
                want.update({c.arg: self.cycles.get(c.arg) for c in k.cycles})
                whole = self._complete(want)
            label = "none" if value[0] is None else str(value[0])
            entries.append(Entry(label, self.kind, value, whole))
        return entries

    def highlighted(self) -> Action | None:
        """The action to preview: the composed one, or the highlighted menu entry's."""
        entries = self.menu()
        if entries:
            return entries[self.menu_index].action if self.menu_index < len(entries) else None
        return self.current()

    # -- targets, for the drawing ----------------------------------------------------------

    def cursor_target(self) -> Target | None:
        """The target under the cursor of the current step."""
        slot = self.slot
        if isinstance(slot, Choose) and self.cursor is not None:
            return slot.target(self.cursor)
        if isinstance(slot, ChooseMany) and self.cursor is not None:
            return Target(slot.role, cast(Value, self.cursor[0]))
        return None

    def option_targets(self) -> set[Target]:
        """The targets the current step and the free step can select."""
        found: set[Target] = set()
        slot = self.slot
        if isinstance(slot, Choose):
            found |= {t for v in self.step_options() if (t := slot.target(v)) is not None}
        elif isinstance(slot, ChooseMany):
            found |= {Target(slot.role, cast(Value, v[0])) for v in self.step_options()}
        free = self.free_step
        if free is not None:
            found |= {t for v in self.free_options() if (t := free.target(v)) is not None}
        return found

    def selected_targets(self) -> set[Target]:
        """The free step's value, and the targets a `ChooseMany` has gathered so far."""
        found: set[Target] = set()
        free = self.free_step
        if free is not None and self.free is not None:
            target = free.target(self.free)
            if target is not None:
                found.add(target)
        slot = self.slot
        if isinstance(slot, ChooseMany):
            found |= {Target(slot.role, v) for v in self.selection}
        return found

    def chosen_targets(self) -> set[Target]:
        """Targets fixed by earlier steps (e.g. the card being moved), to keep highlighted."""
        k = self._k
        found: set[Target] = set()
        if k is None:
            return found
        for step in k.steps[: self.step]:
            if isinstance(step, Choose):
                target = step.target(tuple(self.fixed.get(a) for a in step.args))
                if target is not None:
                    found.add(target)
            elif isinstance(step, ChooseMany):
                value = self.fixed.get(step.arg)
                if isinstance(value, tuple):
                    found |= {Target(step.role, v) for v in value}
        return found

    def choices_so_far(self) -> list[tuple[str, Target | str]]:
        """What earlier steps chose, as (step label, target or menu value), in order."""
        k = self._k
        out: list[tuple[str, Target | str]] = []
        if k is None:
            return out
        for step in k.steps[: self.step]:
            label = step_label(step)
            if isinstance(step, Choose):
                target = step.target(tuple(self.fixed.get(a) for a in step.args))
                out.append((label, target if target is not None else "none"))
            elif isinstance(step, ChooseMany):
                value = self.fixed.get(step.arg)
                for v in value if isinstance(value, tuple) else ():
                    out.append((label, Target(step.role, v)))
            else:
                out.append((label, str(self.fixed.get(step.arg, "none"))))
        return out

    # -- keeping choices valid -------------------------------------------------------------

    def _enter_step(self) -> None:
        """Start the current step afresh: the cursor where it last was for its role."""
        slot = self.slot
        self.menu_index = 0
        self.selection = []
        self.cursor = None
        if isinstance(slot, Choose):
            options = self.step_options()
            if any(_absent(v) for v in options):
                self.cursor = tuple(None for _ in slot.args)  # optional: start on nothing
            else:
                self.cursor = self._started(slot, options) or self.last.get(slot.role)
        self._settle()

    def _started(self, slot: Choose, options: list[Values]) -> Values | None:
        """Where the game wants the cursor of ``slot`` to start (`GameUI.start`), if it
        names one of the options."""
        if self._start is None:
            return None
        drawn = self._in_order(slot.role, options)
        targets = [t for v in drawn if (t := slot.target(v)) is not None]
        found = self._start(slot, targets)
        values = slot.values(found) if isinstance(found, Target) else None
        return values if values in options else None

    def _settle(self) -> None:
        """Snap the free value, the cursor and the cycles to values that are still legal."""
        k = self._k
        frees = self.free_options()
        if frees and (self.free not in frees or not self._free_picked):
            self.free = frees[0]
        slot = self.slot
        options = self.step_options()
        if isinstance(slot, Choose) and options and self.cursor not in options:
            self.cursor = self._nearest(options)
        elif isinstance(slot, ChooseMany):
            allowed = {v[0] for v in options}
            self.selection = [v for v in self.selection if v in allowed]
            if options and self.cursor not in options:
                self.cursor = options[0]
        menu = self.menu()
        self.menu_index = min(self.menu_index, max(len(menu) - 1, 0))
        for cycle in k.cycles if k is not None else ():
            values = self.cycle_options(cycle)
            if values and self.cycles.get(cycle.arg) not in values:
                self.cycles[cycle.arg] = values[0]
        if isinstance(slot, Choose) and self.cursor is not None and not _absent(self.cursor):
            self.last[slot.role] = self.cursor

    def _nearest(self, options: list[Values]) -> Values:
        here = _as_cell(self.cursor) if self.cursor is not None else None
        if here is not None:
            cells = [(v, c) for v in options if (c := _as_cell(v)) is not None]
            if cells:
                return min(cells, key=lambda vc: (abs(vc[1][0] - here[0])
                                                  + abs(vc[1][1] - here[1]),
                                                  options.index(vc[0])))[0]
        real = [v for v in options if not _absent(v)]
        return real[0] if real else options[0]

    # -- input -----------------------------------------------------------------------------

    def move(self, direction: str, positions: Callable[[Target], Pos | None]) -> bool:
        """Move the cursor (a target, a menu line, or the free value) one step; True if it
        moved."""
        menu = self.menu()
        if menu:
            step = -1 if direction in ("up", "left") else 1
            new = max(0, min(len(menu) - 1, self.menu_index + step))
            moved, self.menu_index = new != self.menu_index, new
            return moved
        slot = self.slot
        if isinstance(slot, (Choose, ChooseMany)) and self.cursor is not None:
            options = [v for v in self.step_options() if not _absent(v)]
            if not options:
                return False
            if _absent(self.cursor):
                self.cursor = self._nearest(options)
                self._settle()
                return True
            target = self._target_of(slot, self.cursor)
            return self._move_among(slot, options, direction, positions, target)
        frees = self.free_options()
        if len(frees) > 1 and direction in ("left", "right") and self.free in frees:
            i = frees.index(self.free) + (1 if direction == "right" else -1)
            return self.pick_free(frees[i % len(frees)])
        return False

    @staticmethod
    def _target_of(slot: Choose | ChooseMany, value: Values) -> Target | None:
        if isinstance(slot, Choose):
            return slot.target(value)
        return Target(slot.role, cast(Value, value[0]))

    def _move_among(self, slot: Choose | ChooseMany, options: list[Values], direction: str,
                    positions: Callable[[Target], Pos | None], here: Target | None) -> bool:
        assert self.cursor is not None
        drawn = {v: positions(t) for v in options if (t := self._target_of(slot, v))}
        cells = {v: _as_cell(v) for v in options}
        where: dict[Values, Pos]
        if all(p is not None for p in drawn.values()) and here is not None and positions(here):
            where = {v: p for v, p in drawn.items() if p is not None}
        elif all(c is not None for c in cells.values()):
            where = {v: (-c[1], c[0]) for v, c in cells.items() if c is not None}
        else:  # neither drawn nor cells: through the options in order
            i = options.index(self.cursor) if self.cursor in options else 0
            i += 1 if direction in ("right", "down") else -1
            if not 0 <= i < len(options):
                return False
            self.cursor = options[i]
            self._settle()
            return True
        if self.cursor not in where:
            return False
        target = _step_towards(where[self.cursor], where, direction)
        if target is None:
            return False
        self.cursor = target
        self._settle()
        return True

    def set_orders(self, orders: dict[str, list[Value]]) -> None:
        """Each role's targets in drawn order: number keys follow it, and the free step's
        first drawn option is the one until the player picks."""
        if orders != self.orders:
            self.orders = orders
            self._settle()

    def pick_free(self, value: Values) -> bool:
        """Choose the free step's value; False when it cannot be chosen now."""
        if value not in self.free_options():
            return False
        self.free = value
        self._free_picked = True
        self._settle()
        return True

    def _nth(self, role: str, n: int, options: list[Values], step: Choose | ChooseMany,
             ) -> Values | None:
        """The n-th target of ``role`` as drawn (1-based), as step values, if it is drawn."""
        order = self.orders.get(role)
        if order:
            if not 1 <= n <= len(order):
                return None
            target = Target(role, order[n - 1])
            values = step.values(target) if isinstance(step, Choose) else (target.value,)
            return values if values in options else None
        real = [v for v in options if not _absent(v)]
        return real[n - 1] if 1 <= n <= len(real) else None

    def pick_number(self, n: int) -> bool:
        """The number key ``n`` (1-based): a menu entry (highlighted only: Enter takes it,
        as the key line says), the free step's n-th target, or the current step's n-th
        target."""
        menu = self.menu()
        if menu:
            if not 1 <= n <= len(menu):
                return False
            self.menu_index = n - 1
            return True
        free = self.free_step
        if free is not None:
            value = self._nth(free.role, n, self.free_options(), free)
            return value is not None and self.pick_free(value)
        slot = self.slot
        if isinstance(slot, (Choose, ChooseMany)):
            value = self._nth(slot.role, n, self.step_options(), slot)
            if value is None:
                return False
            self.cursor = value
            if isinstance(slot, ChooseMany):
                return self.toggle()
            self._settle()
            return True
        return False

    def cycle(self, key: str) -> bool:
        """The key of a `Cycle` (or its ``back`` key): turn to the next legal value."""
        k = self._k
        for c in k.cycles if k is not None else ():
            if key in (c.key, c.back):
                values = self.cycle_options(c)
                if len(values) < 2:
                    return False
                step = 1 if key == c.key else -1
                now = self.cycles.get(c.arg)
                i = values.index(now) if now in values else -step
                self.cycles[c.arg] = values[(i + step) % len(values)]
                self._settle()
                return True
        return False

    def cycle_keys(self) -> list[tuple[Cycle, int]]:
        """The cycles that can turn now, with how many values each has."""
        k = self._k
        return [(c, len(self.cycle_options(c))) for c in (k.cycles if k else ())
                if len(self.cycle_options(c)) > 1]

    def toggle(self) -> bool:
        """Space in a `ChooseMany`: add or remove the target under the cursor."""
        slot = self.slot
        if not isinstance(slot, ChooseMany) or self.cursor is None:
            return False
        value = self.cursor[0]
        if value in self.selection:
            self.selection.remove(value)
        elif (value,) in self.step_options():
            self.selection.append(cast(Value, value))
        else:
            return False
        self._settle()
        return True

    def clear(self) -> bool:
        """Backspace: back to "nothing" in an optional step; empty a `ChooseMany`."""
        slot = self.slot
        if isinstance(slot, ChooseMany) and self.selection:
            self.selection = []
            self._settle()
            return True
        if isinstance(slot, Choose):
            nothing = tuple(None for _ in slot.args)
            if nothing in self.step_options() and self.cursor != nothing:
                self.cursor = nothing
                self._settle()
                return True
        return False

    def set_sizes(self) -> list[int]:
        """In a `ChooseMany` step: how many targets the legal sets have (given what is
        chosen so far), fewest first; else empty."""
        slot = self.slot
        k = self._k
        if not isinstance(slot, ChooseMany) or k is None:
            return []
        sizes = {len(value) for i in self._matching(self._want())
                 if isinstance(value := k.args[i].get(slot.arg), tuple)}
        return sorted(sizes)

    def can_clear(self) -> bool:
        """True when Backspace (`clear`) would change something."""
        slot = self.slot
        if isinstance(slot, ChooseMany):
            return bool(self.selection)
        if isinstance(slot, Choose):
            nothing = tuple(None for _ in slot.args)
            return self.cursor != nothing and nothing in self.step_options()
        return False

    def point_at(self, target: Target) -> str | None:
        """A click on a drawn target: ``"free"``, ``"cursor"``, ``"toggle"``, ``"confirm"``
        or None.

        Clicking the free step's target picks it; clicking a legal target of the current
        step moves the cursor there (toggles it in a `ChooseMany`); clicking the target under
        the cursor again means confirm (the caller then calls `confirm`).  In the menu of
        kinds, a target that only one kind's form can select enters that kind with the
        target chosen (``"kind"`` if the kind has no step for it after all); nothing is
        played before another Enter or click.
        """
        if self.kind is None:  # the kind menu: the kind whose form selects the target
            kind = self._kind_selecting(target)
            if kind is None:
                return None
            self.kind, self.step = kind, 0
            self._enter_step()
            found = self.point_at(target)
            return "cursor" if found == "confirm" else found or "kind"  # never played at once
        free = self.free_step
        if free is not None:
            values = free.values(target)
            if values is not None and self.pick_free(values):
                return "free"
        slot = self.slot
        if isinstance(slot, Choose):
            values = slot.values(target)
            if values is None:
                return None
            if values == self.cursor:
                return "confirm"
            if values in self.step_options():
                self.cursor = values
                self._settle()
                return "cursor"
        elif (isinstance(slot, ChooseMany) and target.role == slot.role
              and (target.value,) in self.step_options()):
            self.cursor = (target.value,)
            return "toggle" if self.toggle() else None
        return None

    def _kind_selecting(self, target: Target) -> str | None:
        """The one legal kind whose free step or first step can select ``target`` (None
        when none can, or several: the menu decides then)."""
        found: list[str] = []
        for name, k in self._kinds.items():
            first = k.steps[0] if k.steps else None
            for step in (k.free, first):
                if isinstance(step, Choose):
                    values = step.values(target)
                    if values is not None and any(
                            tuple(a.get(n) for n in step.args) == values for a in k.args):
                        found.append(name)
                        break
                elif isinstance(step, ChooseMany) and target.role == step.role and any(
                        isinstance(a.get(step.arg), tuple)
                        and target.value in cast(tuple, a.get(step.arg)) for a in k.args):
                    found.append(name)
                    break
        return found[0] if len(found) == 1 else None

    def confirm(self) -> Action | None:
        """Enter: finish the current step; the complete action once there is one to play."""
        menu = self.menu()
        if self.kind is None:
            if not menu:
                return None
            entry = menu[self.menu_index]
            if entry.action is not None:
                return entry.action
            self.kind, self.step = entry.kind, 0
            self._enter_step()
            return None
        slot = self.slot
        if isinstance(slot, Menu):
            if not menu:
                return None
            entry = menu[self.menu_index]
            if entry.action is not None:
                return entry.action
            self.fixed[slot.arg] = entry.value[0]
        elif self.last_step:
            return self.current()
        elif isinstance(slot, Choose):
            if self.cursor is None:
                return None
            self.fixed.update(zip(slot.args, self.cursor, strict=True))
        elif isinstance(slot, ChooseMany):
            whole = self._complete(self._want())
            if whole is None:
                return None
            self.fixed[slot.arg] = whole.get(slot.arg)
        self.step += 1
        self._enter_step()
        return None

    def cancel(self) -> bool:
        """Esc: undo the last step (or leave the kind); False when there is nothing to undo."""
        k = self._k
        if k is not None and self.step > 0:
            self.step -= 1
            slot = k.steps[self.step]
            values = tuple(self.fixed.pop(a, None) for a in step_args(slot))
            self._enter_step()
            if isinstance(slot, Choose):
                self.cursor = values
            elif isinstance(slot, ChooseMany) and isinstance(values[0], tuple):
                self.selection = list(values[0])
            self._settle()
            return True
        if self.kind is not None and len(self._kinds) > 1:
            self.menu_index = self.kinds.index(self.kind)
            self.kind, self.fixed, self.step, self.cursor = None, {}, 0, None
            self._settle()
            return True
        return False
