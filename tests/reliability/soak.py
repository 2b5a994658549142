"""Soak: many complete networked bot games in a row, counting leaks, crashes and desyncs.

Two kinds of soak, each a plain function returning a report with a readable ``summary()``:

* `soak_in_process(tables, ...)` plays complete tables one after another in *this* process
  (`host_table` / `join_table` + `play_bot`, real CURVE sockets on 127.0.0.1, one asyncio
  loop for the whole run) and samples the process after every table: resident memory
  (VmRSS), open file descriptors (``/proc/self/fd``), threads (``/proc/self/status``, so
  libzmq's own I/O threads count too), asyncio tasks and live ZeroMQ sockets.  After
  `WARMUP` tables nothing may grow with the number of tables (`grew` says exactly what
  counts as growth).  Every peer is closed after its table, so whatever a table leaves
  behind (a socket, a context, a reader task, a thread, a log file left open) shows here.
* `soak(games, ...)` plays ``games`` networked games across processes: for each, a
  ``hedgerow host GAME --bot random --json`` process and ``players - 1`` ``hedgerow join
  ADDRESS --bot random --json`` processes on 127.0.0.1, several games at once, rotating
  through every game, every variant combination ``hedgerow games`` lists (conflicting ones
  left out) and the seat counts each allows.  Per game it records every exit status,
  any traceback or exception in any stderr, halts (desyncs), the final hashes (one per
  game when all is well), gave-up events, and each peer's peak RSS (VmHWM) and open fds
  sampled while it runs (the last sample is taken at most `SAMPLE_S` before it exits).
  A `SoakReport` sums it up: games, failures by kind, peak RSS max/median, fds max, and
  whether the peers' peak RSS grew from the first games to the last.

On demand (every game, the big run; docs/reliability.md):

    python tests/reliability/soak.py --games 1000 --parallel 3 --json soak.json
    python tests/reliability/soak.py --in-process 300

tests/reliability/test_soak.py runs a small slice of both in CI.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: tests/ on the path, as pytest has it
    sys.path[:0] = [str(Path(__file__).resolve().parents[1]),
                    str(Path(__file__).resolve().parents[2] / "docs" / "examples")]

#: Tables (or games) played before the first window of `grew` starts (caches fill, pools
#: of worker threads reach their size, the allocator settles).
WARMUP = 5
#: RSS may move this much between the first and the last window without counting as growth
#: (the allocator's own noise: arenas freed late, fragmentation).
RSS_SLACK_KIB = 3 * 1024
#: Counts that may step up once or twice without counting as growth: threads (the loop's
#: worker pool starts its threads lazily, one more whenever none is idle) and fds (a file a
#: library opens on first use).  A leak of one per table passes that within a few tables.
COUNT_SLACK = {"threads": 2, "fds": 2}
#: How often a peer process is sampled (VmHWM, fds) while it runs.
SAMPLE_S = 0.2
#: Seconds one cross-process game may take before it counts as hung.
GAME_TIMEOUT = 300.0
#: A line of stderr that means something went wrong in the program (not a table's refusal).
EXCEPTION_LINE = re.compile(r"Traceback \(most recent call last\)|^\w*(Error|Exception)\b|"
                            r"Task exception was never retrieved|was never awaited")


# -- what counts as growth --------------------------------------------------------------------


def slope(values: Sequence[float]) -> float:
    """The least-squares slope of ``values`` against their index (per table)."""
    n = len(values)
    if n < 2:
        return 0.0
    mx = (n - 1) / 2
    my = sum(values) / n
    sxx = sum((i - mx) ** 2 for i in range(n))
    return sum((i - mx) * (v - my) for i, v in enumerate(values)) / sxx


def grew(values: Sequence[float], warmup: int = WARMUP, slack: float = 0.0) -> bool:
    """Whether ``values`` (one sample per table) grew with the number of tables.

    The samples after ``warmup`` are cut into thirds; they grew when the *smallest* sample
    of the last third is above the *largest* of the first third by more than ``slack``, and
    the fitted slope is positive.  A leak of anything per table (one fd, one task, one
    thread) raises every later sample, so the last window's floor passes the first window's
    ceiling; a count that only moves up and down (a worker pool at its size, a socket still
    lingering) does not.  Too few samples (under 3 after the warm-up) never count as growth.
    """
    rest = list(values[warmup:])
    if len(rest) < 3:
        return False
    third = len(rest) // 3
    first, last = rest[:third], rest[-third:]
    return min(last) > max(first) + slack and slope(rest) > 0


# -- in one process ---------------------------------------------------------------------------


@dataclass
class Sample:
    """The process after one table."""

    rss_kib: int
    fds: int
    threads: int
    tasks: int
    zmq_sockets: int


def _status(field_name: str, pid: int | str = "self") -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    return 0


def open_fds(pid: int | str = "self") -> int:
    """How many file descriptors the process holds open."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def live_zmq_sockets() -> int:
    """ZeroMQ sockets of this process not closed yet (found by the garbage collector)."""
    import zmq

    return sum(1 for o in gc.get_objects() if isinstance(o, zmq.Socket) and not o.closed)


