"""Tertz, rule by rule, on stacked decks (docs/rules.md, Tertz)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deberc_net.game import calls as C
from deberc_net.game import errors as E
from deberc_net.game.cards import card_str, parse_card
from deberc_net.game.deal import DONE, PLAY
from deberc_net.game.view import view
from deberc_net.plugins import RuleInfo, hookimpl
from deberc_net.plugins.manager import RuleError
from deberc_net.plugins.variants.tertz import plugin
from deberc_net.plugins.variants.tertz.cards import DEAL_TOTAL, card_points, legal_cards
from deberc_net.plugins.variants.tertz.combos import find_combos
from deberc_net.plugins.variants.tertz.deal import TertzDeal
from deberc_net.testing import (
    assert_replays,
    build_ruleset,
    build_talon_deck,
    cards,
    legal,
    new_deal,
    new_match,
    play,
    refused,
    rule_book,
    say,
    spoken,
)

from .helpers import LATE0, LATE1, LATE_TALON, RULES, deal_of, finish, first_card, step

SEAT0 = "7c 8c 9c Ad Kd 10s 8s 7s 9d"  # a terts to 9c
SEAT1 = "10d Jd Qd 7h 9h Ks As Jh Qc"  # a terts to Qd, the trump 7 and jack
TALON = "8h 10h Ah Qh 7d 8d 9s Js Qs 10c Jc Kc"  # then Ac: 13 under the turned Kh


def test_two_players_only() -> None:
    for players in (3, 4):
        with pytest.raises(RuleError, match="'tertz' is for 2 players, not " + str(players)):
            build_ruleset(players, "tertz")
    with pytest.raises(RuleError, match="is not played with the variant 'tertz'"):
        build_ruleset(2, "tertz", ["table-penalties"])


def test_tertz_options_are_refused_at_a_deberts_table() -> None:
    """A black-box evening: 'new 2 tertz-501' (the variant forgotten) opened a Moscow
    table 'to 501' with an option that changes nothing there, and 'seek 2 tertz-501'
    waited for 'a 2-player moscow game (tertz-501)'. Tertz's options need Tertz."""
    for variant in ("moscow", "kharkov"):
        for option in ("tertz-501", "tertz-swap-until-two"):
            refused = f"'{option}' is played only with the variant 'tertz'"
            with pytest.raises(RuleError, match=refused):
                build_ruleset(2, variant, [option])
    assert build_ruleset(2, "tertz", ["tertz-501", "tertz-swap-until-two"]).settings.target == 501


def test_the_deal_starts_in_play_the_turned_suit_trump_the_dealers_opponent_leading() -> None:
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    assert deal.phase == PLAY and deal.trump == 1 and deal.player is None
    assert sorted(deal.hands[0]) == sorted(cards(SEAT0))
    assert sorted(deal.hands[1]) == sorted(cards(SEAT1))
    assert deal.to_act == 0 and deal.talon_left() == 14
    assert "pas" not in legal(deal, 0) and "igrayu" not in legal(deal, 0)


def test_the_loser_of_the_first_trick_breaks_the_deck_then_the_winner_draws_first() -> None:
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    play(deal, "Ad 10d")  # seat 0 takes the first trick
    assert legal(deal, 1) == [f"lomayu-{n}" for n in range(1, 13)]
    assert legal(deal, 0) == []  # the winner draws nothing until the deck is broken
    refused(deal, 0, "9d", E.AnswerRequired)
    refused(deal, 1, "lomayu-13")
    refused(deal, 1, "lomayu-0")
    say(deal, 1, "lomayu-3")  # 8h 10h Ah go under the bottom: Qh is drawn first
    assert parse_card("Qh") in deal.hands[0] and parse_card("7d") in deal.hands[1]
    assert len(deal.hands[0]) == len(deal.hands[1]) == 9
    assert deal.to_act == 0 and deal.talon_left() == 12
    play(deal, "9d 7d")
    assert parse_card("8d") in deal.hands[0] and parse_card("9s") in deal.hands[1]
    finish(deal)
    record = deal.record()
    assert record["talon_broken"] == 3
    draws = record["draws"]
    assert draws[:4] == [[0, "Qh"], [1, "7d"], [0, "8d"], [1, "9s"]]
    assert len(draws) == 14
    assert [c for _, c in draws[-5:-2]] == ["Ac", "8h", "10h"]  # the broken-off cards
    assert draws[-1][1] == "Kh"  # the turned trump is the talon's last card


def test_the_turned_trump_goes_to_the_second_drawer_of_the_last_draw() -> None:
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    while len(deal.draws) < 14:
        step(deal)
    winner = deal.tricks[-1].winner
    assert winner is not None
    assert deal.draws[-1] == ((winner + 1) % 2, parse_card("Kh"))
    assert deal.talon_left() == 0 and len(deal.tricks) == 7
    assert len(deal.hands[0]) == len(deal.hands[1]) == 9


