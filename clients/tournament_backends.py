"""Where a tournament's batches run: in this process, on a process pool, or on Dask.

Each backend takes the tournament's `Job` and a `hedgerow.core.tournament.Batcher`, asks
it for the next task (a range of game numbers) whenever a worker has room, and yields each
task's result (`hedgerow.clients.tournament_play.run_batch`) as it finishes, in any order;
the caller puts the games back in order.  None of them schedules anything itself:

* `InProcess` (``--workers 1``): the batches one after the other, here.
* `ProcessPool`: `concurrent.futures.ProcessPoolExecutor` with ``W`` worker processes
  (started with ``spawn``: the progress bar runs a thread, and forking a process with
  threads is unsafe).  The workers ignore Ctrl-C; this process stops them.
* `DaskBackend`: a `distributed.Client` on a `distributed.LocalCluster` of ``W`` worker
  processes (one thread each), or on an existing scheduler (``--scheduler``).

At most two tasks per worker are in flight at once (one running, one waiting), so an
interrupted tournament leaves little unfinished work and the results waiting to be put in
order stay few.

**The local cluster listens on this machine only.**  Its scheduler, workers and nannies
bind to 127.0.0.1, and it serves no dashboard unless asked (``--dashboard``), and then on
127.0.0.1 too (port 8787, or any free one when that is taken): the dashboard shows and
controls the cluster and has no password, so it must not be open to the network.  To see
it from another machine, forward the port (``ssh -L 8787:127.0.0.1:8787 HOST``).

**Waiting for workers.**  A scheduler named with ``--scheduler`` may have no worker yet (or
lose all of them during the run).  The games cannot run then, so the backend says so at
once, says it again every `NOTICE_EVERY` seconds with how long it has waited, says when a
worker arrives, and gives up with an error after ``--worker-timeout`` seconds without a
worker, when that is set.  Workers that join later are used too: the number of tasks in
flight follows the threads connected.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import logging
import multiprocessing
import signal
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from hedgerow.clients.tournament_play import Job, run_batch
from hedgerow.core.errors import HedgerowError
from hedgerow.core.tournament import Batcher

#: tasks in flight per worker
IN_FLIGHT = 2
#: seconds to wait for a Dask scheduler to answer
CONNECT_TIMEOUT = 10
#: seconds between two "still no worker" notices
NOTICE_EVERY = 10.0
#: seconds between two looks at the workers connected to a Dask scheduler
POLL = 1.0
#: where the local cluster's dashboard is served, when asked for (loopback only)
DASHBOARD_ADDRESS = "127.0.0.1:8787"
#: what Dask's dashboard needs installed to show anything (``distributed.versions``)
BOKEH_REQUIREMENT = "bokeh>=3.1.0"

#: how a backend tells the user something while the tournament runs: a line, and perhaps
#: more after a newline that only matter where there is room (`hedgerow.clients.progress`)
Say = Callable[[str], None]


class Backend(Protocol):
    """Runs tasks of games and hands back their results as they finish."""

    #: how many games can run at the same time
    workers: int
    #: where the games run, in a few words after "played": "on 2 worker processes"
    description: str
    #: the address of the Dask dashboard, when one is shown (``--dashboard``)
    dashboard: str | None
    #: what to tell about the dashboard (where it is, or that there is none), when asked
    dashboard_news: str | None

    def ready(self, say: Say) -> None:
        """Return once games can run (``say``-ing why, while they cannot yet)."""
        ...

    def results(self, job: Job, batcher: Batcher, say: Say) -> Iterator[dict[str, Any]]:
        """Run every task ``batcher`` gives out; yield each `run_batch` result as it ends."""
        ...

    def close(self, *, interrupted: bool = False) -> None:
        """Release the workers (``interrupted``: stop the running tasks too, at once)."""
        ...


def dask_installed() -> bool:
    """True when the optional ``hedgerow[cluster]`` extra (``distributed``) is installed."""
    return importlib.util.find_spec("distributed") is not None


def bokeh_installed() -> bool:
    """True when ``bokeh`` is installed, which Dask's dashboard needs to show anything."""
    return importlib.util.find_spec("bokeh") is not None


def _observed(batcher: Batcher, result: dict[str, Any]) -> dict[str, Any]:
    batcher.observe(len(result["records"]), result["seconds"])
    return result


class InProcess:
    """Every task in this process, in order (``--workers 1``)."""

    workers = 1
    description = "in this process"
    dashboard: str | None = None
    dashboard_news: str | None = None

    def ready(self, say: Say) -> None:
        pass

    def results(self, job: Job, batcher: Batcher, say: Say) -> Iterator[dict[str, Any]]:
        while (task := batcher.next()) is not None:
            yield _observed(batcher, run_batch(job, *task))

    def close(self, *, interrupted: bool = False) -> None:
        pass


