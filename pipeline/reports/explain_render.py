"""Render an :class:`~pipeline.reports.explain.Explanation` as text, Markdown, JSON or HTML.

Text, Markdown and HTML are three renderings of one document (sections of facts, tables
and sentences) built by :func:`_document`, so they always say the same thing. Money is
shown as decimals with the currency (``$1.50``, ``1,500 chips``); JSON carries every
amount both as minor units and as decimal text, keys in a fixed order. The HTML page is
one self-contained file (inline CSS, no script, no request to anywhere), and every string
that comes from the log (names, tables, cards, messages) is escaped.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Literal

import msgspec

from pipeline.money import format_amount
from pipeline.reports.explain import (
    CASH_OUT_RULE,
    Explanation,
    PotRow,
    Problem,
    RuleQuote,
    money_text,
)

__all__ = ["FORMATS", "render", "to_html", "to_json", "to_markdown", "to_text"]

FORMATS = ("text", "markdown", "json", "html")
"""The output formats of ``croupier explain``."""

Mark = Literal["", "error", "warning", "differs"]
_Money = Callable[[int | None], str]

_MONEY_FIELDS = frozenset(
    {
        "added",
        "amount",
        "ante",
        "big_bet",
        "big_blind",
        "cash_out",
        "cash_out_fee",
        "fees",
        "final_recorded",
        "final_stack",
        "invested",
        "max_to",
        "min_to",
        "net",
        "pot_before",
        "rake",
        "returned_in_collection",
        "small_bet",
        "small_blind",
        "stack",
        "stack_before",
        "to_amount",
        "to_call",
        "total_pot",
        "total_pot_recorded",
        "returned_in_collections",
        "won",
        "won_recorded",
    }
)


def render(explanation: Explanation, fmt: str) -> str:
    """Render in one of :data:`FORMATS`."""
    if fmt == "json":
        return to_json(explanation)
    if fmt == "markdown":
        return to_markdown(explanation)
    if fmt == "html":
        return to_html(explanation)
    if fmt == "text":
        return to_text(explanation)
    raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")


# ------------------------------------------------------------------------------ document


@dataclass(slots=True)
class _Table:
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)

    def add(self, row: list[str], mark: Mark = "") -> None:
        self.rows.append(row)
        self.marks.append(mark)


@dataclass(slots=True)
class _Para:
    text: str
    mark: Mark = ""
    cards: bool = False  # the text shows cards (HTML draws them); else names may look alike


@dataclass(slots=True)
class _Facts:
    items: list[tuple[str, str]]


_Block = _Table | _Para | _Facts


@dataclass(slots=True)
class _Section:
    title: str
    blocks: list[_Block] = field(default_factory=list)


def _document(e: Explanation) -> tuple[str, list[_Section]]:
    """Build the document every text-like format renders: a title and its sections."""

    def money(units: int | None) -> str:
        return "" if units is None else money_text(units, e.scale, e.currency)

    title = f"Hand {e.croupier_id}"
    return title, [
        _Section("The hand", [_Facts(_facts(e, money))]),
        _Section("Seats", [_seats(e, money)]),
        _Section("Actions", _actions(e, money)),
        _Section("Board", _boards(e)),
        _Section("Showdown", _showdown(e)),
        _Section("Pots", _pots(e, money)),
        _Section("Money: the rules against the log", _players(e, money)),
        _Section("Problems found", _problems(e)),
        _Section("Rules applied", _rules(e)),
    ]


def _facts(e: Explanation, money: _Money) -> list[tuple[str, str]]:
    stakes = f"blinds {_bare(money(e.small_blind))}/{money(e.big_blind)}"
    if e.small_bet is not None and e.big_bet is not None:
        stakes += f", bets {_bare(money(e.small_bet))}/{money(e.big_bet)}"
    if e.ante:
        stakes += f", ante {money(e.ante)}"
    table = f"{e.table or '(no name)'}, button at seat {e.button}"
    if e.tournament:
        table += f"; {e.tournament}"
    played = "not recorded"
    if e.started_at is not None:
        played = e.started_at.replace("T", " ").replace("+00:00", " UTC")
    local = e.local_time or "not recorded (the log gives UTC only)"
    recorded = any(p.won_recorded is not None for p in e.players)
    if e.unsettled is not None:
        paid = "the rules could not award the pots, so the log's collections are not checked"
        if not recorded:
            paid = "the rules could not award the pots"
    elif e.payouts_match is None:
        paid = "there is no recorded payout to compare"
    elif e.payouts_match and any(p.code == "uncalled-bet-mismatch" for p in e.problems):
        paid = "every collection matches the log, but a returned bet does not"
    elif e.payouts_match:
        paid = "every payout matches the log"
    else:
        paid = "the payouts DIFFER from the log"
    errors = sum(1 for p in e.problems if p.severity == "error")
    warnings = len(e.problems) - errors
    verdict = f"status {e.status}; {errors} error(s), {warnings} warning(s); {paid}"
    if e.status == "void":  # as croupier check says: a cancelled hand fails nothing
        verdict = (
            "status void: the site cancelled the hand, so nothing in it counts as an error "
            "or a warning; every chip put in goes back to its owner"
        )
    items = [
        ("Hand", f"{e.croupier_id} (the site's hand number: {e.hand_id})"),
        ("Site", e.site),
        ("Game", f"{e.game}, {stakes}" + ("" if e.currency == "CHIPS" else f", in {e.currency}")),
        ("Table", table),
        ("Played at (UTC)", played),
        ("Local time in the log", local),
        ("Source", f"{e.source}, line {e.line}"),
        ("Rule set", e.rules),
        ("Verdict", verdict),
    ]
    if e.flags:
        items.append(("Flags", "; ".join(e.flags)))
    for note in e.notes:
        rule = f" [{note.rule.id}]" if note.rule is not None else ""
        items.append(("Note", f"{note.text}{rule}"))
    return items


def _bare(text: str) -> str:
    """Drop the unit after an amount (``25 chips`` → ``25``) where a second one follows."""
    return text.split(" ", 1)[0]


def _seats(e: Explanation, money: _Money) -> _Table:
    table = _Table(["Seat", "Player", "Position", "Stack", "Hole cards"])
    for s in e.seats:
        position = s.position or "not dealt in"
        table.add([str(s.seat), s.player, position, money(s.stack), s.hole_cards])
    return table


def _mark_of(problems: tuple[Problem, ...], void: bool) -> Mark:
    if void:  # a cancelled hand fails nothing: its problems are information only
        return ""
    if any(p.severity == "error" for p in problems):
        return "error"
    return "warning" if problems else ""


def _problem_cell(problems: tuple[Problem, ...], void: bool) -> str:
    if void:
        return "; ".join(f"not counted (void hand): {p.code} [{p.rule.id}]" for p in problems)
    return "; ".join(f"{p.severity.upper()} {p.code} [{p.rule.id}]" for p in problems)


def _actions(e: Explanation, money: _Money) -> list[_Block]:
    table = _Table(
        ["#", "Line", "Street", "Player", "Action", "Pot before", "To call", "Allowed", "Problem"]
    )
    for a in e.actions:
        table.add(
            [
                str(a.seq),
                "" if a.line is None else str(a.line),
                a.street,
                a.player or "",
                a.description,
                money(a.pot_before),
                money(a.to_call),
                a.legal,
                _problem_cell(a.problems, e.status == "void"),
            ],
            _mark_of(a.problems, e.status == "void"),
        )
    blocks: list[_Block] = [
        _Para(
            "'Pot before' counts every chip in the middle before the action (an uncalled bet "
            "leaves it at the line that returns it, or, when the log writes that line later, "
            "as its betting round closes); 'To call' is "
            "what the player could call (what they owed, or all they had when that was "
            "less); 'Allowed' is what the rules let them do ('all-in' where a call, or the "
            "largest bet or raise, takes the whole stack). Line is the action's line in "
            f"{e.source}."
        ),
        table,
    ]
    return blocks


def _boards(e: Explanation) -> list[_Block]:
    if not e.boards:
        return [_Para("No board cards were dealt.")]
    if len(e.boards) == 1:
        return [_Para(f"Board: {e.boards[0].cards}", cards=True)]
    table = _Table(["Board", "Cards"])
    for b in e.boards:
        table.add([str(b.runout), b.cards])
    return [_Para(f"The board was run {len(e.boards)} times."), table]


_NO_SHOWDOWN = {
    "ok": "No showdown: the hand ended before the cards were compared.",
    "void": "No showdown: the site cancelled the hand.",
    "partial": "No showdown in the log: it stops before the hand ends.",
    "invalid": "No showdown: the replay stopped at an action that makes the rest meaningless.",
}
_NO_POT = {
    "void": "No pot was awarded: the site cancelled the hand, and every chip put in goes back.",
    "partial": "No pot was awarded: the log stops before the hand ends.",
    "invalid": "No pot was awarded: the replay stopped at an action that makes the rest "
    "meaningless (see the problems).",
}
_NO_PROBLEM = {
    "ok": "None: every action and every payout follows the rules.",
    "void": "None: a hand the site cancelled fails nothing.",
    "partial": "None in the actions the log records; the payouts cannot be checked (the log "
    "is incomplete).",
}


def _showdown(e: Explanation) -> list[_Block]:
    if not e.showdown and e.unsettled is not None:
        return [_Para(f"The hands reached a showdown, but {e.unsettled}.")]
    if not e.showdown:
        return [_Para(_NO_SHOWDOWN.get(e.status, _NO_SHOWDOWN["ok"]))]
    hilo = any(s.low for s in e.showdown)
    headers = ["Board", "Player", "Hole cards", "High hand", "Five cards used"]
    if hilo:
        headers += ["Low hand", "Five cards used (low)"]
    table = _Table(headers)
    for s in e.showdown:
        row = [str(s.runout), s.player, s.hole_cards, s.high, s.high_cards]
        if hilo:
            row += [s.low, s.low_cards]
        table.add(row)
    return [
        _Para("Every hand uses exactly two hole cards and three board cards (R6.two-plus-three)."),
        table,
    ]


def _pots(e: Explanation, money: _Money) -> list[_Block]:
    if not e.pots:
        return [_Para(_NO_POT.get(e.status, "No pot was awarded."))]
    blocks: list[_Block] = []
    if e.unsettled is not None:
        blocks.append(_Para(f"No pot was awarded by the rules: {e.unsettled}."))
        paid = [
            f"{p.player} {money(p.won_recorded)}"
            for p in e.players
            if p.won_recorded  # None: nothing recorded; 0: collected nothing
        ]
        if paid:
            blocks.append(
                _Para(f"The log records these collections, unchecked: {', '.join(paid)}.")
            )
    for pot in e.pots:
        blocks.append(_Para(_pot_head(pot, money)))
        for note in pot.notes:
            rule = f" [{note.rule.id}]" if note.rule is not None else ""
            blocks.append(_Para(f"- {note.text}{rule}"))
        table = _Table(["Board", "Part", "Paid to", "Amount", "Hand", "Five cards", "Rules"])
        for share in pot.shares:
            table.add(
                [
                    str(share.runout),
                    share.half,
                    share.player,
                    money(share.amount),
                    share.hand or _no_hand(share.rules),
                    share.cards_used,
                    ", ".join(q.id for q in share.rules),
                ]
            )
        if table.rows:
            blocks.append(table)
    recorded = e.total_pot_recorded
    total = f"Total pot {money(e.total_pot)}, rake {money(e.rake)}"
    if recorded is not None:
        counted = e.total_pot + e.returned_in_collections
        same = "the same" if recorded == counted else "DIFFERENT"
        if recorded == counted and e.returned_in_collections:
            same += f", counting the {money(e.returned_in_collections)} uncalled bet returned"
        mark: Mark = "" if recorded == counted else "differs"
        blocks.append(_Para(f"{total}; the log's total pot: {money(recorded)} ({same}).", mark))
    else:
        blocks.append(_Para(f"{total}."))
    return blocks


def _no_hand(rules: tuple[RuleQuote, ...]) -> str:
    """Say why a share names no hand: nobody was left to show one, or nobody else could
    win that pot, so no hands were compared for it."""
    if any(q.id == "R4.round-end" for q in rules):
        return "(no showdown: everyone else folded)"
    return "(not compared: nobody else could win this pot)"


def _pot_head(pot: PotRow, money: _Money) -> str:
    head = f"{pot.name.capitalize()}: {money(pot.amount)}"
    taken = []
    if pot.rake:
        taken.append(f"rake {money(pot.rake)}")
    if pot.fees:
        taken.append(f"fees {money(pot.fees)}")
    if pot.added:
        taken.append(f"added {money(pot.added)}")
    if taken:
        head += f" ({', '.join(taken)}; pays {money(pot.net)})"
    who = ", ".join(pot.eligible_players)
    return f"{head}. Players who could win it: {who}."


def _players(e: Explanation, money: _Money) -> list[_Block]:
    table = _Table(
        [
            "Seat",
            "Player",
            "Put in",
            "Won (rules)",
            "Collected (log)",
            "Final stack (rules)",
            "Final stack (log)",
            "Check",
        ]
    )
    for p in e.players:
        check = {None: "", True: "matches", False: "DIFFERS"}[p.matches]
        if p.matches is False:
            check += _difference(p.won, p.won_recorded, p.final_stack, p.final_recorded, money)
        elif p.matches and p.returned_in_collection:
            back = money(p.returned_in_collection)
            check += f" (the log's collection counts the {back} uncalled bet returned)"
        if p.cash_out is not None:
            paid = f"paid the cash-out {money(p.cash_out)}"
            if p.cash_out_fee:
                paid += f" (after a {money(p.cash_out_fee)} fee)"
            check = f"{check}; {paid} instead [{CASH_OUT_RULE}]".lstrip("; ")
        awarded = e.unsettled is None
        table.add(
            [
                str(p.seat),
                p.player,
                money(p.invested),
                money(p.won) if awarded else "not awarded",
                money(p.won_recorded),
                money(p.final_stack) if awarded else "",
                money(p.final_recorded),
                check,
            ],
            "differs" if p.matches is False else "",
        )
    return [
        _Para(
            "Won (rules) is what Croupier pays by the rules; Collected (log) is what the site "
            "recorded. A difference is marked DIFFERS."
            + (
                " A player who cashed out is paid the cash-out instead of what they won, and "
                "their final stack counts the cash-out."
                if any(p.cash_out is not None for p in e.players)
                else ""
            )
            + (
                " The site cancelled this hand: every chip put in goes back, so each final "
                "stack is the stack the player started with."
                if e.status == "void"
                else ""
            )
        ),
        table,
    ]


def _difference(
    won: int, won_log: int | None, final: int, final_log: int | None, money: _Money
) -> str:
    """Say by how much the log's payout (else its final stack) differs from the rules'."""
    for what, rules, log in (("pays", won, won_log), ("leaves", final, final_log)):
        if log is not None and log != rules:
            more = "more" if log > rules else "less"
            return f": the log {what} {money(abs(log - rules))} {more}"
    return ""


def _problems(e: Explanation) -> list[_Block]:
    if not e.problems:
        return [_Para(_NO_PROBLEM.get(e.status, _NO_PROBLEM["ok"]))]
    blocks: list[_Block] = []
    void = e.status == "void"
    if void:
        blocks.append(
            _Para(
                "The site cancelled this hand, so nothing in it counts as an error or a "
                "warning (the log does not say why it was cancelled). What follows would "
                "break a rule in a hand that was played; here it is information only."
            )
        )
    for p in e.problems:
        where = "the hand as a whole" if p.seq is None else f"action #{p.seq}"
        who = f" ({p.player}, seat {p.seat})" if p.player else ""
        detail = ""
        if p.expected is not None or p.actual is not None:
            detail = f" Expected {p.expected or '-'}; the log has {p.actual or '-'}."
        kind = "Not counted (void hand)" if void else p.severity.capitalize()
        text = (
            f"{kind} at {where}{who}: {p.message}.{detail} "
            f"[code {p.code}] Rule {p.rule.id}: {p.rule.text or '(not in RULES.md)'}"
        )
        mark: Mark = "" if void else "error" if p.severity == "error" else "warning"
        blocks.append(_Para(text, mark))
    return blocks


def _rules(e: Explanation) -> list[_Block]:
    cited = e.rules_cited
    if not cited:
        return [_Para("No rule was cited.")]
    return [_Facts([(quote.id, quote.text or "(not in RULES.md)") for quote in cited])]


# ------------------------------------------------------------------------------ text


def _text_table(table: _Table) -> list[str]:
    widths = [len(h) for h in table.headers]
    for row in table.rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]
    marks = {"": "  ", "error": "!!", "warning": "! ", "differs": "<>"}

    def line(cells: list[str], mark: Mark) -> str:
        text = "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
        return f"{marks[mark]} {text}".rstrip()

    out = [line(table.headers, ""), line(["-" * w for w in widths], "")]
    out += [line(row, mark) for row, mark in zip(table.rows, table.marks, strict=True)]
    return out


def to_text(explanation: Explanation) -> str:
    """Render as plain aligned text: !! marks an error, ! a warning, <> a difference."""
    title, sections = _document(explanation)
    out = [title, "=" * len(title)]
    for section in sections:
        out += ["", section.title.upper()]
        for block in section.blocks:
            if isinstance(block, _Facts):
                width = max(len(label) for label, _ in block.items)
                out += [f"{label.ljust(width)}  {value}" for label, value in block.items]
            elif isinstance(block, _Para):
                prefix = {"": "", "error": "!! ", "warning": "! ", "differs": "<> "}[block.mark]
                out.append(prefix + block.text)
            else:
                out += _text_table(block)
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------ markdown

_MD_SPECIAL = str.maketrans({c: f"\\{c}" for c in "\\`*_[]<>|~$"} | {"\n": " "})


def _md(text: str) -> str:
    """Escape text from the log so Markdown shows it as written (no links, no HTML)."""
    return text.translate(_MD_SPECIAL)


def _md_block(block: _Block) -> list[str]:
    if isinstance(block, _Facts):
        return [f"- **{label}:** {_md(value)}" for label, value in block.items]
    if isinstance(block, _Para):
        bullet = "- " if block.text.startswith("- ") else ""
        text = _md(block.text.removeprefix("- "))
        if block.mark:
            text = f"**{_MARKERS[block.mark]} {text}**"
        return [bullet + text]
    out = ["| " + " | ".join(_md(h) for h in block.headers) + " |"]
    out.append("|" + "|".join("---" for _ in block.headers) + "|")
    for row, mark in zip(block.rows, block.marks, strict=True):
        cells = [_md(c) for c in row]
        if mark:
            cells[0] = f"**{_MARKERS[mark]}** {cells[0]}"
        out.append("| " + " | ".join(cells) + " |")
    return out


def to_markdown(explanation: Explanation) -> str:
    """Render as GitHub Markdown: problems and differences in bold with a marker."""
    title, sections = _document(explanation)
    out = [f"# {_md(title)}"]
    for section in sections:
        out += ["", f"## {section.title}"]
        previous: _Block | None = None
        for block in section.blocks:
            together = (
                isinstance(block, _Para)
                and isinstance(previous, _Para)
                and block.text.startswith("- ")
                and previous.text.startswith("- ")
            )
            if not together:
                out.append("")
            out += _md_block(block)
            previous = block
    return "\n".join(out) + "\n"


_MARKERS: dict[Mark, str] = {"": "", "error": "✗", "warning": "⚠", "differs": "≠"}


# ------------------------------------------------------------------------------ html

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem;
       color: #1d2330; background: #fbfbfd; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 2px solid #d9dce6;
     padding-bottom: .2rem; }
table { border-collapse: collapse; margin: .6rem 0 1rem; background: #fff; }
th, td { border: 1px solid #d9dce6; padding: .3rem .55rem; text-align: left;
         vertical-align: top; font-size: .92rem; }
th { background: #eef0f6; }
dl { display: grid; grid-template-columns: max-content auto; gap: .25rem 1.2rem; }
dt { font-weight: 600; color: #4a5163; }
dd { margin: 0; }
tr.error td { background: #fde2e1; }
tr.warning td { background: #fff4d6; }
tr.differs td { background: #fde2e1; font-weight: 600; }
p.error, p.differs { background: #fde2e1; padding: .4rem .6rem; border-left: 4px solid #c62828; }
p.warning { background: #fff4d6; padding: .4rem .6rem; border-left: 4px solid #b7791f; }
p.note { margin: .15rem 0 .15rem 1rem; }
.legend { color: #4a5163; font-size: .9rem; }
.card { font-weight: 600; white-space: nowrap; }
.card.red { color: #c62828; }
p.note::before { content: "• "; }
"""


