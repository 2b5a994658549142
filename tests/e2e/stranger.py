"""A stranger that floods a table's host with huge, hostile ``Hello``s (no seat, no rules).

Each envelope is built with the generated protobuf classes directly (our own codec refuses
to encode such fields) and sent over a real CURVE link from a fresh key.  The text fields
carry raw ESC and NUL bytes, so a host that shows them unescaped would paint the terminal.
"""

from __future__ import annotations

import asyncio

from hedgerow.net.address import parse_address
from hedgerow.net.keys import generate
from hedgerow.net.transport import Node, Received
from hedgerow.proto import hedgerow_pb2 as pb

#: What the text fields are made of: a terminal escape (clear screen, red), a NUL, a BEL.
HOSTILE = "\x1b[2J\x1b[31m\x00\x07evil"


def hostile_hello(sender: bytes, seq: int, size: int) -> bytes:
    """A Hello envelope of about ``size`` bytes whose every text field is hostile; which
    field carries the bulk turns with ``seq``."""
    bulk = (HOSTILE * (size // len(HOSTILE) + 1))[:size]
    hello = pb.Hello(display_name=HOSTILE * 4, address="tcp://127.0.0.1:1" + HOSTILE,
                     fingerprint="petals@1.0.0" + HOSTILE)
    kind = seq % 3
    if kind == 0:
        hello.fingerprint = bulk
    elif kind == 1:
        hello.plugins.add(name=bulk, version=HOSTILE)
    else:
        hello.address = bulk
    env = pb.Envelope(protocol_version=2, table_id=b"", sender=sender, seq=seq, hello=hello)
    return env.SerializeToString()


async def flood(address: str, count: int, size: int, *, pause: float = 0.02) -> int:
    """Send ``count`` hostile Hellos of ``size`` bytes to the host at ``address``; the number
    of answers (refusals) that came back within a few seconds."""
    table = parse_address(address)
    answers: list[Received] = []
    me = generate()
    node = Node(me, answers.append)
    await node.start("127.0.0.1", 0)
    try:
        node.connect(table.key, table.endpoint)
        for seq in range(1, count + 1):
            node.send(table.key, hostile_hello(me.public, seq, size))
            await asyncio.sleep(pause)
        for _ in range(100):
            if len(answers) >= count:
                break
            await asyncio.sleep(0.1)
        return len(answers)
    finally:
        await node.close()