def sample_self() -> Sample:
    """This process now (call it on the running loop, after a garbage collection)."""
    return Sample(_status("VmRSS"), open_fds(), _status("Threads"),
                  len(asyncio.all_tasks()), live_zmq_sockets())


@dataclass
class InProcessReport:
    """What `soak_in_process` saw."""

    tables: list[str] = field(default_factory=list)  # "game+variants xN", one per table
    samples: list[Sample] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    warmup: int = WARMUP

    def series(self, name: str) -> list[int]:
        """One measure (a `Sample` field) across the tables."""
        return [getattr(s, name) for s in self.samples]

    def growth(self) -> dict[str, bool]:
        """For each measure, whether it grew with the number of tables (see `grew`)."""
        return {name: grew(self.series(name), self.warmup,
                           RSS_SLACK_KIB if name == "rss_kib" else COUNT_SLACK.get(name, 0))
                for name in Sample.__dataclass_fields__}

    @property
    def held(self) -> bool:
        """No table failed and nothing grew."""
        return not self.failures and not any(self.growth().values())

    def summary(self) -> str:
        """A few lines for people."""
        lines = [f"in-process soak: {len(self.tables)} tables in {self.seconds:.0f} s, "
                 f"{len(self.failures)} failed"]
        for name, up in self.growth().items():
            values = self.series(name)
            if not values:
                continue
            rest = values[self.warmup:] or values
            lines.append(f"  {name:<12} first {values[0]:>8}  after warm-up {rest[0]:>8}  "
                         f"last {values[-1]:>8}  max {max(values):>8}  "
                         f"slope {slope(rest):+.2f}/table  {'GREW' if up else 'flat'}")
        lines += [f"  failed: {f}" for f in self.failures[:20]]
        return "\n".join(lines)


TableSpec = tuple[str, tuple[str, ...], int]  # game, variants, players


async def play_table(plugins: Callable[[], Any], game: str, variants: Sequence[str],
                     players: int, timeout: float = 120.0) -> str | None:
    """One complete table of random bots in this process, every peer closed afterwards;
    None when it held, else what went wrong."""
    from hedgerow.clients.botrunner import play_bot
    from hedgerow.net.keys import generate
    from hedgerow.net.launch import host_table, join_table

    loaded = plugins()  # (each joiner loads its own, as a process of its own would)
    ruleset = loaded.ruleset(game, variants, players)
    peers = [await host_table(ruleset, players, identity=generate(), announce=False)]
    try:
        peers[0].plugins = loaded
        for _ in range(players - 1):
            peers.append(await join_table(peers[0].address, identity=generate(),
                                          plugins=plugins()))
        spec = loaded.bot("random")
        codes = await asyncio.wait_for(
            asyncio.gather(*(play_bot(p, spec, give_up=timeout) for p in peers)), timeout)
        hashes = {p.state_hash() for p in peers}
        if codes != [0] * players:
            return f"exit statuses {codes} ({peers[0].problem()})"
        if len(hashes) != 1 or None in hashes:
            return f"{len(hashes)} final hashes"
        return None
    except TimeoutError:
        return f"not over within {timeout:g} s"
    finally:
        for peer in peers:
            await peer.close()


