"""What ``hedgerow check-peer`` reports: one `Result` per scenario and a `Report` of them.

A scenario stops at its first deviation from docs/protocol.md: it raises `Deviation` (the
section, what the document asks for, what the peer under test did), and the runner keeps
it as the scenario's result.  A scenario that cannot run because an earlier one failed is
*skipped*, which does not count as passing: the exit status is 0 only when every scenario
passed or did not apply.  A scenario *does not apply* (``n/a``) when the whole game was
played and the game never gave the checker the moment it needs (a probe of a simultaneous
step in a game without one, a one-seat turn in a game of simultaneous steps only).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


class Verdict(StrEnum):
    """How a scenario ended."""

    PASS = "pass"
    FAIL = "fail"
    SKIP = "skip"
    NA = "n/a"


class Unsupported(Exception):
    """The checker cannot drive this table (not the peer's fault): the scenarios that
    need it are skipped, saying why."""


class NotApplicable(Exception):
    """The peer made a choice the document leaves to it (e.g. to wait for a departed seat
    rather than seat a bot), so the scenario has nothing to check: it does not apply."""


class Deviation(Exception):
    """The peer under test broke docs/protocol.md ``section``: ``expected``, ``got``."""

    def __init__(self, section: str, expected: str, got: str) -> None:
        super().__init__(f"§{section}: expected {expected}; got {got}")
        self.section = section
        self.expected = expected
        self.got = got


@dataclass(slots=True)
class Result:
    """One scenario's outcome.  ``section`` is the part of docs/protocol.md it checks (a
    failure names the section of its first deviation, which may be narrower); ``checks``
    counts the individual checks that passed before the end."""

    name: str
    section: str
    verdict: Verdict
    summary: str
    expected: str = ""
    got: str = ""
    checks: int = 0

    def line(self) -> str:
        """The result as one or more lines for a person."""
        head = f"{self.verdict.upper():4} {self.name:<20} §{self.section:<4} {self.summary}"
        if self.verdict is Verdict.FAIL:
            return f"{head}\n      expected: {self.expected}\n      got:      {self.got}"
        return head


@dataclass(slots=True)
class Report:
    """Every scenario's result, in the order they ran, and what was checked."""

    target: str
    fingerprint: str = ""
    results: list[Result] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True when some scenario passed and every one passed or did not apply."""
        return (any(r.verdict is Verdict.PASS for r in self.results)
                and all(r.verdict in (Verdict.PASS, Verdict.NA) for r in self.results))

    def counts(self) -> dict[str, int]:
        """How many scenarios passed, failed and were skipped."""
        return {v.value: sum(r.verdict is v for r in self.results) for v in Verdict}

    def summary(self) -> str:
        """The last line: the counts and the verdict."""
        c = self.counts()
        verdict = "the peer conforms" if self.passed else "the peer deviates"
        na = f", {c['n/a']} did not apply" if c["n/a"] else ""
        return (f"{len(self.results)} scenarios: {c['pass']} passed, {c['fail']} failed, "
                f"{c['skip']} skipped{na}: {verdict}")

    def text(self) -> str:
        """The whole report for a person."""
        lines = [f"check-peer {self.target}"
                 + (f" ({self.fingerprint})" if self.fingerprint else "")]
        lines += [r.line() for r in self.results]
        lines.append(self.summary())
        return "\n".join(lines)

    def as_json(self) -> str:
        """The whole report as one JSON object (``--json``)."""
        data: dict[str, Any] = {"target": self.target, "fingerprint": self.fingerprint,
                                "passed": self.passed, "counts": self.counts(),
                                "results": [asdict(r) for r in self.results]}
        return json.dumps(data, sort_keys=True)
