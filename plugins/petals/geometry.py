"""Garden geometry (rules §3): sides, rotation, neighbours, the frontier, 8-connectivity.

A garden is a mapping ``(x, y) -> placed`` where ``placed = card_id * 4 + rotation``; x grows
to the right and y grows up.  Sides are 0 Top, 1 Right, 2 Bottom, 3 Left, and a card at
rotation ``r`` shows ``canonical[(s - r) % 4]`` on side ``s``.  `SIDES` holds that for every
card and rotation, computed once, so the rules never rotate anything at play time.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from hedgerow.plugins.petals.cards import CARDS

Cell = tuple[int, int]
Garden = Mapping[Cell, int]

#: The eight cells around a cell (edges and corners).
RING: tuple[Cell, ...] = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def opposite(side: int) -> int:
    """The side facing ``side`` across an edge."""
    return (side + 2) % 4


def rotate(flowers: tuple[int, int, int, int], rot: int) -> tuple[int, int, int, int]:
    """The flowers shown on Top, Right, Bottom, Left after ``rot`` clockwise quarter turns."""
    return (flowers[(0 - rot) % 4], flowers[(1 - rot) % 4], flowers[(2 - rot) % 4],
            flowers[(3 - rot) % 4])


def placed(card: int, rot: int) -> int:
    """The garden value for ``card`` at rotation ``rot``."""
    return card * 4 + rot


def _side_table() -> tuple[tuple[int, int, int, int], ...]:
    table: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * (4 * len(CARDS))
    for c in CARDS:
        if c is not None:
            for rot in range(4):
                table[placed(c.id, rot)] = rotate(c.flowers, rot)
    return tuple(table)


#: ``SIDES[placed(card, rot)]``: the flower codes on Top, Right, Bottom, Left.
SIDES: tuple[tuple[int, int, int, int], ...] = _side_table()


def side_neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The cells across sides 0-3 of ``cell``."""
    x, y = cell
    return ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y))


def touches_side(cells: Collection[Cell], cell: Cell, without: Cell | None = None) -> bool:
    """True when ``cell`` shares an edge with a cell of ``cells`` other than ``without``."""
    x, y = cell
    for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
        if n != without and n in cells:
            return True
    return False


def surrounded(cells: Collection[Cell], cell: Cell) -> bool:
    """True when all four side-neighbours of ``cell`` are occupied."""
    x, y = cell
    return ((x, y + 1) in cells and (x + 1, y) in cells and (x, y - 1) in cells
            and (x - 1, y) in cells)


def frontier(cells: Collection[Cell]) -> tuple[Cell, ...]:
    """Every empty cell that shares an edge with an occupied one, sorted."""
    out = set()
    for x, y in cells:
        for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
            if n not in cells:
                out.add(n)
    return tuple(sorted(out))


def grow_frontier(old: tuple[Cell, ...], cells: Collection[Cell], cell: Cell) -> tuple[Cell, ...]:
    """The frontier after ``cell`` was filled (``cells`` already holds it; ``old`` is before)."""
    out = list(old)
    i = bisect_left(out, cell)
    if i < len(out) and out[i] == cell:
        del out[i]
    x, y = cell
    for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
        if n not in cells:
            j = bisect_left(out, n)
            if j == len(out) or out[j] != n:
                out.insert(j, n)
    return tuple(out)


def moved_frontier(old: tuple[Cell, ...], cells: Collection[Cell], src: Cell, dst: Cell,
                   ) -> tuple[Cell, ...]:
    """The frontier after the card at ``src`` moved to ``dst`` (``cells`` already shows the
    move; ``old`` is the frontier before it), equal to ``frontier(cells)``: only ``src``,
    ``dst`` and their side neighbours can change whether they are on it."""
    out = set(old)
    sx, sy = src
    dx, dy = dst
    for c in (src, dst, (sx, sy + 1), (sx + 1, sy), (sx, sy - 1), (sx - 1, sy),
              (dx, dy + 1), (dx + 1, dy), (dx, dy - 1), (dx - 1, dy)):
        if c not in cells and touches_side(cells, c):
            out.add(c)
        else:
            out.discard(c)
    return tuple(sorted(out))