def test_while_the_talon_lasts_follow_suit_at_any_rank_else_trump_else_anything() -> None:
    hand = cards("7d Qs As 9h 8c")
    assert legal_cards(hand, [(0, parse_card("Ks"))], 1, True) == cards("Qs As")
    assert legal_cards(hand, [(0, parse_card("Kc"))], 1, True) == cards("8c")
    assert legal_cards(cards("7d As 9h"), [(0, parse_card("Kc"))], 1, True) == cards("9h")
    assert legal_cards(cards("7d As"), [(0, parse_card("Kc"))], 1, True) == cards("7d As")


def test_the_trump_jack_is_never_forced_while_the_talon_lasts() -> None:
    hand = cards("7d Jh As")  # hearts trump: the jack is his only trump
    assert legal_cards(hand, [(0, parse_card("Kh"))], 1, True) == hand
    assert legal_cards(hand, [(0, parse_card("Kc"))], 1, True) == hand
    both = cards("7d Jh 9h")
    assert legal_cards(both, [(0, parse_card("Kc"))], 1, True) == cards("Jh 9h")
    # after the talon the jack is a trump like the others
    assert legal_cards(hand, [(0, parse_card("Kh"))], 1, False) == cards("Jh")


def test_after_the_talon_follow_and_beat() -> None:
    hand = cards("7s Qs As 9h 8c")
    assert legal_cards(hand, [(0, parse_card("Ks"))], 1, False) == cards("As")
    assert legal_cards(hand, [(0, parse_card("Ks"))], 1, True) == cards("7s Qs As")
    low = cards("7s Qs 9h")  # cannot beat the king: any spade
    assert legal_cards(low, [(0, parse_card("Ks"))], 1, False) == cards("7s Qs")
    assert legal_cards(cards("7d 9h Jh"), [(0, parse_card("Ks"))], 1, False) == cards("9h Jh")
    trumps = cards("7h Ah 9h 8c")  # trump led: beat in trump strength (9 over A)
    assert legal_cards(trumps, [(0, parse_card("10h"))], 1, False) == cards("Ah 9h")


def test_card_values_make_150_with_the_last_trick() -> None:
    assert DEAL_TOTAL == 150
    values = {
        t: card_points(parse_card(t), 1) for t in ["Jh", "9h", "Ah", "10h", "Kh", "Qh", "8h", "7h"]
    }
    assert values == {"Jh": 20, "9h": 13, "Ah": 11, "10h": 10, "Kh": 3, "Qh": 2, "8h": 0, "7h": 0}
    plain = {
        t: card_points(parse_card(t), 1) for t in ["As", "10s", "Ks", "Qs", "Js", "9s", "8s", "7s"]
    }
    assert plain == {"As": 11, "10s": 10, "Ks": 3, "Qs": 2, "Js": 1, "9s": 0, "8s": 0, "7s": 0}


def test_combinations_and_their_seniority() -> None:
    key = RULES.combo_key

    def best(hand: str, trump: int = 1) -> tuple[str, int, tuple[int, ...]]:
        found = find_combos(cards(hand), trump, False)
        top = max(found, key=lambda c: key(c, trump))
        return top.describe(), top.points, key(top, trump)

    jacks = best("Js Jh Jd Jc As Ah Ad Ac 7s")
    aces = best("As Ah Ad Ac 7s 8s 9s 10s Qs")  # four aces over a run of five
    kings = best("Ks Kh Kd Kc 8d")
    queens = best("Qs Qh Qd Qc 8d")
    eight = best("7c 8c 9c 10c Jc Qc Kc Ac")
    five = best("7c 8c 9c 10c Jc")
    four = best("7c 8c 9c 10c")
    terts = best("7c 8c 9c")
    assert jacks[:2] == ("four J", 200) and aces[:2] == ("four A", 100)
    assert (eight[:2], five[:2]) == (("run of 8 to Ac", 100), ("run of 5 to Jc", 100))
    assert (four[1], terts[1]) == (50, 20)
    ranked = [jacks, aces, kings, queens, eight, five, four, terts]
    assert [r[2] for r in ranked] == sorted((r[2] for r in ranked), reverse=True)
    # the same number of cards orders within a class only: four queens stay above a
    # run of four to the ace (docs/rules.md, Tertz §5)
    assert queens[2] > best("Jc Qc Kc Ac")[2]
    # equal length: the higher top card, then trump
    assert best("8d 9d 10d")[2] > best("7h 8h 9h")[2]
    assert best("7h 8h 9h")[2] > best("7d 8d 9d")[2]
    # a card may be in a run and a four of a kind
    both = find_combos(cards("Qs Qh Qd Qc Ks As"), 1, False)
    assert sorted(c.points for c in both) == [20, 100]


def test_rost_as_in_deberts_the_higher_terts_scores() -> None:
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    assert "terts" in legal(deal, 0)
    say(deal, 0, "terts")
    play(deal, "Ad")
    assert "rost?" in legal(deal, 1) and "terts" not in legal(deal, 1)
    assert spoken(RULES, "от чего?", deal.legal_calls(1)).token() == "rost?"
    say(deal, 1, "rost?")
    assert legal(deal, 0) == ["ot-9"]
    say(deal, 0, "ot-9")
    assert legal(deal, 1) == ["ot-Q", "pishet"]
    say(deal, 1, "ot-Q")
    play(deal, "10d")
    assert deal.counted_combos() == {1: deal.combos_of(1)}
    finish(deal)
    scored = {d["seat"]: d["scored"] for d in deal.record()["declared"]}
    assert scored[0] == [] and [s["points"] for s in scored[1]] == [20]
    assert deal.result is not None and deal.result.score.combo_points == [0, 20]


