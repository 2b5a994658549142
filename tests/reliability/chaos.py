"""Chaos trials: one complete networked bot game on a simulated LAN while a fault strikes.

`run_trial(game, players, fault, seed)` builds a `lan.Lan` with one host per seat, routes
every link through the fault proxy, seats a headless ``random`` bot peer on each host (real
processes, real ZeroMQ over CURVE, commit-reveal seed), injects ``fault`` at a point drawn
from ``seed``, and checks what must hold whatever happened:

* every peer ends with exit status 0 and the same final state hash;
* no acknowledged entry is lost: every peer's log verifies (``hedgerow replay --verify``)
  and holds every entry of the game;
* nobody waited out a give-up it did not need: no peer gave up, and the game took at most
  the fault's own length plus `SLACK` seconds more than the same game without it.

The faults (`FAULTS`): ``delay`` (100 ms ± 50 ms on every link, the whole game), ``cuts``
(a random connection reset every 0.3-1 s, the bots
slowed so that a game lasts a few dozen cuts), ``partition-5`` / ``partition-20`` (one peer
unplugged for 5 s / 20 s), ``kill`` (one peer SIGKILLed at a random action and resumed
with ``hedgerow resume``), ``kill-seeding`` (killed during seed agreement, before any log
exists, and joining again), ``kill-final`` (killed the moment it holds the result, and
resumed), ``stop`` (one peer SIGSTOPped for 10-30 s, then continued; ``shortest=True``
stops it for the shortest of these, `STOP_SECONDS`' low end, as the CI slice does).

Used by tests/reliability/test_chaos.py (a slice in CI) and ``python -m reliability.run
chaos`` (every game x every fault; docs/reliability.md).
"""

from __future__ import annotations

import random
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from e2e.helpers import PeerProcess, hedgerow, peer_env
from reliability.lan import Lan

FAULTS = ("none", "delay", "cuts", "partition-5", "partition-20", "kill", "kill-seeding",
          "kill-final", "stop")
BOT_DELAY = {"cuts": "0.3"}  # seconds a bot waits before each move (default 0.05)
SLACK = 45.0  # seconds a fault may add beyond its own length (reconnects, catching up)
TIMEOUT = 240.0  # no trial may take longer than this (then it failed)
GIVE_UP = 120.0  # a bot peer's give-up (clients/botrunner.py): a trial must never wait it out
STOP_SECONDS = (10.0, 30.0)  # how long ``stop`` holds a peer: drawn in this range


@dataclass
class TrialResult:
    """What one trial saw."""

    game: str
    players: int
    fault: str
    seed: int
    seconds: float = 0.0
    fault_seconds: float = 0.0  # how long the fault itself lasted
    hashes: list[str] = field(default_factory=list)
    actions: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: The end of what each peer wrote to stderr (with ``-v``: every action), by seat.
    stderr: list[str] = field(default_factory=list)

    @property
    def held(self) -> bool:
        """True when every check passed."""
        return not self.problems

    def said(self) -> str:
        """What every peer said last, to tell who waited for what in a trial that failed
        or took long."""
        return "\n".join(f"--- peer {i} stderr:\n{text}" for i, text in enumerate(self.stderr))

    def summary(self) -> str:
        """One line for a report."""
        verdict = "held" if self.held else "FAILED: " + "; ".join(self.problems)
        return (f"{self.game} x{self.players} {self.fault} seed {self.seed}: {verdict} "
                f"({self.actions} actions, {self.seconds:.1f} s"
                + (f", fault {self.fault_seconds:.1f} s" if self.fault_seconds else "") + ")")


def _action_at_least(index: int) -> Any:
    return lambda e: e.get("event") == "action" and e.get("index", -1) >= index


def typical_actions(game: str, players: int) -> int:
    """How many actions a game of random bots usually takes (one in-process game)."""
    from hedgerow.core.playout import play
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.core.seeding import seed_from_int

    plugins = PluginHost()
    table = play(plugins.ruleset(game, (), players), players, seed_from_int(0),
                 [plugins.bot("random")])
    return len(table.entries)


