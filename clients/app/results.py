"""The results screen, for each kind of outcome, and the one line said after the screen closes.

* `Ranked`: a bar chart, one row per player by rank (named as everywhere else), one
  column per ``breakdown`` entry (the scores when there is none); the winners starred, the
  eliminated crossed out.  A column is not starred for its best value: whether more is
  better is the game's to say (Harmony's spread, FLOWERS' groups removed), in its own
  results parts.
* `Cooperative`: the team total, the grades with their thresholds (which were reached, how
  far the next one was), and each seat's contribution as a bar chart.
* `Solo`: the score, the grade, won or lost (where the game can be lost), the opponent's
  score (where there is one), and the breakdown.
* `Match`: each game's points per seat (its winners starred) with the total, the running
  totals after each game, each game's headline, and the final winner.

Then, for every kind: the game's own results parts (`RESULTS` area of its UI object: Petals
shows where each player's points came from) and the explanation with the players named.
A screen taller than the terminal scrolls with the arrows, a marker on its edge row
saying how many lines are out of sight that way (`window`); where the log is saved stays
on the line under it (`saved_line`), and at a sealed table, above that, what the check of
every shuffle, key and action found once every player's program disclosed its secret
(`deck_line`: checking…, checks out, or the fault), which `farewell_lines` repeat after
the screen has closed.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples

from hedgerow.clients.app.deckwords import verification
from hedgerow.clients.app.names import fill_name, fit_names, name_seats, seat_name
from hedgerow.clients.app.render import wrap
from hedgerow.clients.app.state import SeatState
from hedgerow.core.outcome import Cooperative, Match, Outcome, Ranked, Solo, headline
from hedgerow.core.ui import RESULTS
from hedgerow.net.messages import SeatEvent
from hedgerow.net.seat import Seat

BLOCKS = " ▏▎▍▌▋▊▉█"
Column = tuple[str, Sequence[int]]


def farewell_lines(seat: Seat) -> list[str]:
    """What a person reads about the game once the screen has closed: the result, worded for
    its kind, or the end the table agreed on (`farewell`); then, at a sealed table, what the
    check of every shuffle, key and action found (`deckwords.verification`)."""
    names = {i.seat: seat_name(i) for i in seat.seats()}
    ended = seat.departures.ended
    lines = [farewell(seat.outcome(), [names.get(s, f"seat {s}") for s in range(seat.players)],
                      seat.seat, ended)]
    check = verification(seat, ended=ended is not None and seat.outcome() is None, left=True)
    if check is not None:
        lines.append(check.text)
    return lines


def bar(value: int, top: int, size: int) -> str:
    """A horizontal bar of ``value`` out of ``top`` in ``size`` cells (eighths resolution)."""
    if top <= 0 or size <= 0:
        return " " * max(size, 0)
    eighths = round(8 * size * max(value, 0) / top)
    full, part = divmod(eighths, 8)
    text = "█" * full + (BLOCKS[part] if part else "")
    return text.ljust(size)[:size]


def label_lines(label: str, size: int, most: int = 3) -> list[str]:
    """A column label on at most ``most`` lines of at most ``size`` characters: broken
    between words; a word longer than a line is abbreviated with a full stop
    ("Butterflies" in 8: "Butterf."), and the last line ends with "…" when words are left
    over."""
    size = max(size, 2)
    words = [w if len(w) <= size else w[: size - 1] + "." for w in label.split()]
    lines = textwrap.wrap(" ".join(words), size, break_long_words=False,
                          break_on_hyphens=False) or [""]
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: size - 1] + "…"
    return lines


def verdict(outcome: Outcome, names: Sequence[str], me: int) -> str:
    """The title of the results: who won, or what the team or the solo player reached."""
    if isinstance(outcome, (Ranked, Match)) and outcome.winners == (me,):
        return "You win the match!" if isinstance(outcome, Match) else "You win!"
    return headline(outcome, list(names))


def _who(seat: int, names: Sequence[str], me: int) -> str:
    return "you" if seat == me else (names[seat] if seat < len(names) else f"seat {seat}")


def agreed_end(event: SeatEvent, names: Sequence[str], me: int) -> str:
    """An agreed end in one sentence (docs/protocol.md §5.9): when, without whom, and that
    nobody won."""
    return (f"The game ended by agreement at action #{event.index}, without "
            f"{_who(event.seat, names, me)}: nobody won.")


def farewell(outcome: Outcome | None, names: Sequence[str], me: int,
             ended: SeatEvent | None = None) -> str:
    """One line for the terminal once the screen has closed (``ended``: the table's agreed
    end, for a game its rules did not end)."""
    if outcome is None and ended is not None:
        return agreed_end(ended, names, me)
    if outcome is None:
        return "You left before the end of the game."
    if isinstance(outcome, Cooperative):
        grade = outcome.grade or "no grade"
        verb = "won" if outcome.won else "lost"
        return f"Game over: the team {verb} with {outcome.total} points ({grade})."
    if isinstance(outcome, Solo):
        grade = f", {outcome.grade}" if outcome.grade else ""
        result = "" if outcome.won is None else (" You won!" if outcome.won else " You lost.")
        return f"Game over: {outcome.score} points{grade}.{result}"
    if outcome.winners == (me,):
        return "Game over: you won the match!" if isinstance(outcome, Match) else \
            "Game over: you won!"
    if not outcome.winners:
        return "Game over: nobody won."
    who = " and ".join("you" if w == me else (names[w] if w < len(names) else f"seat {w}")
                       for w in outcome.winners)
    return f"Game over: {who} won{' the match' if isinstance(outcome, Match) else ''}."


def bar_chart(rows: Sequence[tuple[int, str, str]], columns: Sequence[Column], width: int,
              ) -> StyleAndTextTuples:
    """Rows ``(seat, label, style)`` against ``columns``: a bar and the value in each (a
    negative value's bar in the "out" colour)."""
    out: StyleAndTextTuples = []
    if not rows or not columns:
        return out
    name_w = min(24, max(len(r[1]) for r in rows) + 1)
    num_w = max(len(str(v)) for _, col in columns for v in col)
    per = max(num_w + 3, (width - name_w) // max(1, len(columns)))
    if per < 9 and len(rows) * 8 + 14 <= width:  # too narrow for bars: turn the table
        return number_table(rows, columns, width)
    bar_w = min(12, max(0, per - num_w - 2))  # bar, space, number, gap
    heads = [label_lines(label, per - 1) for label, _ in columns]
    for line in range(max(len(h) for h in heads)):
        out.append(("", "\n" * bool(line) + " " * name_w))
        for head in heads:
            text = head[line] if line < len(head) else ""
            out.append(("class:heading" if text else "", text.ljust(per - 1)))
            out.append(("", " "))
    for seat, label, style in rows:
        out.append(("", "\n"))
        out.append((style, label[:name_w - 1].ljust(name_w)))
        for _, col in columns:
            top = max((abs(v) for v in col), default=0)
            value = col[seat] if seat < len(col) else 0
            bar_style = "class:results.out" if value < 0 else "class:bar"
            out.append((bar_style, bar(abs(value), top, bar_w)))
            out.append(("bold", f" {value:>{num_w}}"))
            out.append(("", " " * max(1, per - bar_w - num_w - 1)))
    return out


def number_table(rows: Sequence[tuple[int, str, str]], columns: Sequence[Column], width: int,
                 ) -> StyleAndTextTuples:
    """The chart turned for a narrow screen: one line per column, one column per row (its
    label on two lines: the mark and rank, then the name), numbers only."""
    longest = max(len(label) for label, _ in columns) + 1
    named = max(len(label.strip().partition(". ")[2] or label.strip()) for _, label, _ in rows)
    want = max(9, min(16, named + 1))  # a name whole, up to 15 letters
    label_w = min(longest, max(12, width * 2 // 5, width - want * len(rows)))  # longer: wrap
    cell = max(6, (width - label_w) // max(1, len(rows)))
    heads = []
    for _, label, style in rows:
        rank, _, name = label.strip().partition(". ")
        if not name:
            rank, name = "", rank
        name = name.replace(" (you)", "") if len(name) > cell - 1 else name
        heads.append((rank, name, style))
    shown = fit_names([name for _, name, _ in heads], cell - 1)  # told apart when cut
    heads = [(rank, name, style) for (rank, _, style), name in zip(heads, shown, strict=True)]
    out: StyleAndTextTuples = [("", " " * label_w)]
    for rank, _, style in heads:
        out.append((style or "class:heading", (rank + "." if rank else "").rjust(cell - 1) + " "))
    out.append(("", "\n" + " " * label_w))
    for _, name, style in heads:
        out.append((style or "class:heading", name.rjust(cell - 1) + " "))
    for label, col in columns:
        lines = label_lines(label, label_w - 1)
        out += [("", "\n"), ("class:heading", lines[0].ljust(label_w))]
        for seat, _, _ in rows:
            value = col[seat] if seat < len(col) else 0
            out.append(("bold" if value < 0 else "", f"{value:>{cell - 1}} "))
        for more in lines[1:]:  # a long label goes on under its numbers
            out += [("", "\n"), ("class:heading", more)]
    return out


def has_total(columns: Sequence[Column], scores: Sequence[int]) -> bool:
    """Whether one of ``columns`` already shows the numbers the game ranks by (its total,
    or that figure with the sign turned, as Harmony's spread), so that none is added."""
    want = tuple(scores)
    return any(tuple(values) in (want, tuple(-v for v in want)) for _, values in columns)


def with_total(columns: Sequence[Column], scores: Sequence[int], label: str = "Score",
               ) -> list[Column]:
    """``columns`` with the score as the last one, unless one of them shows it already:
    a result always says the total its ranking is read from."""
    out = list(columns)
    return out if has_total(out, scores) else [*out, (label, tuple(scores))]


def _label(names: Sequence[str], seat: int, me: int) -> str:
    return f"{names[seat]} (you)" if seat == me else names[seat]


def _ranked(outcome: Ranked, names: Sequence[str], me: int, width: int) -> StyleAndTextTuples:
    n = len(names)
    columns = with_total(outcome.breakdown, outcome.scores)
    ranks = [outcome.ranking[s] if s < len(outcome.ranking) else n for s in range(n)]
    rows = []
    for s in sorted(range(n), key=lambda s: (ranks[s], s)):
        winner, out_ = s in outcome.winners, s in outcome.eliminated
        mark = "★ " if winner else ("✗ " if out_ else "  ")
        style = "class:results.winner" if winner else ("class:results.out" if out_ else "")
        rows.append((s, f"{mark}{ranks[s]}. {_label(names, s, me)}  ", style))
    out = bar_chart(rows, columns, width)
    out.append(("", "\n"))
    out.append(("class:dim", "★ winner.  "))
    if outcome.eliminated:
        gone = ", ".join(names[s] for s in outcome.eliminated)
        out.append(("class:results.out", f"✗ eliminated: {gone}."))
    return out


def _grades(grades: Sequence[tuple[str, int]], total: int, reached: str) -> StyleAndTextTuples:
    """The grade ladder: each grade with its threshold, reached or how far it was."""
    out: StyleAndTextTuples = [("class:heading", "Grades"), ("", "  ")]
    for label, at in grades:
        if total >= at:
            style = "class:results.winner" if label == reached else ""
            out.append((style, f"✓ {label} {at}"))
            if label == reached:
                out.append(("class:results.winner", " (reached)"))
        else:
            out.append(("class:dim", f"· {label} {at} ({at - total} more)"))
        out.append(("", "   "))
    return out


def _cooperative(outcome: Cooperative, names: Sequence[str], width: int) -> StyleAndTextTuples:
    out: StyleAndTextTuples = [("class:heading", "Team total"),
                               ("bold", f"  {outcome.total} points"),
                               ("", f"  — {outcome.grade}" if outcome.grade else "  — no grade"),
                               ("", "\n")]
    if outcome.grades:
        out += _grades(outcome.grades, outcome.total, outcome.grade)
        out.append(("", "\n"))
    out += [("", "\n"), ("class:heading", "Everyone's contribution"), ("", "\n")]
    columns = outcome.breakdown if has_total(outcome.breakdown, outcome.scores) else \
        [("Points", outcome.scores), *outcome.breakdown]
    rows = [(s, f"  {names[s]}  ", "") for s in range(len(names))]
    out += bar_chart(rows, columns, width)
    return out


def _solo(outcome: Solo, names: Sequence[str], width: int) -> StyleAndTextTuples:
    out: StyleAndTextTuples = [("class:heading", "Score"), ("bold", f"  {outcome.score}"),
                               ("", "\n"), ("class:heading", "Grade"),
                               ("bold" if outcome.grade else "class:dim",
                                f"  {outcome.grade or 'none'}")]
    if outcome.won is not None:
        out += [("", "\n"), ("class:heading", "Result"),
                ("class:results.winner" if outcome.won else "class:results.out",
                 "  won" if outcome.won else "  lost")]
    if outcome.opponent is not None:
        out += [("", "\n"), ("class:heading", "Opponent's score"), ("", f"  {outcome.opponent}")]
    if outcome.breakdown:
        label_w = max(len(label) for label, _ in outcome.breakdown) + 2
        top = max((abs(col[0]) for _, col in outcome.breakdown if col), default=0)
        out += [("", "\n\n"), ("class:heading", "Breakdown")]
        for label, col in outcome.breakdown:
            value = col[0] if col else 0
            out += [("", "\n" + label.ljust(label_w)),
                    ("class:bar", bar(abs(value), top, max(0, min(30, width - label_w - 8)))),
                    ("bold", f" {value:>4}")]
    return out


def _who_won(game: Ranked | Cooperative | Solo, names: Sequence[str], me: int) -> str:
    """One game of a match in a few words: who won it."""
    if not isinstance(game, Ranked):
        return headline(game, list(names))
    if not game.winners:
        return "nobody won"
    who = " and ".join("you" if w == me else (names[w] if w < len(names) else f"seat {w}")
                       for w in game.winners)
    return f"{who} won"


def _match(outcome: Match, names: Sequence[str], me: int, width: int) -> StyleAndTextTuples:
    n = len(names)
    games = outcome.games
    ranks = [outcome.final.ranking[s] if s < len(outcome.final.ranking) else n
             for s in range(n)]
    order = sorted(range(n), key=lambda s: (ranks[s], s))
    labels = [f"{'★ ' if s in outcome.winners else '  '}{ranks[s]}. {_label(names, s, me)}"
              for s in range(n)]
    name_w = min(24, max(len(x) for x in labels) + 2)
    # the match's own columns, but its total once (the Total column is it)
    extra = [c for c in outcome.final.breakdown if tuple(c[1]) != tuple(outcome.final.scores)]
    heads = [f"Game {g + 1}" for g in range(len(games))] + ["Total"] + [h for h, _ in extra]
    cell = max(8, min(12, (width - name_w) // max(1, len(heads))))
    out: StyleAndTextTuples = [("class:heading", "Points per game")]
    lines = [label_lines(h, cell - 1, 2) for h in heads]  # "Ribbons won" on two lines
    depth = max(len(x) for x in lines)
    for row in range(depth):  # each heading's lines end on the last row
        out.append(("", "\n" + " " * name_w))
        for x in lines:
            text = x[row - (depth - len(x))] if row >= depth - len(x) else ""
            out.append(("class:heading", text.rjust(cell - 1) + " "))
    for s in order:
        style = "class:results.winner" if s in outcome.winners else ""
        out += [("", "\n"), (style, labels[s][:name_w - 1].ljust(name_w))]
        for game in games:
            value = game.scores[s] if s < len(game.scores) else 0
            star = " ★" if s in game.winners else "  "
            out += [("", f"{value:>{cell - 3}}"), ("class:bar.star", star), ("", " ")]
        total = outcome.final.scores[s] if s < len(outcome.final.scores) else 0
        out.append(("bold", f"{total:>{cell - 1}} "))
        for _, col in extra:
            out.append(("", f"{col[s] if s < len(col) else 0:>{cell - 1}} "))
    out += [("", "\n\n"), ("class:heading", "Running totals"), ("", "\n"), ("", " " * name_w)]
    out += [("class:heading", f"after {g + 1}".rjust(cell - 1) + " ") for g in range(len(games))]
    for s in order:
        out += [("", "\n"), ("", f"  {names[s]}"[:name_w - 1].ljust(name_w))]
        for after in outcome.totals:
            out.append(("", f"{after[s] if s < len(after) else 0:>{cell - 1}} "))
    out.append(("", "\n"))
    for g, game in enumerate(games):
        line = f"Game {g + 1}: {_who_won(game, names, me)}"
        if game.explanation:
            line += f" — {name_seats(game.explanation, names)}"
        out += [("", "\n"), ("class:dim", wrap(line, width))]
    out += [("", "\n"), ("class:dim", "★ won that game.")]
    return out


def _agreed(state: SeatState, event: SeatEvent, width: int) -> StyleAndTextTuples:
    """The end the table agreed on: no winner, who agreed, and the running scores where
    the game stood (the game's own columns, as the players table showed them)."""
    n = state.seat.players
    names = [state.name_of(s) for s in range(n)]
    me = state.seat.seat
    agreed = [_who(s, names, me) for s in event.voters] or ["the table"]
    said = " and ".join(agreed)
    out: StyleAndTextTuples = [
        ("class:results.title", " Ended by agreement: nobody won "), ("", "\n\n"),
        ("", wrap(f"{said[:1].upper()}{said[1:]} agreed to end the game at action "
                  f"#{event.index}, without {_who(event.seat, names, me)}. The game did not "
                  "end by its rules, so nobody won; the log says how it ended.", width))]
    columns = [(c.label, tuple(v for v in c.values if isinstance(v, int)))
               for c in (state.ui.score_columns(state.view) if state.view is not None else ())]
    columns = [c for c in columns if len(c[1]) == n]
    if columns:
        rows = [(s, f"  {_label(names, s, me)}  ", "") for s in range(n)]
        out += [("", "\n\n"), ("class:heading", "Where the game stood"), ("", "\n")]
        out += bar_chart(rows, columns, width)
    return out


def results(state: SeatState, width: int, *, me: int | None = None) -> StyleAndTextTuples:
    """The end of the game, drawn for its kind of outcome (see the module docstring), or
    the end the table agreed on; for the player of seat ``me`` (default: the state's seat;
    -1: for nobody in particular, as the replay viewer shows another player's game)."""
    outcome = state.outcome
    if outcome is None:
        return _agreed(state, state.ended, width) if state.ended is not None else []
    n = max(state.seat.players, len(outcome.scores))
    names = [state.name_of(s) for s in range(n)]
    me = state.seat.seat if me is None else me
    out: StyleAndTextTuples = [("class:results.title", f" {verdict(outcome, names, me)} "),
                               ("", "\n\n")]
    if isinstance(outcome, Ranked):
        out += _ranked(outcome, names, me, width)
    elif isinstance(outcome, Cooperative):
        out += _cooperative(outcome, names, width)
    elif isinstance(outcome, Solo):
        out += _solo(outcome, names, width)
    else:
        out += _match(outcome, names, me, width)
    if state.view is not None:
        # The game's own results parts, drawn for ``me``; for nobody in particular as a
        # seat past the last one (`DrawContext.seat`): no garden is "yours".
        drawn_for = me if me >= 0 else n
        for part in state.ui.parts(RESULTS):
            drawing = state.ui.draw(part, state.view, drawn_for, width, None)
            if drawing:
                out.append(("", "\n\n"))
                out += [(f[0], f[1]) for f in (fill_name(f, names) for f in drawing)]
    if outcome.explanation:
        out += [("", "\n\n"), ("", wrap(name_seats(outcome.explanation, names), width))]
    return out


def saved_line(state: SeatState, width: int) -> StyleAndTextTuples:
    """Where the table's log is saved: one line under the results, which stays in view
    while they scroll."""
    path = state.seat.log_path()
    if path is None:
        return []
    return [("class:dim", "Log saved to "), ("", str(path))]


#: The most lines the check of a sealed deck takes under the results (a fault can be long).
DECK_LINES = 3


def deck_line(state: SeatState, width: int) -> StyleAndTextTuples:
    """At a sealed table, what the end-of-game check found (`deckwords.verification`),
    under the results, broken between words into at most `DECK_LINES` lines of ``width``;
    nothing at an open deck."""
    check = verification(state.seat, ended=state.outcome is None and state.ended is not None)
    if check is None:
        return []
    lines = textwrap.wrap(check.text, max(8, width), break_on_hyphens=False)
    if len(lines) > DECK_LINES:
        lines = [*lines[:DECK_LINES - 1], lines[DECK_LINES - 1][: max(0, width - 1)] + "…"]
    style = {"ok": "class:results.winner", "checking": "class:dim"}.get(check.how,
                                                                        "class:error")
    return [(style, "\n".join(lines))]


def _lines(fragments: StyleAndTextTuples) -> list[StyleAndTextTuples]:
    lines: list[StyleAndTextTuples] = [[]]
    for fragment in fragments:
        pieces = fragment[1].split("\n")
        for i, piece in enumerate(pieces):
            if i:
                lines.append([])
            if piece:
                lines[-1].append((fragment[0], piece))
    return lines


def _joined(lines: Sequence[StyleAndTextTuples]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out += line
    return out


def more_line(hidden: int, below: bool) -> StyleAndTextTuples:
    """The marker of lines out of sight above or below the results, and the keys."""
    arrow, where, keys = ("▼", "below", "↓ or PgDn") if below else ("▲", "above", "↑ or PgUp")
    plural = "s" if hidden != 1 else ""
    return [("class:board.more", f" {arrow} {hidden} more line{plural} {where}: {keys} ")]


def window(fragments: StyleAndTextTuples, top: int, room: int,
           ) -> tuple[StyleAndTextTuples, int, int]:
    """The results as shown in ``room`` rows from line ``top``: where lines are out of
    sight, the edge row says how many and which keys show them (`more_line`), so that an
    explanation below the fold is known to be there.  Returns the shown fragments, the
    first line shown (``top`` kept in range) and the last first line the keys can reach."""
    lines = _lines(fragments)
    count = len(lines)
    if count <= room or room < 3:
        return _joined(lines), 0, 0
    last = count - (room - 1)  # at the end, only the marker of the lines above
    top = max(0, min(top, last))
    space = room - (1 if top else 0)
    if top + space < count:
        space -= 1  # the marker of the lines below
    shown = lines[top:top + space]
    out = ([more_line(top, False)] if top else []) + shown
    if top + space < count:
        out.append(more_line(count - top - space, True))
    return _joined(out), top, last
