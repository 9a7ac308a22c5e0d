"""The machine style (docs/protocol.md §3): the one formatter and the one parser.

The server's machine renderer builds its lines with ``format_line``; the client library,
the ladder and the tests read them with ``parse_line`` (or ``parse`` for typed values).
Nothing else splits a machine line.

The grammar: a tag, then ``key=value`` fields separated by one space; a value never holds
a space; ``-`` is none, an empty value an empty list or text, lists are comma-separated,
booleans ``1``/``0``; only a last field named ``text`` holds spaces and runs to the end
of the line. New fields are only ever appended (before ``text``), so a reader finds
fields by key and ignores the ones it does not know.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

NONE = "-"
TEXT = "text"
# the texts of small numbers, by index: a line's seats, rounds, player and trick counts
# written without an int's conversion (~530 instructions a field: docs/performance.md)
SMALL = tuple(str(n) for n in range(64))
_KEY = re.compile(r"[a-z_]+")
_BANNER = re.compile(r"\(protocol (\d+)\)")


class WireError(ValueError):
    """A line that does not follow the grammar, or lacks a field its tag requires."""


class Tag(enum.StrEnum):
    """Every tag of protocol 1 (§3.2); a line with another tag parses to a plain str."""

    OK = "ok"
    ERROR = "error"
    INFO = "info"
    BYE = "bye"
    HELP = "help"
    RULES = "rules"
    WHO = "who"
    TABLES = "tables"
    TABLE = "table"
    GAMES = "games"
    GAME = "game"
    SAY = "say"
    EVENT = "event"
    ASK = "ask"
    STATE = "state"
    RECORD = "record"
    HELLO = "hello"
    LAST = "last"
    SHEET = "sheet"
    SHEET_DEAL = "sheet-deal"
    INVITE = "invite"
    REMATCH = "rematch"
    HISTORY = "history"
    HISTORY_DEAL = "history-deal"
    HISTORY_TRICK = "history-trick"
    TOP = "top"
    FINGER = "finger"
    RATED = "rated"
    ANNOUNCE = "announce"
    BANS = "bans"
    BAN = "ban"
    ADDRESS_BAN = "address-ban"
    MUTES = "mutes"
    MUTE = "mute"


class EventKind(enum.StrEnum):
    """Every ``event`` kind of protocol 1 (§6.2); an unknown kind parses to a plain str."""

    SEATED = "seated"
    LEFT = "left"
    START = "start"
    DEAL = "deal"
    CALL = "call"
    PLAY = "play"
    ORDER = "order"
    DEALT = "dealt"
    TRICK = "trick"
    SHOWN = "shown"
    PENALTY = "penalty"
    DEAL_END = "deal-end"
    MATCH_END = "match-end"
    AWAY = "away"
    BACK = "back"
    OBSERVER = "observer"


# ------------------------------------------------------------------ formatting
def format_value(value: Any) -> str:
    """None is ``-``, a bool ``1``/``0``, a list comma-separated; spaces become ``_``."""
    kind = type(value)
    if kind is str:  # the most common first: one type check, not four
        return value.replace(" ", "_") if " " in value else value  # type: ignore[no-any-return]
    if kind is int:
        return str(value)
    if value is None:
        return NONE
    if kind is bool:
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return ",".join([format_value(item) for item in value])
    return str(value).replace(" ", "_")


_GOOD_KEYS: set[str] = set()  # field names already checked (a fixed vocabulary: small)


def format_line(tag: str, fields: Iterable[tuple[str, Any]] = (), text: str | None = None) -> str:
    """``tag k=v k=v … text=…`` (no line end: the connection adds CRLF)."""
    parts = [tag]
    for key, value in fields:
        if key not in _GOOD_KEYS:
            if not _KEY.fullmatch(key) or key == TEXT:  # a bug in the caller, not input
                raise WireError(f"bad field name {key!r}")
            _GOOD_KEYS.add(key)
        parts.append(f"{key}={format_value(value)}")
    if text is not None:
        parts.append(f"{TEXT}={text}")
    return " ".join(parts)


# --------------------------------------------------------------------- parsing
_TAGS: dict[str, Tag] = {tag.value: tag for tag in Tag}  # a look-up, not Enum's call
_KINDS: dict[str, EventKind] = {kind.value: kind for kind in EventKind}


def _tag(word: str) -> Tag | str:
    return _TAGS.get(word, word)


def _kind(word: str | None) -> EventKind | str | None:
    return None if word is None else _KINDS.get(word, word)


def _list(value: str) -> list[str]:
    return [] if value in ("", NONE) else value.split(",")


def _int(value: str, key: str) -> int | None:
    if value in ("", NONE):
        return None
    try:
        return int(value)
    except ValueError:
        raise WireError(f"{key}={value!r} is not a whole number") from None


@attrs.frozen
class Line:
    """One machine line: its tag and its fields in order (a ``text`` field last), typed
    on access. A missing field reads as none, so a reader of an older line and a line
    with fields this reader does not know both work (§1)."""

    tag: Tag | str
    fields: Mapping[str, str]
    line: str = attrs.field(default="", eq=False)  # as received, for logs and errors

    @property
    def text(self) -> str | None:
        return self.fields.get(TEXT)

    @property
    def kind(self) -> EventKind | str | None:
        """An ``event`` line's kind."""
        return _kind(self.fields.get("kind"))

    @property
    def seq(self) -> int | None:
        return self.get_int("seq")

    @property
    def table(self) -> int | None:
        return self.get_int("table")

    def get_str(self, key: str) -> str | None:
        """The value; None for ``-`` or a missing field (an empty value stays '')."""
        value = self.fields.get(key, NONE)
        return None if value == NONE else value

    def get_int(self, key: str) -> int | None:
        """A whole number; None for ``-``, an empty value or a missing field."""
        return _int(self.fields.get(key, NONE), key)

    def get_ints(self, key: str) -> list[int]:
        return [_int(v, key) or 0 for v in self.get_list(key)]

    def get_list(self, key: str) -> list[str]:
        """A comma-separated list; empty for an empty value, ``-`` or a missing field."""
        return _list(self.fields.get(key, ""))

    def get_bool(self, key: str) -> bool | None:
        value = self.fields.get(key, NONE)
        return None if value == NONE else value == "1"

    def require(self, key: str) -> str:
        try:
            return self.fields[key]
        except KeyError:
            raise WireError(f"a {self.tag} line without {key}=") from None

    def require_int(self, key: str) -> int:
        value = _int(self.require(key), key)
        if value is None:
            raise WireError(f"a {self.tag} line with {key}={self.fields[key]}")
        return value

    def format(self) -> str:
        """The line again, as the server would have written it."""
        plain = [(k, v) for k, v in self.fields.items() if k != TEXT]
        return format_line(self.tag, plain, self.text)


