"""An audit of docs/records.md against the engine's records. Each promise a reader of
records may rely on, and (→) the tests that pin it: a module under tests/ and its tests,
"here" for this module's. "The sample" is every record of random matches, seeded, of
2, 3 and 4 players, with options and Tertz, played out or forfeited mid-deal.

Intro: one JSON object on one line per deal (played, void, claim)
    → test_selfplay_cli.py test_records_carry_every_required_key;
    → here: test_every_key_has_the_documented_type_in_every_record
Intro: keys only added within deberc-deal/1 (older records replay)
    → here: test_records_written_before_the_later_keys_still_replay
Intro: `selfplay --records FILE`
    → test_selfplay_cli.py test_records_carry_every_required_key;
    → here: test_selfplay_records_name_the_table_selfplay_and_the_game_number
Intro: the `record` line after each deal
    → server/test_secrecy.py; protocol/test_protocol_audit_table.py
Intro: `records export` (`--db`, `--config`), every deal in the order stored, not those of
matches still running
    → store/test_store.py test_records_leave_running_matches_out,
      test_one_matchs_records_in_deal_order_once_it_is_finished;
    → test_config_db.py (--config); server/test_persistence.py
Table: every key, its type; "only" keys absent otherwise; no key undocumented
    → here: test_every_key_has_the_documented_type_in_every_record,
      test_the_sample_holds_every_documented_key_and_kind_of_record
`format` "deberc-deal/1" → here: test_the_header_keys_say_what_the_table_says
`table`, `match`: `selfplay` and the game number in self-play
    → here: test_selfplay_records_name_the_table_selfplay_and_the_game_number
`deal_no` 1-based, void deals count → here: test_a_matchs_records_chain
`seed` "<match seed>/<deal_no>"; null while the match runs, filled in after; null for good
when a stopped server left it unfinished
    → here: test_the_header_keys_say_what_the_table_says;
    → server/test_secrecy.py; store/test_store.py
      test_a_running_matchs_deals_are_withheld_and_seedless,
      test_a_serving_open_ends_the_matches_an_earlier_run_left_running
`variant`, `options` sorted → here: test_the_header_keys_say_what_the_table_says
`rule_versions` every rule plugin's version; `unpackaged` in-process
    → here: test_the_header_keys_say_what_the_table_says;
    → plugins/test_plugins.py (unpackaged)
`players` by seat; seat (dealer + 1) mod n leads → here: test_the_deal_keys_agree
`deck` 32 cards → here: test_the_deal_keys_agree; test_dealing.py (the order dealt)
`calls`: names, their extra keys, `ms`, `auto`, `engine`, `penalty`
    → here: test_every_call_is_a_documented_call_with_its_documented_keys;
    → game/test_records.py test_record_with_skin_and_a_claim_replays (engine)
`trump` null when void; `player`; `first_trump` → here: test_the_deal_keys_agree
`turned`, `fresa`: null when void, with four players → here: test_the_deal_keys_agree
`tricks`: leader, cards in play order, winner → here: test_the_deal_keys_agree
`unfinished_trick`: only with cards on the table; the plays after the taken tricks
    → here: test_the_deal_keys_agree; game/test_forfeit_record.py
`declared`: per seat that spoke, its talk calls' tokens; pokazhi, skin, prokhodit? and
its answers, a punished call: no seat; `"calls": []` for a seat counted without speaking;
bella as its own entry, no `cards`
    → game/test_records.py test_record_of_the_table_talk_replays;
    → here: test_declared_lists_what_each_seat_said_in_the_talk_and_what_counts
`combo`: `terts to 10h`, `pyatdesyat to Ks`; Tertz `run of N to 9d` (3 to 8), `four Q`...
    → here: test_combo_names_a_sequence_by_its_kind_and_top_card
`scored` adds up, per side, to the combination part of `points`
    → here: test_scored_adds_up_to_the_combination_part_of_points
`points` combinations + cards + last trick; `penalty` deals
    → here: test_scored_adds_up_to_the_combination_part_of_points;
    → game/test_rules_audit*.py (penalty)
`written`, `hanging`, `totals_before`, `totals`, `hanging_before`, `bides_before`
    → here: test_a_matchs_records_chain
`hanging_pending_before` [] but under hanging-separate → here: test_a_matchs_records_chain
`outcome`: the documented words → here: test_every_key_has_the_documented_type_in_every_record
`void_reason` `all passed` / `sevens`, null otherwise → here: test_the_deal_keys_agree
`match_over` only on the last deal; reasons; `stakes` with stake-N; `forfeit`
    → here: test_a_matchs_records_chain; game/test_forfeit_winner.py
Tertz keys `talon_broken`, `draws`; player null, first_trump true, fresa null, split
    → here: test_a_tertz_record_is_as_described; tertz/test_rules.py
Tertz `deck` dealt 3, 3, 3 to each seat, the dealer's opponent first, then the turned card
    → here: test_a_tertz_deck_is_dealt_three_three_three_the_dealers_opponent_first,
      test_the_deal_keys_agree (the turned card)
§Calls `ms`: the milliseconds since the deal started: the server's stamp (server/table.py)
    → server/test_record_ms.py (a stored record's, on virtual time, to the millisecond;
      deal 2's from its own start); the engine takes `ms` as given (type, sign here)
Sides: per seat with 2 and 3, side 0 is seats 0 and 2 with 4 → here: test_a_matchs_records_chain
Forfeit: the deal as it stood, `written` zero, `match_over.forfeit`; replays
    → here: test_a_matchs_records_chain; game/test_forfeit_record.py
A match forfeited between deals has no record → server/test_forfeit_record.py
§Calls `"auto": true` / `"engine": true` (not fed back in a replay)
    → here: test_every_call_is_a_documented_call_with_its_documented_keys;
    → game/test_records.py test_record_with_skin_and_a_claim_replays
§Replaying replay_deal / replay_matches (timings aside; a Tertz record as a Tertz deal)
    → here: test_every_record_replays_and_a_changed_one_does_not;
    → game/test_records.py; game/test_record_fold.py
§Replaying a record written from the engine's events alone
    → game/test_record_fold.py
The page's references (docs/rules.md §2, §10, §11, §12, §12.5; docs/protocol.md §11.3, §14)
    → here: test_every_section_the_page_refers_to_is_there
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from deberc_net.cli import main
from deberc_net.game.calls import from_record
from deberc_net.game.cards import card_points, card_str, parse_card
from deberc_net.game.match import Match
from deberc_net.game.record import replay_calls, replay_deal, replay_matches
from deberc_net.game.rules import RuleSet
from deberc_net.testing import build_ruleset

from .random_matches import told_match

DOC = Path(__file__).resolve().parents[2] / "docs" / "records.md"
CARD = re.compile(r"^(7|8|9|10|J|Q|K|A)[shdc]$")

RULE_SETS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (2, "moscow", ()),
    (3, "moscow", ()),
    (4, "moscow", ()),
    (4, "moscow", ("pair-combinations", "show-combination")),
    (2, "moscow", ("table-penalties", "manual-claim")),
    (2, "moscow", ("dave",)),
    (3, "moscow", ("combos-need-trick",)),
    (2, "moscow", ("deberts", "poltinniki", "stake-5", "hanging-separate")),
    (3, "kharkov", ("swap-before-extra", "fresa-hidden")),
    (2, "tertz", ()),
)
Rules = tuple[int, str, tuple[str, ...]]
Sample = list[tuple[Rules, list[dict[str, Any]]]]
GAMES = 8  # matches per rule set, every other one forfeited


# ---------------------------------------------------------------------- the document
def doc_tables() -> dict[str, list[tuple[str, str, str]]]:
    """The key tables of docs/records.md: ``main`` and ``tertz``, each (key, type,
    meaning) a key, a cell naming two keys split as its type is."""
    tables: list[list[tuple[str, str, str]]] = []
    rows: list[tuple[str, str, str]] | None = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| key |"):
            rows = []
            tables.append(rows)
        elif rows is not None and line.startswith("|---"):
            continue
        elif rows is not None and line.startswith("| `"):
            keys_cell, type_cell, meaning = (c.strip() for c in line.strip("|").split(" | ", 2))
            keys = re.findall(r"`([a-z_]+)`", keys_cell)
            types = [type_cell] if len(keys) == 1 else split_top(type_cell)
            if len(types) == 1:
                types = types * len(keys)
            assert len(types) == len(keys), line
            rows += [(k, t, meaning) for k, t in zip(keys, types, strict=True)]
        else:
            rows = None
    assert len(tables) == 2, "the main table and Tertz's"
    return {"main": tables[0], "tertz": tables[1]}


def split_top(text: str) -> list[str]:
    """``string, [string]`` -> its parts at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "[{"
        depth -= ch in "]}"
        if ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return [*parts, text[start:].strip()]


