"""Helpers for tests that run real ``hedgerow`` peer processes on 127.0.0.1.

`PeerProcess` starts one command, reads its stdout (JSON Lines with ``--json``) on a thread
and lets the test wait for an event with a timeout, never a sleep.  Each process gets its
own ``HEDGEROW_HOME`` (so its own identity and logs) unless one is given.
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
E2E = Path(__file__).resolve().parent
EXAMPLES = TESTS.parent / "docs" / "examples"  # the documented example game, goofspiel
WAIT = 30.0  # the longest any single wait may take (a stuck test fails, it never hangs)


def _new_home() -> str:
    """A fresh peer home, removed when the test process exits."""
    home = tempfile.mkdtemp(prefix="hedgerow-peer-")
    atexit.register(functools.partial(shutil.rmtree, home, ignore_errors=True))
    return home


def peer_env(home: Path | None = None, *, plugins: str = "", block: str = "",
             **extra: str) -> dict[str, str]:
    """The environment of one peer process: its own home, discovery off, optional plugins
    (importable from tests/, tests/e2e/ and docs/examples/, e.g. ``toygames``,
    ``cheatplugin``, ``goofspiel``)."""
    env = dict(os.environ)
    env["HEDGEROW_HOME"] = str(home or _new_home())
    env["HEDGEROW_NO_DISCOVERY"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(E2E), str(EXAMPLES),
                                         env.get("PYTHONPATH", "")])
    env.pop("HEDGEROW_PLUGINS", None)
    env.pop("HEDGEROW_BLOCK_PLUGINS", None)
    if plugins:
        env["HEDGEROW_PLUGINS"] = plugins
    if block:
        env["HEDGEROW_BLOCK_PLUGINS"] = block
    env.update(extra)
    return env


class PeerProcess:
    """One ``python -m hedgerow.clients.cli ...`` process and its output."""

    def __init__(self, args: Sequence[str], env: dict[str, str],
                 prefix: Sequence[str] = ()) -> None:
        self.args = list(args)
        self.env = env
        self.home = Path(env["HEDGEROW_HOME"])
        self.proc = subprocess.Popen(  # ``prefix``: e.g. ``ip netns exec NS`` (tests/reliability)
            [*prefix, sys.executable, "-m", "hedgerow.clients.cli", *args], env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self.events: list[dict[str, Any]] = []
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._stderr: list[str] = []
        self._readers = [threading.Thread(target=self._read_out, daemon=True),
                         threading.Thread(target=self._read_err, daemon=True)]
        for t in self._readers:
            t.start()

    def _read_out(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            try:
                event = json.loads(line)
            except ValueError:
                event = {"event": "text", "text": line.rstrip("\n")}
            self._queue.put(event)
        self._queue.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._stderr.append(line)

    @property
    def stderr(self) -> str:
        """Everything the process wrote to stderr so far."""
        return "".join(self._stderr)

    def wait_event(self, predicate: Callable[[dict[str, Any]], bool] | str,
                   timeout: float = WAIT) -> dict[str, Any]:
        """The first event (from now on or already read) that matches; fails on timeout."""
        if isinstance(predicate, str):
            name = predicate
            predicate = lambda e: e.get("event") == name  # noqa: E731
        for event in self.events:
            if predicate(event):
                return event
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no matching event within {timeout} s from {self.args}; "
                                     f"stdout so far:\n{''.join(self.lines)}\n"
                                     f"stderr:\n{self.stderr}")
            try:
                event = self._queue.get(timeout=remaining)
            except queue.Empty:
                continue
            if event is None:
                self._queue.put(None)
                raise AssertionError(f"{self.args} ended without the event (exit "
                                     f"{self.proc.wait()}); stdout:\n{''.join(self.lines)}\n"
                                     f"stderr:\n{self.stderr}")
            self.events.append(event)
            if predicate(event):
                return event

    def wait_stderr(self, predicate: Callable[[str], bool], timeout: float = WAIT) -> str:
        """Everything on stderr once ``predicate`` holds of it; fails on timeout.

        For what a peer logs from a task of its own (the LAN announcement, say), which
        may come before or after the events on stdout.
        """
        deadline = time.monotonic() + timeout
        while not predicate(text := self.stderr):
            if time.monotonic() > deadline:
                raise AssertionError(f"not on stderr within {timeout} s from {self.args}; "
                                     f"stderr:\n{text}")
            time.sleep(0.05)
        return text

    def finish(self, timeout: float = WAIT) -> tuple[int, dict[str, Any] | None]:
        """Wait for the exit; (status, the last JSON object with event "result")."""
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"{self.args} did not end within {timeout} s; stdout:\n"
                                 f"{''.join(self.lines)}\nstderr:\n{self.stderr}") from None
        for t in self._readers:
            t.join(timeout=5)
        while True:  # take in everything read
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                break
            if event is not None:
                self.events.append(event)
        results = [e for e in self.events if e.get("event") == "result"]
        return code, results[-1] if results else None

    def kill(self) -> None:
        """SIGKILL the process (a crash) and reap it."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        for t in self._readers:
            t.join(timeout=5)

    def stop(self) -> None:
        """End the process if it still runs (test clean-up)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Table:
    """A host and joiners started through the CLI, stopped whatever happens."""

    def __init__(self) -> None:
        self.peers: list[PeerProcess] = []

    def start(self, args: Sequence[str], env: dict[str, str]) -> PeerProcess:
        """Start one peer process."""
        peer = PeerProcess(args, env)
        self.peers.append(peer)
        return peer

    def host(self, game: str, seats: int, *extra: str,
             env: dict[str, str]) -> tuple[PeerProcess, str]:
        """Start ``hedgerow host`` on 127.0.0.1; (the process, the address it printed)."""
        peer = self.start(["host", game, "--players", str(seats), "--bind", "127.0.0.1",
                           "--port", "0", "--json", *extra], env)
        return peer, peer.wait_event("open")["address"]

    def join(self, address: str, *extra: str, env: dict[str, str]) -> PeerProcess:
        """Start ``hedgerow join ADDRESS --json``."""
        return self.start(["join", address, "--json", *extra], env)

    def close(self) -> None:
        """Stop every process still running."""
        for peer in self.peers:
            peer.stop()


def hedgerow(*args: str, env: dict[str, str],
             timeout: float = WAIT) -> subprocess.CompletedProcess[str]:
    """Run one ``hedgerow`` command to completion."""
    return subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", *args], env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)


def hedgerow_each(runs: Sequence[tuple[Sequence[str], dict[str, str]]],
                  timeout: float = WAIT) -> list[subprocess.CompletedProcess[str]]:
    """Run several ``hedgerow`` commands (arguments, environment) at once, to completion;
    their results in the same order."""
    procs = [subprocess.Popen([sys.executable, "-m", "hedgerow.clients.cli", *args], env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
             for args, env in runs]
    done = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=timeout)
            done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return done


def plain_data(value: Any) -> Any:
    """A game's view (dataclasses, named tuples, tuples) as JSON data: dataclasses as
    objects by field, every sequence as a list, numbers and strings as they are."""
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [plain_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain_data(v) for k, v in value.items()}
    return value


@dataclasses.dataclass
class Played:
    """A finished networked game as its log records it, every card known: ``table`` is the
    open `Table` that replayed an open-deck log, or the sealed table the verification
    replayed a sealed log on (it knows every card); ``entries`` are the log's entries with
    every sealed card as its face."""

    table: Any
    entries: list[Any]

    def outcome(self) -> Any:
        """The game's outcome, plain."""
        from hedgerow.core.sealed import plain

        return plain(self.table.outcome())


