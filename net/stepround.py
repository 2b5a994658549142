"""Simultaneous steps (several active seats at once) as a pure commit-reveal state machine.

When the rules name more than one active seat, no seat may see another's choice before
making its own.  Each active seat sends ``ActionCommit(index, seat, commitment)`` where
``index`` is the log index at which the step starts and the commitment is
`hedgerow.net.messages.action_commitment` over a fresh 32-byte salt.  Once a peer holds the
commitment of every active seat it sends its ``ActionReveal(index, seat, action, salt)``.
Once every reveal is in and matches its commitment, every peer applies the revealed actions
in seat order, each as one ordinary log entry (index, index + 1, ...), exactly as
``hedgerow simulate`` does: every choice is made against the step's starting state.  A
revealed action the rules refuse at its turn is skipped, identically on every peer.
"""

from __future__ import annotations

import secrets

from hedgerow.core.actions import Action
from hedgerow.net.messages import SHARE_SIZE, action_commitment


class StepError(Exception):
    """A commit or reveal that breaks the step (the message names the seat)."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.message = message


class StepRound:
    """The simultaneous step that starts at log index ``index`` with ``active`` seats."""

    def __init__(self, index: int, active: tuple[int, ...]) -> None:
        self.index = index
        self.active = active
        self.commits: dict[int, bytes] = {}
        self.reveals: dict[int, Action] = {}
        self.own: tuple[int, Action, bytes] | None = None  # (seat, action, salt)

    def choose(self, seat: int, action: Action) -> bytes:
        """This peer's seat commits to ``action``; the commitment to send."""
        salt = secrets.token_bytes(SHARE_SIZE)
        value = action_commitment(self.index, seat, action, salt)
        self.own = (seat, action, salt)
        self.commits[seat] = value
        return value

    def commit(self, seat: int, value: bytes) -> None:
        """Record ``seat``'s commitment (a repeat must be identical)."""
        if seat not in self.active:
            raise StepError(seat, f"seat {seat} is not part of the step at #{self.index}")
        old = self.commits.setdefault(seat, value)
        if old != value:
            raise StepError(seat, f"seat {seat} sent two different commitments for #{self.index}")

    @property
    def all_committed(self) -> bool:
        """True once every active seat has committed (this peer may reveal)."""
        return all(s in self.commits for s in self.active)

    def reveal(self, seat: int, action: Action, salt: bytes) -> None:
        """Record ``seat``'s revealed action, checked against its commitment."""
        commit = self.commits.get(seat)
        if commit is None:
            raise StepError(seat, f"seat {seat} revealed before committing at #{self.index}")
        if action_commitment(self.index, seat, action, salt) != commit:
            raise StepError(seat, f"seat {seat}'s reveal does not match its commitment")
        self.reveals[seat] = action

    @property
    def complete(self) -> bool:
        """True once every active seat's action is revealed."""
        return all(s in self.reveals for s in self.active)

    def actions(self) -> list[tuple[int, Action]]:
        """The revealed actions in seat order (to apply one by one)."""
        return [(s, self.reveals[s]) for s in sorted(self.active)]
