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

from hedgerow.clients.botnames import bot_name
from hedgerow.core.datadir import bot_logs_dir, keys_dir


def bot_key_file(number: int) -> Path:
    """The identity of this user's ``number``-th bot peer (one per bot seat)."""
    return keys_dir() / "bots" / f"bot-{number}.key_secret"


def spawn_bot_peers(address: str, strategies: Sequence[str], *,
                    env: dict[str, str] | None = None, delay: float | None = None,
                    give_up: float | None = None, first: int = 1,
                    extra_args: Iterable[str] = ()) -> list[subprocess.Popen[bytes]]:
    """Start one ``hedgerow join ADDRESS --bot S`` process per strategy.

    Each bot peer has an identity of its own (`bot_key_file`, numbered from ``first``),
    accepts a seed the host dictates, and exits when the table ends, when a seat leaves, or
    when this process is gone.  ``give_up`` is their ``--give-up`` (it only counts while no
    person at the table is connected).  Their output goes to ``bot-N.out`` beside their logs
    (`bot_logs_dir`, apart from the person's own).
    """
    procs = []
    for number, strategy in enumerate(strategies, start=first):
        cmd = ["join", address, "--bot", strategy, "--name", bot_name(number),
               "--key-file", str(bot_key_file(number)), "--accept-host-seed", *extra_args]
        procs.append(_start(number, cmd, env=env, delay=delay, give_up=give_up, mode="wb"))
    return procs


def resume_bot_peers(logs: Sequence[tuple[int, Path]], *, env: dict[str, str] | None = None,
                     delay: float | None = None,
                     give_up: float | None = None) -> list[subprocess.Popen[bytes]]:
    """Start ``hedgerow resume LOG`` for each ``(bot number, log)``: the bots of a table
    this user left come back with it (their table files remember key and strategy)."""
    return [_start(number, ["resume", str(path)], env=env, delay=delay, give_up=give_up,
                   mode="ab") for number, path in logs]


def _start(number: int, args: list[str], *, env: dict[str, str] | None, delay: float | None,
           give_up: float | None, mode: str) -> subprocess.Popen[bytes]:
    out_dir = bot_logs_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "hedgerow.clients.cli", *args, "--exit-with-parent"]
    if delay is not None:
        cmd += ["--delay", str(delay)]
    if give_up is not None:
        cmd += ["--give-up", str(give_up)]
    with open(out_dir / f"bot-{number}.out", mode) as out:
        return subprocess.Popen(cmd, env=env if env is not None else dict(os.environ),
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)


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
