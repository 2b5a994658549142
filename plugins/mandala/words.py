"""Mandala in words for the seat client: a move before it is made, the decision at hand,
and any drawn piece in full (the ``i`` key).

All of it reads one seat's `View` only (every card on a mandala with its colour, face-down
ones too: spec §5), and the table's `DrawRule`, so that a preview says how many cards a
play draws at this table.  The majorities come from `claims`, the points from `scoring`:
the same helpers the rules use, so a preview says what the rules will do.
"""

from __future__ import annotations

from hedgerow.core import Action
from hedgerow.core.ui import Target
from hedgerow.plugins.mandala.cards import (
    COLOURS,
    NCOLOURS,
    describe_counts,
    is_dark,
    is_x3,
    tile_colour,
    tile_flowers,
    tile_name,
)
from hedgerow.plugins.mandala.choices import play_args, tile_arg
from hedgerow.plugins.mandala.claims import is_present, preview, status
from hedgerow.plugins.mandala.drawing import DrawRule
from hedgerow.plugins.mandala.ranking import FLOWERS_TO_END
from hedgerow.plugins.mandala.render import BOARD_TILE, COLOUR, HELD, MANDALA, SIDE, TILE, who
from hedgerow.plugins.mandala.scoring import (
    complete_flowers,
    flower_points,
    gain,
    pair_up,
    single_points,
)
from hedgerow.plugins.mandala.state import CHOOSE, PLAY, View
from hedgerow.plugins.mandala.view import side


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _others_best(totals: tuple[int, ...], ups: tuple[int, ...], seat: int) -> tuple[int, int]:
    """(the most cards an eligible other seat has, that seat), or (0, -1)."""
    best, at = 0, -1
    for o, t in enumerate(totals):
        if o != seat and ups[o] >= 1 and t > best:
            best, at = t, o
    return best, at


#: A preview longer than this leaves out why cards lie face-down (the needs row says it).
PREVIEW_ROOM = 78


def play_text(view: View, rule: DrawRule, mandala: int, colour: int, count: int) -> str:
    """A play in words: how the cards lie, what it does to the claim, what it draws."""
    seat = view.seat
    m = view.mandalas[mandala]
    after = preview(m, seat, colour, count)
    name = COLOURS[colour]
    mine = after.totals[seat]
    best, rival = _others_best(after.totals, after.ups, seat)
    hand = sum(view.hand) - count
    drawn = min(rule.wanted(count, hand), view.deck_count + sum(view.discard))
    draw = f"draw {drawn}" if drawn else "no draw"
    if after.completes:  # the sixth colour: always face-up
        holder, second = after.claim, after.second
        if holder == seat:
            tiles = (f"you choose a tile, {who(view, second)} gets the other"
                     if second >= 0 else "you take both tiles")
        elif second == seat:
            tiles = f"{who(view, holder)} chooses a tile, you get the other"
        else:
            tiles = f"{who(view, holder)} takes " + (
                f"a tile, {who(view, second)} the other" if second >= 0 else "both tiles")
        cards = (f"you discard your {mine} there" if seat in (holder, second)
                 else f"your {mine} there come back to you")
        return f"{count} {name} on M{mandala} completes it: {tiles}; {cards}; {draw}."
    if after.claim == seat and m.claim != seat:
        claim = "you take the claim" + (f", {mine} cards to {best}" if rival >= 0 else "")
    elif after.claim == seat:
        claim = "you keep the claim" + (f", {mine} cards to {best}" if rival >= 0 else "")
    elif after.ups[seat] < 1:
        claim = "no claim (no face-up card of yours)"
    elif m.claim >= 0:
        claim = (f"{who(view, m.claim)} keeps the claim, {best} to your {mine} "
                 f"(+{best + 1 - mine})")
    else:
        claim = f"no claim yet, {mine} to {who(view, rival)}'s {best}"
    if after.face_up:
        return f"{count} {name} on M{mandala} face-up: {claim}; {draw}."
    text = f"{count} {name} on M{mandala} face-down ({name} shows): {claim}; {draw}."
    if len(text) > PREVIEW_ROOM:
        text = f"{count} {name} on M{mandala} face-down: {claim}; {draw}."
    return text


def take_text(view: View, tile: int) -> str:
    """The claim holder's tile choice in words: its points, and who gets the other tile."""
    seat = view.seat
    pair = view.mandalas[view.at].tiles if view.at >= 0 else ()
    other = next((t for t in pair if t != tile), -1)
    text = f"Keep {tile_name(tile)}: {_gain_words(view.tiles[seat], tile)}"
    if other >= 0 and view.second >= 0:
        theirs = view.tiles[view.second]
        text += (f"; {who(view, view.second)} gets {tile_name(other)} "
                 f"({_gain_words(theirs, other)})")
    return text + "."


def _gain_words(held: tuple[int, ...], tile: int) -> str:
    points = gain(held, tile)
    colour = tile_colour(tile)
    waiting = [t for t in pair_up(held).singles if tile_colour(t) == colour]
    sign = f"+{points}" if points >= 0 else str(points)
    if waiting and complete_flowers((*held, tile)) >= FLOWERS_TO_END:
        return f"{sign}, a third flower: game over"
    if waiting:
        return f"{sign}, a flower"
    if is_x3(tile):
        return f"{sign} (x3 scores in a flower only)"
    return sign