def test_a_higher_class_is_declared_over_a_lower_one_and_alone_scores() -> None:
    deal = deal_of("Js Jh Jd Jc As Ah Ad Ac 7s", "Ks Kh Kd Kc Qs Qh Qd Qc 8s", "8d", "7h 8h 9h")
    assert [t for t in legal(deal, 0) if not t[0].isdigit() and t[0] not in "JQKA"] == ["dvesti"]
    assert spoken(RULES, "двести вальтов", deal.legal_calls(0)).token() == "dvesti"
    say(deal, 0, "dvesti")
    play(deal, "7s")
    assert not any(t.startswith(("sto-", "rost")) for t in legal(deal, 1))
    refused(deal, 1, "sto-korolei")
    play(deal, "8s")
    finish(deal)
    assert deal.result is not None and deal.result.score.combo_points == [300, 0]  # four J and A


def test_the_seat_with_only_kings_over_no_declaration_says_sto_korolei() -> None:
    deal = deal_of("7s 8s 10s Qs As 7c 9c Jc 8d", "Ks Kh Kd Kc 9s 8h 9h 7d 10d", "7h")
    play(deal, "7s")
    assert "sto-korolei" in legal(deal, 1)
    assert spoken(RULES, "сто королей", deal.legal_calls(1)).token() == "sto-korolei"
    say(deal, 1, "sto-korolei")
    play(deal, "9s")
    assert deal.best is not None and deal.best.seat == 1


def test_mariage_neither_beats_nor_is_beaten() -> None:
    # seat 1 holds the trump K and Q; seat 0 a terts
    deal = deal_of(SEAT0, "10d Jd Qd Kh Qh Ks As Jh Qc", "9h", TALON.replace("Qh", "7h"))
    say(deal, 0, "terts")
    play(deal, "Ad")
    assert "bella" in legal(deal, 1)
    assert spoken(RULES, "марьяж", deal.legal_calls(1)).token() == "bella"
    say(deal, 1, "bella")
    assert "bella" not in legal(deal, 1)
    play(deal, "10d")
    finish(deal)
    assert deal.result is not None
    assert deal.result.score.combo_points == [20, 0] and deal.result.score.bella_points == [0, 20]
    assert deal.result.score.written[0] + deal.result.score.written[1] == 150 + 40


def test_the_trump_seven_takes_the_turned_card() -> None:
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    play(deal, "Ad")
    assert "menyayu" in legal(deal, 1)
    say(deal, 1, "menyayu")
    assert parse_card("Kh") in deal.hands[1] and parse_card("7h") not in deal.hands[1]
    assert deal.turned == parse_card("7h") and "menyayu" not in legal(deal, 1)
    # its own case, not the whole rule (a Deberts tryout's complaint, s27)
    why = refused(deal, 1, "menyayu", E.NotAllowed)
    assert why.message == "the turned card is the trump 7 itself: there is nothing to swap"
    assert view(new_match(RULES), 0).turned is not None
    finish(deal)
    assert deal.record()["draws"][-1][1] == "7h"  # the seven is now the last card


def test_after_the_talon_the_swap_is_refused_for_the_talon() -> None:
    """A club evening: at talon 0 a player without the seven typed menyayu and was told
    'the turned card is the trump 7 itself' (it had been drawn): once the talon is
    drawn the refusal says the talon rule, to the seven's last drawer too."""
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    play(deal, "Ad")
    say(deal, 1, "menyayu")  # the 7h lies face up, to be drawn last
    while deal.talon_left() > 0 or deal.to_act is None:
        step(deal)
    holder = 0 if parse_card("7h") in deal.hands[0] else 1
    assert parse_card("7h") in deal.hands[holder]
    rule = (
        "the trump 7 takes the turned card on its holder's turn, while the talon "
        "holds two cards or more"
    )
    while deal.to_act != holder:
        step(deal)
    assert refused(deal, holder, "menyayu", E.NotAllowed).message == rule
    step(deal)
    while deal.to_act != 1 - holder:
        step(deal)
    assert refused(deal, 1 - holder, "menyayu", E.NotAllowed).message == rule


def test_a_seven_in_a_declared_combination_is_not_exchanged() -> None:
    """A tryout (s28) declared 7-8-9♥ (hearts trump), swapped the 7♥ away and still
    wrote the terts, the seven drawn by the opponent: what was declared stays true
    (docs/rules.md §12.3, as §2 has it for Deberts), so the seven stays in the hand."""
    deal = deal_of(
        "7h 8h 9h As Jd 7c Qs 9d Kc",
        "10s 8d Ad Qh Js 10c 8s Jc 7s",
        "Kh",
        "Kd 9s Ks 10d Qd 8c 9c Ac 7d Qc 10h Ah Jh",
    )
    assert "menyayu" in legal(deal, 0) and "terts" in legal(deal, 0)
    say(deal, 0, "terts")
    assert "menyayu" not in legal(deal, 0)
    why = refused(deal, 0, "menyayu", E.NotAllowed)
    assert why.message == "the trump 7 is in a combination you declared: it stays in your hand"
    finish(deal)
    assert deal.result is not None and deal.result.score.combo_points == [20, 0]
    assert all(card != "7h" for _, card in deal.record()["draws"])  # kept, never drawn


