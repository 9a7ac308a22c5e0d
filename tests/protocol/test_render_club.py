"""The club's lines (invitations, rematches, history, standings, finger, house bots) and
the engine's refusals with their detail, in both languages (docs/protocol.md §4.3c)."""

from __future__ import annotations

import re

import attrs

from clients.play.replies import history_text
from deberc_net.game.cards import parse_card
from deberc_net.game.errors import IllegalCall
from deberc_net.game.play import illegal_card_error
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import help_text
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import Msg, game_for, phrase
from deberc_net.protocol.refusals import refusal_phrase
from deberc_net.protocol.render import HUMAN, MACHINE, columns, for_people, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.protocol.wire import banner_protocol, parse_line
from deberc_net.server.table_views import history_deal

LATIN_WORD = re.compile(r"\b(?!mu\b|sigma\b|moscow\b|anna\b|boris\b|m7\b|m9\b)[A-Za-z]{2,}\b")
LATIN_CARD = re.compile(r"(?<![\w-])(?:10|[789JQKA])[♠♥♦♣shdc](?!\w)")


def _rated(rank: int, name: str, games: int) -> ev.Rated:
    return ev.Rated(rank, name, "moscow", 2, 21.25, 27.5, 2.08, games, games - 1, 1, 0)


def _russian(lines: list[str]) -> None:
    for text in lines:
        assert columns(text) <= 80, text
        assert not LATIN_WORD.search(text), text
        assert not LATIN_CARD.search(text), text


def test_top_and_finger_with_ratings_in_both_languages() -> None:
    top = ev.Top("moscow", 2, (_rated(1, "anna", 1), _rated(2, "boris", 12)), 2, 1, 1)
    assert render(top, HUMAN) == [
        "Standings: moscow for 2 players (2 rated).",
        "   1. anna                    21.2  1 game: 0 won, 1 lost, 0 drawn",
        "   2. boris                   21.2  12 games: 11 won, 1 lost, 0 drawn",
    ]
    ru = render_ru(top)
    assert ru == [
        "Рейтинг: moscow на двоих (в рейтинге: 2).",
        "   1. anna                    21,2  партий: 1 — побед 0, поражений 1, ничьих 0",
        "   2. boris                   21,2  партий: 12 — побед 11, поражений 1, ничьих 0",
    ]  # Russian writes a decimal comma; English and the machine lines a point
    assert " ".join(render(top, MACHINE)).count(" rating=21.2") == 2
    _russian(ru)
    finger = ev.Finger("anna", True, False, (_rated(3, "anna", 4),), ("m7", "m9"))
    assert render(finger, HUMAN) == [
        "anna: registered, not here. Last games: m7 m9.",
        "  moscow for 2 players: #3, rating 21.2 (mu 27.5, sigma 2.1)",
        "    4 games: 3 won, 1 lost, 0 drawn",
    ]
    ru = render_ru(finger)
    assert ru[0] == "anna: имя зарегистрировано, не на сервере. Последние партии: m7 m9."
    assert ru[1] == "  moscow на двоих: место 3, рейтинг 21,2 (μ 27,5, σ 2,1)"  # no Latin
    _russian(ru)
    more = ev.Top("moscow", 2, (_rated(1, "anna", 1),), 30, 1, 2)
    assert render_ru(more)[-1] == "(страница 1 из 2. Дальше: top 2.)"


def test_standings_name_the_game_for_three_not_a_count_of_players() -> None:
    """A club evening of three: `top` said `Standings: moscow, 2 players (0 rated)` and
    «Рейтинг: moscow, игроков: 2 (в рейтинге: 0)», read as two players, none of them
    rated, by the three who had just played. It names the game: for two, three, four."""
    for players, en, ru in (
        (2, "for 2 players", "на двоих"),
        (3, "for 3 players", "на троих"),
        (4, "for 4 players", "на четверых"),
    ):
        nobody = ev.Top("kharkov", players, (), 0, 1, 1)
        assert render(nobody, HUMAN) == [f"Standings: kharkov {en} (nobody rated yet)."]
        assert render_ru(nobody) == [f"Рейтинг: kharkov {ru} (в рейтинге пока никого)."]
        rated = attrs.evolve(_rated(1, "anna", 3), variant="kharkov", players=players)
        finger = ev.Finger("anna", True, True, (rated,), ("m7",))
        assert render(finger, HUMAN)[1].startswith(f"  kharkov {en}: #1, rating 21.2")
        assert render_ru(finger)[1].startswith(f"  kharkov {ru}: место 1, рейтинг 21,2")


