"""``deberc-net play --lang ru``: the client's Russian face (docs/play.md, "Language").

The panes, the prompt, the log and the server's sentences on wire lines alone (the
machine style's English read back into Russian by the server's catalogue), then a
whole match typed through the real app in Russian against a real server.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

from clients.play.app import PlayApp, RussianPlayApp, other_lang, play_app
from clients.play.draw import hand_text, legal_text, log_text, score_text, table_text
from clients.play.entry import asked_in, candidates, token_of
from clients.play.state import TableState, fold_all
from clients.play.texts import TEXTS, T, lang_from, lang_of, say
from clients.play.words import words_for
from deberc_net.protocol.lang import CYRILLIC, Lang, ru_call
from deberc_net.protocol.messages import Msg, phrase
from deberc_net.protocol.read_back import russian
from deberc_net.protocol.wire import EventKind, parse_line

from .pilot import answered, complete_and_send, enter, running, until
from .server import ServerThread

# after each key, a wait till the app has handled it, not for idleness (conftest.py)
pytestmark = pytest.mark.usefixtures("settled_keys")

# a two-player deal as the server sends it (docs/protocol.md §15.2), seat 0's view
START = [
    "ok cmd=login name=b1 guest=1 token=Tok123 text=Hello, b1 (guest). 1 table, 2 players"
    " here. 'tables', 'new', 'sit N', 'seek', 'help'.",
    "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0.",
    "event seq=1 table=3 kind=seated name=b1 seat=0",
    "event seq=2 table=3 kind=seated name=b2 seat=1",
    "event seq=3 table=3 kind=start players=b1,b2 match=m3",
    "event seq=4 table=3 kind=deal deal=1 dealer=0 turned=Ad score=0,0 hanging=0",
    "event seq=5 table=3 kind=call seat=1 call=ot-Q auto=0",
    "ask seq=5 table=3 deal=1 phase=bidding seat=0 dealer=0 to_act=0 "
    "hand=8h,Jh,Qh,Kh,7d,Ad turned=Ad fresa=- trump=- player=- round=1 leader=1 trick= "
    "tricks=0,0 score=0,0 hanging=0 target=301 pending=- shown= talk=1:ot-Q clock=10500 "
    "legal=pas,igrayu,ot-K,Ad players=2",
]
PLAYED = [
    "event seq=6 table=3 kind=call seat=0 call=igrayu auto=0",
    "event seq=7 table=3 kind=order player=0 trump=d first=1 fresa=10c",
    "event seq=8 table=3 kind=play seat=1 card=Ac auto=1",
    "event seq=9 table=3 kind=play seat=0 card=Qh auto=0",
    "event seq=10 table=3 kind=trick winner=1 cards=Ac,Qh",
    "event seq=11 table=3 kind=deal-end deal=1 outcome=bide written=0,162 totals=0,162",
    "event seq=12 table=3 kind=match-end winner=1 name=b2 reason=left forfeit=0 totals=0,162 "
    "match=m3",
]


def russian_state(lines: list[str]) -> TableState:
    return fold_all(lines, TableState(lang=Lang.RU))


def test_the_panes_speak_russian_with_cyrillic_ranks() -> None:
    state = russian_state(START)
    assert table_text(state, 8400).splitlines() == [
        "Стол 3, раздача 1: b1* — b2",
        "Сдаёт: b1   Игра до: 301",
        "Открыта: Т♦  Фреза: -  Козырь: -",
        "Разговор: b2 от дамы",
        "Взятка: -",
        "Прошлая: -",
        "Ход:    ВАШ (b1), осталось 8 с",
    ]
    assert hand_text(state) == "Рука:   ♥ 8 В Д К   ♦ 7 Т"
    # the calls as the Russian human style says them, the cards with В Д К Т
    assert legal_text(state) == "Ваш ход: пас | играю | от короля | Т♦"
    assert score_text(state).splitlines() == ["Счёт", "Разд      b1     b2", "Итог       0      0"]
    # the same lines in English are as they always were
    english = fold_all(START)
    assert legal_text(english) == "Your call: pas | igrayu | ot korolya | A♦"
    assert hand_text(english) == "Hand:   ♥ 8 J Q K   ♦ 7 A"


def test_the_log_says_the_deal_and_the_match_end_in_russian() -> None:
    state = russian_state(START + PLAYED)
    assert state.log[:6] == (
        # the server's greeting and 'sit', read back from their English
        "Здравствуйте, b1 (гость). Столов: 1, игроков здесь: 2. Команды: tables, new, sit N,"
        " seek, help.",
        "Вы за столом 3, место 0.",
        # not 'b1 садится на место 0' too: the line above said it (a tryout read both)
        "b2 садится на место 1",
        "партия начинается: b1 — b2",
        "раздача 1: сдаёт b1",
        "b2: от дамы",
    )
    assert state.log[6:] == (
        "b1: играю",
        "b1 играет, козырь ♦",
        "b2 ходит Т♣ (по часам)",
        "b2 берёт Т♣ Д♥",
        "раздача 1: байд, записано 0 : 162, итого 0 : 162",
        "Партия окончена: b2 выигрывает, набрав 162 (b1 покидает стол: поражение), итого 0 : 162,"
        " партия m3",
    )
    assert state.result is not None and state.result.startswith("Партия окончена: b2")
    assert score_text(state).splitlines()[2].startswith("  1б ")  # байд, by its letter


# a man's past tense of what a player did: said of a woman too, so never (the server's
# own texts are held to the same: docs/protocol.md §4.3c)
MASCULINE = re.compile(
    r"(?<![а-яё])(?:выиграл|проиграл|взял|закрыл|открыл|сел|ушёл|пришёл|вернулся|"
    r"отключился|показал|сказал|объявил|заказал|сдал|спросил|попросил)(?![а-яё])",
    re.IGNORECASE,
)


def test_nothing_the_client_says_of_a_player_fits_a_man_only() -> None:
    assert [ru for _, ru in TEXTS.values() if MASCULINE.search(ru)] == []
    # a short game's deal, named by its winner, and the last trick's taker: «выиграл
    # b2», «взял b2» were said of anyone
    state = russian_state(
        [
            *START,
            "tables count=1 total=1 page=1 pages=1",
            "table id=3 players=2 variant=moscow options=short seats=b1,b2 state=playing"
            " observers=0",
            "event seq=6 table=3 kind=call seat=0 call=igrayu auto=0",
            "event seq=7 table=3 kind=order player=0 trump=d first=1 fresa=10c",
            "event seq=8 table=3 kind=deal-end deal=1 outcome=bide points=72,90 written=-1,1"
            " totals=-1,1 hanging=0",
            "last table=3 deal=1 leader=0 winner=1 cards=Qh,Ac",
        ]
    )
    assert state.log[-2:] == (
        "раздача 1: победитель — b2, записано -1 : 1, итого -1 : 1",
        "прошлая взятка (раздача 1): b1 Д♥  b2 Т♣; взятку берёт b2",
    )


def test_the_russian_trump_line_keeps_its_player_whole_at_80_columns() -> None:
    """«Открыта: 10♠   Фреза: 10♥   Козырь: ♠ (играет das~34)» is 53 columns, the pane
    51 (80×24) and the name already in its one short form: the line was cut, «(играет
    das~34» (a tryout, s34). The Russian labels are longer than the English: two spaces
    between them keep the line within the pane."""
    view = (
        "ask seq=9 table=3 deal=1 phase=play seat=0 dealer=1 to_act=0 hand=8h,Jh,Qh,Kh,7d "
        "turned=10s fresa=10h trump=s player=0 round=1 leader=0 trick= tricks=0,0 "
        "score=0,0 hanging=0 target=501 pending=- shown= talk=0:igrayu clock=60000 "
        "legal=8h,Jh,Qh,Kh,7d players=2"
    )
    long = [line.replace("b1", "dasha34").replace("b2", "house-heuristic-4") for line in START]
    state = russian_state([*long[:6], view])
    turned = table_text(state).splitlines()[2]
    assert turned == "Открыта: 10♠  Фреза: 10♥  Козырь: ♠ (играет das~34)", turned
    assert len(turned) <= 51


def test_refusals_and_notices_are_read_back_through_the_catalogue() -> None:
    state = russian_state(
        [
            *START,
            # an engine refusal (protocol/refusals.py), seats named
            "error code=not-your-turn text=it is seat 1's turn",
            # a catalogue sentence, with a command's hint (the human style's)
            "error code=unknown-command command_hint=tables text='tabels' is not a command,"
            " and you sit at no table. Type 'help'.",
            # a mistyped call's likely meaning, said as a Russian player says it
            "error code=unknown-command hint=ot-K text=not a table call: 'ot korlya'. Type"
            " 'help' or 'calls'.",
            # none of the server's sentences: as it came
            "error code=bad-argument text=something the catalogue never said",
            "info closed=3 text=Table 3 closes: SIGTERM received.",
        ]
    )
    assert state.log[-5:] == (
        "! сейчас ход игрока b2",
        "! «tabels» — не команда, а за столом вы не сидите. Наберите help. Может быть, tables?",
        "! «ot korlya» — не ход и не заявка. Наберите help или calls. Может быть, «от короля»?",
        "! something the catalogue never said",
        "Стол 3 закрывается: получен сигнал SIGTERM.",
    )
    assert state.table is None  # the table closing still takes the pane


def test_a_refused_card_is_written_with_the_russian_letters() -> None:
    """The engine's refusal names a card ('Qs is not in your hand'): read back by its
    form, it said «карты Q♠ у вас нет» (a tryout, s34), where the hand, the prompt and
    the server's own Russian lines write В Д К Т."""
    state = russian_state(
        [
            *START,
            "error code=illegal-card text=Qs is not in your hand",
            "error code=not-allowed text=you may not play Jh now",
        ]
    )
    assert state.log[-2:] == ("! карты Д♠ у вас нет", "! сейчас ходить В♥ нельзя")


def test_a_word_that_is_no_call_is_refused_in_russian() -> None:
    """At a table the machine style refuses a word that is no call in English ('not a
    table call: …', its catalogue sentence made of the reason): the Russian client showed
    it so, half English (a tryout, s34); the catalogue's Russian names the word."""
    state = russian_state(
        [
            *START,
            "error code=unknown-command text=not a table call: 'хрень'. Type 'help' or 'calls'.",
            "error code=unknown-command text=not a table call: \"it's\". Type 'help' or 'calls'.",
            "error code=unknown-command text=not a table call here: 'skin'. Type 'help' or"
            " 'calls'.",
            # a call's word read wrong: its reason, as the server's Russian says it (s43)
            "error code=unknown-command text=name a suit: igrayu s|h|d|c (got 'играю зз')."
            " Type 'help' or 'calls'.",
            "error code=unknown-command text=not a rank: 'зз' (7 8 9 10 J Q K A, or korolya,"
            " tuza ...). Type 'help' or 'calls'.",
        ]
    )
    assert state.log[-5:] == (
        "! «хрень» — не ход и не заявка. Наберите help или calls.",
        "! «it's» — не ход и не заявка. Наберите help или calls.",
        "! «skin» за этим столом не ход и не заявка: так говорят за столами с другими"
        " опциями (help skin скажет, с какими). Наберите help или calls.",
        "! назовите масть: играю п|ч|б|к, или ♠ ♥ ♦ ♣, или играю черви (набрано «играю"
        " зз»). Наберите help или calls.",
        "! «зз» — не достоинство карты (7 8 9 10 В Д К Т, или короля, туза …). Наберите"
        " help или calls.",
    )


@pytest.mark.parametrize(
    "said",
    [
        phrase(Msg.LEAVE, table=4),
        phrase(Msg.OBSERVE, table=12),
        phrase(Msg.TABLE_CLOSES, table=3, reason=phrase(Msg.PLAYERS_LEFT)),
        phrase(
            Msg.MATCH_STOPPED,
            table=3,
            match="m7",
            reason=phrase(Msg.SIGNAL_RECEIVED, signal="SIGTERM"),
        ),
        phrase(
            Msg.SIT,
            table=2,
            seat=1,
            others=phrase(Msg.SIT_OTHERS, names=(phrase(Msg.SEAT_OF, name="guest", seat=0),)),
        ),
        phrase(Msg.NOT_A_COMMAND, word="tabels"),
    ],
)
def test_a_sentence_of_the_catalogue_reads_back_as_its_russian(said: object) -> None:
    assert isinstance(said, type(phrase(Msg.LEAVE)))
    # (a player called 'guest' stays so: a name is never read as a sentence)
    assert russian(said.text()) == said.text(Lang.RU)


def test_a_text_of_no_sentence_has_no_russian() -> None:
    assert russian("hello there, anyone?") is None
    assert russian("") is None


def test_tab_offers_the_russian_words_and_the_latin_tokens() -> None:
    legal = ("pas", "igrayu", "ot-K", "As", "10s")
    assert candidates("", legal, Lang.RU)[:5] == ["пас", "играю", "от короля", "Т♠", "10♠"]
    assert candidates("и", legal, Lang.RU) == ["играю"]
    assert candidates("pa", legal, Lang.RU) == [
        "pas",
        "password",
    ]  # Latin still completes, a call first
    assert candidates("т", legal, Lang.RU) == ["Т♠"]
    # English as it was: the tokens, then the commands
    assert candidates("", legal)[:5] == list(legal)
    tertz = words_for("tertz")  # a Tertz table: its own words
    assert candidates("ло", ("lomayu-6",), Lang.RU, tertz) == ["ломаю 6"]


def test_a_call_typed_as_the_russian_prompt_shows_it_goes_as_its_token() -> None:
    legal = ("As", "10s", "ot-A", "pas")
    # the machine style would ask whether a Cyrillic Т is the ten or the ace
    assert token_of("Т♠", legal) == "As"
    assert token_of("от  туза", legal) == "ot-A"
    assert token_of("ПАС", legal) == "pas"
    assert token_of("pas", legal) == "pas"
    assert token_of("10♠", legal) == "10s"
    assert token_of("say Т♠", legal) == "say Т♠"


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "ru_RU.UTF-8"}, Lang.RU),
        ({"LANG": "uk_UA.UTF-8"}, Lang.RU),
        ({"LC_ALL": "ru_UA.utf8", "LANG": "en_US.UTF-8"}, Lang.RU),
        ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, Lang.EN),  # LC_ALL comes first
        ({"LC_MESSAGES": "ru_RU", "LANG": "de_DE"}, Lang.RU),
        ({"LANG": "en_GB.UTF-8"}, Lang.EN),
        ({}, Lang.EN),
    ],
)
def test_the_language_by_the_locale(environ: dict[str, str], lang: Lang) -> None:
    assert lang_from(environ) == lang
    assert lang_of(None, environ) == lang
    assert lang_of("en", environ) == Lang.EN and lang_of("ru", environ) == Lang.RU
    assert play_app(lang_of(None, environ)) is (RussianPlayApp if lang == Lang.RU else PlayApp)


