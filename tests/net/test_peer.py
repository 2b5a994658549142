"""Table peers in one process over real CURVE sockets on 127.0.0.1 (toy games, fast).

Every wait is on an event with a timeout.  The multi-process versions of these scenarios
are in tests/e2e/test_net_game.py.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import goofspiel
import pytest
import toygames
from departing import close_all, crash

from hedgerow.clients.botrunner import make_bot, play_bot
from hedgerow.core import hookimpl
from hedgerow.core.actions import Action
from hedgerow.core.chance import CHANCE_SEAT
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import LogEntry
from hedgerow.net.codec import decode_envelope, encode_envelope
from hedgerow.net.context import JoinRefused
from hedgerow.net.keys import generate, key_text
from hedgerow.net.launch import host_table, join_table, resume_table
from hedgerow.net.logfile import read_log
from hedgerow.net.logverify import verify as verify_log
from hedgerow.net.messages import (
    ActionCommit,
    ActionMsg,
    ActionReveal,
    CatchUpReply,
    Envelope,
    ErrorCode,
    ErrorMsg,
    LoggedEntry,
    StateHash,
    action_commitment,
)
from hedgerow.net.peer import Peer
from hedgerow.net.seat import Link, Phase
from hedgerow.net.transport import Node, Received

WAIT = 20.0
RANDOM_BOT = (("random-bot", "hedgerow.plugins.bots.random_bot"),)


def plugins(*extra: object) -> PluginHost:
    """Toy games, their variants, Goofspiel and the random bot (plus ``extra`` plugins)."""
    return PluginHost(builtins=RANDOM_BOT, autoload=False,
                extra=(*toygames.PLUGINS, goofspiel, *extra))


class Cheat:
    """Scores one more point per play under posy's own fingerprint (different rules)."""

    @hookimpl
    def posy_play_bonus(self, first: bool) -> int:
        return 1


def run(coro: Awaitable[Any]) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, WAIT * 3)

    return asyncio.run(bounded())


async def table(game: str, players: int, *, host_plugins: PluginHost | None = None,
                joiner_plugins: list[PluginHost] | None = None, variants: tuple[str, ...] = (),
                host_bot: str | None = None, open_deck: bool = False,
                **peer_kwargs: Any) -> list[Peer]:
    """A host (a person's seat, or ``host_bot``'s) and ``players - 1`` joiners, seated (not
    yet done seeding); a sealed deck unless ``open_deck``."""
    hp = host_plugins or plugins()
    ruleset = hp.ruleset(game, variants, players)
    host = await host_table(ruleset, players, identity=generate(), seat_name="host",
                            bot=host_bot, announce=False, open_deck=open_deck)
    for key, value in peer_kwargs.items():
        setattr(host, key, value)
    peers = [host]
    for i in range(players - 1):
        jp = joiner_plugins[i] if joiner_plugins else plugins()
        peer = await join_table(host.address, identity=generate(), plugins=jp,
                                seat_name=f"joiner{i + 1}")
        for key, value in peer_kwargs.items():
            setattr(peer, key, value)
        peers.append(peer)
    return peers


def simulate(game: str, players: int, seed: bytes, variants: tuple[str, ...] = ()) -> bytes:
    rules = plugins()
    return play(rules.ruleset(game, variants, players), players, seed,
                [rules.bot("random")]).state_hash()


@pytest.mark.parametrize("game, players", [("posy", 3), ("posy", 4), ("duel", 3),
                                           ("goofspiel", 3), ("goofspiel", 2),
                                           ("goofspiel", 1)])  # 1: solo, a one-seat table
def test_bots_play_the_same_game_as_simulate(game: str, players: int) -> None:
    """At an open-deck table the seed deals the cards, so networked bots play the very game
    `hedgerow simulate` plays with that seed."""
    async def main() -> None:
        peers = await table(game, players, open_deck=True)
        try:
            spec = plugins().bot("random")
            codes = await asyncio.gather(*(play_bot(p, spec) for p in peers))
            assert codes == [0] * players
            hashes = {p.state_hash() for p in peers}
            assert hashes == {simulate(game, players, peers[0].seed)}
            assert all(p.phase() == Phase.FINISHED for p in peers)
            assert [len(p.history()) for p in peers] == [peers[0].index] * players
        finally:
            await close_all(peers)

    run(main())


