"""Violation and reject codes: stable slugs, severities, rule ids."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from pipeline.reports.rule_text import rule_title
from pipeline.violations import Code, Reject, RejectCode, Severity, Violation

SHARED = Path(os.environ.get("CROUPIER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SLUG = re.compile(r"[a-z]+(-[a-z0-9]+)*")


def test_codes_are_slugs_and_unique() -> None:
    values = [c.value for c in Code] + [c.value for c in RejectCode]
    assert all(SLUG.fullmatch(v) for v in values)
    assert len(values) == len(set(values))


def test_every_code_has_a_severity_and_a_rule_id() -> None:
    for code in Code:
        assert isinstance(code.severity, Severity)
        assert re.fullmatch(r"R\d+\.[a-z0-9-]+", code.rule), code


def test_rule_ids_exist_in_rules_md() -> None:
    rules = SHARED / "RULES.md"
    if not rules.exists():
        pytest.skip(f"{rules} is absent (set CROUPIER_SHARED to the shared folder)")
    text = rules.read_text(encoding="utf-8")
    missing = sorted({c.rule for c in Code if f"`{c.rule}`" not in text})
    assert missing == []


def test_the_codes_design_md_names_exist() -> None:
    design = SHARED / "DESIGN.md"
    if not design.exists():
        pytest.skip(f"{design} is absent")
    section = (
        design.read_text(encoding="utf-8").split("Violation codes", 1)[1].split("Each code", 1)[0]
    )
    named = set(re.findall(r"`([a-z-]+)`", section))
    assert named <= {c.value for c in Code}


def test_showdown_order_is_only_a_warning() -> None:
    assert Code.SHOWDOWN_ORDER.severity is Severity.WARNING
    assert Code.PAYOUT_MISMATCH.severity is Severity.ERROR


def test_a_violation_cites_its_codes_rule_unless_told_otherwise() -> None:
    v = Violation(Code.RAISE_ABOVE_POT_LIMIT, "raise to 5.00 above the pot limit 4.00", seq=7)
    assert v.rule == "R5.pl-max"
    assert v.severity is Severity.ERROR
    assert Violation(Code.RAISE_NOT_REOPENED, "x", rule="R5.limit-short-all-in").rule == (
        "R5.limit-short-all-in"
    )


def test_reject_records_where_and_why() -> None:
    r = Reject("f.jsonl", 3, RejectCode.BAD_CARD, "bad", field="$.deck")
    assert (r.source, r.line, r.code.value, r.field) == ("f.jsonl", 3, "bad-card", "$.deck")


@pytest.mark.parametrize(
    ("code", "rule"),
    [
        # a seat all-in, or alone able to bet, is no longer able to act: its check does nothing
        (Code.IDLE_CHECK, "R4.round-end"),
        # the log's all-in flag against its own amounts: the amounts decide
        (Code.ALL_IN_FLAG_MISMATCH, "R9.exact"),
        # chips put in that the player does not have would appear from nowhere
        (Code.EXCEEDS_STACK, "R9.conservation"),
    ],
)
def test_warnings_about_all_in_players_cite_the_rule_they_rest_on(code: Code, rule: str) -> None:
    # not R5.all-in ("a player may always go all-in for less …"), which neither is about
    assert code.rule == rule
    assert rule_title(code.rule)
