"""Before a join: the table's host name must resolve, and the joiner needs an identity of its own.

``hedgerow join`` and the lobby both go through `prepare_join`:

* the address (``HOST:PORT/KEY``, ``HOST:PORT`` or a table's name) is looked up
  (`hedgerow.net.launch.find_address`), and a host name that does not resolve is refused at
  once, saying so (rather than waiting for an answer that cannot come);
* the identity to join with is chosen (`choose_identity`): ``--as NAME`` (a key per local
  player), ``--key-file``, or this user's own.  One key holds one seat, so a join that finds
  the table is hosted with the very key it would use (two terminals of one user on one
  machine) takes the next free local identity instead and says so; with a key given
  explicitly it refuses, naming the reason.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass

from hedgerow.core.errors import HedgerowError
from hedgerow.net.address import TableAddress
from hedgerow.net.keys import claim_local_identity, load_identity, player_key_path


@dataclass(frozen=True, slots=True)
class Joiner:
    """Who joins: the key file (None: the user's own) and the name at the table."""

    key_file: str | None
    seat_name: str
    note: str | None = None  # a line for the player when the identity was chosen for them


async def check_resolves(host: str) -> None:
    """`HedgerowError` at once when ``host`` is a name that does not resolve."""
    loop = asyncio.get_running_loop()
    try:
        await loop.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        why = exc.strerror if isinstance(exc, socket.gaierror) and exc.strerror else str(exc)
        raise HedgerowError(
            f"the host name {host!r} did not resolve ({why}); check its spelling, or use the "
            "address `hedgerow host` printed", code="bad_address") from None


def choose_identity(table_key: bytes, *, seat_name: str, key_file: str | None = None,
                    as_name: str | None = None, name_given: bool = False) -> Joiner:
    """The identity to join the table hosted with ``table_key`` (see the module's text)."""
    if as_name is not None:
        path = player_key_path(as_name)
        if load_identity(path).public == table_key:
            raise HedgerowError(f"the table is hosted as {as_name!r}: one identity holds one "
                                f"seat, so join it --as another name")
        return Joiner(str(path), seat_name if name_given else as_name)
    if key_file is not None:
        if load_identity(key_file).public == table_key:
            raise HedgerowError(f"{key_file} is the identity this table is hosted with, and one "
                                "identity holds one seat: join as another local player with "
                                "--as NAME")
        return Joiner(key_file, seat_name)
    if load_identity().public != table_key:
        return Joiner(None, seat_name)
    number, ident = claim_local_identity()
    assert ident.path is not None
    name = seat_name if name_given else f"{seat_name} ({number})"
    note = (f"this table is hosted with your own identity (the same user data folder), so you "
            f"join it as local player {number}, {name!r}, with the key {ident.path}; "
            "--as NAME picks a name and key of your own")
    return Joiner(str(ident.path), name, note)


async def prepare_join(text: str | TableAddress, *, seat_name: str, key_file: str | None = None,
                       as_name: str | None = None,
                       name_given: bool = False) -> tuple[TableAddress, Joiner]:
    """The table ``text`` names (its host name resolved) and who joins it."""
    from hedgerow.net.launch import find_address

    where = text if isinstance(text, TableAddress) else await find_address(text)
    await check_resolves(where.host)
    return where, choose_identity(where.key, seat_name=seat_name, key_file=key_file,
                                  as_name=as_name, name_given=name_given)

