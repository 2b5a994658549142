"""The words for a table's deck, the same on every screen and line that shows a table.

A networked table of two seats or more is sealed unless its host opened it with an open
deck (docs/protocol.md §10, §10.12); a table of one seat has nobody to hide cards from and
plays open.  The lobby's list and create form, the seating room, the table screen's title,
the results and the lines printed after them take their words from here.  No screen code:
``hedgerow tables`` imports it without prompt_toolkit (nor the network: `hedgerow.net.seat`
is the seat's protocol only).
"""

from __future__ import annotations

from dataclasses import dataclass

from hedgerow.net.seat import Phase, Seat

#: What a sealed deck means to a player.
SEALED_MEANS = "no player's program can see a card it was not shown"
#: Why a host would choose an open deck (the create form's line).
OPEN_CHOICE = "faster start, for players who trust each other"
#: What an open deck means to a player.
OPEN_MEANS = "every player's program can work out every card (the host chose the faster start)"
#: What a sealed game's end-of-game check says when it found no fault
#: (`hedgerow.net.sealverify.Verdict`).
CHECKS_OUT = "every shuffle, key and action checks out"
#: Why a table of one seat has an open deck.
ONE_SEAT = "a table of one has no other player to hide cards from"


def deck_word(deck: str | None) -> str:
    """A table's deck as a listing shows it: the word its announcement says (``sealed``,
    ``open``), or ``?`` when it does not say."""
    return deck or "?"


def described(players: int, sealed: bool) -> str:
    """``, sealed deck: ...`` or ``, open deck: ...``, to follow a table's rules and seats
    in a sentence; "" for a table of one seat."""
    if players < 2:
        return ""
    return ", sealed deck: " + SEALED_MEANS if sealed else ", open deck: " + OPEN_MEANS


def checked_text(verdict: str, *, ended: bool = False) -> str:
    """The sentence for a verdict of the check (`hedgerow.net.sealverify.Verdict.message`);
    ``ended``: of a game the table agreed to end, checked as far as it went."""
    if verdict == CHECKS_OUT:
        return ("Sealed deck: every shuffle, key and action up to the agreed end checks out."
                if ended else "Sealed deck: every shuffle, key and action checks out.")
    return f"Sealed deck: {verdict}."


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """What the end-of-game check of a sealed table found: ``how`` is ``ok`` (no fault),
    ``checking`` (the secrets are on their way), ``unchecked`` (a player left before
    disclosing theirs) or ``fault``; ``text`` says it in a sentence."""

    how: str
    text: str


def verification(seat: Seat, *, ended: bool = False, left: bool = False) -> DeckCheck | None:
    """What the end-of-game check of a sealed table found (docs/protocol.md §10.9): every
    shuffle, key and action checks out, or the first fault; still checking (every player's
    program discloses its secret at the end, then each checks the whole game); or not
    checked, when a player left before disclosing theirs.  ``ended``: the table agreed to
    end the game, which is checked as far as it went.  ``left``: said once this seat has
    left the table, when nothing more will come (still checking is then not checked).  None
    at an open deck, or before the end."""
    if not seat.sealed:
        return None
    verdict = seat.verdict()
    if verdict is not None:
        return DeckCheck("ok" if verdict == CHECKS_OUT else "fault",
                         checked_text(verdict, ended=ended))
    if seat.phase() != Phase.FINISHED:
        return None
    if seat.confirmed_end():
        return DeckCheck("unchecked", "Sealed deck: not checked: a player left before "
                         "disclosing their secret, which every shuffle and key needs.")
    if left:
        return DeckCheck("unchecked", "Sealed deck: not checked: not every player's secret "
                         "had come in when you left.")
    return DeckCheck("checking", "Sealed deck: checking every shuffle, key and action…")