def parse_line(line: str) -> Line:
    """Split a machine line (§3.1). A trailing CR or LF is dropped; a word without ``=``
    (a human line, the banner) is skipped; ``text=`` takes the rest of the line."""
    line = line.rstrip("\r\n")
    head, _, rest = line.partition(" ")
    fields: dict[str, str] = {}
    text: str | None = None
    if rest.startswith("text="):
        rest, text = "", rest[5:]
    else:
        at = rest.find(" text=")  # values hold no space: the first is the text field
        if at >= 0:
            rest, text = rest[:at], rest[at + 6 :]
    for item in rest.split(" "):
        key, sep, value = item.partition("=")
        if sep and key not in fields:
            fields[key] = value
    if text is not None:
        fields[TEXT] = text
    return Line(_tag(head), fields, line)


def fields_of(line: str) -> tuple[str, dict[str, str]]:
    """The tag and every field, ``text`` included, as strings."""
    parsed = parse_line(line)
    return str(parsed.tag), dict(parsed.fields)


def quick_ask(line: str) -> tuple[str, list[str]] | None:
    """An ask's ``seq=`` (its digits) and ``legal=`` calls, read without the rest of the
    line; None when either is missing or not as the server writes it (a ``text=``, an
    empty list, a seq that is no number), so the whole line is read the long way."""
    if " text=" in line:
        return None
    seq = first_value(line, " seq=")
    legal = first_value(line, " legal=")
    # ASCII digits (isdigit() takes '²', which int() refuses): anything else is read
    # the long way, which says what is wrong with it
    if not (seq and seq.isascii() and seq.isdecimal()) or not legal or legal == "-":
        return None
    return seq, legal.split(",")