Check = Callable[[Any], bool]


def checker(type_text: str) -> Check:
    """The documented type as a test of a JSON value: `string`, `int`, `bool`, `card`,
    `seat`, `object`, `{name: version}`, `[T]`, `[T, U]` (a pair), quoted literals
    joined by `/`, alternatives joined by ` or `."""
    plain = type_text.replace("`", "")
    alternatives = [checker_one(t.strip()) for t in plain.split(" or ")]
    return lambda v: any(check(v) for check in alternatives)


def checker_one(text: str) -> Check:
    simple: dict[str, Check] = {
        "null": lambda v: v is None,
        "string": lambda v: isinstance(v, str),
        "int": lambda v: type(v) is int,
        "seat": lambda v: type(v) is int and 0 <= v < 4,
        "bool": lambda v: type(v) is bool,
        "card": lambda v: isinstance(v, str) and CARD.match(v) is not None,
        "object": lambda v: isinstance(v, dict),
        "{name: version}": lambda v: (
            isinstance(v, dict)
            and all(isinstance(k, str) and isinstance(x, str) for k, x in v.items())
        ),
    }
    if text in simple:
        return simple[text]
    if text.startswith('"'):
        words = {w.strip('"') for w in text.split("/")}
        return lambda v: v in words
    assert text.startswith("[") and text.endswith("]"), f"a type the audit cannot read: {text}"
    inner = split_top(text[1:-1])
    if len(inner) == 1:
        each = checker(inner[0])
        return lambda v: isinstance(v, list) and all(each(x) for x in v)
    pair = [checker(t) for t in inner]
    return lambda v: (
        isinstance(v, list)
        and len(v) == len(pair)
        and all(c(x) for c, x in zip(pair, v, strict=True))
    )


