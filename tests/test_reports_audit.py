"""croupier audit: every injected fault listed, the deal's fairness judged, findings by hand."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import generate_hands
from pipeline.lake.query import run_query
from pipeline.money import format_amount
from pipeline.reports.audit import FINDING_KINDS, Audit, Finding, _p_found, audit
from pipeline.reports.audit_render import render_markdown
from pipeline.reports.fairness import VERDICT_FAIR
from pipeline.run import run_lake

runner = CliRunner()
Json = dict[str, object]


def _lake_of(root: Path, name: str, **generate: object) -> Path:
    log = root / f"{name}.jsonl"
    with log.open("wb") as out:
        write_jsonl(generate_hands(**generate), out)  # type: ignore[arg-type]
    run_lake([str(log)], root / name, workers=1)
    return root / name


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, str]]]:
    """A lake of 1,200 generated hands, a fifth of them faulted, and the faults injected."""
    root = tmp_path_factory.mktemp("audit-faults")
    hands = list(generate_hands(1200, seed=7, faults=0.2))
    injected = []
    for hand in hands:
        raw = dict(hand.extras).get("_injected")
        if raw is not None:
            injected.append((json.loads(raw)["code"], hand.hand_id))
    log = root / "hands.jsonl"
    with log.open("wb") as out:
        write_jsonl(hands, out)
    run_lake([str(log)], root / "lake", workers=1)
    return root / "lake", injected


def test_every_injected_fault_is_listed_with_its_hand(
    faulty: tuple[Path, list[tuple[str, str]]],
) -> None:
    lake, injected = faulty
    report = audit(lake, examples=None, limit=None)
    assert len(injected) > 150
    listed = {(g.key[0], hand) for g in report.violations["code"] for hand in g.examples}
    missing = [fault for fault in injected if fault not in listed]
    assert missing == []
    # the groupings count the same violations
    total = sum(g.violations for g in report.violations["code"])
    for name in ("site", "table", "month"):
        assert sum(g.violations for g in report.violations[name]) == total
    assert sum(s.hands for s in report.statuses) == report.hands == 1200
    payouts = {p.payouts: p.hands for p in report.payouts}
    assert sum(payouts.values()) == 1200
    assert payouts["match the log"] > 900 and payouts["differ from the log"] > 0
    differ = "SELECT count(*) FROM hands WHERE status IN ('ok', 'violations') AND NOT payouts_match"
    assert payouts["differ from the log"] == run_query(lake, differ).rows[0][0]


def test_examples_are_few_sorted_and_deterministic(
    faulty: tuple[Path, list[tuple[str, str]]],
) -> None:
    lake, _ = faulty
    one, two = audit(lake, examples=3), audit(lake, examples=3)
    assert one == two
    for group in one.violations["code"]:
        assert 1 <= len(group.examples) <= min(3, group.hands)
        assert list(group.examples) == sorted(group.examples)


def test_payout_faults_are_listed_with_amounts(
    faulty: tuple[Path, list[tuple[str, str]]],
) -> None:
    lake, injected = faulty
    report = audit(lake, limit=None)
    payouts = [f for f in report.findings if f.kind == "payout-mismatch"]
    assert report.finding_counts["payout-mismatch"] == len(payouts) > 0
    for f in payouts:
        assert f.expected != f.found
        assert f.expected is not None and f.found is not None
        float(f.expected), float(f.found)  # exact decimal text
    faulted = {hand for code, hand in injected}
    assert {f.hand_id for f in payouts} <= faulted
    # generated hands are independent deals: nothing to say about continuity
    for kind in ("hand-number-gap", "button-move", "stack-carry", "seated-twice"):
        assert report.finding_counts[kind] == 0


def test_findings_are_capped_per_kind_but_counted(
    faulty: tuple[Path, list[tuple[str, str]]],
) -> None:
    lake, _ = faulty
    report = audit(lake, limit=2)
    assert report.finding_counts["payout-mismatch"] > 2
    assert sum(f.kind == "payout-mismatch" for f in report.findings) == 2


def test_the_audit_names_each_step_it_turns_to(
    faulty: tuple[Path, list[tuple[str, str]]],
) -> None:
    """For the progress display of a long audit: every kind of finding has its step, in
    the order they are listed, between the overview and the fairness tests (whose failed
    tests are the last kind)."""
    lake, _ = faulty
    told: list[str] = []
    report = audit(lake, limit=2, on_step=told.append)
    assert list(report.finding_counts) == list(FINDING_KINDS) and len(FINDING_KINDS) == 10
    kinds = [kind.replace("-", " ") for kind in FINDING_KINDS[:-1]]
    assert told == ["hands and statuses", "violations", *kinds, "fairness of the deal"]


# ------------------------------------------------------------------------ fairness of the deal


def test_fair_deals_pass_the_fairness_tests(tmp_path: Path) -> None:
    lake = _lake_of(tmp_path, "fair", count=3000, seed=41)
    fairness = audit(lake).fairness
    assert fairness.verdict == VERDICT_FAIR
    assert fairness.decks == 3000 and fairness.hole_hands == 3000
    assert len(fairness.meaningful) >= 4 + 2 + 52  # hole positions 1-4, ranks, suits, deck
    assert all(t.result == "pass" for t in fairness.meaningful)
    assert all(t.p_holm is not None and t.p_holm >= 0.01 for t in fairness.meaningful)


def test_a_biased_deal_fails_the_fairness_tests(tmp_path: Path) -> None:
    lake = _lake_of(tmp_path, "biased", count=1000, seed=41, deck_bias=0.3)
    fairness = audit(lake).fairness
    assert fairness.verdict == "evidence of bias at 1% after Holm"
    failed = {t.name for t in fairness.tests if t.result == "fail"}
    assert "hole cards: cards at position 1" in failed
    assert "deck: cards at position 1" in failed
    # the rigged ace comes from elsewhere in the deck, often another hole card: the pooled
    # rank count hardly moves, and only the position tests see it (the first card dealt is
    # the small blind's: by table position, the SB holds too many aces)
    by_seat = "hole cards: ranks by table position"
    assert all(name.endswith("position 1") or name == by_seat for name in failed)
    first = next(t for t in fairness.tests if t.name == "deck: cards at position 1")
    aces = sum(first.observed[48:52])
    assert aces > 300  # a fair deck puts about 77 aces on top of 1,000 decks
    # each failed test is a finding too, so the findings alone (CSV) say why audit fails
    report = audit(lake)
    found = [f for f in report.findings if f.kind == "deal-fairness"]
    assert len(found) == report.finding_counts["deal-fairness"] == len(failed)
    assert all(any(f.message.startswith(f"{name}: ") for f in found) for name in failed)
    deck = next(f for f in found if f.message.startswith("deck: cards at position 1"))
    assert deck.expected == "p >= 0.01 after Holm" and deck.found is not None
    assert "furthest from a fair deal: A" in deck.message
    csv_out = runner.invoke(app, ["audit", "--lake", str(lake), "--format", "csv"]).stdout
    assert "deal-fairness" in csv_out and "deck: cards at position 1" in csv_out


def test_too_few_hands_is_said_plainly(tmp_path: Path) -> None:
    lake = _lake_of(tmp_path, "few", count=18, seed=3)  # 90 board cards: fewer than 100
    fairness = audit(lake).fairness
    assert fairness.verdict == "not enough hands"
    cards = [t for t in fairness.tests if t.kind == "cards" and t.sample != "boards"]
    assert {t.result for t in cards} == {"insufficient data"}
    assert all(t.needed == 5 * 52 > t.n and t.p_value is None for t in cards)
    boards = [t for t in fairness.tests if t.sample == "boards"]
    assert len(boards) == 3 and all(t.needed > t.n and t.p_value is None for t in boards)
    # ranks and suits, pooled or by table position, have enough cards to test, but say
    # nothing of cards by position
    meaningful = {t.kind for t in fairness.meaningful}
    assert meaningful == {"ranks", "suits", "ranks by position", "suits by position", "repeats"}


# ------------------------------------------------------------------------ hand-made findings

START = datetime(2026, 3, 2, 19, 0, tzinfo=UTC)
CARDS = ["AhKhQhJh", "2c3c4c5c", "9d9s8d8s", "6h6d7h7d"]


def _walk(
    hand_id: str,
    at: datetime,
    button: int,
    stacks: dict[int, tuple[str, int]],
    *,
    table: str = "Oak",
    collected: int | None = None,
) -> Json:
    """Return a three-handed hand where everyone folds to the big blind (stacks in cents)."""
    seats = sorted(stacks)
    after = seats[seats.index(button) + 1 :] + seats[: seats.index(button) + 1]
    sb, bb, first = after[0], after[1], after[2]
    deals = [{"type": "deal", "seat": s, "cards": CARDS[k]} for k, s in enumerate(after)]
    return {
        "hand_id": hand_id,
        "site": "Oakroom",
        "table": table,
        "started_at": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "game": {
            "variant": "omaha",
            "hole_cards": 4,
            "betting": "pot-limit",
            "small_blind": "0.50",
            "big_blind": "1.00",
            "currency": "USD",
            "unit": "0.01",
        },
        "button": button,
        "seats": [
            {"seat": s, "player": stacks[s][0], "stack": format_amount(stacks[s][1], 2)}
            for s in seats
        ],
        "actions": [
            {"type": "post", "seat": sb, "blind": "small", "amount": "0.50"},
            {"type": "post", "seat": bb, "blind": "big", "amount": "1.00"},
            *deals,
            {"type": "fold", "seat": first},
            {"type": "fold", "seat": sb},
            {"type": "uncalled", "seat": bb, "amount": "0.50"},
        ],
        "result": {
            "rake": "0",
            "collected": [{"seat": bb, "amount": format_amount(collected or 100, 2)}],
        },
    }


def _after(hand: Json, stacks: dict[int, tuple[str, int]]) -> dict[int, tuple[str, int]]:
    """Return the stacks after a walk: the small blind lost 50 cents to the big blind."""
    actions = hand["actions"]
    assert isinstance(actions, list)
    sb, bb = actions[0]["seat"], actions[1]["seat"]
    out = dict(stacks)
    out[sb] = (stacks[sb][0], stacks[sb][1] - 50)
    out[bb] = (stacks[bb][0], stacks[bb][1] + 50)
    return out


def _write(path: Path, hands: list[Json]) -> None:
    path.write_text("".join(json.dumps(h) + "\n" for h in hands), encoding="utf-8")


def _oak() -> Iterator[Json]:
    """Hands 1001-1003 and 1005 of table Oak, then 1006 with the button not moved and a
    player who came back with more chips than they left with."""
    stacks = {1: ("Ann", 10000), 2: ("Bo", 10000), 3: ("Cy", 10000)}
    for k, (number, button) in enumerate(((1001, 1), (1002, 2), (1003, 3), (1005, 1))):
        hand = _walk(f"OAK-{number}", START + timedelta(minutes=k), button, stacks)
        yield hand
        stacks = _after(hand, stacks)
    stacks[3] = ("Cy", stacks[3][1] + 2000)
    yield _walk("OAK-1006", START + timedelta(minutes=5), 1, stacks)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("audit-made")
    oak = list(_oak())
    elm_twice = _walk(
        "ELM-1", START, 3, {1: ("Ann", 5000), 2: ("Dee", 5000), 3: ("Ann", 5000)}, table="Elm"
    )
    elm_short = _walk(
        "ELM-2",
        START + timedelta(hours=2),
        3,
        {1: ("Eve", 5000), 2: ("Fay", 5000), 3: ("Gus", 5000)},
        table="Elm",
        collected=80,
    )
    _write(root / "oak.jsonl", oak)
    _write(root / "elm.jsonl", [elm_twice, elm_short])
    _write(
        root / "again.jsonl",
        [
            oak[0],
            _walk(
                "OAK-2001",
                START + timedelta(days=1),
                1,
                {1: ("Ann", 10000), 2: ("Bo", 10000), 3: ("Cy", 10000)},
                table="Pine",
            ),
        ],
    )
    lake = root / "lake"
    run_lake([str(root / "oak.jsonl"), str(root / "elm.jsonl")], lake, workers=1)
    run_lake([str(root / "again.jsonl")], lake, workers=1)
    return lake


def _found(report: Audit, kind: str) -> list[Finding]:
    return [f for f in report.findings if f.kind == kind]


def test_a_gap_in_hand_numbers_is_found(made: Path) -> None:
    gaps = _found(audit(made), "hand-number-gap")
    assert [(g.hand_id, g.table, g.expected, g.found) for g in gaps] == [
        ("OAK-1005", "Oak", "1004", "1005")
    ]
    assert "1 hand number(s) missing" in gaps[0].message


def test_the_button_must_move_to_the_next_seat(made: Path) -> None:
    moves = _found(audit(made), "button-move")
    # 1001 → 1002 → 1003 move one seat each; 1003 → 1005 spans a gap (not checked);
    # 1005 → 1006 leaves the button at seat 1
    assert [(m.hand_id, m.expected, m.found) for m in moves] == [("OAK-1006", "2", "1")]


def test_stacks_must_carry_over_between_hands(made: Path) -> None:
    carries = _found(audit(made), "stack-carry")
    assert [(c.hand_id, c.player, c.expected, c.found) for c in carries] == [
        ("OAK-1006", "Cy", "100.50", "120.50")
    ]
    assert carries[0].message.endswith(
        "(more: a top-up or rebuy between the hands, which logs do not record?)"
    )


def test_a_player_seated_twice_is_found(made: Path) -> None:
    twice = _found(audit(made), "seated-twice")
    assert [(t.hand_id, t.player, t.found) for t in twice] == [("ELM-1", "Ann", "seats 1, 3")]


def test_a_pot_not_paid_out_breaks_chip_conservation(made: Path) -> None:
    report = audit(made)
    short = _found(report, "pot-not-paid-out")
    assert [(s.hand_id, s.expected, s.found) for s in short] == [("ELM-2", "1.00", "0.80")]
    assert "difference 0.20" in short[0].message
    payouts = _found(report, "payout-mismatch")
    assert ("ELM-2", "Fay", "1.00", "0.80") in [
        (p.hand_id, p.player, p.expected, p.found) for p in payouts
    ]
    # the stacks the rules leave are conserved in every judged hand
    assert report.finding_counts["stacks-not-conserved"] == 0


def test_duplicate_hands_are_counted_per_input(made: Path) -> None:
    report = audit(made)
    duplicates = _found(report, "duplicate-input-hands")
    assert len(duplicates) == 1
    assert duplicates[0].found == "1" and "again.jsonl" in duplicates[0].message
    assert report.finding_counts["duplicate-hand"] == 0  # the lake kept one copy
    assert report.hands == 8


def test_a_session_file_read_again_after_it_grew_is_no_finding(tmp_path: Path) -> None:
    hands = list(generate_hands(15, seed=44))
    session, lake = tmp_path / "session.jsonl", tmp_path / "lake"
    with session.open("wb") as out:
        write_jsonl(hands[:10], out)
    run_lake([str(session)], lake, workers=1)
    with session.open("wb") as out:  # the site wrote five more hands to it
        write_jsonl(hands, out)
    grown = run_lake([str(session)], lake, workers=1)
    assert grown.duplicates == 10
    assert _found(audit(lake), "duplicate-input-hands") == []
    with session.open("wb") as out:  # another file at the same path: copies, not growth
        write_jsonl(hands[:3], out)
    run_lake([str(session)], lake, workers=1)
    [finding] = _found(audit(lake), "duplicate-input-hands")
    assert finding.found == "3" and "session.jsonl" in finding.message
    copy = tmp_path / "copy.jsonl"  # two hands again, from another file: worth a look
    with copy.open("wb") as out:
        write_jsonl(hands[3:5], out)
    run_lake([str(copy)], lake, workers=1)
    found = _found(audit(lake), "duplicate-input-hands")
    assert [(f.found, Path(f.message.split(" from ")[1].split(";")[0]).name) for f in found] == [
        ("3", "session.jsonl"),
        ("2", "copy.jsonl"),
    ]


# ------------------------------------------------------------------------------------ CLI


def test_cli_json_is_the_library_report(made: Path) -> None:
    result = runner.invoke(app, ["audit", "--lake", str(made), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(json.dumps(asdict(audit(made))))


def test_cli_csv_lists_the_findings(made: Path) -> None:
    result = runner.invoke(app, ["audit", "--lake", str(made), "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == len(audit(made).findings)
    assert {"hand-number-gap", "button-move", "stack-carry", "seated-twice"} <= {
        r["kind"] for r in rows
    }


def test_cli_markdown_and_table(made: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["audit", "--lake", str(made), "--format", "markdown"])
    assert result.exit_code == 0, result.output
    assert result.stdout == render_markdown(audit(made))
    assert "## Continuity: button moves" in result.stdout
    table = runner.invoke(app, ["audit", "--lake", str(made)])
    assert table.exit_code == 0, table.output
    assert "Players seated twice" in table.stdout and "OAK-1006" in table.stdout
    out = tmp_path / "audit.md"
    html = tmp_path / "audit.html"
    written = runner.invoke(
        app,
        ["audit", "--lake", str(made), "--format", "markdown", "-o", str(out), "--html", str(html)],
    )
    assert written.exit_code == 0, written.output
    assert written.stdout == ""
    assert out.read_text(encoding="utf-8") == result.stdout
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_cli_exit_codes(made: Path, tmp_path: Path) -> None:
    failing = runner.invoke(
        app, ["audit", "--lake", str(made), "--fail-on-findings", "-o", str(tmp_path / "a.txt")]
    )
    assert failing.exit_code == 1
    missing = runner.invoke(app, ["audit", "--lake", str(tmp_path / "nothing")])
    assert missing.exit_code == 3
    assert "no lake" in missing.output
    usage = runner.invoke(app, ["audit", "--lake", str(made), "--format", "xml"])
    assert usage.exit_code == 2


def test_a_stack_that_shrank_between_hands_is_told_apart_from_a_top_up() -> None:
    from pipeline.reports.audit import _carry_cause

    assert _carry_cause(10_050, 12_050).startswith(" (more: a top-up or rebuy")
    assert _carry_cause(12_050, 10_050) == " (less: chips gone between the hands)"


@pytest.mark.parametrize(
    ("p", "said"), [(0.0123, "p = 0.0123"), (5.67e-149, "p = 5.67e-149"), (0.0, "p < 1e-300")]
)
def test_a_failed_test_s_p_value_in_a_finding_is_never_p_0(p: float, said: str) -> None:
    """A tail too small for a float underflows to 0: the finding says it is below the
    smallest float, as the report's table does, not an impossible p = 0."""
    assert _p_found(p) == said