def test_the_log_scrolled_back_says_so_in_russian() -> None:
    log = tuple(f"строка {i}" for i in range(30))
    assert log_text(log, 40, 5, back=10, lang=Lang.RU).splitlines()[-1] == (
        "-- ниже ещё строк: 10, PgDn --"
    )


# ------------------------------------------------------------------ the whole app


async def choose(pilot: Pilot[None], app: PlayApp) -> str:
    """Pick a call as a Russian player: «играю» when offered, else the first legal call,
    each as the prompt says it; typed with its first letter (Cyrillic) and Tab."""
    token = "igrayu" if "igrayu" in app.state.legal else app.state.legal[0]
    return await complete_and_send(pilot, app, ru_call(token))


@pytest.mark.timeout(120)
def test_a_whole_match_typed_through_the_client_in_russian(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "db.sqlite3") as server:
        server.opponent("rival", "seek 2 moscow short")
        asyncio.run(asyncio.wait_for(_whole_match(server), 100))
        assert not server.errors, server.errors


async def _whole_match(server: ServerThread) -> None:
    app = RussianPlayApp("127.0.0.1", server.port)
    async with running(app) as pilot:
        await until(pilot, lambda: any("deberc-net" in line for line in app.state.log), "banner")
        assert app.pane("status").text.endswith("вход не выполнен")
        await enter(pilot, "login tuiplayer")
        await until(pilot, lambda: app.state.name == "tuiplayer", "login")
        assert app.state.log[-1].startswith("Здравствуйте, tuiplayer (гость).")
        assert f"код {app.state.token}" in app.pane("status").text
        await enter(pilot, "seek 2 moscow short")
        await until(pilot, lambda: app.state.table is not None, "seat")
        calls = 0
        while app.state.result is None:
            await until(
                pilot, lambda: app.state.asking or app.state.result is not None, "request or end"
            )
            if app.state.result is not None:
                break
            table = app.pane("table").text.splitlines()
            assert table[0].startswith(f"Стол {app.state.table}, раздача ")
            assert "Ход:    ВАШ (tuiplayer), осталось" in app.pane("table").text
            hand = app.pane("hand").text
            assert hand.startswith("Рука:") and not set("JQKA") & set(hand), hand
            assert app.pane("legal").text.startswith("Ваш ход: ")
            asked = app.state.seq
            await choose(pilot, app)
            calls += 1
            await until(pilot, answered(app, asked), "the call's answer")
            assert not any(line.startswith("! ") for line in app.state.log), app.state.log
        assert calls > 5
        ends = [parse_line(line) for line in server.opponent_lines]
        match_end = next(e for e in ends if e.kind == EventKind.MATCH_END)
        score = app.pane("score").text.splitlines()
        assert score[0] == "Счёт"
        assert score[-1].split() == ["Итог", *map(str, match_end.get_ints("totals"))]
        assert app.state.result is not None and app.state.result.startswith("Партия окончена:")
        assert any(line.startswith("раздача 1: сдаёт ") for line in app.state.log)
        await pilot.press("f10")  # quit: the server says bye and the app ends
        await until(pilot, lambda: not app.is_running, "exit")


