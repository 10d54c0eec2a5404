"""The compliance audit of a lake: statuses, violations, money, duplicates, continuity, fairness.

Everything is DuckDB SQL over the lake's views (bound parameters; no text from a log is
ever part of the SQL) and comes back as frozen records of plain data, which
:mod:`pipeline.reports.audit_render` renders. Findings are things for a person to look
at, not errors: a player who bought chips between two hands breaks "stacks carried over"
without breaking a rule.

Checks and their assumptions:

- **Payouts against the log**: hands counted by whether the rules' payouts match the
  log's, differ, or could not be checked (a void, invalid or partial hand; pots the rules
  could not award; a log that records no payout), so that "no payout findings" is read
  against what was checked.

- **Chip conservation** per hand (statuses ``ok`` and ``violations`` with payouts judged,
  no cash-out): the stacks the rules leave, ``sum(stack_start) = sum(stack_end) + rake +
  fees − added``; and the log's own bookkeeping, ``sum(invested) = sum(collected) + rake +
  fees − added``, in hands whose recorded payouts the rules could not reconcile (a hand
  they reconcile is not listed: some exports pay a returned bet as part of a collection,
  which adds up the same).
- **Duplicates**: hands the runs counted as duplicates per input (from the manifest: the
  lake keeps one copy of a (site, hand_id)), and any (site, hand_id) the tables hold twice.
- **Continuity** per table: hands ordered by start time, then hand id, within (site,
  table). Hand numbers are the trailing digits of the hand id; a table's numbering counts
  as consecutive when most steps between its successive hands are 1 (a site numbering
  hands per table), and only then is a step other than 1 a gap. PokerStars numbers hands
  across the whole site, and ``croupier generate`` numbers its 50 tables round-robin
  (steps of 50), so neither gets gap findings. Two successive hands are *adjacent* when
  they start at most ``session_gap`` apart (default 30 minutes) and no gap lies between
  them; for adjacent hands the button must move to the next seat dealt in after the
  previous button, and each player's starting stack must equal their stack at the end of
  the previous hand if they played it (nothing is allowed for between hands).
  Generated hands start 75 minutes apart at a table, with fresh players: no pair is
  adjacent, so they get no continuity findings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.lake.manifest import load_manifest
from pipeline.lake.query import read_lake
from pipeline.money import format_amount
from pipeline.reports.fairness import ALPHA, Fairness, deal_fairness, largest_deviations
from pipeline.reports.fairness_stats import FAIL, ChiSquare

__all__ = [
    "GROUPINGS",
    "SESSION_GAP_SECONDS",
    "Audit",
    "Finding",
    "PayoutCount",
    "StatusCount",
    "ViolationGroup",
    "audit",
]

SESSION_GAP_SECONDS = 30 * 60
"""Successive hands at a table further apart than this are not checked for continuity."""
_ALL = 2**62
"""A limit that lists every row."""

GROUPINGS: dict[str, tuple[str, ...]] = {
    "code": ("code",),
    "site": ("site",),
    "table": ("site", "table_name"),
    "month": ("month",),
}
"""How violations are grouped, and the key columns of each (a fixed list, never user text)."""

FINDING_KINDS = (
    "payout-mismatch",
    "stacks-not-conserved",
    "pot-not-paid-out",
    "duplicate-input-hands",
    "duplicate-hand",
    "seated-twice",
    "hand-number-gap",
    "button-move",
    "stack-carry",
    "deal-fairness",
)
"""Every kind of finding, in report order."""


@dataclass(frozen=True, slots=True)
class StatusCount:
    """Hands of one status."""

    status: str
    hands: int


@dataclass(frozen=True, slots=True)
class PayoutCount:
    """Hands whose payouts were checked against the log with one outcome, or not checked for
    one reason."""

    payouts: str
    hands: int


_PAYOUTS_SQL = """
SELECT CASE
           WHEN status NOT IN ('ok', 'violations') THEN 'not checked: the hand is ' || status
           WHEN payouts_match IS NULL AND NOT settled
               THEN 'not checked: the rules could not award the pots'
           WHEN payouts_match IS NULL THEN 'not checked: the log records no payout'
           WHEN payouts_match THEN 'match the log'
           ELSE 'differ from the log'
       END AS payouts,
       count(*) AS hands
