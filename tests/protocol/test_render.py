"""Table events render the same lines they always did: golden lines for every kind, in
both styles (machine fields are only ever appended: docs/protocol.md §1)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from clients.play.texts import T
from clients.play.texts import say as say_in_client
from deberc_net.game import calls as C
from deberc_net.game import events as g
from deberc_net.game.calls import parse_token
from deberc_net.game.cards import parse_card
from deberc_net.game.match import Match
from deberc_net.game.outcomes import MatchEndReason
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import NO_WORDS, Lang, table_words
from deberc_net.protocol.render import (
    HUMAN,
    MACHINE,
    combo_word,
    for_people,
    hung_said,
    render,
    scored_lines,
    tagged_lines,
)
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import build_ruleset
from tests.game.decks import SIMPLE, build_deck, match2, say
from tests.protocol.golden_lines import GOLDEN, TWO

FOUR = ("anna", "boris", "vera", "gleb")


def test_four_player_totals_name_both_partners() -> None:
    end = ev.TableEvent(9, 1, FOUR, g.DealEnded(1, "made", (100, 62), (100, 62), (100, 62), 0, {}))
    lines = render(end, HUMAN)
    assert all(len(x) <= 80 for x in lines)  # a long line is cut to the width
    assert "Totals: anna+vera 100, boris+gleb 62." in " ".join(x.strip() for x in lines)


def test_match_end_for_a_pair_and_for_a_draw() -> None:
    won = ev.TableEvent(10, 1, FOUR, g.MatchEnded(0, ("anna", "vera"), "target", (510, 300), "s1"))
    assert render(won, HUMAN) == [
        "Game over: anna and vera win (target). Totals: anna+vera 510, boris+gleb 300."
    ]
    drawn = ev.TableEvent(3, 2, ("x1", "x2"), g.MatchEnded(None, (), "deals", (0, 0), "s2"))
    assert render(drawn, HUMAN) == ["Game over: a draw (deals). Totals: x1 0, x2 0."]
    assert render(drawn, MACHINE) == [
        "event seq=3 table=2 kind=match-end winner=- name=- reason=deals totals=0,0 seed=s2"
    ]


@pytest.mark.parametrize(("event", "machine", "human"), GOLDEN)
def test_golden_lines(
    event: g.MatchEvent | ev.SeatEvent | ev.Watching, machine: str, human: str
) -> None:
    told = ev.TableEvent(7, 4, TWO, event)
    assert render(told, MACHINE) == [f"event seq=7 table=4 {machine}"]
    lines = render(told, HUMAN)
    assert all(len(x) <= 80 for x in lines), lines  # a longer line is cut, indented
    assert " ".join(x.strip() for x in lines) == human


def test_every_event_class_has_golden_lines() -> None:
    kinds = {type(e) for e, _, _ in GOLDEN}
    assert kinds == {*g.MatchEvent.__args__, *ev.SeatEvent.__args__, ev.Watching} - {
        g.DealAbandoned
    }


def test_an_event_that_is_not_told_cannot_be_rendered() -> None:
    with pytest.raises(TypeError):  # a forfeit's abandoned deal is told as its record only
        render(ev.TableEvent(1, 1, TWO, g.DealAbandoned(1, {})), MACHINE)


def test_the_swap_question_reads_as_the_tables_question() -> None:
    # swap-before-extra: nobody asked, the table asks each seat in turn (the player is
    # the recorded asker and may be the answerer himself)
    spec = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s 7c Ah 10h Kh", "8c")
    match = match2(spec, build_ruleset(2, options=["swap-before-extra"]))
    match.names = ("anna", "boris")
    say(match, 0, "igrayu")
    lines = render(ev.Ask(1, 1, view(match, 0), 60500), HUMAN)
    # anna is told about herself in the second person (tryout #12); a watcher by name
    assert "Each seat in turn may swap the trump 7 for the turned card: you now." in lines
    watched = render(ev.Ask(1, 1, view(match, None), None, kind=ev.AskKind.STATE), HUMAN)
    assert "Each seat in turn may swap the trump 7 for the turned card: anna now." in watched
    assert not any("asked" in line for line in lines)
    assert lines[-1] == "Your call [60 s]: ne menyayu"  # spoken, as typed: not ne-menyayu
    [machine] = render(ev.Ask(1, 1, view(match, 0), 60500), MACHINE)
    assert "pending=swap?:0:0" in machine and "legal=ne-menyayu " in machine


def test_the_rost_exchange_reads_as_sentences() -> None:
    # seat 0 declares a fifty and leads; seat 1 (a fifty too) asks rost?; seat 0 names
    # its top card; seat 1 then concedes or names a higher one
    match = match2(("7s 8s 9s 10s Jh Qh Kh Ad 9c", "7d 8d 9d 10d As Ah 10h Jc Qc", "8c"), dealer=1)
    match.names = TWO
    say(match, 0, "igrayu", "pyatdesyat")
    match.apply(0, parse_token("7s"))
    say(match, 1, "rost?")
    lines = render(ev.Ask(1, 1, view(match, 0), 60500), HUMAN)
    assert "boris asks you how high the combination goes (rost?): you name its top." in lines
    assert lines[-1] == "Your call [60 s]: ot desyatki"  # the spoken form, not ot-10
    told_boris = render(ev.Ask(1, 1, view(match, 1), None, kind=ev.AskKind.STATE), HUMAN)
    assert "You ask anna how high the combination goes (rost?): anna names its top." in told_boris
    watched = render(ev.Ask(1, 1, view(match, None), None, kind=ev.AskKind.STATE), HUMAN)
    assert "boris asks anna how high the combination goes (rost?): anna names its top." in watched
    say(match, 0, "ot-10")
    lines = render(ev.Ask(1, 1, view(match, 1), 60500), HUMAN)
    # boris's fifty to 10d does not beat anna's to 10s: pishet is his only call
    assert "You have heard the top card: yours does not beat it, say pishet." in lines
    watched = render(ev.Ask(1, 1, view(match, None), None, kind=ev.AskKind.STATE), HUMAN)
    assert "boris has heard the top card: boris says pishet, or names a higher one." in watched
    assert not any("asked" in line or "must answer" in line for line in lines)
    assert all(len(line) <= 80 for line in lines)


def test_engine_refusals_are_told_to_people_in_their_notation() -> None:
    assert for_people("you hold s: follow suit", TWO) == "you hold ♠: follow suit"
    assert for_people("10h is not in your hand", TWO) == "10♥ is not in your hand"
    assert for_people("it is seat 1's turn to bid", TWO) == "it is boris's turn to bid"
    assert for_people("there is no seat 7", TWO) == "there is no seat 7"  # not a seat here
    # a name that looks like a card or a call is shown as it is, never in card notation
    named = ("ann-Ks", "10h")
    assert for_people("it is seat 0's turn", named) == "it is ann-Ks's turn"
    assert for_people("waiting for seat 1 to answer rost?", named) == (
        "waiting for 10h to answer rost?"
    )
    assert for_people("you may not play Ks now", named) == "you may not play K♠ now"
    error = ev.Error("must-follow-suit", "you hold s: follow suit", "you hold ♠: follow suit")
    assert render(error, HUMAN) == ["Error (must-follow-suit): you hold ♠: follow suit"]
    assert render(error, MACHINE) == ["error code=must-follow-suit text=you hold s: follow suit"]


def test_a_record_with_an_unfinished_trick_tells_its_cards_in_both_languages() -> None:
    record = {
        "deal_no": 2,
        "players": ["ann", "bob", "cid"],
        "tricks": [{"leader": 1, "cards": ["Ah", "Kh", "7h"], "winner": 1}],
        "unfinished_trick": {"leader": 1, "cards": ["10s"]},
    }
    event = ev.DealRecord(4, record)
    assert render(event, HUMAN) == [
        "Deal 2 in full:",
        "  trick 1: bob A♥, cid K♥, ann 7♥ → bob",
        "  trick 2: bob 10♠ (unfinished)",
    ]
    assert render_ru(event)[0] == "Раздача 2 полностью:"
    assert render_ru(event)[2].endswith("(не доиграна)")
    bare = ev.DealRecord(
        4, {**record, "tricks": [], "unfinished_trick": {"leader": 0, "cards": ["7s"]}}
    )
    assert render(bare, HUMAN)[:2] == ["Deal 2 in full:", "  trick 1: ann 7♠ (unfinished)"]
    nothing = ev.DealRecord(4, {"deal_no": 1, "players": ["ann", "bob"], "tricks": []})
    assert render(nothing, HUMAN) == ["Deal 1 in full: no card was played."]
    assert render_ru(nothing) == ["Раздача 1 полностью: ни одной карты не сыграно."]
    assert render(event, MACHINE)[0].startswith("record table=4 deal=2 text={")


def test_a_deal_left_before_its_first_card_says_so_and_who_in_both_languages() -> None:
    """After 'leave!' before any card, the deal's record read 'Deal 1 in full: no card
    was played.', as if a deal had been played through with no card: it says the deal
    stopped before its first card, and whose forfeit stopped it."""
    left: dict[str, Any] = {
        "deal_no": 3,
        "players": ["ann", "bob"],
        "tricks": [],
        "outcome": "left",
        "match_over": {"winner": 1, "reason": "left", "forfeit": 0},
    }
    event = ev.DealRecord(4, left)
    assert render(event, HUMAN) == [
        "Deal 3 stopped before its first card: ann left the table: forfeit."
    ]
    assert render_ru(event) == ["Раздача 3 прервана до первой карты: ann покидает стол: поражение."]
    away = ev.DealRecord(
        4, {**left, "outcome": "away", "match_over": {**left["match_over"], "forfeit": 1}}
    )
    assert render(away, HUMAN) == [
        "Deal 3 stopped before its first card: bob was away too long: forfeit."
    ]
    assert render_ru(away) == [
        "Раздача 3 прервана до первой карты: bob отсутствует слишком долго: поражение."
    ]
    # a record written before 'forfeit' was kept names nobody, and says no more than it knows
    unnamed = ev.DealRecord(4, {**left, "match_over": {"winner": 1, "reason": "left"}})
    assert render(unnamed, HUMAN) == [
        "Deal 3 stopped before its first card: a player left the table: forfeit."
    ]
    # (in Russian words, as a match's end says its reason: not the token 'left')
    assert render_ru(unnamed) == ["Раздача 3 прервана до первой карты: поражение (уход)."]
    timed_out = ev.DealRecord(4, {**left, "outcome": "timeouts", "match_over": {"winner": 1}})
    assert render_ru(timed_out) == ["Раздача 3 прервана до первой карты: поражение (время вышло)."]
    assert render(event, MACHINE)[0].startswith("record table=4 deal=3 text={")


def test_a_games_line_writes_negative_totals_apart() -> None:
    """A 'short' game can end 1 to -1: the human 'games' line wrote it '1--1'."""
    game = ev.Game("m3", 15, ("lyuba", "marina"), "moscow", "lyuba", "short", (1, -1), "t")
    (text,) = render(ev.Games("lyuba", (game,)), HUMAN)
    assert "  1:-1  winner lyuba (short game)" in text
    (ru,) = render_ru(ev.Games("lyuba", (game,)))
    assert "  1:-1  " in ru


def test_a_failed_tables_match_end_is_no_draw() -> None:
    """A table that failed ends its match with ``reason=internal``: nobody wins, loses or
    draws (docs/protocol.md §9.7). Failed before: a person was told "a draw"."""
    failed = ev.TableEvent(
        4, 2, TWO, g.MatchEnded(None, (), MatchEndReason.INTERNAL, (120, 40), None)
    )
    assert render(failed, HUMAN) == [
        "Game over: no result, the table failed (internal). Totals: anna 120, boris 40."
    ]
    assert render_ru(failed) == [
        "Партия окончена без результата: сбой стола. Итого: anna 120, boris 40."
    ]
    assert render(failed, MACHINE) == [
        "event seq=4 table=2 kind=match-end winner=- name=- reason=internal totals=120,40 seed=-"
    ]


def test_the_russian_end_lines_say_each_thing_once_and_no_claim_nobody_made() -> None:
    """«Партия окончена: vova выигрывает (объявлен конец)» after the automatic claim, which
    nobody declares (docs/rules.md §7); «сыграна … (записано как сыграно)» said it twice
    (tryout s16, finding 9). A later tryout: «(набрано до конца раздачи)» and a deal
    ended «конец» are no club's words: «досрочно» is."""
    claimed = ev.TableEvent(5, 1, TWO, g.MatchEnded(0, ("anna",), "claim", (305, 120), "s"))
    cut = ev.TableEvent(4, 1, TWO, g.DealEnded(5, "claim", (62, 20), (62, 20), (305, 120), 0, {}))
    made = ev.TableEvent(4, 1, TWO, g.DealEnded(3, "made", (82, 34), (82, 34), (82, 34), 0, {}))
    said = [" ".join(x.strip() for x in render_ru(e)) for e in (claimed, cut, made)]  # wrapped
    assert said == [
        "Партия окончена: anna выигрывает (досрочно: набраны очки). Итого: anna 305, boris 120.",
        "Раздача 5: досрочно. Очки: anna 62, boris 20 — так и записаны. Итого: anna 305,"
        " boris 120.",
        "Раздача 3: сыграна. Очки: anna 82, boris 34 — так и записаны. Итого: anna 82, boris 34.",
    ]