def test_help_calls_and_rules_are_asked_in_russian() -> None:
    """The machine style sends them in English, and they are none of the catalogue's
    sentences to read back: the client asks them in Russian (docs/protocol.md §4.4)."""
    assert asked_in("help", Lang.RU) == "help lang=ru"
    assert asked_in("Rules 3", Lang.RU) == "Rules 3 lang=ru"
    assert asked_in("calls lang=en", Lang.RU) == "calls lang=en"  # asked otherwise: as typed
    assert asked_in("help", Lang.EN) == "help"
    assert asked_in("say help", Lang.RU) == "say help"


@pytest.mark.timeout(60)
def test_help_calls_and_rules_come_in_russian_from_a_real_server(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "db.sqlite3") as server:
        asyncio.run(asyncio.wait_for(_explained(server), 45))
        assert not server.errors, server.errors


async def _explained(server: ServerThread) -> None:
    app = RussianPlayApp("127.0.0.1", server.port, name="lena")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.name == "lena", "login")
        await pilot.press("f1")
        await until(pilot, lambda: "Команды здесь:" in app.state.log, "help in Russian")
        assert "Commands here:" not in app.state.log
        for typed in ("rules", "calls"):  # typed: kept in the history as typed
            await enter(pilot, typed)

            def in_history(typed: str = typed) -> bool:
                return app.history.lines[-1] == typed

            await until(pilot, in_history, "history")
        await until(pilot, lambda: "Варианты и опции для new и seek:" in app.state.log, "rules")
        await until(pilot, lambda: any("рост? (rost?)" in x for x in app.state.log), "calls")


