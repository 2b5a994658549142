"""The pure pieces of the table protocol: seed and step commit-reveal, the state-hash book,
rules comparison at join, and the table file."""

from __future__ import annotations

from pathlib import Path

import pytest
import toygames

from hedgerow.core.actions import Action
from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import table_seed
from hedgerow.net import rulesmatch, tablefile
from hedgerow.net.hashbook import HashBook
from hedgerow.net.keys import generate
from hedgerow.net.messages import PeerInfo
from hedgerow.net.seedround import SeedRound, SeedRoundError
from hedgerow.net.stepround import StepError, StepRound

H = [bytes([i]) * 32 for i in range(10)]


def test_seed_round_needs_every_commit_then_every_reveal() -> None:
    rounds = [SeedRound(3, seat) for seat in range(3)]
    for r in rounds:
        for other in rounds:
            if other is not r:
                assert not r.all_committed
                r.commit(other.own_seat, other.own_commitment)
    assert all(r.all_committed and r.seed() is None for r in rounds)
    for r in rounds:
        for other in rounds:
            r.reveal(other.own_seat, other.share)
    seeds = {r.seed() for r in rounds}
    assert seeds == {table_seed([r.share for r in rounds])}


def test_seed_round_catches_a_changed_share_or_commitment() -> None:
    a, b = SeedRound(2, 0), SeedRound(2, 1)
    a.commit(1, b.own_commitment)
    with pytest.raises(SeedRoundError, match="does not match") as bad_share:
        a.reveal(1, bytes(32))
    assert bad_share.value.fatal
    with pytest.raises(SeedRoundError, match="two different") as second:
        a.commit(1, bytes(32))
    assert not second.value.fatal  # the first commitment stands
    a.reveal(1, b.share)  # the bad share was not kept
    early = SeedRound(2, 0)
    early.reveal(1, bytes(32))  # a reveal before its commitment waits
    with pytest.raises(SeedRoundError, match="does not match") as late:
        early.commit(1, b.own_commitment)
    assert late.value.fatal


def test_step_round_reveals_after_every_commit() -> None:
    play = Action.of("pick", n=2)
    mine = StepRound(5, (0, 2))
    theirs = StepRound(5, (0, 2))
    c0 = mine.choose(0, play)
    c2 = theirs.choose(2, Action.of("pick", n=3))
    assert not mine.all_committed
    mine.commit(2, c2)
    theirs.commit(0, c0)
    assert mine.all_committed and theirs.all_committed
    _, action, salt = theirs.own
    mine.reveal(2, action, salt)
    mine.reveal(2, action, salt)  # a repeat (after a reconnect) changes nothing
    assert not mine.complete
    mine.reveals[0] = play
    assert mine.complete
    assert mine.choices() == {0: play, 2: Action.of("pick", n=3)}
    with pytest.raises(StepError, match="not part") as stranger:
        theirs.commit(1, c0)
    assert not stranger.value.fatal
    with pytest.raises(StepError, match="two different") as twice:
        theirs.commit(0, c2)
    assert not twice.value.fatal  # refused; the first commitment stands
    with pytest.raises(StepError, match="before committing") as early:
        StepRound(5, (0, 2)).reveal(2, action, salt)
    assert not early.value.fatal


def test_step_round_a_reveal_that_breaks_its_commitment_is_a_cheat() -> None:
    honest = StepRound(5, (0, 2))
    cheat = StepRound(5, (0, 2))
    honest.commit(2, cheat.choose(2, Action.of("pick", n=3)))
    _, _, salt = cheat.own
    with pytest.raises(StepError, match=r"seat 2's reveal \(pick\(n=1\)\) does not match "
                                        r"its commitment") as other_action:
        honest.reveal(2, Action.of("pick", n=1), salt)
    assert other_action.value.fatal and other_action.value.seat == 2
    with pytest.raises(StepError, match="does not match") as other_salt:
        honest.reveal(2, Action.of("pick", n=3), bytes(32))
    assert other_salt.value.fatal
    assert 2 not in honest.reveals


def test_step_round_a_committed_action_the_rules_refuse_is_a_cheat() -> None:
    from hedgerow.core.errors import Refusal

    honest = StepRound(5, (0, 2))
    cheat = StepRound(5, (0, 2))
    bad = Action.of("pick", n=9)
    honest.commit(2, cheat.choose(2, bad))
    refusal = Refusal("duel.bad_pick", "pick a number from 1 to 3")
    seen: list[tuple[int, Action]] = []

    def legality(seat: int, action: Action) -> Refusal | None:
        seen.append((seat, action))
        return refusal if action["n"] not in (1, 2, 3) else None

    with pytest.raises(StepError, match=r"committed to pick\(n=9\), which the rules refuse "
                                        r"at the start of the step: duel.bad_pick") as illegal:
        honest.reveal(2, bad, cheat.own[2], legality)
    assert illegal.value.fatal and illegal.value.refusal == refusal
    assert seen == [(2, bad)] and 2 not in honest.reveals


