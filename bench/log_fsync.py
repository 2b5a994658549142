"""What the log's fsync policy costs: a game's log written with each policy, as ratios.

For each game, one complete random-bot game is played in this process and its entries (with
the state hash after each) are kept.  Then the whole log is written again and again with
`LogWriter` as seat 0's peer writes it, under each fsync policy (`hedgerow.net.logfile`):
``never`` (flush only: the baseline), ``own`` (the default: the header, seat 0's own
entries and the end are fsynced) and ``always`` (every record), interleaved in rounds; the
median of the rounds is reported, as a ratio to ``never`` measured in the same run, with
the number of fsyncs and the time added per fsynced record.

The added time is what a peer spends in fsync during a whole game; it is on the path of
each entry it authors (the entry is written before its state hash is sent).

With ``--net N`` it also plays N networked Petals games of 3 bot peer processes
(`bench/net_latency.py`'s harness) with the peers' logs written under ``never`` and under
``own``, interleaved, and reports the median play time (first action authored to the last
applied everywhere) of each and their ratio.  The policy is forced in the peer processes by
a ``sitecustomize`` module this script puts on their path (bench tooling: the peers' own
choice of policy is left aside).

    python bench/log_fsync.py [--rounds 9] [--dir FOLDER] [--net N] [GAME ...]

``--dir`` puts the logs on the file system to measure (default: a temporary folder).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import LogEntry, Table
from hedgerow.net.logfile import SYNC_ALWAYS, SYNC_NEVER, SYNC_OWN, LogWriter
from hedgerow.net.messages import LogHeader

GAMES = ("petals", "flowers", "mandala", "flourish")
POLICIES = (SYNC_NEVER, SYNC_OWN, SYNC_ALWAYS)


def game_entries(plugins: PluginHost, game: str,
                 seed: int) -> tuple[LogHeader, list[tuple[LogEntry, bytes]]]:
    """The header and the (entry, state hash) of one random-bot game of ``game``."""
    ruleset = plugins.ruleset(game, (), 2)
    players = max(ruleset.spec.min_players, min(3, ruleset.spec.max_players))
    ruleset = plugins.ruleset(game, (), players)
    table_seed = seed_from_int(seed)
    table = Table(ruleset, players, table_seed)
    header = LogHeader.for_table(ruleset, players, table_seed, table_id=bytes(16), own_seat=0)
    out = [(a.entry, table.hash_of(a.after)) for a in table.opening]
    choose = random.Random(seed)
    while table.active_seats():
        active = table.active_seats()
        choices = {s: choose.choice(list(table.legal_actions(s))) for s in active}
        if len(active) == 1:
            ((seat, action),) = choices.items()
            applied = table.submit(seat, action)
        else:
            applied = table.submit_step(choices)
        assert isinstance(applied, tuple), applied
        out += [(a.entry, table.hash_of(a.after)) for a in applied]
    return header, out


def write(path: Path, header: LogHeader, entries: list[tuple[LogEntry, bytes]],
          policy: str) -> float:
    """Seconds to write the whole log (create, every entry, close) under ``policy``."""
    if path.exists():
        path.unlink()
    start = time.perf_counter()
    with LogWriter(path, header, sync=policy) as writer:
        for entry, state_hash in entries:
            writer.append(entry, state_hash)
    return time.perf_counter() - start


_FORCE = """
import os
from hedgerow.net import logfile
_init = logfile.LogWriter.__init__
def _forced(self, path, header, *, sync=None):
    _init(self, path, header, sync=os.environ["HEDGEROW_BENCH_LOG_SYNC"])
logfile.LogWriter.__init__ = _forced
"""


def networked(games: int, folder: Path) -> None:
    """Median play time of networked Petals games with the peers' logs under each policy."""
    import sys

    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    from net_game import play_time
    from net_latency import play_game

    (folder / "sitecustomize.py").write_text(_FORCE)
    os.environ["PYTHONPATH"] = os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    times: dict[str, list[float]] = {SYNC_NEVER: [], SYNC_OWN: []}
    for _ in range(games):
        for policy in times:
            os.environ["HEDGEROW_BENCH_LOG_SYNC"] = policy
            times[policy].append(play_time(play_game("petals", 3)))
    never, own = (statistics.median(times[p]) for p in (SYNC_NEVER, SYNC_OWN))
    print(f"networked Petals, 3 bot peers, {games} games each: play time never "
          f"{never * 1e3:.0f} ms, own {own * 1e3:.0f} ms, own/never {own / never:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--net", type=int, default=0, metavar="N",
                        help="also N networked games under each policy")
    args = parser.parse_args()
    plugins = PluginHost()
    with tempfile.TemporaryDirectory(prefix="hedgerow-fsync-", dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"logs in {folder}; median of {args.rounds} interleaved rounds")
        print(f"{'game':9} {'entries':>7} {'own':>4} {'never ms':>9} "
              f"{'own ms':>8} {'own/never':>9} {'always ms':>9} {'always/never':>12} "
              f"{'ms per fsync':>12}")
        for game in args.games:
            header, entries = game_entries(plugins, game, args.seed)
            own = sum(1 for e, _ in entries if e.seat == 0)
            times: dict[str, list[float]] = {p: [] for p in POLICIES}
            for _ in range(args.rounds):
                for policy in POLICIES:
                    times[policy].append(write(folder / f"{game}.hlog", header, entries, policy))
            never, mine, every = (statistics.median(times[p]) for p in POLICIES)
            per_fsync = (every - never) / (len(entries) + 3)  # + file, directory, close
            print(f"{game:9} {len(entries):7} {own:4} {never * 1e3:9.2f} {mine * 1e3:8.1f} "
                  f"{mine / never:9.1f} {every * 1e3:9.1f} {every / never:12.1f} "
                  f"{per_fsync * 1e3:12.2f}")
        if args.net:
            networked(args.net, folder)


if __name__ == "__main__":
    main()