def _ignore_interrupts() -> None:
    """A pool worker leaves Ctrl-C to the tournament, which stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProcessPool:
    """``workers`` processes of `concurrent.futures` (used when Dask is not installed)."""

    dashboard: str | None = None
    dashboard_news: str | None = None

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.description = f"on {workers} worker processes"
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_ignore_interrupts,
        )

    def ready(self, say: Say) -> None:
        pass

    def results(self, job: Job, batcher: Batcher, say: Say) -> Iterator[dict[str, Any]]:
        pending: dict[Future[dict[str, Any]], int] = {}

        def fill() -> None:
            while len(pending) < self.workers * IN_FLIGHT and (task := batcher.next()):
                pending[self._pool.submit(run_batch, job, *task)] = task[0]

        fill()
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: pending[f]):
                start = pending.pop(future)
                try:
                    result = _observed(batcher, future.result())
                except BrokenProcessPool as exc:
                    raise HedgerowError(
                        f"a worker process died while playing games from {start} on "
                        f"(out of memory, or killed): {exc}"
                    ) from None
                fill()
                yield result

    def close(self, *, interrupted: bool = False) -> None:
        if interrupted:
            terminate = getattr(self._pool, "terminate_workers", None)  # Python 3.14+
            if terminate is not None:
                terminate()
            else:  # older: the executor keeps its processes in a private mapping
                for process in list(getattr(self._pool, "_processes", {}).values()):
                    with contextlib.suppress(Exception):
                        process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)


def check_scheduler_address(address: str) -> tuple[str, str, int]:
    """``(scheme, host, port)`` of a Dask scheduler address, or a `HedgerowError`."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme not in ("tcp", "tls"):
            raise ValueError(f"the scheme must be tcp:// or tls://, not {scheme}://")
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise HedgerowError(
            f"--scheduler {address!r} is not a scheduler address like tcp://HOST:8786 ({exc})"
        ) from None
    if not host or not port:
        raise HedgerowError(f"--scheduler {address!r} needs a host and a port: tcp://HOST:8786")
    return scheme, host, int(port)


class _WorkerWait:
    """Whether a Dask scheduler has a worker, and what to say (and when to give up) if not."""

    def __init__(self, address: str, timeout: float | None) -> None:
        self.address = address
        self.timeout = timeout
        self._since: float | None = None  # when the scheduler was first seen without workers
        self._said = 0.0
        self._seen = False  # whether a worker was ever connected

    def update(self, threads: int, say: Say) -> None:
        """The scheduler has ``threads`` worker threads now: say what changed, or time out."""
        now = time.monotonic()
        if threads:
            self._seen = True
            if self._since is not None:
                each = "thread" if threads == 1 else "threads"
                say(f"a Dask worker is connected ({threads} {each}) after "
                    f"{int(now - self._since)} s: playing")
                self._since = None
            return
        if self._since is None:
            self._since = self._said = now
            state = "every Dask worker has left" if self._seen else "no Dask worker yet"
            say(f"{state} at {self.address}: waiting for one\n"
                f"start one with: dask worker {self.address} --nthreads 1")
        elif now - self._said >= NOTICE_EVERY:
            self._said = now
            say(f"still no Dask worker at {self.address} after {int(now - self._since)} s")
        if self.timeout is not None and now - self._since >= self.timeout:
            raise HedgerowError(
                f"no Dask worker connected to the scheduler at {self.address} "
                f"in {self.timeout:g} s (--worker-timeout)"
            )