FROM hands GROUP BY ALL ORDER BY 2 DESC, 1
"""


@dataclass(frozen=True, slots=True)
class ViolationGroup:
    """Violations sharing a key (a code, a site, a table, a month) and example hand ids."""

    key: tuple[str, ...]
    violations: int
    errors: int
    hands: int
    examples: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing for a person to look at: its kind, where it is, and what was expected.

    ``expected`` and ``found`` are text: money as exact decimal text in the hand's unit,
    seats as numbers.
    """

    kind: str
    site: str | None
    hand_id: str | None
    table: str | None = None
    seat: int | None = None
    player: str | None = None
    expected: str | None = None
    found: str | None = None
    message: str = ""


@dataclass(frozen=True, slots=True)
class Audit:
    """The whole audit of a lake.

    ``violations`` maps each grouping of :data:`GROUPINGS` to its groups (most violations
    first). ``findings`` lists at most ``limit`` findings of each kind; ``finding_counts``
    counts all of them.
    """

    lake: str
    hands: int
    rejects: int
    runs: int
    first_hand_at: str | None
    last_hand_at: str | None
    statuses: tuple[StatusCount, ...]
    payouts: tuple[PayoutCount, ...]
    violations: dict[str, tuple[ViolationGroup, ...]]
    findings: tuple[Finding, ...]
    finding_counts: dict[str, int]
    fairness: Fairness


def audit(
    lake: str | Path,
    *,
    examples: int | None = 5,
    limit: int | None = 100,
    session_gap: int = SESSION_GAP_SECONDS,
    alpha: float = ALPHA,
    on_step: Callable[[str], None] | None = None,
) -> Audit:
    """Audit the lake: ``examples`` hand ids per violation group and ``limit`` findings of
    each kind (``None``: all of them); ``session_gap`` in seconds (see the module).
    ``on_step`` is told what the audit turns to next (for a progress display). The audit
    reads one snapshot of the lake (:func:`~pipeline.lake.query.read_lake`)."""
    root = Path(lake)
    step = on_step or (lambda what: None)

    def read(con: duckdb.DuckDBPyConnection) -> Audit:
        step("hands and statuses")
        hands, rejects, first, last = _overview(con)
        statuses = tuple(
            StatusCount(str(s), int(n))
            for s, n in con.execute(
                "SELECT status, count(*) FROM hands GROUP BY ALL ORDER BY 2 DESC, 1"
            ).fetchall()
        )
        payouts = tuple(
            PayoutCount(str(p), int(n)) for p, n in con.execute(_PAYOUTS_SQL).fetchall()
        )
        step("violations")
        violations = {name: _groups(con, keys, examples) for name, keys in GROUPINGS.items()}
        counted: dict[str, int] = {}
        findings: list[Finding] = []
        cap = _ALL if limit is None else limit
        checks: tuple[tuple[str, Callable[[], Rows]], ...] = (
            ("payout-mismatch", lambda: _payouts(con, cap)),
            ("stacks-not-conserved", lambda: _stacks(con, cap)),
            ("pot-not-paid-out", lambda: _paid_out(con, cap)),
            ("duplicate-input-hands", lambda: _duplicate_inputs(root)),
            ("duplicate-hand", lambda: _duplicate_hands(con, cap)),
            ("seated-twice", lambda: _seated_twice(con, cap)),
            ("hand-number-gap", lambda: _gaps(con, cap)),
            ("button-move", lambda: _buttons(con, session_gap, cap)),
            ("stack-carry", lambda: _carries(con, session_gap, cap)),
        )
        for kind, check in checks:
            step(kind.replace("-", " "))
            listed, total = check()
            counted[kind] = total
            findings += listed[:cap]
        step("fairness of the deal")
        fairness = deal_fairness(con, alpha=alpha)
        failed = [_failed_test(t, fairness) for t in fairness.tests if t.result == FAIL]
        counted["deal-fairness"] = len(failed)
        findings += failed[:cap]
        return Audit(
            lake=str(root),
            hands=hands,
            rejects=rejects,
            runs=len(load_manifest(root).runs),
            first_hand_at=first,
            last_hand_at=last,
            statuses=statuses,
            payouts=payouts,
            violations=violations,
            findings=tuple(findings),
            finding_counts=counted,
            fairness=fairness,
        )

    return read_lake(root, read)


