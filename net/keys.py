"""A user's CURVE keypair: their identity at every table.

The keypair lives in one file under `hedgerow.core.datadir.keys_dir` (``identity.key_secret``),
created on first use with mode 0600 inside a 0700 folder.  The file is a ZeroMQ certificate
(ZPL text, readable with ``zmq.auth.load_certificate``).  ``--key-file`` (tests, several
identities on one machine) points at another file of the same format.

Several people on one machine (two terminals trying the LAN, or friends sharing a laptop)
need one identity each, since one key holds one seat.  ``--as NAME`` keeps a key per local
player (`player_key_path`: ``players/NAME.key_secret``), and a join that finds the table is
hosted with this user's own key takes the next free *local* identity on demand
(`claim_local_identity`: ``local/player-N.key_secret``, N from 2; a lock file tells which
ones another process of this machine is using).

Keys travel in three spellings: raw 32 bytes (the wire's ``Envelope.sender``), Z85 text
(what libzmq's socket options and the ZAP ``User-Id`` use), and base64url text (43
characters, shell-safe: the table address ``HOST:PORT/KEY``).
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

import zmq
import zmq.auth
from zmq.utils import z85

from hedgerow.core.datadir import keys_dir
from hedgerow.core.errors import HedgerowError

log = logging.getLogger(__name__)

KEY_SIZE = 32
DEFAULT_NAME = "identity.key_secret"

_BANNER = (
    "#   Hedgerow CURVE identity: the secret key of one user.  Keep it private (mode 0600).\n"
    "#   Its public key is this user's identity at every table.\n"
)


@dataclass(frozen=True, slots=True)
class Identity:
    """A CURVE keypair; ``public`` and ``secret`` are raw 32-byte keys."""

    public: bytes
    secret: bytes
    path: Path | None = None

    @property
    def public_z85(self) -> bytes:
        """The public key as libzmq wants it in socket options."""
        return z85.encode(self.public)

    @property
    def secret_z85(self) -> bytes:
        """The secret key as libzmq wants it in socket options."""
        return z85.encode(self.secret)


def generate() -> Identity:
    """A fresh keypair, in memory only."""
    public, secret = zmq.curve_keypair()
    return Identity(z85.decode(public), z85.decode(secret))


def key_text(raw: bytes) -> str:
    """A raw public key as 43 characters of unpadded base64url."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def key_from_text(text: str) -> bytes:
    """The raw key that `key_text` wrote; `ValueError` for anything else."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"not a key: {text!r}") from exc
    if len(raw) != KEY_SIZE or key_text(raw) != text:
        raise ValueError(f"not a {KEY_SIZE}-byte key: {text!r}")
    return raw


def key_from_z85(text: bytes | str) -> bytes:
    """The raw key in Z85 text (a ZAP ``User-Id``); `ValueError` for anything else."""
    data = text.encode("ascii") if isinstance(text, str) else bytes(text)
    if len(data) != 40:
        raise ValueError("a Z85 CURVE key is 40 characters")
    try:
        return z85.decode(data)
    except (KeyError, IndexError, ValueError, TypeError):
        raise ValueError("not a Z85 key") from None


def parse_key(text: str) -> bytes:
    """A raw public key from base64url (43), Z85 (40) or hex (64 characters)."""
    text = text.strip()
    if len(text) == 64:
        try:
            return bytes.fromhex(text)
        except ValueError:
            pass
    if len(text) == 40:
        try:
            return key_from_z85(text)
        except ValueError:
            pass
    return key_from_text(text)


def default_path() -> Path:
    """Where this user's keypair lives."""
    return keys_dir() / DEFAULT_NAME


def _write(path: Path, ident: Identity) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    text = (
        f"{_BANNER}metadata\ncurve\n"
        f'    public-key = "{ident.public_z85.decode()}"\n'
        f'    secret-key = "{ident.secret_z85.decode()}"\n'
    )
    # O_EXCL: two processes starting at once never overwrite each other's fresh key.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def _read(path: Path) -> Identity:
    try:
        public, secret = zmq.auth.load_certificate(path)
    except (OSError, ValueError) as exc:
        raise HedgerowError(f"cannot read the key file {path}: {exc}") from None
    try:
        if secret is None:
            raise ValueError("it holds no secret key")
        ident = Identity(key_from_z85(public), key_from_z85(secret), path)
        if zmq.curve_public(ident.secret_z85) != ident.public_z85:
            raise ValueError("its public key does not belong to its secret key")
    except ValueError as exc:
        raise HedgerowError(f"the key file {path} is corrupt: {exc}") from None
    return ident


def load_identity(path: Path | str | None = None) -> Identity:
    """This user's keypair from ``path`` (default: `default_path`), created on first use.

    A key file that others may read is tightened to mode 0600 (with a warning).  A corrupt
    key file raises `HedgerowError`; it is never replaced, since it is the user's identity.
    """
    path = Path(path) if path is not None else default_path()
    if not path.exists():
        try:
            _write(path, generate())
            log.info("created a new identity in %s", path)
        except FileExistsError:
            pass  # another process created it a moment ago: use theirs
        except OSError as exc:
            raise HedgerowError(f"cannot create the key file {path}: {exc}") from None
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("key file %s was readable by others (mode %o); set to 0600", path, mode)
        os.chmod(path, 0o600)
    return _read(path)


#: What ``--as NAME`` accepts: a short name that is also a safe file name.
PLAYER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")

_held_locks: list[int] = []  # lock files held for the life of this process


def player_key_path(name: str) -> Path:
    """The key file of the local player ``name`` (``--as NAME``); `HedgerowError` for a name
    that cannot be a file name."""
    if not PLAYER_NAME.fullmatch(name):
        raise HedgerowError(f"--as takes a short name of letters, digits, '.', '-' and '_' "
                            f"(at most 32, starting with a letter or digit), not {name!r}")
    return keys_dir() / "players" / f"{name}.key_secret"


def local_key_path(number: int) -> Path:
    """The key file of this machine's ``number``-th local player (2, 3, ...)."""
    return keys_dir() / "local" / f"player-{number}.key_secret"


def _try_lock(path: Path) -> bool:
    """Hold ``path``'s lock file for the life of this process; False if another holds it."""
    try:
        import fcntl
    except ImportError:  # no flock here (Windows): every claim succeeds
        return True
    lock = path.with_name(path.name + ".lock")
    lock.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False
    _held_locks.append(fd)
    return True


def claim_local_identity(*, limit: int = 8) -> tuple[int, Identity]:
    """The first local identity (player 2, 3, ...) no other process here is using, locked
    for this process; created on first use.  `HedgerowError` when all ``limit`` are taken."""
    for number in range(2, limit + 2):
        path = local_key_path(number)
        if _try_lock(path):
            return number, load_identity(path)
    raise HedgerowError(f"{limit} local players already play from this user's data folder; "
                        "pass --as NAME for one more")
