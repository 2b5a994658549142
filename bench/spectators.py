"""What spectators cost the players: action latency at a table watched by 8, and by nobody.

A sealed table of bot peer processes (`bench/netpeer.py`, the real code path: every action
timed from the author's ``submit`` to the moment the entry is applied on every peer, as
`bench/net_latency.py` times it) plays whole games, in turn without spectators and with
``--spectators`` of them (default 8, a table's bound: docs/protocol.md §3.4), each a real
``hedgerow watch ADDRESS --json`` process that watches from before the first move to the
end and must end on the players' state hash.  The cases take turns game by game, so other
load falls on both alike; the figure is the ratio of the players' action latency with
spectators to without (median and 99th percentile), the goal being within 10%.

On this one machine the spectators' own work (each replays the public records: the
chain, the rules, the cards shown to everyone) shares the CPU with the players, which it
would not on a LAN, where each spectator is a machine of its own; ``--nice N`` (default
10) runs them at a lower priority, so that what is measured is what they cost the players
through the host — its sends and its reading of the log — and ``--nice 0`` shows the
machine shared.  ``--pin`` goes further: the players run on the first CPU and the
spectators on the others, in both cases alike, so that the spectators take no CPU from the
players at all and what is left is their cost through the host.  Also reported: the host's
CPU per action, and what it sent per action.

    python bench/spectators.py [--games 6] [--table petals:4] [--spectators 8] [--nice 10]
                               [--pin]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from net_latency import latencies, pct, peer_env  # noqa: E402

#: The CPUs the players run on, and the spectators (``--pin``; None: anywhere).
PLAYERS_CPUS: set[int] | None = None
SPECTATORS_CPUS: set[int] | None = None


def placed(cpus: set[int] | None, nice: int = 0) -> Any:
    """A ``preexec_fn`` that pins the child to ``cpus`` and lowers it by ``nice``."""
    def setup() -> None:
        if cpus is not None:
            os.sched_setaffinity(0, cpus)
        if nice:
            os.nice(nice)
    return setup


def start(args: list[str]) -> subprocess.Popen[str]:
    """A bot peer process (`bench/netpeer.py`), on the players' CPUs."""
    return subprocess.Popen([sys.executable, str(HERE / "netpeer.py"), *args], env=peer_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            preexec_fn=placed(PLAYERS_CPUS))


def watcher(address: str, name: str, nice: int) -> subprocess.Popen[str]:
    """``hedgerow watch ADDRESS --json`` as a process of its own (at ``nice``, on the
    spectators' CPUs)."""
    return subprocess.Popen([sys.executable, "-m", "hedgerow.clients.cli", "watch", address,
                             "--json", "--name", name], env=peer_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=placed(SPECTATORS_CPUS, nice))


def play(game: str, players: int, spectators: int, nice: int) -> dict[str, Any]:
    """One sealed game watched by ``spectators``: the players' reports and what the
    spectators ended on."""
    host = start(["host", game, str(players)])
    assert host.stdout is not None
    address = json.loads(host.stdout.readline())["address"]
    watchers = [watcher(address, f"w{i}", nice) for i in range(spectators)]
    for w in watchers:  # each is watching (the host answered) before anyone joins
        assert w.stdout is not None
        first = json.loads(w.stdout.readline())
        assert first["event"] == "watching", first
    joiners = [start(["join", address]) for _ in range(players - 1)]
    reports = []
    for proc in [host, *joiners]:
        out, _ = proc.communicate(timeout=300)
        reports.append(json.loads(out.strip().splitlines()[-1]))
    if len({r["state_hash"] for r in reports}) != 1 or any(r["code"] for r in reports):
        raise SystemExit(f"the peers did not agree: {reports}")
    ends = []
    for w in watchers:
        out, err = w.communicate(timeout=120)
        result = json.loads(out.strip().splitlines()[-1])
        if result.get("state_hash") != reports[0]["state_hash"]:
            raise SystemExit(f"a spectator ended elsewhere: {result} {err}")
        ends.append(result)
    return {"reports": reports, "watched": ends}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per case (default 6)")
    parser.add_argument("--table", default="petals:4", help="GAME:PLAYERS (default petals:4)")
    parser.add_argument("--spectators", type=int, default=8)
    parser.add_argument("--nice", type=int, default=10,
                        help="the spectators' nice level (0: the players' own priority)")
    parser.add_argument("--pin", action="store_true",
                        help="the players on the first CPU, the spectators on the others "
                             "(in both cases), as if each spectator were a machine of its own")
    args = parser.parse_args()
    global PLAYERS_CPUS, SPECTATORS_CPUS
    if args.pin:
        cpus = sorted(os.sched_getaffinity(0))
        if len(cpus) < 2:
            raise SystemExit("--pin needs two CPUs")
        PLAYERS_CPUS, SPECTATORS_CPUS = {cpus[0]}, set(cpus[1:])
    game, players = args.table.split(":")[0], int(args.table.split(":")[1])
    cases = {0: [], args.spectators: []}  # type: dict[int, list[float]]
    host_cpu: dict[int, list[float]] = {0: [], args.spectators: []}
    sent: dict[int, list[float]] = {0: [], args.spectators: []}
    for g in range(args.games):
        for watching in ((0, args.spectators) if g % 2 == 0 else (args.spectators, 0)):
            done = play(game, players, watching, args.nice)
            reports = done["reports"]
            cases[watching] += latencies(reports)
            actions = max(1, len(reports[0]["applied"]))
            host = reports[0]
            host_cpu[watching].append((host["loop_cpu_ns"] or 0) / actions / 1000)
            sent[watching].append(sum(n for _, _, n in host["sent"]) / actions)
            print(f"game {g + 1}, {watching} spectators: {len(latencies(reports))} actions, "
                  f"median {statistics.median(latencies(reports)) / 1000:.2f} ms",
                  flush=True)
    none, some = cases[0], cases[args.spectators]
    where = (f", players on CPU {sorted(PLAYERS_CPUS or ())}, spectators on "
             f"{sorted(SPECTATORS_CPUS or ())}" if args.pin else "")
    print(f"\n{game}:{players}, sealed deck, {args.games} games a case, spectators at nice "
          f"{args.nice}{where}")
    print(f"{'':18}{'median ms':>11}{'p99 ms':>9}{'host CPU us/action':>20}"
          f"{'host bytes/action':>19}")
    for label, values, key in (("no spectator", none, 0),
                               (f"{args.spectators} spectators", some, args.spectators)):
        print(f"{label:18}{statistics.median(values) / 1000:11.2f}{pct(values, 0.99) / 1000:9.2f}"
              f"{statistics.median(host_cpu[key]):20.0f}{statistics.median(sent[key]):19.0f}")
    print(f"ratio (with / without): median {statistics.median(some) / statistics.median(none):.3f}"
          f", p99 {pct(some, 0.99) / pct(none, 0.99):.3f}")


if __name__ == "__main__":
    main()