def documented_outcomes() -> set[str]:
    """The words of `outcome`'s row, and the forfeit reasons the forfeit paragraph
    names as outcomes."""
    meaning = next(m for k, _, m in doc_tables()["main"] if k == "outcome")
    forfeits = re.search(r"lost by forfeit \(([^)]*)\)", DOC.read_text(encoding="utf-8"))
    assert forfeits is not None
    return {*re.findall(r"`([a-z-]+)`", meaning), *re.findall(r"`([a-z]+)`", forfeits[1])}


def documented_reasons() -> set[str]:
    meaning = next(m for k, _, m in doc_tables()["main"] if k == "match_over")
    return set(re.findall(r"`([a-z-]+)`", meaning.split("with reason", 1)[1].split(";")[0]))


def calls_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split("## Calls", 1)[1].split("##", 1)[0]


# ---------------------------------------------------------------------- the sample
@cache
def sample() -> Sample:
    """Every record of four matches per rule set, two of them forfeited mid-match."""
    out: Sample = []
    for rule_set in RULE_SETS:
        rules = build_ruleset(*rule_set)
        for game in range(GAMES):
            rng = random.Random(f"{rule_set}/{game}")
            forfeit_after = None if game % 2 == 0 else rng.randrange(10, 80)
            match, _ = told_match(rules, f"audit/{game}", rng, forfeit_after)
            out.append((rule_set, list(match.records)))
        out.append((rule_set, list(passing_match(rules, f"audit/{GAMES}").records)))
    return out