@pytest.mark.parametrize(
    ("index", "options", "allowed"),
    [(10, (), True), (12, (), True), (12, ("tertz-swap-until-two",), False), (0, (), False)],
)
def test_the_exchange_lasts_while_two_cards_are_left(
    index: int, options: tuple[str, ...], allowed: bool
) -> None:
    # the trump 7 lies in the talon; lomayu-1 moves it one place up: drawn as card
    # index 10 (4 left after that draw) or 12 (2 left); from the top, lomayu-1 puts it
    # under the rest: drawn last but the turned card (none left)
    talon = ["8h", "10h", "Ah", "Qh", "7d", "8d", "9s", "Js", "Qs", "10c", "Jc", "Kc", "Ac"]
    talon.insert(index, "7h")
    talon.remove("Ac")
    deck = build_talon_deck(SEAT0, SEAT1.replace("7h", "Ac"), "Kh", " ".join(talon))
    deal = new_deal(build_ruleset(2, "tertz", options), deck)
    assert isinstance(deal, TertzDeal)
    while parse_card("7h") not in deal.hands[0] + deal.hands[1]:
        step(deal)
    holder = 0 if parse_card("7h") in deal.hands[0] else 1
    assert deal.talon_left() == {10: 4, 12: 2, 0: 0}[index]
    while deal.to_act != holder:
        step(deal)
    assert ("menyayu" in legal(deal, holder)) is allowed
    if not allowed:  # the talon's count is the case: said as the table's rule has it
        why = refused(deal, holder, "menyayu", E.NotAllowed).message
        assert why == (
            "the trump 7 takes the turned card while the talon holds more than two cards"
            if options
            else "the trump 7 takes the turned card on its holder's turn, while the talon "
            "holds two cards or more"
        )


def test_the_opponents_tricks_are_open_while_the_talon_holds_four() -> None:
    match = new_match(RULES, build_talon_deck(SEAT0, SEAT1, "Kh", TALON))
    assert dict(view(match, 0).game) == {"talon": 14, "their_tricks": ()}
    play(match, "Ad 10d")
    say(match, 1, "lomayu-1")
    seen_by_1 = dict(view(match, 1).game)
    assert seen_by_1 == {"talon": 12, "their_tricks": tuple(cards("Ad 10d"))}
    assert dict(view(match, 0).game)["their_tricks"] == ()
    assert dict(view(match, None).game)["their_tricks"] is None  # observers: no
    deal = match.deal
    assert isinstance(deal, TertzDeal)
    while deal.talon_left() > 2:
        seat = deal.to_act
        assert seat is not None
        say(match, seat, first_card(match, seat))
    assert dict(view(match, 0).game) == {"talon": 2, "their_tricks": None}


def test_views_hide_the_opponents_hand_and_the_talon() -> None:
    match = new_match(RULES, build_talon_deck(SEAT0, SEAT1, "Kh", TALON))
    mine = view(match, 0)
    assert sorted(mine.hand) == sorted(cards(SEAT0)) and mine.hand_sizes == (9, 9)
    text = repr(mine)
    for card in [*cards(SEAT1), *cards(TALON)]:
        assert f"{card_str(card)}" not in " ".join(card_str(c) for c in mine.hand)
    assert "deck" not in text and mine.turned == parse_card("Kh")


def test_the_150_split_rounded_to_tens_a_five_down() -> None:
    # (seed 004's second text: «if the sum of points ends in 135, then round up to 130»)
    assert [plugin.round_count(p) for p in (0, 4, 5, 44, 45, 46, 75, 76, 135, 150)] == [
        0,
        0,
        0,
        40,
        40,
        50,
        70,
        80,
        130,
        150,
    ]
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    finish(deal)
    assert deal.result is not None
    score = deal.result.score
    assert score is not None and deal.result.outcome == "split"
    cards_only = [score.card_points[s] + (10 if score.last_trick_side == s else 0) for s in (0, 1)]
    assert sum(cards_only) == 150
    counter = min((0, 1), key=lambda s: (score.tricks_taken[s], s == score.last_trick_side))
    counted = plugin.round_count(cards_only[counter])
    assert score.written[counter] - score.combo_points[counter] - score.bella_points[counter] == (
        counted
    )
    assert sum(score.written) == 150 + sum(score.combo_points) + sum(score.bella_points)


