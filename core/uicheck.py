"""Checking a game's `GameUI` against the game itself, over seeded random games.

`check_ui` plays games with a seeded random choice in every seat (no bot plugin needed),
and at every step, for every seat, draws every part of the seat's view, asks for the
details of every target drawn (`GameUI.details`, the ``i`` key) and draws the parts again
with one of them being read, and for every active seat checks the UI object's forms
against its legal actions (`ui.problems`), that a cursor starts on a legal target
(`GameUI.start`), and that each value a `Choose` or `ChooseMany`
step offers is drawn as a target somewhere, so that the seat client can point at it.  It
returns what it found, in plain words; a game's test suite asserts the list is empty.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from hedgerow.core.actions import Action
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Table
from hedgerow.core.ui import (
    Choose,
    ChooseMany,
    DrawContext,
    GameUI,
    Target,
    problems,
)

WIDTH = 80


def _fragment_problem(fragment: object) -> str | None:
    if not isinstance(fragment, tuple) or len(fragment) not in (2, 3):
        return f"a fragment is not (style, text[, target]): {fragment!r}"
    if not isinstance(fragment[0], str) or not isinstance(fragment[1], str):
        return f"a fragment's style and text must be strings: {fragment!r}"
    if len(fragment) == 3 and not isinstance(fragment[2], Target):
        return f"a fragment's third element must be a Target: {fragment!r}"
    return None


def drawn_targets(ui: GameUI, view: Any, seat: int, width: int = WIDTH,
                  preview: Action | None = None, reading: Target | None = None,
                  ) -> tuple[set[Target], list[str]]:
    """Every target drawn in every part of ``view``, and what is wrong with the drawing."""
    targets: set[Target] = set()
    found: list[str] = []
    for part in ui.parts:
        try:
            drawing = ui.draw(part.name, DrawContext(view, seat, width, preview,
                                                     reading=reading))
        except Exception as exc:  # reported, not raised: the client shrugs it off too
            found.append(f"drawing {part.name!r} raised {type(exc).__name__}: {exc}")
            continue
        for fragment in drawing or ():
            problem = _fragment_problem(fragment)
            if problem is not None:
                found.append(f"{part.name}: {problem}")
            elif len(fragment) == 3:
                targets.add(cast(Target, fragment[2]))
    return targets, found


def details_problems(ui: GameUI, view: Any, seat: int, targets: Iterable[Target],
                     ) -> list[str]:
    """What goes wrong asking for the details of ``targets`` (`GameUI.details`)."""
    found: list[str] = []
    for target in targets:
        try:
            text = ui.details(view, seat, target)
        except Exception as exc:  # reported, not raised: the client shrugs it off too
            found.append(f"details of {target} raised {type(exc).__name__}: {exc}")
            continue
        if text is not None and (not isinstance(text, str) or not text.strip()):
            found.append(f"details of {target} is not a non-empty string or None: {text!r}")
    return found


def undrawn(ui: GameUI, legal: Sequence[Action], targets: set[Target]) -> list[str]:
    """Values the forms offer for ``legal`` that are not drawn as targets."""
    found: list[str] = []
    names: dict[str, set[str]] = {}
    for action in legal:
        names.setdefault(action.kind, set()).update(n for n, _ in action.args)
    forms = {kind: ui.declared(kind, frozenset(args)) for kind, args in names.items()}
    for action in legal:
        form = forms[action.kind]
        if form is None:
            continue
        for step in form.steps:
            wanted: list[Target] = []
            if isinstance(step, Choose):
                target = step.target(tuple(action.get(a) for a in step.args))
                wanted = [target] if target is not None else []
            elif isinstance(step, ChooseMany):
                value = action.get(step.arg)
                wanted = [Target(step.role, v) for v in value] if isinstance(value, tuple) else []
            for target in wanted:
                if target not in targets:
                    found.append(f"{action.kind}: {target} can be chosen but is not drawn")
    return found


def start_problems(ui: GameUI, view: Any, seat: int, legal: Sequence[Action]) -> list[str]:
    """What is wrong with where ``ui`` starts each `Choose` step's cursor (`GameUI.start`):
    an answer that is neither None nor one of the step's legal targets, or an error."""
    found: list[str] = []
    names: dict[str, set[str]] = {}
    for action in legal:
        names.setdefault(action.kind, set()).update(n for n, _ in action.args)
    for kind, args in names.items():
        form = ui.declared(kind, frozenset(args))
        for step in form.steps if form is not None else ():
            if not isinstance(step, Choose):
                continue
            options = list(dict.fromkeys(
                t for a in legal if a.kind == kind
                and (t := step.target(tuple(a.get(n) for n in step.args))) is not None))
            try:
                start = ui.start(view, seat, step, options)
            except Exception as exc:  # reported, not raised: the client shrugs it off too
                found.append(f"{kind}: start raised {type(exc).__name__}: {exc}")
                continue
            if start is not None and start not in options:
                found.append(f"{kind}: the cursor would start on {start}, which is not a "
                             f"legal target of the step")
    return found


def check_ui(ui: GameUI, ruleset: Ruleset, *, players: int, seeds: Iterable[int],
             max_actions: int = 5_000, width: int = WIDTH) -> list[str]:
    """Play a game per seed and report every problem of ``ui`` met on the way (each once)."""
    seen: dict[str, None] = {}

    def note(items: Iterable[str]) -> None:
        for item in items:
            seen.setdefault(item, None)

    for seed in seeds:
        table = Table(ruleset, players, str(seed).encode())
        rng = Rng(str(seed).encode(), "uicheck")
        while True:
            active = table.active_seats()
            for seat in range(players):
                view = table.view(seat)
                targets, found = drawn_targets(ui, view, seat, width)
                note(found)
                note(details_problems(ui, view, seat, sorted(targets, key=repr)))
                if targets:
                    reading = min(targets, key=repr)
                    note(drawn_targets(ui, view, seat, width, reading=reading)[1])
                if seat in active:
                    legal = table.legal_actions(seat)
                    note(problems(ui, legal))
                    note(undrawn(ui, legal, targets))
                    note(start_problems(ui, view, seat, legal))
                    if legal:
                        note(drawn_targets(ui, view, seat, width, legal[0])[1])
            if not active or table.index >= max_actions:
                break
            choices = {s: rng.choice(table.legal_actions(s)) for s in active}
            if len(active) == 1:
                table.play(*next(iter(choices.items())))
            else:
                table.play_step(choices)
    return list(seen)
