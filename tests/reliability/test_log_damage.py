"""Log durability in CI: damaged copies of real logs of every game, detected and recovered.

The offline checks (tests/reliability/damage.py, a sample of each damage kind: seconds per
game) over the four games, and one live refill between real peer processes: a killed
peer's last records turned to zeros, as a power cut leaves them, refilled from the table by
``hedgerow resume``.  (tests/e2e/test_net_faults.py covers a flipped payload byte and a
length field past the end; ``python -m reliability.damage --live`` runs every kind live.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.damage import GAMES, KINDS, Damage, check_damaged_logs, damages, make_log

from hedgerow.net.logfile import parse_log


@pytest.mark.parametrize("game", GAMES)
def test_every_damaged_copy_of_a_real_log_is_detected_and_recovered(game: str) -> None:
    checks = check_damaged_logs(game, every=False)
    assert {c.kind for c in checks} == set(KINDS)
    failed = [c for c in checks if not c.held]
    assert not failed, "\n".join(f"{c.kind} at byte {c.offset}: detected={c.detected} "
                                 f"recovered={c.recovered}: {c.message}" for c in failed)


def test_the_damaged_copies_hit_what_they_say(tmp_path: Path) -> None:
    data = make_log("petals", tmp_path / "petals.hlog").read_bytes()
    entries = parse_log(data).entries
    made: dict[str, list[Damage]] = {}
    for damage in damages(data):
        made.setdefault(damage.kind, []).append(damage)
        assert damage.data != data
    # every record boundary, and every entry for the flips
    assert len(made["cut-boundary"]) == 2 + len(entries)
    assert {d.index for d in made["flip-payload"]} == set(range(len(entries)))
    kinds = {kind: {parse_log(d.data).problem.kind for d in found  # type: ignore[union-attr]
                    if parse_log(d.data).problem is not None}
             for kind, found in made.items()}
    assert kinds["flip-digest"] == {"bad_digest"}
    assert kinds["flip-state-hash"] == set()  # only replaying the rules can see it
    assert kinds["flip-crc"] == {"bad_crc"}
    assert kinds["zeros-appended"] <= {"truncated", "undecodable", "bad_crc"}


@pytest.mark.e2e
def test_a_live_peers_zeroed_tail_is_refilled_from_the_table(tmp_path: Path) -> None:
    from reliability.damage import live_refill

    # (also: a real peer's log written again by LogWriter is the same bytes, which is what
    # make_log relies on)
    done = live_refill("petals", "zeros-over-tail", rewrite=tmp_path / "again.hlog")
    assert "resumed and refilled" in done
