"""Faults a table survives, in one process over real CURVE sockets (toy games, fast).

The multi-process versions (real SIGKILLs, a stranger's flood) are in
tests/e2e/test_net_faults.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import goofspiel
import pytest
import toygames

from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.context import JoinRefused
from hedgerow.net.keys import generate
from hedgerow.net.launch import host_table, join_table
from hedgerow.net.messages import ErrorCode
from hedgerow.net.peer import Peer

WAIT = 20.0
RANDOM_BOT = (("random-bot", "hedgerow.plugins.bots.random_bot"),)


def plugins() -> PluginHost:
    return PluginHost(builtins=RANDOM_BOT, autoload=False,
                      extra=(*toygames.PLUGINS, goofspiel))


def run(coro: Awaitable[Any]) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, WAIT * 3)

    return asyncio.run(bounded())


async def close_all(peers: list[Peer]) -> None:
    for peer in peers:
        await peer.close()


def test_a_hello_with_the_hosts_own_key_is_refused_saying_so() -> None:
    async def main() -> None:
        me = generate()
        host = await host_table(plugins().ruleset("posy", (), 2), 2, identity=me,
                                seat_name="ann", announce=False)
        try:
            with pytest.raises(JoinRefused, match=r"this table's own identity .*--as NAME"):
                await join_table(host.address, identity=me, plugins=plugins(), timeout=5)
            assert host.ctx.refusals[-1].code == ErrorCode.STRANGER
            assert [m.seat for m in host.members()] == [0]  # nothing changed at the table
        finally:
            await host.close()

    run(main())


def test_a_peers_text_is_shown_escaped_and_cut() -> None:
    from hedgerow.net.shown import shown

    assert shown("ann\x1b[2J\x00\x07") == "ann\\x1b[2J\\x00\\x07"
    assert shown("rtl\u202eevil") == "rtl\\u202eevil"
    assert shown("family 👨\u200d👩\u200d👧") == "family 👨\u200d👩\u200d👧"  # emoji stay whole
    cut = shown("x" * 500)
    assert len(cut) == 200 and cut.endswith("…")
    assert shown("x" * 500, None) == "x" * 500


def test_refusal_lines_are_rate_limited_per_sender_and_in_all() -> None:
    from hedgerow.net.throttle import Throttle

    throttle = Throttle()
    allowed = [throttle.allow(b"a", 0.0) for _ in range(8)]
    assert allowed == [True] * 5 + [False] * 3
    assert throttle.allow(b"b", 0.0)  # another sender has its own share
    assert not throttle.allow(b"a", 5.0)
    assert throttle.allow(b"a", 10.5)  # one more per 10 s
    assert throttle.take_suppressed() == 4 and throttle.take_suppressed() == 0
    # Many senders (fresh keys are free): 50 lines at once in all, then 2 per second.
    fresh = [throttle.allow(bytes([i, j]), 20.0) for i in range(10) for j in range(10)]
    assert 45 <= sum(fresh) <= 50
    assert sum(throttle.allow(bytes([9, 9, k]), 21.0) for k in range(10)) == 2


def test_a_stranger_with_hostile_text_is_refused_briefly_and_the_table_plays() -> None:
    from hedgerow.net.address import parse_address
    from hedgerow.net.messages import PROTOCOL_VERSION
    from hedgerow.net.transport import Node, Received
    from hedgerow.proto import hedgerow_pb2 as pb

    async def main() -> None:
        host = await host_table(plugins().ruleset("posy", (), 2), 2, identity=generate(),
                                seat_name="ann\x1b[31m", announce=False)
        answers: list[Received] = []
        stranger = generate()
        node = Node(stranger, answers.append)
        await node.start("127.0.0.1", 0)
        try:
            address = parse_address(host.address)
            node.connect(address.key, address.endpoint)
            for seq, hello in enumerate([
                    pb.Hello(fingerprint="posy@9" + "\x1b[2J" * 100_000),
                    pb.Hello(fingerprint="posy@9", display_name="\x00\x1b]0;owned\x07"),
                    pb.Hello(fingerprint="nope@1" * 40, display_name="eve")], start=1):
                env = pb.Envelope(protocol_version=PROTOCOL_VERSION, sender=stranger.public,
                                  seq=seq,
                                  hello=hello)
                node.send(address.key, env.SerializeToString())
            for _ in range(200):  # refusals change nothing, so nothing to wait on but time
                if len(answers) >= 3 and len(host.ctx.refusals) >= 3:
                    break
                await asyncio.sleep(0.05)
            assert len(answers) == 3  # every one answered, with a short Error
            # Kept: at most 16 refusals of one stranger (a flood cannot push out the rest).
            for seq in range(4, 40):
                env = pb.Envelope(protocol_version=PROTOCOL_VERSION, sender=stranger.public,
                                  seq=seq,
                                  hello=pb.Hello(fingerprint="nope@1"))
                node.send(address.key, env.SerializeToString())
            for _ in range(200):
                if len(answers) >= 39:
                    break
                await asyncio.sleep(0.05)
            assert len(answers) == 39 and len(host.ctx.refusals) == 16
            assert all(a.data is not None and len(a.data) < 2000 for a in answers)
            assert [r.code for r in host.ctx.refusals][:3] == [ErrorCode.MALFORMED] * 2 + [
                ErrorCode.RULES_MISMATCH]
            assert all(len(r.message) <= 1024 and "\x1b" not in r.message
                       for r in host.ctx.refusals)
            # The host's own name went out plain (it cannot break the wire rules).
            joiner = await join_table(host.address, identity=generate(), plugins=plugins())
            try:
                assert joiner.seats()[0].name == "ann\\x1b[31m"
            finally:
                await joiner.close()
        finally:
            await node.close()
            await host.close()

    run(main())


@pytest.mark.parametrize("back", ["once_lost", "at_once"])
def test_a_peer_lost_during_seed_agreement_rejoins_and_the_game_starts(back: str) -> None:
    """Its share died with it: the table goes back to seating, it joins again with the same
    key (before or after the host saw it lost), a new seed is agreed and the game plays."""
    from hedgerow.clients.botrunner import play_bot
    from hedgerow.net.seat import Phase

    async def main() -> None:
        host = await host_table(plugins().ruleset("posy", (), 3), 3, identity=generate(),
                                announce=False)
        doomed = generate()
        k = await join_table(host.address, identity=doomed, plugins=plugins(), seat_name="kay")
        k.seating._begin_seeding = lambda: None  # it dies before it commits to a share
        a = await join_table(host.address, identity=generate(), plugins=plugins())
        peers = [host, a]
        for p in (host, a, k):
            p.links.heartbeat, p.links.lost_after = 0.1, 1.0
        try:
            assert await host.wait_until(lambda: host.phase() == Phase.SEEDING, WAIT)
            assert await a.wait_until(lambda: a.phase() == Phase.SEEDING, WAIT)
            k._closed = True  # killed: no Leave, no heartbeat, nothing more
            for task in k._tasks:
                task.cancel()
            await k.ctx.node.close()
            if back == "once_lost":
                assert await host.wait_until(lambda: host.phase() == Phase.SEATING, WAIT)
                assert await a.wait_until(lambda: a.phase() == Phase.SEATING, WAIT)
                assert [m.seat for m in host.members()] == [0, 2]
            again = await join_table(host.address, identity=doomed, plugins=plugins(),
                                     seat_name="kay")
            again.links.heartbeat, again.links.lost_after = 0.1, 1.0
            peers.append(again)
            assert again.seat == 1
            spec = plugins().bot("random")
            codes = await asyncio.gather(*(play_bot(p, spec) for p in peers))
            assert codes == [0, 0, 0]
            assert len({p.state_hash() for p in peers}) == 1
            assert len({p.seed for p in peers}) == 1
            assert all(p.log_path() is not None and p.log_path().exists() for p in peers)
        finally:
            await close_all(peers)

    run(main())