def test_game_over_names_the_match_in_every_style() -> None:
    """The table tells a match's end with its id: the human styles name it (the key of
    its replay and of 'games'); the machine line appends `match=` (a client resumed
    after a drop was never told the start's)."""
    end = g.MatchEnded(0, ("anna",), "away", (0, 201), "s1", forfeit=1, match="m17")
    told = ev.TableEvent(9, 1, TWO, end)
    # (a long line is wrapped, its next lines indented: docs/protocol.md; a side's
    # name and its total on one line, not 'boris' at the end and '201.' below)
    assert render(told, HUMAN) == [
        "Game over: anna wins (boris was away too long: forfeit). Totals: anna 0,",
        "  boris 201. Match m17.",
    ]
    assert " ".join(x.strip() for x in render_ru(told)) == (
        "Партия окончена: anna выигрывает (boris отсутствует слишком долго: поражение)."
        " Итого: anna 0, boris 201. Партия m17."
    )
    assert render(told, MACHINE) == [
        "event seq=9 table=1 kind=match-end winner=0 name=anna reason=away totals=0,201 "
        "seed=s1 forfeit=1 match=m17"
    ]
    unnamed = render(ev.TableEvent(9, 1, TWO, end._replace(match=None)), MACHINE)
    assert unnamed == [render(told, MACHINE)[0].removesuffix(" match=m17")]