def first_value(line: str, key: str) -> str | None:
    """The value of the first `` key=`` of a machine line (the fields come before any
    text, and a value holds no space): read without parsing the line."""
    at = line.find(key)
    if at < 0:
        return None
    start = at + len(key)
    end = line.find(" ", start)
    return line[start:] if end < 0 else line[start:end]


def banner_protocol(line: str) -> int | None:
    """The protocol number of the banner (§4.1), None if the line is no banner."""
    if not line.startswith("deberc-net "):
        return None
    found = _BANNER.search(line)
    return int(found.group(1)) if found else None


# a line from a peer is at most this long: the server's longest are a small part of it
# (a 'who' of every name), and a peer sending one line without end held a client's
# memory growing without bound (a hostile tryout's, 150 MB in 20 s)
MOST_LINE_BYTES = 1 << 20


class LineTooLong(ConnectionError):
    """A peer sent a line longer than ``MOST_LINE_BYTES``: no speaker of the protocol;
    the connection is as good as lost."""


class LineBuffer:
    """Bytes from the server in, text lines out: a line ends with LF, a CR before it is
    dropped (§2.3). Sans-IO, so every reader frames the same way."""

    def __init__(self, errors: str = "strict", most: int = MOST_LINE_BYTES) -> None:
        self._pending = bytearray()
        self._errors = errors
        self._most = most

    def feed(self, data: bytes | bytearray) -> list[str]:
        """The lines ``data`` completes; LineTooLong once a line outgrows the bound."""
        self._pending += data
        if b"\n" not in data:  # nothing ends: not split again (a long line came in parts)
            self._refuse_beyond(len(self._pending))
            return []
        *complete, rest = self._pending.split(b"\n")
        self._pending = bytearray(rest)
        self._refuse_beyond(max(len(rest), *(len(raw) for raw in complete)))
        return [raw.rstrip(b"\r").decode("utf-8", self._errors) for raw in complete]

    def _refuse_beyond(self, longest: int) -> None:
        if longest > self._most:
            self._pending.clear()
            raise LineTooLong(f"the peer sent a line longer than {self._most} bytes")

    @property
    def unfinished(self) -> bool:
        return bool(self._pending)


