"""``hedgerow tournament``: compare bots over many games, on worker processes or on Dask.

``simulate`` is for watching single games (fixed seats, one line and state hash per game,
replayable); ``tournament`` is for comparing bots: it rotates the seats so no bot gains from
its seat (`hedgerow.core.tournament`), plays the games in parallel
(`hedgerow.clients.tournament_backends`), shows a progress bar with an ETA on stderr, and
ends with a table per bot (`hedgerow.clients.tournament_report`).  The same ``--seed`` gives
the same games and the same summary, timing aside, with any number of workers and on any
backend.  ``--json`` writes JSON lines instead of the table: a ``tournament`` header, one
``game`` record per game in game order, and a ``summary`` (docs/tournaments.md).  News
goes to stderr, above the bar while there is one: where the Dask dashboard is
(``--dashboard``), and while a ``--scheduler`` has no worker, that it waits for one (until
``--worker-timeout``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from typing import Any

from hedgerow.clients.cli import make_plugin_host
from hedgerow.clients.progress import progress_bar, say_on_stderr
from hedgerow.clients.tournament_backends import Backend, make_backend
from hedgerow.clients.tournament_play import Job, bot_labels, resolve_bot, run_seed
from hedgerow.clients.tournament_report import report
from hedgerow.core import botchoice
from hedgerow.core.errors import HedgerowError
from hedgerow.core.tournament import Batcher, block_size, cycle_size, lineup
from hedgerow.core.tournament_stats import Tally


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow tournament``."""
    parser.description = (
        "Compare bots over many games: seats rotate so no bot gains from its seat, games run "
        "in parallel, and a table per bot ends it (wins with a 95% confidence interval, "
        "scores, time per move, score histograms).  To watch or replay single games with "
        "fixed seats, use hedgerow simulate."
    )
    parser.add_argument("game", help="the game to play (see: hedgerow games)")
    parser.add_argument(
        "--bots",
        required=True,
        metavar="A,B[,C...]",
        help="the bots to compare, comma separated (at least two)",
    )
    parser.add_argument("--games", type=int, default=100, metavar="N",
                        help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help="seats at each table (default: the game's); bots repeat when "
                             "there are more seats than bots")
    parser.add_argument("--variant", action="append", default=[], metavar="V",
                        help="a variant to use (repeat for several)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="game i is seeded with S+i, as hedgerow simulate --seed S+i "
                             "(default: drawn at random for the run, and shown)")
    parser.add_argument("--workers", type=int, default=None, metavar="W",
                        help="worker processes on this machine (default: one per CPU; "
                             "1 plays in this process)")
    parser.add_argument("--scheduler", default=None, metavar="tcp://HOST:8786",
                        help="run on an existing Dask cluster (needs hedgerow[cluster])")
    parser.add_argument("--worker-timeout", type=float, default=None, metavar="SECONDS",
                        help="with --scheduler: give up when no worker has been connected "
                             "for SECONDS (default: wait, saying so every 10 s)")
    parser.add_argument("--dashboard", action="store_true",
                        help="serve the Dask dashboard of the local cluster, on this machine "
                             "only (127.0.0.1), and say where; with --scheduler, say where "
                             "the scheduler's is")
    parser.add_argument("--json", action="store_true",
                        help="JSON lines: the settings, every game's record, the summary")


def _job(args: argparse.Namespace) -> tuple[Job, list[str]]:
    """The tournament's `Job` from the arguments, every mistake a `HedgerowError`."""
    plugins = make_plugin_host(args)
    ruleset = plugins.ruleset(args.game, args.variant)
    players = args.players if args.players is not None else ruleset.players_default
    ruleset.check_players(players)
    if args.games < 1:
        raise HedgerowError(f"--games must be at least 1, not {args.games}")
    if args.workers is not None and args.workers < 1:
        raise HedgerowError(f"--workers must be at least 1, not {args.workers}")
    timeout = args.worker_timeout
    if timeout is not None and not (timeout > 0 and math.isfinite(timeout)):
        raise HedgerowError(
            f"--worker-timeout must be a number of seconds above 0, not {timeout:g}"
        )
    choices = botchoice.split_list(args.bots)
    if any(not name for name in choices):
        raise HedgerowError(f"--bots {args.bots!r} has an empty name")
    if len(choices) < 2:
        raise HedgerowError("--bots needs at least two bots to compare, like --bots greedy,random")
    for choice in choices:
        resolve_bot(plugins, choice, args.game)
    job = Job(
        game=args.game,
        variants=tuple(args.variant),
        players=players,
        seed=run_seed(args.seed),
        bots=tuple(choices),
        fingerprint=ruleset.fingerprint,
        plugin_opts=tuple(getattr(args, "plugin_opts", [])),
    )
    return job, bot_labels(choices)


class _Results:
    """What arrived so far: the tallies, and the JSON records waiting for their turn."""

    def __init__(self, job: Job, labels: list[str], write_json: bool) -> None:
        self.job = job
        self.bots = Tally(labels)
        self.seats = Tally(f"seat {s}" for s in range(job.players))
        self.write_json = write_json
        self.waiting: dict[int, dict[str, Any]] = {}
        self.next_game = 0

    def add(self, record: dict[str, Any]) -> None:
        job = self.job
        self.bots.add(record, lineup(record["index"], len(job.bots), job.players))
        self.seats.add(record, range(job.players))
        if self.write_json:
            self.waiting[record["index"]] = record
            while self.next_game in self.waiting:
                _print_json({"type": "game", **self.waiting.pop(self.next_game)})
                self.next_game += 1

    def flush(self) -> None:
        """Write the records still waiting (after an interruption: with gaps), in order."""
        for game in sorted(self.waiting):
            _print_json({"type": "game", **self.waiting.pop(game)})


