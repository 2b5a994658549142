"""A 4-bot networked game against the same game in one process, and a peer's memory.

Three measurements, each reported as a ratio measured in one run:

1. **Play time.**  Four bot peer processes (`bench/netpeer.py`) play a Petals game; the
   play time is from the first action authored to the last action applied on the last
   peer.  The same seed is then played in this process by `hedgerow.core.playout.play`
   (what ``hedgerow simulate`` runs), once as is and once hashing the state after every
   action (the work every networked peer must do for desync detection).  Same seed, same
   random bots: the final state hashes must be equal, and are checked.
2. **Whole commands.**  ``hedgerow host --seed S`` plus three ``hedgerow join
   --accept-host-seed`` (a dictated deal, so the seed is the one ``hedgerow simulate --seed
   S`` uses), launch to last exit, against ``hedgerow simulate petals --players 4 --seed
   S``.  Both include interpreter start-up.
3. **Memory.**  Peak resident set (VmHWM) of each ``hedgerow join --bot random`` process.

    python bench/net_game.py [--games 10]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from net_latency import peer_env, play_game  # noqa: E402


def play_time(reports: list[dict]) -> float:
    """Seconds from the first action authored to the last one applied everywhere."""
    last = str(max(int(i) for i in reports[0]["applied"]))
    first = min(int(i) for r in reports for i in r["submitted"])  # after the deal (chance)
    start = min(r["submitted"][str(first)] for r in reports if str(first) in r["submitted"])
    return (max(r["applied"][last] for r in reports) - start) / 1e9


def in_process(seed: bytes, players: int, *, hash_every_action: bool) -> tuple[float, str]:
    """Best-of-5 seconds for the same game in this process, and its final state hash."""
    from hedgerow.core.playout import play
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.core.table import Table

    plugins = PluginHost()
    ruleset = plugins.ruleset("petals", (), players)
    bots = [plugins.bot("random")]
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        table = play(ruleset, players, seed, bots)
        if hash_every_action:  # replay with a hash after each entry, as a peer does
            again = Table(ruleset, players, seed)
            for applied in again.opening:
                again.hash_of(applied.after)
            for entry in table.entries:
                for applied in again.follow(entry.index, entry.seat, entry.action):
                    again.hash_of(applied.after)
        best = min(best, time.perf_counter() - t0)
    return best, table.state_hash().hex()


def vm_hwm_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def commands(seed: int, players: int) -> tuple[float, float, list[int]]:
    """(networked seconds, simulate seconds, joiners' peak RSS in KiB) for one deal."""
    cli = [sys.executable, "-m", "hedgerow.clients.cli"]
    t0 = time.perf_counter()
    host = subprocess.Popen([*cli, "host", "petals", "--players", str(players), "--bot", "random",
                             "--bind", "127.0.0.1", "--seed", str(seed), "--json"],
                            env=peer_env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    assert host.stdout is not None
    address = json.loads(host.stdout.readline())["address"]
    joiners = [subprocess.Popen([*cli, "join", address, "--bot", "random", "--accept-host-seed",
                                 "--json"], env=peer_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
               for _ in range(players - 1)]
    peaks = {p.pid: 0 for p in joiners}
    while any(p.poll() is None for p in joiners):
        for p in joiners:
            kb = vm_hwm_kb(p.pid)
            if kb:
                peaks[p.pid] = max(peaks[p.pid], kb)
        time.sleep(0.01)
    outs = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in [host, *joiners]]
    networked = time.perf_counter() - t0
    t0 = time.perf_counter()
    done = subprocess.run([*cli, "simulate", "petals", "--players", str(players), "--seed",
                           str(seed), "--json"], env=peer_env(), capture_output=True, text=True,
                          check=True)
    simulated = time.perf_counter() - t0
    expected = json.loads(done.stdout)["state_hash"]
    if {o["state_hash"] for o in outs} != {expected}:
        raise SystemExit(f"seed {seed}: the networked game differs from hedgerow simulate")
    return networked, simulated, list(peaks.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    tempfile.tempdir = tempfile.mkdtemp(prefix="hedgerow-bench-")
    ratios, ratios_hashed, net_ms, sim_ms, maxrss = [], [], [], [], []
    for _ in range(args.games):
        reports = play_game("petals", args.players)
        seed = bytes.fromhex(reports[0]["seed"])
        net = play_time(reports)
        alone, final = in_process(seed, args.players, hash_every_action=False)
        hashed, _ = in_process(seed, args.players, hash_every_action=True)
        if final != reports[0]["state_hash"]:
            raise SystemExit("the networked game differs from the in-process one")
        ratios.append(net / alone)
        ratios_hashed.append(net / hashed)
        net_ms.append(net * 1000)
        sim_ms.append(alone * 1000)
        maxrss += [r["maxrss_kb"] for r in reports]
    cmd_net, cmd_sim, peaks = [], [], []
    for seed in range(min(args.games, 5)):
        n, s, p = commands(seed, args.players)
        cmd_net.append(n)
        cmd_sim.append(s)
        peaks += p
    print(f"{args.games} Petals games, {args.players} bot peer processes on loopback, "
          f"{os.cpu_count()} cores")
    print(f"play time, networked: median {statistics.median(net_ms):.1f} ms; in one process: "
          f"{statistics.median(sim_ms):.2f} ms")
    print(f"  ratio networked / in-process: median {statistics.median(ratios):.1f}x "
          f"(goal <= 1.3x)")
    print(f"  ratio networked / in-process hashing every action: median "
          f"{statistics.median(ratios_hashed):.1f}x")
    print(f"whole commands (host + {args.players - 1} joins vs hedgerow simulate, same seeds): "
          f"median {statistics.median(cmd_net):.2f} s vs {statistics.median(cmd_sim):.2f} s = "
          f"{statistics.median(cmd_net) / statistics.median(cmd_sim):.1f}x")
    print(f"peak RSS of a bot peer: benchmark worker max {max(maxrss) / 1024:.1f} MiB; "
          f"`hedgerow join --bot random` max {max(peaks) / 1024:.1f} MiB (goal <= 60 MB)")


if __name__ == "__main__":
    main()