Rows = tuple[list[Finding], int]


def _overview(con: duckdb.DuckDBPyConnection) -> tuple[int, int, str | None, str | None]:
    row = con.execute(
        "SELECT count(*), min(started_at), max(started_at), "
        "(SELECT count(*) FROM rejects) FROM hands"
    ).fetchone()
    assert row is not None
    n, first, last, rejects = row
    return (
        int(n),
        int(rejects),
        first.isoformat() if first is not None else None,
        last.isoformat() if last is not None else None,
    )


def _groups(
    con: duckdb.DuckDBPyConnection, keys: tuple[str, ...], examples: int | None
) -> tuple[ViolationGroup, ...]:
    cols = ", ".join(keys)
    base = (
        "SELECT v.code, v.severity, v.site, v.hand_id, v.month, h.status, "
        "coalesce(h.table_name, '') AS table_name "
        "FROM violations v JOIN hands h ON v.site = h.site AND v.hand_id = h.hand_id"
    )
    totals = con.execute(
        f"WITH v AS ({base}) SELECT {cols}, count(*), "
        "count(*) FILTER (WHERE severity = 'error' AND status <> 'void'), "
        f"count(DISTINCT site || chr(0) || hand_id) FROM v GROUP BY {cols} "
        f"ORDER BY {len(keys) + 1} DESC, {cols}"
    ).fetchall()
    shown: dict[tuple[str, ...], list[str]] = {}
    sql = (
        f"WITH v AS ({base}), d AS (SELECT DISTINCT {cols}, site AS s, hand_id FROM v) "
        f"SELECT {cols}, hand_id FROM d "
        f"QUALIFY row_number() OVER (PARTITION BY {cols} ORDER BY hand_id, s) <= ? "
        f"ORDER BY {cols}, hand_id, s"
    )
    for row in con.execute(sql, [_ALL if examples is None else examples]).fetchall():
        shown.setdefault(tuple(str(k) for k in row[:-1]), []).append(str(row[-1]))
    groups = []
    for row in totals:
        key = tuple(str(k) for k in row[: len(keys)])
        n, errors, hands = row[len(keys) :]
        examples_of = tuple(shown.get(key, ()))
        groups.append(ViolationGroup(key, int(n), int(errors), int(hands), examples_of))
    return tuple(groups)


def _fetch(
    con: duckdb.DuckDBPyConnection, sql: str, params: list[object], cap: int
) -> tuple[list[tuple[object, ...]], int]:
    """Run a query of findings (ordered); return its first ``cap`` rows and how many there
    are."""
    rows = con.execute(f"{sql} LIMIT ?", [*params, cap]).fetchall()
    if len(rows) < cap:
        return rows, len(rows)
    counted = con.execute(f"SELECT count(*) FROM ({sql})", params).fetchone()
    return rows, int(counted[0]) if counted else 0


def _money(amount: object, scale: object) -> str | None:
    if not isinstance(amount, int) or not isinstance(scale, int):
        return None
    return format_amount(amount, scale)


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) else None


def _payouts(con: duckdb.DuckDBPyConnection, cap: int) -> Rows:
    sql = """
        SELECT v.site, v.hand_id, h.table_name, v.seat, s.player, v.expected, v.actual, v.message
        FROM violations v
        JOIN hands h ON v.site = h.site AND v.hand_id = h.hand_id
        LEFT JOIN seats s ON s.site = v.site AND s.hand_id = v.hand_id AND s.seat = v.seat
        WHERE v.code = 'payout-mismatch'
        ORDER BY v.site, v.hand_id, v.seat
    """
    rows, total = _fetch(con, sql, [], cap)
    return [
        Finding(
            "payout-mismatch",
            _text(site),
            _text(hand),
            table=_text(table),
            seat=_int(seat),
            player=_text(player),
            expected=_text(expected),
            found=_text(actual),
            message=str(message),
        )
        for site, hand, table, seat, player, expected, actual, message in rows
    ], total