def passing_match(rules: RuleSet, seed: str) -> Match:
    """A match whose seats pass whenever they may, else play at random: void deals."""
    match, rng = Match(rules, seed=seed), random.Random(seed)
    while not match.over:
        seat = match.to_act
        assert seat is not None
        legal = match.legal_calls(seat)
        passes = [c for c in legal if c.name == "pas"]
        match.apply(seat, passes[0] if passes and len(match.records) < 6 else rng.choice(legal))
    return match


def records() -> Iterator[tuple[Rules, dict[str, Any]]]:
    for rule_set, match_records in sample():
        for record in match_records:
            yield rule_set, record


def sides(players: int) -> int:
    return 2 if players == 4 else players


# ---------------------------------------------------------------------- the table
def test_every_key_has_the_documented_type_in_every_record() -> None:
    tables = doc_tables()
    main_types = {k: checker(t) for k, t, _ in tables["main"]}
    tertz_types = {k: checker(t) for k, t, _ in tables["tertz"]}
    only = {k for k, _, m in tables["main"] if m.startswith("only")}
    outcomes = documented_outcomes()
    for (players, variant, options), record in records():
        types = main_types | (tertz_types if variant == "tertz" else {})
        where = f"{players}/{variant}/{options} deal {record['deal_no']}"
        assert record.keys() <= types.keys(), (where, record.keys() - types.keys())
        assert types.keys() - only <= record.keys(), (where, types.keys() - record.keys())
        wrong = {k: v for k, v in record.items() if not types[k](v)}
        assert wrong == {}, where
        assert record["outcome"] in outcomes, where
        json.dumps(record)  # plain JSON values
        assert "\n" not in json.dumps(record)  # one line


def test_the_type_check_can_fail() -> None:
    assert not checker("[int]")([1, "2"])
    assert not checker("string or null")(3)
    assert not checker("int")(True)
    assert not checker('"s"/"h"/"d"/"c" or null')("x")
    assert checker("[[seat, card]]")([[0, "10h"], [1, "7s"]])
    assert not checker("[[seat, card]]")([[0, "10h", 1]])


def test_the_sample_holds_every_documented_key_and_kind_of_record() -> None:
    """The sample is worth its checks: every key appears, the "only" ones included, and
    the ways a deal ends the random play reaches."""
    tables = doc_tables()
    seen = {k for _, r in records() for k in r}
    assert seen == {k for t in tables.values() for k, _, _ in t}
    reached = {r["outcome"] for _, r in records()}
    assert {"made", "bide", "void", "split", "left"} <= reached
    assert any(r.get("unfinished_trick") for _, r in records())


# ---------------------------------------------------------------------- the keys
def test_the_header_keys_say_what_the_table_says() -> None:
    for (players, variant, options), record in records():
        assert record["format"] == "deberc-deal/1"
        # "<match seed>/<deal_no>": the sample's match seeds are audit/<game>
        assert re.fullmatch(rf"audit/[0-9]+/{record['deal_no']}", record["seed"])
        assert record["variant"] == variant
        assert record["options"] == sorted(record["options"]) == sorted(options)
        # every rule plugin in play: the variant's and each option's, by its own name
        assert {variant, *options} <= record["rule_versions"].keys()
        # the shipped rules: the version of the distribution that publishes them
        assert set(record["rule_versions"].values()) == {metadata.version("deberc-net")}
        assert len(record["players"]) == players