@pytest.mark.timeout(60)
def test_the_russian_clients_rules_are_russian_line_by_line(tmp_path: Path) -> None:
    """Every line the Russian client shows for 'rules', in the lobby and at a table
    with a third-party option that brings no Russian summary (the example posled-20):
    Russian. Its English summary came as a line with no Russian word in it (s45); it
    is said now to be English, in Russian (docs/protocol.md §5.9)."""
    with ServerThread(tmp_path / "db.sqlite3") as server:
        asyncio.run(asyncio.wait_for(_rules_read(server), 45))
        assert not server.errors, server.errors


async def _rules_read(server: ServerThread) -> None:
    app = RussianPlayApp("127.0.0.1", server.port, name="lena")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.name == "lena", "login")
        await enter(pilot, "rules")
        await until(pilot, lambda: any("to-9-stakes" in x for x in app.state.log), "the list")
        await enter(pilot, "new 2 posled-20")
        await until(pilot, lambda: app.state.table is not None, "the table")
        before = len(app.state.log)
        await enter(pilot, "rules")
        await until(pilot, lambda: any("Часы:" in x for x in app.state.log[before:]), "clock")
        table = "\n".join(app.state.log[before:]).splitlines()
        assert table[0].startswith("Стол ") and "posled-20" in table[0], table
        listed = "\n".join(app.state.log[:before]).splitlines()
        listed = listed[next(i for i, x in enumerate(listed) if x.startswith("Варианты")) :]
        for lines in (listed, table):
            english = [x for x in lines if not CYRILLIC.search(x)]
            assert english == [], english
        assert any(x.startswith("posled-20: по-английски (") for x in table), table