def test_the_game_is_to_500_or_501_and_the_last_trick_deals_next() -> None:
    assert RULES.settings.target == 500
    assert build_ruleset(2, "tertz", ["tertz-501"]).settings.target == 501
    match = new_match(RULES, seed="to-500")
    match.set_standing([480, 470])
    while not match.over:
        seat = match.to_act
        assert seat is not None
        say(match, seat, first_card(match, seat))
    assert match.result is not None and max(match.totals) >= 500
    assert match.totals[match.result.winner or 0] == max(match.totals)
    long = new_match(RULES, seed="dealers")
    while not long.over:
        seat = long.to_act
        assert seat is not None
        say(long, seat, first_card(long, seat))
    assert len(long.records) > 2
    for before, after in zip(long.records, long.records[1:], strict=False):
        assert after["dealer"] == before["tricks"][-1]["winner"]
    assert_replays(long)


def test_illegal_calls_are_refused_not_penalised() -> None:
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    refused(deal, 1, "10d", E.NotYourTurn)  # a card out of turn
    refused(deal, 0, "Jd", E.NotInHand)  # a card not in hand ("an extra card")
    refused(deal, 0, "sto-dam")  # a false declaration
    refused(deal, 0, "pyatdesyat")
    play(deal, "9d")
    refused(deal, 1, "Ks")  # must follow suit while the talon lasts
    assert deal.phase != DONE


def test_people_say_the_break_in_russian() -> None:
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    play(deal, "Ad 10d")
    assert spoken(RULES, "ломаю 5", deal.legal_calls(1)).token() == "lomayu-5"
    assert spoken(RULES, "lomayu 5", deal.legal_calls(1)).token() == "lomayu-5"


def test_a_changed_last_trick_changes_the_sum_shared() -> None:
    rules = build_ruleset(2, "tertz", ["posled-20"])  # the example option: last trick 20
    deal = new_deal(rules, build_talon_deck(SEAT0, SEAT1, "Kh", TALON))
    assert isinstance(deal, TertzDeal)
    finish(deal)
    assert deal.result is not None
    score = deal.result.score
    assert score is not None
    assert sum(score.written) - sum(score.combo_points) - sum(score.bella_points) == 160


def test_refusals_name_tertz_rules() -> None:
    deal = deal_of("Js Jh Jd Jc As Ah Ad Ac 7s", "Ks Kh Kd Kc Qs Qh Qd Qc 8s", "8d", "7h 8h 9h")
    error = refused(deal, 0, "terts", E.FalseDeclaration)
    assert "dvesti" in error.message
    assert refused(deal, 0, "menyayu", E.NotAllowed).message == (
        "you do not hold the trump 7 (7d)"  # (8d turned: diamonds)
    )
    refused(deal, 0, "bella", E.NotAllowed)
    refused(deal, 0, "lomayu-3", E.NotAllowed)
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    while deal.talon_left() or deal.trick.cards or deal.to_act is None:
        step(deal)
    # after the talon: find a trick where the follower could beat and try a lower card
    while deal.phase != DONE:
        leader = deal.to_act
        assert leader is not None
        step(deal)
        if deal.phase == DONE:
            break
        follower = deal.to_act
        assert follower is not None and follower != leader
        led = deal.trick.cards[0][1]
        same = sorted(c for c in deal.hands[follower] if c >> 3 == led >> 3)
        allowed = set(deal.legal_calls(follower))
        low = [c for c in same if C.play(c) not in allowed]
        if low:
            refused(deal, follower, card_str(low[0]), E.MustBeat)
            return
        step(deal)
    raise AssertionError("no trick let the follower beat: choose another deck")


def test_a_deal_class_that_is_not_a_deal_is_refused() -> None:
    class NotAGame:
        @hookimpl
        def deberc_rule_info(self) -> RuleInfo:
            return RuleInfo(name="not-a-game", kind="variant", summary="broken", players=(2,))

        @hookimpl
        def deberc_deal_class(self, settings: object) -> object:
            return dict

    with pytest.raises(RuleError, match="'not-a-game': deberc_deal_class gave <class 'dict'>"):
        build_ruleset(2, "not-a-game", plugins=[NotAGame()])


# Late declarations (docs/rules.md §12.5): seat 0 draws 8c at the second draw (a terts
# 7-8-9c at trick 3), then 10c at the third (a fifty at trick 4); seat 1 holds 10-J-Qd.


def declarations(deal: TertzDeal, seat: int) -> list[str]:
    return [t for t in legal(deal, seat) if "terts" in t or "pyatdesyat" in t or t == "rost?"]


def to_trick_three(deal: TertzDeal, *, seat1_declares: bool) -> None:
    play(deal, "Ad")
    if seat1_declares:
        say(deal, 1, "terts")
    play(deal, "10d")
    say(deal, 1, "lomayu-1")
    assert declarations(deal, 0) == []  # 7c 9c and 7d: nothing yet
    play(deal, "9d Jd")  # seat 1 takes it; seat 0 draws the 8c
    play(deal, "9s")


