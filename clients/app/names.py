"""One name per seat, wherever the seat client shows a player.

A seat is called by the name it has at the table (the name its player or bot gave, the one
the table log records and ``hedgerow replay`` prints), never by a number in one place and a
name in another.  Rules speak of seats by number — a log line ``Seat 1 plays …``, an
explanation ``seats 0 and 2 share the victory``, a refusal ``it is seat 1's turn`` — so
`name_seats` puts the names into such text; a game's drawing names a player with a fragment
whose target has the role ``"seat"`` (`SEAT`), which `fill_name` fills in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hedgerow.core.ui import Fragment, Target
from hedgerow.net.seat import Link, SeatInfo

#: The role of a drawn player's name in a game's drawing (its value: the seat number).
SEAT = "seat"

_SEATS = re.compile(r"\b([Ss])eats? (\d+(?:(?:, | and )\d+)*)\b")
_NUMBER = re.compile(r"\d+")


def seat_name(info: SeatInfo) -> str:
    """A seat's name as the table knows it: the name given, else what the seat is."""
    name = " ".join(info.name.split())
    if name:
        return name
    if info.link == Link.WAITING:
        return "(open seat)"
    return f"Seat {info.seat}"


def table_names(infos: Sequence[SeatInfo], players: int) -> list[str]:
    """Every seat's name, in seat order; a name two seats share gets its seat number."""
    by_seat = {info.seat: seat_name(info) for info in infos}
    names = [by_seat.get(s, f"Seat {s}") for s in range(players)]
    return [f"{n} ({s})" if names.count(n) > 1 and n != "(open seat)" else n
            for s, n in enumerate(names)]


def _join(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def mentions_seats(text: str) -> bool:
    """True when ``text`` speaks of a seat by number (what `name_seats` replaces)."""
    return _SEATS.search(text) is not None


def name_seats(text: str, names: Sequence[str]) -> str:
    """``text`` with every ``Seat 1`` / ``seats 0 and 2`` replaced by the seats' names
    (numbers with no seat are left as they are)."""
    def named(match: re.Match[str]) -> str:
        seats = [int(n) for n in _NUMBER.findall(match.group(2))]
        if not seats or any(s >= len(names) for s in seats):
            return match.group(0)
        return _join([names[s] for s in seats])

    return _SEATS.sub(named, text)


def cut(name: str, width: int, *, middle: bool = False) -> str:
    """``name`` in at most ``width`` columns: whole when it fits, else cut at the end with
    "…" (``middle``: the "…" in the middle, keeping the end, which tells ``random bot 1``
    from ``random bot 2``)."""
    if len(name) <= width:
        return name
    if width <= 1:
        return name[:width]
    if not middle:
        return name[: width - 1] + "…"
    tail = (width - 1) // 2
    last = name.rsplit(" ", 1)[-1]
    if last != name and len(last) + 1 <= tail:  # a short last word: kept whole ("bot… 12")
        tail = len(last) + 1
    head = width - 1 - tail
    return name[:head] + "…" + name[len(name) - tail:]


def fit_names(names: Sequence[str], width: int) -> list[str]:
    """Every name in at most ``width`` columns, each still told apart from the others where
    possible: cut at the end, or in the middle when cutting at the end would make two
    different names read the same."""
    ends = [cut(n, width) for n in names]
    clash = {e for e in ends if sum(x == e for x in ends) > 1}
    return [cut(n, width, middle=True) if e in clash and len(n) > width else e
            for n, e in zip(names, ends, strict=True)]


def fill_name(fragment: Fragment, names: Sequence[str]) -> Fragment:
    """A drawn fragment, with a player's name where the game drew a `SEAT` target.

    When the game padded its text with spaces (a column), the name is fitted to that width
    (`fit_names`: cut where the names still differ), so the column stays aligned; else the
    name is used as is.
    """
    if len(fragment) < 3:
        return fragment
    target = fragment[2]
    if not isinstance(target, Target) or target.role != SEAT:
        return fragment
    seat = target.value
    if not isinstance(seat, int) or not 0 <= seat < len(names):
        return fragment
    text, name = fragment[1], names[seat]
    width = len(text)
    if text != text.rstrip(" "):
        name = fit_names(names, width)[seat].ljust(width)
    return (fragment[0], name, target)
