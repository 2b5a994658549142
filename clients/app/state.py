"""`SeatState`: what the table screen shows, read from a `Seat` and kept between redraws.

Network events (through `Seat.subscribe`) only mark the state stale and invalidate the
application; the next redraw calls `SeatState.refresh` once, which re-reads the seat and
rebuilds the `Picker` when the legal actions may have changed.

At a sealed table a card dealt to this seat is a sealed token until every other player's
program has sent its key for it (docs/protocol.md §10.6): a view that holds one cannot be
drawn (a game draws faces), and one taken while the deck holds the whole table up (a
shuffle, a card the rules must read first) shows a chance half resolved: before the first
deal, no cards at all.  A card on its way into one of the view's collections (the hand) is
left out of it (`without_arriving`: the board shows the move just made, the hand the cards
open so far); anywhere else, or while the deck holds the table, the screen keeps the last
view that had every card open (none yet, at the first deal: the board says the deck is
being shuffled and dealt),
`SeatState.arriving` counts the cards on their way, and `SeatState.deck` says what the
sealed deck holds the table up for (`hedgerow.net.seat.Seat.deck_wait`), so the screen says
"shuffling" or "your card is on its way" instead of looking frozen.  Key bindings change the
state through its methods and never touch the seat, except `SeatState.submit`, which
sends only an action the picker composed from the legal actions.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hedgerow.clients.app.gameui import ClientUI
from hedgerow.clients.app.names import name_seats, table_names
from hedgerow.clients.app.picker import Picker, Pos
from hedgerow.core.actions import Action, Value
from hedgerow.core.errors import Refusal
from hedgerow.core.outcome import Outcome
from hedgerow.core.sealed import Sealed, tokens_in
from hedgerow.core.ui import HAND, Choose, ChooseMany, Target
from hedgerow.net.messages import SeatEvent
from hedgerow.net.seat import (
    DeckWait,
    DeckWaits,
    Departed,
    HistoryLine,
    Link,
    Phase,
    Seat,
    SeatInfo,
    still_to_act,
)

log = logging.getLogger("hedgerow.client")

TABLE, RESULTS = "table", "results"
HELP, QUIT = "help", "quit"
#: Columns a left or right arrow (or a click on a side marker) scrolls the board across.
ACROSS_STEP = 6


@dataclass(slots=True)
class Drawn:
    """Where targets were drawn in one pane at the last redraw (filled by `render.decorate`):
    the first (row, column) of each, and the order they first appear in."""

    positions: dict[Target, Pos] = field(default_factory=dict)
    order: list[Target] = field(default_factory=list)


class SeatState:
    """The client's model of one seat: the seat's facts, the picker, overlays, messages."""

    def __init__(self, seat: Seat, ui: ClientUI, *,
                 invalidate: Callable[[], None] = lambda: None, invite: bool = True) -> None:
        self.seat = seat
        self.ui = ui
        #: Whether others may join (the seating screen says how); False when every other
        #: seat is one of this program's bots (``hedgerow play``).
        self.invite = invite
        self.invalidate = invalidate
        self.stale = True
        self.screen = TABLE
        self.overlay: str | None = None
        self.message: str | None = None  # one line: a refusal, an error, a hint
        self.busy = False  # an action is being submitted
        self.board = Drawn()
        self.hand = Drawn()
        self.view: Any = None
        #: Cards dealt to this seat still on their way (sealed, in the seat's newest view),
        #: and what the sealed deck holds the table up for (None: nothing).
        self.arriving = 0
        self.deck: DeckWait | None = None
        self.phase: Phase = Phase.SEATING
        self.active: tuple[int, ...] = ()
        self.infos: Sequence[SeatInfo] = ()
        #: Every seat's name (`names.table_names`), in seat order.
        self.names: list[str] = [f"Seat {s}" for s in range(seat.players)]
        self.lines: Sequence[HistoryLine] = ()
        self.outcome: Outcome | None = None
        #: The table's agreed end (docs/protocol.md §5.9), once it agreed: an end like the
        #: rules' own, with no winner.
        self.ended: SeatEvent | None = None
        #: The seats the table is without now (their player lost or left, no bot plays
        #: them), and why this seat may not act though it is its turn (None: nothing).
        self.departed: Sequence[Departed] = ()
        self.held: Refusal | None = None
        self.problem: str | None = None
        #: The spectators watching the table, by name (a networked seat's, docs/protocol.md
        #: §3.4; none at a local table).
        self.watchers: tuple[str, ...] = ()
        self.picker = Picker((), ui.form)
        #: Whether the game draws anything in the hand area.
        self.has_hand = bool(ui.parts(HAND))
        self._turn_key: tuple[object, ...] | None = None
        self._shown_results = False
        #: The message stays when this seat's turn begins (`say` with ``lasting``): news
        #: the player must read before the turn's instruction, such as a move taken back.
        self.lasting = False
        #: The results screen's first shown line, its line count and the rows it has.
        self.results_top = 0
        self.results_lines = 0
        self.results_room = 0
        #: The board's first shown line while the player scrolls it (PageUp/PageDown, the
        #: wheel), or None while it follows the cursor; and, from the last redraw, the
        #: board's scroll, the rows it had and the lines its drawing took.
        self.board_top: int | None = None
        self.board_shown: tuple[int, int, int] = (0, 0, 0)
        #: The same across: the board's first shown column while the player scrolls it
        #: sideways (the arrows when it is not this seat's turn to choose), or None; and the
        #: column it shows first, the columns it has and the width of its drawing.
        self.board_left: int | None = None
        self.board_across: tuple[int, int, int] = (0, 0, 0)
        #: The rows and columns of headings the board keeps on screen as it scrolls
        #: (`ClientUI.head`), from the last redraw.
        self.board_head: tuple[int, int] = (0, 0)
        #: Whether a box over the table (the departure prompt) is up and takes its keys.
        self.box: Callable[[], bool] = lambda: False
        self._tasks: set[asyncio.Task[None]] = set()
        seat.subscribe(self.changed)

    # -- reading the seat ----------------------------------------------------------------------

    def changed(self) -> None:
        """The seat changed (called by the seat on the event loop): redraw soon."""
        self.stale = True
        self.invalidate()

    def refresh(self) -> None:
        """Re-read the seat if it changed since the last redraw."""
        if not self.stale:
            return
        self.stale = False
        seat = self.seat
        self.phase = seat.phase()
        self.deck = seat.deck_wait()
        view = seat.view()
        self.arriving = sum(1 for _ in tokens_in(view)) if view is not None else 0
        paused = self.deck is not None and self.deck.stops_play  # (a chance half resolved)
        if not paused:  # (else the last view with every card open stays drawn)
            drawable = without_arriving(view) if self.arriving else view
            if drawable is not None:
                self.view = drawable
        # who the table waits for: a seat whose choice for a simultaneous step is in is not
        self.active = still_to_act(seat) if view is not None else ()
        self.infos = list(seat.seats())
        self.names = table_names(self.infos, max(seat.players, len(self.infos)))
        self.lines = list(seat.history())
        self.outcome = seat.outcome()
        self.ended = seat.departures.ended
        self.departed = list(seat.departures.departed())
        self.problem = seat.problem()
        self.watchers = seat.watchers()
        legal = seat.legal_actions() if self.phase == Phase.PLAYING else ()
        held = seat.held_back() if self.phase == Phase.PLAYING else None
        if seat.seat not in self.active and (held is None or held.code != "asking"):
            held = None  # (a resumed seat that asks the table what it holds: said at any turn)
        self.held = held if held is not None and held.code != "dealing" else None  # (a moment)
        # Legal actions change with the log, and with the seat's own readiness (a peer may
        # hold them back while it syncs): compose afresh when any of that changed.  Only
        # whether this seat is active counts, not who else is: in a simultaneous step the
        # others choosing must not throw away a half-composed choice.
        turn_key = (len(self.lines), seat.seat in self.active, self.phase, len(legal))
        if self._turn_key is not None and turn_key[0] != self._turn_key[0]:
            self.follow_cursor()  # a move was made: the board shows it (`GameUI.focus`)
        if turn_key != self._turn_key:
            if legal and (self._turn_key is None or not self._turn_key[3]):
                # This seat's turn begins: show its cursor, and what to do now in place of
                # a line about what happened before (a wait that is over, a vote cast).
                self.follow_cursor()
                if not self.lasting:
                    self.message = None
                self.lasting = False
            self._turn_key = turn_key
            self.ui.check(legal)
            self.picker = Picker(list(legal), self.ui.form, previous=self.picker,
                                 orders=self._orders(), start=self._start)
        if not self.over and self._shown_results:
            # Our own last move, made while cut off from the table, was taken back: the
            # game goes on from the table's move (docs/protocol.md §5.9).
            self._shown_results = False
            self.screen = TABLE if self.screen == RESULTS else self.screen
        if self.over and not self._shown_results:
            self._shown_results = True
            self.screen = RESULTS
            self.message = None  # (a line about the game under way: it is over)
            self.overlay = None if self.overlay == QUIT else self.overlay

    # -- facts for the screen ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game is over: ended by its rules, or by the table's agreement."""
        return self.outcome is not None or self.ended is not None

    @property
    def my_turn(self) -> bool:
        """True when this seat has something to decide now."""
        return not self.picker.empty and not self.busy

    def name_of(self, seat: int) -> str:
        """The name shown for ``seat``, the player's own included: the name the seat has at
        the table (the one its log records), the same in every pane."""
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return f"Seat {seat}"

    def named(self, text: str) -> str:
        """A rules text (a log line, an explanation, a refusal) with seats named."""
        return name_seats(text, self.names)

    def leaving_costs(self) -> bool:
        """Whether leaving now costs the table something (a game under way, seats being
        filled), so that ``q`` asks first; once the game is over or the table stopped,
        there is nothing to lose and ``q`` leaves at once."""
        return not self.over and self.phase not in (Phase.FINISHED, Phase.HALTED)

    def waiting_for(self) -> str:
        """Who the table is waiting for, in words."""
        others = [self.name_of(s) for s in self.active if s != self.seat.seat]
        return ", ".join(others) if others else "the table"

    def waiting_line(self) -> str:
        """What this seat waits for while it has nothing to decide, naming who, and the way
        on when someone is away: "Waiting for Ana…", "Waiting for Ben to come back
        (hedgerow resume); s: what the table can do", "Catching up with the table…"."""
        away = {d.seat for d in self.departed}
        if self.held is not None:
            said = self.named(self.held.message)
            first = f"{said[:1].upper()}{said[1:]}"
            if self.held.code == "syncing":
                first = "Catching up with the table before your turn"
            if not away:
                return first + "…"
            gone = ", ".join(self.name_of(s) for s in sorted(away))
            return f"{first}; {gone} {'is' if len(away) == 1 else 'are'} away: s for the choices."
        waited = [s for s in self.active if s != self.seat.seat]
        over = {d.seat for d in self.departed if d.link == Link.LEFT and d.why == "game_over"}
        if waited and all(s in over for s in waited):
            return f"The game is over for {self.waiting_for()}: s to end it here too."
        if waited and all(s in away for s in waited):
            return (f"Waiting for {self.waiting_for()} to come back (hedgerow resume); "
                    "s: what the table can do.")
        return f"Waiting for {self.waiting_for()}…"

    def held_by_deck(self) -> DeckWaits | None:
        """What the sealed deck holds this seat up for (a shuffle, its cards on their way,
        cards turned face up), while it has no choice to make and no other seat is to
        play meanwhile; else None."""
        deck = self.deck
        if self.phase != Phase.PLAYING or not self.picker.empty:
            return None
        if self.arriving:
            what = DeckWaits.DEAL
        elif deck is not None:
            what = deck.what
        else:
            return None
        if deck is not None and (deck.stops_play or self.seat.seat in self.active):
            return what
        return what if what == DeckWaits.SHUFFLE or not self.active else None

    # -- target positions, filled at each redraw -----------------------------------------------

    def position(self, target: Target) -> Pos | None:
        """Where ``target`` was drawn (row, column in its pane), if it was."""
        found = self.board.positions.get(target)
        return found if found is not None else self.hand.positions.get(target)

    def _orders(self) -> dict[str, list[Value]]:
        """Each role's targets in drawn order: the board's, then the hand's."""
        orders: dict[str, list[Value]] = {}
        for target in (*self.board.order, *self.hand.order):
            values = orders.setdefault(target.role, [])
            if target.value not in values:
                values.append(target.value)
        return orders

    def _start(self, step: Choose, options: list[Target]) -> Target | None:
        """Where the game wants a step's cursor to start (`ClientUI.start`)."""
        return self.ui.start(self.view, self.seat.seat, step, options)

    def drawn(self) -> None:
        """A pane was drawn: number keys follow the drawn order from now on (and if that
        changes the free choice, the panes drawn before are drawn again)."""
        before = self.picker.free
        self.picker.set_orders(self._orders())
        if self.picker.free != before:
            self.invalidate()

    # -- acting -------------------------------------------------------------------------------

    def confirm(self) -> None:
        """Enter: finish a step, or submit the composed action; where Enter can do nothing
        yet (a set of targets still short of a legal one), say what it waits for.

        The seat is read first: a key that comes before the screen shows a change (Enter
        pressed twice: the move was sent, the next redraw has not come yet) acts on what
        the seat offers now.  If that changed since the last redraw, the key does nothing
        and the screen shows the change: it never sends a move from a list of moves that
        is gone, nor one the player has not been shown."""
        picker = self.picker
        self.refresh()
        if self.busy or self.picker.empty or self.picker is not picker:
            return
        where = (picker.kind, picker.step)
        action = picker.confirm()
        if action is not None:
            self.submit(action)
        elif (picker.kind, picker.step) == where and isinstance(picker.slot, ChooseMany):
            self.say(set_hint(picker.set_sizes(), len(picker.selection), picker.slot))

    def submit(self, action: Action) -> None:
        """Send ``action`` (always one the picker took from the legal actions)."""
        self.busy = True
        self.message = None
        task = asyncio.get_running_loop().create_task(self._submit(action))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _submit(self, action: Action) -> None:
        try:
            refusal = await self.seat.submit(action)
        except Exception as exc:
            log.exception("submitting %s failed", action)
            self.message = f"Could not send your move: {exc}"
        else:
            if refusal is not None:
                self.message = f"Refused: {refusal.message}"
        finally:
            self.busy = False
            self.stale = True
            self.invalidate()

    def scroll_results(self, step: int) -> bool:
        """Scroll the results screen by ``step`` lines; False when it cannot move."""
        top = max(0, min(self.results_top + step, self.results_lines - self.results_room))
        moved, self.results_top = top != self.results_top, top
        return moved

    def scroll_board(self, step: int) -> bool:
        """Scroll the board ``step`` lines (down when positive), leaving the cursor where it
        is until it moves; False when the board cannot move that way."""
        self.board_top, moved = scrolled(self.board_top, self.board_shown, step)
        return moved

    def scroll_board_across(self, step: int) -> bool:
        """Scroll the board ``step`` columns (right when positive), as `scroll_board`
        does lines; False when it cannot move that way."""
        self.board_left, moved = scrolled(self.board_left, self.board_across, step)
        return moved

    def board_wider(self) -> bool:
        """True when the board's drawing is wider than its pane."""
        return self.board_across[2] > self.board_across[1] > 0

    def board_page(self) -> int:
        """How far PageUp/PageDown scroll the board: its height less two lines of context."""
        return max(1, self.board_shown[1] - 2)

    def board_scrolls(self) -> bool:
        """True when the board's drawing is taller than its pane."""
        return self.board_shown[2] > self.board_shown[1] > 0

    def follow_cursor(self) -> None:
        """The board shows the cursor again (after a key that moves or reads it)."""
        self.board_top = None
        self.board_left = None

    def say(self, text: str | None, *, lasting: bool = False) -> None:
        """Show one line to the player (until the next key; ``lasting``: even when this
        seat's turn begins meanwhile)."""
        self.message = text
        self.lasting = lasting


