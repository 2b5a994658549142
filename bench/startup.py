"""Start-up time of ``hedgerow --help`` and ``hedgerow games``, next to a bare interpreter.

Each command is run as a fresh process, repeatedly and interleaved; the median wall time
is reported with the bare ``python -c pass`` start-up measured in the same run.

    python bench/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "python -c pass (baseline)": [sys.executable, "-c", "pass"],
    "hedgerow --help": [sys.executable, "-m", "hedgerow.clients.cli", "--help"],
    "hedgerow games": [sys.executable, "-m", "hedgerow.clients.cli", "games"],
}
GOALS = {"hedgerow --help": 0.25, "hedgerow games": 0.5}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.runs):
        for name, cmd in COMMANDS.items():
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - t0)
    base = statistics.median(times["python -c pass (baseline)"])
    for name, ts in times.items():
        med = statistics.median(ts)
        goal = f"  goal <= {GOALS[name]:.2f} s" if name in GOALS else ""
        print(f"{name:<28} median {med * 1000:7.1f} ms  ({med / base:4.1f}x baseline){goal}")


if __name__ == "__main__":
    main()
