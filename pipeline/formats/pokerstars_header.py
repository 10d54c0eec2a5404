"""PokerStars text: the header line, the table line, amounts, cards and times.

The pieces of the grammar (``shared/formats/pokerstars.md`` §2.2, §2.8) that the hand
parser in :mod:`pipeline.formats.pokerstars_body` builds on. Nothing here raises on bad
data except :class:`HandError`, which the reader turns into a
:class:`~pipeline.violations.Reject` for the one hand it belongs to.

Amounts are read exactly into integer units of :data:`FINE_SCALE` (10**-8) and rescaled
once the hand's unit is known; :class:`MoneyReader` remembers the most decimals seen, so
the unit is fine enough for every amount of the hand and no amount is ever rounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from pipeline.cards import parse_card
from pipeline.model import Betting, Variant
from pipeline.money import MAX_SCALE, AmountError, format_amount, parse_amount
from pipeline.violations import RejectCode

__all__ = [
    "AMOUNT",
    "DATE_RE",
    "FINE_SCALE",
    "HEADER_RE",
    "HandError",
    "Header",
    "MoneyReader",
    "TableLine",
    "big_blind",
    "check_raise",
    "parse_cards_text",
    "parse_header",
    "parse_table_line",
]

FINE_SCALE = MAX_SCALE
"""Amounts are parsed into units of 10**-FINE_SCALE, then rescaled to the hand's unit."""

AMOUNT = r"(?:[$€£₹¥]|Rs\. ?)?[0-9][0-9,]*(?:\.[0-9]+)?"
"""An amount as PokerStars (or a converter) writes it: optional symbol, digits, decimals."""

_SITE_NAMES = {
    "pokerstars": "PokerStars",
    "run it once poker": "Run It Once Poker",
    "run it once": "Run It Once Poker",
    "pokermaster": "PokerMaster",
    "supremapoker": "SupremaPoker",
    "suprema poker": "SupremaPoker",
    "pokerbros": "PokerBros",
    "full tilt poker": "Full Tilt",
    "full tilt": "Full Tilt",
}

HEADER_RE = re.compile(
    r"^(?P<site>(?i:PokerStars|Run It Once Poker|Run It Once|PokerMaster|SupremaPoker"
    r"|Suprema Poker|PokerBros|Full Tilt Poker|Full Tilt))"
    r"(?P<kind>(?i: Zoom| Home Game)?) (?i:Game|Hand) #(?P<id>[0-9A-Za-z_-]+): ?(?P<rest>.*)$",
    re.ASCII,
)
"""The first line of a hand: site, title, hand number; the rest is the game and the time."""

_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR", "¥": "CNY", "Rs.": "INR"}
_ISO_RE = re.compile(r"^[A-Z]{2,4}$")