THREE = ("anna", "boris", "vera")
PAIRS = ((0, 2), (1, 3))


def _order_lines(names: tuple[str, ...], sides: tuple[tuple[int, ...], ...]) -> list[str]:
    told = ev.TableEvent(5, 1, names, g.Ordered(1, 2, True, None), sides)
    return [" ".join(x.strip() for x in render(told, HUMAN)), " ".join(render_ru(told))]


def test_the_order_names_who_whistles_for_two_three_and_four_players() -> None:
    """'the others whistle' said with one other player, and with four of a pair whose
    partner plays with him (docs/rules.md §8: the other pair whistles)."""
    assert _order_lines(TWO, ((0,), (1,))) == [
        "boris plays in ♦ (the turned suit); anna whistles.",
        "boris играет в ♦ (открытая масть); anna вистует.",
    ]
    assert _order_lines(THREE, ((0,), (1,), (2,))) == [
        "boris plays in ♦ (the turned suit); anna and vera whistle.",
        "boris играет в ♦ (открытая масть); вистуют anna и vera.",
    ]
    assert _order_lines(FOUR, PAIRS) == [
        "boris plays in ♦ (the turned suit) with gleb; anna and vera whistle.",
        "boris играет в ♦ (открытая масть), партнёр — gleb; вистуют anna и vera.",
    ]