def soak_in_process(tables: int, specs: Sequence[TableSpec] = (("posy", (), 2),),
                    plugins: Callable[[], Any] | None = None, warmup: int = WARMUP,
                    progress: Callable[[str], None] | None = None) -> InProcessReport:
    """Play ``tables`` tables one after another, rotating through ``specs``; see module."""
    from hedgerow.core.pluginhost import PluginHost

    make = plugins or PluginHost
    report = InProcessReport(warmup=warmup)

    async def main() -> None:
        started = time.monotonic()
        for i, (game, variants, players) in zip(range(tables), itertools.cycle(specs),
                                                strict=False):
            name = f"{game}{''.join('+' + v for v in variants)} x{players}"
            problem = await play_table(make, game, variants, players)
            if problem is not None:
                report.failures.append(f"table {i} ({name}): {problem}")
            await asyncio.sleep(0)  # let callbacks of closed sockets run
            gc.collect()
            report.tables.append(name)
            report.samples.append(sample_self())
            if progress is not None:
                progress(f"table {i + 1}/{tables} {name}: {report.samples[-1]}")
        report.seconds = time.monotonic() - started

    asyncio.run(main())
    return report


# -- across processes -------------------------------------------------------------------------


def combinations(env: dict[str, str] | None = None) -> list[TableSpec]:
    """Every (game, variants, players) to rotate through: each game of ``hedgerow games
    --json``, each set of its variants that can be chosen together, each seat count they
    allow; ordered so that rotating visits every game and every variant set early."""
    from e2e.helpers import hedgerow, peer_env

    from hedgerow.core.errors import HedgerowError
    from hedgerow.core.pluginhost import PluginHost

    listed = hedgerow("games", "--json", env=env or peer_env(), timeout=120)
    if listed.returncode != 0:
        raise RuntimeError(f"hedgerow games failed: {listed.stderr[-500:]}")
    catalogue = json.loads(listed.stdout)
    plugins = PluginHost()  # the same plugins, to find which variant sets fit together
    per_set: list[list[TableSpec]] = []
    for game in catalogue["games"]:
        names = [v["name"] for v in game["variants"]]
        for size in range(len(names) + 1):
            for chosen in itertools.combinations(names, size):
                try:
                    ruleset = plugins.ruleset(game["name"], chosen)
                except HedgerowError:
                    continue  # conflicting variants: refused at table creation
                low, high = ruleset.player_range
                if low > high:
                    continue
                seats = [ruleset.players_default]
                seats += [n for n in range(low, high + 1) if n != ruleset.players_default]
                per_set.append([(game["name"], tuple(chosen), n) for n in seats])
    # Round-robin: every variant set at its default seat count first, then the other counts.
    order: list[TableSpec] = []
    for layer in itertools.zip_longest(*per_set):
        order += [spec for spec in layer if spec is not None]
    return order


def pick_games(games: int, specs: Sequence[TableSpec]) -> list[TableSpec]:
    """``games`` table specs, rotating through ``specs`` by game so each game comes in turn."""
    by_game: dict[str, list[TableSpec]] = {}
    for spec in specs:
        by_game.setdefault(spec[0], []).append(spec)
    cycles = [itertools.cycle(v) for v in by_game.values()]
    chosen: list[TableSpec] = []
    for i in range(games):
        chosen.append(next(cycles[i % len(cycles)]))
    return chosen


@dataclass
class PeerRecord:
    """One peer process of one game."""

    seat: int
    exit: int | None = None
    peak_rss_kib: int = 0  # VmHWM, the last sample before the exit
    fds: int = 0  # open fds near the end: the first sample once the game is over
    fds_max: int = 0  # the most open fds of any sample
    state_hash: str | None = None
    halted: str | None = None
    gave_up: bool = False
    exceptions: list[str] = field(default_factory=list)
    other_lines: list[str] = field(default_factory=list)  # the rest of stderr (warnings)


@dataclass
class GameRecord:
    """One networked game."""

    number: int
    game: str
    variants: list[str]
    players: int
    seconds: float = 0.0
    peers: list[PeerRecord] = field(default_factory=list)
    final_hash: str | None = None
    failures: list[str] = field(default_factory=list)  # "kind: detail"

    @property
    def held(self) -> bool:
        return not self.failures


