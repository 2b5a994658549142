"""The sealed deck's cost: the deal, a card drawn or played, the end-of-game verification.

The game is FLOWERS at 4 players, the only deck of 108 cards: the whole deck is shuffled
(entry #0: one shuffle of 108, then a pick of the first player), each seat's start card and
the tops of the two face-up stacks are shown to everyone, the face-down stack stays sealed.
Everything below is measured in one run, the sealed and the open-deck games taking turns:

1. **The deal.**
   * *curve operations alone* (this process): masking 4 x 108 card points twice, i.e. the
     four lock passes and the four rekey passes of a 4-party shuffle
     (`mentalpoker.shuffle_all`, commitments included), wall and CPU time;
   * *the whole sealed deal in one process*: four peers' `Sealing`s exchanging the real
     sealed messages in memory (the escrow, every pass, every receiver's check of every
     pass, the cards shown to all: tests/sealnet.py), CPU time: the deal without sockets;
   * *real peers*: four bot peer processes (`bench/netpeer.py`, the production code path,
     CURVE on 127.0.0.1) from the seed agreed (the first peer to build its table) to every
     seat ready with its opening cards (the last peer to be ready: its cards open, nothing
     held), sealed against an open deck in the same run; and each peer's CPU time over
     that span.
2. **A card drawn or played**: for each action, from its author's submit to the state after
   it settled on every peer (the last peer ready again: the cards it shows open), by kind:
   a planting from a face-up stack (the stack's next card is then shown to all), a take
   from the face-down stack (the card is shown to its taker), the planting of that card
   (its keys travel with the action).  The extra latency over the open deck's same kind of
   action, in raw pyzmq CURVE round trips (`bench/net_latency.py`'s baseline, measured
   before and after the games).
3. **The end-of-game verification**: `Sealing.verdict` (every pass redone from the disclosed
   secrets, every card opened, the game replayed open) as each peer ran it, wall and CPU;
   the last action to the last peer's verdict (the disclosure round included); and
   ``hedgerow replay LOG --verify`` on a sealed log against the same command on an open-deck
   log of the same run (whole commands with bytecode cached, and the replay alone in this
   process).

    python bench/sealed_deck.py [--games 10] [--rounds 9]

Wall times on a shared machine mostly measure waiting for a core; CPU times stay put.  Both
are printed: median and spread (min-max, or p25-p75 for the many actions).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))  # sealnet: a sealed table in one process

from net_latency import play_game, round_trips  # noqa: E402

GAME, PLAYERS, CARDS = "flowers", 4, 108
TABLE_ID = bytes(range(16))
#: FLOWERS' stacks: A and B face up, C face down.
FACE_DOWN = "2"


# -- 1. the deal in this process --------------------------------------------------------------


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """(wall ms, CPU ms) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def in_process(rounds: int) -> dict[str, list[tuple[float, float]]]:
    """The curve operations of a 4-party shuffle of 108, one receiver's checks of its passes,
    and a whole sealed deal of four `Sealing`s in memory: (wall, CPU) per round."""
    from sealnet import LocalTable

    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.net import mentalpoker as mp

    ruleset = PluginHost().ruleset(GAME, (), PLAYERS)
    items = [mp.Item(mp.card_point(TABLE_ID, 0, 0, j)) for j in range(CARDS)]
    steps = mp.shuffle_all([mp.PeerSecret(bytes([p + 1]) * 32) for p in range(PLAYERS)],
                           0, 0, items)
    out: dict[str, list[tuple[float, float]]] = {"mask": [], "check": [], "deal": []}
    def check() -> None:
        for step in steps:
            mp.check_step(step, CARDS)

    for r in range(rounds):
        secrets = [mp.PeerSecret(bytes([p + 1, r % 256]) * 16) for p in range(PLAYERS)]
        out["mask"].append(timed(partial(mp.shuffle_all, secrets, 0, 0, items)))
        out["check"].append(timed(check))
        out["deal"].append(timed(partial(LocalTable, ruleset, PLAYERS, r)))
    return out


# -- 2. real peers ----------------------------------------------------------------------------


def deal_ms(reports: Sequence[dict[str, Any]]) -> float:
    """The seed agreed (first peer) -> every seat ready (last peer), in ms."""
    return (max(r["ready"] for r in reports) - min(r["seeded"] for r in reports)) / 1e6