def test_the_deal_keys_agree() -> None:
    for (players, variant, options), record in records():
        where = f"{players}/{variant}/{options} deal {record['deal_no']}"
        n, dealer = players, record["dealer"]
        assert 0 <= dealer < n
        assert len(record["deck"]) == 32 == len(set(record["deck"])), where
        void = record["outcome"] == "void"
        assert (record["void_reason"] is not None) == void, where
        assert record["void_reason"] in (None, "all passed", "sevens")
        if void:
            assert record["trump"] is None and record["fresa"] is None, where
        if players == 4:
            assert record["fresa"] is None, where
        elif record["tricks"] and variant != "tertz":  # the last cards were dealt
            assert record["fresa"] is not None, where  # under fresa-hidden too
        # the turned card as dealt: after 6 cards a seat (Tertz: 3, 3, 3 a seat)
        assert record["turned"] == record["deck"][(9 if variant == "tertz" else 6) * n], where
        if record["trump"] is not None and variant != "tertz":
            turned_suit = record["turned"][-1] == record["trump"]
            assert record["first_trump"] == turned_suit, where
        if record["player"] is not None:
            assert 0 <= record["player"] < n
        leader = (dealer + 1) % n
        for trick in record["tricks"]:
            assert trick["leader"] == leader, where  # the first trick's: (dealer + 1) mod n
            assert len(trick["cards"]) == n and 0 <= trick["winner"] < n
            leader = trick["winner"]
        plays = [c["card"] for c in record["calls"] if c["call"] == "play" and "penalty" not in c]
        taken = [card for trick in record["tricks"] for card in trick["cards"]]
        assert plays[: len(taken)] == taken, where  # in play order
        unfinished = record.get("unfinished_trick")
        if unfinished is None:
            assert plays == taken, where
        else:
            assert unfinished["cards"] == plays[len(taken) :] != [], where
            assert unfinished["leader"] == leader, where


def test_a_matchs_records_chain() -> None:
    reasons = documented_reasons()
    for (players, variant, options), match_records in sample():
        where = f"{players}/{variant}/{options}"
        assert [r["deal_no"] for r in match_records] == list(range(1, len(match_records) + 1))
        first = match_records[0]
        assert first["totals_before"] == [0] * sides(players)
        for record in match_records:
            for key in ("points", "written", "totals_before", "totals"):
                assert len(record[key]) == sides(players), (where, key)
            assert record["bides_before"] == [] or len(record["bides_before"]) == sides(players)
            if "hanging-separate" not in options:
                assert record["hanging_pending_before"] == [], where
            if record["outcome"] in ("left", "timeouts", "away"):
                assert record["written"] == [0] * sides(players)
                assert record["match_over"]["forfeit"] in range(players)
        for before, after in itertools.pairwise(match_records):
            assert "match_over" not in before, where  # only on the last deal
            assert after["totals_before"] == before["totals"], where
            assert after["hanging_before"] == before["hanging"], where
        last = match_records[-1]
        over = last["match_over"]
        assert over["reason"] in reasons | {"left"}, (where, over)
        assert over["winner"] is None or over["winner"] in range(sides(players))
        assert ("stakes" in over) == any(o.startswith("stake-") for o in options), where
        if "stakes" not in over and variant != "tertz" and over["reason"] != "left":
            written = [sum(r["written"][s] for r in match_records) for s in range(sides(players))]
            assert last["totals"] == written, where


def test_scored_adds_up_to_the_combination_part_of_points() -> None:
    """`points` are combinations + cards + last trick; per side `scored` adds up to the
    combination part (a seat's side: its seat with 2 and 3 players, seat mod 2 with 4)."""
    checked = 0
    for (players, variant, _), record in records():
        if record["outcome"] not in ("made", "bide", "hanging", "claim") or variant == "tertz":
            continue
        trump = "shdc".index(record["trump"])
        n = sides(players)
        combos = [0] * n
        for entry in record["declared"]:
            combos[entry["seat"] % n] += sum(s["points"] for s in entry["scored"])
        cards = [0] * n
        for trick in record["tricks"]:
            cards[trick["winner"] % n] += sum(
                card_points(parse_card(c), trump) for c in trick["cards"]
            )
        if record["outcome"] == "claim":
            continue  # a claim stops the deal where the target was reached
        cards[record["tricks"][-1]["winner"] % n] += 10  # the last trick
        assert record["points"] == [c + x for c, x in zip(cards, combos, strict=True)], record
        checked += 1
    assert checked > 50


