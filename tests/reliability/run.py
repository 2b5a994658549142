"""The large reliability runs, one command each (docs/reliability.md).

    cd tests
    python -m reliability.run chaos [--games petals,...] [--faults kill,...] [--seeds N]
    python -m reliability.run fuzz [--inputs 100000] [--seed S]
    python -m reliability.damage [GAME ...] [--live]     # damaged logs
    python -m reliability.soak ...                        # soak (see its --help)

Each prints one line per trial as it goes and a summary at the end, and exits 1 when
anything failed.
"""

from __future__ import annotations

import argparse
import json
import sys

#: Each game at the player count its chaos trials use (one host namespace per seat).
CHAOS_TABLES = {"petals": 3, "flowers": 2, "mandala": 2, "flourish": 3}


def _chaos(args: argparse.Namespace) -> int:
    from reliability.chaos import FAULTS, run_trial

    games = args.games.split(",") if args.games else list(CHAOS_TABLES)
    faults = args.faults.split(",") if args.faults else list(FAULTS)
    failed = 0
    for seed in range(1, args.seeds + 1):
        for game in games:
            for fault in faults:
                result = run_trial(game, CHAOS_TABLES[game], fault, seed)
                failed += not result.held
                print(result.summary(), flush=True)
    total = args.seeds * len(games) * len(faults)
    print(f"{total - failed} of {total} trials held")
    return 1 if failed else 0


def _fuzz(args: argparse.Namespace) -> int:
    from reliability.fuzz import run_fuzz

    report = run_fuzz(args.inputs, args.seed)
    print(json.dumps(report, indent=2))
    return 1 if report["problems"] else 0


def main(argv: list[str] | None = None) -> int:
    """Run one large reliability run; the exit status says whether everything held."""
    parser = argparse.ArgumentParser(prog="python -m reliability.run")
    sub = parser.add_subparsers(dest="what", required=True)
    chaos = sub.add_parser("chaos", help="every game x every fault on a simulated LAN")
    chaos.add_argument("--games", default="", help="comma separated (default: all four)")
    chaos.add_argument("--faults", default="", help="comma separated (default: all)")
    chaos.add_argument("--seeds", type=int, default=1, help="trials per cell (default 1)")
    fuzz = sub.add_parser("fuzz", help="a seated rogue fuzzes a live table")
    fuzz.add_argument("--inputs", type=int, default=100_000)
    fuzz.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return _chaos(args) if args.what == "chaos" else _fuzz(args)


if __name__ == "__main__":
    sys.exit(main())