@pytest.mark.parametrize("game, players", [("posy", 3), ("duel", 3), ("goofspiel", 2)])
def test_bots_finish_a_sealed_game_with_one_final_state_that_verifies(game: str,
                                                                      players: int) -> None:
    """At a sealed table (the default) nobody can replay the deal from the seed: the bots
    finish with one final state, and every peer verifies the game once every secret is in."""
    async def main() -> None:
        peers = await table(game, players)
        try:
            spec = plugins().bot("random")
            codes = await asyncio.gather(*(play_bot(p, spec) for p in peers))
            assert codes == [0] * players
            assert len({p.state_hash() for p in peers}) == 1
            assert all(p.sealed for p in peers)
            for peer in peers:
                assert await peer.wait_until(lambda peer=peer: peer.sealing.verdict is not None,
                                             WAIT)
                assert peer.sealing.verdict is not None and peer.sealing.verdict.ok
        finally:
            await close_all(peers)

    run(main())


def test_seats_show_the_roster_while_seating() -> None:
    async def main() -> None:
        ruleset = plugins().ruleset("posy", (), 3)
        host = await host_table(ruleset, 3, identity=generate(), seat_name="ann",
                                announce=False)
        joiner = await join_table(host.address, identity=generate(), plugins=plugins(),
                                  seat_name="bob", bot="random")
        try:
            assert await host.wait_until(lambda: len(host.members()) == 2, WAIT)
            assert [(s.seat, s.name, s.link) for s in host.seats()] == [
                (0, "ann", Link.YOU), (1, "bob", Link.CONNECTED), (2, "", Link.WAITING)]
            assert joiner.seats()[1].link == Link.YOU and joiner.seats()[1].bot == "random"
            assert host.phase() == joiner.phase() == Phase.SEATING
            assert host.view() is None and host.legal_actions() == []
        finally:
            await close_all([joiner, host])

    run(main())


def test_a_joiner_without_the_tables_variant_is_refused_and_told_why() -> None:
    async def main() -> None:
        ruleset = plugins().ruleset("posy", ("lowball",), 2)
        host = await host_table(ruleset, 2, identity=generate(), announce=False)
        lacking = PluginHost(builtins=RANDOM_BOT, autoload=False,
                       extra=(toygames.PosyPlugin(), toygames.DuelPlugin()))
        try:
            with pytest.raises(JoinRefused, match=r"you lack variant lowball 1\.0\.0"):
                await join_table(host.address, identity=generate(), plugins=lacking,
                                 seat_name="carl")
            assert host.ctx.refusals[-1].code == ErrorCode.RULES_MISMATCH
            assert "you lack variant lowball 1.0.0" in host.ctx.refusals[-1].message
            assert len(host.members()) == 1  # nothing changed at the table
        finally:
            await host.close()

    run(main())


def test_a_full_table_refuses_another_joiner() -> None:
    async def main() -> None:
        peers = await table("posy", 2)
        try:
            with pytest.raises(JoinRefused, match=r"every seat is taken|has started"):
                await join_table(peers[0].address, identity=generate(), plugins=plugins())
        finally:
            await close_all(peers)

    run(main())


def test_an_address_with_another_key_reaches_nobody() -> None:
    """CURVE pins the host's key: a table address with another (well-formed) key gets no
    answer, and the joiner says so as soon as its handshakes fail (not at its timeout)."""
    async def main() -> None:
        host = await host_table(plugins().ruleset("posy", (), 2), 2, identity=generate(),
                                announce=False)
        forged = host.address.rsplit("/", 1)[0] + "/" + key_text(generate().public)
        try:
            with pytest.raises(JoinRefused, match=r"^nobody at 127\.0\.0\.1:\d+ answers to "
                                                  r"the table key"):
                await join_table(forged, identity=generate(), plugins=plugins(), timeout=WAIT)
            assert len(host.members()) == 1
        finally:
            await host.close()

    run(main())