_ZONES = {
    "ET": "America/New_York",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "CT": "America/Chicago",
    "CST": "America/Chicago",
    "CDT": "America/Chicago",
    "MT": "America/Denver",
    "MST": "America/Denver",
    "MDT": "America/Denver",
    "PT": "America/Los_Angeles",
    "PST": "America/Los_Angeles",
    "PDT": "America/Los_Angeles",
    "AT": "America/Halifax",
    "AST": "America/Halifax",
    "ADT": "America/Halifax",
    "BRT": "America/Sao_Paulo",
    "BRST": "America/Sao_Paulo",
    "ART": "America/Argentina/Buenos_Aires",
    "UTC": "UTC",
    "GMT": "UTC",
    "WET": "Europe/Lisbon",
    "WEST": "Europe/Lisbon",
    "CET": "Europe/Paris",
    "CEST": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "EEST": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata",
    "CCT": "Asia/Shanghai",
    "JST": "Asia/Tokyo",
    "AWST": "Australia/Perth",
    "ACST": "Australia/Adelaide",
    "AEST": "Australia/Sydney",
    "AEDT": "Australia/Sydney",
    "NZT": "Pacific/Auckland",
    "NZST": "Pacific/Auckland",
    "NZDT": "Pacific/Auckland",
}
DATE_RE = re.compile(
    r"(?P<y>[0-9]{4})[/-](?P<mo>[0-9]{1,2})[/-](?P<d>[0-9]{1,2})(?: - | +)"
    r"(?P<h>[0-9]{1,2}):(?P<mi>[0-9]{2})(?::(?P<s>[0-9]{2}))?"
    r"(?: ?\(?(?P<tz>[A-Z]{1,5})\)?)?"
)
"""A date and time as PokerStars headers print them (``2008/08/17 - 01:14:43 (ET)``,
``2024/06/01 20:00:00 ET``), with the zone where one is printed."""
_DATE_START_RE = re.compile(r"\s+-\s+(?=[0-9]{4}[/-][0-9]{1,2}[/-][0-9]{1,2})")
_ITALIAN_ID_RE = re.compile(r"\s*\[(?:ADM|AAMS) ID: [^\]]*\]")
_CLUB_RE = re.compile(r"^\{(?P<club>[^}]*)\}\s*")
_TOURNEY_RE = re.compile(
    r"^(?:Zoom )?Tournament #(?P<tid>[0-9]+),\s*(?P<rest>.*?)\s+-\s+"
    r"(?:Match Round (?P<round>\w+),\s*)?Level (?P<level>[\w-]+)\s*"
    r"\((?P<sb>[^/()]+)/(?P<bb>[^/()]+)\)\s*$"
)
_BUYIN_RE = re.compile(
    r"^(?P<buyin>Freeroll|(?![56] Card )\S*[0-9]\S*(?: [A-Z]{2,4}(?= ))?)\s+(?P<game>.+)$"
)
"""A tournament's buy-in (amounts, or ``Freeroll``) before its game; some headers have none
(``Tournament #35055742, Hold'em No Limit - Match Round I``): the game is all there is."""
_CAP_RE = re.compile(r"-\s*(?P<cap>\S+) Cap\s*-")
"""A Cap table's stakes (``$0.25/$0.50 - $10 Cap - USD``): no player puts in more a hand."""
_PAREN_RE = re.compile(r"^(?P<outer>[^()]+?)\s*\((?P<inner>[^()]*)\)$")
_TRAILING_PAREN_RE = re.compile(r"^(?P<outer>.+?)\s*\((?P<inner>[^()]*)\)$")
_STAKES_RE = re.compile(
    rf"^(?P<sb>{AMOUNT})/(?P<bb>{AMOUNT})(?P<more>(?:/{AMOUNT})*)(?:\s+(?P<iso>[A-Z]{{2,4}}))?$"
)
_LOOKS_LIKE_STAKES_RE = re.compile(r"^(?:[$€£₹¥]|Rs\. ?)?[0-9][^/]*/")
"""What starts as stakes do (``$1/``, ``10/``), to tell stakes that do not read from a game."""
_LIMIT_RE = re.compile(
    r"^(?P<name>.+?)\s+(?P<limit>Pot Limit Pre-Flop, No Limit Post-Flop|Pot Limit|No Limit"
    r"|Fixed Limit|Limit)$"
)
_TABLE_RE = re.compile(
    r"^Table(?: ID)? '(?P<table>.*)'(?: (?P<max>[0-9]+)-[Mm]ax)?(?: \((?P<play>Play Money)\))?"
    r" Seat #(?P<button>[0-9]+) is the button$"
)
_CARD_RE = re.compile(r"^[2-9TJQKA][cdhs]$")
_SYMBOL_RE = re.compile(r"^(?:[$€£₹¥]|Rs\. ?)")

_BETTING = {
    "pot limit": Betting.POT_LIMIT,
    "no limit": Betting.NO_LIMIT,
    "limit": Betting.FIXED_LIMIT,
    "fixed limit": Betting.FIXED_LIMIT,
    "pot limit pre-flop, no limit post-flop": Betting.PL_PREFLOP_NL_POSTFLOP,
}
_OMAHA: dict[str, tuple[Variant, int]] = {
    "courchevel": (Variant.COURCHEVEL, 5),
    "courchevel hi/lo": (Variant.COURCHEVEL_HILO, 5),
    "courchevel hi-lo": (Variant.COURCHEVEL_HILO, 5),
}
"""Game names (lower case, ``-card`` read as `` card``) to variant and hole cards."""
for _cards, _names in (
    (4, ("omaha", "omaha hi", "omaha high")),
    (5, ("5 card omaha", "omaha 5 cards", "5 card omaha high")),
    (6, ("6 card omaha", "omaha 6 cards", "6 card omaha high")),
):
    for _name in _names:
        _OMAHA[_name] = (Variant.OMAHA, _cards)
        for _suffix in (" hi/lo", " hi-lo", " h/l", " 8", " hi/lo 8 or better"):
            _OMAHA[_name.removesuffix(" high").removesuffix(" hi") + _suffix] = (
                Variant.OMAHA_HILO,
                _cards,
            )


