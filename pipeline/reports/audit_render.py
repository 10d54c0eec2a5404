"""Render an :class:`~pipeline.reports.audit.Audit` as JSON, CSV, Markdown or one HTML file.

:func:`sections` turns the audit into titled tables of text, which Markdown, HTML and the
CLI's rich tables all show. The HTML report is one self-contained file (inline CSS and SVG
charts, no script, no network request): a card-frequency heat map per hole-card position
(and of board cards against the cards left) and violations by month, beside the tables.
Every string that came from a log is escaped.
"""

from __future__ import annotations

import csv
import html
import io
import json
from dataclasses import asdict, dataclass, fields

from pipeline.cards import RANKS, SUITS
from pipeline.reports.audit import FINDING_KINDS, Audit, Finding
from pipeline.reports.fairness import (
    MIN_EXPECTED,
    REPEAT_MIN_CARDS,
    ChiSquare,
    Fairness,
    Repeats,
    largest_deviations,
)

__all__ = ["Section", "render_csv", "render_html", "render_json", "render_markdown", "sections"]

_TITLES = {
    "code": "Violations by code",
    "site": "Violations by site",
    "table": "Violations by table",
    "month": "Violations by month",
}
_KIND_TITLES = {
    "payout-mismatch": "Payout mismatches",
    "stacks-not-conserved": "Chip conservation: stacks",
    "pot-not-paid-out": "Chip conservation: the log's payouts",
    "duplicate-input-hands": "Duplicate hands per input",
    "duplicate-hand": "Hand ids twice in the lake",
    "seated-twice": "Players seated twice",
    "hand-number-gap": "Continuity: gaps in hand numbers",
    "button-move": "Continuity: button moves",
    "stack-carry": "Continuity: stacks carried over",
    "deal-fairness": "Fairness tests the deal failed",
}


