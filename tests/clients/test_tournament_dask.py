"""``hedgerow tournament`` on Dask: a local cluster of its own (the default when
hedgerow[cluster] is installed), and an existing cluster named with ``--scheduler`` (here a
`distributed.LocalCluster` that the test starts), both giving exactly the games and the
summary of a run in one process.

Also what the local cluster opens to the network (nothing: every socket of the tournament
and its workers is bound to the loopback, and the dashboard is served only when asked, on
the loopback too), and what a run says while a scheduler has no worker.  Each test starts
real clusters and real worker processes: run this file on its own.
"""

from __future__ import annotations

import http.client
import json
import logging
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import IO, Any

import pytest
from tournament_helpers import ARGS, run_json, without_timing

from hedgerow.clients import tournament_backends
from hedgerow.clients.cli import main

distributed = pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")  # a dependency of distributed

GAMES = "24"
#: ``hedgerow tournament`` in a child process, saying "still waiting" every half second
CHILD = (
    "import sys; import hedgerow.clients.tournament_backends as b; b.NOTICE_EVERY = 0.5; "
    "from hedgerow.clients.cli import main; sys.exit(main())"
)


def _cluster(workers: int) -> Any:
    return distributed.LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                                    dashboard_address=None, silence_logs=logging.ERROR,
                                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})


@pytest.fixture
def cluster() -> Iterator[Any]:
    with _cluster(2) as made:
        yield made


@pytest.fixture
def no_workers() -> Iterator[Any]:
    """A real scheduler with no worker connected (the test adds them when it wants)."""
    with _cluster(0) as made:
        yield made


@pytest.fixture(scope="module")
def alone() -> list[dict[str, Any]]:
    return run_json("--games", GAMES, "--workers", "1")


def test_an_existing_cluster_named_by_scheduler_plays_the_same_games(
    cluster: Any, alone: list[dict[str, Any]]
) -> None:
    address = cluster.scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    on_cluster = run_json("--games", GAMES, "--scheduler", address)
    assert on_cluster[0]["backend"] == f"on the Dask cluster at {address}"
    assert on_cluster[0]["workers"] == 2 and on_cluster[0]["dashboard"] is None
    assert without_timing(on_cluster) == without_timing(alone)
    # the cluster is left running for whoever else uses it
    assert len(cluster.scheduler_info["workers"]) == 2


def test_a_local_cluster_of_its_own_plays_the_same_games(alone: list[dict[str, Any]]) -> None:
    local = run_json("--games", GAMES, "--workers", "2")
    assert local[0]["backend"] == "on a local Dask cluster of 2 worker processes"
    assert without_timing(local) == without_timing(alone)


# -- what the local cluster opens ---------------------------------------------------------


