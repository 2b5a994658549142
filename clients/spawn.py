"""Bot peers as processes: ``hedgerow join ADDRESS --bot S``, each with an identity of its own.

Used by ``hedgerow play`` and the lobby to fill seats with bots.  It lives in the client
package because it starts the client's own command (net/ never starts a
``hedgerow.clients`` process; tests/core/test_import_boundaries.py checks it).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from hedgerow.core.datadir import keys_dir, logs_dir


def bot_key_file(number: int) -> Path:
    """The identity of this user's ``number``-th bot peer (one per bot seat)."""
    return keys_dir() / "bots" / f"bot-{number}.key_secret"


def spawn_bot_peers(address: str, strategies: Sequence[str], *,
                    env: dict[str, str] | None = None, delay: float | None = None,
                    extra_args: Iterable[str] = ()) -> list[subprocess.Popen[bytes]]:
    """Start one ``hedgerow join ADDRESS --bot S`` process per strategy.

    Each bot peer has an identity of its own (`bot_key_file`), accepts a seed the host
    dictates, and exits when the table ends, when a seat leaves, or when this process is
    gone.  Their output goes to ``logs_dir()/bot-N.out``.
    """
    out_dir = logs_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    procs = []
    for number, strategy in enumerate(strategies, start=1):
        cmd = [sys.executable, "-m", "hedgerow.clients.cli", "join", address,
               "--bot", strategy, "--name", f"{strategy} bot {number}",
               "--key-file", str(bot_key_file(number)), "--accept-host-seed",
               "--exit-with-parent", *extra_args]
        if delay is not None:
            cmd += ["--delay", str(delay)]
        with open(out_dir / f"bot-{number}.out", "wb") as out:
            procs.append(subprocess.Popen(cmd, env=env if env is not None else dict(os.environ),
                                          stdin=subprocess.DEVNULL, stdout=out,
                                          stderr=subprocess.STDOUT))
    return procs


def stop_processes(procs: Iterable[subprocess.Popen[bytes]], *, grace: float = 3.0) -> None:
    """Let the processes end by themselves for up to ``grace`` seconds, then stop them;
    every one is reaped before this returns."""
    procs = list(procs)
    deadline = time.monotonic() + grace
    for proc in procs:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