def without_arriving(view: Any) -> Any | None:
    """``view`` with the cards still on their way to this seat (sealed tokens) left out of
    the collections they arrive in: a tuple that is a field of the view itself (a hand).
    None when such a card is anywhere else (a single card, a cell of a garden: a position
    that a drawing reads), where leaving it out would change what the rest means."""
    if dataclasses.is_dataclass(view) and not isinstance(view, type):
        names = [f.name for f in dataclasses.fields(view)]
    elif isinstance(view, tuple) and hasattr(view, "_fields"):
        names = list(view._fields)
    else:
        return None
    changes: dict[str, Any] = {}
    for name in names:
        value = getattr(view, name)
        if type(value) is tuple and any(type(v) is Sealed for v in value):
            kept = tuple(v for v in value if type(v) is not Sealed)
            if any(next(tokens_in(v), None) is not None for v in kept):
                return None
            changes[name] = kept
        elif next(tokens_in(value), None) is not None:
            return None
    try:
        if isinstance(view, tuple):
            return view._replace(**changes)  # type: ignore[attr-defined]  # (a NamedTuple)
        return dataclasses.replace(view, **changes)
    except Exception:  # (a view whose own checks refuse it)
        log.exception("a view with cards on their way could not be trimmed")
        return None


def set_hint(sizes: Sequence[int], marked: int, step: ChooseMany) -> str:
    """Why Enter did nothing in a `ChooseMany` step: how many to mark, how many are."""
    counts = " or ".join(str(n) for n in sizes)
    what = step.label or counts or "them"  # a label says how many: "two cards to pass"
    if not sizes:
        return f"No legal set has these: Backspace empties it, then mark {what}."
    so_far = "none is marked yet" if not marked else \
        f"{marked} {'is' if marked == 1 else 'are'} marked"
    return f"Mark {what} with Space (or a click), then press Enter; {so_far}."


def scrolled(by_hand: int | None, shown: tuple[int, int, int], step: int,
             ) -> tuple[int | None, bool]:
    """One of the board's scrolls moved ``step`` (lines or columns) by hand: the new
    position (still None, following the cursor, when it cannot move) and whether it moved.
    ``by_hand`` is where the player put it (None: where the cursor took it); ``shown``
    is, from the last redraw, where it was, the room the pane had and the drawing's size."""
    first, room, size = shown
    start = by_hand if by_hand is not None else first
    new = max(0, min(start + step, size - room))
    moved = new != start
    return (new if moved or by_hand is not None else None), moved
