"""Drawing a Petals `View` for the terminal, as prompt_toolkit-style fragments.

The result is a list of ``(style, text)`` pairs with ``"\\n"`` between lines; this module
never imports prompt_toolkit (the client does).  It draws, top to bottom: a status line
(whose turn, draw pile, final round), the garden as a grid with each card's four flowers at
its sides in their element's colour and every empty cell where a card may go labelled with
its coordinates, any effect waiting for a choice, the trackers of every seat, and the hand.
A grid too wide for the screen drops the card ids; wider still, lines are cut at ``width``.
"""

from __future__ import annotations

import textwrap

from hedgerow.plugins.petals.cards import ELEMENTS, SYMBOL, card, flower_text
from hedgerow.plugins.petals.geometry import SIDES, frontier, placed
from hedgerow.plugins.petals.state import FINAL, OVER, View

Fragment = tuple[str, str]

ELEMENT_STYLES = ("fg:ansired bold", "fg:ansiblue bold", "fg:ansiyellow bold",
                  "fg:ansiwhite bold")
DIM = "fg:ansibrightblack"
ID = "fg:ansigreen"
MARK = "bold reverse"


def _flower(code: int) -> Fragment:
    style = ELEMENT_STYLES[code >> 2]
    if code & 3 == SYMBOL:
        style += " reverse"
    return (style, flower_text(code))


def _card_rows(value: int, ident: str, wide: bool) -> list[list[Fragment]]:
    """Three rows of one card: top flower; left, id, right; bottom flower."""
    top, right, bottom, left = SIDES[value]
    if wide:  # 8 columns: "   F3   " / "A2 01 W1" / "   E2   "
        lpad, rpad = "   ", "   "
        middle = [_flower(left), ("", " "), (ID, ident), ("", " "), _flower(right)]
    else:  # 5 columns: " F3  " / "A2 W1" / " E2  "
        lpad, rpad = " ", "  "
        middle = [_flower(left), ("", " "), _flower(right)]
    return [[("", lpad), _flower(top), ("", rpad)], middle,
            [("", lpad), _flower(bottom), ("", rpad)]]


def _empty_rows(label: str, size: int) -> list[list[Fragment]]:
    return [[("", " " * size)], [(DIM, label.center(size)[:size])], [("", " " * size)]]


def _garden(view: View, width: int) -> list[list[Fragment]]:
    cells = {(x, y): placed(c, r) for x, y, c, r in view.garden}
    spots = frontier(cells)
    xs = [x for x, _ in cells] + [x for x, _ in spots]
    ys = [y for _, y in cells] + [y for _, y in spots]
    low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
    columns = high_x - low_x + 1
    wide = 6 + 9 * columns <= width
    size = 8 if wide else 5
    pending = view.pending
    triggers = pending.triggers if pending else ()
    lines: list[list[Fragment]] = []
    header: list[Fragment] = [("", "      ")]
    for x in range(low_x, high_x + 1):
        header.append((DIM, f"x={x}".center(size) + " "))
    lines.append(header)
    open_cells = set(spots)
    for y in range(high_y, low_y - 1, -1):
        rows: list[list[Fragment]] = [[("", "      ")], [(DIM, f"y={y}".rjust(5) + " ")],
                                      [("", "      ")]]
        for x in range(low_x, high_x + 1):
            value = cells.get((x, y))
            if value is not None:
                ident = f"{value >> 2:02d}"
                block = _card_rows(value, ident, wide)
                if (x, y) in triggers:
                    block[1] = [(s + " underline", t) for s, t in block[1]]
            elif (x, y) in open_cells:
                block = _empty_rows(f"{x},{y}", size)
            else:
                block = _empty_rows("", size)
            for row, part in zip(rows, block, strict=True):
                row.extend(part)
                row.append(("", " "))
        lines.extend(rows)
    return lines


def _status(view: View, seat: int) -> list[Fragment]:
    parts: list[Fragment] = [("bold", "Petals"), ("", f"  you are seat {seat}  ")]
    if view.phase == OVER:
        parts.append(("bold", "game over"))
    else:
        who = "your turn" if view.active == seat else f"seat {view.active} to play"
        parts.append((MARK if view.active == seat else "bold", f" {who} "))
    parts.append(("", f"  draw pile: {view.pile_count}"))
    if view.phase == FINAL:
        parts.append(("fg:ansimagenta bold", f"  final round: {view.final_left} turn(s) left"))
    return parts


def _pending(view: View, seat: int, width: int) -> list[list[Fragment]]:
    pending = view.pending
    if pending is None:
        return []
    x, y = pending.played
    who = "You" if view.active == seat else f"Seat {view.active}"
    if pending.kind == "different":
        text = (f"Different symbols met at ({x},{y}). {who}: score the card just played, or "
                "move another card and score it instead.")
    else:
        text = (f"Identical symbols met at ({x},{y}). {who}: move another card and score it, "
                "or decline.")
    fixed = ", ".join(f"({a},{b})" for a, b in pending.triggers)
    text += f" Cards that may not move: {fixed}."
    return [[("fg:ansimagenta bold", line)] for line in textwrap.wrap(text, max(width, 20))]


def _trackers(view: View, seat: int) -> list[list[Fragment]]:
    best = [max(t[e] for t in view.trackers) for e in range(4)]
    head: list[Fragment] = [("bold", "Trackers     ")]
    head += [(ELEMENT_STYLES[e], f"{ELEMENTS[e]:>6}") for e in range(4)]
    head.append(("bold", "  hand"))
    lines = [head]
    for s, points in enumerate(view.trackers):
        marker = ">" if s == view.active else " "
        name = f"{marker}seat {s}" + (" (you)" if s == seat else "")
        row: list[Fragment] = [("bold" if s == seat else "", f"{name:<13}")]
        for e in range(4):
            style = "bold underline" if points[e] == best[e] else ""
            row.append((style, f"{points[e]:>6}"))
        row.append(("", f"{view.hand_sizes[s]:>6}"))
        lines.append(row)
    return lines


def _hand(view: View, cards: tuple[int, ...], title: str) -> list[list[Fragment]]:
    if not cards:
        return [[("bold", title), ("", " (empty)")]]
    rows: list[list[Fragment]] = [[("bold", title)], [], [], [], []]
    for ident in cards:
        block = _card_rows(placed(ident, 0), f"{ident:02d}", True)
        for row, part in zip(rows[1:4], block, strict=True):
            row.extend([("", "  "), *part, ("", " ")])
        rows[4].append((DIM, "  " + f"#{ident:02d}".center(8) + " "))
    return rows


def _crop(line: list[Fragment], width: int) -> list[Fragment]:
    out: list[Fragment] = []
    room = width
    for style, text in line:
        if room <= 0:
            break
        out.append((style, text[:room]))
        room -= len(text)
    return out


def render_view(view: View, seat: int, width: int) -> list[tuple[str, str]]:
    """The whole screen for ``seat``'s view, at most ``width`` columns wide."""
    lines: list[list[Fragment]] = [_status(view, seat), []]
    lines += _garden(view, width)
    lines.append([])
    pending = _pending(view, seat, width)
    if pending:
        lines += [*pending, []]
    lines += _trackers(view, seat)
    lines.append([])
    if view.phase == OVER:
        for s, cards in enumerate(view.scored_directly):
            text = ", ".join(str(card(c)) for c in cards) or "nothing"
            lines.append([("", f"Seat {s} scored directly: {text}")])
    else:
        lines += _hand(view, view.hand, "Your hand")
    out: list[Fragment] = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(f for f in _crop(line, width) if f[1])
    return out
