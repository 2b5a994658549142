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
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import multiprocessing
import signal
import socket
from collections.abc import Iterator
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


class Backend(Protocol):
    """Runs tasks of games and hands back their results as they finish."""

    #: how many games can run at the same time
    workers: int
    #: where the games run, in a few words after "played": "on 2 worker processes"
    description: str

    def results(self, job: Job, batcher: Batcher) -> Iterator[dict[str, Any]]:
        """Run every task ``batcher`` gives out; yield each `run_batch` result as it ends."""
        ...

    def close(self, *, interrupted: bool = False) -> None:
        """Release the workers (``interrupted``: stop the running tasks too, at once)."""
        ...


def dask_installed() -> bool:
    """True when the optional ``hedgerow[cluster]`` extra (``distributed``) is installed."""
    return importlib.util.find_spec("distributed") is not None


def _observed(batcher: Batcher, result: dict[str, Any]) -> dict[str, Any]:
    batcher.observe(len(result["records"]), result["seconds"])
    return result


class InProcess:
    """Every task in this process, in order (``--workers 1``)."""

    workers = 1
    description = "in this process"

    def results(self, job: Job, batcher: Batcher) -> Iterator[dict[str, Any]]:
        while (task := batcher.next()) is not None:
            yield _observed(batcher, run_batch(job, *task))

    def close(self, *, interrupted: bool = False) -> None:
        pass


def _ignore_interrupts() -> None:
    """A pool worker leaves Ctrl-C to the tournament, which stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProcessPool:
    """``workers`` processes of `concurrent.futures` (used when Dask is not installed)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.description = f"on {workers} worker processes"
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_ignore_interrupts,
        )

    def results(self, job: Job, batcher: Batcher) -> Iterator[dict[str, Any]]:
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


class DaskBackend:
    """A Dask client on a fresh local cluster, or on the scheduler at ``address``."""

    def __init__(self, workers: int, address: str | None = None) -> None:
        if not dask_installed():
            raise HedgerowError(
                "Dask is not installed: pip install 'hedgerow[cluster]' "
                "(or leave out --scheduler to use worker processes here)"
            )
        from distributed import Client, LocalCluster

        self._cluster: Any = None
        if address is None:
            try:
                self._cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # any free port: 8787 may be taken
                    silence_logs=logging.ERROR,
                )
            except (OSError, RuntimeError, TimeoutError) as exc:
                raise HedgerowError(
                    f"could not start a local Dask cluster of {workers} workers: {exc} "
                    "(--workers 1 plays in this process)"
                ) from None
            self._client = Client(self._cluster)
            self.description = f"on a local Dask cluster of {workers} worker processes"
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
        threads = sum(self._client.nthreads().values())
        self.workers = max(1, threads)

    def results(self, job: Job, batcher: Batcher) -> Iterator[dict[str, Any]]:
        from distributed import as_completed

        starts: dict[Any, int] = {}

        def submit(task: tuple[int, int]) -> Any:
            future = self._client.submit(run_batch, job, *task, pure=False)
            starts[future.key] = task[0]
            return future

        first: list[Any] = []
        while len(first) < self.workers * IN_FLIGHT and (task := batcher.next()):
            first.append(submit(task))
        finished = as_completed(first, with_results=True, raise_errors=False)
        for future, result in finished:
            start = starts.pop(future.key)
            if future.status != "finished":  # a worker died (KilledWorker), or could not run it
                raise HedgerowError(
                    f"Dask could not play games from {start} on: "
                    f"{type(result).__name__}: {result}"
                )
            _observed(batcher, result)
            if (task := batcher.next()) is not None:
                finished.add(submit(task))
            yield result

    def close(self, *, interrupted: bool = False) -> None:
        with contextlib.suppress(Exception):
            self._client.close()
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close()


def make_backend(workers: int, scheduler: str | None) -> Backend:
    """The backend for ``--workers`` and ``--scheduler``: see the module's docstring."""
    if scheduler is not None:
        return DaskBackend(workers, scheduler)
    if workers == 1:
        return InProcess()
    if dask_installed():
        return DaskBackend(workers)
    return ProcessPool(workers)