@pytest.mark.timeout(60)
def test_the_command_palette_is_english_only_and_not_in_the_footer() -> None:
    """Textual's command palette (^p) speaks English only (a tryout read `^p palette` on
    a Russian screen): the Russian app has none; the English one opens it with Ctrl+P,
    but its key is not in the footer, where it docked over F10 and Ctrl+R at 80
    columns (tests/play/test_footer.py)."""
    asyncio.run(asyncio.wait_for(_footers(), 50))


async def _footers() -> None:
    for app_class, palette in ((RussianPlayApp, False), (PlayApp, True)):
        app = app_class("127.0.0.1", 1)  # (no server: the panes and keys only)
        async with running(app) as pilot:
            await pilot.pause()
            # FooterKey's own field: textual exports no type for it (textual.widgets._footer)
            words = [str(key.description) for key in app.query("FooterKey")]  # type: ignore[attr-defined]
            assert "palette" not in words, words
            if not palette:
                assert all(CYRILLIC.search(word) for word in words), words
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert (type(app.screen).__name__ == "CommandPalette") is palette


SEEKING = [
    "ok cmd=login name=misha guest=1 token=T text=Hello, misha (guest).",
    "ok cmd=seek players=2 variant=moscow options=to-301 text=Waiting for a moscow game for 2 "
    "players (to-301).",
]


