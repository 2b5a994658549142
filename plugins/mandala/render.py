"""Drawing Mandala for the seat client: the table of mandalas, the tiles taken, the hand.

Everything here turns one seat's `View` into fragments (``(style, text)`` or ``(style,
text, Target)``, `hedgerow.core.ui`), optionally drawn as a previewed action would leave
it.  It knows no client and no key; `ui` says which parts exist and what the forms select.

**The mandalas** are one table, a column per mandala (so the three fit side by side in the
47 columns the board has in an 80-column terminal)::

            M0           M1           M2
    tiles   pu2 og1      gy3 rd1      pu1 gn2
    needs   gn ye        pu rd og     gy pu og ye
    claim   seat 1       you          -
    You     3 ■■□        1 ■          ·
    Seat 1  5 ■■■□□      ·            ·

A side shows its number of cards, then one ``■`` per face-up card and one ``□`` per
face-down card, each in its colour (face-down colours are public: spec §5).  A long side
is shortened to counts (``■ ■ 3□ 5□``, then ``2■ 8□``).
``needs`` lists the colours still missing: a card of one of them goes face-up.  Tiles and
colours are written with two letters (`ABBR`) and drawn in their colour.

**Roles** (`Target`): ``"mandala"`` (a column's heading, for the play form), ``"tile"``
(the two tiles of the mandala whose claim holder is choosing, for the take form),
``"colour"`` (a colour group of the hand: the number keys pick it).  Pieces that are only
read in full with ``i`` have roles of their own: ``"side"`` (a seat's cards on a mandala,
value ``(mandala, seat)``), ``"board-tile"`` (any other tile on a mandala) and ``"held"``
(a tile in front of a player, value ``(seat, index)`` in the order taken).
"""

from __future__ import annotations

from hedgerow.core import Action
from hedgerow.core.ui import Drawing, Fragment, Target
from hedgerow.plugins.mandala.cards import (
    COLOURS,
    NCOLOURS,
    is_x3,
    tile_colour,
    tile_flowers,
)
from hedgerow.plugins.mandala.choices import play_args, tile_arg
from hedgerow.plugins.mandala.claims import is_present, preview
from hedgerow.plugins.mandala.drawing import DrawRule
from hedgerow.plugins.mandala.scoring import pair_up
from hedgerow.plugins.mandala.state import CHOOSE, MandalaView, View
from hedgerow.plugins.mandala.view import side

SEAT = "seat"  # a player's name: the seat client writes the name over "Seat n"
MANDALA = "mandala"
TILE = "tile"
COLOUR = "colour"
SIDE = "side"
BOARD_TILE = "board-tile"
HELD = "held"

#: Two letters per colour, in colour order (gray, purple, red, green, orange, yellow).
#: Orange is "og", not "or", which reads as the word in a list of colours ("pu or ye").
ABBR: tuple[str, ...] = ("gy", "pu", "rd", "gn", "og", "ye")
COLOUR_STYLES: tuple[str, ...] = ("fg:#bcbcbc", "fg:#af5fff", "fg:#ff5f5f", "fg:#5fd75f",
                                  "fg:#ff8700", "fg:#ffff00")
DIM = "fg:ansibrightblack"
BOLD = "bold"
GHOST = "underline italic"  # what the previewed action adds
READING = "underline"  # the piece read in full with the i key
UP, DOWN = "■", "□"
TIMES = "\u00d7"
FLOWER = "✿"
LABEL = 8  # the least width of the row labels (players' names)
RULE = "│"  # between two mandalas' columns, so that full cells ("pu rd gn og") read apart
#: The least width of a mandala's column (a space between columns included): 47 columns
#: (an 80-column terminal) leave 11 for the names, "Bot Clover" whole.
CELL = 12


