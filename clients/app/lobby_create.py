"""The lobby's create-a-table form: game, variants, seats, a bot or an open seat for each
other seat, the deck, whether others may watch, and the table's name (prompt_toolkit's
`TextArea`).

Owns the form's values and the rules they describe (`CreateScreen.ruleset`); Enter asks the
lobby to open the table.  The deck is sealed unless the player turns it open (←/→ or Space
on its row), each with its line of explanation: sealed, no player's program can see a card
it was not shown (docs/protocol.md §10); open, a faster start, for players who trust each
other (§10.12).  A table of one seat has nobody to hide cards from: its deck is open, and
the row says so.  Spectators may watch the table (up to 8, shown what every seat sees,
docs/protocol.md §3.4) unless the player turns the watch row to "no"
(``hedgerow host --no-spectators``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import FormattedTextControl, HSplit, VSplit, Window
from prompt_toolkit.widgets import TextArea

from hedgerow.clients.app import deckwords
from hedgerow.clients.app.lobby_protocol import Lobby
from hedgerow.clients.app.render import wrap
from hedgerow.core.errors import HedgerowError

OPEN = "open seat"
NAME_LENGTH = 40  # the longest table name the form takes


@dataclass(slots=True)
class Form:
    """The create-a-table form's values (the table's name is in the name field)."""

    games: list[str]
    game_index: int = 0  # the game chosen, an index into games
    chosen: dict[str, set[str]] = field(default_factory=dict)  # variants chosen, per game
    variant: int = 0  # the variant under the cursor
    players: int = 2
    seats: list[str] = field(default_factory=list)  # seat 1.. : OPEN or a bot name
    open_deck: bool = False  # the player chose an open deck (default: sealed)
    spectators: bool = True  # others may watch the table (docs/protocol.md §3.4)
    row: int = 0


class CreateScreen:
    """The form's rows, drawn one per line; the last one, the name, is a text field."""

    keys = [("↑↓", "row"), ("←→", "change"), ("Space", "variant"), ("Enter", "open"),
            ("Esc", "back")]

    def __init__(self, lobby: Lobby, *, game: str | None = None, variants: Sequence[str] = (),
                 players: int | None = None) -> None:
        self.lobby = lobby
        plugins = lobby.plugins
        games = sorted(plugins.games)
        if not games:
            raise HedgerowError("no game is installed (see: hedgerow games)")
        self.form = Form(games)
        self.name_field = TextArea(multiline=False)
        self.name_field.buffer.on_text_changed += self._name_changed
        if game is not None:
            plugins.game(game)  # a clear error for an unknown game
            self.form.game_index = games.index(game)
            self.form.chosen[game] = set(variants)
        self._reset_players(players)
        self.rows_window = Window(FormattedTextControl(self.draw, focusable=True),
                                  dont_extend_height=True)
        self.container = HSplit([
            self.rows_window,
            VSplit([Window(FormattedTextControl(self._name_label), width=12, height=1),
                    self.name_field]),
            Window(FormattedTextControl(self._footer), wrap_lines=True),
        ])

    # -- the values -------------------------------------------------------------------------

    @property
    def game(self) -> str:
        """The game chosen in the form."""
        return self.form.games[self.form.game_index]

    @property
    def name(self) -> str:
        """The table's name, as typed."""
        return self.name_field.text

    def variants(self) -> list[str]:
        """The installed variants of the chosen game."""
        return [v.name for v in self.lobby.plugins.variants_of(self.game)]

    def rows(self) -> list[str]:
        """The form's rows: game, variants, players, one per other seat, deck, watch, name."""
        return ["game", "variants", "players", *[f"seat {i}" for i in range(1, self.form.players)],
                "deck", "watch", "name"]

    @property
    def open_deck(self) -> bool:
        """Whether the table opens with an open deck: chosen so, or a table of one seat."""
        return self.form.open_deck or self.form.players == 1

    def on_name(self) -> bool:
        """The cursor is on the name row (keys type into the name field)."""
        return self.rows()[self.form.row] == "name"

    def _name_changed(self, buffer: Buffer) -> None:
        self.lobby.message = None  # what was said is about the form before this change
        if len(buffer.text) > NAME_LENGTH:
            buffer.text = buffer.text[:NAME_LENGTH]

    def _reset_players(self, players: int | None = None) -> None:
        spec = self.lobby.plugins.game(self.game)
        f = self.form
        f.players = players or spec.players_default
        bots = self.lobby.bots(self.game)
        f.seats = [bots[0] if bots else OPEN for _ in range(1, f.players)]
        # the text cursor at the end, where typing goes on
        self.name_field.document = Document(f"{self.lobby.seat_name}'s {spec.title}")
        f.variant = 0

    def ruleset(self) -> Any:
        """The rules the form describes (a `HedgerowError` says what is wrong)."""
        return self.lobby.plugins.ruleset(self.game, sorted(self.form.chosen.get(self.game, ())),
                                       players=self.form.players)

    # -- keys -------------------------------------------------------------------------------

    def move(self, step: int) -> None:
        """↑/↓ (and Tab): the previous or next row."""
        self.form.row = max(0, min(len(self.rows()) - 1, self.form.row + step))

    def change(self, step: int) -> None:
        """←/→ on the current row of the form."""
        f = self.form
        row = self.rows()[f.row]
        if row == "game":
            f.game_index = (f.game_index + step) % len(f.games)
            self._reset_players()
        elif row == "variants":
            names = self.variants()
            if names:
                f.variant = (f.variant + step) % len(names)
        elif row == "players":
            spec = self.lobby.plugins.game(self.game)
            n = max(spec.min_players, min(spec.max_players, f.players + step))
            f.seats = (f.seats + [f.seats[-1] if f.seats else OPEN] * n)[: n - 1]
            f.players = n
        elif row.startswith("seat "):
            choices = [OPEN, *self.lobby.bots(self.game)]
            i = int(row.split()[1]) - 1
            f.seats[i] = choices[(choices.index(f.seats[i]) + step) % len(choices)]
        elif row == "deck" and f.players > 1:
            f.open_deck = not f.open_deck
        elif row == "watch":
            f.spectators = not f.spectators

    def toggle(self) -> None:
        """Space: choose or drop the variant under the cursor; on the deck row, turn it."""
        names = self.variants()
        if self.rows()[self.form.row] in ("deck", "watch"):
            self.change(1)
            return
        if self.rows()[self.form.row] != "variants" or not names:
            return
        chosen = self.form.chosen.setdefault(self.game, set())
        chosen ^= {names[self.form.variant]}

    def open(self) -> None:
        """Enter: open the table the form describes (a bad form is refused at once)."""
        self.ruleset()
        if not self.lobby.busy:
            self.lobby.run_task(self.lobby.create())

    # -- drawing ----------------------------------------------------------------------------

    def _marker(self, i: int) -> StyleAndTextTuples:
        current = i == self.form.row
        return [("class:turn" if current else "", "▶ " if current else "  ")]

    def draw(self) -> StyleAndTextTuples:
        """The heading and every row but the name."""
        f = self.form
        spec = self.lobby.plugins.game(self.game)
        out: StyleAndTextTuples = [("class:heading", "Create a table"), ("", "\n\n")]
        chosen = f.chosen.get(self.game, set())
        rows = self.rows()[:-1]
        for i, row in enumerate(rows):
            current = i == f.row
            out += [*self._marker(i), ("bold", f"{row.capitalize():<10}")]
            if row == "game":
                value: StyleAndTextTuples = [("", f"◀ {spec.title} ▶")]
            elif row == "variants":
                names = self.variants()
                value = [("class:dim", "none installed")] if not names else []
                for j, v in enumerate(names):
                    mark = "[x]" if v in chosen else "[ ]"
                    style = "class:menu.current" if current and j == f.variant else ""
                    value += [(style, f"{mark} {v}"), ("", "  ")]
            elif row == "players":
                value = [("", f"◀ {f.players} ▶  "),
                         ("class:dim", f"{spec.min_players}-{spec.max_players} players")]
            elif row == "deck":
                value = self._deck_value()
            elif row == "watch":
                value = [("", "◀ yes ▶" if f.spectators else "◀ no ▶"), ("", "  "),
                         ("class:dim", "up to 8 spectators, shown what every seat sees"
                          if f.spectators else "nobody may watch")]
            else:
                who = f.seats[int(row.split()[1]) - 1]
                value = [("", f"◀ {who if who == OPEN else 'bot: ' + who} ▶")]
            out += [*value, ("", "\n" if i < len(rows) - 1 else "")]
        return out

    def _deck_value(self) -> StyleAndTextTuples:
        """The deck row's value and what it means, on one line (cut to fit the screen)."""
        if self.form.players == 1:
            shown, why = "open", deckwords.ONE_SEAT
        else:
            shown = "◀ open ▶" if self.form.open_deck else "◀ sealed ▶"
            why = deckwords.OPEN_CHOICE if self.form.open_deck else deckwords.SEALED_MEANS
        room = max(0, self.lobby.width() - 2 - 10 - len(shown) - 2 - 1)
        if len(why) > room:
            why = why[: max(0, room - 1)].rstrip() + "…" if room > 1 else ""
        return [("", shown), ("", "  "), ("class:dim", why)]

    def _name_label(self) -> StyleAndTextTuples:
        return [*self._marker(len(self.rows()) - 1), ("bold", f"{'Name':<10}")]

    def _footer(self) -> StyleAndTextTuples:
        spec = self.lobby.plugins.game(self.game)
        width = self.lobby.width()
        return [("", "\n"), ("class:dim", wrap(spec.summary, width)), ("", "\n\n"),
                ("class:dim", wrap("Seat 0 is you.  An open seat waits for a person (hedgerow "
                                   "join); a bot seat starts a bot peer on this machine.", width))]