def _watch(procs: Sequence[Any], records: Sequence[PeerRecord], deadline: float) -> bool:
    """Sample every peer (VmHWM, fds) until all have exited; False on the deadline."""
    over = {id(rec): False for rec in records}
    while True:
        alive = False
        for proc, rec in zip(procs, records, strict=True):
            if proc.proc.poll() is not None:
                continue
            alive = True
            try:
                peak = _status("VmHWM", proc.proc.pid)
                fds = open_fds(proc.proc.pid)
                if not peak or not fds:
                    continue  # it exited after the poll: a zombie has no memory and no fds
                rec.peak_rss_kib = max(rec.peak_rss_kib, peak)
                rec.fds_max = max(rec.fds_max, fds)
                if not over[id(rec)]:  # (after "over" the sockets are still open)
                    rec.fds = fds
                    over[id(rec)] = any('"event": "over"' in line for line in proc.lines)
            except (OSError, ValueError):
                pass  # it exited between the poll and the read
        if not alive:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(SAMPLE_S)


def play_networked(number: int, spec: TableSpec, extra: Sequence[str] = ()) -> GameRecord:
    """One game of ``hedgerow host``/``join --bot random --json`` processes; what it saw."""
    from e2e.helpers import PeerProcess, peer_env

    game, variants, players = spec
    rec = GameRecord(number, game, list(variants), players)
    started = time.monotonic()
    variant_args = [a for v in variants for a in ("--variant", v)]
    bot = ["--bot", "random", "--json", *extra]
    procs: list[PeerProcess] = []
    try:
        procs.append(PeerProcess(["host", game, "--players", str(players), "--bind",
                                  "127.0.0.1", "--port", "0", *variant_args, *bot],
                                 peer_env()))
        rec.peers.append(PeerRecord(0))
        try:
            address = procs[0].wait_event("open", timeout=120)["address"]
        except AssertionError as exc:
            rec.failures.append(f"no table: {str(exc)[-300:]}")
            address = None
        if address is not None:
            for seat in range(1, players):
                procs.append(PeerProcess(["join", address, *bot], peer_env()))
                rec.peers.append(PeerRecord(seat))
        if not _watch(procs, rec.peers, started + GAME_TIMEOUT):
            rec.failures.append(f"hung: not over within {GAME_TIMEOUT:g} s")
        for proc, peer in zip(procs, rec.peers, strict=True):
            proc.stop()
            code, result = proc.finish(timeout=30)
            peer.exit = code
            _read_peer(proc, peer, result)
    finally:
        for proc in procs:
            proc.stop()
    _judge(rec)
    rec.seconds = time.monotonic() - started
    return rec


def _read_peer(proc: Any, peer: PeerRecord, result: dict[str, Any] | None) -> None:
    if result is not None:
        peer.state_hash = result.get("state_hash")
    for event in proc.events:
        if event.get("event") == "halted":
            peer.halted = str(event.get("problem") or event.get("text"))
        elif event.get("event") == "gave_up":
            peer.gave_up = True
    lines = proc.stderr.splitlines()
    for i, line in enumerate(lines):
        if EXCEPTION_LINE.search(line):
            peer.exceptions.append("\n".join(lines[i:i + 30])[:3000])
            break  # the first is enough to name it; the count of peers says the rest
    peer.other_lines = [line[:300] for line in lines[:20] if not EXCEPTION_LINE.search(line)]


def _judge(rec: GameRecord) -> None:
    """Failures of a finished game, by kind (the part before the colon)."""
    for peer in rec.peers:
        if peer.exceptions:
            first = peer.exceptions[0].splitlines()
            rec.failures.append(f"exception: seat {peer.seat}: {first[-1] if first else ''}")
        if peer.halted is not None:
            rec.failures.append(f"halt: seat {peer.seat}: {peer.halted}")
        if peer.gave_up:
            rec.failures.append(f"gave up: seat {peer.seat}")
        if peer.exit != 0 and peer.halted is None:
            rec.failures.append(f"exit status: seat {peer.seat} exited {peer.exit}")
    hashes = {p.state_hash for p in rec.peers}
    if len(hashes) > 1:
        rec.failures.append(f"desync: {len(hashes)} different final hashes")
    elif hashes == {None} and rec.peers:
        rec.failures.append("no result: no peer reported a final hash")
    else:
        rec.final_hash = next(iter(hashes), None)


