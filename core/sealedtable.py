"""`SealedTable`: the engine half of the sealed deck — a table whose unseen cards are tokens.

At a sealed table no peer knows the deck.  Every `Shuffle` is resolved with a `SealedOrder`
(``permute`` hands the rules one `Sealed` token per position), and a card's face reaches the
rules only when it is revealed.  Every peer holds the same **public state** (``state``):
the faces every seat may see, tokens for everything else.  It is what the rules run on for
every entry, what is hashed and compared, and what the log replays.  A peer's seat also
sees its own cards: its **information state** (`info_state`) is the public state with the
faces revealed to it privately put in place, as `Known` faces that remember their tokens
(OpenSpiel's information state; ``view``, ``legal_actions`` and the bots work on it).

What the engine decides, and the mental poker layer (`hedgerow.net`) carries out:

* **Shuffles.**  A chance entry with `Shuffle` draws waits (`waiting`) until the peers have
  shuffled each draw's items together (`shuffled` with the deck's digest); its `Pick` draws
  come from the table seed as at an open table (picks are public).  The chance entry logs
  ``chance(draws=...)`` with the pick and, for each shuffle, the 32-byte digest of the deck
  the peers made.
* **Who sees what.**  After every entry, at rest, the engine reads ``view(state, seat)`` of
  every seat: a token in every seat's view must be shown to all (`Obligations.public`), a
  token in some seats' views to those seats (`Obligations.private`).  The game's own view
  says what each seat may see, so it says what each seat is shown.
* **Reads.**  When the rules read a token (`SealedRead`) while applying a seat's action or
  resolving chance, the card is shown to everyone first, since what the public state
  becomes depends on it: a card in the acting seat's own view is shown by the action (its
  author attaches the reveal, `prepare`), any other in a public reveal round (`waiting`).
  That the rules read only cards they then show to every seat (a card played, the last
  cards scored at the end; never a card that goes to a hand) is the game's contract,
  which `hedgerow.core.sealedcheck` checks.
* **Actions.**  A seat chooses among ``legal_actions`` of its information state; `prepare`
  turns the choice into what the other peers can apply to the public state: each `Known`
  card becomes its token unless the card is public, and the faces the action must show are
  attached.

With `OpenDealer` (tests, the conformance kit) one process plays every peer's part with
permutations drawn from the seed, so a sealed game can be compared move by move with the
open game of the same seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.canon import digest, encode
from hedgerow.core.chance import (
    CHANCE_SEAT,
    Chance,
    Pick,
    chance_action,
)
from hedgerow.core.errors import Code, Refusal, RulesError
from hedgerow.core.rng import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.sealed import (
    Key,
    Known,
    KnownText,
    Sealed,
    SealedOrder,
    SealedRead,
    known,
    plain,
    substitute,
    tokens_in,
)
from hedgerow.core.table import CHANCE_RUN_LIMIT, Applied, LogEntry, Table


@dataclass(frozen=True, slots=True)
class ShuffleJob:
    """A shuffle the peers must make together: draw ``draw`` of chance entry ``entry``, of
    ``items`` (their canonical order: faces, or tokens of cards reshuffled unseen)."""

    entry: int
    draw: int
    items: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Waiting:
    """What a sealed table waits for before it can go on.

    * ``shuffles``: decks the peers must shuffle (the pending chance entry's);
    * ``reveals``: cards the rules must read, to be shown to every seat first: every peer
      opens its lock on them to all (a public reveal round);
    * ``seat``: the seat whose action waits for them (-1: chance, or nothing).
    """

    shuffles: tuple[ShuffleJob, ...] = ()
    reveals: tuple[Sealed, ...] = ()
    seat: int = -1


@dataclass(frozen=True, slots=True)
class Obligations:
    """The cards that became visible at a resting point of the table (after log entry
    ``index - 1``): ``public`` to every seat, ``private`` as ``(seat, tokens)`` pairs."""

    index: int
    public: tuple[Sealed, ...]
    private: tuple[tuple[int, tuple[Sealed, ...]], ...]

    def __bool__(self) -> bool:
        return bool(self.public or self.private)


@dataclass(frozen=True, slots=True)
class Prepared:
    """A seat's action made ready for the other peers: ``action`` as it travels (tokens for
    the cards it moves unseen) and ``attached``: the faces it shows, by token key."""

    action: Action
    attached: Mapping[Key, object]


class _Wait(Exception):
    def __init__(self, waiting: Waiting) -> None:
        super().__init__("waiting")
        self.waiting = waiting


class SealedTable(Table):
    """A table whose cards are sealed until shown (see the module docstring).

    ``seats`` are the seats this peer holds (whose private cards it is shown); ``dealer``
    is None at a networked table, where the mental poker layer answers `waiting` and feeds
    `shuffled`, `reveal_public` and `reveal_private`.
    """

    def __init__(self, ruleset: Ruleset, players: int, seed: bytes, *,
                 seats: Iterable[int] = (), mark_public: bool = False) -> None:
        self.seats = frozenset(seats)
        #: Put public faces in as `Known` (remembering their tokens) rather than plain: the
        #: sealed check follows where a shown card goes with it.  Same hashes either way.
        self.mark_public = mark_public
        #: Faces every seat has been shown (already put into the public state).
        self.public: dict[Key, object] = {}
        #: Faces shown to this peer's seats only.
        self.mine: dict[Key, object] = {}
        #: For each seat, the tokens it has been shown (or is being shown).
        self.opened: list[set[Key]] = [set() for _ in range(players)]
        #: Every sealed shuffle so far, by (entry, draw).
        self.orders: dict[tuple[int, int], SealedOrder] = {}
        #: The digests of the decks the peers made, by (entry, draw).
        self.decks: dict[tuple[int, int], bytes] = {}
        self._waiting: Waiting | None = None
        self._reveal: dict[Key, object] = {}  # faces shown for the action being applied
        self._applying = False  # inside `_with` (an entry being applied)
        self._obligations: list[Obligations] = []
        self._info: tuple[Any, int, Any] | None = None  # (public state, mine, info state)
        self._rested: Any = None  # the public state `_rest` last looked at
        #: What each seat saw in the last state its view was looked at (by identity).
        self._seen: dict[int, tuple[Any, set[Key]]] = {}
        super().__init__(ruleset, players, seed)
        self._rest()

    # -- what the peers must do -----------------------------------------------------------

    @property
    def waiting(self) -> Waiting | None:
        """What the table waits for (shuffles or a public reveal round), or None."""
        return self._waiting

    def take_obligations(self) -> list[Obligations]:
        """The cards each seat must be shown since the last call (in order), and forget them."""
        out, self._obligations = self._obligations, []
        return out

    def shuffled(self, entry: int, draw: int, deck: bytes) -> None:
        """The peers finished the shuffle of draw ``draw`` of chance entry ``entry``; ``deck``
        is the digest of the deck they made (logged in the chance entry)."""
        if (entry, draw) not in self.orders:
            raise ValueError(f"no sealed shuffle {entry}.{draw} is pending")
        if type(deck) is not bytes or len(deck) != 32:
            raise ValueError("a deck digest is 32 bytes")
        self.decks[(entry, draw)] = deck

    def reveal_public(self, faces: Mapping[Key, object]) -> None:
        """Show ``faces`` (verified by the caller) to every seat: they enter the public state."""
        fresh = {k: f for k, f in faces.items() if k not in self.public}
        if not fresh:
            return
        self._note_public(fresh)
        self._rest()

    def reveal_private(self, faces: Mapping[Key, object]) -> None:
        """Show ``faces`` (verified by the caller) to this peer's seats."""
        self.mine.update({k: f for k, f in faces.items() if k not in self.mine})

    def settle(self) -> tuple[Applied, ...]:
        """Go on with the chance the table waits for, once `waiting` has been answered; the
        chance entries this adds (none while still waiting)."""
        if self.pending_chance() is None:
            self._waiting = None
            self._rest()
            return ()
        return tuple(self._settle(lazy=False))

    def pending_chance(self) -> Chance | None:
        """The chance the public state waits for, or None."""
        return self.gamedef.pending_chance(self.state)

    def active_seats(self) -> tuple[int, ...]:
        """The seats that must act now: none while the table waits for the peers (a shuffle,
        a reveal): the rules are asked nothing about a state that waits for chance."""
        if self._waiting is not None and self._waiting.shuffles:
            return ()
        if self.pending_chance() is not None:
            return ()
        return super().active_seats()

    def over(self) -> bool:
        """True once the game is over: no seat acts and the table waits for nothing."""
        return self._waiting is None and self.pending_chance() is None and not \
            super().active_seats()

    # -- this peer's seat -------------------------------------------------------------------

    def info_state(self) -> Any:
        """The public state with the faces shown to this peer's seats put in (as `Known`)."""
        info = self._info
        if info is not None and info[0] is self.state and info[1] == len(self.mine):
            return info[2]
        state = substitute(self.state, self.mine, remember=True)
        self._info = (self.state, len(self.mine), state)
        return state

    def view(self, seat: int) -> Any:
        """What ``seat`` sees now, from this peer's information state, as plain faces."""
        return plain(self.gamedef.view(self.info_state(), seat))

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Every action ``seat`` may take now, from this peer's information state.  The
        cards in them are `Known` faces: hand the chosen one to `prepare`."""
        return self.gamedef.legal_actions(self.info_state(), seat)

    def describe(self, seat: int, action: Action) -> str:
        """``action`` in plain words, as this peer can tell it."""
        return _describe(self.gamedef, self.info_state(), seat, action)

    def describe_entry(self, entry: Any, before: Any) -> str:
        """A logged entry in plain words (cards this peer cannot see stay unnamed)."""
        if entry.is_chance:
            return super().describe_entry(entry, before)
        faces = {**self.public, **self.mine}  # (``before`` may hold cards shown since)
        return _describe(self.gamedef, substitute(before, faces, remember=True),
                         entry.seat, substitute(entry.action, faces))

    def prepare(self, seat: int, action: Action) -> Prepared | Refusal:
        """Make this peer's ``seat``'s chosen ``action`` ready to send and apply: the cards it
        names (with the game's ``name_cards``, when it takes cards by description) as tokens
        unless public, and the faces of the cards of its own the rules read as they apply it
        (they are shown to all) attached.

        The action is applied to the public state, as every peer will (a `Refusal` when the
        rules refuse it); where the rules read a card this seat cannot show, that check
        waits for the public reveal round every peer will hold (`submit` says so).
        """
        if self.gamedef.name_cards is not None:
            action = self.gamedef.name_cards(self.info_state(), seat, action)
        wire = _to_wire(action, self.public)
        refusal = self._gate(seat, wire, None, None)
        if refusal is not None:
            return refusal
        attached: dict[Key, object] = {}
        sees = self._seen_by(seat)
        for _ in range(256):
            try:
                result = self.gamedef.apply(substitute(self.state, attached),
                                            seat, substitute(wire, attached))
            except SealedRead as read:
                key = read.token.key
                if key in self.mine and key in sees and key not in attached:
                    attached[key] = self.mine[key]
                    continue
                break  # a card this seat cannot show: a public reveal round, on every peer
            if isinstance(result, Refusal):
                return result
            break
        return Prepared(wire, attached)

    # -- applying -----------------------------------------------------------------------

    def submit(  # type: ignore[override]
        self, seat: int, action: Action, *, index: int | None = None,
        prev: bytes | None = None, reveals: Mapping[Key, object] | None = None,
    ) -> tuple[Applied, ...] | Refusal | Waiting:
        """`Table.submit` for an action as it travels (`Prepared.action`), with the faces it
        shows (``reveals``, verified by the caller).  `Waiting` when the rules must read a
        card nobody holds first (a public reveal round; submit again after it)."""
        return self._with(reveals, lambda: Table.submit(
            self, seat, action, index=index, prev=prev))

    def submit_step(  # type: ignore[override]
        self, choices: Mapping[int, Action], *, index: int | None = None,
        prev: bytes | None = None, reveals: Mapping[Key, object] | None = None,
    ) -> tuple[Applied, ...] | Refusal | Waiting:
        """`Table.submit_step` for choices as they travel, with the faces they show."""
        return self._with(reveals, lambda: Table.submit_step(
            self, choices, index=index, prev=prev))

    def check_choice(self, seat: int, action: Action,
                     reveals: Mapping[Key, object] | None = None) -> Refusal | None:
        """A choice as it travels, with the faces it shows, checked against the current
        state (a simultaneous step's start): the `Refusal`, or None (one that must wait for
        a public reveal round is not refused)."""
        result = self._with(reveals, lambda: Table.check(self, seat, action))
        return result if isinstance(result, Refusal) else None

    def follow(  # type: ignore[override]
               self, index: int, seat: int, action: Action, *, prev: bytes | None = None,
               reveals: Mapping[Key, object] | None = None,
               ) -> tuple[Applied, ...] | Refusal | Waiting:
        """`Table.follow` for a logged entry (a catch-up, a replay), with the faces its
        action showed."""
        return self._with(reveals, lambda: Table.follow(self, index, seat, action, prev=prev))

    def _gate(self, seat: int, action: Action, index: int | None, prev: bytes | None,
              ) -> Refusal | None:
        """`Table._gate`, and: an action names only sealed cards its seat has been shown
        (its hand, a card face up to all).  Naming another seat's card or one in a deck
        would make every peer ask for it to be opened to all (the rules read it), so it is
        refused here, before any card is read (docs/plugins.md, "Sealed tables")."""
        refusal = super()._gate(seat, action, index, prev)
        if refusal is not None:
            return refusal
        named = [token for token in tokens_in(action) if token.key not in self.public]
        if named:
            sees = self._seen_by(seat)
            unseen = [token for token in named if token.key not in sees]
            if unseen:
                card = unseen[0]
                return Refusal(Code.ILLEGAL_ACTION, f"seat {seat} names a sealed card it was "
                               f"never shown (card {card.entry}.{card.draw}.{card.pos})")
        return None

    def _with(self, reveals: Mapping[Key, object] | None, run: Any) -> Any:
        """Run ``run`` (an entry being applied) with the faces its action shows; a read that
        needs a public round comes back as `Waiting`.  Nested calls (`follow` submits) keep
        the outermost faces."""
        if self._waiting is not None and self._waiting.shuffles:
            return Refusal(Code.NOT_YOUR_TURN, "the table is shuffling")
        if self._applying:
            return run()
        self._applying = True
        self._reveal = dict(reveals or {})
        try:
            return run()
        except _Wait as wait:
            return wait.waiting
        finally:
            self._reveal = {}
            self._applying = False

    def _rules_apply(self, state: Any, seat: int, action: Action) -> Any:
        """Apply ``action`` of ``seat``, showing first every card the rules read: the faces
        attached to the action for cards in the seat's own view, else a `_Wait` for a public
        reveal round."""
        sees: set[Key] | None = None  # what the seat sees, worked out at the first read
        shown: dict[Key, object] = {}
        for _ in range(256):
            faces = {**self.public, **shown}
            try:
                result = self.gamedef.apply(
                    substitute(state, shown, remember=self.mark_public), seat,
                    substitute(action, faces))
            except SealedRead as read:
                key = read.token.key
                if key in shown:
                    raise RulesError(f"{self.gamedef.name}: a revealed card read as sealed") \
                        from None
                if key in self._reveal:
                    if sees is None:
                        sees = self._seen_by(seat, state)
                    if key in sees:
                        shown[key] = self._reveal[key]
                        continue
                raise _Wait(Waiting(reveals=(read.token,), seat=seat)) from None
            if shown and not isinstance(result, Refusal):
                self._note_public(shown)
            return result
        raise RulesError(f"{self.gamedef.name}: an action reads more than 256 sealed cards")

    def _note_public(self, faces: Mapping[Key, object]) -> None:
        """Faces shown to every seat (by a reveal round, or attached to an action that read
        them): public from now on, and put into the public state."""
        fresh = {k: f for k, f in faces.items() if k not in self.public}
        if not fresh:
            return
        self.public.update(fresh)
        for seen in self.opened:
            seen.update(fresh)
        self._set_state(substitute(self.state, fresh, remember=self.mark_public))

    # -- chance ---------------------------------------------------------------------------

    def _settle(self, *, lazy: bool) -> list[Applied]:
        gamedef = self.gamedef
        applied: list[Applied] = []
        self._waiting = None
        for _ in range(CHANCE_RUN_LIMIT):
            chance = gamedef.pending_chance(self.state)
            if chance is None:
                self._rest()
                return applied
            index = self.index
            try:
                outcome, after = self._resolve(index, chance)
            except _Wait as wait:
                self._waiting = wait.waiting
                return applied
            before = self.state
            entry = self._append(CHANCE_SEAT, chance_action(outcome), after, lazy=lazy)
            if entry is not None:
                applied.append(Applied(entry, before, after))
        raise RulesError(f"{gamedef.name}: more than {CHANCE_RUN_LIMIT} chance nodes in a row")

    def _resolve(self, index: int, chance: Chance) -> tuple[tuple[Any, ...], Any]:
        """Resolve ``chance`` at entry ``index``: its logged outcome and the state after it,
        or a `_Wait` for the shuffles or reveals it needs."""
        rng = Rng(self.header.seed, f"chance/{index}")
        outcome: list[Any] = []
        for number, draw in enumerate(chance.draws):
            if isinstance(draw, Pick):
                outcome.append(rng.randbelow(draw.n))
            else:
                # Drawn and thrown away, so that the picks are the open deck's: the same
                # seed and the same decks make the same game, sealed or open.
                rng.shuffle(list(range(draw.n)))
                shown = self.public
                if self.mark_public:
                    shown = {k: known(f, Sealed(*k)) for k, f in shown.items()}
                outcome.append(SealedOrder(index, number, draw.n, shown))
        assert self.gamedef.resolve is not None
        try:
            after = self.gamedef.resolve(self.state, tuple(outcome))
        except SealedRead as read:
            key = read.token.key
            if key in self.public:
                raise RulesError(f"{self.gamedef.name}: a revealed card read as sealed") \
                    from None
            if (key[0], key[1]) not in self.decks:
                raise _Wait(Waiting(shuffles=self._jobs(outcome))) from None
            raise _Wait(Waiting(reveals=(read.token,))) from None
        jobs = self._jobs(outcome)
        if any((job.entry, job.draw) not in self.decks for job in jobs):
            raise _Wait(Waiting(shuffles=jobs))
        logged = tuple(self.decks[(o.entry, o.draw)] if type(o) is SealedOrder else o
                       for o in outcome)
        return logged, after

    def _jobs(self, outcome: Sequence[Any]) -> tuple[ShuffleJob, ...]:
        """The shuffles ``outcome``'s sealed orders ask for (each bound to its items)."""
        jobs = []
        for order in outcome:
            if type(order) is not SealedOrder:
                continue
            if order.items is None:
                raise RulesError(f"{self.gamedef.name}: a Shuffle outcome was not applied with "
                                 "permute (a sealed shuffle needs it)")
            known = self.orders.get((order.entry, order.draw))
            if known is not None and known.items != order.items:
                raise RulesError(f"{self.gamedef.name}: chance shuffles other items on a "
                                 "second look (resolve must be pure)")
            self.orders[(order.entry, order.draw)] = order
            jobs.append(ShuffleJob(order.entry, order.draw, order.items))
        return tuple(jobs)

    # -- who sees what ----------------------------------------------------------------------

    def _rest(self) -> None:
        """At a resting point (no chance pending, nothing waiting): record what each seat
        must now be shown."""
        if self._waiting is not None or self.pending_chance() is not None:
            return
        if self.state is self._rested:
            return  # every seat's view is the one already looked at
        self._rested = self.state
        per_seat = [self._seen_by(seat) for seat in range(self.players)]
        everyone = set.intersection(*per_seat) if per_seat else set()
        public = tuple(_token(k) for k in sorted(everyone - self.public.keys()))
        private = []
        for seat, sees in enumerate(per_seat):
            new = sorted(sees - everyone - self.opened[seat])
            if new:
                private.append((seat, tuple(_token(k) for k in new)))
                self.opened[seat].update(new)
        if public:
            for seen in self.opened:
                seen.update(everyone)
        if public or private:
            self._obligations.append(Obligations(self.index, public, tuple(private)))

    def seen_by(self, seat: int) -> set[Key]:
        """The keys of the sealed cards in ``seat``'s view of the public state now."""
        return set(self._seen_by(seat))

    def _seen_by(self, seat: int, state: Any = None) -> set[Key]:
        """The keys of the tokens in ``seat``'s view of the public state."""
        state = self.state if state is None else state
        cached = self._seen.get(seat)
        if cached is not None and cached[0] is state:
            return cached[1]
        try:
            view = self.gamedef.view(state, seat)
        except SealedRead as read:
            raise RulesError(f"{self.gamedef.name}: the view of seat {seat} reads a sealed "
                             f"card ({read.how}); a view may show a card, never look at it") \
                from None
        seen = {token.key for token in tokens_in(view)}
        self._seen[seat] = (state, seen)
        return seen

    def _unseen(self, key: Key) -> bool:
        """True for a card no seat has been shown (in a deck, set aside, face down)."""
        return not any(key in seen for seen in self.opened)

    def _set_state(self, state: Any) -> None:
        if state is not self.state:
            self.state = state
            self._hash = None

    def entry_hash(self, entry: LogEntry, state: Any) -> bytes:
        """The state hash after ``entry`` at a sealed table: ``digest("hedgerow-sealed-state-v1",
        entry digest, state hash)``.  The entry's digest chains every deck the peers made (a
        chance entry logs its decks' digests), so peers that were shown different decks
        disagree at the chance entry itself (docs/protocol.md §10.6)."""
        return digest(b"hedgerow-sealed-state-v1", entry.digest,
                      Table.entry_hash(self, entry, state))

    def hash_of(self, state: Any) -> bytes:
        """The canonical hash of a public state (its tokens encoded as `Sealed` records)."""
        try:
            return super().hash_of(state)
        except SealedRead as read:
            raise RulesError(f"{self.gamedef.name}: hash_data reads a sealed card "
                             f"({read.how})") from None


def _token(key: Key) -> Sealed:
    return Sealed(*key)


def _to_wire(action: Action, public: Mapping[Key, object]) -> Action:
    """``action`` as it travels: each known card as its token, unless it is public."""
    def wire(value: Any) -> Any:
        if isinstance(value, Known | KnownText):
            return plain(value) if value.token.key in public else value.token
        if type(value) is tuple:
            return tuple(wire(v) for v in value)
        return value
    return Action(action.kind, tuple((name, wire(v)) for name, v in action.args))


def _describe(gamedef: Any, state: Any, seat: int, action: Action) -> str:
    try:
        return str(gamedef.describe(state, seat, action))
    except SealedRead:
        return f"{action.kind} (a hidden card)"


# -- one process plays every peer: the open dealer ---------------------------------------------


class OpenDealer:
    """Plays the mental poker layer's part for tables in one process (tests, conformance):
    it draws each shuffle from the seed exactly as the open deck would, so that a sealed
    game can be compared move by move with the open game of the same seed.  It knows every
    card: there is no secrecy here."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.faces: dict[Key, object] = {}

    def deal(self, chance: Chance, jobs: Sequence[ShuffleJob]) -> dict[tuple[int, int], bytes]:
        """Shuffle every job of one chance entry as the open deck would (the entry's draws
        in order from ``Rng(seed, "chance/<entry>")``); the decks' digests by (entry, draw)."""
        if not jobs:
            return {}
        entry = jobs[0].entry
        rng = Rng(self.seed, f"chance/{entry}")
        by_draw = {job.draw: job for job in jobs}
        out: dict[tuple[int, int], bytes] = {}
        for number, draw in enumerate(chance.draws):
            if isinstance(draw, Pick):
                rng.randbelow(draw.n)
                continue
            order = list(range(draw.n))
            rng.shuffle(order)
            job = by_draw.get(number)
            if job is None:
                continue
            for pos, j in enumerate(order):
                self.faces[(entry, number, pos)] = job.items[j]
            out[(entry, number)] = digest(b"hedgerow-open-dealer-v1",
                                          encode((entry, number, tuple(order))))
        return out

    def face(self, key: Key) -> object:
        """The face of the card a token stands for (through reshuffled tokens)."""
        face = self.faces[key]
        while type(face) is Sealed:
            face = self.faces[face.key]
        return face
