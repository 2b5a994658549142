"""Garden geometry (rules §3): sides, rotation, neighbours, the frontier, 8-connectivity.

A garden is a mapping ``(x, y) -> placed`` where ``placed = card_id * 4 + rotation``; x grows
to the right and y grows up.  Sides are 0 Top, 1 Right, 2 Bottom, 3 Left, and a card at
rotation ``r`` shows ``canonical[(s - r) % 4]`` on side ``s``.  `SIDES` holds that for every
card and rotation, computed once, so the rules never rotate anything at play time.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from hedgerow.plugins.petals.cards import CARDS

Cell = tuple[int, int]
Garden = Mapping[Cell, int]

TOP, RIGHT, BOTTOM, LEFT = 0, 1, 2, 3
SIDE_NAMES: tuple[str, ...] = ("top", "right", "bottom", "left")
#: The neighbour across side s is (x + dx, y + dy).
STEPS: tuple[Cell, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
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


def placed_card(value: int) -> int:
    """The card id of a garden value."""
    return value >> 2


def placed_rot(value: int) -> int:
    """The rotation of a garden value."""
    return value & 3


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
    x, y = cell
    fresh = [n for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y))
             if n not in cells and n not in old]
    if not fresh:
        return tuple(n for n in old if n != cell)
    return tuple(sorted([n for n in old if n != cell] + fresh))


def components(cells: Collection[Cell]) -> list[list[Cell]]:
    """The 8-connected groups of ``cells``, each sorted, in order of their smallest cell."""
    seen: set[Cell] = set()
    groups: list[list[Cell]] = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        group, todo = [start], [start]
        while todo:
            x, y = todo.pop()
            for dx, dy in RING:
                n = (x + dx, y + dy)
                if n in cells and n not in seen:
                    seen.add(n)
                    group.append(n)
                    todo.append(n)
        groups.append(sorted(group))
    return groups


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


def cut_cells(cells: Collection[Cell]) -> set[Cell] | None:
    """The cells whose removal splits an 8-connected ``cells`` (articulation points).

    One iterative depth-first search (Tarjan).  Returns None when ``cells`` is not
    connected to begin with, so the caller can fall back to checking each case directly.
    """
    if not cells:
        return set()
    root = min(cells)
    disc: dict[Cell, int] = {root: 0}
    low: dict[Cell, int] = {root: 0}
    cut: set[Cell] = set()
    root_children = 0
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
            if w not in disc:
                stack[-1] = (v, parent, i)
                disc[w] = low[w] = len(disc)
                stack.append((w, v, 0))
                break
            if w != parent and disc[w] < low[v]:
                low[v] = disc[w]
        else:
            stack.pop()
            if parent is not None:
                if low[v] < low[parent]:
                    low[parent] = low[v]
                if parent == root:
                    root_children += 1
                elif low[v] >= disc[parent]:
                    cut.add(parent)
    if len(disc) != len(cells):
        return None
    if root_children > 1:
        cut.add(root)
    return cut