def run_trial(game: str, players: int, fault: str, seed: int, *,
              shortest: bool = False) -> TrialResult:
    """Play one game on a fresh LAN while ``fault`` strikes; see the module docstring
    (``shortest``: a fault of drawn length takes the shortest length of its kind)."""
    if fault not in FAULTS:
        raise ValueError(f"unknown fault {fault!r} (choose from {', '.join(FAULTS)})")
    rng = random.Random(f"{game}/{players}/{fault}/{seed}")
    result = TrialResult(game, players, fault, seed)
    started = time.monotonic()
    peers: list[PeerProcess] = []
    with Lan(players) as lan:
        for i in range(players):
            delay = (100.0, 50.0) if fault == "delay" else (0.0, 0.0)
            lan.proxy(i, delay_ms=delay[0], jitter_ms=delay[1], seed=rng.randrange(1 << 30))
        envs = [peer_env() for _ in range(players)]
        bot = ("--bot", "random", "--delay", BOT_DELAY.get(fault, "0.05"), "-v")  # -v: actions
        host = PeerProcess(["host", game, "--players", str(players), "--json", *bot],
                           envs[0], lan[0].prefix())
        peers.append(host)
        try:
            address = host.wait_event("open")["address"]
            for i in range(1, players):
                peers.append(PeerProcess(["join", address, "--json", *bot], envs[i],
                                         lan[i].prefix()))
            victim_seat = rng.randrange(1, players)  # a joiner (host faults: see notes)
            final = _strike(lan, peers, envs, bot, victim_seat, address, fault, rng,
                            typical_actions(game, players), result, shortest)
            check_finished(peers if final is None else final, envs, result)
        finally:
            for peer in peers:
                peer.stop()
            result.stderr = [peer.stderr[-6000:] for peer in peers]
    result.seconds = time.monotonic() - started
    return result


