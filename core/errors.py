"""Errors as values: the `Refusal` a rule returns, and the one exception type for set-up mistakes.

A rule never raises on bad input; it returns a `Refusal` with a stable machine-readable
``code`` and a message for people.  Games may use their own codes (``"petals.not_adjacent"``);
the ones the engine itself produces are listed in `Code`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Code(StrEnum):
    """Refusal codes produced by the engine itself (games add their own, dotted by game name)."""

    NOT_YOUR_TURN = "not_your_turn"
    GAME_OVER = "game_over"
    UNKNOWN_ACTION = "unknown_action"
    ILLEGAL_ACTION = "illegal_action"
    BAD_INDEX = "bad_index"
    BROKEN_CHAIN = "broken_chain"
    BAD_SEAT = "bad_seat"
    MALFORMED = "malformed"
    SIMULTANEOUS = "simultaneous"
    ALREADY_CHOSEN = "already_chosen"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action was not applied.  The state it was offered to is unchanged.

    ``code`` is stable and machine-readable; ``message`` is one sentence for a person and
    names the rule that was broken.
    """

    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class HedgerowError(Exception):
    """A set-up mistake a person can fix: unknown game, unknown variant, bad player count.

    The message is one line that names the problem and, where there is a list, the valid
    choices.  The command line prints it and exits non-zero.
    """

    def __init__(self, message: str, *, code: str = "error") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class RulesError(Exception):
    """A game plugin broke the game contract (a bug in the rules, not bad input).

    The engine raises it when, for example, a simultaneous step cannot be applied whole or
    a chance outcome is refused.  Every peer running the same rules hits it at the same
    point; the conformance kit reports it with the seed that reproduces it.
    """
