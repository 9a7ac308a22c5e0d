"""A deal record's JSON text (game/record_json.py) is ``json.dumps(record,
ensure_ascii=False, separators=(",", ":"))`` byte for byte, whether orjson writes it (a
record the fold checked) or json (a plugin's float in it); a value json.dumps cannot
write is refused where it enters the record, naming who gave it (docs/plugins.md,
"What a record may hold")."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import enum
import json
import uuid
from fractions import Fraction
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deberc_net.game.deal import Deal
from deberc_net.game.outcomes import MatchEndReason, Outcome
from deberc_net.game.record_json import (
    CheckedRecord,
    RecordValueError,
    plain,
    record_text,
    reseeded,
)
from deberc_net.plugins import DealScore, RuleBook, RuleInfo, hookimpl
from deberc_net.selfplay import selfplay
from deberc_net.server.store.base import deal_text, withheld
from deberc_net.testing import build_ruleset


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Level(enum.IntEnum):
    LOW = 3


class Colour(enum.Enum):  # json.dumps refuses a plain enum (orjson writes its value)
    RED = "red"


@dataclasses.dataclass
class Point:
    x: int


# what json.dumps writes: every kind of leaf orjson might write otherwise
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),  # beyond 64 bits too: orjson refuses those (json writes the record)
    st.floats(),  # NaN, infinities, 1e-05, 1e+16: orjson writes some otherwise
    st.text(),
    st.sampled_from(["\ud800", "a\udfffb", '"\\\b\f\n\r\t\x00\x1b\x7f\u2028\u2029é\u0430']),
    st.sampled_from([Outcome.MADE, Outcome.GAVE_UP, MatchEndReason.TARGET, Level.LOW]),
)
KEYS = st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.none(), st.booleans())
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.tuples(inner, inner),
        st.dictionaries(KEYS, inner, max_size=5),
    ),
    max_leaves=30,
)
# what json.dumps refuses
REFUSED = st.sampled_from(
    [{1, 2}, Colour.RED, uuid.UUID(int=7), datetime.date(2026, 12, 7), Point(1), object()]
)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(VALUES)
def test_a_records_text_is_json_dumps_byte_for_byte(value: Any) -> None:
    """A record holding the value, checked as the fold checks a plugin's: written by
    orjson if the check passes (and then orjson alone writes the same bytes, unless it
    refuses), by json otherwise; the same bytes either way, its copy with a seed too."""
    record = {"format": "deberc-deal/1", "seed": None, "extra": value, "totals": [1, 2]}
    expected = dumps(record)
    checked = plain(record, "test")
    given = CheckedRecord(record) if checked else record
    assert record_text(given) == deal_text(given) == expected
    assert record_text(reseeded(given, "m/1")) == dumps({**record, "seed": "m/1"})
    assert withheld(reseeded(given, "m/1")) == expected
    if checked:
        with contextlib.suppress(orjson.JSONEncodeError):  # beyond 64 bits, a surrogate
            assert orjson.dumps(record).decode() == expected


@given(VALUES, REFUSED)
def test_a_value_json_dumps_refuses_is_refused_by_the_check(value: Any, bad: Any) -> None:
    record = {"extra": [value, {"deep": bad}]}
    with pytest.raises(TypeError):
        dumps(record)
    with pytest.raises(
        RecordValueError, match=f"^record_extra\\(\\): .*\\({type(bad).__name__}\\)"
    ):
        plain(record, "record_extra()")


def test_a_key_json_dumps_refuses_is_refused_and_one_it_turns_into_text_is_written_by_json() -> (
    None
):
    with pytest.raises(RecordValueError, match=r"key \(1, 2\) \(tuple\)"):
        plain({(1, 2): 1}, "x")
    record = {"a": {1: "one", None: 2, 2.5: 3, Outcome.MADE: 4}}
    assert plain(record, "x") is False
    assert record_text(record) == '{"a":{"1":"one","null":2,"2.5":3,"made":4}}'


# Every variant and option, the example plugins' among them (make test installs them)
RULE_SETS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (2, "moscow", ()),
    (3, "moscow", ()),
    (4, "moscow", ()),
    (2, "moscow", ("posled-20", "perezdacha")),
    (3, "kharkov", ("perezdacha",)),
    (4, "moscow", ("posled-20", "table-penalties", "manual-claim")),
    (2, "moscow", ("manual-claim", "table-penalties", "bella-after-trick")),
    (2, "moscow", ("dave", "to-9-stakes", "dave-geometric")),
    (2, "moscow", ("short",)),
    (3, "moscow", ("short-bide",)),
    (3, "kharkov", ("sequence-by-strength", "swap-before-extra")),
    (4, "moscow", ("pair-combinations", "partner-exemption", "show-combination")),
    (4, "kharkov", ("combos-need-trick", "deberts", "stake-10")),
    (2, "moscow", ("deberts", "poltinniki", "stake-5", "hanging-separate")),
    (3, "moscow", ("commitment", "player-leads", "fresa-hidden", "bide-to-leader")),
    (2, "moscow", ("to-301", "seven-swap-off", "dealer-clockwise", "bide-penalty")),
    (3, "moscow", ("ski-penalty", "to-1001", "table-penalties")),
    (2, "tertz", ()),
    (2, "tertz", ("tertz-501", "tertz-swap-until-two")),
    (2, "kharkov", ("to-1002", "combos-need-trick", "manual-claim", "posled-20")),
)


@pytest.fixture(scope="module")
def book() -> RuleBook:
    return RuleBook.load()


@pytest.mark.parametrize(
    "rule_set", RULE_SETS, ids=[f"{p}/{v}/{','.join(o)}" for p, v, o in RULE_SETS]
)
def test_self_played_records_are_checked_and_written_as_json_dumps_writes_them(
    book: RuleBook, rule_set: tuple[int, str, tuple[str, ...]]
) -> None:
    players, variant, options = rule_set
    rules = book.ruleset(players, variant, options)
    deals = 0
    for match in selfplay(rules, 3, f"record-json/{variant}"):
        for record in match.records:
            assert type(record) is CheckedRecord  # so orjson writes it
            assert deal_text(record) == dumps(record)
            assert withheld(record) == dumps({**record, "seed": None})
            deals += 1
    assert deals >= 3


class TinyWritten:
    """A third party's scoring that writes a float where a side wrote nothing."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="tiny-written", kind="option", summary="A nothing is 1e-05.")

    @hookimpl
    def deberc_adjust_written(self, score: DealScore) -> None:
        written: list[Any] = [w or 1e-05 for w in score.written]  # (typed int: untyped code)
        score.written = written


