"""A forfeit mid-trick records the trick being laid (docs/records.md unfinished_trick),
and the record replays to the same body (tryout #7); a deal ended between tricks has
no such key."""

from __future__ import annotations

import pytest

from deberc_net.game.calls import PLAY, parse_token
from deberc_net.game.cards import card_str
from deberc_net.game.deal import DONE
from deberc_net.game.match import Match
from deberc_net.game.record import replay_deal, replay_matches
from deberc_net.testing import build_ruleset


@pytest.mark.parametrize(("players", "cards"), [(2, 1), (2, 2), (2, 3), (3, 2), (4, 3), (4, 5)])
def test_a_forfeit_records_every_card_played_and_replays(players: int, cards: int) -> None:
    rules = build_ruleset(players)
    match = Match(rules, seed=f"forfeit-{players}-{cards}", dealer=0)
    played: list[str] = []
    while len(played) < cards:
        seat = match.to_act
        assert seat is not None
        legal = match.legal_calls(seat)
        plays = [c for c in legal if c.name == PLAY]
        ordered = [c for c in legal if c.name == "igrayu"]
        call = plays[0] if plays else ordered[0] if ordered else legal[0]
        match.apply(seat, call)
        if plays:
            played.append(call.token())
    leaver = match.to_act
    assert leaver is not None
    side = next(i for i, s in enumerate(rules.settings.sides()) if leaver in s)
    match.forfeit(side, "left", seat=leaver)
    [record] = match.records
    # who lost it: with three or four players the winner does not say (docs/records.md)
    assert record["match_over"] == {"winner": record["match_over"]["winner"], "reason": "left",
                                    "forfeit": leaver}  # fmt: skip
    taken = [c for trick in record["tricks"] for c in trick["cards"]]
    unfinished = record.get("unfinished_trick")
    assert taken + (unfinished["cards"] if unfinished else []) == played
    assert (unfinished is None) == (cards % players == 0)
    assert replay_matches(record, rules)
    assert replay_deal(record, rules).phase == DONE  # ended by the forfeit, as recorded


def _step(match: Match) -> None:
    """The seat to act plays its first card, else orders the game, else says the first
    call offered."""
    seat = match.to_act
    assert seat is not None
    legal = match.legal_calls(seat)
    plays = [c for c in legal if c.name == PLAY]
    ordered = [c for c in legal if c.name == "igrayu"]
    match.apply(seat, plays[0] if plays else ordered[0] if ordered else legal[0])


def _up_to_the_first_card(match: Match) -> None:
    """Order the first game offered and play up to the deal's first card, led."""
    while not match.deal.trick.cards:
        _step(match)


def test_a_forfeit_record_written_before_unfinished_trick_still_replays() -> None:
    """docs/records.md: keys are only added; a record stored before ``unfinished_trick``
    was (the trick's cards in ``calls`` only) still matches its replay."""
    rules = build_ruleset(2)
    match = Match(rules, seed="older-record", dealer=0)
    _up_to_the_first_card(match)
    leaver = match.to_act
    assert leaver is not None
    match.forfeit(leaver, "left", seat=leaver)
    [record] = match.records
    older = {k: v for k, v in record.items() if k != "unfinished_trick"}
    assert record["unfinished_trick"]["cards"] and not older["tricks"]
    assert replay_matches(older, rules)
    # the rest is still checked: a record that says otherwise is not its replay
    assert not replay_matches({**older, "tricks": [{"leader": 0, "cards": [], "winner": 0}]}, rules)


def test_a_penalty_mid_trick_records_the_trick_left_on_the_table() -> None:
    """Under table-penalties a card not allowed is a bide on cards: the deal ends with
    the led card on the table, recorded as unfinished_trick (docs/records.md)."""
    rules = build_ruleset(2, options=["table-penalties"])
    match = Match(rules, seed="penalty-mid-trick", dealer=0)
    _up_to_the_first_card(match)
    [(leader, led)] = match.deal.trick.cards
    seat = match.to_act
    assert seat is not None
    allowed = {c.token() for c in match.legal_calls(seat)}
    wrong = next(c for c in match.deal.hands[seat] if card_str(c) not in allowed)
    match.apply(seat, parse_token(card_str(wrong)))
    [record] = match.records
    assert record["outcome"] == "penalty"
    assert record["unfinished_trick"] == {"leader": leader, "cards": [card_str(led)]}
    assert replay_matches(record, rules)


def test_a_match_over_says_forfeit_only_when_a_seat_forfeited() -> None:
    """``match_over.forfeit`` is appended on a forfeit only: a match won at the table,
    or forfeited by no seat in particular, is recorded as before (self-play records
    for a fixed seed stay the same bytes: tests/game/test_selfplay_digests.py)."""
    rules = build_ruleset(3)
    won = Match(rules, seed="won-at-the-table", dealer=0)
    while not won.over:  # every game ordered, every first card played: it ends
        _step(won)
    assert "forfeit" not in won.records[-1]["match_over"]
    nobody = Match(rules, seed="no-seat", dealer=0)
    _up_to_the_first_card(nobody)
    nobody.forfeit(1, "left")
    assert nobody.records[-1]["match_over"] == {"winner": 0, "reason": "left"}