def _h(text: str) -> str:
    return html.escape(text, quote=True)


_SUITS = {"s": ("♠", "black"), "h": ("♥", "red"), "d": ("♦", "red"), "c": ("♣", "black")}
_CARD_RE = re.compile(r"^[2-9TJQKA][shdc]$")


def _html_cards(text: str) -> str:
    """Show a cell of cards (``Ah Kd ??``) with suit symbols, hearts and diamonds in red."""
    out = []
    for token in text.split(" "):
        if _CARD_RE.match(token):
            symbol, colour = _SUITS[token[1]]
            rank = "10" if token[0] == "T" else token[0]
            out.append(f'<span class="card {colour}" title="{token}">{rank}{symbol}</span>')
        else:
            out.append(_h(token))
    return " ".join(out)


_CARD = r"[2-9TJQKA][shdc]"
_CARD_RUN = re.compile(rf"(?<![\w?])(?:{_CARD}(?: {_CARD})+|(?<=board: ){_CARD})(?![\w?])")
"""Cards within text: two or more in a row (a hand, a board), or the one after ``board:``
(a turn, a river). A lone word such as "As" is left as written."""


def _html_text(text: str) -> str:
    """Escape text, showing the cards in it as :func:`_html_cards` does."""
    out, at = [], 0
    for match in _CARD_RUN.finditer(text):
        out += [_h(text[at : match.start()]), _html_cards(match.group())]
        at = match.end()
    out.append(_h(text[at:]))
    return "".join(out)