class DaskBackend:
    """A Dask client on a fresh local cluster, or on the scheduler at ``address``.

    ``dashboard``: serve the local cluster's dashboard on 127.0.0.1 (or, with ``address``,
    find the scheduler's own).  ``worker_timeout``: with ``address``, give up after that many
    seconds without a worker connected (None: wait for as long as it takes, saying so).
    """

    def __init__(self, workers: int, address: str | None = None, *, dashboard: bool = False,
                 worker_timeout: float | None = None) -> None:
        if not dask_installed():
            raise HedgerowError(
                "Dask is not installed: pip install 'hedgerow[cluster]' "
                "(or leave out --scheduler to use worker processes here)"
            )
        from distributed import Client, LocalCluster

        self._cluster: Any = None
        self.dashboard: str | None = None
        self.dashboard_news: str | None = None
        if address is None:
            try:
                self._cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=DASHBOARD_ADDRESS if dashboard else None,
                    # without a dashboard the scheduler still serves /health and the like:
                    # on 127.0.0.1 too, and on any free port rather than the dashboard's
                    scheduler_kwargs=None if dashboard else {"dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.ERROR,
                )
            except (OSError, RuntimeError, TimeoutError) as exc:
                raise HedgerowError(
                    f"could not start a local Dask cluster of {workers} workers: {exc} "
                    "(--workers 1 plays in this process)"
                ) from None
            self._client = Client(self._cluster)
            self.description = f"on a local Dask cluster of {workers} worker processes"
            if dashboard:
                self.dashboard = self._client.dashboard_link
                self.dashboard_news = f"Dask dashboard: {self.dashboard} (this machine only)"
                if not bokeh_installed():
                    self.dashboard_news += (
                        f"\nit shows nothing without bokeh: pip install '{BOKEH_REQUIREMENT}'"
                    )
            self._address = self._cluster.scheduler_address
        else:
            _, host, port = check_scheduler_address(address)
            try:
                socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
            except OSError as exc:
                raise HedgerowError(
                    f"no Dask scheduler answers at {address} ({exc.strerror or exc})"
                ) from None
            try:
                self._client = Client(address, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise HedgerowError(f"cannot use the Dask scheduler at {address}: {exc}") from None
            self.description = f"on the Dask cluster at {address}"
            if dashboard:
                self.dashboard, self.dashboard_news = self._scheduler_dashboard(host, address)
            self._address = address
        self._wait = _WorkerWait(self._address, worker_timeout)
        self.workers = max(1, self._threads())

    def _threads(self) -> int:
        """The worker threads connected to the scheduler now."""
        try:
            return int(sum(self._client.nthreads().values()))
        except (OSError, TimeoutError) as exc:
            raise HedgerowError(f"lost the Dask scheduler at {self._address}: {exc}") from None

    def _scheduler_dashboard(self, host: str, address: str) -> tuple[str | None, str]:
        """The dashboard the scheduler at ``address`` serves (at ``host``, where it was
        reached), and what to say about it."""
        from distributed.utils import format_dashboard_link

        none = f"the Dask scheduler at {address} serves no dashboard"
        port = self._client.scheduler_info().get("services", {}).get("dashboard")
        if port is None:
            return None, none
        link = format_dashboard_link(host, port)
        found = f"Dask dashboard (the scheduler's): {link}"
        # a scheduler without a dashboard still serves /health and the like on that port
        try:
            with urllib.request.urlopen(link, timeout=CONNECT_TIMEOUT):
                return link, found
        except urllib.error.HTTPError as exc:
            return (None, none) if exc.code == 404 else (link, f"{found} (it answers {exc.code})")
        except (OSError, http.client.HTTPException) as exc:
            return link, f"{found} (not reachable from here: {getattr(exc, 'reason', exc)})"

    def _look(self, say: Say) -> int:
        """Count the worker threads, say whether there are none, and follow their number."""
        threads = self._threads()
        self._wait.update(threads, say)
        if threads:
            self.workers = threads
        return threads

    def ready(self, say: Say) -> None:
        """Return once a worker is connected; until then, say so (and time out, if set)."""
        while not self._look(say):
            with contextlib.suppress(TimeoutError):
                self._client.wait_for_workers(1, timeout=POLL)

    def results(self, job: Job, batcher: Batcher, say: Say) -> Iterator[dict[str, Any]]:
        from distributed import wait as wait_for

        self.ready(say)
        batcher.workers = self.workers
        pending: dict[Any, int] = {}  # future -> the first game of its task
        looked = time.monotonic()

        def fill() -> None:
            while len(pending) < self.workers * IN_FLIGHT and (task := batcher.next()):
                pending[self._client.submit(run_batch, job, *task, pure=False)] = task[0]

        fill()
        while pending:
            try:
                done = wait_for(list(pending), timeout=POLL, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                done = set()
            if not done or time.monotonic() - looked >= POLL:
                looked = time.monotonic()
                if self._look(say):
                    batcher.workers = self.workers
            for future in sorted(done, key=lambda f: pending[f]):
                start = pending[future]
                if future.status == "cancelled":  # by the scheduler (restarted, or closed)
                    raise HedgerowError(
                        f"Dask could not play games from {start} on: the task was cancelled"
                    )
                try:  # "lost" (its result left with its worker): the scheduler plays it again
                    result = future.result(timeout=POLL)
                except TimeoutError:
                    continue  # still pending: waited for with the others
                except Exception as exc:  # a worker died playing it, too often (KilledWorker)
                    raise HedgerowError(
                        f"Dask could not play games from {start} on: {type(exc).__name__}: {exc}"
                    ) from None
                del pending[future]
                _observed(batcher, result)
                fill()
                yield result
            fill()  # more workers may have come

    def close(self, *, interrupted: bool = False) -> None:
        with contextlib.suppress(Exception):
            self._client.close()
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close()


def make_backend(workers: int, scheduler: str | None, *, dashboard: bool = False,
                 worker_timeout: float | None = None) -> Backend:
    """The backend for ``--workers``, ``--scheduler``, ``--dashboard`` and
    ``--worker-timeout``: see the module's docstring."""
    if worker_timeout is not None and scheduler is None:
        raise HedgerowError(
            "--worker-timeout is for a cluster named with --scheduler (the workers of a "
            "local one start with the tournament)"
        )
    if scheduler is not None:
        return DaskBackend(workers, scheduler, dashboard=dashboard,
                           worker_timeout=worker_timeout)
    if dashboard and (workers == 1 or not dask_installed()):
        where = ("this run plays in this process (--workers 1)" if workers == 1 else
                 "Dask is not installed (pip install 'hedgerow[cluster]')")
        raise HedgerowError(f"--dashboard shows a Dask cluster's dashboard, and {where}")
    if workers == 1:
        return InProcess()
    if dask_installed():
        return DaskBackend(workers, dashboard=dashboard)
    return ProcessPool(workers)