def test_a_void_deal_says_why_and_that_nothing_is_written() -> None:
    """'Deal 1: void. Points: anna 0, boris 0 (written as played).': a void deal is not
    played (docs/rules.md §2); the record says why (all passed, four sevens)."""

    def said(reason: str | None) -> list[str]:
        record = {"void_reason": reason}
        end = g.DealEnded(1, "void", (0, 0), (0, 0), (40, 20), 0, record)
        told = ev.TableEvent(3, 1, TWO, end, ((0,), (1,)))
        return [
            " ".join(x.strip() for x in lines) for lines in (render(told, HUMAN), render_ru(told))
        ]

    assert said("all passed") == [
        "Deal 1: void (all passed): dealt again, nothing is written. Totals: anna 40, boris 20.",
        "Раздача 1: пересдача (все спасовали): ничего не записано. Итого: anna 40, boris 20.",
    ]
    assert said("sevens") == [
        "Deal 1: void (four sevens): dealt again, nothing is written. Totals: anna 40, boris 20.",
        "Раздача 1: пересдача (четыре семёрки): ничего не записано. Итого: anna 40, boris 20.",
    ]
    assert said(None)[0] == (
        "Deal 1: void: dealt again, nothing is written. Totals: anna 40, boris 20."
    )


def test_a_dealt_again_deal_shows_no_deal_in_full() -> None:
    """After a deal everyone passed, a Russian player read 'Раздача 1 полностью: ни одной
    карты не сыграно.' under its end line ('пересдача (все спасовали)'), as if a deal had
    been played with no card: a void deal is dealt again, its end line says why, and its
    record shows nothing more in either language (a tryout, s43); the machine style keeps
    its JSON."""
    match = match2(SIMPLE)
    for seat in (0, 1, 0, 1):
        say(match, seat, "pas")
    record = match.records[0]
    assert (record["outcome"], record["void_reason"]) == ("void", "all passed")
    told = ev.DealRecord(3, record)
    assert render(told, HUMAN) == []
    assert render_ru(told) == []
    assert render(told, MACHINE)[0].startswith("record table=3 deal=1 text={")


def _talked_deal() -> Match:
    """docs/records.md's talk: anna (seat 0) declares a terts and bella, boris's terts
    wins the rost?; played out with the first legal card."""
    deck = build_deck("7h 8h 9h 7s Js Qd Kh Qh 10c", "8s 9s 10s Jh Ad 9d Jc Qc Ac", "Ah")
    match = Match(build_ruleset(2), seed="t", dealer=1, decks={1: deck}, names=TWO)
    say(match, 0, "igrayu", "prokhodit?")
    say(match, 1, "ne-prokhodit")
    say(match, 0, "terts", "bella")
    match.apply(0, parse_token("Qh"))
    say(match, 1, "rost?")
    say(match, 0, "ot-9-kozyrnogo")
    say(match, 1, "ot-10", "Jh")
    while not match.records:
        seat = match.to_act
        assert seat is not None
        match.apply(seat, next(c for c in match.legal_calls(seat) if c.name == C.PLAY))
    return match


