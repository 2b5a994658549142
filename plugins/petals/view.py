"""What a seat may see (``view``) and the plain data that names a state for its canonical
hash (``hash_data``).

Hidden from a seat: the other seats' hands, the order of the draw pile, and the two cards
set aside face down at 3 players.  Everything else is public.  The other way, a state
dealt from a view, is the bots' sampler (`hedgerow.plugins.petals.bots.sample`).
"""

from __future__ import annotations

from hedgerow.plugins.petals.state import State, View


def view(state: State, seat: int) -> View:
    """``seat``'s view of ``state`` (a garden value is ``card * 4 + rotation``, `geometry`)."""
    return View(
        seat=seat,
        players=state.players,
        hand=state.hands[seat],
        garden=tuple([(x, y, v >> 2, v & 3) for (x, y), v in sorted(state.garden.items())]),
        trackers=state.trackers,
        pile_count=len(state.pile),
        hand_sizes=tuple(len(h) for h in state.hands),
        active=state.active,
        pending=state.pending,
        phase=state.phase,
        final_left=state.final_left,
        out_of_play=state.out_of_play,
        set_aside_count=len(state.set_aside),
        scored_directly=state.scored_directly,
        last=state.last,
        direct=state.direct,
    )


def hash_data(state: State) -> tuple[object, ...]:
    """Plain tuples that name ``state`` exactly (the frontier is derived, and ``last`` and
    ``direct`` are for the screens only, so they are left out)."""
    pending = state.pending
    return (
        state.players,
        tuple(sorted(state.garden.items())),
        state.hands,
        state.pile,
        state.trackers,
        state.active,
        None if pending is None else (pending.kind, pending.played, pending.triggers),
        state.phase,
        state.final_left,
        state.out_of_play,
        state.set_aside,
        state.scored_directly,
    )