def test_the_lobby_pane_says_the_wait_of_a_seek_and_how_to_end_it() -> None:
    """A tryout (Russian, F7 after a match) waited with the lobby pane still offering
    'seek 2 — ждать партию…', as if nothing waited, and no word of 'unseek'. The pane
    says the wait now, and how to stop it; 'unseek' and a seat end it."""
    state = russian_state(SEEKING)
    lobby = table_text(state).splitlines()
    assert lobby == [
        "Вы в лобби.",
        "Ждём партию: moscow на двоих (to-301).",
        "unseek — перестать ждать; tables — столы.",
    ]
    assert all(len(line) <= 51 for line in lobby)
    stopped = russian_state([*SEEKING, "ok cmd=unseek text=You no longer wait for a game."])
    assert table_text(stopped).splitlines()[1].startswith("seek 2 — ждать партию")
    seated = russian_state([*SEEKING, "ok cmd=sit table=2 seat=1 text=You sit at table 2, seat 1."])
    assert seated.seeking is None and table_text(seated).startswith("Стол 2")
    left = fold_all(["ok cmd=leave text=You leave table 2."], seated)
    assert table_text(left).splitlines()[1].startswith("seek 2 — ждать партию")


def test_round_two_is_told_as_the_server_and_the_sources_say_it() -> None:
    """The log said «все пасовали: второй круг торговли …» (a tryout, s50) where the
    server says «Все спасовали: второй круг торговли.» and «пересдача (все
    спасовали)», as seeds 000 and 002 do: one word for one moment."""
    passed = [
        *START[:6],  # the deal told (turned Т♦), nobody has spoken
        "event seq=5 table=3 kind=call seat=1 call=pas auto=0",
        "event seq=6 table=3 kind=call seat=0 call=pas auto=0",
    ]
    assert russian_state(passed).log[-1] == (
        "все спасовали: второй круг торговли (любая масть, кроме ♦)"
    )