class _Interrupts:
    """Ctrl-C stops the tournament, but never in the middle of writing or counting a result.

    While `held`, a Ctrl-C is noted and raised as `KeyboardInterrupt` when the hold ends, so
    every JSON line is whole and every counted game is written.
    """

    def __init__(self) -> None:
        self._holding = False
        self._pending = False
        self._previous: Any = None

    def __enter__(self) -> _Interrupts:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    def _handle(self, signum: int, frame: Any) -> None:
        if self._holding:
            self._pending = True
        else:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Hold Ctrl-C back until the block ends."""
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
            if self._pending:
                self._pending = False
                raise KeyboardInterrupt


def _print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data), flush=True)


def run(args: argparse.Namespace) -> int:
    """Play the tournament; print the table (or JSON lines).  130 when interrupted."""
    job, labels = _job(args)
    workers = min(args.workers if args.workers is not None else _cpus(), args.games)
    results = _Results(job, labels, args.json)
    interrupted = False
    failure: dict[str, Any] | None = None
    started = time.monotonic()
    backend: Backend | None = None
    show = sys.stderr.isatty() and args.games > 1
    try:
        with _Interrupts() as interrupts:
            backend = make_backend(workers, args.scheduler, dashboard=args.dashboard,
                                   worker_timeout=args.worker_timeout)
            if backend.dashboard_news:
                say_on_stderr(backend.dashboard_news)
            backend.ready(say_on_stderr)
            started = time.monotonic()  # the games' time, not the wait for workers
            if args.json:
                with interrupts.held():
                    _print_json(_header(job, labels, args.games, backend))
            with progress_bar(args.games, show) as progress:
                batcher = Batcher(args.games, backend.workers)
                for batch in backend.results(job, batcher, progress.say):
                    with interrupts.held():
                        for record in batch["records"]:
                            results.add(record)
                    progress(len(batch["records"]))
                    if batch["error"] is not None:
                        failure = batch["error"]
                        break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if backend is not None:
            backend.close(interrupted=interrupted or failure is not None)
    elapsed = time.monotonic() - started
    if failure is not None:
        print(failure["traceback"].rstrip(), file=sys.stderr)
        bots = ", ".join(failure["bots"] or [])
        raise HedgerowError(
            f"game {failure['index']} (seed {failure['seed']}; seats: {bots}) failed: "
            f"{failure['message']}"
        )
    results.flush()
    finished = results.bots.games
    if args.json:
        _print_json({
            "type": "summary",
            "finished": finished,
            "interrupted": interrupted,
            "seconds": elapsed,
            "bots": results.bots.data(),
            "seats": results.seats.data(),
        })
    else:
        _print_table(job, args.games, results, backend, elapsed, interrupted)
    if interrupted:
        print(f"hedgerow: interrupted after {finished} of {args.games} games", file=sys.stderr)
        return 130
    return 0


def _header(job: Job, labels: list[str], games: int, backend: Backend) -> dict[str, Any]:
    return {
        "type": "tournament",
        "game": job.game,
        "variants": list(job.variants),
        "fingerprint": job.fingerprint,
        "players": job.players,
        "games": games,
        "seed": job.seed,
        "bots": labels,
        "block": block_size(len(job.bots)),
        "cycle": cycle_size(len(job.bots), job.players),
        "workers": backend.workers,
        "backend": backend.description,
        "dashboard": backend.dashboard,
    }


def _print_table(job: Job, games: int, results: _Results, backend: Backend | None,
                 elapsed: float, interrupted: bool) -> None:
    finished = results.bots.games
    where = backend.description if backend is not None else "nowhere"
    done = f"{finished} of {games} games (interrupted)" if interrupted else f"{games} games"
    seats = f"{job.players} player" + ("s" if job.players != 1 else "")
    head = f"{job.fingerprint}, {seats}: {done}"
    seeds = f"seeds {job.seed}-{job.seed + games - 1}"
    # a seed drawn for the run has 16 digits: the seeds go on a line of their own when the
    # headline would not fit 80 columns
    print(f"{head}, {seeds}" if len(head) + len(seeds) + 2 <= 80 else f"{head}\n{seeds}")
    print(f"played {where} in {elapsed:.1f} s")
    block = block_size(len(job.bots))
    if finished % block:
        print(f"note: seats are balanced over blocks of {block} games; {finished} is not a "
              "multiple")
    if finished == 0:
        return
    print()
    for line in report(results.bots):
        print(line)
    seat_lines = results.seats.lines
    if results.seats.decided and job.players > 1 and results.seats.kind != "cooperative":
        rates = "  ".join(
            f"{s}: {100 * line.wins / line.decided:.1f}%"
            for s, line in enumerate(seat_lines) if line.decided
        )
        print()
        print(textwrap.fill(f"wins by seat (any bot): {rates}", 80, subsequent_indent="  "))