def test_rematch_lines_in_both_languages() -> None:
    cases = [
        (
            ev.Rematch(4, ("anna",), ("boris",)),
            "Rematch of table 4 asked by anna, waiting for boris: 'rematch' to agree.",
            "Реванш за столом 4 просят: anna; ждём: boris. Согласны — наберите rematch.",
        ),
        (  # to one who asked already: where it stands, no invitation (a tryout)
            ev.Rematch(4, ("anna", "vika"), ("boris",), agreed=True),
            "Rematch of table 4 asked by anna, vika, waiting for boris.",
            "Реванш за столом 4 просят: anna, vika; ждём: boris.",
        ),
        (
            ev.Rematch(4, ("anna", "boris"), ()),
            "Everyone agrees: the rematch of table 4 starts.",
            "Все согласны: реванш за столом 4 начинается.",
        ),
        (
            ev.Rematch(4, ("anna",), ("boris",), ev.RematchOff.TIMEOUT),
            "The rematch of table 4 is off: not everyone asked in time.",
            "Реванша за столом 4 не будет: не все попросили вовремя.",
        ),
        (
            ev.Rematch(4, ("anna",), ("boris",), ev.RematchOff.LEFT, "boris"),
            "The rematch of table 4 is off: boris left.",
            "Реванша за столом 4 не будет: boris уже нет на сервере.",
        ),
        (
            ev.Rematch(4, ("anna",), ("boris",), ev.RematchOff.ELSEWHERE, "boris"),
            "The rematch of table 4 is off: boris went to another game.",
            "Реванша за столом 4 не будет: boris уже в другой партии.",
        ),
    ]
    for event, english, russian in cases:
        assert render(event, HUMAN) == [english]
        assert render_ru(event) == [russian]
    # the machine line is the same whoever is told it, bar its text
    pending, standing = (ev.Rematch(4, ("anna",), ("boris",), agreed=a) for a in (False, True))
    assert render(standing, MACHINE) == [
        "rematch table=4 asked=anna waiting=boris off=- by=- "
        "text=Rematch of table 4 asked by anna, waiting for boris."
    ]
    head = "rematch table=4 asked=anna waiting=boris off=- by=-"
    assert render(pending, MACHINE)[0].split(" text=")[0] == head


def test_a_house_bots_words_and_a_private_invitation_in_russian() -> None:
    comes = ev.ok("bot", phrase(Msg.BOT_COMES, name="house-search3-1", table=2))
    assert render(comes, HUMAN) == ["house-search3-1 comes to table 2."]
    assert render_ru(comes) == ["house-search3-1 идёт за стол 2."]
    gone = ev.info(phrase(Msg.BOT_GIVES_UP, name="house-random-2"))
    assert render_ru(gone) == ["house-random-2 не может играть дальше и освобождает место."]
    invited = ev.Invited("anna", 3, 2, "moscow", ("to-301",), True)
    assert render(invited, HUMAN) == [  # (wrapped at 80 columns)
        "anna invites you to private table 3 (moscow for 2 players, to-301): 'sit 3' to",
        "  play.",
    ]
    assert render_ru(invited) == [
        "anna зовёт вас за закрытый стол 3 (moscow на двоих, to-301): наберите sit 3."
    ]


