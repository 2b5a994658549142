"""Start-up time of ``hedgerow --help`` and ``hedgerow games``, next to a bare interpreter.

Each command is run as a fresh process, repeatedly, every command and setting taking turns
within each round; the median is reported with the bare ``python -c pass`` start-up
measured in the same run, and the ratio to it.

Two figures per command:

* **CPU** (user + system time of the child process): what the start-up costs, and the
  figure that stays put on a shared machine, where wall time mostly measures waiting for a
  core.  The ratios to read.
* **wall** time: what a person waits for, on a quiet machine about the CPU time.

And two bytecode settings:

* ``cached``: compiled modules are cached, as in an installed copy (pip compiles every
  module when it installs) or an editable one whose ``__pycache__`` folders can be written.
  Here the cache goes to a temporary ``PYTHONPYCACHEPREFIX``, filled by one untimed run of
  each command first, so the source tree stays clean.
* ``compiling``: ``PYTHONDONTWRITEBYTECODE=1`` and no cache, so every start compiles each
  Hedgerow module it imports (the standard library and installed dependencies keep their
  own cached bytecode).  The shared development machine runs with that variable set.

``--python LABEL=PATH`` (repeatable) times another interpreter too, e.g. the venv of a
checkout of the previous commit, for a before/after comparison in one run::

    python bench/startup.py --runs 21 --python before=/tmp/before/.venv/bin/python
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS: dict[str, list[str]] = {
    "hedgerow --help": ["-m", "hedgerow.clients.cli", "--help"],
    "hedgerow games": ["-m", "hedgerow.clients.cli", "games"],
}
BASELINE = "python -c pass"
GOAL_RATIO = {"hedgerow games": 4.0}


def _env(setting: str, prefix: str) -> dict[str, str]:
    env = dict(os.environ)
    if setting == "cached":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = prefix
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each (default 15)")
    parser.add_argument("--python", action="append", default=[], metavar="LABEL=PATH",
                        help="also time the interpreter PATH (its installed hedgerow)")
    parser.add_argument("--setting", choices=("cached", "compiling", "both"), default="both",
                        help="bytecode setting(s) to time (default both)")
    args = parser.parse_args()
    pythons = {"": sys.executable}
    for item in args.python:
        label, sep, path = item.partition("=")
        if not sep or not label or not path:
            parser.error(f"--python wants LABEL=PATH, not {item!r}")
        pythons[label] = path
    settings = ("cached", "compiling") if args.setting == "both" else (args.setting,)

    with tempfile.TemporaryDirectory(prefix="hedgerow-startup-pyc-") as prefix:
        cases: dict[tuple[str, str], tuple[list[str], dict[str, str]]] = {}
        for setting in settings:
            env = _env(setting, prefix)
            cases[(setting, BASELINE)] = ([sys.executable, "-c", "pass"], env)
            for label, python in pythons.items():
                for name, argv in COMMANDS.items():
                    shown = f"{name} ({label})" if label else name
                    cases[(setting, shown)] = ([python, *argv], env)
        for cmd, env in cases.values():  # fill the bytecode cache; check every command runs
            _run(cmd, env)
        times: dict[tuple[str, str], list[tuple[float, float]]] = {k: [] for k in cases}
        for _ in range(args.runs):
            for key, (cmd, env) in cases.items():
                times[key].append(_run(cmd, env))

    print(f"median of {args.runs} runs; ratios to `{BASELINE}` in the same setting")
    for setting in settings:
        wall0 = statistics.median(w for w, _ in times[(setting, BASELINE)])
        cpu0 = statistics.median(c for _, c in times[(setting, BASELINE)])
        print(f"\nbytecode {setting}")
        print(f"  {'':<34} {'CPU':>8} {'ratio':>6}   {'wall':>8} {'ratio':>6}")
        for (s, name), runs in times.items():
            if s != setting:
                continue
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            goal = next((f"  goal <= {g:.0f}x" for k, g in GOAL_RATIO.items()
                         if name.startswith(k)), "")
            print(f"  {name:<34} {cpu * 1000:6.1f}ms {cpu / cpu0:5.1f}x"
                  f"   {wall * 1000:6.1f}ms {wall / wall0:5.1f}x{goal}")


if __name__ == "__main__":
    main()