def _strike(lan: Lan, peers: list[PeerProcess], envs: list[dict[str, str]],
            bot: tuple[str, ...], victim: int,
            address: str, fault: str, rng: random.Random, typical: int,
            result: TrialResult, shortest: bool = False) -> list[PeerProcess] | None:
    """Inject the fault; the peers to check at the end when one was replaced."""
    at = rng.randrange(1, max(2, typical * 2 // 3))
    peer = peers[victim]
    if fault in ("none", "delay"):
        return None
    if fault == "cuts":
        stop = threading.Event()

        def cutter() -> None:
            while not stop.wait(rng.uniform(0.3, 1.0)):
                for host in rng.sample(range(len(peers)), len(peers)):
                    if lan.tell_proxy(host, "cut-random") == "ok":
                        break
        thread = threading.Thread(target=cutter, daemon=True)
        thread.start()
        try:
            peers[0].wait_event("result", timeout=TIMEOUT)
        except AssertionError as exc:  # what every peer said, to tell who waited for what
            said = "\n".join(f"--- peer {i} ({' '.join(p.args[:2])}) stderr:\n{p.stderr[-6000:]}"
                             for i, p in enumerate(peers))
            raise AssertionError(f"{exc}\n{said}") from None
        finally:
            stop.set()
            thread.join()
        result.notes.extend(lan.tell_proxy(i, "stats") for i in range(len(peers)))
        return None
    if fault.startswith("partition"):
        seconds = float(fault.split("-")[1])
        peer.wait_event(_action_at_least(at), timeout=TIMEOUT)
        lan.partition(victim)
        time.sleep(seconds)  # the fault's own length: the test is about what happens in it
        lan.heal(victim)
        result.fault_seconds = seconds
        return None
    if fault == "stop":
        seconds = STOP_SECONDS[0] if shortest else rng.uniform(*STOP_SECONDS)
        peer.wait_event(_action_at_least(at), timeout=TIMEOUT)
        peer.proc.send_signal(signal.SIGSTOP)
        time.sleep(seconds)
        peer.proc.send_signal(signal.SIGCONT)
        result.fault_seconds = seconds
        return None
    if fault == "kill-seeding":
        peer.wait_event("joined", timeout=TIMEOUT)
        peer.proc.send_signal(signal.SIGSTOP)  # hold it before it reveals its share
        peers[0].wait_event("seeding", timeout=TIMEOUT)
        peer.kill()
        again = PeerProcess(["join", address, "--json", *bot], envs[victim], lan[victim].prefix())
        peers.append(again)
        replaced = list(peers[:len(envs)])
        replaced[victim] = again
        return replaced
    # kill / kill-final: SIGKILL, then `hedgerow resume` from the victim's own log
    start = peer.wait_event("start", timeout=TIMEOUT)
    if fault == "kill":
        peer.wait_event(_action_at_least(at), timeout=TIMEOUT)
    else:
        peer.wait_event("result", timeout=TIMEOUT)
    peer.kill()
    back = PeerProcess(["resume", start["log"], "--json", *bot], envs[victim],
                       lan[victim].prefix())
    peers.append(back)
    replaced = list(peers[:len(envs)])
    replaced[victim] = back
    return replaced


def _finished(peer: PeerProcess) -> dict[str, Any] | None:
    """The peer's last ``result`` event, or the ``over`` event of a resume that found its
    game already finished in its log."""
    ends = [e for e in peer.events if e.get("event") in ("result", "over")]
    return ends[-1] if ends else None


def check_finished(peers: list[PeerProcess], envs: list[dict[str, str]],
                   result: TrialResult) -> None:
    """Every peer finished, with one hash, the same complete verified log and no give-up."""
    from hedgerow.net.logfile import read_log

    logs: list[tuple[int, str]] = []
    for seat, peer in enumerate(peers):
        try:
            code, _ = peer.finish(timeout=TIMEOUT)
        except AssertionError as exc:
            result.problems.append(f"seat {seat} did not finish: {str(exc)[-300:]}")
            continue
        final = _finished(peer)
        if code != 0 or final is None:
            result.problems.append(f"seat {seat} exited {code} with no result: "
                                   f"{''.join(peer.lines)[-400:]} {peer.stderr[-400:]}")
            continue
        if any(e.get("event") == "gave_up" for e in peer.events):
            result.problems.append(f"seat {seat} gave up")
        if "state_hash" in final:
            result.hashes.append(final["state_hash"])
        if not final.get("log") or not Path(final["log"]).exists():
            result.problems.append(f"seat {seat} names no log")
            continue
        logs.append((seat, final["log"]))
    if len(set(result.hashes)) > 1:
        result.problems.append(f"{len(set(result.hashes))} different final hashes")
    entries = {}
    for seat, log in logs:
        verified = hedgerow("replay", log, "--verify", env=envs[seat], timeout=120)
        if verified.returncode != 0:
            result.problems.append(f"seat {seat}'s log does not verify: "
                                   f"{(verified.stdout + verified.stderr)[-300:]}")
        entries[seat] = [e.entry for e in read_log(log).entries]
    if entries:
        result.actions = max(len(e) for e in entries.values())
        if len({repr(e) for e in entries.values()}) > 1:
            counts = {seat: len(e) for seat, e in entries.items()}
            result.problems.append(f"the logs differ (entries per seat: {counts})")


def needless_wait(result: TrialResult, baseline_seconds: float) -> str | None:
    """Why the trial took longer than its fault explains, or None."""
    allowed = baseline_seconds + result.fault_seconds + SLACK
    if result.seconds > allowed:
        return (f"took {result.seconds:.0f} s, more than the game without the fault "
                f"({baseline_seconds:.0f} s) + the fault ({result.fault_seconds:.0f} s) "
                f"+ {SLACK:.0f} s")
    return None
