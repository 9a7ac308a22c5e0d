"""store/base.py ``released``: a withheld record's seed filled in, byte for byte what
decoding the whole record and encoding it again with its seed gives; ``told``: the
record line's JSON from the store's row, byte for byte the record's own encoding."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deberc_net.game.match import Match
from deberc_net.plugins import RuleBook
from deberc_net.selfplay import play_random_match
from deberc_net.server.store.base import deal_text, released, told, withheld
from tests.properties import examples


def decoded_and_encoded(body: str, seeds: dict[int, str] | None) -> str:
    """The whole record decoded, its seed set, encoded again (as a finish once did)."""
    record = json.loads(body)
    return deal_text({**record, "seed": (seeds or {}).get(record["deal_no"])})


def record(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    return {**before, "seed": "secret", **after}


# look-alikes of the withheld seed where a fast search would find them first
TRAPS = [
    record({"deal_no": 2, "table": ',"seed":null,'}, {}),  # inside a string
    record({"notes": {"a": 1, "seed": None, "b": 2}, "deal_no": 2}, {}),  # a nested key
    record({"notes": [{"x": 0, "seed": None, "y": 0}], "deal_no": 2}, {}),  # in a list
    record({'a"': 1, "deal_no": 2, 'q\\",\\"seed': None}, {"z": 1}),  # a key's escapes
    record({"deal_no": 2}, {}),  # the seed last
    {"seed": "secret", "deal_no": 2, "x": 1},  # the seed first
    record({"x": 1}, {"deal_no": 2, "y": 1}),  # the deal number after it
    record({"format": "deberc-deal/1", "deal_no": 2}, {"players": ["Аня", '"seed":null,']}),
]


@pytest.mark.parametrize("deal", TRAPS)
@pytest.mark.parametrize("seeds", [None, {}, {2: "s/2"}, {2: 'ё"\\/2'}, {3: "other"}])
def test_a_released_record_is_what_decoding_and_encoding_it_gives(
    deal: dict[str, Any], seeds: dict[int, str] | None
) -> None:
    body = withheld(deal)
    assert released(body, seeds) == decoded_and_encoded(body, seeds)


def test_a_released_record_has_its_seed_where_it_was() -> None:
    deal = record({"format": "deberc-deal/1", "table": "3", "match": "m1", "deal_no": 2}, {})
    assert released(withheld(deal), {2: "s/2"}) == deal_text({**deal, "seed": "s/2"})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=',"seed:nul\\{}[]ё'),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet=',"seed:nul\\'), inner, max_size=3)
    ),
    max_leaves=8,
)
fields = st.dictionaries(
    st.text(alphabet=',"seed:nul\\_no').filter(lambda k: k not in ("seed", "deal_no")),
    json_values,
    max_size=4,
)


@examples(200)
@given(fields, fields, st.integers(1, 3), st.booleans(), st.text())
def test_any_record_is_released_as_decoding_and_encoding_it_gives(
    before: dict[str, Any], after: dict[str, Any], deal_no: int, no_first: bool, seed: str
) -> None:
    numbered = {"deal_no": deal_no, **before} if no_first else {**before, "deal_no": deal_no}
    body = withheld(record(numbered, after))
    seeds = {deal_no: seed}
    assert released(body, seeds) == decoded_and_encoded(body, seeds)


@pytest.mark.parametrize("deal", TRAPS)
@pytest.mark.parametrize("seed", [None, "s/2", 'ё"\\/2'])
def test_a_told_record_is_its_own_encoding(deal: dict[str, Any], seed: str | None) -> None:
    """A table encodes a deal's record once (``withheld``, its store row) and tells it
    with its seed, or without, as ``told`` gives: the bytes its own encoding gives."""
    told_record = {**deal, "seed": seed}
    assert told(withheld(deal), told_record) == deal_text(told_record)


def dumped(value: Any) -> str:
    """The record's JSON as the store and the record line have always written it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@examples(200)
@given(fields, fields)
def test_deal_text_is_json_dumps_to_the_byte(before: dict[str, Any], after: dict[str, Any]) -> None:
    value = {**before, "nested": [before, after, [after]], **after}
    assert deal_text(value) == dumped(value)


def test_real_records_are_encoded_as_json_dumps_encodes_them() -> None:
    """Records of played matches (their calls, tricks, deck, Cyrillic names, a void and
    a Tertz deal among them): one encoder, no circular check, the same text."""
    book = RuleBook.load()
    seen = 0
    for players, variant in ((2, "moscow"), (3, "kharkov"), (4, "moscow"), (2, "tertz")):
        rules = book.ruleset(players, variant, ())
        names = tuple(["Аня", 'Ёж "q"', "bot\\1", "Zoë"][:players])
        for game in range(1, 4):
            match = Match(rules, seed=f"text/{variant}/{game}", match_id=str(game), names=names)
            play_random_match(match, random.Random(game))
            for deal in match.records:
                assert deal_text(deal) == dumped(deal)
                assert withheld(deal) == dumped({**deal, "seed": None})
                seen += 1
    assert seen > 20