class _Child:
    """``hedgerow tournament`` running in a child process, its output read line by line."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD, *ARGS, *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.out: list[dict[str, Any]] = []  # the JSON lines read so far
        self.err: list[str] = []  # the stderr lines read so far
        self._out: queue.Queue[str | None] = queue.Queue()
        self._err: queue.Queue[str | None] = queue.Queue()
        for stream, lines in ((self.proc.stdout, self._out), (self.proc.stderr, self._err)):
            threading.Thread(target=self._read, args=(stream, lines), daemon=True).start()

    @staticmethod
    def _read(stream: IO[str], lines: queue.Queue[str | None]) -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    def _next(self, lines: queue.Queue[str | None], what: str, within: float) -> str:
        try:
            line = lines.get(timeout=within)
        except queue.Empty:
            pytest.fail(f"no {what} within {within} s; stderr: {self.err}")
        if line is None:
            pytest.fail(f"the output ended before {what}; stderr: {self.err}")
        return line

    def said(self, pattern: str, times: int = 1, within: float = 60.0) -> list[str]:
        """The stderr lines until ``pattern`` was seen ``times`` times (fails after
        ``within`` s, or when stderr ends first)."""
        seen = 0
        while seen < times:
            line = self._next(self._err, repr(pattern), within)
            self.err.append(line)
            seen += bool(re.search(pattern, line))
        return self.err

    def wrote(self, count: int, within: float = 60.0) -> list[dict[str, Any]]:
        """The JSON lines until ``count`` more were read."""
        for _ in range(count):
            self.out.append(json.loads(self._next(self._out, "JSON line", within)))
        return self.out

    def finish(self, within: float = 120.0) -> int:
        """Its exit status, once every line of its output is read."""
        for lines, into in ((self._out, self.out), (self._err, self.err)):
            while (line := lines.get(timeout=within)) is not None:
                into.append(json.loads(line) if into is self.out else line)
        return self.proc.wait(timeout=within)

    def interrupt(self) -> int:
        """Ctrl-C, and its exit status once it has written everything."""
        self.proc.send_signal(signal.SIGINT)
        return self.finish()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)


def _listening(pid: int) -> list[tuple[int, str, int]]:
    """Every listening TCP socket of process ``pid`` and its children: (pid, host, port)."""
    parent = psutil.Process(pid)
    found = []
    for proc in [parent, *parent.children(recursive=True)]:
        for conn in proc.net_connections(kind="tcp"):
            if conn.status == psutil.CONN_LISTEN:
                found.append((proc.pid, conn.laddr.ip, conn.laddr.port))
    return found


def _outside_addresses() -> list[str]:
    """This machine's addresses that are not the loopback's (IPv4 and global IPv6)."""
    addresses = []
    for entries in psutil.net_if_addrs().values():
        for entry in entries:
            ipv4 = entry.family == socket.AF_INET and not entry.address.startswith("127.")
            ipv6 = (entry.family == socket.AF_INET6 and entry.address != "::1"
                    and not entry.address.lower().startswith("fe80"))  # link-local: scoped
            if ipv4 or ipv6:
                addresses.append(entry.address)
    return addresses


def _loopback(host: str) -> bool:
    return host.startswith("127.") or host in ("::1", "::ffff:127.0.0.1")


def _status_page(host: str, port: int) -> int | None:
    """The HTTP status of ``/status`` on ``host:port`` when it serves one, else None (not an
    HTTP server, or one with no such page)."""
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/status", timeout=5) as page:
            return int(page.status)
    except urllib.error.HTTPError as exc:
        return None if exc.code == 404 else exc.code
    except (OSError, http.client.HTTPException):
        return None


def _refused_from_outside(ports: list[int]) -> None:
    """Nothing answers on ``ports`` at this machine's non-loopback addresses."""
    for address in _outside_addresses():
        for port in ports:
            with pytest.raises(OSError):  # refused: nothing listens there
                socket.create_connection((address, port), timeout=3).close()


def test_the_local_cluster_listens_on_the_loopback_only_and_serves_no_dashboard() -> None:
    child = _Child("--games", "100000", "--workers", "2", "--json")
    try:
        header = child.wrote(2)[0]  # the cluster is up and playing
        assert header["backend"] == "on a local Dask cluster of 2 worker processes"
        assert header["dashboard"] is None
        sockets = _listening(child.proc.pid)
        # here the scheduler, its HTTP server and two nannies; in each worker process, the
        # worker (and its HTTP server, if any)
        assert len(sockets) >= 6 and len({pid for pid, _, _ in sockets}) == 3, sockets
        assert all(_loopback(host) for _, host, _ in sockets), sockets
        _refused_from_outside([port for _, _, port in sockets])
        for _, host, port in sockets:  # and none of them serves a dashboard
            assert _status_page(host, port) is None, (host, port)
        assert child.interrupt() == 130
        assert not any("dashboard" in line for line in child.err), child.err
    finally:
        child.stop()


def test_the_dashboard_when_asked_is_on_the_loopback_and_its_address_is_said() -> None:
    child = _Child("--games", "100000", "--workers", "2", "--json", "--dashboard")
    try:
        said = child.said("Dask dashboard")
        match = re.fullmatch(r"hedgerow: Dask dashboard: (http://127\.0\.0\.1:(\d+)/status) "
                             r"\(this machine only\)", said[-1])
        assert match, said
        link, port = match[1], int(match[2])
        assert child.wrote(1)[0]["dashboard"] == link
        assert _status_page("127.0.0.1", port) == 200
        sockets = _listening(child.proc.pid)
        assert (child.proc.pid, "127.0.0.1", port) in sockets
        assert all(_loopback(host) for _, host, _ in sockets), sockets
        _refused_from_outside([port])
        assert child.interrupt() == 130
    finally:
        child.stop()