def test_a_combination_drawn_from_the_talon_is_declared_at_trick_three() -> None:
    deal = deal_of(LATE0, LATE1, "Kh", LATE_TALON)
    to_trick_three(deal, seat1_declares=False)
    assert len(deal.tricks) == 2 and len(deal.hands[0]) == 9
    assert declarations(deal, 0) == ["terts"]
    say(deal, 0, "terts")
    assert deal.best is not None and deal.best.seat == 0
    assert [c.describe() for c in deal.declared_combos[0]] == ["run of 3 to 9c"]
    assert declarations(deal, 0) == []  # the same cards are declared once
    refused(deal, 0, "terts", E.NotAllowed)
    play(deal, "7s")  # seat 1's 9s takes it; seat 0 draws the 10c
    play(deal, "8d")
    # the terts grew to a fifty: declared, it replaces the terts (50, not 70)
    assert declarations(deal, 0) == ["pyatdesyat"]
    say(deal, 0, "pyatdesyat")
    assert [c.describe() for c in deal.declared_combos[0]] == ["run of 4 to 10c"]
    finish(deal)
    assert deal.result is not None and deal.result.score.combo_points == [50, 0]
    scored = {d["seat"]: d["calls"] for d in deal.record()["declared"]}
    assert scored == {0: ["terts", "pyatdesyat"]}


def test_a_later_higher_combination_beats_an_earlier_one() -> None:
    deal = deal_of(LATE0, LATE1, "Kh", LATE_TALON)
    to_trick_three(deal, seat1_declares=True)
    assert deal.best is not None and deal.best.seat == 1
    assert declarations(deal, 0) == ["rost?"]  # a terts against his terts
    say(deal, 0, "rost?")
    say(deal, 1, "ot-Q")
    assert legal(deal, 0) == ["pishet"]  # 9c is lower than Qd
    say(deal, 0, "pishet")
    play(deal, "7s")
    assert deal.counted_combos() == {1: deal.declared_combos[1]}
    play(deal, "8d")
    assert declarations(deal, 0) == ["pyatdesyat"]  # the 10c made it a fifty
    say(deal, 0, "pyatdesyat")
    assert deal.best is not None and deal.best.seat == 0
    assert "pokazhi" in legal(deal, 1)
    finish(deal)
    assert deal.result is not None and deal.result.score.combo_points == [50, 0]
    scored = {d["seat"]: [s["points"] for s in d["scored"]] for d in deal.record()["declared"]}
    assert scored == {0: [50], 1: []}


def test_no_declaration_without_nine_cards_after_the_talon() -> None:
    deal = deal_of(LATE0, LATE1, "Kh", LATE_TALON)
    play(deal, "Ad 10d")
    say(deal, 1, "lomayu-1")
    checked = 0
    while deal.phase != DONE:
        seat = deal.to_act
        assert seat is not None
        nine = len(deal.hands[seat]) == 9 and deal.pending is None
        if not nine and deal.fresh_combos(seat):
            assert declarations(deal, seat) == []
            fresh = deal.fresh_combos(seat)
            call = deal.declaration(max(c.category for c in fresh), fresh)
            refused(deal, seat, call.token(), E.NotAllowed)
            checked += 1
        if nine:  # while the talon refills the hands, what is held may be declared
            assert bool(declarations(deal, seat)) == bool(deal.fresh_combos(seat))
        step(deal)
    assert checked  # the deck keeps a combination in a hand after the talon


def test_a_refused_rost_says_tertz_rule_not_deberts() -> None:
    """rost? is open at every trick while the seat holds nine cards (docs/rules.md
    §12.5); a tryout's refusal said Deberts's "before your first card, once"."""
    deberts = "before your first card"
    deal = deal_of(LATE0, LATE1, "Kh", LATE_TALON)
    why = refused(deal, 0, "rost?", E.NotAllowed)  # nothing declared yet: its own case
    assert str(why) == "nothing is declared: rost? asks about a declaration"
    to_trick_three(deal, seat1_declares=True)  # seat 0's terts 7-8-9c at trick three
    say(deal, 0, "rost?")
    say(deal, 1, "ot-Q")
    say(deal, 0, "pishet")
    play(deal, "7s")
    play(deal, "8d")  # the 10c made seat 0's terts a fifty, higher than 10-J-Qd
    why = refused(deal, 0, "rost?", E.ForbiddenRost)
    assert str(why) == "you hold a higher combination: declare it instead"
    say(deal, 0, "pyatdesyat")
    why = refused(deal, 0, "rost?", E.NotAllowed)  # the best is his own now
    assert str(why) == "the best declaration is your own: rost? asks the opponent's"
    play(deal, "7d")
    while deal.to_act != 1 or deal.pending is not None or len(deal.hands[1]) != 9:
        step(deal)
    why = refused(deal, 1, "rost?", E.ForbiddenRost)  # a later trick, its terts declared
    assert str(why) == "you hold no undeclared combination of the declared one's class"
    assert deberts not in str(why)