_JUDGED = "h.status IN ('ok', 'violations') AND h.payouts_match IS NOT NULL AND NOT h.cash_out"


def _stacks(con: duckdb.DuckDBPyConnection, cap: int) -> Rows:
    sql = f"""
        SELECT h.site, h.hand_id, h.table_name, h.scale, sum(s.stack_start) AS before,
               sum(s.stack_end) AS after,
               h.rake + coalesce(h.fees, 0) - coalesce(h.added, 0) AS taken
        FROM hands h JOIN seats s ON s.site = h.site AND s.hand_id = h.hand_id
        WHERE {_JUDGED}
        GROUP BY h.site, h.hand_id, h.table_name, h.scale, h.rake, h.fees, h.added
        HAVING sum(s.stack_start) <> sum(s.stack_end) + taken
        ORDER BY h.site, h.hand_id
    """
    rows, total = _fetch(con, sql, [], cap)
    out = []
    for site, hand, table, scale, before, after, taken in rows:
        assert isinstance(after, int) and isinstance(taken, int)
        out.append(
            Finding(
                "stacks-not-conserved",
                _text(site),
                _text(hand),
                table=_text(table),
                expected=_money(before, scale),
                found=_money(after + taken, scale),
                message=f"stacks start at {_money(before, scale)}; they end at "
                f"{_money(after, scale)} with {_money(taken, scale)} taken by the site",
            )
        )
    return out, total


def _paid_out(con: duckdb.DuckDBPyConnection, cap: int) -> Rows:
    sql = f"""
        SELECT h.site, h.hand_id, h.table_name, h.scale, sum(s.invested) AS put_in,
               sum(s.won_recorded) AS collected,
               h.rake + coalesce(h.fees, 0) - coalesce(h.added, 0) AS taken
        FROM hands h JOIN seats s ON s.site = h.site AND s.hand_id = h.hand_id
        WHERE {_JUDGED} AND NOT h.payouts_match
        GROUP BY h.site, h.hand_id, h.table_name, h.scale, h.rake, h.fees, h.added
        HAVING sum(s.won_recorded) > 0 AND sum(s.invested) <> sum(s.won_recorded) + taken
        ORDER BY h.site, h.hand_id
    """
    rows, total = _fetch(con, sql, [], cap)
    out = []
    for site, hand, table, scale, put_in, collected, taken in rows:
        assert isinstance(collected, int) and isinstance(taken, int)
        assert isinstance(put_in, int)
        out.append(
            Finding(
                "pot-not-paid-out",
                _text(site),
                _text(hand),
                table=_text(table),
                expected=_money(put_in, scale),
                found=_money(collected + taken, scale),
                message=f"players put in {_money(put_in, scale)}; the log pays out "
                f"{_money(collected, scale)} and the site takes {_money(taken, scale)} "
                f"(difference {_money(put_in - collected - taken, scale)})",
            )
        )
    return out, total


def _failed_test(test: ChiSquare, fairness: Fairness) -> Finding:
    """A fairness test the deal failed, as a finding: which, its p-value, and what it saw
    (the cells furthest from what a fair deal expects; the board's pairs against their
    expectation; the hands that repeat an earlier deal, named)."""
    far = ", ".join(f"{cell} {seen} vs {want:.1f}" for cell, seen, want in largest_deviations(test))
    saw = f"furthest from a fair deal: {far}" if far else ""
    if test.kind == "pairs":
        board = fairness.board
        saw = (
            f"board cards paired {board.observed} hole cards vs {board.expected:.1f} "
            f"expected (z = {board.z:+.1f})"
        )
    elif test.kind == "repeats":
        repeats = fairness.repeats
        named = ", ".join(
            f"{r.hand_id} ({r.site}) repeats {r.first_hand_id} ({r.first_site})"
            for r in repeats.examples
        )
        more = ", …" if repeats.repeated > len(repeats.examples) else ""
        saw = f"{repeats.repeated} hand(s) repeat an earlier deal: {named}{more}"
    return Finding(
        "deal-fairness",
        None,
        None,
        expected=f"p >= {fairness.alpha:g} after Holm",
        found=_p_found(test.p_holm),
        message=f"{test.name}: {saw}" if saw else test.name,
    )