# ---------------------------------------------------------------- typed lines
@attrs.frozen
class View:
    """An ``ask`` or ``state`` line (§6.3): everything the seat may see, typed."""

    kind: str  # "ask" or "state"
    seq: int
    table: int
    deal: int
    phase: str
    seat: int | None
    dealer: int
    to_act: int | None
    hand: list[str]
    turned: str | None
    fresa: str | None
    trump: str | None
    player: int | None
    round: int
    leader: int
    trick: list[str]
    tricks: list[int]
    score: list[int]
    hanging: int
    target: int | None
    pending: str | None
    shown: list[str]
    talk: list[str]
    clock_ms: int | None
    legal: list[str]
    raw: dict[str, str]
    # the number of seats: every ask and state line has it (the server's first cut
    # appended it after legal=), so a line without it is refused as one without seq=
    players: int

    @classmethod
    def parse(cls, tag: str, f: dict[str, str]) -> View:
        """From a tag and its fields (kept for the client library's callers)."""
        return cls.from_line(Line(_tag(tag), f))

    @classmethod
    def from_line(cls, line: Line) -> View:
        f = line.fields
        try:
            return cls._fast(line, f)
        except (KeyError, ValueError):  # a field missing or no number: said the long way
            return cls._checked(line)

    @classmethod
    def _fast(cls, line: Line, f: Mapping[str, str]) -> View:
        """The common case, with no call per field (a bot reads one per request); a
        missing or malformed field raises, and ``_checked`` says which."""
        g = f.get
        absent = ("", NONE)
        return cls(
            kind=str(line.tag),
            seq=int(f["seq"]),
            table=int(f["table"]),
            deal=int(f["deal"]),
            phase=f["phase"],
            seat=None if (v := g("seat", NONE)) in absent else int(v),
            dealer=int(f["dealer"]),
            to_act=None if (v := g("to_act", NONE)) in absent else int(v),
            hand=[] if (v := g("hand", "")) in absent else v.split(","),
            turned=None if (v := g("turned", NONE)) in absent else v,
            fresa=None if (v := g("fresa", NONE)) in absent else v,
            trump=None if (v := g("trump", NONE)) in absent else v,
            player=None if (v := g("player", NONE)) in absent else int(v),
            round=1 if (v := g("round", NONE)) in absent else int(v),
            leader=0 if (v := g("leader", NONE)) in absent else int(v),
            trick=[] if (v := g("trick", "")) in absent else v.split(","),
            tricks=[] if (v := g("tricks", "")) in absent else [int(x) for x in v.split(",")],
            score=[] if (v := g("score", "")) in absent else [int(x) for x in v.split(",")],
            hanging=0 if (v := g("hanging", NONE)) in absent else int(v),
            target=None if (v := g("target", NONE)) in absent else int(v),
            pending=None if (v := g("pending", NONE)) in absent else v,
            shown=[] if (v := g("shown", "")) in absent else v.split(","),
            talk=[] if (v := g("talk", "")) in absent else v.split(","),
            clock_ms=None if (v := g("clock", NONE)) in absent else int(v),
            legal=[] if (v := g("legal", "")) in absent else v.split(","),
            raw=dict(f),
            players=int(f["players"]),
        )

    @classmethod
    def _checked(cls, line: Line) -> View:
        def num(key: str, default: int) -> int:
            value = line.get_int(key)
            return default if value is None else value

        return cls(
            kind=str(line.tag),
            seq=line.require_int("seq"),
            table=line.require_int("table"),
            deal=line.require_int("deal"),
            phase=line.require("phase"),
            seat=line.get_int("seat"),
            dealer=line.require_int("dealer"),
            to_act=line.get_int("to_act"),
            hand=line.get_list("hand"),
            turned=line.get_str("turned") or None,
            fresa=line.get_str("fresa") or None,
            trump=line.get_str("trump") or None,
            player=line.get_int("player"),
            round=num("round", 1),
            leader=num("leader", 0),
            trick=line.get_list("trick"),
            tricks=line.get_ints("tricks"),
            score=line.get_ints("score"),
            hanging=num("hanging", 0),
            target=line.get_int("target"),
            pending=line.get_str("pending") or None,
            shown=line.get_list("shown"),
            talk=line.get_list("talk"),
            clock_ms=line.get_int("clock"),
            legal=line.get_list("legal"),
            raw=dict(line.fields),
            players=line.require_int("players"),
        )


@attrs.frozen
class Record:
    """A ``record`` line (§14): the deal in full, as the JSON object."""

    table: int
    record: dict[str, Any]
    deal: int | None = None

    @classmethod
    def from_line(cls, line: Line) -> Record:
        try:
            body = json.loads(line.text or "")
        except json.JSONDecodeError as exc:
            raise WireError(f"a record whose text is not JSON: {exc}") from None
        if not isinstance(body, dict):
            raise WireError("a record whose text is not a JSON object")
        return cls(line.require_int("table"), body, line.get_int("deal"))


@attrs.frozen
class MatchEnd:
    """``event kind=match-end`` (§6.2, §9.7)."""

    seq: int
    table: int
    winner: int | None  # a side; None for a draw
    names: list[str]  # the winning side's names
    reason: str
    totals: list[int]
    seed: str | None
    forfeit: int | None  # the seat that lost by forfeit
    deals: int | None = None  # the deals played (None: a server from before ``deals=``)

    @classmethod
    def from_line(cls, line: Line) -> MatchEnd:
        return cls(
            seq=line.require_int("seq"),
            table=line.require_int("table"),
            winner=line.get_int("winner"),
            names=line.get_list("name"),
            reason=line.require("reason"),
            totals=line.get_ints("totals"),
            seed=line.get_str("seed"),
            forfeit=line.get_int("forfeit"),
            deals=line.get_int("deals"),
        )


def parse(line: str) -> Line | View | Record:
    """A ``View`` for ask/state, a ``Record`` for record, else the ``Line``."""
    parsed = parse_line(line)
    if parsed.tag in (Tag.ASK, Tag.STATE):
        return View.from_line(parsed)
    if parsed.tag == Tag.RECORD:
        return Record.from_line(parsed)
    return parsed
