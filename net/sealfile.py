"""The seal file: this peer's sealed-deck secret for one table, kept beside its log.

Every lock and card key a party uses at a sealed table derives from one 32-byte secret
(`hedgerow.net.mentalpoker.PeerSecret`).  It is drawn from the operating system's random
source when the table's log is created and written to ``<log>.seal`` — readable by its
owner only (mode 0600), flushed to disk with the folder entry — before any message that
depends on it leaves, so that a peer that crashes in the middle of a shuffle comes back
with the keys it had (`hedgerow resume`).  Nothing else is in the file: the 32 bytes, as
hex, and a format line.  The secret is disclosed to the other peers at the end of the game
(docs/protocol.md §10.7), after which the file holds nothing worth hiding.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from hedgerow.core.errors import HedgerowError

SUFFIX = ".seal"
HEADER = "hedgerow seal 1"
SIZE = 32


def path_for(log_path: Path) -> Path:
    """Where the seal file of ``log_path`` lives."""
    return log_path.with_name(log_path.name + SUFFIX)


def create(log_path: Path) -> bytes:
    """Draw a new secret for the table of ``log_path`` and keep it (owner-only, synced).

    An existing seal file is refused (`HedgerowError`): a table's secret is drawn once.
    """
    secret = secrets.token_bytes(SIZE)
    target = path_for(log_path)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise HedgerowError(f"{target} exists already: this table's secret was drawn "
                            "before (resume the table instead)") from None
    except OSError as exc:
        raise HedgerowError(f"cannot keep this table's sealed-deck secret in {target}: "
                            f"{exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(f"{HEADER}\n{secret.hex()}\n")
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:
        with contextlib.suppress(OSError):
            target.unlink()
        raise HedgerowError(f"cannot keep this table's sealed-deck secret in {target}: "
                            f"{exc.strerror}") from None
    _sync_folder(target.parent)
    return secret


def load(log_path: Path) -> bytes:
    """The secret kept for the table of ``log_path``; `HedgerowError` when it is missing or
    damaged (then the table cannot be resumed sealed: the cards this peer locked would
    never open)."""
    target = path_for(log_path)
    try:
        lines = target.read_text(encoding="ascii").split()
    except FileNotFoundError:
        raise HedgerowError(f"{target} is missing: it holds this peer's keys to the table's "
                            "sealed deck, without which the table cannot go on") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise HedgerowError(f"{target} cannot be read: {exc}") from None
    try:
        if " ".join(lines[:3]) != HEADER or len(lines) != 4:
            raise ValueError
        secret = bytes.fromhex(lines[3])
        if len(secret) != SIZE:
            raise ValueError
    except ValueError:
        raise HedgerowError(f"{target} is damaged: it does not hold a 32-byte secret") \
            from None
    return secret


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
