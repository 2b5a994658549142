"""The printed summary of many games: a results table, the grades reached, score histograms.

It reads a `hedgerow.core.tournament_stats.Tally` (one line per bot for ``hedgerow
tournament``, one per seat for ``hedgerow simulate``) and draws plain text that fits
``width`` columns (80 by default):

* the table: games, seats (when a line held several seats of a game), games won, win rate
  with its 95% Wilson interval (both per game: `hedgerow.core.tournament_stats`), mean and
  standard deviation of the score per seat, mean thinking time per move (ms);
* for games that grade a result (cooperative, solo): how often each grade was reached;
* the score distribution: one histogram per line, drawn left to right with the block
  characters ``▁▂▃▄▅▆▇█`` on a shared score axis, each line's most frequent score full
  height.
"""

from __future__ import annotations

import math
import textwrap

from hedgerow.core.tournament_stats import Line, Tally, wilson

BLOCKS = " ▁▂▃▄▅▆▇█"


def _fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters (the cut marked with an ellipsis)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    ms = seconds * 1000
    if ms < 10:
        return f"{ms:.2f}"
    if ms < 1000:
        return f"{ms:.1f}"
    return f"{ms:,.0f}"


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def results_table(tally: Tally, heading: str = "bot", width: int = 80) -> list[str]:
    """The per-line table; a column ``seats`` appears when a line filled several seats a game."""
    seats = any(line.seats != line.games for line in tally.lines)
    decided = tally.decided
    columns = [("games", 7)] + ([("seats", 7)] if seats else [])
    if decided:
        columns += [("wins", 7), ("win rate", 9), ("95% CI", 14)]
    columns += [("score", 8), ("sd", 7), ("ms/move", 9)]
    label_width = max(8, min(24, width - sum(w for _, w in columns) - 1))
    head = f"{heading:<{label_width}} " + "".join(f"{name:>{w}}" for name, w in columns)
    rows = [head.rstrip()]
    for line in tally.lines:
        cells = [str(line.games)] + ([str(line.seats)] if seats else [])
        if decided:
            if line.decided:
                rate = line.wins / line.decided
                low, high = wilson(line.wins, line.decided)
                cells += [str(line.wins), _percent(rate),
                          f"{100 * low:.1f}-{100 * high:.1f}%"]
            else:
                cells += ["-", "-", "-"]
        cells += [f"{line.score_mean:.2f}", f"{line.score_sd:.2f}", _ms(line.seconds_per_move)]
        text = f"{_fit(line.label, label_width):<{label_width}} " + "".join(
            f"{cell:>{w}}" for cell, (_, w) in zip(cells, columns, strict=True)
        )
        rows.append(text)
    return rows


def grades_table(tally: Tally, heading: str = "bot", width: int = 80) -> list[str]:
    """How often each line reached each grade, best grade first (empty when nothing is
    graded); a line of words per bot where a table would not fit ``width``."""
    order = tally.grade_order()
    if not order:
        return []

    def shares(line: Line) -> list[str]:
        total = sum(line.grades.values())
        return [_percent(line.grades[g] / total) if total else "-" for g in order]

    cell = max(8, *(len(g) + 1 for g in order))
    label_width = max(8, min(24, max(len(line.label) for line in tally.lines)))
    if label_width + 1 + cell * len(order) > width:
        return ["grades reached"] + [
            row
            for line in tally.lines
            for row in textwrap.wrap(f"{line.label}: " + ", ".join(
                f"{g} {s}" for g, s in zip(order, shares(line), strict=True)),
                width, subsequent_indent="    ")
        ]
    rows = [f"{'grades':<{label_width}} " + "".join(f"{g:>{cell}}" for g in order)]
    for line in tally.lines:
        rows.append(f"{_fit(line.label, label_width):<{label_width}} "
                    + "".join(f"{s:>{cell}}" for s in shares(line)))
    return rows


def _bars(line: Line, low: int, bin_width: int, columns: int) -> str:
    counts = [0] * columns
    for score, count in line.scores.items():
        counts[(score - low) // bin_width] += count
    tallest = max(counts) or 1
    return "".join(
        BLOCKS[0] if c == 0 else BLOCKS[max(1, math.ceil(8 * c / tallest))] for c in counts
    )


def histograms(tally: Tally, width: int = 80) -> list[str]:
    """One histogram of scores per line on a shared axis, with the axis's scores below."""
    scored = [score for line in tally.lines for score in line.scores]
    if not scored:
        return []
    low, high = min(scored), max(scored)
    label_width = max(8, min(16, max(len(line.label) for line in tally.lines)))
    room = width - label_width - 2
    bin_width = max(1, math.ceil((high - low + 1) / room))
    columns = (high - low) // bin_width + 1
    per = "score" if bin_width == 1 else f"{bin_width} scores"
    rows = [_fit(f"score distribution (one column per {per}; tallest bar: a line's most "
                 "frequent)", width)]
    for line in tally.lines:
        rows.append(f"{_fit(line.label, label_width):<{label_width}}  "
                    f"{_bars(line, low, bin_width, columns)}".rstrip())
    rows.append(" " * (label_width + 2) + _axis(low, bin_width, columns))
    return rows


def _axis(low: int, bin_width: int, columns: int) -> str:
    """Scores under the histogram: the first column's, then every ten columns' where they fit."""
    axis = [" "] * (columns + 8)
    for col in range(0, columns, 10):
        text = str(low + col * bin_width)
        if col and axis[col - 1] != " ":
            continue
        axis[col: col + len(text)] = text
    last = str(low + (columns - 1) * bin_width)
    start = columns - len(last)
    if columns > 1 and all(c == " " for c in axis[max(0, start - 1): columns]):
        axis[start: columns] = last
    return "".join(axis).rstrip()


def report(tally: Tally, heading: str = "bot", width: int = 80) -> list[str]:
    """The table, the grades (if any) and the histograms, separated by blank lines."""
    lines = [*textwrap.wrap(f"win: {tally.win_meaning()}", width, subsequent_indent="  "), "",
             *results_table(tally, heading, width)]
    grades = grades_table(tally, heading, width)
    if grades:
        lines += ["", *grades]
    shown = histograms(tally, width)
    if shown:
        lines += ["", *shown]
    return lines