def test_dashboard_with_a_scheduler_says_where_its_own_is_or_that_it_has_none(
    cluster: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    address = cluster.scheduler_address  # no dashboard: only /health and the like
    assert main([*ARGS, "--games", "2", "--scheduler", address, "--dashboard"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [f"hedgerow: the Dask scheduler at {address} serves no dashboard"]
    with distributed.LocalCluster(n_workers=0, dashboard_address="127.0.0.1:0",
                                  silence_logs=logging.ERROR) as shown:
        address = shown.scheduler_address
        assert main([*ARGS, "--games", "2", "--scheduler", address, "--dashboard",
                     "--worker-timeout", "0.5"]) == 2  # it has no worker: no need to play
        err = capsys.readouterr().err.splitlines()
        assert err[0] == f"hedgerow: Dask dashboard (the scheduler's): {shown.dashboard_link}"
        assert shown.dashboard_link.startswith("http://127.0.0.1:")


# -- a scheduler without workers ----------------------------------------------------------


def test_a_scheduler_without_workers_is_said_until_the_timeout(
    no_workers: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament_backends, "NOTICE_EVERY", 0.5)
    address = no_workers.scheduler_address
    assert main([*ARGS, "--games", "4", "--scheduler", address, "--worker-timeout", "2"]) == 2
    out = capsys.readouterr()
    err = out.err.splitlines()
    assert err[:2] == [f"hedgerow: no Dask worker yet at {address}: waiting for one",
                       f"hedgerow: start one with: dask worker {address} --nthreads 1"]
    still = [line for line in err if re.fullmatch(f"hedgerow: still no Dask worker at "
                                                  f"{re.escape(address)} after \\d+ s", line)]
    assert len(still) >= 2 and len(err) == 3 + len(still)  # it keeps saying so, and only that
    assert err[-1] == (f"hedgerow: error: no Dask worker connected to the scheduler at "
                       f"{address} in 2 s (--worker-timeout)")
    assert out.out == ""


def test_a_run_waits_for_its_first_worker_saying_so_then_plays_every_game(
    no_workers: Any, alone: list[dict[str, Any]]
) -> None:
    address = no_workers.scheduler_address
    child = _Child("--games", GAMES, "--scheduler", address, "--json")
    try:
        said = child.said("still no Dask worker", times=2)
        assert said[0] == f"hedgerow: no Dask worker yet at {address}: waiting for one"
        assert child.out == [] and child.proc.poll() is None  # nothing played yet
        no_workers.scale(1)
        assert child.finish() == 0, child.err
    finally:
        child.stop()
    assert any(re.fullmatch(r"hedgerow: a Dask worker is connected \(1 thread\) after \d+ s: "
                            "playing", line) for line in child.err), child.err
    assert child.out[0]["workers"] == 1
    assert without_timing(child.out) == without_timing(alone)


def test_a_run_whose_workers_all_leave_says_so_and_goes_on_when_one_comes(
    cluster: Any,
) -> None:
    address = cluster.scheduler_address
    child = _Child("--games", "100000", "--scheduler", address, "--json")
    try:
        assert child.wrote(3)[0]["workers"] == 2  # the header, then games
        cluster.scale(0)
        said = child.said("every Dask worker has left")
        assert said[-1] == f"hedgerow: every Dask worker has left at {address}: waiting for one"
        child.said("still no Dask worker")
        cluster.scale(1)
        child.said(r"a Dask worker is connected \(1 thread\)")
        before = len(child.wrote(0))
        child.wrote(3)  # more games come
        assert child.interrupt() == 130
    finally:
        child.stop()
    games, summary = child.out[1:-1], child.out[-1]
    assert len(games) > before
    assert [g["index"] for g in games] == sorted({g["index"] for g in games})
    assert summary["type"] == "summary" and summary["interrupted"]
    assert summary["finished"] == len(games)