class HandError(Exception):
    """A hand that cannot become a record: the reject code, the line and what is wrong."""

    def __init__(self, code: RejectCode, line: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.line = line
        self.message = message


@dataclass(slots=True)
class MoneyReader:
    """Parse amounts exactly into units of 10**-FINE_SCALE and remember what was seen.

    ``decimals`` is the most decimals of any amount read, so the hand's unit can be fine
    enough for all of them. ``thousands`` records a thousands separator and
    ``zero_cents`` an integer amount written with ``.00`` in a line where PokerStars
    drops the zeros: both are signs of a converter.
    """

    decimals: int = 0
    thousands: list[int] = field(default_factory=list)
    zero_cents: list[int] = field(default_factory=list)
    symbols: set[str] = field(default_factory=set)

    def parse(self, text: str, line: int, *, body: bool = True) -> int:
        """Parse one amount such as ``$1,234.5`` into fine units; raise ``bad-amount``."""
        body_text = text
        symbol = ""
        for written in ("Rs. ", "Rs."):
            if body_text.startswith(written):
                symbol, body_text = "Rs.", body_text[len(written) :]
                break
        else:
            if body_text[:1] in _SYMBOLS:
                symbol, body_text = body_text[0], body_text[1:]
        if symbol and symbol not in self.symbols:
            if any(_SYMBOLS[s] != _SYMBOLS[symbol] for s in self.symbols):  # one currency
                before = " ".join(sorted(self.symbols))
                message = f"line {line}: {text!r} is in {symbol}, the amounts before it in {before}"
                raise HandError(RejectCode.BAD_AMOUNT, line, message)
            self.symbols.add(symbol)
        if "," in body_text:
            whole, _, _ = body_text.partition(".")
            groups = whole.split(",")
            first = groups[0]  # "0,250" is a decimal comma, not 250
            if not (
                1 <= len(first) <= 3 and first[0] != "0" and all(len(g) == 3 for g in groups[1:])
            ):
                raise HandError(
                    RejectCode.BAD_AMOUNT, line, f"line {line}: not an amount: {text!r}"
                )
            self.thousands.append(line)
            body_text = body_text.replace(",", "")
        _, dot, frac = body_text.partition(".")
        if len(frac) > FINE_SCALE:
            raise HandError(
                RejectCode.BAD_AMOUNT,
                line,
                f"line {line}: more than {FINE_SCALE} decimals: {text!r}",
            )
        try:
            value = parse_amount(body_text, FINE_SCALE)
        except AmountError as error:
            raise HandError(RejectCode.BAD_AMOUNT, line, f"line {line}: {error}") from None
        significant = frac.rstrip("0")
        self.decimals = max(self.decimals, len(significant))
        if body and dot and frac and not significant:
            self.zero_cents.append(line)
        return value


def parse_cards_text(text: str, line: int) -> tuple[int, ...]:
    """Parse the inside of a ``[Qs Th 3c 3h]`` group; raise ``bad-card`` on anything else."""
    cards: list[int] = []
    for token in text.split():
        if _CARD_RE.fullmatch(token) is None:
            raise HandError(RejectCode.BAD_CARD, line, f"line {line}: not a card: {token!r}")
        cards.append(parse_card(token))
    return tuple(cards)


# ------------------------------------------------------------------------------- header


@dataclass(slots=True)
class Header:
    """What the first line of a hand says; amounts are in fine units (``None`` if absent).

    For fixed limit the header's stakes are the small and big bet; otherwise they are
    the blinds. ``zone_missing`` is true when no time zone was printed (a converter's
    sign; the time is then read as ET, as FPDB does).
    """

    site: str
    hand_id: str
    variant: Variant
    hole_cards: int
    betting: Betting
    low_stake: int
    high_stake: int
    currency: str
    real_money: bool
    mixed: str | None = None
    club: str | None = None
    started_at: datetime | None = None
    zone_missing: bool = False
    zoom: bool = False
    tournament_id: str | None = None
    level: str | None = None
    buyin: str | None = None
    tournament_currency: str | None = None
    stakes: str | None = None
    """The header's stakes as written, when they have amounts beyond the two read."""


def _game(text: str, line: int) -> tuple[Variant, int, Betting]:
    """Read ``Omaha Hi/Lo Pot Limit`` into variant, hole cards and betting."""
    match = _LIMIT_RE.match(text.strip())
    name = (match.group("name") if match else text).strip()
    key = " ".join(name.lower().replace("-card", " card").split())
    game = _OMAHA.get(key)
    if game is None:
        if "omaha" in key or "courchevel" in key:
            raise HandError(
                RejectCode.MALFORMED_HAND, line, f"line {line}: unknown Omaha game {text!r}"
            )
        raise HandError(
            RejectCode.UNSUPPORTED_GAME, line, f"line {line}: not an Omaha game: {text!r}"
        )
    if match is None:
        raise HandError(
            RejectCode.MALFORMED_HAND, line, f"line {line}: no betting structure in {text!r}"
        )
    return game[0], game[1], _BETTING[match.group("limit").lower()]


def _split_mixed(text: str) -> tuple[str | None, str, str | None]:
    """Split ``8-Game (Omaha Hi/Lo Limit, $1/$2 USD)`` into mixed name, game and stakes."""
    match = _PAREN_RE.match(text.strip())
    if match is None:
        return None, text, None
    inner = match.group("inner")
    game, comma, stakes = inner.rpartition(", ")
    if comma and _STAKES_RE.match(stakes.strip()):
        return match.group("outer").strip(), game, stakes.strip()
    return match.group("outer").strip(), inner, None


def _currency(iso: str | None, money: MoneyReader, line: int) -> str | None:
    """Return the currency the header names (its ISO code, else its amounts' symbol);
    raise ``bad-amount`` when the code is one a symbol stands for and the amounts are
    written in another's (``$0.01/$0.02 EUR``; ``$`` in ``CAD`` is taken as written)."""
    if iso:
        for symbol in money.symbols:
            if _SYMBOLS[symbol] != iso and iso in _SYMBOLS.values():
                message = f"line {line}: amounts in {symbol} in a game in {iso}"
                raise HandError(RejectCode.BAD_AMOUNT, line, message)
        return iso
    for symbol in sorted(money.symbols):
        return _SYMBOLS[symbol]
    return None


def _started_at(text: str, line: int) -> tuple[datetime | None, bool]:
    """Pick the time to trust: a stated UTC, else ET, else any known zone, else ET.

    Returns the time in UTC and whether no time of the header has a zone at all (read as
    ET, as FPDB does: a converter's sign). A zone that is printed but not known (``HST``)
    is never guessed: another time of the header in a known zone (the ``[… ET]`` one) is
    used, and without one the hand is a ``bad-timestamp`` reject. So is a time its clock
    skipped; of an hour it showed twice, the other time of the header says which.
    """
    found: list[tuple[datetime, str | None]] = []
    unknown: list[tuple[str, str]] = []  # (zone, the time as written)
    for match in DATE_RE.finditer(text):
        try:
            moment = datetime(
                int(match.group("y")),
                int(match.group("mo")),
                int(match.group("d")),
                int(match.group("h")),
                int(match.group("mi")),
                int(match.group("s") or 0),
            )
        except ValueError as error:
            raise HandError(
                RejectCode.BAD_TIMESTAMP, line, f"line {line}: {error}: {match.group(0)!r}"
            ) from None
        zone = match.group("tz")
        if zone is not None and zone not in _ZONES:
            unknown.append((zone, match.group(0)))
            continue
        found.append((moment, zone))
    zoned = [(moment, zone) for moment, zone in found if zone is not None]
    order = ("UTC", "GMT", "ET", "EST", "EDT")
    zoned.sort(key=lambda item: order.index(item[1]) if item[1] in order else len(order))
    if zoned:
        return _trusted(zoned, line), False
    if unknown:
        raise HandError(
            RejectCode.BAD_TIMESTAMP,
            line,
            f"line {line}: unknown time zone {unknown[0][0]!r} in {unknown[0][1]!r}, and no "
            f"time in a known zone (known: {', '.join(sorted(_ZONES))}); the time is not "
            "guessed",
        )
    if not found:
        return None, True
    return _trusted([(found[-1][0], "ET")], line), True


def _trusted(zoned: list[tuple[datetime, str]], line: int) -> datetime:
    """Return the first time in UTC; raise ``bad-timestamp`` if its clock never showed it
    (the hour skipped when clocks go forward). Of the hour clocks show twice (when they go
    back), the one another time of the header agrees with, else the first."""
    moment, zone = zoned[0]
    possible = _instants(moment, zone)
    if not possible:
        message = f"line {line}: {moment:%Y/%m/%d %H:%M:%S} never happened in {zone}"
        raise HandError(RejectCode.BAD_TIMESTAMP, line, f"{message} (the clocks went forward)")
    for other, other_zone in zoned[1:]:
        agreed = [t for t in possible if t in _instants(other, other_zone)]
        if len(agreed) == 1:
            return agreed[0]
    return possible[0]


def _instants(moment: datetime, zone: str) -> list[datetime]:
    """Return the instants (UTC) a zone's clock showed ``moment`` at: none, one or two."""
    tz = ZoneInfo(_ZONES[zone])
    found = []
    for fold in (0, 1):
        instant = moment.replace(tzinfo=tz, fold=fold).astimezone(UTC)
        if instant.astimezone(tz).replace(tzinfo=None) == moment and instant not in found:
            found.append(instant)
    return found


def parse_header(line_text: str, line: int, money: MoneyReader) -> Header:
    """Read a hand's first line (``HEADER_RE`` must match); raise :class:`HandError`.

    Raises ``unsupported-game`` for a game that is not Omaha (Hold'em, Stud, Razz …),
    ``malformed-hand`` for a header it cannot read, ``bad-amount`` and ``bad-timestamp``.
    """
    match = HEADER_RE.match(line_text)
    if match is None:
        raise HandError(RejectCode.MALFORMED_HAND, line, f"line {line}: not a hand header")
    site = _SITE_NAMES[match.group("site").lower()]
    zoom = match.group("kind").strip().lower() == "zoom" or " Zoom Tournament #" in line_text
    rest = _ITALIAN_ID_RE.sub("", match.group("rest")).strip()
    club = None
    club_match = _CLUB_RE.match(rest)
    if club_match:
        club = club_match.group("club")
        rest = rest[club_match.end() :]
    date_at = _DATE_START_RE.search(rest)
    game_part, date_part = (
        (rest[: date_at.start()], rest[date_at.end() :]) if date_at else (rest, "")
    )
    started_at, zone_missing = _started_at(date_part, line)
    tourney = _TOURNEY_RE.match(game_part.strip())
    header_money = MoneyReader()
    if tourney:
        buyin_match = _BUYIN_RE.match(tourney.group("rest"))
        buyin = buyin_match.group("buyin") if buyin_match else None
        game_of = buyin_match.group("game") if buyin_match else tourney.group("rest")
        mixed, game_text, _ = _split_mixed(game_of)
        variant, hole, betting = _game(game_text, line)
        low = money.parse(tourney.group("sb").strip(), line, body=False)
        high = money.parse(tourney.group("bb").strip(), line, body=False)
        iso = buyin.rsplit(" ", 1)[1] if buyin and " " in buyin else None
        for part in re.findall(AMOUNT, buyin or ""):
            header_money.parse(part, line, body=False)
        t_currency = _currency(iso if iso and _ISO_RE.match(iso) else None, header_money, line)
        return Header(
            site=site,
            hand_id=match.group("id"),
            variant=variant,
            hole_cards=hole,
            betting=betting,
            low_stake=low,
            high_stake=high,
            currency="CHIPS",
            real_money=False,
            mixed=mixed,
            club=club,
            started_at=started_at,
            zone_missing=zone_missing,
            zoom=zoom,
            tournament_id=tourney.group("tid"),
            level=tourney.group("level"),
            buyin=buyin,
            tournament_currency=t_currency,
        )
    mixed, game_text, stakes = _split_mixed(game_part)
    if stakes is None:
        # plain ``GAME LIMIT (stakes)`` or ``MIXED (GAME LIMIT) (stakes)``
        match_stakes = _TRAILING_PAREN_RE.match(game_part.strip())
        if match_stakes is None or not _STAKES_RE.match(match_stakes.group("inner").strip()):
            cap = _CAP_RE.search(game_part)
            if cap is not None:
                raise HandError(
                    RejectCode.UNSUPPORTED_GAME,
                    line,
                    f"line {line}: Cap games are not supported (a {cap.group('cap')} cap on "
                    "what a player puts in a hand changes who may still act)",
                )
            if match_stakes is not None:
                written = match_stakes.group("inner").rpartition(", ")[2].strip()
                if _LOOKS_LIKE_STAKES_RE.match(written):
                    message = f"line {line}: cannot read the stakes {written!r}"
                    raise HandError(RejectCode.MALFORMED_HAND, line, message)
            _game(game_part, line)  # unsupported-game if it is not Omaha at all
            raise HandError(RejectCode.MALFORMED_HAND, line, f"line {line}: no stakes in header")
        stakes = match_stakes.group("inner").strip()
        mixed, game_text, _ = _split_mixed(match_stakes.group("outer"))
        if _STAKES_RE.match(game_text.strip()):
            message = f"line {line}: stakes written twice: {game_text.strip()!r}, {stakes!r}"
            raise HandError(RejectCode.MALFORMED_HAND, line, message)
    variant, hole, betting = _game(game_text, line)
    stakes_match = _STAKES_RE.match(stakes)
    if stakes_match is None:
        raise HandError(RejectCode.MALFORMED_HAND, line, f"line {line}: cannot read stakes")
    low = money.parse(stakes_match.group("sb"), line, body=False)
    high = money.parse(stakes_match.group("bb"), line, body=False)
    stake_money = MoneyReader()
    stake_money.parse(stakes_match.group("sb"), line, body=False)
    currency = _currency(stakes_match.group("iso"), stake_money, line)
    return Header(
        site=site,
        hand_id=match.group("id"),
        variant=variant,
        hole_cards=hole,
        betting=betting,
        low_stake=low,
        high_stake=high,
        currency=currency or "PLAY",
        real_money=currency is not None,
        mixed=mixed,
        stakes=stakes if stakes_match.group("more") else None,
        club=club,
        started_at=started_at,
        zone_missing=zone_missing,
        zoom=zoom,
    )


def big_blind(header: Header) -> int:
    """Return the big blind the header states (fixed limit: the small bet), fine units."""
    return header.low_stake if header.betting is Betting.FIXED_LIMIT else header.high_stake


def check_raise(
    header: Header,
    said: tuple[str, str],
    amounts: tuple[int, int],
    *,
    level: int,
    preflop: bool,
    line: int,
) -> None:
    """Check ``raises X to Y`` (``said`` as written, ``amounts`` in fine units) against
    ``level``, the highest total of the street before it; raise ``bad-amount`` if they
    disagree.

    PokerStars writes X as the raise over the street's bet and Y as the raiser's new total,
    so Y - X must be that bet (preflop the big blind counts too, for a big blind posted
    all-in short). The clones may write Y as the chips the raise adds (see
    :mod:`~pipeline.formats.pokerstars_clones`), so there only X <= Y is checked. Neither
    amount is ever preferred over the other.
    """
    by, to = amounts
    quoted = f"'raises {said[0]} to {said[1]}'"
    if header.site != "PokerStars":
        if by <= to:
            return
        message = f"line {line}: {quoted}: a raise by more than the total it raises to"
        raise HandError(RejectCode.BAD_AMOUNT, line, message)
    if to - by in ({level, max(level, big_blind(header))} if preflop else {level}):
        return
    symbol = _SYMBOL_RE.match(said[1])
    unit = symbol.group(0) if symbol else ""

    def shown(fine: int) -> str:
        return unit + _as_written(fine, cents=header.real_money)

    message = (
        f"line {line}: {quoted}: the bet it raises is {shown(level)}, so a raise to "
        f"{said[1]} is by {shown(to - level)} and a raise by {said[0]} is to "
        f"{shown(level + by)}; the two amounts disagree"
    )
    raise HandError(RejectCode.BAD_AMOUNT, line, message)


def _as_written(fine: int, *, cents: bool) -> str:
    """Format fine units as PokerStars writes them: whole amounts bare, others with at
    least two decimals for money (``cents``).

    >>> _as_written(10_000_000, cents=True), _as_written(500_000_000, cents=True)
    ('0.10', '5')
    """
    whole, _, decimals = format_amount(fine, FINE_SCALE).partition(".")
    decimals = decimals.rstrip("0")
    if not decimals:
        return whole
    return f"{whole}.{decimals.ljust(2, '0') if cents else decimals}"


# -------------------------------------------------------------------------------- table


@dataclass(frozen=True, slots=True)
class TableLine:
    """The second line: table name, seats per table (``None`` if not printed), button."""

    table: str
    max_seats: int | None
    button: int
    play_money: bool


def parse_table_line(text: str, line: int) -> TableLine | None:
    """Read ``Table 'Gaby II' 6-max Seat #5 is the button``; ``None`` if it is not one."""
    match = _TABLE_RE.match(text)
    if match is None:
        return None
    size = match.group("max")
    return TableLine(
        table=match.group("table"),
        max_seats=int(size) if size else None,
        button=int(match.group("button")),
        play_money=match.group("play") is not None,
    )
