"""Identities, table addresses and the `Node` (real CURVE sockets on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path
from typing import Any

import pytest
import zmq
import zmq.asyncio
from zmq.utils import z85

from hedgerow.core.errors import HedgerowError
from hedgerow.net.address import TableAddress, looks_like_address, parse_address
from hedgerow.net.keys import (
    default_path,
    generate,
    key_from_text,
    key_text,
    load_identity,
    parse_key,
)
from hedgerow.net.transport import Handshake, Node, Received

WAIT = 10.0


# -- identities -----------------------------------------------------------------------------


def test_identity_is_created_once_with_mode_0600(hedgerow_home: Path) -> None:
    first = load_identity()
    path = default_path()
    assert path.is_relative_to(hedgerow_home)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    again = load_identity()
    assert again.public == first.public and again.secret == first.secret
    assert len(first.public) == 32
    assert zmq.curve_public(first.secret_z85) == first.public_z85


def test_explicit_key_files_give_distinct_identities(tmp_path: Path) -> None:
    a = load_identity(tmp_path / "a.key_secret")
    b = load_identity(tmp_path / "b.key_secret")
    assert a.public != b.public
    public, secret = zmq.auth.load_certificate(tmp_path / "a.key_secret")  # a zmq certificate
    assert z85.decode(public) == a.public and z85.decode(secret) == a.secret


def test_a_key_file_others_can_read_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "k.key_secret"
    load_identity(path)
    os.chmod(path, 0o644)
    load_identity(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_corrupt_key_file_is_an_error_and_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "k.key_secret"
    path.write_text("curve\n    public-key = \"nonsense\"\n")
    os.chmod(path, 0o600)
    with pytest.raises(HedgerowError, match="corrupt"):
        load_identity(path)
    assert "nonsense" in path.read_text()
    other = generate()
    path.write_text(f'public-key = "{other.public_z85.decode()}"\n'
                    f'secret-key = "{generate().secret_z85.decode()}"\n')
    with pytest.raises(HedgerowError, match="does not belong"):
        load_identity(path)


def test_key_spellings_round_trip() -> None:
    ident = generate()
    text = key_text(ident.public)
    assert len(text) == 43 and key_from_text(text) == ident.public
    assert parse_key(text) == parse_key(ident.public.hex()) == parse_key(
        ident.public_z85.decode()) == ident.public
    for bad in ("", "abc", text[:-1], text + "A"):
        with pytest.raises(ValueError):
            key_from_text(bad)


def test_table_addresses() -> None:
    key = generate().public
    address = TableAddress("127.0.0.1", 4567, key)
    assert str(address) == f"127.0.0.1:4567/{key_text(key)}"
    assert parse_address(str(address)) == address
    assert parse_address(f"[::1]:80/{key_text(key)}") == TableAddress("::1", 80, key)
    assert looks_like_address("10.0.0.2:5555") and looks_like_address(str(address))
    assert not looks_like_address("friday night")
    with pytest.raises(ValueError, match="no table key"):
        parse_address("127.0.0.1:4567")
    with pytest.raises(ValueError, match="not a table key"):
        parse_address("127.0.0.1:4567/short")
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_address(f"127.0.0.1:99999/{key_text(key)}")


# -- the node -------------------------------------------------------------------------------


def run(coro: Any) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, WAIT)

    return asyncio.run(bounded())


async def nodes(n: int) -> tuple[list[Node], list[asyncio.Queue[Received]]]:
    queues: list[asyncio.Queue[Received]] = [asyncio.Queue() for _ in range(n)]
    made = [Node(generate(), q.put_nowait) for q in queues]
    for node in made:
        await node.start("127.0.0.1", 0)
    return made, queues


def test_frames_carry_the_proven_key_of_their_sender() -> None:
    async def main() -> None:
        (a, b), (qa, qb) = await nodes(2)
        try:
            b.connect(a.identity.public, a.endpoint)
            assert b.send(a.identity.public, b"hello")
            got = await qa.get()
            assert (got.sender, got.data) == (b.identity.public, b"hello")
            assert got.route is not None and got.peer_ip == "127.0.0.1"
            assert a.reply(got.route, b"back")  # through the ROUTER, to b's DEALER
            back = await qb.get()
            assert (back.sender, back.data, back.route) == (a.identity.public, b"back", None)
            a.connect(b.identity.public, b.endpoint)  # the other direction: a's own DEALER
            assert a.send(b.identity.public, b"mesh")
            mesh = await qb.get()
            assert (mesh.sender, mesh.data) == (a.identity.public, b"mesh")
            assert mesh.route is not None
        finally:
            await a.close()
            await b.close()

    run(main())


def test_several_frames_are_flagged_and_unknown_peers_are_not_sent_to() -> None:
    async def main() -> None:
        (a, b), (qa, _) = await nodes(2)
        try:
            assert not b.send(a.identity.public, b"nobody")  # no DEALER to a yet
            b.connect(a.identity.public, a.endpoint)
            sock = b._dealers[a.identity.public][1]
            await sock.send_multipart([b"one", b"two"])
            got = await qa.get()
            assert got.data is None and got.sender == b.identity.public
            assert not a.reply(b"no-such-route", b"x")
        finally:
            await a.close()
            await b.close()

    run(main())


def test_a_client_without_the_servers_key_or_without_curve_gets_nothing_through() -> None:
    async def main() -> None:
        (a,), (qa,) = await nodes(1)
        ctx = zmq.asyncio.Context()
        plain = ctx.socket(zmq.DEALER)
        plain.linger = 0
        plain.connect(a.endpoint)
        impostor = Node(generate(), lambda r: None)
        try:
            await plain.send(b"plain text")
            impostor.connect(generate().public, a.endpoint)  # pinned to a key a does not hold
            impostor.send(next(iter(impostor._dealers)), b"wrong key")
            friend = Node(generate(), lambda r: None)
            friend.connect(a.identity.public, a.endpoint)
            friend.send(a.identity.public, b"friend")
            got = await qa.get()  # the only frame that arrives is the authenticated one
            assert got.data == b"friend"
            assert qa.empty()
            await friend.close()
        finally:
            plain.close()
            ctx.term()
            await impostor.close()
            await a.close()

    run(main())


def test_close_delivers_what_is_queued() -> None:
    async def main() -> None:
        (a, b), (qa, _) = await nodes(2)
        b.connect(a.identity.public, a.endpoint)
        for i in range(100):
            b.send(a.identity.public, str(i).encode())
        await b.close()
        got = [(await qa.get()).data for _ in range(100)]
        assert got == [str(i).encode() for i in range(100)]
        await a.close()

    run(main())


def test_a_port_in_use_is_an_os_error() -> None:
    async def main() -> None:
        (a,), _ = await nodes(1)
        port = int(a.endpoint.rsplit(":", 1)[1])
        other = Node(generate(), lambda r: None)
        try:
            with pytest.raises(OSError, match="cannot listen"):
                await other.start("127.0.0.1", port)
        finally:
            await other.close()
            await a.close()

    run(main())


def test_a_watched_link_says_how_its_first_handshake_went() -> None:
    import socket

    async def main() -> None:
        (a,), (qa,) = await nodes(1)
        with socket.socket() as s:  # a port nothing listens on (bound, then freed)
            s.bind(("127.0.0.1", 0))
            free = s.getsockname()[1]
        client = Node(generate(), lambda r: None)
        try:
            right, wrong, nobody = generate().public, generate().public, generate().public
            client.connect(a.identity.public, a.endpoint, watch=True)
            assert await client.handshake(a.identity.public, WAIT) == Handshake.DONE
            client.connect(wrong, a.endpoint, watch=True)  # pinned to a key a does not hold
            assert await client.handshake(wrong, WAIT) == Handshake.WRONG_KEY
            client.connect(nobody, f"tcp://127.0.0.1:{free}", watch=True)
            assert await client.handshake(nobody, WAIT) == Handshake.REFUSED
            client.connect(right, f"tcp://127.0.0.1:{free}", watch=True)
            assert await client.handshake(right, 0.2) == Handshake.PENDING  # too soon to say
            with pytest.raises(ValueError, match="not watched"):
                await client.handshake(right, 1)  # the watch ended with its answer
            # The link itself works on after its watch.
            client.send(a.identity.public, b"after")
            assert (await qa.get()).data == b"after"
        finally:
            await client.close()
            await a.close()

    run(main())


def test_a_socket_on_every_interface_is_advertised_at_the_address_toward_each_peer() -> None:
    from hedgerow.net.address import advertised_host, endpoint_toward

    assert advertised_host("127.0.0.1") == "127.0.0.1"  # a specific bind is itself
    assert advertised_host("0.0.0.0", "127.0.0.1") == "127.0.0.1"  # the route toward a peer
    assert advertised_host("0.0.0.0") != "0.0.0.0"
    assert endpoint_toward("tcp://0.0.0.0:4000", "tcp://192.0.2.9:4000",
                           "tcp://127.0.0.1:5000") == "tcp://127.0.0.1:4000"
    assert endpoint_toward("tcp://127.0.0.1:4000", "tcp://127.0.0.1:4000",
                           "tcp://10.0.0.1:5000") == "tcp://127.0.0.1:4000"