def _p_found(p: float | None) -> str | None:
    """Say a p-value in a finding; one that underflowed to 0 is below the smallest float,
    not an impossible "p = 0"."""
    if p is None:
        return None
    return f"p = {p:.3g}" if p > 0 else "p < 1e-300"


def _duplicate_inputs(root: Path) -> Rows:
    """Inputs that repeated hands beyond what a session file that grew repeats: a file read
    again (by its absolute path) that is bigger than before repeats the lines its earlier
    version gave, as it should; any other repeat is listed."""
    out = []
    before: dict[str, tuple[int, int]] = {}  # per absolute path: its last version's size, lines
    for run in load_manifest(root).runs:
        for entry in run.inputs:
            if entry.skipped:
                continue
            size, lines = before.get(entry.resolved, (0, 0)) if entry.resolved else (0, 0)
            grown = lines if entry.size > size else 0
            if entry.resolved:
                before[entry.resolved] = (entry.size, entry.read)
            if entry.duplicates > grown:
                out.append(
                    Finding(
                        "duplicate-input-hands",
                        None,
                        None,
                        found=str(entry.duplicates),
                        message=f"run {run.run_id} read {entry.read} hands from {entry.path}; "
                        f"{entry.duplicates} were already in the lake or read twice",
                    )
                )
    return out, len(out)


def _duplicate_hands(con: duckdb.DuckDBPyConnection, cap: int) -> Rows:
    sql = """
        SELECT site, hand_id, count(*) AS copies, string_agg(DISTINCT source, ', ') AS sources
        FROM hands GROUP BY site, hand_id HAVING count(*) > 1 ORDER BY site, hand_id
    """
    rows, total = _fetch(con, sql, [], cap)
    return [
        Finding(
            "duplicate-hand",
            _text(site),
            _text(hand),
            expected="1",
            found=str(copies),
            message=f"the lake holds {copies} copies (from {sources})",
        )
        for site, hand, copies, sources in rows
    ], total


def _seated_twice(con: duckdb.DuckDBPyConnection, cap: int) -> Rows:
    sql = """
        SELECT s.site, s.hand_id, any_value(h.table_name), s.player,
               string_agg(CAST(s.seat AS VARCHAR), ', ' ORDER BY s.seat) AS seats
        FROM seats s JOIN hands h ON s.site = h.site AND s.hand_id = h.hand_id
        GROUP BY s.site, s.hand_id, s.player HAVING count(*) > 1
        ORDER BY s.site, s.hand_id, s.player
    """
    rows, total = _fetch(con, sql, [], cap)
    return [
        Finding(
            "seated-twice",
            _text(site),
            _text(hand),
            table=_text(table),
            player=_text(player),
            expected="1 seat",
            found=f"seats {seats}",
            message=f"{player} is seated in seats {seats}",
        )
        for site, hand, table, player, seats in rows
    ], total


_PAIRS = """
WITH seq AS (
    SELECT site, hand_id, table_name, started_at, button_seat, status,
           try_cast(regexp_extract(hand_id, '[0-9]+$') AS BIGINT) AS number,
           lag(hand_id) OVER w AS prev_hand,
           lag(button_seat) OVER w AS prev_button,
           lag(status) OVER w AS prev_status,
           lag(try_cast(regexp_extract(hand_id, '[0-9]+$') AS BIGINT)) OVER w AS prev_number,
           epoch(started_at) - epoch(lag(started_at) OVER w) AS seconds,
           row_number() OVER w AS k
    FROM hands
    WHERE table_name IS NOT NULL
    WINDOW w AS (PARTITION BY site, table_name ORDER BY started_at NULLS LAST, hand_id)
), steps AS (
    SELECT *, number - prev_number AS step FROM seq WHERE prev_hand IS NOT NULL
), numbered AS (
    SELECT site, table_name FROM steps GROUP BY site, table_name
    HAVING 2 * count(*) FILTER (WHERE step = 1) > count(*)
), pairs AS (
    SELECT s.*, n.site IS NOT NULL AS consecutive,
           (n.site IS NULL OR s.step = 1) AND (s.seconds IS NULL OR s.seconds <= ?) AS adjacent
    FROM steps s LEFT JOIN numbered n ON s.site = n.site AND s.table_name = n.table_name
)
"""


