"""The checker's report (hedgerow.net.conformance): what a person and CI read, and the
documented list of scenarios (docs/protocol.md §12), which must be the checker's own."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hedgerow.net.conformance import hosted, hosting, watching
from hedgerow.net.conformance.report import Report, Result, Verdict
from hedgerow.net.conformance.session import _spans

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_every_scenario_is_documented_with_its_section() -> None:
    chapter = DOC.read_text(encoding="utf-8").split("## 12. Writing your own peer")[1]
    rows = re.findall(r"^\| (`[^|]+`) \| ([\d., ]+) \|", chapter, re.MULTILINE)
    documented = {name.strip("`"): sections.split(", ")
                  for names, sections in rows for name in names.split(", ")}
    checked = {**hosted.SCENARIOS, **hosting.SCENARIOS, **watching.SCENARIOS}
    assert set(documented) == set(checked)
    for scenarios in (hosted.SCENARIOS, hosting.SCENARIOS, watching.SCENARIOS):
        for name, (section, _) in scenarios.items():
            assert documented[name][0] == section, name


def test_both_modes_share_the_scenarios_once_seated_in_one_order() -> None:
    from hedgerow.net.conformance.sealed import SEALED_END
    from hedgerow.net.conformance.session import SHARED

    for scenarios in (hosted.SCENARIOS, hosting.SCENARIOS):
        assert [n for n in scenarios if n in SHARED] == list(SHARED)
    assert set(hosted.SCENARIOS) - set(SHARED) == {
        "hello-wrong-table", "hello-rules-mismatch", "hello-wrong-seat", "seating",
        "spectator", "spectator-refused", "spectator-feed", *SEALED_END}
    assert set(hosting.SCENARIOS) - set(SHARED) == {
        "hello", "seating", "refuse-seat-moved", "refuse-seat-count", *SEALED_END}


def test_the_report_passes_only_when_every_scenario_passed() -> None:
    report = Report("127.0.0.1:1/KEY", "posy@1.0.0#open-deck")
    assert not report.passed  # nothing ran: not a pass
    report.results.append(Result("seating", "3.1", Verdict.PASS, "seat 1 of 2", checks=9))
    assert report.passed
    report.results.append(Result("end", "3.3", Verdict.SKIP, "not reached"))
    assert not report.passed
    report.results.append(Result("play", "4.2", Verdict.FAIL, "the game", "ab", "cd"))
    text = report.text().splitlines()
    assert text[0] == "check-peer 127.0.0.1:1/KEY (posy@1.0.0#open-deck)"
    assert text[-3:-1] == ["      expected: ab", "      got:      cd"]
    assert text[-1] == "3 scenarios: 1 passed, 1 failed, 1 skipped: the peer deviates"
    data = json.loads(report.as_json())
    assert data["passed"] is False and data["counts"] == {"pass": 1, "fail": 1, "skip": 1,
                                                          "n/a": 0}
    assert data["results"][2] == {"name": "play", "section": "4.2", "verdict": "fail",
                                  "summary": "the game", "expected": "ab", "got": "cd",
                                  "checks": 0}


def test_a_scenario_that_did_not_apply_does_not_fail_the_report() -> None:
    report = Report("join 127.0.0.1:1/KEY")
    report.results.append(Result("refuse-step-action", "3.3", Verdict.NA, "does not apply"))
    assert not report.passed  # nothing passed: not a pass
    report.results.append(Result("play", "3.3", Verdict.PASS, "the game"))
    assert report.passed
    assert report.text().splitlines()[1].startswith("N/A  refuse-step-action   §3.3")
    assert report.summary() == ("2 scenarios: 1 passed, 0 failed, 0 skipped, 1 did not "
                                "apply: the peer conforms")


def test_a_reason_for_not_applying_or_a_scenario_fits_a_line_of_80_columns() -> None:
    from hedgerow.net.conformance.session import MOMENTS

    checked = {**hosted.SCENARIOS, **hosting.SCENARIOS, **watching.SCENARIOS}
    for name, reason in [*MOMENTS.items(), *((n, what) for n, (_, what) in checked.items()),
                         *((n, what) for n, (_, what) in hosted.SCENARIOS.items())]:
        line = Result(name, "3.3", Verdict.NA, reason).line()
        assert len(line) <= 80, line


def test_missing_entries_are_named_as_spans() -> None:
    assert _spans([3, 4, 5, 7, 9, 10]) == "#3-#5, #7, #9-#10"
    assert _spans([0]) == "#0"
