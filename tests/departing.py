"""In-process tables for the departure tests (docs/protocol.md §5.9): peers in one process
over real CURVE sockets, a crash that says nothing to anyone, short heartbeats.  The crash
and the closing are shared with tests/net/test_peer.py."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import goofspiel
import toygames

from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.keys import generate
from hedgerow.net.launch import host_table, join_table
from hedgerow.net.logfile import read_log
from hedgerow.net.logverify import verify
from hedgerow.net.messages import SeatEventKind
from hedgerow.net.peer import Peer

WAIT = 20.0


def plugins() -> PluginHost:
    """Toy games, Goofspiel and the random bot."""
    return PluginHost(builtins=(("random-bot", "hedgerow.plugins.bots.random_bot"),),
                      autoload=False, extra=(*toygames.PLUGINS, goofspiel))


def run(coro: Awaitable[Any]) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, WAIT * 3)

    return asyncio.run(bounded())


async def table(game: str, players: int, *, open_deck: bool = False) -> list[Peer]:
    """A host and ``players - 1`` joiners, seated (a sealed deck unless ``open_deck``)."""
    ruleset = plugins().ruleset(game, (), players)
    host = await host_table(ruleset, players, identity=generate(), seat_name="host",
                            announce=False, open_deck=open_deck)
    host.plugins = plugins()
    peers = [host]
    for i in range(players - 1):
        peers.append(await join_table(host.address, identity=generate(), plugins=plugins(),
                                      seat_name=f"joiner{i + 1}"))
    return peers


async def sealed_table(game: str, variants: tuple[str, ...], players: int) -> list[Peer]:
    """A host and ``players - 1`` joiners of a built-in ``game`` (with ``variants``), at a
    sealed table (the default)."""
    ruleset = PluginHost().ruleset(game, variants, players)
    host = await host_table(ruleset, players, identity=generate(), seat_name="host",
                            announce=False)
    peers = [host]
    for i in range(players - 1):
        peers.append(await join_table(host.address, identity=generate(), plugins=PluginHost(),
                                      seat_name=f"joiner{i + 1}"))
    return peers


def crash(peer: Peer) -> Awaitable[None]:
    """Stop ``peer`` at once without a word to anyone, as a killed process would."""
    peer._closed = True
    for task in peer._tasks:
        task.cancel()
    if peer.ctx.writer is not None:
        peer.ctx.writer.close()
    return peer.ctx.node.close()


async def close_all(peers: list[Peer]) -> None:
    for peer in peers:
        await peer.close()


async def stop_bots(bots: list[asyncio.Future[Any]]) -> None:
    """Cancel the bot tasks and wait until each has stopped (whatever it ended with)."""
    for bot in bots:
        bot.cancel()
    await asyncio.gather(*bots, return_exceptions=True)


def fast(peers: list[Peer]) -> None:
    """Beats every 0.1 s, a peer lost after 2 s of silence (1 s was too short beside a
    loaded machine: peers in one process and loop, one of them busy, and a seat nobody cut
    was seen lost, so a takeover had no majority)."""
    for p in peers:  # (the first beat still comes after a second)
        p.links.heartbeat, p.links.lost_after = 0.1, 2.0


def events_of(path: Path) -> list[tuple[SeatEventKind, int, int]]:
    return [(e.kind, e.seat, e.runner) for e in read_log(path).events]


def verified(peer: Peer, path: Path) -> None:
    """The log reads whole (seat events included) and replays to its own hashes."""
    result = read_log(path)
    assert result.ok, result.problem
    assert verify(lambda h: peer.ruleset, result) is None