@dataclass
class SoakReport:
    """What `soak` saw: every game, and the sums."""

    games: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    parallel: int = 1

    def failures_by_kind(self) -> dict[str, int]:
        """Failures counted by kind (exception, halt, desync, exit status, hung, ...)."""
        return dict(Counter(f.split(":")[0] for g in self.games for f in g.failures))

    def peak_rss(self) -> list[int]:
        """Per game, the largest peak RSS of its peers (KiB), in the order played."""
        return [max((p.peak_rss_kib for p in g.peers), default=0)
                for g in sorted(self.games, key=lambda g: g.number)]

    def rss_by_game(self) -> dict[str, tuple[int, float]]:
        """Per game name: (max, median) of every peer's peak RSS, KiB."""
        out: dict[str, list[int]] = {}
        for g in self.games:
            out.setdefault(g.game, []).extend(p.peak_rss_kib for p in g.peers if p.peak_rss_kib)
        return {k: (max(v), statistics.median(v)) for k, v in sorted(out.items()) if v}

    def stderr_kinds(self) -> dict[str, int]:
        """The lines peers wrote to stderr that are not exceptions (warnings, notices), by
        their text with numbers and hex blurred, and how many peers wrote each."""
        kinds: Counter[str] = Counter()
        for g in self.games:
            for p in g.peers:
                kinds.update({re.sub(r"[0-9a-f]{6,}|\d+", "N", line)[:160]
                              for line in p.other_lines})
        return dict(kinds.most_common())

    def fds_max(self) -> int:
        """The most fds any peer held at its last sample."""
        return max((p.fds for g in self.games for p in g.peers), default=0)

    def rss_grew(self) -> dict[str, bool]:
        """Per game name, whether its peers' peak RSS grew from its first games to its last
        (a peer is a fresh process, so it must not: growth would mean state carried over,
        e.g. a data folder that keeps growing)."""
        out: dict[str, bool] = {}
        for name in sorted({g.game for g in self.games}):
            series = [max(p.peak_rss_kib for p in g.peers)
                      for g in sorted(self.games, key=lambda g: g.number)
                      if g.game == name and g.peers]
            out[name] = grew(series, min(WARMUP, len(series) // 4), RSS_SLACK_KIB)
        return out

    @property
    def held(self) -> bool:
        return all(g.held for g in self.games) and not any(self.rss_grew().values())

    def summary(self) -> str:
        """A readable account."""
        ok = sum(g.held for g in self.games)
        combos = {(g.game, tuple(g.variants), g.players) for g in self.games}
        lines = [f"networked soak: {len(self.games)} games ({len(combos)} game/variant/seat "
                 f"combinations), {self.parallel} at once, {self.seconds:.0f} s; "
                 f"{ok} held, {len(self.games) - ok} failed"]
        for kind, n in sorted(self.failures_by_kind().items()):
            lines.append(f"  failures: {kind}: {n}")
        grown = self.rss_grew()
        for name, (top, median) in self.rss_by_game().items():
            n = sum(1 for g in self.games if g.game == name)
            secs = statistics.median([g.seconds for g in self.games if g.game == name])
            lines.append(f"  {name:<10} {n:>5} games, median {secs:5.1f} s; peer peak RSS "
                         f"max {top / 1024:6.1f} MiB, median {median / 1024:6.1f} MiB"
                         f"{'  GREW' if grown.get(name) else ''}")
        most = max((p.fds_max for g in self.games for p in g.peers), default=0)
        lines.append(f"  open fds per peer near its end: max {self.fds_max()} "
                     f"(the most at any sample: {most})")
        for text, n in list(self.stderr_kinds().items())[:10]:
            lines.append(f"  stderr ({n} peers): {text}")
        for g in self.games:
            if g.failures:
                lines.append(f"  game {g.number} {g.game}{''.join('+' + v for v in g.variants)}"
                             f" x{g.players}: {'; '.join(g.failures)[:300]}")
        return "\n".join(lines)

    def as_data(self) -> dict[str, Any]:
        """Everything, as JSON data."""
        return {"seconds": self.seconds, "parallel": self.parallel,
                "failures_by_kind": self.failures_by_kind(),
                "rss_by_game_kib": self.rss_by_game(), "fds_max": self.fds_max(),
                "rss_grew": self.rss_grew(), "stderr_kinds": self.stderr_kinds(),
                "games": [asdict(g) for g in self.games]}


def soak(games: int, *, parallel: int = 2, specs: Sequence[TableSpec] | None = None,
         extra: Sequence[str] = (), progress: Callable[[GameRecord], None] | None = None,
         stop: Callable[[], bool] | None = None, first: int = 0) -> SoakReport:
    """Play ``games`` networked bot games, ``parallel`` at once, rotating through ``specs``
    (default: every game, variant set and seat count, `combinations`); see the module.
    ``stop()`` (checked before each game starts) ends the run early, keeping what was done;
    ``first`` starts the rotation (and the numbering) that many games in, to go on with a
    run that was stopped."""
    chosen = pick_games(first + games, specs if specs is not None else combinations())[first:]
    report = SoakReport(parallel=parallel)
    lock = threading.Lock()
    started = time.monotonic()

    def one(number: int, spec: TableSpec) -> None:
        if stop is not None and stop():
            return
        rec = play_networked(number, spec, extra)
        with lock:
            report.games.append(rec)
            if progress is not None:
                progress(rec)

    with ThreadPoolExecutor(parallel) as pool:
        for fut in [pool.submit(one, i, spec) for i, spec in enumerate(chosen, first)]:
            fut.result()
    report.games.sort(key=lambda g: g.number)
    report.seconds = time.monotonic() - started
    return report


# -- the on-demand runner ---------------------------------------------------------------------


def _line(rec: GameRecord) -> str:
    rss = max((p.peak_rss_kib for p in rec.peers), default=0) / 1024
    fds = max((p.fds for p in rec.peers), default=0)
    name = f"{rec.game}{''.join('+' + v for v in rec.variants)} x{rec.players}"
    verdict = "held" if rec.held else "FAILED " + "; ".join(rec.failures)[:200]
    return f"game {rec.number:>4} {name:<32} {rec.seconds:5.1f} s rss {rss:5.1f} MiB " \
           f"fds {fds:>3} {verdict}"


def main(argv: Sequence[str] | None = None) -> int:
    """``python tests/reliability/soak.py``: the big runs (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=0, help="networked games to play")
    parser.add_argument("--parallel", type=int, default=2, help="games at once")
    parser.add_argument("--in-process", type=int, default=0, metavar="TABLES",
                        help="tables to play in one process (every game in turn)")
    parser.add_argument("--first", type=int, default=0, metavar="N",
                        help="start N games into the rotation (go on with a stopped run)")
    parser.add_argument("--json", default=None, metavar="PATH", help="write the report here")
    parser.add_argument("--stop-file", default=None, metavar="PATH",
                        help="stop starting games once this file exists (keep the report)")
    args = parser.parse_args(argv)
    if "HEDGEROW_HOME" not in os.environ:  # never the user's own data folder
        os.environ["HEDGEROW_HOME"] = tempfile.mkdtemp(prefix="hedgerow-soak-")
    held = True
    out: dict[str, Any] = {}
    if args.in_process:
        from hedgerow.core.pluginhost import PluginHost

        plugins = PluginHost()
        specs = [(name, (), plugins.ruleset(name).players_default)
                 for name in sorted(plugins.games)]
        ip = soak_in_process(args.in_process, specs, progress=lambda s: print(s, flush=True))
        print(ip.summary(), flush=True)
        held = held and ip.held
        out["in_process"] = {"tables": ip.tables, "samples": [asdict(s) for s in ip.samples],
                             "failures": ip.failures, "growth": ip.growth()}
    if args.games:
        def stop() -> bool:
            return args.stop_file is not None and Path(args.stop_file).exists()

        report = soak(args.games, parallel=args.parallel,
                      progress=lambda r: print(_line(r), flush=True), stop=stop,
                      first=args.first)
        print(report.summary(), flush=True)
        held = held and report.held
        out["networked"] = report.as_data()
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