def test_the_deal_end_says_what_the_declarations_scored() -> None:
    """'Deal 5: made. Points: anna 63, boris 70' where 50 of anna's 63 came from her
    fifty: the line after it says what each seat's declarations counted (the record's
    declared[].scored, docs/records.md)."""
    record = _talked_deal().records[0]
    points, written, totals = (tuple(record[k]) for k in ("points", "written", "totals"))
    end = g.DealEnded(1, record["outcome"], points, written, totals, 0, record)
    told = ev.TableEvent(40, 1, TWO, end, ((0,), (1,)))
    # anna ordered and bid: her bella became boris's points (a Kharkov table)
    assert " ".join(x.strip() for x in render(told, HUMAN)).endswith(
        ". Scored for combinations: anna bella 20 (a bide: written by boris); boris terts 20."
    )
    assert " ".join(x.strip() for x in render_ru(told)).endswith(
        ". За комбинации: anna белла 20 (байд: записаны вистующему boris); boris терц 20."
    )
    assert render(told, MACHINE)[0].startswith("event seq=40 table=1 kind=deal-end deal=1 ")
    assert len(render(told, MACHINE)) == 1  # the machine line is as it was
    nothing = g.DealEnded(1, "made", (92, 35), (92, 35), (92, 35), 0, {"declared": []})
    said = render(ev.TableEvent(4, 1, TWO, nothing), HUMAN)
    assert not any(line.startswith("Scored") for line in said)  # nothing counted


def test_a_combination_is_said_by_its_kind_in_either_language() -> None:
    scored = (
        ev.Scored(1, "pyatdesyat to As", 50),
        ev.Scored(0, "run of 5 to Ks", 100),
        ev.Scored(1, "bella", 20),
        ev.Scored(0, "four J", 200),
    )
    assert scored_lines(scored, TWO, Lang.EN) == [
        "Scored for combinations: anna hundred five 100, two hundred 200; boris fifty 50, bella 20."
    ]
    assert scored_lines(scored, TWO, Lang.RU) == [
        "За комбинации: anna сто пять 100, двести 200; boris пятьдесят 50, белла 20."
    ]


def test_tertz_combinations_are_said_as_its_players_call_them() -> None:
    """Tertz records its runs and fours by shape ('run of 3 to 9c'); a player says
    «терц», «сто тузов» (a review: «3 подряд 20» is nobody's word)."""
    recorded = ["run of 3 to 9c", "run of 4 to Kh", "run of 8 to As", "four A", "four Q"]
    assert [combo_word(c, Lang.EN) for c in recorded] == [
        "terts",
        "fifty",
        "hundred eight",
        "hundred aces",
        "hundred queens",
    ]
    assert [combo_word(c, Lang.RU) for c in recorded] == [
        "терц",
        "пятьдесят",
        "сто восемь",
        "сто тузов",
        "сто дам",
    ]
    # another game's, without a name of its own: its shape
    assert combo_word("run of 9 to As", Lang.RU) == "9 подряд"
    assert combo_word("four 10", Lang.RU) == "четыре 10"


def test_the_whole_table_tells_the_talk_the_shown_cards_and_the_tricks() -> None:
    """'state' (and a resume, docs/protocol.md §12) told deal, dealer, score, trump and
    trick, not that a terts was declared, the fresa, or the tricks taken, which the
    machine state carries (talk=, shown=, fresa=, tricks=)."""
    deck = build_deck("7h 8h 9h 7s Js Qd Kh Qh 10c", "8s 9s 10s Jh Ad 9d Jc Qc Ac", "Ah")
    match = Match(build_ruleset(2), seed="t", dealer=1, decks={1: deck}, names=TWO)
    say(match, 0, "igrayu")
    say(match, 0, "terts")
    match.apply(0, parse_token("Qh"))
    say(match, 1, "rost?")
    say(match, 0, "ot-9-kozyrnogo")
    say(match, 1, "ot-10", "Jh")  # boris's terts is higher; he takes the trick
    say(match, 0, "pokazhi")
    say(match, 1, "pokazyvayu")
    whole = ev.Ask(30, 5, view(match, 0), None, kind=ev.AskKind.STATE, whole=True)
    said = [x.strip() for x in render(whole, HUMAN)]
    assert said[1] == "Trump: ♥ (anna plays). Turned: A♥. Fresa: K♣."
    assert " ".join(said[2:4]) == (
        "Talk: anna igrayu, anna terts, boris rost?, anna ot devyatki kozyrnogo,"
        " boris ot desyatki, anna pokazhi, boris pokazyvayu"
    )
    assert said[4:6] == ["Shown: boris 8♠ 9♠ 10♠", "Tricks taken: anna 0, boris 1."]
    ru = [x.strip() for x in render_ru(whole)]
    assert ru[1] == "Козырь: ♥ (играет anna). Открыта: Т♥. Фреза: К♣."
    assert ru[2].startswith("Разговор: anna играю, anna терц, boris рост?, ")
    assert ru[4:6] == ["Показано: boris 8♠ 9♠ 10♠", "Взято взяток: anna 0, boris 1."]
    # a request in play repeats none of it: the events told it as it happened
    asked = render(ev.Ask(30, 5, view(match, 1), 60500), HUMAN)
    assert not any(x.startswith(("Talk:", "Shown:", "Tricks taken:")) for x in asked)


