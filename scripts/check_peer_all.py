"""The full run of ``hedgerow check-peer`` against our own peer: every game, open and sealed,
in both modes (``host``: our ``hedgerow host --bot random`` checked by ``check-peer host``;
``join``: ``check-peer join`` checking our ``hedgerow join --bot random``), the agreed end
at a table of three in both modes (``host3``: our host's open table of 3 seats, the
checker in two; ``join3``: ``check-peer join --players 3``), and at sealed tables each
hostile fault (``--halt``) in both modes.  Each run checks the peer's log file too
(``--log``).  Prints one line a run and a summary a game (runs, scenarios, passed, failed
or skipped, did not apply, seconds), and exits 1 if any run did not conform.

    python scripts/check_peer_all.py                   # everything (about 40 minutes)
    python scripts/check_peer_all.py --games petals --no-halts
    python scripts/check_peer_all.py --no-plain --no-halts      # the agreed ends only
    python scripts/check_peer_all.py --halts-only --keep /tmp/reports

docs/check-peer.md has the figures of a full run.  Run it under ``nice``: every run is two
processes, and the games are played one after another.  ``--keep DIR`` writes the JSON
report of each run that did not conform there.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Each game: (the name check-peer join takes, extra arguments for both sides).
GAMES: dict[str, list[str]] = {
    "petals": [],
    "flowers": [],
    "mandala": [],
    "mandala-draw-four": ["--variant", "draw-four"],
    "flourish": [],
    "goofspiel": [],
}
HALTS = ("bad-shuffle", "wrong-key", "unheld-card", "bad-disclosure")


@dataclass
class Tally:
    """One game's runs."""

    runs: int = 0
    conform: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("pass", "fail", "skip", "n/a"), 0))
    seconds: float = 0.0


def env_for(home: Path, game: str) -> dict[str, str]:
    env = dict(os.environ)
    env["HEDGEROW_HOME"] = str(home)
    env["HEDGEROW_NO_DISCOVERY"] = "1"
    env.pop("HEDGEROW_PLUGINS", None)
    if game == "goofspiel":  # docs/examples/goofspiel.py, a game plugin both sides load
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "docs" / "examples"),
                                             env.get("PYTHONPATH", "")])
        env["HEDGEROW_PLUGINS"] = "goofspiel"
    return env


def hedgerow(args: list[str], env: dict[str, str], **kw: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "hedgerow.clients.cli", *args], env=env,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            **kw)  # type: ignore[call-overload]


def first_event(proc: subprocess.Popen[str], name: str) -> dict[str, object]:
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("{"):
            event = json.loads(line)
            if event.get("event") == name:
                return event
    raise RuntimeError(f"no {name!r} event")