def test_hash_book_names_the_minority_seat() -> None:
    book = HashBook(4, own_seat=0)
    assert book.report(1, 0, H[0]) is None  # before our own hash: kept
    assert book.record_own(0, H[0]) is None
    assert book.report(2, 0, H[0]) is None
    found = book.report(3, 0, H[3])
    assert found is not None and found.divergent() == (3,)
    text = found.describe({0: "ann", 3: "dan"})
    assert text.startswith("desync after entry #0: seat 3 (dan) diverged")
    assert book.reported(3, 0) and not book.reported(3, 1)


def test_hash_book_in_the_minority_names_itself() -> None:
    book = HashBook(3, own_seat=2)
    book.record_own(0, H[2])
    book.report(0, 0, H[0])
    found = book.report(1, 0, H[0])
    assert found is not None and found.divergent() == (2,)
    assert "seat 2 (this peer) diverged" in found.describe({})


def test_hash_book_without_a_majority_names_everyone() -> None:
    book = HashBook(2, own_seat=0)
    book.record_own(0, H[0])
    found = book.report(1, 0, H[1])
    assert found is not None and found.divergent() == (0, 1)
    assert "the peers disagree" in found.describe({})


def test_hash_book_of_a_one_seat_table_settles_each_index_at_once() -> None:
    book = HashBook(1, own_seat=0)
    for index in range(3):
        assert book.record_own(index, H[index]) is None
    assert book.settled == {0, 1, 2} and book.reports == {}


def test_hash_book_settles_agreeing_indices_and_still_checks_repeats() -> None:
    book = HashBook(3, own_seat=0)
    book.record_own(0, H[0])
    book.report(1, 0, H[0])
    book.report(2, 0, H[0])
    assert 0 in book.settled and 0 not in book.reports
    assert book.report(1, 0, H[0]) is None  # a repeat after a rejoin
    assert book.report(1, 0, H[1]) is not None  # but not a different one
    assert book.report(1, 10_000, H[0]) is None  # far ahead: ignored


def test_hash_book_names_the_earliest_entry_where_hashes_differ() -> None:
    book = HashBook(3, own_seat=0)
    for index in range(4):
        book.record_own(index, H[index])
    later = book.report_all(2, [(2, H[2]), (3, H[9])])
    assert later is not None and later.index == 3
    earlier = book.report(1, 1, H[9])  # a report that comes later, of an earlier entry
    assert earlier is not None and earlier.index == 1 and book.divergence == earlier
    refined = book.report(2, 1, H[1])
    assert refined is not None and refined.index == 1 and refined.divergent() == (1,)
    assert book.report(2, 3, H[3]) == refined  # a later entry changes nothing now


def test_hash_book_takes_a_seat_that_contradicts_itself_at_its_claim_that_differs() -> None:
    book = HashBook(3, own_seat=0)
    book.record_own(0, H[0])
    assert book.report(1, 0, H[9]) is not None  # a lie, then the truth
    found = book.report(1, 0, H[0])
    assert found is not None and found.hashes[1] == H[9]
    later = HashBook(3, own_seat=0)
    later.report(1, 0, H[0])  # the truth, then a lie, both before our own hash
    later.report(1, 0, H[9])
    found = later.record_own(0, H[0])
    assert found is not None and found.hashes[1] == H[9] and found.divergent() == (0, 1)


def test_hash_book_keeps_how_far_our_hashes_are_reported() -> None:
    book = HashBook(2, own_seat=0)
    for index in range(3):
        book.record_own(index, H[index])
    assert book.unreported() == [H[0], H[1], H[2]] and book.sent == 0
    book.mark_reported(2)
    assert book.unreported() == [H[2]]
    book.mark_reported(9)  # never past our own hashes
    assert book.sent == 3 and book.unreported() == []


def posy_plugins(*, variants: bool = True) -> PluginHost:
    extra = toygames.PLUGINS if variants else (toygames.PosyPlugin(), toygames.DuelPlugin())
    return PluginHost(builtins=(), autoload=False, extra=extra)