def test_history_in_russian_names_the_outcome_and_cards_in_cyrillic() -> None:
    trick = ev.HistoryTrick(0, (parse_card("Js"), parse_card("As")), 1)
    deal = ev.HistoryDeal(1, 1, 0, 0, "bide", (0, 2), (trick,))
    void = ev.HistoryDeal(2, 0, None, None, "void", (0, 0), ())  # over with no trump set
    playing = ev.HistoryDeal(3, 1, None, None, None, None, ())
    history = ev.History(5, "m9", ("anna", "boris"), ((0,), (1,)), (deal, void, playing))
    assert render(history, HUMAN) == [
        "History of table 5 (m9): anna v boris",
        "Deal 1, boris deals, trump ♠ (anna): bide, anna 0, boris 2",
        "  1 anna J♠ boris A♠ > boris",
        "Deal 2, anna deals, no trump: redealt, anna 0, boris 0",
        "Deal 3, boris deals, no trump yet: being played",
    ]
    assert render_ru(history)[3:] == [
        "Раздача 2, сдаёт anna, без козыря: пересдача, anna 0, boris 0",
        "Раздача 3, сдаёт boris, козыря ещё нет: играется",
    ]
    assert render_ru(history)[:3] == [
        "История стола 5 (m9): anna — boris",
        "Раздача 1, сдаёт boris, козырь ♠ (anna): байд, anna 0, boris 2",
        "  1 anna В♠ boris Т♠ > boris",
    ]


def test_history_says_what_each_deals_declarations_scored() -> None:
    """A finished deal's combinations that counted (its record's declared[].scored,
    read by history_deal), under its line; a deal being played has none yet."""
    record = {
        "deal_no": 1,
        "dealer": 1,
        "trump": "s",
        "player": 0,
        "outcome": "made",
        "written": [83, 20],
        "tricks": [],
        "declared": [
            {"seat": 1, "calls": ["rost?"], "scored": []},
            {
                "seat": 0,
                "calls": ["pyatdesyat"],
                "scored": [{"combo": "pyatdesyat to As", "points": 50}],
            },
            {"seat": 0, "calls": ["bella"], "scored": [{"combo": "bella", "points": 20}]},
        ],
    }
    playing = ev.HistoryDeal(2, 0, None, None, None, None, ())
    history = ev.History(5, "m9", ("anna", "boris"), ((0,), (1,)), (history_deal(record), playing))
    assert render(history, HUMAN)[1:3] == [
        "Deal 1, boris deals, trump ♠ (anna): made, anna 83, boris 20",
        "    Scored for combinations: anna fifty 50, bella 20.",
    ]
    assert render_ru(history)[2] == "    За комбинации: anna пятьдесят 50, белла 20."
    assert len(render(history, HUMAN)) == 4  # and the deal being played: no such line
    # the machine line appends them (scored=, §5.17), for a client to say them too
    assert render(history, MACHINE)[1] == (
        "history-deal table=5 deal=1 dealer=1 trump=s player=0 outcome=made written=83,20"
        " tricks=0 scored=0:50:pyatdesyat_to_As,0:20:bella"
    )
    machine = [parse_line(x) for x in render(history, MACHINE)]
    assert history_text(machine, ("anna", "boris")) == render(history, HUMAN)


def test_history_says_who_wrote_the_points_that_hung_under_the_deal_that_won_them() -> None:
    """As the deal's end says it (docs/protocol.md §9.6): an evening of four read
    'bide, boris+gleb 283, vera+anna 0' in its history, 202 points played."""
    record = {
        "deal_no": 3,
        "dealer": 2,
        "trump": "d",
        "player": 3,
        "outcome": "bide",
        "written": [283, 0],
        "tricks": [],
        "declared": [],
        "hanging_before": 81,
        "notes": ["hanging 81 to the whistlers"],
    }
    names = ("boris", "vera", "gleb", "anna")
    history = ev.History(5, "m2", names, ((0, 2), (1, 3)), (history_deal(record),))
    assert render(history, HUMAN)[1:] == [
        "Deal 3, gleb deals, trump ♦ (anna): bide, boris+gleb 283, vera+anna 0",
        "    The 81 points that hung go to boris+gleb.",
    ]
    assert render_ru(history)[2] == "    Висевшие очки (81) записаны: boris+gleb."
    # the machine line appends them (hung=POINTS,SIDE, §5.17), for a client to say them
    assert render(history, MACHINE)[1] == (
        "history-deal table=5 deal=3 dealer=2 trump=d player=3 outcome=bide written=283,0"
        " tricks=0 hung=81,0"
    )
    machine = [parse_line(x) for x in render(history, MACHINE)]
    assert history_text(machine, names) == render(history, HUMAN)