def test_show_combination_puts_a_later_declaration_face_up_with_the_next_card() -> None:
    rules = build_ruleset(2, "tertz", ["show-combination"])
    match = new_match(rules, build_talon_deck(LATE0, LATE1, "Kh", LATE_TALON))
    deal = match.deal
    assert isinstance(deal, TertzDeal)
    to_trick_three(deal, seat1_declares=False)
    say(deal, 0, "terts")
    assert 0 not in deal.shown
    told = deal.apply(0, C.play(parse_card("7s")))
    assert deal.shown[0] == cards("7c 8c 9c")
    kinds = [type(e).__name__ for e in told]
    # shown with the card, before the trick it completes is taken (as at a table)
    assert kinds == ["CardPlayed", "CallMade", "Shown", "TrickTaken"], kinds
    assert deal.log[-1].engine and deal.log[-1].call.token() == "pokazyvayu"
    play(deal, "8d")
    say(deal, 0, "pyatdesyat")
    play(deal, "7d")  # the fifty's new card goes face up too
    assert set(deal.shown[0]) == set(cards("7c 8c 9c 10c"))
    while len(match.records) < 1:
        seat = match.to_act
        assert seat is not None
        say(match, seat, first_card(match, seat))
    assert_replays(match)


def test_pokazyvayu_shows_what_was_declared_not_a_combination_held_undeclared() -> None:
    # seat 1 declares a terts; at trick 3 seat 0 (a terts drawn) is asked nothing yet,
    # seat 1 is on turn with a fresh terts of spades he has not declared: pokazhi by
    # seat 0 makes him show the declared diamonds only
    talon = "8h 7d Qs 9s 8c Ah 10c 8d Qh 10h Jc Kc Ac"  # seat 1 draws the Qs first
    deal = deal_of(LATE0, LATE1, "Kh", talon)
    play(deal, "Ad")
    say(deal, 1, "terts")
    play(deal, "10d")
    say(deal, 1, "lomayu-1")
    play(deal, "9d Jd")  # seat 1 leads trick 3, Qs Ks As in hand, declared 10-J-Qd
    assert deal.fresh_combos(1) and deal.to_act == 1
    say(deal, 0, "pokazhi")
    say(deal, 1, "pokazyvayu")
    assert deal.shown[1] == cards("10d Jd Qd")