def test_game_over_by_forfeit_names_who_lost_it() -> None:
    """A club tryout: three players at 0:0:0, one never answered, and the line said only
    'anna wins (timeouts)', not who ran out of time (nor why anna rather than boris)."""
    three = ("anna", "boris", "slowpoke")
    end = g.MatchEnded(0, ("anna",), "timeouts", (0, 0, 0), "s1", forfeit=2, match="m3")
    told = ev.TableEvent(9, 1, three, end)
    assert " ".join(x.strip() for x in render(told, HUMAN)) == (
        "Game over: anna wins (slowpoke let the clock run out too many times in a row:"
        " forfeit). Totals: anna 0, boris 0, slowpoke 0. Match m3."
    )
    assert " ".join(x.strip() for x in render_ru(told)) == (
        "Партия окончена: anna выигрывает (у игрока slowpoke вышло время: поражение)."
        " Итого: anna 0, boris 0, slowpoke 0. Партия m3."
    )
    left = ev.TableEvent(9, 1, three, end._replace(reason="left", forfeit=1))
    assert "(boris покидает стол: поражение)" in " ".join(x.strip() for x in render_ru(left))


def test_a_deal_a_forfeit_ended_tells_no_combinations_as_scored() -> None:
    """A tryout: 'history' showed a deal ended by 'leave!' as written 0, 0, then 'Scored
    for combinations: vanya bella 20' (its record keeps the count as it stood)."""
    declared = [{"seat": 0, "calls": ["bella"], "scored": [{"combo": "bella", "points": 20}]}]
    for outcome in ("left", "timeouts", "away"):
        assert ev.scored_in({"outcome": outcome, "declared": declared}) == (), outcome
    [counted] = ev.scored_in({"outcome": "made", "declared": declared})
    assert (counted.seat, counted.combo, counted.points) == (0, "bella", 20)


def test_a_swap_says_in_russian_what_lies_face_up_now() -> None:
    swap = ev.TableEvent(7, 4, TWO, g.CallMade(1, C.Call(C.MENYAYU)))
    assert render_ru(swap) == [
        "boris: меняю — берёт открытую карту, теперь открыта козырная семёрка."
    ]


def test_a_swap_the_table_told_names_the_card_face_up_and_the_machine_line_is_as_it_was() -> None:
    # a Deberts table and a Tertz one (its own words) say it alike
    tertz_words = table_words(build_ruleset(2, "tertz").call_aliases)
    swap = g.CallMade(1, C.Call(C.MENYAYU))
    for words in (NO_WORDS, tertz_words):
        told = ev.TableEvent(7, 4, TWO, swap, words=words, face_up=parse_card("7h"))
        assert render(told, HUMAN) == [
            "boris: menyayu — takes the turned card; 7♥ now lies face up."
        ]
        assert render_ru(told) == ["boris: меняю — берёт открытую карту, теперь открыта 7♥."]
        assert render(told, MACHINE) == ["event seq=7 table=4 kind=call seat=1 call=menyayu auto=0"]


def test_a_show_that_adds_to_one_before_says_every_card_face_up_now() -> None:
    """Tertz shows each card once: a fifty grown from a terts shown before was told
    as «показывает: 10♠», one card (a tryout, s28). With the table's ``shown_now``
    the line says what lies face up now; the machine line is the event's alone."""
    added = g.Shown(1, tuple(map(parse_card, ["10s"])))
    now = tuple(map(parse_card, ["10s", "Js", "Qs", "Ks"]))
    told = ev.TableEvent(9, 1, TWO, added, shown_now=now)
    assert render(told, HUMAN) == ["boris shows: 10♠ (face up now: 10♠ J♠ Q♠ K♠)"]
    assert render_ru(told) == ["boris показывает: 10♠ (теперь открыты: 10♠ В♠ Д♠ К♠)"]
    assert render(told, MACHINE) == ["event seq=9 table=1 kind=shown seat=1 cards=10s"]
    plain = ev.TableEvent(9, 1, TWO, added)
    assert render(plain, HUMAN) == ["boris shows: 10♠"]


def test_a_bide_says_whose_it_is() -> None:
    """Three players' bide line gave three players' points and not who ordered (a
    tryout, s28): «байд у игрока anna», 'bide for anna'; four players, his pair."""
    three = ("anna", "boris", "vera")
    bide = g.DealEnded(2, "bide", (36, 50, 46), (0, 66, 66), (0, 66, 66), 0, {"player": 0})
    told = ev.TableEvent(9, 1, three, bide)
    assert render(told, HUMAN)[0].startswith("Deal 2: bide for anna. Points: anna 36,")
    assert render_ru(told)[0].startswith("Раздача 2: байд у игрока anna. Очки: anna 36,")
    four = ("anna", "boris", "vera", "gleb")
    pairs = g.DealEnded(1, "bide", (60, 102), (0, 162), (0, 162), 0, {"player": 3})
    assert render(ev.TableEvent(9, 1, four, pairs), HUMAN)[0].startswith(
        "Deal 1: bide for boris+gleb."
    )
    assert render_ru(ev.TableEvent(9, 1, four, pairs))[0].startswith(
        "Раздача 1: байд у пары boris+gleb."
    )
    # a name is not declined: «у Вася» is wrong Russian, «у игрока Вася» is not
    cyrillic = ("Вася", "boris")
    bide_2 = g.DealEnded(2, "bide", (36, 50), (0, 86), (0, 86), 0, {"player": 0})
    assert render_ru(ev.TableEvent(9, 1, cyrillic, bide_2))[0].startswith(
        "Раздача 2: байд у игрока Вася."
    )
    made = g.DealEnded(1, "made", (100, 62), (100, 62), (100, 62), 0, {"player": 0})
    assert render(ev.TableEvent(9, 1, TWO, made), HUMAN)[0].startswith("Deal 1: made.")