@dataclass(frozen=True, slots=True)
class Section:
    """A titled table of text; ``note`` says what it shows or why it is empty."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


def _p(value: float | None) -> str:
    if value is None:
        return "-"
    if value == 0:
        return "<1e-300"  # below the smallest float: the tail underflowed
    return f"{value:.3g}" if value >= 1e-4 else f"{value:.1e}"


def sections(audit: Audit) -> list[Section]:
    """Return the audit as titled tables of text, in report order."""
    fair = audit.fairness
    out = [
        Section(
            "Summary",
            ("item", "value"),
            (
                ("lake", audit.lake),
                ("runs", str(audit.runs)),
                ("hands", str(audit.hands)),
                ("rejects (input that is not a hand)", str(audit.rejects)),
                ("first hand", audit.first_hand_at or "-"),
                ("last hand", audit.last_hand_at or "-"),
                ("fairness of the deal", fair.verdict),
            ),
        ),
        Section(
            "Hands by status",
            ("status", "hands"),
            tuple((s.status, str(s.hands)) for s in audit.statuses),
        ),
        Section(
            "Payouts against the log",
            ("payouts", "hands"),
            tuple((p.payouts, str(p.hands)) for p in audit.payouts),
        ),
    ]
    for name in ("month", "code", "site", "table"):
        groups = audit.violations.get(name, ())
        keys = ("site", "table") if name == "table" else (name,)
        out.append(
            Section(
                _TITLES[name],
                (*keys, "violations", "errors", "hands", "examples"),
                tuple(
                    (*g.key, str(g.violations), str(g.errors), str(g.hands), " ".join(g.examples))
                    for g in groups
                ),
                "" if groups else "no violations",
            )
        )
    for kind in FINDING_KINDS:
        listed = [f for f in audit.findings if f.kind == kind]
        total = audit.finding_counts.get(kind, 0)
        note = "none" if not total else ""
        if total > len(listed):
            note = f"showing {len(listed)} of {total}"
        out.append(
            Section(
                _KIND_TITLES[kind],
                ("site", "hand", "table", "seat", "player", "expected", "found", "what"),
                tuple(_finding_row(f) for f in listed),
                note,
            )
        )
    out.insert(2, _fairness_section(fair))
    return out


_FAIRNESS_COLUMNS = (
    "test",
    "n",
    "needed",
    "df",
    "chi-square",
    "c",
    "p",
    "p (Holm)",
    "result",
    "largest deviations",
)


def _hand(site: str, hand_id: str, other_site: str) -> str:
    return hand_id if site == other_site else f"{site} {hand_id}"


def _repeat_text(repeats: Repeats) -> str:
    """Return "N hands repeat an earlier deal: B repeats A, …" (or that none does)."""
    if not repeats.repeated:
        return "no deal repeated"
    named = ", ".join(
        f"{_hand(r.site, r.hand_id, r.first_site)} repeats "
        f"{_hand(r.first_site, r.first_hand_id, r.site)}"
        for r in repeats.examples
    )
    more = ", …" if repeats.repeated > len(repeats.examples) else ""
    return f"{repeats.repeated} hand(s) repeat an earlier deal: {named}{more}"


def _details(test: ChiSquare, fair: Fairness) -> str:
    """Return what a failed test saw: the three cells furthest from a fair deal, or the
    repeated deals."""
    if test.kind == "repeats":
        return _repeat_text(fair.repeats) if test.p_value is not None else ""
    if test.kind == "pairs":
        board = fair.board
        if test.p_value is None:
            return ""
        return (
            f"board cards paired {board.observed} hole cards vs {board.expected:.0f} "
            f"expected (z = {board.z:+.1f})"
        )
    if test.result != "fail":
        return ""
    return "; ".join(
        f"{label}: {observed} vs {expected:.0f} expected"
        for label, observed, expected in largest_deviations(test)
    )


def _fairness_row(test: ChiSquare, fair: Fairness) -> tuple[str, ...]:
    chi = test.kind != "repeats"
    return (
        test.name,
        str(test.n),
        str(test.needed),
        str(test.df) if chi else "-",
        "-" if test.statistic is None else f"{test.statistic:.1f}",
        f"{test.correction:.3g}" if chi else "-",
        _p(test.p_value),
        _p(test.p_holm),
        test.result,
        _details(test, fair),
    )


def _fairness_section(fair: Fairness) -> Section:
    """Return the fairness tests as a section; its note says what was tested and how."""
    repeats = fair.repeats
    notes = [
        f"{fair.verdict}: {fair.hole_cards} hole cards known at the deal in "
        f"{fair.hole_hands} hands, {fair.decks} recorded deck orders, "
        f"{repeats.hands} deals compared for repeats, {fair.board.cards} board cards of "
        f"{fair.board.hands} hands with every seat's hole cards known",
        "not tested: cards shown at showdown, and boards of hands with a seat's hole cards "
        "unknown (play decides which hands reach a showdown or a street)",
        "chi-square corrected for dealing without replacement: Pearson's statistic divided "
        "by c = Σ m(52 − m) / (51 · Σ m), m the known cards one hand gives the test; by "
        "table position, c = (Σ c of each position − c of them all) / (positions − 1), and a "
        "position counts with 5 expected cards per cell; for board cards against the cards "
        "left, c = (K − Σ F/E) / (K − 1) over the K cells, E and F the sums of each board "
        "card's chance of a cell and of its square",
    ]
    if fair.unordered_hands:
        notes.append(
            f"{fair.unordered_hands} hands from {fair.unordered_sources} input file(s) left out "
            "of the card-by-position tests: their hole cards are written sorted by rank, not "
            "in the order dealt (they still count for ranks, suits and repeats)"
        )
    if repeats.repeated:
        chance = f"{repeats.chance:.1g}" if repeats.chance >= 1e-300 else "below 1e-300"
        notes.append(
            f"{_repeat_text(repeats)} (a fair shuffle expects {chance} such repeats): a "
            "rigged shuffle, or one hand recorded twice under two ids"
        )
    notes.append(
        f"significance {100 * fair.alpha:g}% after Holm's correction; a chi-square test needs "
        f"{MIN_EXPECTED} expected observations per cell; a deal is compared for repeats when "
        f"the deck or at least {REPEAT_MIN_CARDS} of its cards are known"
    )
    return Section(
        "Fairness of the deal",
        _FAIRNESS_COLUMNS,
        tuple(_fairness_row(t, fair) for t in fair.tests),
        "; ".join(notes),
    )


def _finding_row(f: Finding) -> tuple[str, ...]:
    values = (f.site, f.hand_id, f.table, f.seat, f.player, f.expected, f.found, f.message)
    return tuple("" if v is None else str(v) for v in values)


def render_json(audit: Audit) -> str:
    """Return the audit as one JSON document (every field of the library's records)."""
    return json.dumps(asdict(audit), ensure_ascii=False, indent=1) + "\n"


def render_csv(audit: Audit) -> str:
    """Return the findings as CSV, one per row (the full report is in JSON and HTML)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    names = [f.name for f in fields(Finding)]
    writer.writerow(names)
    for finding in audit.findings:
        writer.writerow(["" if (v := getattr(finding, n)) is None else v for n in names])
    return buffer.getvalue()


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def render_markdown(audit: Audit) -> str:
    """Return the audit as Markdown: a heading and a table per section."""
    parts = ["# Croupier audit", ""]
    for section in sections(audit):
        parts += [f"## {_md(section.title)}", ""]
        if section.note:
            parts += [_md(section.note), ""]
        if section.rows:
            parts.append("| " + " | ".join(section.columns) + " |")
            parts.append("|" + "---|" * len(section.columns))
            parts += ["| " + " | ".join(_md(c) for c in row) + " |" for row in section.rows]
            parts.append("")
    return "\n".join(parts)


# ------------------------------------------------------------------------------ HTML

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;
max-width:1150px;color:#1c2430;padding:0 1em}
h1{font-size:1.7em;margin-bottom:.2em}h2{margin-top:1.8em;border-bottom:1px solid #d5dbe3}
table{border-collapse:collapse;margin:.6em 0;font-size:13px}
td,th{border:1px solid #d5dbe3;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eef2f7}.note{color:#56606e;font-style:italic}
.verdict{font-size:1.3em;padding:.5em .8em;border-radius:6px;display:inline-block}
.fair{background:#e3f4e6;color:#17622a}.biased{background:#fbe3e1;color:#962016}
.few{background:#f1efe4;color:#5e5330}.maps{display:flex;flex-wrap:wrap;gap:18px}
figure{margin:0}figcaption{font-size:12px;color:#56606e}
.pass{color:#17622a}.fail{color:#962016;font-weight:bold}
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _html_table(section: Section) -> str:
    head = "".join(f"<th>{_e(c)}</th>" for c in section.columns)
    body = []
    for row in section.rows:
        cells = []
        for c in row:
            cls = ' class="fail"' if c == "fail" else ' class="pass"' if c == "pass" else ""
            cells.append(f"<td{cls}>{_e(c)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _colour(residual: float) -> str:
    """Return a fill from blue (fewer than expected) through white to red (more)."""
    t = max(-1.0, min(1.0, residual / 4.0))
    if t >= 0:
        g = round(255 - 180 * t)
        return f"rgb(255,{g},{g})"
    g = round(255 + 180 * t)
    return f"rgb({g},{g},255)"


def heat_map(test: ChiSquare) -> str:
    """Return an SVG heat map of the 52 card counts of a test: ranks across, suits down,
    coloured by standardized residual (observed − expected) / √(c · expected), c the
    test's without-replacement correction (see :mod:`pipeline.reports.fairness`); each
    card expects ``n / 52`` unless the test gives its ``expected``."""
    cell, left, top = 30, 22, 18
    fair = test.n / 52 if test.n else 0.0
    expected_of = list(test.expected) or [fair] * 52
    ranks = list(range(12, -1, -1))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + 13 * cell + 4}" '
        f'height="{top + 4 * cell + 4}" role="img" aria-label="{_e(test.name)}">'
    ]
    for x, rank in enumerate(ranks):
        parts.append(
            f'<text x="{left + x * cell + cell / 2}" y="12" font-size="11" '
            f'text-anchor="middle">{RANKS[rank]}</text>'
        )
    for y, suit in enumerate(SUITS):
        parts.append(
            f'<text x="8" y="{top + y * cell + cell / 2 + 4}" font-size="11" '
            f'text-anchor="middle">{suit}</text>'
        )
        for x, rank in enumerate(ranks):
            count = test.observed[rank * 4 + y]
            expected = expected_of[rank * 4 + y]
            scale = (test.correction * expected) ** 0.5
            residual = (count - expected) / scale if scale else 0.0
            parts.append(
                f'<rect x="{left + x * cell}" y="{top + y * cell}" width="{cell - 1}" '
                f'height="{cell - 1}" fill="{_colour(residual)}">'
                f"<title>{RANKS[rank]}{suit}: {count} (expected {expected:.1f}, "
                f"residual {residual:+.1f})</title></rect>"
                f'<text x="{left + x * cell + cell / 2 - 0.5}" y="{top + y * cell + cell / 2 + 3}"'
                f' font-size="9" text-anchor="middle">{count}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def month_bars(audit: Audit) -> str:
    """Return an SVG bar chart of violations (and errors, darker) by month."""
    groups = sorted(audit.violations.get("month", ()), key=lambda g: g.key)
    if not groups:
        return '<p class="note">no violations to chart</p>'
    most = max(g.violations for g in groups)
    width, height, bottom, left = 56, 160, 36, 44
    total = left + width * len(groups) + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{height + bottom}" '
        'role="img" aria-label="violations by month">',
        f'<text x="4" y="12" font-size="11">{most}</text>',
        f'<line x1="{left - 4}" y1="{height}" x2="{total}" y2="{height}" stroke="#8892a0"/>',
    ]
    for k, g in enumerate(groups):
        x = left + k * width
        h = round((height - 16) * g.violations / most) if most else 0
        e = round((height - 16) * g.errors / most) if most else 0
        parts.append(
            f'<rect x="{x}" y="{height - h}" width="{width - 12}" height="{h}" fill="#9db7d9">'
            f"<title>{_e(g.key[0])}: {g.violations} violations</title></rect>"
            f'<rect x="{x}" y="{height - e}" width="{width - 12}" height="{e}" fill="#2f5d9a">'
            f"<title>{_e(g.key[0])}: {g.errors} errors</title></rect>"
            f'<text x="{x + (width - 12) / 2}" y="{height + 14}" font-size="10" '
            f'text-anchor="middle">{_e(g.key[0])}</text>'
            f'<text x="{x + (width - 12) / 2}" y="{height - h - 3}" font-size="10" '
            f'text-anchor="middle">{g.violations}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _mapped(test: ChiSquare) -> bool:
    """Map every hole-card position; of the deck, the first four positions and any failing."""
    return test.sample != "deck" or (test.position or 0) <= 4 or test.result == "fail"


def render_html(audit: Audit) -> str:
    """Return the audit as one self-contained HTML page (no script, no external resource)."""
    fair = audit.fairness
    cls = "fair"
    if fair.verdict.startswith("evidence"):
        cls = "biased"
    elif fair.verdict == "not enough hands":
        cls = "few"
    body = [
        "<h1>Croupier audit</h1>",
        f'<p>Fairness of the deal: <span class="verdict {cls}" id="verdict">'
        f"{_e(fair.verdict)}</span></p>",
    ]
    for section in sections(audit):
        slug = section.title.lower().replace(" ", "-").replace(":", "").replace("'", "")
        body.append(f'<section id="{_e(slug)}"><h2>{_e(section.title)}</h2>')
        if section.title == "Violations by month":
            body.append(
                f"<figure>{month_bars(audit)}<figcaption>violations (light) and "
                "errors (dark) by month of play</figcaption></figure>"
            )
        if section.title == "Fairness of the deal":
            maps = [t for t in fair.tests if t.kind == "cards" and t.n and _mapped(t)]
            if maps:
                body.append(
                    "<p>Card counts per position (and of board cards, each card expecting "
                    "its chances from the cards left): ranks across, suits down; red "
                    "means more than a fair deal expects, blue fewer (standardized "
                    "residual corrected for dealing without replacement, saturated at ±4).</p>"
                    '<div class="maps">'
                )
                for t in maps:
                    body.append(
                        f"<figure>{heat_map(t)}<figcaption>{_e(t.name)}: n={t.n}, "
                        f"p (Holm) {_e(_p(t.p_holm))}, {_e(t.result)}</figcaption></figure>"
                    )
                body.append("</div>")
        if section.note:
            body.append(f'<p class="note">{_e(section.note)}</p>')
        if section.rows:
            body.append(_html_table(section))
        body.append("</section>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Croupier audit</title><style>{_CSS}</style></head><body>"
        + "\n".join(body)
        + "</body></html>\n"
    )