def played_open(log_path: str | Path, ruleset: Any,
                watch: Callable[[int, Any, Any], None] | None = None) -> Played:
    """The game a networked seat's log records, every card known (`Played`): an open-deck
    log replayed from its seed; a sealed log verified (every secret disclosed, every
    shuffle, key and action checked).  ``watch(seat, action, table)``: at a sealed table,
    called before each seat's action with the table that knows every card."""
    from hedgerow.core.sealed import plain, substitute
    from hedgerow.net.logfile import read_log
    from hedgerow.net.logverify import replay

    done = replay(ruleset, read_log(log_path), watch=watch)
    assert done.mismatch is None, done.mismatch
    if not done.sealed:
        assert done.table is not None
        return Played(done.table, list(done.table.entries))
    verdict = done.verdict
    assert verdict is not None and verdict.ok, verdict
    assert verdict.replayed is not None
    entries = [dataclasses.replace(e, action=plain(substitute(e.action, verdict.faces)))
               for e in verdict.replayed.entries]
    return Played(verdict.replayed, entries)


def same_moves(entries: Sequence[Any], others: Sequence[Any]) -> bool:
    """Two logs of one game hold the same moves: index, seat and action of every entry
    (their digests differ when one table's fingerprint marks an open deck)."""
    return ([(e.index, e.seat, e.action) for e in entries]
            == [(e.index, e.seat, e.action) for e in others])
