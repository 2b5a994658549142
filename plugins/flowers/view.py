"""What a seat may see (``view``) and the plain data that names a state for its canonical
hash (``hash_data``).  The other way, a state dealt from a view, is the bots' sampler
(`hedgerow.plugins.flowers.bots.sample`).

Hidden from everyone: the face-down stack, every card of a face-up stack below its top (the
order of every stack), and the box.  Hidden from the other seats: the card the active seat
took from the face-down stack and has not planted yet (a face-up card is planted in the
same action that takes it, so it is never held).  Everything else is public: every
garden with its covered cards (each was seen when it was planted), the face-up tops, the
stack sizes and the solo discards.

At a sealed table the view is what each seat is shown (`hedgerow.core.sealedtable`): it
copies cards and never looks at one, so the face-up tops and the gardens are shown to
every seat and the held card to its holder alone; a seat that has not seen the held card
is told only that it is held (``source``), which reads nothing (a token equals no face).
"""

from __future__ import annotations

from hedgerow.core.sealed import SealedRead, packed
from hedgerow.plugins.flowers.garden import OFFSET, STRIDE, Garden
from hedgerow.plugins.flowers.scoring import GardenScore
from hedgerow.plugins.flowers.state import NOBODY, GardenCells, State, View


def garden_cells(garden: Garden) -> GardenCells:
    """A garden as ``(x, y, stack)`` sorted by cell."""
    return tuple([(k // STRIDE - OFFSET, k % STRIDE - OFFSET, stack)
                  for k, stack in sorted(garden.items())])


def holds_hidden(state: State, seat: int) -> bool:
    """True when the active seat holds a card taken face down that ``seat`` has not seen."""
    return (state.holding != NOBODY and seat != state.active
            and state.source == len(state.stacks) - 1)


def view(state: State, seat: int, final: tuple[GardenScore, ...] = ()) -> View:
    """``seat``'s view of ``state`` (``final``: the scoring detail, once the game is over)."""
    stacks = state.stacks
    down = len(stacks) - 1
    hidden = holds_hidden(state, seat)
    return View(
        seat=seat,
        players=state.players,
        gardens=tuple(garden_cells(g) for g in state.gardens),
        tops=tuple(s[-1] if s and i != down else NOBODY for i, s in enumerate(stacks)),
        sizes=tuple(len(s) for s in stacks),
        face_down=down,
        active=state.active,
        phase=state.phase,
        holding=NOBODY if hidden else state.holding,
        source=state.source,
        discards=state.discards,
        box_count=len(state.box),
        final=final,
    )


def garden_bytes(garden: Garden) -> bytes | tuple[object, ...]:
    """A garden as one ``bytes``, for the state hash: per cell in cell order its key in
    three bytes (big-endian; keys are below 2**20), the stack's height, then its cards
    bottom first (card ids are below 256).  Exact, and cheap to encode.

    At a sealed table a garden may hold a card not shown yet (a start card drawn from the
    deck, between the deal and the reveal to every seat that follows it): the garden is
    then ``(key, stack)`` per cell in cell order, each stack as `packed`."""
    try:
        return b"".join([bytes((k >> 16, (k >> 8) & 255, k & 255, len(stack), *stack))
                         for k, stack in sorted(garden.items())])
    except SealedRead:
        return tuple([(k, packed(stack)) for k, stack in sorted(garden.items())])


def hash_data(state: State) -> tuple[object, ...]:
    """Plain data that names ``state`` exactly (the targets are derived, so left out).

    Every run of cards (a garden, a draw stack, the box, the discards) is one ``bytes``
    (`garden_bytes`, `packed`): a state is hashed after every action, and a few long byte
    strings encode much faster than hundreds of small ints.  At a sealed table a run that
    holds a sealed card is a tuple instead, and ``holding`` may be one: the public state is
    hashed as it is, without reading a hidden card.
    """
    return (
        state.players,
        tuple([garden_bytes(g) for g in state.gardens]),
        tuple([packed(s) for s in state.stacks]),
        state.active,
        state.phase,
        state.holding,
        state.source,
        packed(state.discards),
        packed(state.box),
        state.sizes,
    )