def test_a_hanging_bide_says_whose_it_is_and_what_hangs() -> None:
    """A club evening of three: «Раздача 3: висит. Очки: anna 60, boris 30, vera 30»
    said neither whose points hang nor how many, which the next deal plays for (the
    bide line names its player since s28). «висячий байд у игрока anna, висит 60»."""
    three = ("anna", "boris", "vera")
    hanging = g.DealEnded(3, "hanging", (60, 30, 30), (0, 30, 30), (0, 30, 30), 60, {"player": 0})
    told = ev.TableEvent(9, 1, three, hanging)
    assert render(told, HUMAN)[0].startswith(
        "Deal 3: hanging bide for anna, 60 points hang. Points: anna 60,"
    )
    assert render_ru(told)[0].startswith(
        "Раздача 3: висячий байд у игрока anna, висит 60. Очки: anna 60,"
    )
    # two in a row: the next deal plays for both sums (docs/rules.md §5, variant A)
    again = g.DealEnded(4, "hanging", (40, 20, 20), (0, 20, 20), (0, 50, 50), 100, {"player": 1})
    assert render_ru(ev.TableEvent(9, 1, three, again))[0].startswith(
        "Раздача 4: висячий байд у игрока boris, висит 100."
    )
    assert render(ev.TableEvent(9, 1, three, again), MACHINE)[0].startswith(
        "event seq=9 table=1 kind=deal-end deal=4 outcome=hanging"
    )


def test_a_deal_that_wins_the_hanging_points_says_who_writes_them() -> None:
    """An evening of four read 'Deal 3: bide for vera+anna. Points: boris+gleb 123,
    vera+anna 79. Written: boris+gleb 283, …': 123 + 79 is 202, and nothing said that
    the 81 points hanging from the deal before were written too (docs/rules.md §5)."""
    four = ("boris", "vera", "gleb", "anna")
    record = {"player": 3, "hanging_before": 81, "notes": ["hanging 81 to the whistlers"]}
    bide = g.DealEnded(3, "bide", (123, 79), (283, 0), (513, 13), 0, record)
    told = ev.TableEvent(9, 1, four, bide)
    assert render(told, HUMAN)[-1] == "The 81 points that hung go to boris+gleb."
    assert render_ru(told)[-1] == "Висевшие очки (81) записаны: boris+gleb."
    made = {"player": 1, "hanging_before": 91, "notes": ["hanging 91 to side 1"]}
    deal = g.DealEnded(3, "made", (100, 102), (100, 193), (282, 284), 0, made)
    assert render(ev.TableEvent(9, 1, FOUR, deal), HUMAN)[-1] == (
        "The 91 points that hung go to boris+gleb."
    )
    # three players: the whistlers of a bide share them (docs/rules.md §8)
    three = ("anna", "boris", "vera")
    shared = {"player": 0, "hanging_before": 61, "notes": ["hanging 61 to the whistlers"]}
    split = g.DealEnded(2, "bide", (30, 60, 72), (0, 106, 117), (0, 106, 117), 0, shared)
    assert render(ev.TableEvent(9, 1, three, split), HUMAN)[-1] == (
        "The 61 points that hung are shared by the whistlers, boris and vera."
    )
    assert render_ru(ev.TableEvent(9, 1, three, split))[-1] == (
        "Висевшие очки (61) делят вистующие: boris и vera."
    )
    # the deal that leaves them hanging says nothing more than it did
    kept = g.DealEnded(4, "made", (90, 72), (90, 72), (90, 72), 81, {"hanging_before": 81})
    assert not any("hung" in x for x in render(ev.TableEvent(9, 1, FOUR, kept), HUMAN))
    assert not any("Висевшие" in x for x in render_ru(ev.TableEvent(9, 1, FOUR, kept)))


def test_hanging_points_shared_by_three_whistlers_are_listed_as_a_list() -> None:
    """The whistlers' names were joined with 'and' (' и ') between each two, the word
    chosen in place: three (four players, each for himself, as a plugin's game may
    seat them) read 'boris and vera and gleb'. A list says 'and' before its last only."""
    four = ("anna", "boris", "vera", "gleb")
    assert hung_said((90, (1, 2, 3)), four, 4, Lang.EN) == [
        "The 90 points that hung are shared by the whistlers, boris, vera and gleb."
    ]
    assert hung_said((90, (1, 2, 3)), four, 4, Lang.RU) == [
        "Висевшие очки (90) делят вистующие: boris, vera и gleb."
    ]