def test_a_stranger_is_refused_and_changes_nothing() -> None:
    async def main() -> None:
        peers = await table("posy", 2, open_deck=True)  # (a stranger's action, plain cards)
        host = peers[0]
        got: asyncio.Queue[Any] = asyncio.Queue()
        stranger_id = generate()
        stranger = Node(stranger_id, got.put_nowait)
        await stranger.start()
        try:
            assert await host.wait_until(lambda: host.phase() == Phase.PLAYING, WAIT)
            index = host.index
            stranger.connect(host.identity.public, host.endpoint)
            action = host.ctx.table.legal_actions(host.ctx.table.active_seats()[0])[0]
            env = Envelope(host.ctx.table_id, stranger_id.public, 1,
                           ActionMsg(index, host.ctx.table.head, host.ctx.table.active_seats()[0],
                                     action))
            stranger.send(host.identity.public, encode_envelope(env))
            reply = await asyncio.wait_for(got.get(), WAIT)
            from hedgerow.net.codec import decode_envelope

            error = decode_envelope(reply.data).body
            assert isinstance(error, ErrorMsg) and error.code == ErrorCode.STRANGER
            assert host.ctx.refusals[-1].code == ErrorCode.STRANGER
            assert host.index == index
        finally:
            await stranger.close()
            await close_all(peers)

    run(main())