def deal_phases(reports: Sequence[dict[str, Any]]) -> tuple[float, float, float, list[float]]:
    """A sealed deal in parts, in ms: the seed agreed -> the first pass made (the Start and the
    escrow rounds), -> the last pass received by the last peer (every pass), -> every seat
    ready (the cards shown to all opened); and the time from one party's pass made to the
    next's, for each pass after the first."""
    made: dict[tuple[str, int], int] = {}
    last: dict[tuple[str, int], int] = {}  # the last peer's first arrival
    for r in reports:
        arrived: dict[tuple[str, int], int] = {}
        for phase, party, what, ns in r["passes"]:
            if what == "made":
                made.setdefault((phase, party), ns)
            else:
                arrived.setdefault((phase, party), ns)
        for slot, ns in arrived.items():
            last[slot] = max(last.get(slot, 0), ns)
    order = sorted(made, key=made.__getitem__)
    seed = min(r["seeded"] for r in reports)
    begun, done = made[order[0]], max(last[order[-1]], made[order[-1]])
    gaps = [(made[b] - made[a]) / 1e6 for a, b in pairwise(order)]
    return ((begun - seed) / 1e6, (done - begun) / 1e6,
            (max(r["ready"] for r in reports) - done) / 1e6, gaps)


def deal_cpu_ms(reports: Sequence[dict[str, Any]]) -> list[float]:
    """Each peer's CPU time from its seed agreed to its seat ready, in ms."""
    return [(r["cpu_ns"]["ready"] - r["cpu_ns"]["seeded"]) / 1e6 for r in reports]


def play_cpu_us(reports: Sequence[dict[str, Any]]) -> list[float]:
    """Each peer's CPU time per entry once play began (its seat ready to the end, less the
    end-of-game verification), in microseconds."""
    out = []
    for r in reports:
        verdict = sum(v["cpu_ns"] for v in r["verdicts"])
        spent = r["cpu_ns"]["finished"] - r["cpu_ns"]["ready"] - verdict
        out.append(spent / 1000 / max(1, len(r["applied"]) - 1))
    return out