def test_history_shows_the_trick_a_deal_ended_on_untaken() -> None:
    """A tryout: the end of a match forfeited mid-trick and its web replay showed the
    cards left on the table, 'history' only the tricks taken (docs/protocol.md §5.17)."""
    record = {
        "deal_no": 1,
        "dealer": 0,
        "trump": "h",
        "player": 1,
        "outcome": "left",
        "written": [0, 0],
        "tricks": [{"leader": 1, "cards": ["Kh", "7h"], "winner": 1}],
        "unfinished_trick": {"leader": 1, "cards": ["As"]},
    }
    history = ev.History(5, "m9", ("anna", "boris"), ((0,), (1,)), (history_deal(record),))
    human = render(history, HUMAN)
    assert human[-2:] == [
        "  1 boris K♥ anna 7♥ > boris",
        "    boris A♠: not taken, the deal ended there",
    ]
    assert render_ru(history)[-1] == "    boris Т♠: не взята, на этом раздача кончилась"
    assert render(history, MACHINE)[1].endswith(" tricks=1 unfinished_leader=1 unfinished=As")
    del record["unfinished_trick"]  # every trick taken: the line is as it was
    whole = ev.History(5, "m9", ("anna", "boris"), ((0,), (1,)), (history_deal(record),))
    assert render(whole, MACHINE)[1].endswith(" tricks=1")
    assert render(whole, HUMAN) == human[:-1]


def test_a_four_player_history_names_the_pairs_in_its_title() -> None:
    """The tryout's: 'four4 v house-heuristic-5 v house-heuristic-7 v …', four sides
    where the start line said two pairs."""
    names = ("anna", "boris", "olga", "vera")
    history = ev.History(5, "m9", names, ((0, 2), (1, 3)), ())
    assert render(history, HUMAN)[0] == "History of table 5 (m9): anna+olga v boris+vera"
    assert render_ru(history)[0] == "История стола 5 (m9): anna+olga — boris+vera"


def _refused(exc: IllegalCall, names: tuple[str, ...]) -> ev.Error:
    """The error the table sends for an engine refusal (server/table.py)."""
    said = refusal_phrase(exc.message, names)
    return ev.Error(exc.code, exc.message, for_people(exc.message, names), said)


def test_engine_refusals_keep_their_detail_in_russian() -> None:
    names = ("anna", "boris", "vera")
    hand = [parse_card(c) for c in ("7s", "Ks", "Ah")]
    trick = [(1, parse_card("9s"))]
    cases = [
        (
            IllegalCall("it is seat 2's turn"),
            "Error (illegal-call): it is vera's turn",
            "Ошибка (illegal-call): сейчас ход игрока vera",
        ),
        (
            IllegalCall("it is seat 1's turn to bid"),
            "Error (illegal-call): it is boris's turn to bid",
            "Ошибка (illegal-call): сейчас торгуется boris, а не вы",
        ),
        (
            illegal_card_error(hand, trick, 2, parse_card("Ah")),
            "Error (must-follow-suit): you hold ♠: follow suit",
            "Ошибка (must-follow-suit): у вас есть ♠: надо ходить в масть",
        ),
        (
            illegal_card_error(hand, trick, 2, parse_card("Qd")),
            "Error (illegal-card): Q♦ is not in your hand",
            "Ошибка (illegal-card): карты Д♦ у вас нет",
        ),
    ]
    for exc, english, russian in cases:
        error = _refused(exc, names)
        assert error.text == exc.message  # the machine style's text is the engine's
        assert render(error, HUMAN) == [english]
        assert render_ru(error) == [russian]
    # a seat the table does not name, or a sentence of another form: said by its code
    assert refusal_phrase("it is seat 7's turn", names) is None
    other = _refused(IllegalCall("a plugin's own reason"), names)
    assert other.said is None
    assert render_ru(ev.Error("must-trump", "you have no card of the led suit: play a trump")) == [
        "Ошибка (must-trump): масти нет — надо бить козырем"
    ]


def test_the_banner_tells_the_way_to_russian_on_a_second_line() -> None:
    hello = ev.Hello("0.1.0", "1")
    english, russian = render(hello, HUMAN)
    assert banner_protocol(english) == 1 and banner_protocol(russian) is None
    assert "lang ru" in russian and re.search("[а-я]", russian)
    assert all(columns(x) <= 80 for x in (english, russian))
    assert parse_line(russian).fields == {}  # a machine reader finds no field in it
    assert render(hello, MACHINE) == [  # the machine style's hello stays one line
        "hello server=deberc-net version=0.1.0 protocol=1 "
        "text=Deberts for people and bots. Type 'help'."
    ]


