"""Seating: the host's answer to a `Hello`, the roster, and peers that come back.

The host checks a joiner's rules and seat in the order of docs/protocol.md §3.1 and sends
every seated peer the roster (``SeatAssignment``); a joiner binds the table's rules from
the fingerprint and keeps a DEALER to every peer it learns of.  A seated key that says
``Hello`` again is a returning peer (§5.7): its new address is taken, and the host answers
with the current seating.
"""

from __future__ import annotations

import logging
from typing import cast

from hedgerow.core.errors import HedgerowError
from hedgerow.net import rulesmatch
from hedgerow.net.address import endpoint, split_endpoint
from hedgerow.net.keys import key_text
from hedgerow.net.members import Member
from hedgerow.net.messages import (
    ActionCommit,
    ActionReveal,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Hello,
    PeerInfo,
    SeatAssignment,
)
from hedgerow.net.peercore import JoinRefused, PeerCore
from hedgerow.net.seat import Link, Phase
from hedgerow.net.transport import Received

log = logging.getLogger(__name__)


class Lobby(PeerCore):
    """Seating and returning peers (a mixin of `hedgerow.net.peer.Peer`)."""

    _held: list[tuple[Received, Envelope]]  # shared state (PeerCore) this phase writes

    def _on_hello(self, rx: Received, env: Envelope) -> None:
        hello = cast(Hello, env.body)
        if env.table_id not in (b"", self.table_id):
            self._refuse(rx, env, ErrorCode.WRONG_TABLE, "this is not the table of that id")
            return
        member = self.roster.by_key(rx.sender) if self.roster is not None else None
        if member is not None:
            self._on_rejoin(rx, env, member)
            return
        if not self.is_host:
            self._refuse(rx, env, ErrorCode.STRANGER, "this peer does not seat anyone")
            return
        # The host's checks, in the order of docs/protocol.md §3.1.
        assert self.roster is not None
        name = hello.display_name or f"peer {key_text(rx.sender)[:8]}"
        problem = rulesmatch.mismatch(self.ruleset, hello.fingerprint, hello.plugins, name)
        if problem is not None:
            self._refuse(rx, env, ErrorCode.RULES_MISMATCH, problem)
            return
        if self._phase != Phase.SEATING or hello.spectator:
            self._refuse(rx, env, ErrorCode.WRONG_PHASE, "this table takes no spectators"
                         if hello.spectator else "the table has started; no seat is free")
            return
        wanted = hello.wanted_seat
        if wanted is not None and wanted >= self.players:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT,
                         f"seat {wanted} does not exist at a {self.players}-seat table")
            return
        seat = self.roster.free_seat(wanted)
        if seat is None:
            code = ErrorCode.SEAT_TAKEN if wanted is not None else ErrorCode.TABLE_FULL
            self._refuse(rx, env, code, f"seat {wanted} is taken" if wanted is not None
                         else "every seat is taken")
            return
        address = self._hello_address(rx, env)
        if address is None:
            return
        info = PeerInfo(seat, rx.sender, address, hello.display_name, hello.bot)
        member = self.roster.add(info, self._now(), "bot" if hello.bot else None)
        self.node.connect(rx.sender, info.address)
        log.info("%s took seat %d", name, seat)
        self._send_roster()
        if self.roster.full:
            self._begin_seeding()
        self._notify()

    def _hello_address(self, rx: Received, env: Envelope) -> str | None:
        """Where the sender of ``env`` (a Hello) listens; None after refusing a bad one.

        A wildcard host (a peer that listens on every interface) is replaced by the
        address its connection came from.
        """
        hello = cast(Hello, env.body)
        try:
            host, port = split_endpoint(hello.address)
        except ValueError:
            self._refuse(rx, env, ErrorCode.MALFORMED, f"bad address {hello.address!r}")
            return None
        if host in ("0.0.0.0", "::") and rx.peer_ip:
            host = rx.peer_ip
        return endpoint(host, port)

    def _send_roster(self) -> None:
        assert self.roster is not None
        peers = self.roster.peer_infos()
        for m in self.roster.others():
            self._send(m, SeatAssignment(m.seat, self.players, self.ruleset.fingerprint, peers))

    def _on_join_answer(self, rx: Received, env: Envelope) -> None:
        assert self._joined is not None
        body = env.body
        if isinstance(body, ErrorMsg):
            self._joined.set_exception(JoinRefused(f"the table refused: {body.message}"))
            return
        assert isinstance(body, SeatAssignment)
        if body.seat is None:
            self._joined.set_exception(JoinRefused("the table offered no seat"))
            return
        assert self.plugins is not None
        try:
            ruleset = rulesmatch.ruleset_for(self.plugins, body.fingerprint, body.players)
        except HedgerowError as exc:
            self._joined.set_exception(JoinRefused(exc.message))
            return
        self.table_id = env.table_id
        self._seated(ruleset, body.players, body.seat)
        self._joined.set_result(None)
        self._apply_roster(body)

    def _on_seat_assignment(self, rx: Received, env: Envelope, member: Member) -> None:
        body = cast(SeatAssignment, env.body)
        if rx.sender != self.host_key or self.is_host:
            self._refuse(rx, env, ErrorCode.WRONG_SEAT, "only the host assigns seats")
            return
        if (body.seat != self.seat or body.players != self.players
                or body.fingerprint != self.ruleset.fingerprint):
            self._refuse(rx, env, ErrorCode.WRONG_SEAT, "the seating contradicts the first one")
            return
        if self._phase != Phase.SEATING:
            self._refresh_addresses(rx, env, body)
            return
        self._apply_roster(body)

    def _refresh_addresses(self, rx: Received, env: Envelope, body: SeatAssignment) -> None:
        """The host's answer to our return (§5.7): the same seats, perhaps new addresses."""
        assert self.roster is not None
        keys = {m.seat: m.key for m in self.roster}
        if {p.seat: p.public_key for p in body.peers} != keys:
            self._refuse(rx, env, ErrorCode.WRONG_PHASE, "the seats are already settled")
            return
        for info in body.peers:
            member = self.roster.by_seat(info.seat)
            if member is not None and member.key != self.identity.public \
                    and info.address != member.info.address:
                self.roster.set_address(member, info.address)
                self.node.connect(member.key, info.address)
                self._save_table_file()

    def _apply_roster(self, body: SeatAssignment) -> None:
        assert self.roster is not None
        mine = next((p for p in body.peers if p.seat == self.seat), None)
        if mine is None or mine.public_key != self.identity.public:
            log.warning("the host's roster does not seat this peer at seat %d", self.seat)
            return
        before = {m.seat: m.key for m in self.roster}
        changed, freed = self.roster.update(body.peers, self._now())
        for seat in freed:
            if before[seat] != self.identity.public:
                self.node.disconnect(before[seat])
        for m in changed:
            if m.key != self.identity.public:
                self.node.connect(m.key, m.info.address)
                log.info("%s is at the table", m.label())
        me = self.roster.by_seat(self.seat)
        if me is not None:
            me.bot_name = self.bot
        held, self._held = self._held, []
        for rx, env in held:
            self._accept(rx, env)  # held again while the sender is still unknown
        if self.roster.full:
            self._begin_seeding()
        self._notify()

    def _on_rejoin(self, rx: Received, env: Envelope, member: Member) -> None:
        hello = cast(Hello, env.body)
        if hello.fingerprint != self.ruleset.fingerprint:
            self._refuse(rx, env, ErrorCode.RULES_MISMATCH,
                         f"{member.label()} now runs {hello.fingerprint}, the table runs "
                         f"{self.ruleset.fingerprint}")
            return
        address = self._hello_address(rx, env)
        if address is None:
            return
        assert self.roster is not None
        if address != member.info.address:
            self.roster.set_address(member, address)
            self._save_table_file()
        self.node.connect(member.key, address)  # a no-op when unchanged
        was = member.link
        member.link = Link.CONNECTED
        member.last_seen = self._now()
        log.info("%s is back at %s (was %s)", member.label(), address, was.value)
        step = self._step
        if step is not None:
            if member.seat not in step.reveals:
                step.commits.pop(member.seat, None)  # it lost its salt: it commits afresh
            if step.own is not None:
                seat, action, salt = step.own
                self._send(member, ActionCommit(step.index, seat, step.commits[seat]))
                if step.all_committed:
                    self._send(member, ActionReveal(step.index, seat, action, salt))
        if self.is_host:  # the current seating, and everyone's address (§5.7)
            if self._phase == Phase.SEATING:
                self._send_roster()
            else:
                peers = self.roster.peer_infos()
                self._send(member, SeatAssignment(member.seat, self.players,
                                                  self.ruleset.fingerprint, peers))
        self._notify()

    def _free_seat(self, member: Member) -> None:
        assert self.roster is not None
        self.roster.remove(member.seat)
        self.node.disconnect(member.key)
        self._send_roster()