def action_text(view: View, rule: DrawRule, action: Action) -> str | None:
    """Any legal action in words (the preview line and the menu lines)."""
    if action.kind == "play":
        args = play_args(action)
        return None if args is None else play_text(view, rule, *args)
    if action.kind == "take":
        tile = tile_arg(action)
        return None if tile is None else take_text(view, tile)
    if action.kind == "pass":
        return "Pass: you hold one card and there is nothing left to draw."
    return None


def prompt_text(view: View) -> str | None:
    """The decision at hand, when it is not an ordinary play."""
    if view.phase == CHOOSE and view.mandalas[view.at].claim == view.seat:
        return (f"M{view.at} is complete: keep one tile (1, 2, Enter); "
                f"{who(view, view.second)} gets the other.")
    if view.phase == PLAY and view.turn == view.seat and sum(view.hand) <= 1 and not (
            view.deck_count or sum(view.discard)):
        return "You have one card and nothing is left to draw: you can only pass (Enter)."
    return None


def _tile_words(tile: int) -> str:
    back = "dark" if is_dark(tile) else "light"
    if is_x3(tile):
        shows = "shows no flower: alone it scores 0, in a complete flower it triples the other half"
    else:
        n = tile_flowers(tile)
        shows = f"shows {n} flower{'s' if n > 1 else ''} ({n} point{'s' if n > 1 else ''} alone)"
    return f"{tile_name(tile)}, a {back} half that {shows}."


def details_text(view: View, target: Target) -> str | None:
    """A drawn piece in full (module doc), or None."""
    role, value = target.role, target.value
    if role == MANDALA and isinstance(value, int):
        return _mandala_words(view, value)
    if role in (TILE, BOARD_TILE) and isinstance(value, int):
        return _tile_words(value)
    if role == SIDE and isinstance(value, tuple) and len(value) == 2:
        m, seat = value
        if isinstance(m, int) and isinstance(seat, int):
            return _side_words(view, m, seat)
    if role == HELD and isinstance(value, tuple) and len(value) == 2:
        seat, index = value
        if isinstance(seat, int) and isinstance(index, int) and index < len(view.tiles[seat]):
            return _held_words(view, seat, index)
    if role == COLOUR and isinstance(value, int) and 0 <= value < NCOLOURS:
        return _colour_words(view, value)
    return None


def _mandala_words(view: View, index: int) -> str:
    m = view.mandalas[index]
    if m.closed:
        return f"M{index} is closed: the tile stacks ran out, so it takes no more cards."
    st = status(m)
    present = [COLOURS[c] for c in range(NCOLOURS) if is_present(m.present, c)]
    missing = [COLOURS[c] for c in range(NCOLOURS) if not is_present(m.present, c)]
    claim = (f"Claim: {who(view, st.holder)} ({_cards(m.totals[st.holder])})."
             if st.holder >= 0 else "Nobody holds its claim.")
    lacks = (f"It needs {', '.join(missing)} (played there, they lie face-up)."
             if missing else "It is complete.")
    return (f"M{index}: tiles {' and '.join(tile_name(t) for t in m.tiles)}. "
            f"Showing {', '.join(present)}. {lacks} {claim}")


def _side_words(view: View, index: int, seat: int) -> str:
    m = view.mandalas[index]
    s = side(m, seat)
    name = "Your" if seat == view.seat else f"Seat {seat}'s"
    total = sum(s.up) + sum(s.down)
    if not total:
        return f"{name} side of M{index}: no cards."
    parts = []
    if sum(s.up):
        parts.append(f"{describe_counts(s.up)} face-up")
    if sum(s.down):
        parts.append(f"{describe_counts(s.down)} face-down")
    holder = " It holds the claim." if m.claim == seat else ""
    counts = "counts" if sum(s.up) else "does not count (no face-up card)"
    return (f"{name} side of M{index}: {', '.join(parts)}; {_cards(total)}, which "
            f"{counts} for the majority.{holder}")


def _held_words(view: View, seat: int, index: int) -> str:
    held = view.tiles[seat]
    tile = held[index]
    owner = "Your" if seat == view.seat else f"Seat {seat}'s"
    colour = COLOURS[tile_colour(tile)]
    for a, b in pair_up(held).flowers:
        if tile in (a, b):
            return (f"{owner} complete {colour} flower: {tile_name(a)} + {tile_name(b)} = "
                    f"{flower_points(a, b)} points.")
    return (f"{owner} single half {tile_name(tile)}: {single_points(tile)} points; another "
            f"{colour} tile would make it a complete flower.")


def _colour_words(view: View, colour: int) -> str:
    n = view.hand[colour]
    up = [f"M{m.index}" for m in view.mandalas
          if not m.closed and not is_present(m.present, colour)]
    down = [f"M{m.index}" for m in view.mandalas
            if not m.closed and is_present(m.present, colour)]
    where = []
    if up:
        where.append(f"face-up on {', '.join(up)}")
    if down:
        where.append(f"face-down on {', '.join(down)}")
    return (f"{COLOURS[colour].capitalize()}: {n} in your hand. Played now it lies "
            f"{' and '.join(where) or 'nowhere (every mandala is closed)'}.")