def test_a_stopped_match_in_games_says_why_in_both_languages() -> None:
    """A match its server did not finish (docs/protocol.md §5.11): no winner, and the
    reason in the reader's language."""
    games = ev.Games(
        "anna",
        tuple(
            ev.Game("m9", 3, ("anna", "boris"), "moscow", None, reason, (229, 327), "2026-12-02")
            for reason in ("shutdown", "server-lost")
        ),
    )
    assert [x.split("  ")[-1] for x in render(games, HUMAN)] == [
        "winner - (shutdown)",
        "winner - (server-lost)",
    ]
    ru = render_ru(games)
    assert "сервер остановлен" in ru[-2] and "сервер потерян" in ru[-1]


def test_a_four_player_game_in_games_names_the_pairs() -> None:
    """The tryout's 'games' line read 'four4 v h1 v h2 v h3 … winner h1,h3': four
    opponents, where the start line, history and sheet say two pairs."""
    players = ("anna", "boris", "olga", "vera")  # by seat: 0+2 against 1+3
    game = ev.Game("m4", 4, players, "moscow", "boris,vera", "left", (0, 0), "2026-12-04")
    text = " ".join(x.strip() for x in render(ev.Games("anna", (game,)), HUMAN))  # wrapped
    assert "  anna+olga v boris+vera  0:0  winner boris+vera (left)" in text
    ru = " ".join(x.strip() for x in render_ru(ev.Games("anna", (game,))))
    assert "  anna+olga — boris+vera  0:0  победа: boris+vera (" in ru
    # three players stay three sides
    three = ev.Game("m5", 5, ("anna", "boris", "olga"), "moscow", "olga", "target", (1, 2, 3), "t")
    (text,) = render(ev.Games("anna", (three,)), HUMAN)
    assert "  anna v boris v olga  1:2:3  winner olga (target)" in text


def test_games_names_who_forfeited() -> None:
    """A forfeit's line read 'winner anna (away)', not saying who was away: the seat
    that forfeited is kept (match-end's forfeit) and named after the reason."""
    game = ev.Game("m7", 7, ("anna", "boris"), "moscow", "anna", "away", (12, 40), "t", 1)
    assert render(ev.Games("anna", (game,)), HUMAN) == [
        "t  m7  table 7  anna v boris  12:40  winner anna (away: boris)"
    ]
    assert render_ru(ev.Games("anna", (game,)))[0].endswith("(нет связи: boris)")
    assert render(ev.Games("anna", (game,)), MACHINE)[1].endswith(" finished=t forfeit=1")
    older = attrs.evolve(game, forfeit=None)  # stored before forfeits were kept
    assert render(ev.Games("anna", (older,)), HUMAN)[0].endswith("winner anna (away)")
    assert "forfeit" not in render(ev.Games("anna", (older,)), MACHINE)[1]


def test_games_names_each_match_by_its_id() -> None:
    """'games' showed a match's table and players but not its id, which 'finger' lists
    and its replay (/games/ID, docs/web.md) is found by."""
    game = ev.Game("m1", 1, ("anna", "boris"), "moscow", "boris", "claim", (83, 301), "2026-12-04")
    assert render(ev.Games("anna", (game,)), HUMAN) == [
        "2026-12-04  m1  table 1  anna v boris  83:301  winner boris (target mid-deal)"
    ]
    assert render_ru(ev.Games("anna", (game,)))[0].startswith("2026-12-04  m1  стол 1  anna")
    # and 'help games' says where a match is replayed
    assert "/games/m12 on the server's web pages" in " ".join(x.strip() for x in help_text("games"))
    assert "/games/m12 на веб-страницах сервера" in " ".join(help_text("games", lang=Lang.RU))