def _column_kind(header: str) -> Callable[[str], str]:
    """Return how to show a column's cells: cards with suit symbols only in card columns
    and in the action text (which names no player); names and the rest as written."""
    if "card" in header.lower():
        return _html_cards
    return _html_text if header == "Action" else _h


def to_html(explanation: Explanation) -> str:
    """Render as one self-contained HTML page (inline CSS, no scripts, nothing fetched)."""
    title, sections = _document(explanation)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">",
        f"<title>{_h(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{_h(title)}</h1>",
        '<p class="legend">Rows in red break a rule or differ from the log; rows in yellow '
        "are warnings (no chip moved wrongly).</p>",
    ]
    for section in sections:
        out.append(f"<h2>{_h(section.title)}</h2>")
        for block in section.blocks:
            if isinstance(block, _Facts):
                out.append("<dl>")
                out += [f"<dt>{_h(k)}</dt><dd>{_h(v)}</dd>" for k, v in block.items]
                out.append("</dl>")
            elif isinstance(block, _Para):
                kind = block.mark or ("note" if block.text.startswith("- ") else "")
                attr = f' class="{kind}"' if kind else ""
                text = block.text.removeprefix("- ")
                out.append(f"<p{attr}>{_html_text(text) if block.cards else _h(text)}</p>")
            else:
                out.append("<table>")
                out.append("<tr>" + "".join(f"<th>{_h(h)}</th>" for h in block.headers) + "</tr>")
                kinds = [_column_kind(h) for h in block.headers]
                for row, mark in zip(block.rows, block.marks, strict=True):
                    attr = f' class="{mark}"' if mark else ""
                    cells = "".join(
                        f"<td>{kind(c)}</td>" for c, kind in zip(row, kinds, strict=True)
                    )
                    out.append(f"<tr{attr}>{cells}</tr>")
                out.append("</table>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------ json


def _plain(value: object, scale: int, name: str = "") -> object:
    """Turn records into JSON values; money fields become ``{units, text}``."""
    if name in _MONEY_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return {"units": value, "text": format_amount(value, scale)}
    if isinstance(value, msgspec.Struct):
        names = value.__struct_fields__
        return {name: _plain(getattr(value, name), scale, name) for name in names}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name), scale, f.name) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v, scale) for v in value]
    return value


def to_json(explanation: Explanation) -> str:
    """Render as JSON: fields in the records' order, money as minor units and decimal text."""
    document = _plain(explanation, explanation.scale)
    assert isinstance(document, dict)
    document["rules_cited"] = _plain(explanation.rules_cited, explanation.scale)
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