def test_rules_match_names_what_differs() -> None:
    ruleset = posy_plugins().ruleset("posy", ["lowball"], 2)
    assert rulesmatch.installed(posy_plugins()) == (
        ("duel", "1.0.0"), ("posy", "1.0.0"), ("posy+bonus", "1.0.0"), ("posy+lowball", "1.0.0"),
        ("relay", "1.0.0"), ("tokens", "1.0.0"))
    assert rulesmatch.mismatch(ruleset, "*", rulesmatch.installed(posy_plugins())) is None
    assert rulesmatch.mismatch(ruleset, ruleset.fingerprint,
                               rulesmatch.installed(posy_plugins())) is None
    lacking = rulesmatch.installed(posy_plugins(variants=False))
    assert rulesmatch.mismatch(ruleset, "*", lacking) == (
        "you lack variant lowball 1.0.0 (table rules: posy@1.0.0+lowball@1.0.0)")
    older = (("posy", "0.9.0"), ("posy+lowball", "1.0.0"))
    assert "you have game posy 0.9.0, the table runs 1.0.0" in rulesmatch.mismatch(
        ruleset, "*", older)
    assert "you asked for posy@1.0.0, but the table runs" in rulesmatch.mismatch(
        ruleset, "posy@1.0.0", rulesmatch.installed(posy_plugins()))


def test_a_refusal_names_the_package_to_install() -> None:
    """The joiner is told which distribution the host got a missing plugin from (or which
    module it loaded by name: tests/e2e/test_join_refused.py)."""
    package = rulesmatch.packages(posy_plugins())
    assert package("posy+lowball") is None  # handed to the host as objects: it cannot say
    assert package("nosuchgame") is None
    builtin = PluginHost(autoload=False)
    petals = builtin.ruleset("petals", ["harmony"], 2)
    plain = tuple(p for p in rulesmatch.installed(builtin) if p[0] != "petals+harmony")
    version = builtin.origin_of[builtin.game("petals")].version
    assert rulesmatch.mismatch(petals, "*", plain, rulesmatch.packages(builtin)) == (
        f"you lack variant harmony 1.0.0 (install the package hedgerow {version}) "
        f"(table rules: {petals.fingerprint})")


def test_rules_are_bound_from_a_fingerprint() -> None:
    ruleset = rulesmatch.ruleset_for(posy_plugins(), "posy@1.0.0+lowball@1.0.0", 3)
    assert ruleset.variant_names == ("lowball",)
    with pytest.raises(HedgerowError, match=r"you lack variant lowball 1\.0\.0"):
        rulesmatch.ruleset_for(posy_plugins(variants=False), "posy@1.0.0+lowball@1.0.0", 3)
    with pytest.raises(HedgerowError, match=r"game posy 2\.0 \(you have 1\.0\.0\)"):
        rulesmatch.ruleset_for(posy_plugins(), "posy@2.0", 3)
    with pytest.raises(HedgerowError, match="not a fingerprint"):
        rulesmatch.ruleset_for(posy_plugins(), "posy", 3)


def test_table_file_round_trips_and_reports_damage(tmp_path: Path) -> None:
    log = tmp_path / "t.hlog"
    peers = tuple(PeerInfo(s, generate().public, f"tcp://127.0.0.1:{4000 + s}", f"p{s}", s == 1)
                  for s in range(3))
    saved = tablefile.TableFile(bytes(range(16)), 1, peers, "/keys/k", "random")
    tablefile.save(log, saved)
    assert tablefile.load(log) == saved
    tablefile.path_for(log).write_text("{not json")
    with pytest.raises(HedgerowError, match="damaged"):
        tablefile.load(log)
    with pytest.raises(HedgerowError, match="missing"):
        tablefile.load(tmp_path / "other.hlog")


def test_the_peer_phases_do_not_import_each_other() -> None:
    """Seating, Startup and Sync see each other only through what `Peer` passes to their
    constructors, so a new phase can be added by reading the context and the wiring."""
    import ast

    net = Path(__file__).resolve().parents[2] / "net"
    phases = {"seating", "startup", "sync"}
    for name in phases:
        tree = ast.parse((net / f"{name}.py").read_text())
        imported = {node.module.rsplit(".", 1)[-1] for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and node.module}
        imported |= {alias.name.rsplit(".", 1)[-1] for node in ast.walk(tree)
                     if isinstance(node, ast.Import) for alias in node.names}
        assert not imported & (phases | {"peer"}) - {name}, (name, imported)


def test_a_desync_message_shows_hashes_that_differ_only_at_their_end_as_different() -> None:
    """(From the 100,000-input fuzz run: "seat 0 has 788d92aa41ab, seat 2 has 788d92aa41ab".)"""
    book = HashBook(2, own_seat=0)
    true = bytes.fromhex("788d92aa41ab") + bytes(26)
    claim = true[:-1] + b"\x01"
    book.record_own(0, true)
    found = book.report(1, 0, claim)
    assert found is not None
    text = found.describe({})
    shown = [part.split(" has ")[1] for part in text.rstrip(")").split("(", 1)[1].split(", ")]
    assert len(set(shown)) == 2 and true.hex().startswith(shown[0])
    assert claim.hex().startswith(shown[1]) and len(shown[0]) == len(shown[1])