def test_pokazyvayu_shows_every_declared_combination_of_the_best_ones_class() -> None:
    """A tryout (s49): a bot declared 9-10-J of trumps, then Q-K-A of hearts at the next
    trick; asked pokazhi, it showed both (`shows: 9♠ 10♠ J♠ Q♥ K♥ A♥`), where docs/rules.md
    §12.5 said only that pokazhi asks to see the best declaration. The engine shows the
    declared class, as Deberts shows the declared category (docs/protocol.md §9.3); the
    rules say so now."""
    talon = "9s Js 9c Qh Ah 10d Jd Qd Kd Ad 10c Kc Ac"  # lomayu-1: bob Js, ann 9c
    ann, bob = "Qs Ks As 7c 8c 10h 8h 9d 7d", "7s 8s 10s Jc Qc 7h 9h Jh 8d"
    deal = deal_of(ann, bob, "Kh", talon)
    say(deal, 0, "terts")  # Q-K-A of spades
    play(deal, "7d 8d")
    say(deal, 0, "lomayu-1")  # ann draws the 9c: 7-8-9 of clubs
    play(deal, "7h")
    say(deal, 0, "terts")  # the second terts, at the next trick: not the best
    play(deal, "8h")
    play(deal, "9d")  # ann lost it and leads; bob, on turn, asks to see
    say(deal, 1, "pokazhi")
    say(deal, 0, "pokazyvayu")
    assert deal.shown[0] == cards("Qs Ks As 7c 8c 9c")
    doc = (Path(__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    tertz = " ".join(doc.split("### 12.5", 1)[1].split("### 12.6", 1)[0].split())
    assert "every combination of its class that he declared and that stands" in tertz


def test_what_lies_face_up_is_listed_as_runs_read_whatever_was_played_or_shown_first() -> None:
    # seat 0 shows Q-K-A of spades and plays the ace; two draws make 10-J-Q-K a fifty,
    # shown in its turn: face up are 10 J Q K A, not Q K A 10 J as shown (an evening's
    # tryout said «теперь открыты: Д♠ К♠ Т♠ В♠»), nor the ace before the run
    talon = "Ah 10s 9d Js Kc 9s Jh Kh Jd Qd Kd Ad Ac"  # lomayu-1: 10s, 9d, Js, Kc, …
    deal = deal_of("Qs Ks As 8h 9h 7c 9c Jc 8d", "7h 10h Qh 7s 8s 8c 10c Qc 10d", "7d", talon)
    say(deal, 0, "terts")
    play(deal, "As")
    say(deal, 1, "pokazhi")
    say(deal, 0, "pokazyvayu")
    assert deal.shown[0] == cards("Qs Ks As")
    play(deal, "7s")
    say(deal, 1, "lomayu-1")
    play(deal, "8h 7h")  # seat 0 takes it and draws the Js: 10-J-Q-K of spades
    say(deal, 0, "pyatdesyat")
    play(deal, "9h")
    say(deal, 1, "pokazhi")
    say(deal, 0, "pokazyvayu")
    assert deal.shown[0] == cards("10s Js Qs Ks As")


class NeedsBidding:
    """A third-party option that acts only through the player who ordered."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            name="orderer-bonus", kind="option", summary="the orderer", needs_bidding=True
        )


def test_an_option_that_needs_an_ordering_player_is_refused() -> None:
    # failed before: 'new 2 tertz perezdacha' was accepted and the option never acted
    with pytest.raises(RuleError, match="'orderer-bonus' needs a player who orders"):
        build_ruleset(2, "tertz", ["orderer-bonus"], plugins=[NeedsBidding()])
    moscow = build_ruleset(2, "moscow", ["orderer-bonus"], plugins=[NeedsBidding()])
    assert "orderer-bonus" in moscow.options


def test_an_option_the_variant_refuses_is_not_called_an_option_contradicting() -> None:
    with pytest.raises(RuleError, match="'ski-penalty' is not played with the variant 'tertz'"):
        build_ruleset(2, "tertz", ["ski-penalty"])


@pytest.mark.parametrize(
    "option",
    [
        "bide-penalty",
        "bide-to-leader",
        "commitment",
        "hanging-separate",
        "player-leads",
        "poltinniki",
        "short-bide",
        "swap-before-extra",
    ],
)
def test_the_built_in_options_that_act_through_the_ordering_player_say_so(option: str) -> None:
    """Their RuleInfo.needs_bidding refuses them at Tertz (no bidding), as a third
    party's: they were a list of names in the Tertz plugin (NOT_FOR_TERTZ)."""
    rule = rule_book().get(option)
    assert rule is not None
    info = rule.info
    assert info.needs_bidding
    if 2 in info.players:  # (bide-to-leader is for three: Tertz, for two, refuses it so)
        with pytest.raises(RuleError, match=f"'{option}' needs a player who orders"):
            build_ruleset(2, "tertz", [option])


def test_deberts_bidding_and_prokhodit_are_refused_in_tertz_own_words() -> None:
    """Tertz has no bidding and no prokhodit? (docs/rules.md §12.1, §12.5); a tryout's
    refusals said "bidding is over" and Deberts's rule of prokhodit?."""
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    for call in ("pas", "igrayu", "igrayu-s"):
        why = refused(deal, 0, call, E.NotAllowed)
        assert str(why) == "Tertz has no bidding: the turned card's suit is trump"
    # (its answers too: a black-box evening was told "ne-prokhodit answers a question,
    # and none is asked of you now"; a review, 'prokhodit' ('yes') the same)
    for call in ("prokhodit?", "ne-prokhodit", "prokhodit"):
        why = refused(deal, 0, call, E.NotAllowed)
        assert str(why) == "Tertz has no prokhodit?: ask a declaration with rost?"
    why = refused(deal, 1, "pas", E.NotAllowed)  # out of turn too: no turn would allow it
    assert str(why) == "Tertz has no bidding: the turned card's suit is trump"


def test_four_sevens_are_no_redeal_in_tertz_and_are_refused_in_its_words() -> None:
    """A black-box evening: a seat holding all four sevens before the first card typed
    'chetyre-semerki' and was told "only a seat holding all four sevens, before the first
    card" (Deberts's rule, which Tertz does not play: docs/rules.md §12.1)."""
    deal = deal_of(
        "7c 7d 7h 7s Ad Kd 10s 8s 9d",
        "10d Jd Qd 8h 9h Ks As Jh Qc",
        "Kh",
        "9s Js Qs 10h Qh Ah 8d 8c 9c 10c Jc Kc Ac",
    )
    assert "chetyre-semerki" not in legal(deal, 0)
    for seat in (0, 1):  # the holder on turn, and the other out of turn
        why = refused(deal, seat, "chetyre-semerki", E.NotAllowed)
        assert str(why) == "Tertz has no redeal for four sevens: the deal is played"


def test_a_combination_given_way_on_is_written_once_its_owner_holds_the_best() -> None:
    """docs/rules.md §12.5's choice: 'pishet' says the terts is not the best now, not that
    it is thrown away; the four kings drawn later make seat 0's the best declaration,
    and he writes all his standing combinations, the terts among them."""
    deal = deal_of(
        "7c 8c 9c Ad Kd Ks Kc 7s 9d",
        "10d Jd Qd 7h 9h Js As Jh Qc",
        "Ah",
        "8h 10s Ac 8d Kh 9s Qs Qh 10h Jc 10c 8s",  # lomayu-1: 8h under; Kh to seat 0
    )
    play(deal, "Ad")
    say(deal, 1, "terts")  # to the Qd
    play(deal, "10d")
    say(deal, 1, "lomayu-1")
    say(deal, 0, "rost?")  # his terts to the 9c
    say(deal, 1, "ot-Q")
    assert legal(deal, 0) == ["pishet"]
    say(deal, 0, "pishet")
    play(deal, "7s Js 7h")  # seat 1 takes the trick; seat 0 draws the Kh
    assert "sto-korolei" in legal(deal, 0)
    say(deal, 0, "sto-korolei")
    finish(deal)
    assert deal.result is not None and deal.result.score.combo_points == [120, 0]
    scored = {d["seat"]: [s["points"] for s in d["scored"]] for d in deal.record()["declared"]}
    assert scored == {0: [20, 100], 1: []}