def test_the_options_questions_are_said_as_what_they_are_in_english() -> None:
    """A tryout (s30) read "house-heuristic-18 asks offer?: you answer." at a poltinniki
    table: the pending kind's token where the Russian screens say the offer and its
    answers. The English says them too: who may offer what, and how to answer."""
    deck = build_deck(*SIMPLE)
    match = Match(build_ruleset(2, options=["poltinniki"]), seed="q", dealer=1, decks={1: deck})
    match.names = TWO
    say(match, 0, "igrayu")

    def told(m: Match, seat: int | None) -> str:
        asked = ev.Ask(1, 1, view(m, seat), None, kind=ev.AskKind.STATE)
        return " ".join(x.strip() for x in render(asked, HUMAN))  # wrapped for 80 columns

    assert "boris may offer anna 50 points without play (predlagayu) or play on (igraem)." in (
        told(match, None)
    )
    assert "You may offer anna 50 points without play (predlagayu)" in told(match, 1)
    assert "boris may offer you 50 points without play" in told(match, 0)
    say(match, 1, "predlagayu")
    assert "boris offers you 50 points without play: answer prinimayu or igraem." in (
        told(match, 0)
    )
    assert "boris offers anna 50 points without play: anna answers prinimayu or igraem." in (
        told(match, None)
    )
    assert "You offer anna 50 points without play: anna answers" in told(match, 1)
    dave = Match(build_ruleset(2, options=["dave"]), seed="q", dealer=1, decks={1: deck})
    dave.names = TWO
    say(dave, 0, "igrayu", "dave")
    assert (
        "anna says dave: give up at stake 1 (sdayus) or play on for the next (prinimayu)."
        in told(dave, 1)
    )
    assert "anna says dave: boris gives up at stake 1 (sdayus) or plays on for the next" in (
        told(dave, None)
    )
    assert "You say dave: boris gives up at stake 1 (sdayus) or plays on" in told(dave, 0)
    for said in (told(match, 0), told(match, 1), told(dave, 0), told(dave, 1)):
        assert not re.search(r"asks (offer|dave)", said), said


def test_a_call_the_clock_made_is_marked_as_the_terminal_client_marks_it() -> None:
    """A tryout read '(clock)' over nc, '(by the clock)' in the terminal client and in
    docs/play.md: one mark, in each language as the client says it."""
    made = ev.TableEvent(7, 4, TWO, g.CardPlayed(0, parse_card("7s"), auto=True))
    english, russian = render(made, HUMAN)[0], render_ru(made)[0]
    assert english == "anna plays 7♠ (by the clock)"
    assert english.endswith(say_in_client(T.BY_THE_CLOCK, Lang.EN))
    assert russian.endswith(say_in_client(T.BY_THE_CLOCK, Lang.RU))


def test_a_short_games_end_says_its_reason_in_words_as_the_russian_line_does() -> None:
    """'Game over: boris wins (short).': the token where the Russian line said «короткая
    игра» (black-box evening s40, a dave game with a house bot); the gap of poltinniki
    and the stakes of to-9-stakes likewise."""
    said = {
        reason: render(
            ev.TableEvent(3, 1, TWO, g.MatchEnded(1, ("boris",), reason, (-1, 1), "s")), HUMAN
        )
        for reason in ("short", "gap", "stakes")
    }
    assert said == {
        "short": ["Game over: boris wins (short game). Totals: anna -1, boris 1."],
        "gap": ["Game over: boris wins (lead of 250). Totals: anna -1, boris 1."],
        "stakes": ["Game over: boris wins (stakes won). Totals: anna -1, boris 1."],
    }
    ru = render_ru(ev.TableEvent(3, 1, TWO, g.MatchEnded(1, ("boris",), "short", (-1, 1), "s")))
    assert ru == ["Партия окончена: boris выигрывает (короткая игра). Итого: anna -1, boris 1."]


def test_a_watched_tables_line_that_names_it_is_not_tagged_again() -> None:
    """'[стол 6] Стол 6, раздача 1' named the table twice (a tryout, s44): a line that
    opens with the table's own name keeps it alone; another table's ('Table 61') and
    every other line get the tag."""
    lines = ["Table 6, deal 1. Dealer: eva.", "Table 61 waits for players: -", "eva plays K♥"]
    assert tagged_lines(lines, 6) == [
        "Table 6, deal 1. Dealer: eva.",
        "[table 6] Table 61 waits for players: -",
        "[table 6] eva plays K♥",
    ]
    assert tagged_lines(["Стол 6, раздача 1.", "Ход игрока eva."], 6, Lang.RU) == [
        "Стол 6, раздача 1.",
        "[стол 6] Ход игрока eva.",
    ]