def test_a_seed_agreement_that_stands_still_sends_our_commitment_and_share_again() -> None:
    from types import SimpleNamespace

    from hedgerow.net.context import STALL_BEATS
    from hedgerow.net.messages import SeedCommit, SeedReveal
    from hedgerow.net.seat import Link, Phase
    from hedgerow.net.startup import Startup

    sent: list[tuple[str, object]] = []
    near = SimpleNamespace(name="near", link=Link.CONNECTED)
    gone = SimpleNamespace(name="gone", link=Link.LOST)
    ctx = SimpleNamespace(phase=Phase.SEEDING, seat=0, players=3, round=2, table=None,
                          roster=SimpleNamespace(others=lambda: [near, gone]),
                          send=lambda member, body: sent.append((member.name, body)))
    startup = Startup(ctx, play=None, sealed=None)  # type: ignore[arg-type]
    seed = startup.round
    for _ in range(STALL_BEATS):  # the first beat marks where the agreement is
        startup.resend_stalled()
    assert sent == []
    startup.resend_stalled()  # still for STALL_BEATS beats: our commitment again
    assert sent == [("near", SeedCommit(0, seed.own_commitment, 2))]  # not to a lost link
    sent.clear()
    seed.commit(1, SeedRound(3, 1).own_commitment)  # the agreement moved: wait again
    for _ in range(STALL_BEATS):
        startup.resend_stalled()
    assert sent == []
    startup._revealed = True  # once we revealed, our share goes too
    startup.resend_stalled()
    assert sent == [("near", SeedCommit(0, seed.own_commitment, 2)),
                    ("near", SeedReveal(0, seed.share, 2))]
    sent.clear()
    ctx.phase = Phase.PLAYING  # agreed: nothing more
    for _ in range(2 * STALL_BEATS + 2):
        startup.resend_stalled()
    assert sent == []


def test_a_seat_waiting_at_the_start_barrier_sends_its_start_again_and_is_answered() -> None:
    """A Start lost on a cut link would leave its receiver waiting at the barrier for ever:
    the waiting seat sends its own Start again after STALL_BEATS still beats, and a seat
    past the barrier answers that repeat with its own Start, at most once every
    STALL_BEATS beats (docs/protocol.md §3.2 step 5)."""
    from types import SimpleNamespace

    from hedgerow.net.context import STALL_BEATS
    from hedgerow.net.messages import Start
    from hedgerow.net.seat import Link, Phase
    from hedgerow.net.startup import Startup

    header = SimpleNamespace(seed=b"s")  # compared by equality only
    sent: list[tuple[str, object]] = []
    near = SimpleNamespace(name="near", seat=1, link=Link.CONNECTED, label=lambda: "seat 1")
    gone = SimpleNamespace(name="gone", seat=2, link=Link.LOST, label=lambda: "seat 2")
    ctx = SimpleNamespace(phase=Phase.PLAYING, seat=0, players=3, round=1,
                          table=SimpleNamespace(header=header),
                          roster=SimpleNamespace(others=lambda: [near, gone]),
                          send=lambda member, body: sent.append((member.name, body)),
                          notify=lambda: None)
    startup = Startup(ctx, play=None, sealed=None)  # type: ignore[arg-type]
    startup.setup_hash = b"h" * 32
    ours = Start(header, b"h" * 32, 1)  # type: ignore[arg-type]
    startup._started = {1}  # seat 2's Start never came
    for _ in range(STALL_BEATS):  # the first beat marks where the barrier stands
        startup.resend_stalled()
    assert sent == []
    startup.resend_stalled()
    assert sent == [("near", ours)]  # not to a lost link
    sent.clear()

    startup._started = {1, 2}  # past the barrier: no more sending on our own
    for _ in range(2 * STALL_BEATS + 2):
        startup.resend_stalled()
    assert sent == []

    def repeat() -> None:  # seat 1 sends its (matching) Start again: it still waits
        startup.on_start(SimpleNamespace(sender=b"k"), SimpleNamespace(body=ours),  # type: ignore[arg-type]
                         near, ours)  # type: ignore[arg-type]

    repeat()
    assert sent == [("near", ours)]
    repeat()  # an answer to our answer, the same beat: not answered again
    for _ in range(STALL_BEATS - 1):
        startup.resend_stalled()
    repeat()
    assert sent == [("near", ours)]
    startup.resend_stalled()
    repeat()  # STALL_BEATS beats after our last answer
    assert sent == [("near", ours), ("near", ours)]