def test_tables_tells_a_running_matchs_deal_and_score_by_side() -> None:
    """A running table's line names its deal and each side's score (the machine line is
    as it was: docs/protocol.md §5.2)."""
    seats = ("anna", "boris", "olga", "vera")
    playing = ev.TableInfo(
        38, 4, "moscow", (), seats, ev.TableState.PLAYING, 0, False, 3, (120, 85)
    )
    waiting = ev.TableInfo(39, 2, "moscow", (), ("gleb", None), ev.TableState.WAITING, 0)
    tables = ev.Tables((playing, waiting), 2)
    assert render(tables, HUMAN) == [
        "Table 38: moscow for 4 players, playing deal 3: anna+olga 120, boris+vera 85",
        "Table 39: moscow for 2 players, waiting: gleb, (free)",
    ]
    assert render_ru(tables)[0] == (
        "Стол 38: moscow на четверых, играют, раздача 3: anna+olga 120, boris+vera 85"
    )
    assert render(tables, MACHINE)[1] == (
        "table id=38 players=4 variant=moscow options= seats=anna,boris,olga,vera"
        " state=playing observers=0"
    )


def test_a_tables_line_marks_a_seat_whose_player_is_away() -> None:
    """A full table waiting for an away player (docs/protocol.md §12) says whom; a
    running one too. The machine line appends ``away`` only when someone is."""
    full = ev.TableInfo(
        5, 3, "moscow", (), ("bob", "ann", "carl"), ev.TableState.WAITING, 0, private=True,
        away=(1,),
    )  # fmt: skip
    playing = ev.TableInfo(
        6, 2, "moscow", (), ("gleb", "ira"), ev.TableState.PLAYING, 0, False, 2, (40, 12),
        away=(0, 1),
    )  # fmt: skip
    tables = ev.Tables((full, playing), 2)
    assert render(tables, HUMAN) == [
        "Table 5 (private): moscow for 3 players, waiting: bob, ann (away), carl",
        "Table 6: moscow for 2 players, playing deal 2: gleb (away) 40, ira (away) 12",
    ]
    assert render_ru(tables)[0] == (
        "Стол 5 (закрытый): moscow на троих, ждёт игроков: bob, ann (нет связи), carl"
    )
    # partners: 'anna+vera (away) 182' read as the pair away (an evening of four)
    pairs = ev.TableInfo(
        7, 4, "kharkov", (), ("anna", "boris", "vera", "gleb"), ev.TableState.PLAYING, 0,
        False, 2, (182, 0), away=(2,),
    )  # fmt: skip
    assert render(ev.Tables((pairs,), 1), HUMAN) == [
        "Table 7: kharkov for 4 players, playing deal 2: anna+vera 182, boris+gleb 0",
        "  (away: vera)",
    ]
    assert render_ru(ev.Tables((pairs,), 1))[-1] == "  (нет связи: vera)"
    assert render(tables, MACHINE)[1:] == [
        "table id=5 players=3 variant=moscow options= seats=bob,ann,carl state=waiting"
        " observers=0 private=1 away=ann",
        "table id=6 players=2 variant=moscow options= seats=gleb,ira state=playing"
        " observers=0 away=gleb,ira",
    ]


def test_a_long_history_heading_keeps_each_side_with_its_points() -> None:
    """A club tryout (s31): four long names wrapped a deal's heading so that the last
    side's points stood alone on the next line ('0'); a label keeps its number, at
    whatever length the names make the line."""
    trick = ev.HistoryTrick(0, (parse_card("Js"), parse_card("As")), 1)
    deal = ev.HistoryDeal(3, 2, 0, 1, "made", (162, 0), (trick,))
    alone = []
    for extra in range(40):  # the line broken at every place in turn
        names = ("vasya" + "v" * extra, "anna", "oksana1", "boris")
        history = ev.History(7, "m12", names, ((0, 2), (1, 3)), (deal,))
        for lines in (render(history, HUMAN), render_ru(history)):
            alone += [x for x in lines if re.fullmatch(r"\s*\d+", x)]
            assert all(columns(x) <= 80 for x in lines), lines
    assert alone == []


def test_a_game_for_a_count_without_a_word_of_its_own_is_named_too() -> None:
    """A plugin's game may be for more players than Deberts has words for ('на двоих'):
    named with the count, not a KeyError in 'tables' (game_for, s47)."""
    assert game_for(2).text(Lang.EN) == "for 2 players"
    assert (game_for(6).text(Lang.EN), game_for(6).text(Lang.RU)) == (
        "for 6 players",
        "для 6 игроков",
    )
