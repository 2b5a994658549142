"""Simultaneous steps (several active seats at once) as a pure commit-reveal state machine.

The one meaning of a simultaneous step (docs/protocol.md §3.3, the game contract in
`hedgerow.core.game`): every active seat chooses against the step's *starting* state,
nobody sees another's choice first, and the step is applied whole once every choice is in
(`Table.submit_step`: in ascending seat order, logged in that order).  On the network:

1. each active seat sends ``ActionCommit(index, seat, commitment)``, where ``index`` is the
   log index at which the step starts and the commitment is
   `hedgerow.net.messages.action_commitment` over a fresh 32-byte salt;
2. once a peer holds the commitment of every active seat it sends its
   ``ActionReveal(index, seat, action, salt)``;
3. each reveal is checked as it comes in: against its commitment, and against the rules at
   the step's starting state.  Either failure is a cheat (an honest peer checks its own
   choice before committing to it): `StepError` with ``fatal`` set, and the table halts
   naming the seat;
4. once every seat has revealed (`complete`), the step's `choices` are applied together.

Nothing here touches the network or the rules: the caller passes the legality check in.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from hedgerow.core.actions import Action
from hedgerow.core.errors import Refusal
from hedgerow.net.messages import action_commitment
from hedgerow.net.wirerules import SHARE_SIZE

#: ``legality(seat, action)``: why ``action`` is not a legal choice at the step's start, or None.
Legality = Callable[[int, Action], Refusal | None]


class StepError(Exception):
    """A commit or reveal that breaks the step (the message names the seat).

    ``fatal`` marks a cheat: a reveal that does not match its commitment, or a committed
    action that the rules refuse at the step's start (then ``refusal`` says why).  A
    non-fatal error (a second, different commitment; a reveal before the commitment) is
    refused and the step waits.
    """

    def __init__(self, seat: int, message: str, *, fatal: bool = False,
                 refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.message = message
        self.fatal = fatal
        self.refusal = refusal


class StepRound:
    """The simultaneous step that starts at log index ``index`` with ``active`` seats."""

    def __init__(self, index: int, active: tuple[int, ...]) -> None:
        self.index = index
        self.active = active
        self.commits: dict[int, bytes] = {}
        self.reveals: dict[int, Action] = {}
        self.own: tuple[int, Action, bytes] | None = None  # (seat, action, salt)
        #: Seats this peer's process chooses for besides its own (a bot that took over a
        #: departed seat, docs/protocol.md §5.9): seat -> (action, salt).
        self.hosted: dict[int, tuple[Action, bytes]] = {}

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

    def reveal(self, seat: int, action: Action, salt: bytes,
               legality: Legality | None = None) -> None:
        """Record ``seat``'s revealed action: it must match the seat's commitment and, when
        ``legality`` is given, be legal at the step's start (else a fatal `StepError`)."""
        commit = self.commits.get(seat)
        if commit is None:
            raise StepError(seat, f"seat {seat} revealed before committing at #{self.index}")
        if action_commitment(self.index, seat, action, salt) != commit:
            raise StepError(seat, f"seat {seat}'s reveal ({action}) does not match its "
                                  f"commitment", fatal=True)
        if seat in self.reveals:
            return  # a repeat (after a reconnect): the commitment binds it to the same action
        refusal = legality(seat, action) if legality is not None else None
        if refusal is not None:
            raise StepError(seat, f"seat {seat} committed to {action}, which the rules refuse "
                                  f"at the start of the step: {refusal}", fatal=True,
                            refusal=refusal)
        self.reveals[seat] = action

    @property
    def complete(self) -> bool:
        """True once every active seat's action is revealed."""
        return all(s in self.reveals for s in self.active)

    def choices(self) -> dict[int, Action]:
        """Every revealed choice by seat (for `Table.submit_step`, which applies them in
        ascending seat order)."""
        return {s: self.reveals[s] for s in sorted(self.active)}
