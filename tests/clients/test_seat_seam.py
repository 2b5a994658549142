"""The seat is the whole seam between the network layer and its callers.

Outside net/ a seat is held only as a `hedgerow.net.seat.Seat`: no ``getattr``/``hasattr``
on it (what a network seat adds is declared in the protocol, with local forms in
`LocalSeat`), no seat typed ``Any``, and nothing imports the peer itself — the headless bot
runner included.  Checked by reading every module's syntax tree; and the bot runner plays a
`LocalSeat` to the end, through the protocol alone.
"""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path

import pytest

from hedgerow.clients.app.local import LocalSeat
from hedgerow.clients.botrunner import BotRunner
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.net.seat import Phase

ROOT = Path(__file__).resolve().parents[2]
#: Every folder whose code holds seats but is not the network layer.
OUTSIDE_NET = ("clients", "core", "plugins", "docs/examples")
#: A name that holds a seat (or a part of one): seat, peer, state.seat, self.departures...
SEATISH = re.compile(r"(?i)(seat|peer|depart)")
REFLECTION = ("getattr", "hasattr", "setattr", "delattr")
#: The peer and its insides: only net/ imports them.
PEER_MODULES = ("hedgerow.net.peer", "hedgerow.net.context", "hedgerow.net.sync",
                "hedgerow.net.startup", "hedgerow.net.seating", "hedgerow.net.returning")


def _mentions_any(annotation: ast.expr | None) -> bool:
    return annotation is not None and any(
        (isinstance(n, ast.Name) and n.id == "Any")
        or (isinstance(n, ast.Attribute) and n.attr == "Any")
        or (isinstance(n, ast.Constant) and isinstance(n.value, str) and "Any" in n.value)
        for n in ast.walk(annotation))


def _target_name(target: ast.expr) -> str:
    return target.attr if isinstance(target, ast.Attribute) else ast.unparse(target)


def reaches_past_the_seat(source: str) -> list[tuple[int, str]]:
    """Where ``source`` reflects on a seat, or types one ``Any``: (line, what)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in REFLECTION and node.args
                and SEATISH.search(ast.unparse(node.args[0]))):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.arg) and SEATISH.search(node.arg) and \
                _mentions_any(node.annotation):
            found.append((node.lineno, f"{node.arg}: {ast.unparse(node.annotation)}"))
        elif isinstance(node, ast.AnnAssign) and SEATISH.search(_target_name(node.target)) \
                and _mentions_any(node.annotation):
            found.append((node.lineno, ast.unparse(node).split("=")[0].strip()))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                SEATISH.search(node.name) and _mentions_any(node.returns):
            found.append((node.lineno, f"{node.name}() -> {ast.unparse(node.returns)}"))
    return sorted(found)


def peer_imports(source: str) -> list[tuple[int, str]]:
    """Where ``source`` imports the peer or one of its insides (or a name ``Peer``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name in PEER_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [f"{node.module}.{a.name}" for a in node.names]
            found += [(node.lineno, n) for n in [node.module, *names] if n in PEER_MODULES]
            found += [(node.lineno, f"{node.module}.Peer") for a in node.names
                      if a.name == "Peer"]
    return found


def _sources() -> list[Path]:
    return sorted(p for folder in OUTSIDE_NET for p in (ROOT / folder).rglob("*.py")
                  if not p.name.endswith("_pb2.py"))


def test_the_checks_catch_a_reach_past_the_seat() -> None:
    bad = (
        'address = getattr(seat, "address", "")\n'
        'if hasattr(state.seat, "host_gone"): pass\n'
        "def goodbye(peer: Any) -> None: ...\n"
        "async def open_peer() -> Any: ...\n"
        "x: dict[str, Any] = {}\n"
        "self.seat: Any = None\n"
        'events = getattr(self.departures, "events", None)\n'
    )
    assert [line for line, _ in reaches_past_the_seat(bad)] == [1, 2, 3, 4, 6, 7]
    fine = ('name = getattr(args, "as_name", None)\n'
            "def view(self, seat: int) -> Any: ...\n"
            "def open_peer(seat: Seat) -> Seat: ...\n")
    assert reaches_past_the_seat(fine) == []
    assert peer_imports("from hedgerow.net.peer import Peer\nimport hedgerow.net.sync\n"
                        "from hedgerow.net import startup\n") == [
        (1, "hedgerow.net.peer"), (1, "hedgerow.net.peer.Peer"), (2, "hedgerow.net.sync"),
        (3, "hedgerow.net.startup")]
    assert peer_imports("from hedgerow.net.seat import Seat\n") == []


def test_nothing_outside_net_reaches_past_the_seat() -> None:
    bad = [f"{path.relative_to(ROOT)}:{line}: {what}" for path in _sources()
           for line, what in reaches_past_the_seat(path.read_text())]
    assert not bad, "hold the seat as a hedgerow.net.seat.Seat:\n" + "\n".join(bad)


def test_nothing_outside_net_imports_the_peer() -> None:
    bad = [f"{path.relative_to(ROOT)}:{line} imports {name}" for path in _sources()
           for line, name in peer_imports(path.read_text())]
    assert not bad, "\n".join(bad)


def test_the_bot_runner_holds_only_the_seat() -> None:
    source = (ROOT / "clients" / "botrunner.py").read_text()
    assert peer_imports(source) == []
    assert reaches_past_the_seat(source) == []
    assert not (ROOT / "net" / "botrunner.py").exists()  # it lives with the clients (README)


@pytest.mark.parametrize("game", ["petals", "flourish"])  # (flourish: simultaneous steps)
def test_the_bot_runner_plays_a_local_seat_through_the_protocol(game: str) -> None:
    """A `LocalSeat` is a whole `Seat`: the headless runner plays it to the end, the local
    forms standing in for what only a network seat has."""
    plugins = PluginHost(autoload=False)
    random = plugins.bot("random", game)

    async def main() -> int:
        seat = LocalSeat(plugins.ruleset(game, players=2), 2, seed_from_int(3),
                         bots=[random], name="Ann")
        try:
            return await asyncio.wait_for(BotRunner(seat, random, give_up=5.0).run(), 60)
        finally:
            assert seat.phase() == Phase.FINISHED and seat.outcome() is not None
            await seat.close()

    assert asyncio.run(main()) == 0
