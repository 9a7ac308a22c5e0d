"""A deal record's JSON text, byte for byte ``json.dumps(record, ensure_ascii=False,
separators=(",", ":"))``: by orjson (a seventh of the instructions) for a record the fold
checked (``CheckedRecord``), by ``json`` for any other.

orjson writes some values otherwise than ``json.dumps``: a float (``1e-05`` as
``0.00001``, NaN as ``null``), a plain ``Enum`` or a ``UUID`` (which ``json.dumps``
refuses). The fold (game/record.py) checks every value a plugin or a caller gives the
record where it enters it (``plain``), so a ``CheckedRecord`` holds only str, int, bool,
None, lists and dicts with str keys (and the engine's str and int enums). A float a
plugin gives is kept, and its record written by ``json`` as before; a value ``json.dumps``
cannot write is refused there, naming who gave it. docs/performance.md, forty-seventh
session."""

from __future__ import annotations

import json
from enum import Enum
from types import NoneType
from typing import Any

import orjson

# the types orjson writes as json.dumps does (an int beyond 64 bits or a lone surrogate
# it refuses: written by json then, below); a str or an int enum is added when first met
# if it is one (``_plain_enum``: the fold's outcome is the engine's ``Outcome``)
LEAVES: set[type] = {str, int, bool, NoneType}
_STR = frozenset({str})
# what json.dumps writes besides: a float, or a subclass (orjson may write it otherwise)
_SUBCLASSED = (str, int, float, list, tuple, dict)
_CONTAINERS = (list, tuple, dict)
# the keys json.dumps writes (an int, float, bool or None turned into a string, which
# orjson refuses)
_KEYS = (str, int, float, bool, NoneType)
HOLDS = "a deal record holds str, int, float, bool, None, lists and dicts with str keys"


class CheckedRecord(dict[str, Any]):
    """A record the fold checked: only str, int, bool, None, lists and dicts with str
    keys (``plain``), so orjson writes it as ``json.dumps`` does. Only the fold makes
    one, and nothing adds a value to a record after it (``reseeded`` copies one)."""

    __slots__ = ()


class RecordValueError(TypeError):
    """A plugin (or a caller) gave a record a value ``json.dumps`` cannot write."""


def plain(value: Any, where: str) -> bool:
    """Does ``value`` hold only what orjson writes as ``json.dumps`` does (``LEAVES``,
    lists, tuples, dicts with str keys)? False for what only ``json.dumps`` writes so
    (a float, a subclass, a key not a str): its record is written by json.
    ``RecordValueError`` naming ``where`` for what neither writes. (A call a value or a
    flat tuple of them: the fold checks a few a deal.)"""
    kind = type(value)
    if kind in LEAVES:
        return True
    if kind is list or kind is tuple:
        if {*map(type, value)} <= LEAVES:
            return True
        return all([plain(v, where) for v in value])  # (each checked: no short cut)
    if kind is dict:
        keys = {*map(type, value)} <= _STR or _keys(value, where)
        if {*map(type, value.values())} <= LEAVES:
            return keys
        return all([plain(v, where) for v in value.values()]) and keys
    if isinstance(value, _SUBCLASSED):
        if _plain_enum(kind):
            return True
        if isinstance(value, _CONTAINERS):  # a subclass: json.dumps writes it as one
            _walk(value.values() if isinstance(value, dict) else value, where)
        return False
    raise RecordValueError(f"{where}: {value!r} ({kind.__name__}): {HOLDS}")


def _plain_enum(kind: type) -> bool:
    """Is ``kind`` a str or int enum each of whose members is its value, as a
    ``StrEnum``'s or an ``IntEnum``'s is (orjson writes an enum's value, json.dumps the
    str or int it is: the same)? Remembered in ``LEAVES``."""
    if not issubclass(kind, Enum):
        return False
    base = str if issubclass(kind, str) else int
    members = kind.__members__.values()
    if all(m._value_ == m and type(m._value_) is base for m in members):
        LEAVES.add(kind)
        return True
    return False


def _keys(value: dict[Any, Any], where: str) -> bool:
    """False for keys json.dumps turns into strings; refused for any other."""
    for key in value:
        if not isinstance(key, _KEYS):
            raise RecordValueError(f"{where}: key {key!r} ({type(key).__name__}): {HOLDS}")
    return False


def _walk(values: Any, where: str) -> None:
    for v in values:
        plain(v, where)


# json.dumps(record, ensure_ascii=False, separators=(",", ":")) byte for byte, from one
# encoder (not one built per deal) that skips the check for circular containers (a dict
# insert and delete on each of a record's ~50 lists and dicts; a record is a tree, built
# by the engine's fold)
_RECORD_JSON = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), check_circular=False
).encode
# a dataclass or a datetime orjson would write; given to ``_refuse`` (json.dumps writes
# neither: never in a checked record)
_OPTIONS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
_dumps = orjson.dumps


def _refuse(value: object) -> object:
    raise TypeError(type(value).__name__)


def record_text(record: dict[str, Any]) -> str:
    """``json.dumps(record, ensure_ascii=False, separators=(",", ":"))``, byte for byte."""
    if type(record) is CheckedRecord:
        try:
            return _dumps(record, default=_refuse, option=_OPTIONS).decode()
        except TypeError:  # (orjson.JSONEncodeError) an int beyond 64 bits, a surrogate
            pass
    return _RECORD_JSON(record)


def reseeded(record: dict[str, Any], seed: str | None) -> dict[str, Any]:
    """A copy of ``record`` with its ``seed`` replaced, checked if ``record`` was."""
    if type(record) is CheckedRecord and (seed is None or type(seed) is str):
        copy: dict[str, Any] = CheckedRecord(record)
        copy["seed"] = seed
        return copy
    return {**record, "seed": seed}