def _ring_joined() -> tuple[bool, ...]:
    """For each set of occupied cells around a cell (bit i for `RING` [i]): one 8-group?"""
    out = []
    for mask in range(256):
        ring = [RING[i] for i in range(8) if mask >> i & 1]
        seen, todo = set(ring[:1]), ring[:1]
        while todo:
            ax, ay = todo.pop()
            for b in ring:
                if b not in seen and abs(b[0] - ax) <= 1 and abs(b[1] - ay) <= 1:
                    seen.add(b)
                    todo.append(b)
        out.append(bool(ring) and len(seen) == len(ring))
    return tuple(out)


_RING_JOINED = _ring_joined()


def locally_removable(cells: Collection[Cell], cell: Cell) -> bool:
    """True when the occupied cells around ``cell`` touch one another without it.

    Then taking ``cell`` out of a connected set leaves it connected (any path through it
    can go round it).  False does not mean it would split: ask `find_cuts`.
    """
    x, y = cell
    mask = 0
    for i, (dx, dy) in enumerate(RING):
        if (x + dx, y + dy) in cells:
            mask |= 1 << i
    return _RING_JOINED[mask]


def connected(cells: Collection[Cell], extra: Iterable[Cell] = (), without: Cell | None = None,
              ) -> bool:
    """True when ``cells`` (plus ``extra``, minus ``without``) form one 8-connected set."""
    group = {c for c in cells if c != without}
    group.update(extra)
    if not group:
        return True
    start = next(iter(sorted(group)))
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for dx, dy in RING:
            n = (x + dx, y + dy)
            if n in group and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(group)


@dataclass(frozen=True, slots=True)
class Cuts:
    """How a connected garden falls apart when one cell is taken out (one Tarjan search).

    ``split`` maps each cut cell to the first cells (depth-first) of the parts that would
    break away from the rest; ``order`` and ``size`` place every cell in the search tree,
    so that each such part is a slice of ``cells`` (the cells in search order).
    """

    root: Cell
    order: dict[Cell, int]
    size: dict[Cell, int]
    split: dict[Cell, tuple[Cell, ...]]
    cells: tuple[Cell, ...]  # in search order: a part is a slice of it

    def parts(self, cut: Cell) -> list[tuple[Cell, ...]]:
        """The cells of each part that breaks away from the rest without ``cut``.

        Without ``cut`` the garden falls into these parts plus, unless ``cut`` is the search
        root, the rest (every other cell).
        """
        out = []
        for head in self.split[cut]:
            start = self.order[head]
            out.append(self.cells[start:start + self.size[head]])
        return out


def find_cuts(cells: Collection[Cell]) -> Cuts | None:
    """The cut cells of an 8-connected ``cells`` (articulation points), or None when
    ``cells`` is empty or not connected to begin with."""
    if not cells:
        return None
    root = min(cells)
    order: dict[Cell, int] = {root: 0}
    low: dict[Cell, int] = {root: 0}
    size: dict[Cell, int] = {root: 1}
    split: dict[Cell, list[Cell]] = {}
    heads: list[Cell] = []
    stack: list[tuple[Cell, Cell | None, int]] = [(root, None, 0)]
    while stack:
        v, parent, i = stack[-1]
        x, y = v
        while i < 8:
            dx, dy = RING[i]
            i += 1
            w = (x + dx, y + dy)
            if w not in cells:
                continue
            if w not in order:
                stack[-1] = (v, parent, i)
                order[w] = low[w] = len(order)
                size[w] = 1
                stack.append((w, v, 0))
                break
            if w != parent and order[w] < low[v]:
                low[v] = order[w]
        else:
            stack.pop()
            if parent is not None:
                size[parent] += size[v]
                if low[v] < low[parent]:
                    low[parent] = low[v]
                if parent == root:
                    heads.append(v)
                elif low[v] >= order[parent]:
                    split.setdefault(parent, []).append(v)
    if len(order) != len(cells):
        return None
    if len(heads) > 1:
        split[root] = heads
    return Cuts(root, order, size, {c: tuple(h) for c, h in split.items()}, tuple(order))
