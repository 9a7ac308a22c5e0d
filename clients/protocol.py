"""Parse the server's machine-style lines into typed events (no I/O)."""

from __future__ import annotations

import json
from typing import Any

import attrs


def fields_of(line: str) -> tuple[str, dict[str, str]]:
    """Split ``tag k=v k=v ... text=free text`` into the tag and its fields."""
    tag, _, rest = line.partition(" ")
    fields: dict[str, str] = {}
    text_at = rest.find("text=") if rest.startswith("text=") else rest.find(" text=")
    if text_at >= 0:
        start = text_at + (5 if rest.startswith("text=") else 6)
        fields["text"] = rest[start:]
        rest = rest[: max(text_at, 0)]
    for part in rest.split():
        key, _, value = part.partition("=")
        fields[key] = value
    return tag, fields


def _list(value: str) -> list[str]:
    return [] if value in ("", "-") else value.split(",")


def _int(value: str) -> int | None:
    return None if value in ("", "-") else int(value)


def _ints(value: str) -> list[int]:
    return [int(v) for v in _list(value)]


@attrs.frozen
class Event:
    """Any line but ``ask``/``state``/``record``: its tag and fields, typed on access
    (the fields of an ``event`` depend on its kind, and new ones may be appended)."""

    tag: str
    fields: dict[str, str]
    line: str

    @property
    def kind(self) -> str | None:
        return self.fields.get("kind")

    @property
    def seq(self) -> int | None:
        return self.get_int("seq")

    @property
    def table(self) -> int | None:
        return self.get_int("table")

    def get_int(self, key: str) -> int | None:
        """An integer field; None for ``-``, an empty value, or no such field."""
        return _int(self.fields.get(key, "-"))

    def get_ints(self, key: str) -> list[int]:
        return _ints(self.fields.get(key, ""))

    def get_list(self, key: str) -> list[str]:
        return _list(self.fields.get(key, ""))

    def get_str(self, key: str) -> str | None:
        """A text field; None for ``-`` or no such field ('' stays '')."""
        value = self.fields.get(key, "-")
        return None if value == "-" else value


@attrs.frozen
class View:
    """An ``ask`` or ``state`` line: everything the seat may see, typed."""

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
    players: int | None = None  # the number of seats (appended to the line later)

    @classmethod
    def parse(cls, tag: str, f: dict[str, str]) -> View:
        def opt(key: str) -> str | None:
            value = f.get(key, "-")
            return None if value in ("", "-") else value

        return cls(
            kind=tag, seq=int(f["seq"]), table=int(f["table"]), deal=int(f["deal"]),
            phase=f["phase"], seat=_int(f.get("seat", "-")), dealer=int(f["dealer"]),
            to_act=_int(f.get("to_act", "-")), hand=_list(f.get("hand", "")),
            turned=opt("turned"), fresa=opt("fresa"), trump=opt("trump"),
            player=_int(f.get("player", "-")), round=int(f.get("round", "1")),
            leader=int(f.get("leader", "0")), trick=_list(f.get("trick", "")),
            tricks=_ints(f.get("tricks", "")), score=_ints(f.get("score", "")),
            hanging=int(f.get("hanging", "0")), target=_int(f.get("target", "-")),
            pending=opt("pending"), shown=_list(f.get("shown", "")),
            talk=_list(f.get("talk", "")), clock_ms=_int(f.get("clock", "-")),
            legal=_list(f.get("legal", "")), raw=f, players=_int(f.get("players", "-")),
        )


@attrs.frozen
class Record:
    table: int
    record: dict[str, Any]
    deal: int | None = None


def parse(line: str) -> Event | View | Record:
    tag, f = fields_of(line)
    if tag in ("ask", "state"):
        return View.parse(tag, f)
    if tag == "record":
        return Record(int(f["table"]), json.loads(f["text"]), _int(f.get("deal", "-")))
    return Event(tag, f, line)