def test_a_tertz_record_is_as_described() -> None:
    drawn = 0
    for (_, variant, _), record in records():
        if variant != "tertz":
            continue
        assert record["player"] is None and record["first_trump"] is True
        assert record["fresa"] is None
        if record["outcome"] not in ("left",):
            assert record["outcome"] == "split"
        breaks = [c["call"] for c in record["calls"] if c["call"].startswith("lomayu-")]
        assert record["talon_broken"] == (int(breaks[0].split("-")[1]) if breaks else None)
        draws = record["draws"]
        if len(draws) == 32 - 9 * 2:  # the talon drawn to its end: the turned card last
            assert draws[-1][1] in (record["turned"], f"7{record['trump']}")
            drawn += 1
    assert drawn


# ---------------------------------------------------------------------- calls
def test_every_call_is_a_documented_call_with_its_documented_keys() -> None:
    text = calls_section()
    names = set(re.findall(r"`([a-z?]+(?:-[a-z?0-9]+)*)`", text))
    extra = set(re.findall(r'`"([a-z]+)"', text)) | {"card", "penalty", "auto", "engine"}
    for (players, variant, options), record in records():
        for call in record["calls"]:
            name = call["call"]
            known = name in names or re.fullmatch(r"lomayu-\d+|sto-[a-z]+", name)
            assert known, (players, variant, options, name)
            assert call.keys() - {"seat", "call", "ms"} <= extra, call
            assert type(call["ms"]) is int and call["ms"] >= 0
            assert call.get("auto", True) is True and call.get("engine", True) is True
            if name == "play":
                assert CARD.match(call["card"])


# ---------------------------------------------------------------------- replaying
def test_every_record_replays_and_a_changed_one_does_not() -> None:
    for (players, variant, options), record in records():
        rules = build_ruleset(players, variant, options)
        assert replay_matches(record, rules), record
        if variant == "tertz":
            assert type(replay_deal(record, rules)).__name__ == "TertzDeal"
        bad = copy.deepcopy(record)
        bad["totals"] = [t + 1 for t in record["totals"]]
        bad["written"] = [w + 1 for w in record["written"]]
        assert not replay_matches(bad, rules)


def test_records_written_before_the_later_keys_still_replay() -> None:
    """Without `unfinished_trick` (added December 2026) and `hanging_pending_before`."""
    old = 0
    for (players, variant, options), record in records():
        rules = build_ruleset(players, variant, options)
        older = {k: v for k, v in record.items() if k not in ("unfinished_trick",)}
        if "hanging_pending_before" in older and not older["hanging_pending_before"]:
            del older["hanging_pending_before"]
        old += "unfinished_trick" in record
        assert replay_matches(older, rules)
    assert old


def test_selfplay_records_name_the_table_selfplay_and_the_game_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.jsonl"
    assert main(["selfplay", "--games", "2", "--seed", "s", "--records", str(path)]) == 0
    capsys.readouterr()
    lines = path.read_text(encoding="utf-8").splitlines()
    written = [json.loads(line) for line in lines]
    assert {r["table"] for r in written} == {"selfplay"}
    assert sorted({r["match"] for r in written}) == ["1", "2"]


# ---------------------------------------------------------------------- declared
NEVER_DECLARED = {"pokazhi", "skin", "prokhodit?", "prokhodit", "ne-prokhodit", "pokazyvayu"}
BELLA_ENTRY = {"calls": ["bella"], "scored": [{"combo": "bella", "points": 20}]}