def holds_float(text: str) -> bool:
    floats: list[str] = []
    json.loads(text, parse_float=floats.append)
    return bool(floats)


def test_a_plugins_float_keeps_its_record_written_by_json_as_before() -> None:
    """orjson would write ``1e-05`` as ``0.00001``: the record is not checked, and json
    writes it, as it did before orjson."""
    rules = build_ruleset(2, options=("tiny-written",), plugins=[TinyWritten()])
    texts = []
    for match in selfplay(rules, 2, "tiny"):
        for record in match.records:
            assert (type(record) is CheckedRecord) is not holds_float(dumps(record))
            texts.append(deal_text(record))
            assert texts[-1] == dumps(record)
    assert any("1e-05" in text for text in texts)


class SetDeal(Deal):
    def record_extra(self) -> dict[str, Any]:
        return {"kept": {"7s", "8s"}}


class SetGame:
    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="set-game", kind="variant", summary="a game", players=(2,))

    @hookimpl
    def deberc_deal_class(self, settings: object) -> object:
        return SetDeal


def test_a_plugins_value_json_cannot_write_is_refused_naming_its_hook_and_rules() -> None:
    rules = build_ruleset(2, "set-game", plugins=[SetGame()])
    match = next(selfplay(rules, 1, "sets"))
    with pytest.raises(
        RecordValueError,
        match=r"^the deal's record_extra\(\): \{'.s', '.s'\} \(set\): a deal record holds"
        r" str, int, float, bool, None, lists and dicts with str keys"
        r" \(variant 'set-game', options \[\]\)$",
    ):
        match.records[0]


class FractionWritten:
    """A third party's scoring that writes a value json.dumps cannot write."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="fraction-written", kind="option", summary="Halves, exactly.")

    @hookimpl
    def deberc_adjust_written(self, score: DealScore) -> None:
        written: list[Any] = [Fraction(w, 2) for w in score.written]  # (typed int)
        score.written = written


def test_a_scoring_hooks_value_json_cannot_write_is_refused_naming_the_hooks() -> None:
    rules = build_ruleset(2, options=("fraction-written",), plugins=[FractionWritten()])
    match = next(selfplay(rules, 1, "fractions"))
    with pytest.raises(
        RecordValueError,
        match=r"^the deal's end \(its outcome, points, written, hanging and notes: the scoring"
        r" hooks deberc_deal_points, deberc_deal_outcome, deberc_adjust_written\) or the"
        r" totals: Fraction\(.*\) \(Fraction\): a deal record holds .* \(variant 'moscow',"
        r" options \['fraction-written'\]\)$",
    ):
        match.records[0]