def test_no_line_of_the_russian_lobby_pane_begins_with_a_dash() -> None:
    """The lobby pane's Russian lines broke before each dash (a tryout, s50):
    '— на троих и на четверых; new 2', '— открыть стол; …' — a command on one line, what
    it does on the next. In Russian a line never begins with a dash: it stays with the
    word before it, and each line starts with words."""
    state = russian_state(["ok cmd=login name=misha guest=1 token=T text=Hello, misha (guest)."])
    lobby = table_text(state).splitlines()
    assert lobby == [
        "Вы в лобби.",
        "seek 2 — ждать партию на двоих, seek 3 и seek 4 —",
        "на троих и на четверых; new 2 — открыть стол;",
        "tables — столы, sit N — сесть.",
    ]
    assert all(len(line) <= 51 and not line.startswith("—") for line in lobby)


def test_the_refusal_before_a_login_is_read_back_in_russian() -> None:
    """F4-F7 or a command typed before 'login' (no --name) read '! log in first: login
    NAME [PASSWORD]' in the Russian client: a sentence out of the server's catalogue."""
    state = russian_state(["error code=not-logged-in text=log in first: login NAME [PASSWORD]"])
    assert state.log[-1] == "! сначала войдите: login ИМЯ [ПАРОЛЬ]"


@pytest.mark.timeout(60)
def test_lang_typed_at_the_english_screen_says_how_to_get_a_russian_one(tmp_path: Path) -> None:
    """The English screen showed the server's hint for nc, «По-русски: наберите lang ru»;
    typed, 'lang ru' set the connection's human style, which the client's machine lines
    never read: «Язык: русский.», and every line after it, 'rules' too, English (s46).
    The hint names the client's --lang ru, and 'lang ru' typed says so, not sent."""
    with ServerThread(tmp_path / "db.sqlite3") as server:
        asyncio.run(asyncio.wait_for(_lang_typed(server), 45))
        assert not server.errors, server.errors


def test_only_the_other_language_is_answered_by_the_client() -> None:
    assert other_lang("lang en", Lang.RU) is Lang.EN and other_lang("lang ru", Lang.EN) is Lang.RU
    for line, lang in (("lang ru", Lang.RU), ("lang uk", Lang.EN), ("lang", Lang.EN)):
        assert other_lang(line, lang) is None, line  # sent: the server answers it
    assert other_lang("say lang ru", Lang.EN) is None
    # the Russian word for the command too ('язык ru': the server's 'lang', s47)
    assert other_lang("язык ru", Lang.EN) is Lang.RU and other_lang("Язык en", Lang.RU) is Lang.EN


async def _lang_typed(server: ServerThread) -> None:
    app = PlayApp("127.0.0.1", server.port, name="lena")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.name == "lena", "login")
        assert "По-русски: deberc-net play --lang ru." in app.state.log[1], app.state.log
        told = say(T.LANG_AT_START, Lang.RU)
        for count, typed in enumerate(("lang ru", "LANG Ru"), 1):
            await enter(pilot, typed)

            def said(count: int = count) -> bool:
                return app.state.log.count(told) == count

            await until(pilot, said, "the word")
        await enter(pilot, "lang en")  # its own: sent, and answered
        await until(pilot, lambda: app.state.log[-1] == "Language: English.", "the answer")
        assert not any("Язык: русский" in x for x in app.state.log), app.state.log
