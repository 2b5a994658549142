"""The seat client's contract with a game: one `GameUI` object per game, plain data only.

A game that wants more than the seat client's plain fallback registers one `GameUI` object
through the host hook ``hedgerow_game_ui`` (`hedgerow.core.hookspecs`).  The object says:

* **what it draws** — `GameUI.parts`, each a `Part` placed in one *area* of the screen
  (`BOARD`: the main, scrolling play area; `HAND`: the strip under it; `RESULTS`: under
  the client's results table).  `GameUI.draw` draws one part at a time, once per redraw:
  there is one drawing path per part.
* **what a key or a click selects** — drawn pieces that an action can point at carry a
  `Target(role, value)` as a third element of their fragment: ``(style, text, target)``.
  A role is a name the game chooses for a kind of thing (``"card"``, ``"cell"``,
  ``"stack"``, ``"mandala"``, ``"tile"``); the value names one of them (a card id, a cell
  ``(x, y)``, a stack index).
* **how an action is composed** — `GameUI.forms` maps each action kind to a `Form`: the
  steps that fill its arguments, each naming the role it selects (`Choose`, `ChooseMany`),
  a value cycled with a key (`Cycle`) or a menu (`Menu`).
* **where the cursor starts** — `GameUI.start` may name the target a step's cursor starts
  on (else the client starts near the last target of that role).
* **words and numbers** — running score columns, a preview of an action in words, a line
  explaining an unusual decision, how to play, how to name a target, and a target in full
  (`GameUI.details`: what the client shows when the player reads a card with ``i``).

Fragments are plain ``(style, text)`` tuples (prompt_toolkit's style strings; a style is
just a string here, so the kernel imports no UI library), or ``(style, text, Target)`` for
a selectable piece.  Nothing in this module knows the client's screen or keys beyond the
names documented in docs/client.md.

The base class is itself the fallback: a game with no UI object is shown with
``GameUI(name)`` — its view as plain text, every argument a menu.  `problems` checks a
UI object's forms against a set of legal actions (the seat client logs what it finds, and
`hedgerow.core.uicheck` checks whole games).
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, cast

from hedgerow.core.actions import Action, Value

#: The screen areas a part can be drawn in (docs/client.md shows where each is).
BOARD: Final = "board"
HAND: Final = "hand"
RESULTS: Final = "results"
AREAS: tuple[str, ...] = (BOARD, HAND, RESULTS)

#: Keys a `Cycle` may not take: the client uses them for something else (``i`` reads the
#: target under the cursor in full, `GameUI.details`; ``s`` shows what the table can do
#: about an empty seat, docs/client.md).
RESERVED_KEYS = frozenset("0123456789hijklqbsyn?") | {" "}


@dataclass(frozen=True, slots=True)
class Target:
    """A drawn piece that a key or a click can select: a ``role`` and a ``value``.

    The value of a `Choose` step over one argument is that argument's value (a card id);
    over several arguments it is the tuple of their values in the step's order (a cell
    ``(x, y)``).  Two pieces with the same target are the same thing drawn twice.
    """

    role: str
    value: Value


#: One piece of a drawing: ``(style, text)``, or ``(style, text, target)`` when selectable.
Fragment = tuple[str, str] | tuple[str, str, Target]
Drawing = list[Fragment]


# -- the steps of a form -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choose:
    """Select one target of ``role``; its value fills ``args`` (see `Target`).

    * ``label`` names the step to the player: ``"a cell"``, ``"the card to pass left"``.
    * ``free``: the choice is made alongside the other steps rather than in turn (number
      keys or a click at any time; ``←``/``→`` when there is nothing else to aim), like the
      card Petals plays while the cursor aims at a cell.  At most one free step per form.

    When some legal actions of the kind lack the arguments, choosing nothing is an option
    too (the step starts on "nothing"; Backspace returns to it).
    """

    role: str
    args: tuple[str, ...]
    label: str = ""
    free: bool = False

    def target(self, values: tuple[Value | None, ...]) -> Target | None:
        """The target drawn for these argument values (None for "nothing")."""
        if any(v is None for v in values):
            return None
        if len(values) == 1:
            return Target(self.role, cast(Value, values[0]))
        return Target(self.role, cast(Value, tuple(values)))

    def values(self, target: Target) -> tuple[Value, ...] | None:
        """The argument values a target of this step stands for, or None if it cannot."""
        if target.role != self.role:
            return None
        if len(self.args) == 1:
            return (target.value,)
        value = target.value
        if isinstance(value, tuple) and len(value) == len(self.args):
            return tuple(value)
        return None


@dataclass(frozen=True, slots=True)
class ChooseMany:
    """Select several targets of ``role`` for one argument ``arg`` whose value is a tuple of
    their values (Flourish's last round: three cards of five).  Space or a click adds or
    removes the target under the cursor; Enter accepts a set that a legal action has (in
    any order: the client submits that action's own tuple)."""

    role: str
    arg: str
    label: str = ""


@dataclass(frozen=True, slots=True)
class Cycle:
    """A value turned through its legal options with ``key`` (back with ``back``), e.g. a
    rotation with ``r`` / ``R``; available at the form's last step, alongside it."""

    arg: str
    label: str = "turn"
    key: str = "r"
    back: str = "R"


@dataclass(frozen=True, slots=True)
class Menu:
    """Choose ``arg``'s value from a numbered list (the fallback for any argument)."""

    arg: str
    label: str = ""


Step = Choose | ChooseMany | Cycle | Menu


def step_args(step: Step) -> tuple[str, ...]:
    """The argument names a step fills."""
    if isinstance(step, Choose):
        return step.args
    return (step.arg,)


@dataclass(frozen=True, slots=True)
class Form:
    """How the seat composes an action of one kind: its steps, in the order they are taken.

    Sequential steps (`Choose` that is not free, `ChooseMany`, `Menu`) are taken one after
    the other with Enter; a free `Choose` and the `Cycle` steps are changed at any time.
    ``label`` names the kind in the menu of kinds (``"move a card"``; the kind's name when
    empty).  A kind with no arguments needs no steps: it is offered whole.
    """

    steps: tuple[Step, ...] = ()
    label: str = ""

    @property
    def args(self) -> tuple[str, ...]:
        """Every argument name the steps fill, in step order."""
        return tuple(a for s in self.steps for a in step_args(s))


@dataclass(frozen=True, slots=True)
class Part:
    """One drawn part of the table screen: its ``name`` (passed back to `GameUI.draw`) and
    the ``area`` it is shown in.  Several parts in one area are shown one under the other.

    The first `BOARD` part may have headings that stay on screen while the board scrolls:
    its first ``head_rows`` lines (column labels, kept at the top while it scrolls down and
    moved sideways with it) and its first ``head_columns`` columns (row labels, kept at the
    left while it scrolls across and moved up and down with it), as Petals' coordinates."""

    name: str
    area: str = BOARD  # one of AREAS
    head_rows: int = 0
    head_columns: int = 0


@dataclass(frozen=True, slots=True)
class Column:
    """A column of the players table: a short ``label``, one value per seat, a style."""

    label: str
    values: tuple[int | str, ...]
    style: str = ""


@dataclass(frozen=True, slots=True)
class DrawContext:
    """What `GameUI.draw` gets besides the part's name.

    * ``view``: the seat's view (``GameDef.view``); ``seat``: the seat it belongs to.  A
      `RESULTS` part may be drawn for nobody in particular (a spectator, a replay watched
      as another player): ``seat`` is then the number of seats, past the last one, and
      nothing should be drawn as "yours".
    * ``width``: the columns available (a `BOARD` area scrolls, so it may be exceeded there).
    * ``preview``: the legal action being composed, once complete, else None: draw the part
      as that action would leave it (a ghost card where it would go).
    * ``partial``: the arguments chosen so far, complete or not (cursor included), to mark
      the pieces already chosen for a role the target highlight alone cannot tell apart;
      in the order of the form's steps, so the last one is the step being taken.
    * ``reading``: the target the player is reading in full (the ``i`` key shows its
      `GameUI.details`), or None: mark it so that the player sees which piece the words
      are about.
    """

    view: Any
    seat: int
    width: int
    preview: Action | None = None
    partial: Mapping[str, Value] = field(default_factory=dict)
    reading: Target | None = None


class GameUI:
    """A game's face in the seat client.  Subclass it, or use it as is for the fallback.

    Class attributes to set: ``parts``, ``forms``, ``help``; methods to override: `draw`,
    `score_columns`, `preview`, `prompt`, `target_text`, `details`, `start` when the
    cursor should not start where it was last, `focus` for what the board shows between
    your turns, and `declared` when a kind's arguments differ from table to table.  Every
    method is pure (it must not change the view), may return None where documented, and
    must not import the client.
    The client calls them on every redraw, guarded: a method that raises is logged and
    treated as having no answer.
    """

    #: The game's name (``GameSpec.name``).
    game: str = ""
    #: The parts this game draws, in screen order within each area.
    parts: tuple[Part, ...] = (Part("view", BOARD),)
    #: How each action kind is composed; a kind not listed gets a menu per argument.
    forms: Mapping[str, Form] = MappingProxyType({})
    #: How to play, in a few sentences (at most about 400 characters) for the help overlay.
    help: str = ""

    def __init__(self, game: str = "") -> None:
        if game:
            self.game = game

    def draw(self, part: str, ctx: DrawContext) -> Drawing | None:
        """Draw ``part`` (one of `parts`) of ``ctx.view``; None when there is nothing to show.

        Fragments are ``(style, text)`` with ``"\\n"`` for new lines, or ``(style, text,
        Target)`` for a piece a key or a click can select.  Give every fragment of a target
        the target (all its lines).  Where one role is drawn for the number keys (a hand),
        label its targets 1, 2, … in reading order: the key ``n`` selects the n-th one drawn.
        The base class draws the whole view as plain text.
        """
        return plain_view(ctx.view, ctx.width)

    def score_columns(self, view: Any) -> Sequence[Column]:
        """Every seat's running scores for the players table (labels of a few letters)."""
        return ()

    def preview(self, view: Any, seat: int, action: Action) -> str | None:
        """One line: what ``action`` (one of the seat's legal actions) would do and score."""
        return None

    def prompt(self, view: Any, seat: int) -> str | None:
        """One line explaining the decision at hand when it is unusual, else None."""
        return None

    def target_text(self, target: Target) -> str:
        """A target in a few words, for prompts and menus (``"#07"``, ``"(1, 0)"``)."""
        value = target.value
        if isinstance(value, tuple):
            return "(" + ", ".join(str(v) for v in value) + ")"
        return str(value)

    def details(self, view: Any, seat: int, target: Target) -> str | None:
        """``target`` in full, in a few sentences (at most about 230 characters, three lines
        of an 80-column terminal): a card's name, symbols and every ability in words, where
        it lies.  None when the drawing already says everything (the base class: always).

        The client shows it when the player presses ``i``: the target under the cursor, then
        each further press the next target drawn that has details, board first, then hand.
        Give the pieces worth reading a target even when no action selects them (another
        player's garden), with a role of their own so that they do not take the number keys.
        """
        return None

    def start(self, view: Any, seat: int, step: Choose, options: Sequence[Target],
              ) -> Target | None:
        """Where the cursor of ``step`` (a `Choose` being entered) starts: one of ``options``
        (its legal targets, in the order they are drawn), or None to leave it to the client,
        which starts near where the cursor last was for the role, else on the first option.

        Override it when the last target stays legal but is rarely what the player wants
        next (FLOWERS: the card just planted can be covered; an empty cell is the usual
        aim).  The base class always answers None."""
        return None

    def focus(self, view: Any, seat: int) -> Target | None:
        """What the board shows while the seat is not choosing (the others' turns, the game
        over): a drawn target, usually the latest move's, that the board scrolls to after
        each move; None (the base class) to leave the board at its top."""
        return None

    def declared(self, kind: str, names: Collection[str]) -> Form | None:
        """The form declared for ``kind`` when its legal actions have, between them, the
        arguments ``names``; the base class answers ``forms[kind]``.  Override it when the
        same kind takes different arguments at different tables (Flourish's ``turn`` passes
        ``left`` and ``right`` with two neighbours, ``passed`` with one)."""
        return self.forms.get(kind)

    def form(self, kind: str, names: Iterable[str]) -> Form:
        """The form for ``kind`` whose actions have the arguments ``names``: the declared one,
        with a `Menu` for every argument it leaves out; a menu per argument when none is."""
        names = set(names)
        declared = self.declared(kind, frozenset(names)) or Form(label=kind)
        covered = set(declared.args)
        missing = tuple(Menu(n, n) for n in sorted(set(names)) if n not in covered)
        return Form((*declared.steps, *missing), declared.label or kind)


def plain_view(view: Any, width: int) -> Drawing:
    """Any view as plain text, one field per line (the fallback drawing)."""
    if dataclasses.is_dataclass(view) and not isinstance(view, type):
        items = [(f.name, getattr(view, f.name)) for f in dataclasses.fields(view)]
    elif hasattr(view, "_asdict"):
        items = list(view._asdict().items())
    else:
        items = [("view", view)]
    lines: list[str] = []
    for name, value in items:
        lines += textwrap.wrap(f"{name}: {value}", max(width, 20), subsequent_indent="    ")
    return [("", "\n".join(lines))]


def lines_of(drawing: Drawing) -> list[list[Fragment]]:
    """A drawing cut into its lines (no ``"\n"`` left in them)."""
    lines: list[list[Fragment]] = [[]]
    for fragment in drawing:
        for i, piece in enumerate(fragment[1].split("\n")):
            if i:
                lines.append([])
            if piece:
                lines[-1].append(cast(Fragment, (fragment[0], piece, *fragment[2:])))
    return lines


def side_by_side(blocks: Sequence[Drawing], width: int, gap: int = 3, size: int = 0,
                 ) -> Drawing:
    """``blocks`` (drawings of several lines: gardens) next to each other, as many to a
    row as fit in ``width`` (every block as wide as its widest line, or ``size`` when that
    is more, so that the rows stay put as the blocks grow; a blank line between rows), for
    a board with room to spare.  A player's name drawn as a ``"seat"`` target counts as its
    text: pad that text to the width the name may take, so that the client fits the name
    there and the blocks stay aligned."""
    cut = [lines_of(b) for b in blocks]
    sizes = [max([size, *(sum(len(f[1]) for f in line) for line in block)]) for block in cut]
    rows: list[list[int]] = []
    for n, size in enumerate(sizes):
        used = sum(sizes[i] + gap for i in rows[-1]) if rows else 0
        if rows and rows[-1] and used + size <= width:
            rows[-1].append(n)
        else:
            rows.append([n])
    out: Drawing = []
    for r, row in enumerate(rows):
        if r:
            out.append(("", "\n\n"))
        for y in range(max(len(cut[n]) for n in row)):
            if y:
                out.append(("", "\n"))
            for k, n in enumerate(row):
                line = cut[n][y] if y < len(cut[n]) else []
                out += line
                if k < len(row) - 1:
                    out.append(("", " " * (sizes[n] - sum(len(f[1]) for f in line) + gap)))
    return out


def problems(ui: GameUI, actions: Iterable[Action]) -> list[str]:
    """What is wrong with ``ui``'s forms for these legal actions, in plain words (empty: fine).

    Reported: an action kind with arguments but no form (the client falls back on menus);
    an argument that no step of its kind's form fills; a step naming an argument that no
    action of the kind has; a `ChooseMany` argument that is not a tuple; a `Choose` over
    several arguments that some action has only part of; two free steps in a form; two
    steps filling one argument; a `Cycle` on a key the client keeps for itself.
    """
    kinds: dict[str, set[str]] = {}
    values: dict[tuple[str, str], list[Value]] = {}
    shapes: set[tuple[str, frozenset[str]]] = set()  # (kind, argument names) seen
    found: list[str] = []
    for action in actions:
        names = kinds.setdefault(action.kind, set())
        names.update(n for n, _ in action.args)
        shapes.add((action.kind, frozenset(n for n, _ in action.args)))
        for n, v in action.args:
            values.setdefault((action.kind, n), []).append(v)
    for kind, names in kinds.items():
        form = ui.declared(kind, frozenset(names))
        if form is None:
            if names:
                found.append(f"{kind}: no form; its arguments {', '.join(sorted(names))} "
                             "are chosen from menus")
            continue
        filled = form.args
        for n in sorted(names - set(filled)):
            found.append(f"{kind}: argument {n!r} has no role (no step of the form fills it)")
        for n in sorted(set(filled) - names):
            found.append(f"{kind}: the form fills {n!r}, which no legal {kind} action has")
        for n in sorted({a for a in filled if filled.count(a) > 1}):
            found.append(f"{kind}: argument {n!r} is filled by more than one step")
        free = [s for s in form.steps if isinstance(s, Choose) and s.free]
        if len(free) > 1:
            found.append(f"{kind}: {len(free)} free steps; at most one can have the number keys")
        for step in form.steps:
            if isinstance(step, ChooseMany) and any(
                    not isinstance(v, tuple) for v in values.get((kind, step.arg), ())):
                found.append(f"{kind}: {step.arg!r} is chosen as several {step.role} targets "
                             "but its value is not a tuple")
            if isinstance(step, Cycle) and (step.key in RESERVED_KEYS
                                            or step.back in RESERVED_KEYS):
                found.append(f"{kind}: the {step.arg!r} cycle uses a key the client keeps "
                             f"({step.key!r}/{step.back!r})")
            if isinstance(step, Choose) and any(
                    k == kind and 0 < len(has & set(step.args)) < len(step.args)
                    for k, has in shapes):
                found.append(f"{kind}: some actions have only part of {', '.join(step.args)}")
    return found