def test_declared_lists_what_each_seat_said_in_the_talk_and_what_counts() -> None:
    """Per seat that spoke: its talk calls' tokens, in order; a seat whose sequences count
    without its speaking has `"calls": []`; bella its own entry without `cards`;
    pokazhi, skin, prokhodit? and its answers and a punished call list no seat."""
    checked = 0
    for (players, variant, options), record in records():
        rules = build_ruleset(players, variant, options)
        talk = replay_deal(record, rules).talk_calls
        said: dict[int, list[str]] = {}
        for call in record["calls"]:
            if call["call"] in talk and "penalty" not in call:
                said.setdefault(call["seat"], []).append(from_record(call).token())
        spoken = [e for e in record["declared"] if {k: e[k] for k in BELLA_ENTRY} != BELLA_ENTRY]
        bella = [e for e in record["declared"] if e not in spoken]
        assert len(bella) <= 1
        seats = [e["seat"] for e in spoken]
        assert seats == sorted(set(seats)), record["declared"]  # one entry a seat, in order
        for entry in spoken:
            assert entry["calls"] == said.get(entry["seat"], []), record["declared"]
            assert not NEVER_DECLARED & set(entry["calls"])
            if not entry["calls"]:  # counted without speaking
                assert entry["scored"], entry
        assert {e["seat"] for e in spoken} >= said.keys()
        checked += bool(said)
    assert checked > 20


def test_combo_names_a_sequence_by_its_kind_and_top_card() -> None:
    card = r"(?:7|8|9|10|J|Q|K|A)[shdc]"
    seen: set[str] = set()
    for (_, variant, _), record in records():
        for entry in record["declared"]:
            for scored in entry["scored"]:
                combo = scored["combo"]
                if combo == "bella":
                    assert "cards" not in scored
                    continue
                top = combo.rsplit(" ", 1)[1]
                if variant == "tertz":
                    m = re.fullmatch(rf"run of ([3-8]) to ({card})|four (Q|K|A|J)", combo)
                    assert m, combo
                    size = int(m[1]) if m[1] else 4
                    kind = "run" if m[1] else "four"
                else:
                    m = re.fullmatch(rf"(terts|pyatdesyat) to ({card})", combo)
                    assert m, combo
                    size, kind = (3 if m[1] == "terts" else 4), m[1]
                    assert len(scored["cards"]) >= size
                    size = len(scored["cards"])
                assert len(scored["cards"]) == size, scored
                if kind != "four":
                    assert top in scored["cards"], scored
                seen.add(kind)
    assert seen >= {"terts", "run"}


def test_a_tertz_deck_is_dealt_three_three_three_the_dealers_opponent_first() -> None:
    for (players, variant, options), record in records():
        if variant != "tertz":
            continue
        bare = {**record, "calls": []}
        deal = replay_calls(bare, build_ruleset(players, variant, options))
        deck, dealer = record["deck"], record["dealer"]
        first, second = (dealer + 1) % 2, dealer
        packets = [deck[i : i + 3] for i in range(0, 18, 3)]
        by_seat = {first: packets[0::2], second: packets[1::2]}
        for seat, got in by_seat.items():
            assert sorted(card_str(c) for c in deal.hands[seat]) == sorted(
                c for packet in got for c in packet
            )


def test_every_section_the_page_refers_to_is_there() -> None:
    """`docs/rules.md §12.5`, `docs/protocol.md §14`, ...: each names a heading there."""
    refs = set(re.findall(r"docs/(\w+\.md)[^§\n]{0,3}§(\d+(?:\.\d+)*)", DOC.read_text("utf-8")))
    assert len(refs) >= 6
    missing = [
        f"{page} §{number}"
        for page, number in sorted(refs)
        if not re.search(
            rf"^#+ {re.escape(number)}\.? ", (DOC.parent / page).read_text("utf-8"), re.M
        )
    ]
    assert missing == []