def _gaps(con: duckdb.DuckDBPyConnection, cap: int) -> Rows:
    sql = f"""{_PAIRS}
        SELECT site, table_name, prev_hand, hand_id, prev_number, number, step
        FROM pairs WHERE consecutive AND step IS DISTINCT FROM 1
        ORDER BY site, table_name, k
    """
    rows, total = _fetch(con, sql, [0], cap)
    out = []
    for site, table, prev_hand, hand, prev_number, number, step in rows:
        if isinstance(step, int) and step > 1:
            what = f"{step - 1} hand number(s) missing between {prev_hand} and {hand}"
        else:
            what = f"hand numbers go from {prev_hand} to {hand}, not up by one"
        out.append(
            Finding(
                "hand-number-gap",
                _text(site),
                _text(hand),
                table=_text(table),
                expected=_text(prev_number + 1 if isinstance(prev_number, int) else None),
                found=_text(number),
                message=what,
            )
        )
    return out, total


def _buttons(con: duckdb.DuckDBPyConnection, session_gap: int, cap: int) -> Rows:
    sql = f"""{_PAIRS}
        SELECT * FROM (
            SELECT p.site, p.table_name, p.prev_hand, p.hand_id, p.prev_button,
                   p.button_seat, p.k,
                   coalesce(min(s.seat) FILTER (WHERE s.seat > p.prev_button), min(s.seat))
                       AS expected
            FROM pairs p JOIN seats s ON s.site = p.site AND s.hand_id = p.hand_id
            WHERE p.adjacent
            GROUP BY p.site, p.table_name, p.prev_hand, p.hand_id, p.prev_button,
                     p.button_seat, p.k
        ) WHERE expected <> button_seat
        ORDER BY site, table_name, k
    """
    rows, total = _fetch(con, sql, [session_gap], cap)
    return [
        Finding(
            "button-move",
            _text(site),
            _text(hand),
            table=_text(table),
            seat=_int(button),
            expected=_text(expected),
            found=_text(button),
            message=f"the button was at seat {prev_button} in {prev_hand}; it should move "
            f"to seat {expected}, the next seat dealt in, but is at seat {button}",
        )
        for site, table, prev_hand, hand, prev_button, button, _, expected in rows
    ], total


def _carries(con: duckdb.DuckDBPyConnection, session_gap: int, cap: int) -> Rows:
    sql = f"""{_PAIRS}
        SELECT p.site, p.table_name, p.prev_hand, p.hand_id, cur.seat, cur.player, cur.scale,
               prev.stack_end, cur.stack_start
        FROM pairs p
        JOIN seats cur ON cur.site = p.site AND cur.hand_id = p.hand_id
        JOIN seats prev ON prev.site = p.site AND prev.hand_id = p.prev_hand
                       AND prev.player = cur.player
        WHERE p.adjacent AND p.prev_status NOT IN ('invalid', 'partial')
          AND prev.stack_end <> cur.stack_start
        ORDER BY p.site, p.table_name, p.k, cur.seat
    """
    rows, total = _fetch(con, sql, [session_gap], cap)
    return [
        Finding(
            "stack-carry",
            _text(site),
            _text(hand),
            table=_text(table),
            seat=_int(seat),
            player=_text(player),
            expected=_money(end, scale),
            found=_money(start, scale),
            message=f"{player} ended {prev_hand} with {_money(end, scale)} and starts "
            f"{hand} with {_money(start, scale)}" + _carry_cause(end, start),
        )
        for site, table, prev_hand, hand, seat, player, scale, end, start in rows
    ], total


def _carry_cause(end: object, start: object) -> str:
    """What a change of stack between two hands may be: chips added are what a top-up or a
    rebuy does (logs do not record them); chips gone, no rule explains."""
    if isinstance(end, int) and isinstance(start, int) and start > end:
        return " (more: a top-up or rebuy between the hands, which logs do not record?)"
    return " (less: chips gone between the hands)"