def fsyncs(reports: Sequence[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """(fsyncs per peer per game, wall ms of each fsync)."""
    return ([len(r["fsync_ns"]) for r in reports],
            [ns / 1e6 for r in reports for ns in r["fsync_ns"]])


def kind_of(actions: dict[str, list[Any]], index: str) -> str:
    """What FLOWERS action ``index`` was (see the module docstring)."""
    _seat, kind, stack = actions[index]
    if kind == "take":
        return "take"
    return "plant drawn" if stack == FACE_DOWN else "plant face-up"


def card_latencies(reports: Sequence[dict[str, Any]]) -> dict[str, list[float]]:
    """Microseconds from an action's submit to its state settled on every peer, and to it
    applied on every peer, by kind (``settled:KIND``, ``applied:KIND``)."""
    out: dict[str, list[float]] = {}
    actions = reports[0]["actions"]
    for report in reports:
        for index, t0 in report["submitted"].items():
            if not all(index in r["settled"] for r in reports):
                continue  # (the last action: the game over, no seat waits)
            kind = kind_of(actions, index)
            settled = max(r["settled"][index] for r in reports)
            applied = max(r["applied"][index] for r in reports)
            out.setdefault(f"settled:{kind}", []).append((settled - t0) / 1000)
            out.setdefault(f"applied:{kind}", []).append((applied - t0) / 1000)
    return out


def verification(reports: Sequence[dict[str, Any]]) -> tuple[list[float], list[float], float]:
    """(`Sealing.verdict` wall ms per peer, its CPU ms per peer, the last action applied on
    the last peer -> the last peer's verdict in ms)."""
    verdicts = [r["verdicts"][-1] for r in reports]
    if not all(v["ok"] for v in verdicts):
        raise SystemExit(f"a sealed game did not verify: {verdicts}")
    last = str(max(int(i) for i in reports[0]["applied"]))
    end = max(r["applied"][last] for r in reports)
    return ([v["wall_ns"] / 1e6 for v in verdicts], [v["cpu_ns"] / 1e6 for v in verdicts],
            (max(v["at"] for v in verdicts) - end) / 1e6)


def replay_command(log: str) -> float:
    """Wall ms of ``hedgerow replay LOG --verify --json`` (a fresh process), checked ok."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "replay", log,
                           "--verify", "--json"], capture_output=True, text=True)
    wall = (time.perf_counter() - t0) * 1000
    if done.returncode != 0:
        raise SystemExit(f"hedgerow replay --verify failed on {log}: {done.stdout}")
    return wall


def replay_here(log: str) -> tuple[float, float]:
    """(wall, CPU) ms of reading and verifying the log in this process (`logverify.replay`),
    the rules already loaded."""
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.net.logfile import read_log
    from hedgerow.net.logverify import replay

    ruleset = PluginHost().ruleset(GAME, (), PLAYERS)
    found: list[Any] = []
    times = timed(lambda: found.append(replay(ruleset, read_log(log))))
    report = found[0]
    if report.mismatch is not None or (report.verdict is not None and not report.verdict.ok):
        raise SystemExit(f"{log} does not verify in this process")
    return times


# -- printing ---------------------------------------------------------------------------------


def spread(values: Sequence[float], fmt: str = "{:.0f}") -> str:
    """The median, and min-max (or p25-p75 for more than 20 values)."""
    ordered = sorted(values)
    med = fmt.format(statistics.median(ordered))
    if len(ordered) > 20:
        lo, hi = ordered[len(ordered) // 4], ordered[(3 * len(ordered)) // 4]
        return f"{med} (p25-p75 {fmt.format(lo)}-{fmt.format(hi)}, n={len(ordered)})"
    return f"{med} ({fmt.format(ordered[0])}-{fmt.format(ordered[-1])}, n={len(ordered)})"


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games of each deck")
    parser.add_argument("--rounds", type=int, default=9, help="rounds of the in-process part")
    args = parser.parse_args()
    # Peers and commands start with bytecode cached (as an installed copy does), so their
    # start-up compiles nothing; none of it is inside a measured span but the replay command.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="hedgerow-bench-pyc-")
    tempfile.tempdir = tempfile.mkdtemp(prefix="hedgerow-bench-")
    print(f"FLOWERS, {PLAYERS} players, {CARDS} cards; {os.cpu_count()} cores; "
          f"load average at the start {load()}", flush=True)

    here = in_process(args.rounds)
    rtt = round_trips(True, 1000)
    deals: dict[bool, list[float]] = {True: [], False: []}
    deal_cpu: dict[bool, list[float]] = {True: [], False: []}
    cards: dict[bool, dict[str, list[float]]] = {True: {}, False: {}}
    per_entry: dict[bool, list[float]] = {True: [], False: []}
    phases: list[tuple[float, float, float]] = []
    gaps: list[float] = []
    syncs: dict[bool, list[float]] = {True: [], False: []}
    sync_ms: dict[bool, list[float]] = {True: [], False: []}
    verdict_wall: list[float] = []
    verdict_cpu: list[float] = []
    to_verdict: list[float] = []
    logs: dict[bool, list[str]] = {True: [], False: []}
    for game in range(args.games):
        for sealed in ((True, False) if game % 2 == 0 else (False, True)):
            reports = play_game(GAME, PLAYERS, sealed=sealed)
            if any(r["sealed"] != sealed for r in reports):
                raise SystemExit("a table was not the deck it was asked to be")
            deals[sealed].append(deal_ms(reports))
            deal_cpu[sealed] += deal_cpu_ms(reports)
            per_entry[sealed] += play_cpu_us(reports)
            count, each = fsyncs(reports)
            syncs[sealed] += count
            sync_ms[sealed] += each
            for kind, values in card_latencies(reports).items():
                cards[sealed].setdefault(kind, []).extend(values)
            logs[sealed].append(reports[0]["log"])
            if sealed:
                *parts, between = deal_phases(reports)
                phases.append((parts[0], parts[1], parts[2]))
                gaps += between
                wall, cpu, end = verification(reports)
                verdict_wall += wall
                verdict_cpu += cpu
                to_verdict.append(end)
        print(f"  game {game + 1} of {args.games}: load {load()}", file=sys.stderr, flush=True)
    rtt += round_trips(True, 1000)
    replays: dict[bool, list[float]] = {True: [], False: []}
    replays_here: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for sealed_log, open_log in zip(logs[True], logs[False], strict=True):
        for sealed, log in ((True, sealed_log), (False, open_log)):
            replays[sealed].append(replay_command(log))
            replays_here[sealed].append(replay_here(log))

    rtt_ms = statistics.median(rtt) / 1000
    print(f"load average at the end {load()}")
    print(f"raw pyzmq round trip, CURVE: {spread([x / 1000 for x in rtt], '{:.2f}')} ms")
    print("\n1. Shuffle and deal, 4 parties, 108 cards (ms; median (min-max))")
    print(f"  curve operations alone, masking 4 x 108 twice: wall "
          f"{spread([w for w, _ in here['mask']])}, CPU {spread([c for _, c in here['mask']])}")
    print(f"  checking the 8 passes once (a receiver checks 6): wall "
          f"{spread([w for w, _ in here['check']])}, CPU {spread([c for _, c in here['check']])}")
    print(f"  whole sealed deal, 4 Sealings in one process: wall "
          f"{spread([w for w, _ in here['deal']])}, CPU {spread([c for _, c in here['deal']])}")
    med_sealed, med_open = statistics.median(deals[True]), statistics.median(deals[False])
    print(f"  real peers, seed agreed -> every seat ready: sealed {spread(deals[True])}; "
          f"open deck {spread(deals[False], '{:.1f}')}")
    print(f"    sealed / open: {med_sealed / med_open:.0f}x; sealed - open = "
          f"{med_sealed - med_open:.0f} ms = {(med_sealed - med_open) / rtt_ms:.0f} CURVE round "
          f"trips (goal: sealed <= 1000 ms)")
    print(f"    sealed, in parts: Start and escrow {spread([a for a, _, _ in phases])}; the 8 "
          f"passes {spread([b for _, b, _ in phases])}; the cards shown to all "
          f"{spread([c for _, _, c in phases])}")
    print(f"    one pass made -> the next party's made: {spread(gaps, '{:.1f}')}")
    print(f"    CPU of each peer over that span: sealed {spread(deal_cpu[True])}; open "
          f"{spread(deal_cpu[False], '{:.1f}')}")
    print("\n2. A card drawn or played: submit -> settled on every peer (us; median "
          "(p25-p75))")
    for kind in ("plant face-up", "take", "plant drawn"):
        for what in ("settled", "applied"):
            s = cards[True].get(f"{what}:{kind}", [])
            o = cards[False].get(f"{what}:{kind}", [])
            if not s or not o:
                print(f"  {what} {kind}: too few (sealed {len(s)}, open {len(o)})")
                continue
            extra = (statistics.median(s) - statistics.median(o)) / 1000
            print(f"  {what + ', ' + kind:24} sealed {spread(s)}\n{'':26} open   {spread(o)}\n"
                  f"{'':26} extra {extra:.2f} ms = {extra / rtt_ms:.2f} CURVE round trips"
                  + (" (goal <= 1)" if what == "settled" else ""))
    print(f"  CPU per entry of each peer during play: sealed {spread(per_entry[True])} us; "
          f"open {spread(per_entry[False])} us")
    print(f"  fsyncs per peer and game: sealed {spread(syncs[True])}, open "
          f"{spread(syncs[False])}; one fsync: sealed {spread(sync_ms[True], '{:.1f}')} ms, "
          f"open {spread(sync_ms[False], '{:.1f}')} ms")
    print("\n3. End-of-game verification (ms; median (min-max))")
    print(f"  Sealing.verdict in each peer: wall {spread(verdict_wall)}, CPU "
          f"{spread(verdict_cpu)} (goal < 1000)")
    print(f"  last action applied -> last peer's verdict: {spread(to_verdict)}")
    print(f"  hedgerow replay --verify, whole command: sealed {spread(replays[True])}; open "
          f"{spread(replays[False])}; ratio "
          f"{statistics.median(replays[True]) / statistics.median(replays[False]):.1f}x")
    print(f"  ... the replay alone in this process: sealed wall "
          f"{spread([w for w, _ in replays_here[True]])}, CPU "
          f"{spread([c for _, c in replays_here[True]])}; open wall "
          f"{spread([w for w, _ in replays_here[False]], '{:.1f}')}, CPU "
          f"{spread([c for _, c in replays_here[False]], '{:.1f}')}")


if __name__ == "__main__":
    main()
