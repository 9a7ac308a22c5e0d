"""The replay page's deals (server/web/replay.py), rebuilt from records alone and folded
from the events the rebuilt deals tell."""

from __future__ import annotations

import contextlib
import random

import pytest

from deberc_net.game.calls import MENYAYU, PLAY, from_record, play
from deberc_net.game.errors import IllegalCall
from deberc_net.game.match import Match
from deberc_net.game.record import replay_calls
from deberc_net.game.rules import RuleSet
from deberc_net.protocol.lang import spoken_call, table_words
from deberc_net.protocol.render import pretty_cards
from deberc_net.server.web.replay import replay_match
from deberc_net.testing import build_ruleset, rule_book


def _played_matches(count: int) -> list[Match]:
    rules = build_ruleset(2)
    matches = []
    for seed in range(count):
        match = Match(rules, seed=f"replay-{seed}")
        rng = random.Random(seed)
        while not match.over:
            seat = match.to_act
            assert seat is not None
            calls = match.legal_calls(seat)
            swaps = [c for c in calls if c.name == MENYAYU]  # swap whenever one may
            match.apply(seat, swaps[0] if swaps else rng.choice(calls))
        matches.append(match)
    return matches


def test_a_hand_is_shown_as_held_for_its_first_card_after_a_seven_swap() -> None:
    book = rule_book()
    swapped = 0
    for match in _played_matches(6):
        shown = replay_match(list(match.records), book)
        for record, deal in zip(match.records, shown.deals, strict=True):
            swapped += any(e["call"] == MENYAYU for e in record["calls"])
            if len(record["tricks"]) != 9:
                continue  # a void or claimed deal: not every card was played
            for seat, hand in enumerate(deal.hands):
                played = [c for t in deal.tricks for s, c in t.plays if s == seat]
                assert sorted(hand) == sorted(played), (record["deal_no"], seat)
    assert swapped  # the seeds above give swaps: the case this test is about


RULE_SETS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (3, "moscow", ()),
    (4, "moscow", ("pair-combinations", "show-combination")),
    (2, "moscow", ("table-penalties", "manual-claim")),
    (2, "tertz", ()),
)


def _match_with_penalties_and_forfeits(rules: RuleSet, game: int) -> Match:
    """Random calls; now and then an illegal card (a penalty under table-penalties);
    every third match left by seat 1 part way (the first of them with cards on the
    table)."""
    rng = random.Random(game)
    match = Match(rules, seed=f"replay-fold-{game}")
    leave_after = rng.randrange(10, 80) if game % 3 == 2 else None
    made = 0
    while not match.over:
        if leave_after is not None and made >= leave_after and (game > 2 or match.deal.trick.cards):
            match.forfeit(1, "left", seat=1)
            break
        seat = match.to_act
        assert seat is not None
        calls = match.legal_calls(seat)
        wrong = [play(c) for c in match.deal.hands[seat] if play(c) not in calls]
        if wrong and match.deal.phase == "play" and rng.random() < 0.1:
            with contextlib.suppress(IllegalCall):  # refused where not punished
                match.apply(seat, rng.choice(wrong))
        else:
            match.apply(seat, rng.choice(calls))
        made += 1
    return match


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=lambda r: f"{r[0]}/{r[1]}/{','.join(r[2])}")
def test_the_replay_folded_from_the_events_says_what_the_record_says(
    rule_set: tuple[int, str, tuple[str, ...]],
) -> None:
    rules = build_ruleset(*rule_set)
    words = table_words(rules.call_aliases)
    book = rule_book()
    penalties = forfeited = showed = 0
    for game in range(6):
        match = _match_with_penalties_and_forfeits(rules, game)
        shown = replay_match(list(match.records), book)
        for record, deal in zip(match.records, shown.deals, strict=True):
            # each call as spoken (docs/web.md), in the table's own words (Tertz's
            # 'mariage'), a punished one with its penalty in words
            said = [
                (e["seat"], spoken_call(from_record(e).token(), words))
                for e in record["calls"]
                if e["call"] != PLAY
            ]
            calls = [(seat, text) for seat, text in deal.talk if not text.startswith("shows ")]
            assert [(seat, text.split(" (penalty: ")[0]) for seat, text in calls] == said
            # the cards shown, as the deal showed them, each after its 'pokazyvayu'
            told = [(at, seat, text) for at, (seat, text) in enumerate(deal.talk)]
            shows = [(at, seat, text[6:]) for at, seat, text in told if text.startswith("shows ")]
            by_seat: dict[int, list[str]] = {}  # (a Tertz seat may show at two tricks)
            for _, seat, cards in shows:
                by_seat.setdefault(seat, []).append(cards)
            assert {seat: " ".join(cards) for seat, cards in by_seat.items()} == {
                seat: pretty_cards(cards)
                for seat, cards in replay_calls(record, rules).shown.items()
            }
            assert all(deal.talk[at - 1] == (seat, "pokazyvayu") for at, seat, _ in shows)
            showed += len(shows)
            penalties += sum("penalty" in e for e in record["calls"])
            tricks = [
                {"leader": t.leader, "cards": [c for _, c in t.plays], "winner": t.winner}
                for t in deal.tricks
            ]
            unfinished = record.get("unfinished_trick")  # a forfeit mid-trick: shown last
            forfeited += unfinished is not None
            assert tricks == [
                *record["tricks"],
                *([{**unfinished, "winner": None}] if unfinished else []),
            ]
            assert (deal.turned, deal.trump, deal.player) == (
                record["turned"],
                record["trump"],
                record["player"],
            )
            assert (deal.outcome, deal.written, deal.totals) == (
                record["outcome"],
                record["written"],
                record["totals"],
            )
    if "table-penalties" in rule_set[2]:
        assert penalties  # the case of a punished call is among them
    assert forfeited  # and a trick a forfeit left unfinished
    assert showed  # and cards shown


def test_a_tertz_replay_shows_the_break_and_each_tricks_draws_with_the_talon_left() -> None:
    """Each trick carries the cards drawn after it, winner first, and the talon left
    (docs/web.md); together they are the record's draws, and the break its N."""
    rules = build_ruleset(2, "tertz")
    book = rule_book()
    broken = 0
    for game in range(3):
        match = _match_with_penalties_and_forfeits(rules, game)
        shown = replay_match(list(match.records), book)
        for record, deal in zip(match.records, shown.deals, strict=True):
            assert deal.talon_broken == record["talon_broken"]
            assert deal.talon == 14  # 32 cards, 9 in each hand
            drawn = [[seat, c] for t in deal.tricks for seat, c in t.draws]
            assert drawn == record["draws"]
            talon = 14
            for trick in deal.tricks:
                if trick.draws:
                    assert trick.draws[0][0] == trick.winner  # the winner draws first
                    talon -= 2
                    assert trick.talon == talon
                else:
                    assert trick.talon is None
            broken += record["talon_broken"] is not None
    assert broken


def test_a_deberts_replay_has_no_talon_nor_draws() -> None:
    for match in _played_matches(1):
        for deal in replay_match(list(match.records), rule_book()).deals:
            assert (deal.talon, deal.talon_broken) == (None, None)
            assert all(t.draws == [] and t.talon is None for t in deal.tricks)
