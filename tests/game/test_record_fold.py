"""Records and the score sheet are folds over the events the engine tells (issue #8):
folding what ``Match.apply`` / ``forfeit`` return, in the order they are told, gives
each deal's ``deberc-deal/1`` record and the sheet's rows; a replay folds the events of
the deal it rebuilds."""

from __future__ import annotations

import json
import random

import pytest

from deberc_net.game import events as g
from deberc_net.game.match import Match
from deberc_net.game.record import RecordFold, RecordHead, replay_deal, unveil
from deberc_net.game.sheet import ScoreSheet
from deberc_net.testing import build_ruleset

from .random_matches import told_match

RULE_SETS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (2, "moscow", ()),
    (3, "moscow", ()),
    (4, "moscow", ("pair-combinations", "show-combination")),
    (2, "moscow", ("table-penalties", "manual-claim")),
    (2, "moscow", ("dave",)),
    (2, "moscow", ("deberts", "poltinniki", "stake-5", "hanging-separate")),
    (3, "kharkov", ("swap-before-extra", "fresa-hidden")),
    (2, "tertz", ()),
)
ID = [f"{p}/{v}/{','.join(o)}" for p, v, o in RULE_SETS]


def head_of(match: Match) -> RecordHead:
    return RecordHead(
        match.table, match.match_id, match.seed, match.rules.record_fields(), match.names
    )


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=ID)
def test_folding_the_told_events_gives_every_record(
    rule_set: tuple[int, str, tuple[str, ...]],
) -> None:
    rules = build_ruleset(*rule_set)
    for game in range(4):
        rng = random.Random(game)
        forfeit_after = None if game % 2 == 0 else rng.randrange(10, 60)
        match, told = told_match(rules, f"fold/{game}", rng, forfeit_after)
        # fed one event at a time, as a table tells them (not Deal.history's order)
        folded: list[dict[str, object]] = []
        fold = RecordFold(match.deal.talk_calls)
        for event in told:
            if isinstance(event, g.DealStarted):
                fold = RecordFold(match.deal.talk_calls)
            fold.feed(event)
            if isinstance(event, g.DealEnded | g.DealAbandoned):
                folded.append(fold.record(head_of(match)))
        assert folded, "every match has a deal"
        assert [json.dumps(r) for r in folded] == [json.dumps(r) for r in match.records]


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=ID)
def test_a_replay_folds_the_events_of_the_deal_it_rebuilds(
    rule_set: tuple[int, str, tuple[str, ...]],
) -> None:
    rules = build_ruleset(*rule_set)
    for forfeit_after in (None, 25):
        match, _ = told_match(rules, "fold/replay", random.Random(7), forfeit_after)
        for record in match.records:
            rebuilt = replay_deal(record, rules)
            # the rebuilt deal tells again what the match told, timings and clock included
            fold = RecordFold(rebuilt.talk_calls).feed_all([rebuilt.started(), *rebuilt.history])
            body = fold.unveil(unveil(rebuilt)).body()
            assert body == {key: record[key] for key in body}


def test_a_changed_event_changes_the_record() -> None:
    """The record is made of the events: a trick told with another winner is recorded so."""
    rules = build_ruleset(2)
    match, told = told_match(rules, "fold/changed", random.Random(3), None)
    first = next(i for i, e in enumerate(told) if isinstance(e, g.TrickTaken))
    trick = told[first]
    assert isinstance(trick, g.TrickTaken)
    told[first] = g.TrickTaken(1 - trick.winner, trick.cards)
    fold = RecordFold(match.deal.talk_calls).feed_all(
        told[: next(i for i, e in enumerate(told) if isinstance(e, g.DealEnded)) + 1]
    )
    record = fold.record(head_of(match))
    assert record["tricks"][0]["winner"] == 1 - trick.winner
    assert record["tricks"][1:] == match.records[0]["tricks"][1:]


@pytest.mark.parametrize("forfeit_after", [None, 30])
def test_the_score_sheet_is_a_fold_over_the_deal_ends(forfeit_after: int | None) -> None:
    rules = build_ruleset(2, options=["stake-5"])
    match, told = told_match(rules, "fold/sheet", random.Random(5), forfeit_after)
    sheet = ScoreSheet()
    for event in told:
        sheet.feed(event)
    records = list(match.records)
    assert [row.deal for row in sheet.rows] == [r["deal_no"] for r in records]
    for i, (row, record) in enumerate(zip(sheet.rows, records, strict=True)):
        assert row.outcome == record["outcome"]
        assert list(row.written) == record["written"]
        assert list(row.totals) == record["totals"]
        assert row.hanging == record["hanging"]
        if i + 1 < len(records):  # a deal's bides after are the next one's before
            assert list(row.bides) == records[i + 1]["bides_before"]
    assert list(sheet.rows[-1].bides) == match.bides
