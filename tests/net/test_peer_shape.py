"""The peer's phases meet at seams the type checker sees.

The table's phase changes in one place (`PeerContext.enter`, along `MOVES`): no phase
object assigns it.  Handlers get their message body typed (`hedgerow.net.dispatch`): no
module in net/ casts one.  No phase takes the whole `PeerContext`: each names what it
reads and writes as a protocol of its own (mypy checks that the context is each of them).
All read from every module's syntax tree.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hedgerow.net.context import MOVES, PeerContext
from hedgerow.net.keys import generate
from hedgerow.net.seat import Phase

NET = Path(__file__).resolve().parents[2] / "net"


def phase_writes(source: str) -> list[tuple[int, str]]:
    """Assignments to an attribute ``phase`` or ``_phase``: (line, target)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets = (node.targets if isinstance(node, ast.Assign) else
                   [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr in ("phase", "_phase"):
                    found.append((node.lineno, ast.unparse(part)))
    return found


def body_casts(source: str) -> list[tuple[int, str]]:
    """Calls of ``cast`` (or ``typing.cast``) on anything that names a message body."""
    return [(node.lineno, ast.unparse(node)) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and ast.unparse(node.func) in ("cast", "typing.cast")
            and any("body" in ast.unparse(arg) for arg in node.args[1:])]


def test_the_checks_catch_a_phase_assigned_and_a_body_cast() -> None:
    source = ("ctx.phase = Phase.PLAYING\nself.ctx._phase = x\nphase = 1\n"
              "body = cast(SeatMotion, env.body)\nn = cast(int, value)\n")
    assert phase_writes(source) == [(1, "ctx.phase"), (2, "self.ctx._phase")]
    assert body_casts(source) == [(4, "cast(SeatMotion, env.body)")]


def test_no_phase_assigns_the_current_phase() -> None:
    writes = {path.name: phase_writes(path.read_text()) for path in sorted(NET.glob("*.py"))}
    # PeerContext's own field, set in its constructor and in `enter`: nowhere else.
    assert [what for _, what in writes.pop("context.py")] == ["self._phase", "self._phase"]
    assert {name: found for name, found in writes.items() if found} == {}


def test_no_message_body_is_cast_in_net() -> None:
    found = {path.name: body_casts(path.read_text()) for path in sorted(NET.glob("*.py"))}
    assert {name: casts for name, casts in found.items() if casts} == {}


def test_the_phase_moves_only_along_its_moves() -> None:
    ctx = PeerContext(generate(), None)  # type: ignore[arg-type]  # (no sockets needed)
    assert ctx.phase == Phase.SEATING
    for phase in (Phase.SEEDING, Phase.SEATING, Phase.SEEDING, Phase.PLAYING, Phase.FINISHED):
        ctx.enter(phase)
        assert ctx.phase == phase
    ctx.enter(Phase.FINISHED)  # where it is already: nothing changes
    with pytest.raises(RuntimeError, match="from finished to seeding"):
        ctx.enter(Phase.SEEDING)
    # (back to playing only when a seat cut off as its own move ended the game takes that
    # move back, docs/protocol.md §5.9)
    assert Phase.PLAYING in MOVES[Phase.FINISHED]
    ctx.enter(Phase.HALTED)
    assert MOVES[Phase.HALTED] == frozenset()  # a halted table stays halted
    for phase in Phase:
        if phase != Phase.HALTED:
            with pytest.raises(RuntimeError):
                ctx.enter(phase)
    assert ctx.phase == Phase.HALTED
    with pytest.raises(AttributeError):
        ctx.phase = Phase.PLAYING  # type: ignore[misc]  # read-only: `enter` moves it


def whole_context_takers(source: str) -> list[tuple[int, str]]:
    """Parameters annotated ``PeerContext``: (line, function)."""
    return [(node.lineno, node.name) for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            for arg in node.args.args + node.args.kwonlyargs
            if arg.annotation is not None and ast.unparse(arg.annotation) == "PeerContext"]


def test_no_phase_takes_the_whole_context() -> None:
    assert whole_context_takers("def __init__(self, ctx: PeerContext) -> None: ...") == [
        (1, "__init__")]
    found = {path.name: whole_context_takers(path.read_text())
             for path in sorted(NET.glob("*.py"))}
    assert {name: takers for name, takers in found.items() if takers} == {}


def test_the_peer_module_stays_a_composition() -> None:
    """net/peer.py composes the phases and offers the `Seat` interface; the work is in the
    phases (issue 28 set its bound at 450 lines, from 830)."""
    lines = len((NET / "peer.py").read_text().splitlines())
    assert lines < 450, f"net/peer.py has {lines} lines: move a job into a phase of its own"
