"""The names bots sit under at tables this machine fills: ``Bot Aster``, ``Bot Briar``, ...

A bot's name is the one every screen, log line and ``hedgerow replay`` shows for its seat,
so it must read well in a sentence (``Bot Aster wins``) and must not carry a number that
looks like a seat number: bot peers are started before the host gives them seats, so the
Nth bot started need not sit at seat N.  The names are hedgerow flowers, in a fixed order,
with a number only past the end of the list.
"""

from __future__ import annotations

FLOWERS = ("Aster", "Briar", "Clover", "Daisy", "Fern", "Heather", "Iris", "Juniper",
           "Lupin", "Mallow", "Nettle", "Poppy", "Sorrel", "Tansy", "Violet", "Yarrow")


def bot_name(number: int) -> str:
    """The name of the ``number``-th bot (1, 2, ...) a table of this machine seats."""
    if number < 1:
        raise ValueError(f"bots are numbered from 1, not {number}")
    flower = FLOWERS[(number - 1) % len(FLOWERS)]
    lap = (number - 1) // len(FLOWERS)
    return f"Bot {flower}" + (f" {lap + 1}" if lap else "")