@pytest.mark.parametrize("deck", ["sealed", "open"])
@pytest.mark.parametrize("game", ["posy", "goofspiel"])
def test_a_lost_seat_is_shown_and_its_peer_resumes_from_its_log(game: str, deck: str) -> None:
    """The seat's peer dies in play and resumes from its log (and, at a sealed table, its
    seal file): it catches up and the game ends on one state everywhere (the very game
    `hedgerow simulate` plays, at an open-deck table)."""
    async def main() -> None:
        peers = await table(game, 3, open_deck=deck == "open")
        for p in peers:  # (the first beat still comes after a second)
            p.links.heartbeat, p.links.lost_after = 0.1, 1.5
        victim = peers[2]
        assert await victim.wait_until(lambda: victim.phase() == Phase.PLAYING, WAIT)
        log_path: Path = victim.log_path()
        await crash(victim)
        spec = plugins().bot("random")
        events: list[tuple[str, str]] = []
        waiting = asyncio.Event()

        def emit(event: str, text: str, **fields: Any) -> None:
            events.append((event, text))
            if text == "waiting for seat 2 (lost)":
                waiting.set()

        honest = [asyncio.ensure_future(play_bot(p, spec, emit=emit)) for p in peers[:2]]
        host = peers[0]
        assert await host.wait_until(lambda: host.seats()[2].link == Link.LOST, WAIT), "lost"
        await asyncio.wait_for(waiting.wait(), WAIT)
        before = host.index
        back = await resume_table(log_path, identity=victim.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.5
        try:
            assert back.index <= before
            assert await back.wait_until(lambda: not back.sync.syncing, WAIT), "catching up"
            # What it missed was fetched: both hold the same entries.  (Waited for, not read
            # at once: a seat lost before a sealed deal completes missed nothing, and the
            # deal's entry #0 lands on each peer when its own keys come, the returning
            # one's first at times: failed "1 == 0" so in a full suite.)
            assert await back.wait_until(lambda: back.index == host.index, WAIT), \
                (back.index, host.index)
            codes = await asyncio.gather(play_bot(back, spec), *honest)
            assert codes == [0, 0, 0]
            assert await host.wait_until(lambda: host.seats()[2].link == Link.CONNECTED, WAIT)
            hashes = {p.state_hash() for p in (back, *peers[:2])}
            if deck == "open":
                assert hashes == {simulate(game, 3, host.seed)}
            else:
                assert len(hashes) == 1
                for peer in (back, *peers[:2]):
                    assert await peer.wait_until(
                        lambda peer=peer: peer.sealing.verdict is not None, WAIT)
                    assert peer.sealing.verdict is not None and peer.sealing.verdict.ok
        finally:
            await close_all([back, *peers[:2]])

    run(main())


def test_different_rules_under_one_fingerprint_halt_the_table_naming_the_peer() -> None:
    async def main() -> None:
        peers = await table("posy", 3, joiner_plugins=[plugins(), plugins(Cheat())])
        spec = plugins().bot("random")
        try:
            codes = await asyncio.gather(*(play_bot(p, spec) for p in peers))
            assert codes == [1, 1, 1]
            for p in peers:
                assert p.phase() == Phase.HALTED
                await p.wait_until(lambda p=p: "seat 2 (joiner2)" in (p.problem() or "") and
                                   "diverged" in (p.problem() or ""), WAIT)
                assert "desync after entry #1: seat 2 (joiner2)" in p.problem()  # #0: the deal
        finally:
            await close_all(peers)

    run(main())


def sends(peer: Peer) -> list[tuple[bytes, object]]:
    """Every envelope ``peer`` sends from now on, decoded: (receiver, body)."""
    out: list[tuple[bytes, object]] = []
    send = peer.ctx.node.send

    def counted(key: bytes, data: bytes) -> bool:
        out.append((key, decode_envelope(data).body))
        return send(key, data)

    peer.ctx.node.send = counted  # type: ignore[method-assign]
    return out


@pytest.mark.parametrize("game, players, deck", [("posy", 4, "open"), ("posy", 4, "sealed"),
                                                 ("goofspiel", 3, "open"),
                                                 ("goofspiel", 3, "sealed")])
def test_each_action_costs_one_message_to_each_peer_and_every_hash_still_reaches_everyone(
        game: str, players: int, deck: str) -> None:
    """The lean wire (docs/protocol.md §3.3 "State hashes"): the hashes ride on the play
    messages, so a game without a disagreement sends no StateHash but each peer's end report;
    and still every peer's hash of every entry reaches every other peer and agrees."""
    async def main() -> None:
        peers = await table(game, players, open_deck=deck == "open")
        sent = [sends(p) for p in peers]
        try:
            spec = plugins().bot("random")
            codes = await asyncio.gather(*(play_bot(p, spec) for p in peers))
            assert codes == [0] * players
            for peer in peers:  # every end report is in (the bots stop once they are)
                assert await peer.wait_until(peer.confirmed_end, WAIT)
            last = peers[0].index - 1
            for peer, out in zip(peers, sent, strict=True):
                reports = [body for _, body in out if isinstance(body, StateHash)]
                assert len(reports) == players - 1  # one end report to each other peer
                assert {r.index for r in reports} == {last}
                plays = [body for _, body in out if isinstance(body, ActionMsg | ActionCommit)]
                assert len(plays) % (players - 1) == 0  # each one to each other peer, once
                book = peer.ctx.hashes
                assert book is not None and book.divergence is None
                # every other seat reported every entry, and all agree
                assert book.settled == set(range(last + 1)) and not book.reports
            assert len({p.state_hash() for p in peers}) == 1
        finally:
            await close_all(peers)

    run(main())


def test_a_diverged_peer_that_does_not_speak_up_is_named_at_the_entry_where_it_diverged(
        ) -> None:
    """A peer under other rules that never reports a disagreement (nor halts) is still named
    at the entry where it diverged: its own hashes of that entry ride on its next action."""
    async def main() -> None:
        peers = await table("posy", 3, joiner_plugins=[plugins(), plugins(Cheat())])
        quiet = peers[2]
        quiet.sync._diverged = lambda divergence: None  # type: ignore[method-assign]
        spec = plugins().bot("random")
        stays = asyncio.ensure_future(play_bot(quiet, spec))  # it never halts
        try:
            assert await asyncio.gather(*(play_bot(p, spec) for p in peers[:2])) == [1, 1]
            for p in peers[:2]:
                assert await p.wait_until(p.desync_settled, WAIT)
                assert p.phase() == Phase.HALTED
                assert p.problem().startswith("desync after entry #1: seat 2 (joiner2) "
                                              "diverged")
        finally:
            stays.cancel()
            await close_all(peers)

    run(main())


def test_a_peer_that_reports_a_false_hash_is_named_at_that_entry() -> None:
    """A peer that reports a hash its state does not have is named at that entry, by every
    other peer, even though it then tells the truth about it (a DESYNC error asks it to)."""
    async def main() -> None:
        peers = await table("posy", 3, open_deck=True)
        liar = peers[1]
        report = liar.sync.report
        lies: list[int] = []

        def forged() -> StateHash | None:
            real = report()
            if real is None or lies:
                return real
            lies.append(real.index)
            hashes = [h for _, h in real.reported()]
            hashes[-1] = bytes(32)  # the latest entry it reports: a lie
            return StateHash.of(real.first, hashes)

        liar.sync.report = forged  # type: ignore[method-assign]
        spec = plugins().bot("random")
        stays = asyncio.ensure_future(play_bot(liar, spec))  # its own state agrees
        try:
            honest = [peers[0], peers[2]]
            assert await asyncio.gather(*(play_bot(p, spec) for p in honest)) == [1, 1]
            for p in honest:
                assert await p.wait_until(p.desync_settled, WAIT)
                assert p.problem().startswith(f"desync after entry #{lies[0]}: seat 1 "
                                              "(joiner1) diverged (state 000000000000")
        finally:
            stays.cancel()
            await close_all(peers)

    run(main())


def test_a_dictated_seed_plays_only_with_joiners_that_accept_it() -> None:
    async def main() -> None:
        ps = plugins()
        ruleset = ps.ruleset("posy", (), 2)
        host = await host_table(ruleset, 2, seed=7, identity=generate(), announce=False)
        joiner = await join_table(host.address, identity=generate(), plugins=ps,
                                  accept_host_seed=True)
        try:
            spec = ps.bot("random")
            assert await asyncio.gather(play_bot(host, spec), play_bot(joiner, spec)) == [0, 0]
            assert host.seed == joiner.seed == seed_from_int(7)
            assert joiner.state_hash() == simulate("posy", 2, seed_from_int(7))
        finally:
            await close_all([joiner, host])
        host = await host_table(ruleset, 2, seed=7, identity=generate(), announce=False)
        joiner = await join_table(host.address, identity=generate(), plugins=ps)
        try:
            assert await joiner.wait_until(lambda: joiner.phase() == Phase.HALTED, WAIT)
            assert "dictated" in joiner.problem()
        finally:
            await close_all([joiner, host])

    run(main())


def test_submit_refuses_out_of_turn_and_illegal_actions_locally() -> None:
    async def main() -> None:
        peers = await table("posy", 2)
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            active = peers[0].active_seats()[0]
            actor, idle = (peers[0], peers[1]) if active == 0 else (peers[1], peers[0])
            refusal = await idle.submit(Action.of("play", card=1))
            assert refusal is not None and refusal.code == "not_your_turn"
            refusal = await actor.submit(Action.of("play", card=99))
            assert refusal is not None and refusal.code == "posy.not_in_hand"
            assert actor.index == 1  # entry #0 is the deal, a chance entry
            legal = actor.legal_actions()[0]
            assert await actor.submit(legal) is None
            assert await idle.wait_until(lambda: idle.index == 2, WAIT)
            assert [(line.index, line.seat, line.text) for line in idle.history()] == [
                (0, -1, "chance: deal"), (1, active, f"seat {active} plays {legal['card']}")]
        finally:
            await close_all(peers)

    run(main())


def test_close_tells_the_others_the_seat_left() -> None:
    async def main() -> None:
        peers = await table("posy", 2)
        try:
            # In play (a seat that leaves while the seed is agreed is re-seated instead).
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            await peers[1].close()
            assert await peers[0].wait_until(lambda: peers[0].seats()[1].link == Link.LEFT,
                                             WAIT)
            assert peers[0].seats()[1].left_why == "quit"  # Leave.why: it chose to leave
            events: list[tuple[str, dict[str, Any]]] = []
            code = await play_bot(peers[0], plugins().bot("random"),
                                  emit=lambda event, text, **fields: events.append((event, fields)))
            assert code == 1  # the table cannot go on without that seat
            assert ("abandoned", {"seat": 1, "why": "quit"}) in events
        finally:
            with contextlib.suppress(Exception):
                await close_all(peers)

    run(main())


def test_a_bot_that_gives_up_says_so_in_its_leave() -> None:
    async def main() -> None:
        peers = await table("posy", 2, host_bot="random")  # headless: nobody to wait for
        try:
            # Nobody plays seat 0's turn... unless it is seat 1's: then seat 0 just watches.
            code = await play_bot(peers[1], None, give_up=0.5)
            assert code == 1 and peers[1].closed
            assert await peers[0].wait_until(lambda: peers[0].seats()[1].link == Link.LEFT,
                                             WAIT)
            assert peers[0].seats()[1].left_why == "gave_up"
        finally:
            with contextlib.suppress(Exception):
                await close_all(peers)

    run(main())


def test_a_peer_leaving_a_finished_game_says_game_over() -> None:
    async def main() -> None:
        peers = await table("posy", 2)
        try:
            bot = plugins().bot("random")
            codes = await asyncio.gather(*(play_bot(p, bot) for p in peers))
            assert codes == [0, 0]
            await peers[1].close()
            assert await peers[0].wait_until(lambda: peers[0].seats()[1].link == Link.LEFT,
                                             WAIT)
            assert peers[0].seats()[1].left_why == "game_over"
        finally:
            with contextlib.suppress(Exception):
                await close_all(peers)

    run(main())


# --------------------------------------------------------------------------------------
# Simultaneous steps: every choice against the step's start, applied whole; cheats named


def cheat_at_steps(peer: Peer, change: str) -> list[Any]:
    """Make ``peer`` cheat at every simultaneous step by rewriting what it sends.

    ``"reveal"``: it reveals another legal action than the one it committed to (same salt);
    ``"illegal"``: it commits to, and reveals, an action the rules refuse (``pick(n=9)``).
    Returns the list of the messages it rewrote, as sent.
    """
    send = peer.ctx.broadcast
    rewrote: list[Any] = []

    def rewritten(body: Any) -> None:
        step = peer.sync.step
        if isinstance(body, (ActionCommit, ActionReveal)) and step is not None and step.own:
            seat, action, salt = step.own
            other = next(a for a in peer.ctx.table.legal_actions(seat) if a != action)
            if change == "reveal" and isinstance(body, ActionReveal):
                body = ActionReveal(body.index, seat, other, salt)
            elif change == "illegal":
                bad = Action.of("pick", n=9)
                body = (ActionCommit(body.index, seat,
                                     action_commitment(body.index, seat, bad, salt))
                        if isinstance(body, ActionCommit) else
                        ActionReveal(body.index, seat, bad, salt))
            rewrote.append(body)
        send(body)

    peer.ctx.broadcast = rewritten  # type: ignore[method-assign]
    return rewrote


@pytest.mark.parametrize("change, named", [
    ("reveal", "seat 2 (joiner2) cheated at the simultaneous step #0: seat 2's reveal "
               "(pick(n={n})) does not match its commitment"),
    ("illegal", "seat 2 (joiner2) cheated at the simultaneous step #0: seat 2 committed to "
                "pick(n=9), which the rules refuse at the start of the step: duel.bad_pick: "
                "pick a number from 1 to 3"),
])
def test_a_cheat_at_a_simultaneous_step_is_named_by_every_honest_peer(change: str,
                                                                      named: str) -> None:
    async def main() -> None:
        peers = await table("duel", 3)
        cheater = peers[2]
        rewrote = cheat_at_steps(cheater, change)
        spec = plugins().bot("random")
        try:
            honest = [asyncio.ensure_future(play_bot(p, spec)) for p in peers[:2]]
            playing = asyncio.ensure_future(play_bot(cheater, spec, give_up=2.0))
            assert await asyncio.gather(*honest) == [1, 1]
            problems = {p.problem() for p in peers[:2]}
            assert len(problems) == 1, problems  # the same words at every honest peer
            (problem,) = problems
            reveal = next(m for m in rewrote if isinstance(m, ActionReveal))
            assert problem == named.format(n=reveal.action["n"])
            for p in peers[:2]:
                assert p.phase() == Phase.HALTED and p.index == 0  # nothing applied
                refused = [r for r in p.ctx.refusals if r.seat == 2]
                assert refused and refused[-1].code == (
                    ErrorCode.BAD_REVEAL if change == "reveal" else ErrorCode.ILLEGAL)
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await playing
        finally:
            await close_all(peers)

    run(main())


def test_a_step_is_applied_whole_against_its_starting_state() -> None:
    """Every seat's choice in a duel round is checked against the round's start, and the
    round's entries are logged in seat order with no skip, the same on every peer."""
    async def main() -> None:
        peers = await table("duel", 3)
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            picks = {0: 3, 1: 1, 2: 3}
            for p in reversed(peers):  # commit out of seat order
                assert p.active_seats() == (0, 1, 2)
                assert await p.submit(Action.of("pick", n=picks[p.seat])) is None
                again = await p.submit(Action.of("pick", n=2))
                assert again is not None and again.code in ("already_chosen", "not_your_turn")
            for p in peers:
                assert await p.wait_until(lambda p=p: p.index == 3, WAIT)
            logs = {tuple((e.seat, e.action["n"]) for e in p.entries()) for p in peers}
            assert logs == {((0, 3), (1, 1), (2, 3))}
            assert {p.ctx.table.state.scores for p in peers} == {(0, 1, 0)}  # 1 is the unique pick
            assert {p.state_hash() for p in peers} == {peers[0].state_hash()}
        finally:
            await close_all(peers)

    run(main())


@pytest.mark.parametrize("deck", ["sealed", "open"])
def test_a_peer_that_died_after_its_reveal_catches_up_the_whole_step(deck: str) -> None:
    """The last seat to reveal dies before logging the step; the others apply it.  Back from
    its log, it fetches the step's entries and the prize after it: the step is held until
    whole, then applied, and the chance entry it resolves itself is compared with theirs."""
    async def main() -> None:
        peers = await table("goofspiel", 3, open_deck=deck == "open")
        for p in peers:
            p.links.heartbeat, p.links.lost_after = 0.1, 1.5
        victim = peers[2]
        spec = plugins().bot("random")
        assert await victim.wait_until(lambda: victim.ready, WAIT)
        log_path: Path = victim.log_path()
        honest = [asyncio.ensure_future(play_bot(p, spec)) for p in peers[:2]]
        # Wait for the others' commitments, then commit last and die right after revealing.
        assert await victim.wait_until(
            lambda: victim.sync.step is not None and set(victim.sync.step.commits) == {0, 1}, WAIT)
        send = victim.ctx.broadcast

        def reveal_then_die(body: Any) -> None:
            send(body)
            if isinstance(body, ActionReveal):
                victim.ctx.writer.close()  # nothing of the step reaches its log
                victim.ctx.broadcast = lambda body: None  # type: ignore[method-assign]

        victim.ctx.broadcast = reveal_then_die  # type: ignore[method-assign]
        choice = make_bot(victim, spec).choose(victim.view(), victim.legal_actions())
        assert await victim.submit(choice) is None  # what its bot would play
        await crash(victim)
        host = peers[0]
        assert await host.wait_until(lambda: host.index >= 5, WAIT)  # bids, prize
        assert read_log(log_path).next_index == 1  # the first prize only
        back = await resume_table(log_path, identity=victim.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.5
        try:
            assert back.index == 1
            assert await back.wait_until(lambda: not back.sync.syncing, WAIT), "catching up"
            assert back.index >= 5 and back.entries()[:5] == host.entries()[:5]
            codes = await asyncio.gather(play_bot(back, spec), *honest)
            assert codes == [0, 0, 0]
            hashes = {p.state_hash() for p in (back, *peers[:2])}
            assert hashes == {simulate("goofspiel", 3, host.seed)} if deck == "open" else \
                len(hashes) == 1
            assert verify_log(lambda h: back.ruleset, read_log(log_path)) is None
            assert read_log(log_path).next_index == back.index
        finally:
            await close_all([back, *peers[:2]])

    run(main())


def test_a_catch_up_entry_that_differs_from_our_chance_entry_is_a_named_divergence() -> None:
    """A replier whose log holds another deal than the seed gives: the logs forked."""
    async def main() -> None:
        peers = await table("posy", 3)
        host, liar = peers[0], peers[2]
        try:
            assert await host.wait_until(lambda: host.ready, WAIT)
            host.sync.seal()
            ours = host.entries()[0]
            assert ours.is_chance
            order, first = ours.action.args[0][1]
            forged = Action.of("chance", draws=((order[1], order[0], *order[2:]), first))
            entry = LogEntry.after(ours.prev, 0, CHANCE_SEAT, forged)
            reply = CatchUpReply(host.ctx.table.header, 0, (LoggedEntry(entry, bytes(32)),), 1)
            env = Envelope(host.ctx.table_id, liar.identity.public, 99, reply)
            member = host.ctx.roster.by_key(liar.identity.public)
            host.sync.on_catch_up_reply(Received(liar.identity.public, None, None), env, member,
                                        reply)
            assert host.phase() == Phase.HALTED
            problem = host.problem()
            assert problem.startswith("desync after entry #0: "), problem
            # named by the hashes known for #0: "seat 2 (joiner2) diverged (state 000000000000"
            # or, if the others' reports were already settled, "seat 2 (joiner2) has 0000..."
            assert "seat 2 (joiner2)" in problem and "000000000000" in problem, problem
            assert host.index == 1  # nothing else changed
        finally:
            await close_all(peers)

    run(main())


def keep_entries(path: Path, keep: int) -> None:
    """Cut a log file after its header and ``keep`` entries, with the sealed records written
    before the next entry (what a power cut may leave)."""
    from hedgerow.net.codec import decode_log_record
    from hedgerow.net.messages import LoggedEntry

    data = path.read_bytes()
    pos = len(b"HDRWLOG1")
    pos += 8 + int.from_bytes(data[pos: pos + 4], "little")  # the header
    while pos < len(data):
        size = int.from_bytes(data[pos: pos + 4], "little")
        record = decode_log_record(data[pos + 8: pos + 8 + size])
        if isinstance(record, LoggedEntry):
            if keep == 0:
                break
            keep -= 1
        pos += 8 + size
    path.write_bytes(data[:pos])


@pytest.mark.parametrize("deck", ["sealed", "open"])
def test_a_peer_whose_log_ends_inside_a_step_completes_it_by_catch_up(deck: str) -> None:
    async def main() -> None:
        peers = await table("goofspiel", 3, open_deck=deck == "open")
        victim = peers[2]
        for p in peers:
            assert await p.wait_until(lambda p=p: p.ready, WAIT)
        for p in peers:  # the first round's bids, by hand
            assert await p.submit(p.legal_actions()[0]) is None
        for p in peers:  # three bids and the next prize: entries #1-#4
            assert await p.wait_until(lambda p=p: p.index == 5, WAIT)
        victim.sync.seal()
        log_path: Path = victim.log_path()
        await crash(victim)
        assert read_log(log_path).next_index == 5
        keep_entries(log_path, 3)  # the prize and seats 0 and 1's bids: inside the step
        back = await resume_table(log_path, identity=victim.identity, plugins=plugins())
        spec = plugins().bot("random")
        try:
            assert back.index == 1 and back.ctx.table.following == 2
            assert await back.wait_until(lambda: not back.sync.syncing, WAIT), "catching up"
            assert back.entries() == peers[0].entries()
            assert [line.index for line in back.history()] == [0, 1, 2, 3, 4]
            codes = await asyncio.gather(*(play_bot(p, spec) for p in (back, *peers[:2])))
            assert codes == [0, 0, 0]
            assert len({p.state_hash() for p in (back, *peers[:2])}) == 1
            log = read_log(log_path)
            assert log.ok and log.next_index == back.index  # nothing written twice
            assert verify_log(lambda h: back.ruleset, log) is None
        finally:
            await close_all([back, *peers[:2]])

    run(main())