def one_run(game: str, extra: list[str], mode: str, deck: str, halt: str,
            timeout: float) -> dict[str, object]:
    """One check-peer run against our peer; its JSON report.  ``mode`` ``join3``: the
    checker's table of three (``--players 3``), where the table agrees to end the game;
    ``host3``: our host's table of three, the checker in two of its seats, the same."""
    name = "mandala" if game.startswith("mandala") else game
    with tempfile.TemporaryDirectory(prefix="hedgerow-check-all-") as tmp:
        peer_home, checker_home = Path(tmp) / "peer", Path(tmp) / "checker"
        opts = ["--timeout", str(timeout), "--log", str(peer_home / "logs"), "--json"]
        if halt:
            opts += ["--halt", halt]
        open_deck = ["--open-deck"] if deck == "open" else []
        procs: list[subprocess.Popen[str]] = []
        try:
            if mode.startswith("host"):
                # (At a table of three our host, seat 0, would seat a bot for the departed
                # seat 2 once it waited 3 s, and the checker's seat 1 asks for the end first.)
                seats = (["--players", "3", "--take-over-after", "3"] if mode == "host3"
                         else ["--players", "2"])
                peer = hedgerow(["host", name, *seats, "--bind", "127.0.0.1",
                                 "--bot", "random", "--json", *open_deck, *extra],
                                env_for(peer_home, game))
                procs.append(peer)
                address = str(first_event(peer, "open")["address"])
                checker = hedgerow(["check-peer", "host", address, *opts],
                                   env_for(checker_home, game))
            else:
                three = ["--players", "3"] if mode == "join3" else []
                checker = hedgerow(["check-peer", "join", name, "--bind", "127.0.0.1", *three,
                                    *open_deck, *extra, *opts], env_for(checker_home, game))
                procs.append(checker)
                address = str(first_event(checker, "open")["address"])
                # (At a table of three our peer, seat 1, waits for a departed seat: the
                # lowest remaining seat, the checker's, would propose a takeover.)
                wait = ["--take-over-after", "3"] if three else []
                procs.append(hedgerow(["join", address, "--bot", "random", "--json", *wait],
                                      env_for(peer_home, game)))
            out, _ = checker.communicate(timeout=1800)
            lines = out.strip().splitlines()
            if not lines or not lines[-1].startswith("{"):
                raise RuntimeError(f"check-peer exited {checker.returncode} with no report")
            return json.loads(lines[-1])
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--no-halts", action="store_true", help="no --halt runs")
    parser.add_argument("--halts-only", action="store_true",
                        help="only the --halt runs (no whole games)")
    parser.add_argument("--no-plain", action="store_true",
                        help="no whole games at tables of two (only --halt and agreed-end runs)")
    parser.add_argument("--no-ends", action="store_true",
                        help="no agreed-end runs (check-peer join --players 3)")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="write the JSON report of every run that did not conform here")
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    ok = True
    tallies: dict[str, Tally] = {}
    for game in args.games:
        tally = tallies[game] = Tally()
        runs = [] if args.halts_only or args.no_plain else [
            (mode, deck, "") for deck in ("open", "sealed") for mode in ("host", "join")]
        if not (args.halts_only or args.no_ends):
            runs += [("host3", "open", ""), ("join3", "open", "")]
        if not args.no_halts:
            runs += [(mode, "sealed", halt) for halt in HALTS for mode in ("host", "join")]
        for mode, deck, halt in runs:
            start = time.monotonic()
            label = f"{game} {mode} {deck}" + (f" --halt {halt}" if halt else "")
            try:
                report = one_run(game, GAMES[game], mode, deck, halt, args.timeout)
            except (RuntimeError, ValueError, subprocess.TimeoutExpired) as exc:
                print(f"{label:<42} did not run: {exc}", flush=True)
                tally.runs += 1
                ok = False
                continue
            took = time.monotonic() - start
            counts = report["counts"]
            assert isinstance(counts, dict)
            tally.runs += 1
            tally.conform += bool(report["passed"])
            tally.seconds += took
            for key in tally.counts:
                tally.counts[key] += counts[key]
            ok = ok and bool(report["passed"])
            if args.keep is not None and not report["passed"]:
                args.keep.mkdir(parents=True, exist_ok=True)
                name = label.replace(" --halt ", "-").replace(" ", "-") + ".json"
                (args.keep / name).write_text(json.dumps(report, indent=1))
            bad = [r["name"] for r in report["results"]  # type: ignore[attr-defined]
                   if r["verdict"] in ("fail", "skip")]
            halted = [f"{r['verdict']}: {r['summary']}"  # the fault's own verdict
                      for r in report["results"]  # type: ignore[attr-defined]
                      if r["name"] == f"halt-{halt}" and r["verdict"] != "fail"]
            print(f"{label:<42} {sum(counts.values()):3} scenarios: {counts['pass']:3} pass "
                  f"{counts['n/a']:3} n/a {counts['fail'] + counts['skip']:2} not  "
                  f"{took:6.1f} s" + (f"  {' '.join(bad)}" if bad else "")
                  + (f"  ({halted[0]})" if halted else ""), flush=True)
    print()
    print(f"{'game':<18} {'runs':>4} {'conform':>7} {'scenarios':>9} {'pass':>5} {'n/a':>4} "
          f"{'fail/skip':>9} {'seconds':>8}")
    for game, t in tallies.items():
        c = t.counts
        print(f"{game:<18} {t.runs:4} {t.conform:7} {sum(c.values()):9} {c['pass']:5} "
              f"{c['n/a']:4} {c['fail'] + c['skip']:9} {t.seconds:8.0f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