def columns(width: int) -> tuple[int, int]:
    """The widths of the labels and of each mandala's column for a board ``width`` wide:
    names get up to 14 columns, the mandalas up to 22 each."""
    label = max(LABEL, min(14, width - 3 * CELL))
    return label, max(CELL - 1, min(22, (width - label) // 3))


def who(view: View, seat: int) -> str:
    """``"you"`` or ``"seat N"``."""
    return "you" if seat == view.seat else f"seat {seat}"


def seat_name(seat: int, width: int = 0) -> Fragment:
    """A player's name, which the seat client fills in (``width``: a padded column)."""
    return ("", f"Seat {seat}".ljust(width), Target(SEAT, seat))


def name_of(view: View, seat: int, width: int = 0, style: str = "") -> Fragment:
    """``You`` for the viewer, else the seat's name (`seat_name`)."""
    if seat == view.seat:
        return (style or BOLD, "You".ljust(width))
    fragment = seat_name(seat, width)
    return (style, fragment[1], fragment[2])  # type: ignore[misc]


def tile_short(tile: int) -> str:
    """A tile in three or four letters: ``pu2``; an x3 half with a multiplication sign."""
    return ABBR[tile_colour(tile)] + (TIMES + "3" if is_x3(tile) else str(tile_flowers(tile)))


def _width(fragments: list[Fragment]) -> int:
    return sum(len(f[1]) for f in fragments)


def _pad(fragments: list[Fragment], width: int) -> list[Fragment]:
    """``fragments`` cut or padded with spaces to exactly ``width`` columns."""
    out: list[Fragment] = []
    used = 0
    for fragment in fragments:
        room = width - used
        if room <= 0:
            break
        if len(fragment[1]) > room:
            fragment = (fragment[0], fragment[1][:room], *fragment[2:])
        out.append(fragment)
        used += len(fragment[1])
    if used < width:
        out.append(("", " " * (width - used)))
    return out


def _marked(fragments: list[Fragment], reading: Target | None) -> list[Fragment]:
    """The fragments of the target being read, underlined."""
    if reading is None:
        return fragments
    return [(f[0] + " " + READING, f[1], f[2]) if len(f) > 2 and f[2] == reading else f
            for f in fragments]


class Ghost:
    """What a previewed action changes on the table (nothing when there is no preview)."""

    def __init__(self, view: View, action: Action | None) -> None:
        self.mandala = -1
        self.colour = -1
        self.count = 0
        self.tile = -1
        args = play_args(action) if action is not None and action.kind == "play" else None
        if args is not None:
            self.mandala, self.colour, self.count = args
        elif action is not None and action.kind == "take":
            tile = tile_arg(action)
            self.tile = tile if tile is not None else -1

    def after(self, view: View) -> tuple[tuple[int, ...], ...]:
        """Every seat's tiles once the previewed action is made: the tile choice, or a play
        completing a mandala whose tiles then go without a choice (to the claim holder)."""
        tiles = list(view.tiles)
        if self.tile >= 0 and view.phase == CHOOSE:
            pair = view.mandalas[view.at].tiles
            other = pair[1] if self.tile == pair[0] else pair[0]
            tiles[view.seat] = (*tiles[view.seat], self.tile)
            if view.second >= 0:
                tiles[view.second] = (*tiles[view.second], other)
        elif self.mandala >= 0:
            mandala = view.mandalas[self.mandala]
            done = preview(mandala, view.seat, self.colour, self.count)
            if done.completes and done.second < 0 and done.claim >= 0:
                tiles[done.claim] = (*tiles[done.claim], *mandala.tiles)
        return tuple(tiles)


def _side_glyphs(view: View, mandala: MandalaView, seat: int, ghost: Ghost,
                 room: int) -> list[Fragment]:
    s = side(mandala, seat)
    up = [(COLOUR_STYLES[c], s.up[c]) for c in range(NCOLOURS) if s.up[c]]
    down = [(COLOUR_STYLES[c], s.down[c]) for c in range(NCOLOURS) if s.down[c]]
    extra: list[tuple[str, str, int]] = []
    if ghost.mandala == mandala.index and seat == view.seat:
        face_up = not is_present(mandala.present, ghost.colour)
        extra.append((COLOUR_STYLES[ghost.colour] + " " + GHOST, UP if face_up else DOWN,
                      ghost.count))
    total = sum(s.down) + sum(s.up) + sum(n for _, _, n in extra)
    if not total:
        return [(DIM, "·")]
    runs = [(st, UP, n) for st, n in up] + [(st, DOWN, n) for st, n in down] + extra
    head = f"{total} "
    out: list[Fragment] = [(BOLD if extra else "", head)]
    if len(head) + sum(n for _, _, n in runs) <= room:
        return out + [(st, g * n) for st, g, n in runs]
    counted: list[Fragment] = []  # shortened: a count before each run's glyph
    for st, g, n in runs:
        counted += [("", " ")] if counted else []
        counted.append((st, f"{n}{g}" if n > 1 else g))
    if len(head) + _width(counted) <= room:
        return out + counted
    up_n = sum(n for _, g, n in runs if g == UP)  # shorter still: face-up, face-down
    down_n = total - up_n
    tail: list[Fragment] = [("", f"{up_n}{UP}")] if up_n else []
    if down_n:
        tail += [("", " ")] if up_n else []
        tail.append((DIM, f"{down_n}{DOWN}"))
    return out + tail


def _needs(mandala: MandalaView, ghost: Ghost, room: int = 99) -> list[Fragment]:
    """The colours ``mandala`` still lacks (struck: the one the preview plays there); in
    ``room`` columns, "all but gy" where five are lacking and the list would not fit."""
    if mandala.closed:
        return [(DIM, "closed")]
    present = mandala.present
    played = ghost.colour if ghost.mandala == mandala.index else -1
    after = present | (1 << played) if played >= 0 else present
    missing = [c for c in range(NCOLOURS) if not present >> c & 1]
    if after == (1 << NCOLOURS) - 1:
        if played >= 0 and not present >> played & 1:
            return [(BOLD + " " + GHOST, "complete!")]
        return [(BOLD, "complete!")]
    out: list[Fragment] = []
    for c in missing:
        if out:
            out.append(("", " "))
        style = COLOUR_STYLES[c] + (" strike" if c == played else "")
        out.append((style, ABBR[c]))
    if _width(out) > room:
        shown = [c for c in range(NCOLOURS) if present >> c & 1]
        out = [(DIM, "all but " if shown else "any colour")]
        for c in shown:
            out += [("", " ")] if len(out) > 1 else []
            out.append((COLOUR_STYLES[c], ABBR[c]))
    return out


def _claim(view: View, mandala: MandalaView, ghost: Ghost, cell: int) -> list[Fragment]:
    if mandala.closed:
        return [(DIM, "·")]
    holder = mandala.claim
    if ghost.mandala == mandala.index:
        after = preview(mandala, view.seat, ghost.colour, ghost.count)
        if after.claim != holder:
            return [(BOLD + " " + GHOST, "→ you")]
    if holder < 0:
        return [(DIM, "none")]
    if holder == view.seat:
        return [(BOLD, "you")]
    return [seat_name(holder, cell - 1)]


def _tiles_cell(view: View, mandala: MandalaView) -> list[Fragment]:
    out: list[Fragment] = []
    choosing = view.phase == CHOOSE and view.at == mandala.index
    for tile in mandala.tiles:
        if out:
            out.append(("", " "))
        role = TILE if choosing else BOARD_TILE
        out.append((COLOUR_STYLES[tile_colour(tile)] + " bold", tile_short(tile),
                    Target(role, tile)))
    if not out:
        out.append((DIM, "—"))
    return out


def draw_mandalas(view: View, width: int, action: Action | None,
                  reading: Target | None = None) -> Drawing:
    """The three mandalas as one table (module doc), drawn as ``action`` would leave them."""
    ghost = Ghost(view, action)
    label_w, cell = columns(width)
    lines: list[list[Fragment]] = []

    def row(label: str | Fragment, cells: list[list[Fragment]]) -> None:
        line: list[Fragment] = ([(DIM, label.ljust(label_w))] if isinstance(label, str)
                                else [label, ("", " ")])
        for i, frags in enumerate(cells):  # a dim rule between columns: a full cell
            line += _pad(frags, cell - 1) + ([(DIM, RULE)] if i < len(cells) - 1 else [])
        lines.append(line)

    mandalas = view.mandalas
    heads: list[list[Fragment]] = []
    for m in mandalas:
        style = BOLD if not m.closed else DIM
        heads.append([(style, f"M{m.index}", Target(MANDALA, m.index))])
    row("", heads)
    row("tiles", [_tiles_cell(view, m) for m in mandalas])
    row("needs", [_needs(m, ghost, cell - 1) for m in mandalas])
    row("claim", [_claim(view, m, ghost, cell) for m in mandalas])
    for seat in range(view.players):
        cells: list[list[Fragment]] = []
        for m in mandalas:
            glyphs = _side_glyphs(view, m, seat, ghost, cell - 1)
            cells.append([(f[0], f[1], Target(SIDE, (m.index, seat))) for f in glyphs])
        row(name_of(view, seat, label_w - 1), cells)
    out: Drawing = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out += [f for f in line if f[1]]
    supply = (f"deck {view.deck_count} · discard {sum(view.discard)} · "
              f"tile pairs left {min(view.dark_left, view.light_left)}")
    out += [("", "\n"), (DIM, supply)]
    for line in _notes(view):
        out += [("", "\n"), *line]
    return _marked(out, reading)


def recent(view: View) -> bool:
    """True while the last completed mandala has had fewer plays since than there are
    players (about one round): then what its completion did is worth a line."""
    last = view.last
    return last is not None and len(view.mandalas[last.mandala].plays) < view.players


def _notes(view: View) -> list[list[Fragment]]:
    """Lines on a tile choice under way, and on the last completed mandala (a player's name
    starts a line, so that a long name never needs wrapping)."""
    lines: list[list[Fragment]] = []
    if view.phase == CHOOSE:
        holder = view.mandalas[view.at].claim
        if holder == view.seat:
            lines.append([(BOLD, f"M{view.at} is complete: keep one of its tiles;")])
        else:
            lines.append([(BOLD, f"M{view.at} is complete: "), name_of(view, holder, 0, BOLD),
                          (BOLD, " chooses a tile;")])
        lines.append([name_of(view, view.second, 0, BOLD), (BOLD, " takes the other one.")])
    last = view.last
    if last is not None and view.phase != CHOOSE and recent(view):
        back = sum(last.returned[view.seat]) if view.seat < len(last.returned) else 0
        text = f"Last completed: M{last.mandala}"
        if last.closed:
            text += ", now closed"
        if back:
            text += f"; {back} card{'s' if back > 1 else ''} came back to you"
        lines.append([(DIM, text + ".")])
        names: dict[int, list[str]] = {}
        for seat, tile in last.taken:
            names.setdefault(seat, []).append(tile_short(tile))
        line: list[Fragment] = []
        for seat, tiles in names.items():
            line += [(DIM, "; " if line else "  "), name_of(view, seat, 0, DIM),
                     (DIM, f" took {' and '.join(tiles)}")]
        lines.append(line)
    return lines


#: After a tile the move being composed would add (a tile choice, a completing play):
#: tentative, until the move is made.
TENTATIVE = "?"


def _held(seat: int, held: tuple[int, ...], tile: int, new: int) -> Fragment:
    """One tile in front of ``seat``; from index ``new`` on, previewed: underlined and
    marked `TENTATIVE` (``og1?``)."""
    index = held.index(tile)
    previewed = index >= new
    style = COLOUR_STYLES[tile_colour(tile)] + (" " + GHOST if previewed else "")
    return (style, tile_short(tile) + (TENTATIVE if previewed else ""),
            Target(HELD, (seat, index)))


def draw_tiles(view: View, width: int, action: Action | None,
               reading: Target | None = None) -> Drawing:
    """The tiles in front of every player, complete flowers first (``✿gy1+gy3``); the
    tiles the move being composed would add marked as such (`TENTATIVE`)."""
    ghost = Ghost(view, action)
    after = ghost.after(view)
    label_w = columns(width)[0]
    adds = any(len(after[s]) > len(view.tiles[s]) for s in range(view.players))
    legend = f"{TENTATIVE} = if you make this move" if adds else f"{FLOWER} = complete flower"
    out: Drawing = [(BOLD, f"Tiles taken ({legend})")]
    for seat in range(view.players):
        held = after[seat]
        new = len(view.tiles[seat])  # tiles from this index on are previewed
        garden = pair_up(held)
        pieces: list[list[Fragment]] = []

        for a, b in garden.flowers:
            pieces.append([(BOLD, FLOWER), _held(seat, held, a, new), ("", "+"),
                           _held(seat, held, b, new)])
        for t in garden.singles:
            pieces.append([_held(seat, held, t, new)])
        out += [("", "\n"), name_of(view, seat, label_w - 1), ("", " ")]
        if not pieces:
            out.append((DIM, "none yet"))
            continue
        used = label_w
        for i, p in enumerate(pieces):
            size = _width(p) + (1 if i else 0)
            if i and used + size > max(width, 24):
                out += [("", "\n" + " " * label_w)]
                used = label_w
            elif i:
                out.append(("", " "))
            out += p
            used += size
    return _marked(out, reading)


def draw_hand(view: View, width: int, action: Action | None, rule: DrawRule,
              reading: Target | None = None) -> Drawing:
    """Your hand by colour, numbered for the keys: ``[1] 3 gray`` (each a colour target)."""
    ghost = Ghost(view, action)
    hand = view.hand
    title = f"Your hand: {sum(hand)} card{'s' if sum(hand) != 1 else ''}"
    hint = f" · lay 1, draw {rule.after_single}"
    out: Drawing = [(BOLD, title)]
    if len(title) + len(hint) <= max(width, 24):
        out.append((DIM, hint))
    used = width  # start a new line at once
    n = 0
    for c in (c for c in range(NCOLOURS) if hand[c]):
        n += 1
        target = Target(COLOUR, c)
        group: list[Fragment] = [("bold", f"[{n}]", target),
                                 (COLOUR_STYLES[c], f" {hand[c]} {COLOURS[c]}", target)]
        if ghost.colour == c:
            group.append((GHOST, f" -{ghost.count}", target))
        size = _width(group)
        if used + 2 + size > max(width, 24):
            out.append(("", "\n"))
            used = 0
        elif used:
            out.append(("", "  "))
            used += 2
        out += group
        used += size
    if not n:
        out += [("", "\n"), (DIM, "(no cards)")]
    return _marked(out, reading)
