"""The message catalogue (protocol/messages.py): every sentence in both languages, the
same values in each, and the Russian help as it is laid out for an 80-column terminal."""

from __future__ import annotations

import re
import string
from pathlib import Path

from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import COMMANDS, help_text, seconds_said
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import (
    MESSAGES,
    RU_CALLS_HELP,
    RU_COMMANDS,
    RU_ERRORS,
    RU_PLACEHOLDERS,
    Msg,
    Usage,
    count_phrase,
    phrase,
)
from deberc_net.protocol.render import render
from deberc_net.protocol.render_ru import render_ru

LATIN_CARD = re.compile(r"(?<![\w-])(?:(?:10|[2-9AKQJT])[shdc]|[AKQJ][♠♥♦♣])(?!\w)")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_message_has_both_languages_with_its_values() -> None:
    assert set(MESSAGES) == set(Msg)
    for key, (english, russian) in MESSAGES.items():
        if key in (Msg.NOT_A_CALL, Msg.NOT_A_CALL_HEAD):
            # the parser's reason is English: Russian quotes the line
            assert (_fields(english), _fields(russian)) == ({"reason"}, {"typed"})
            continue
        if key == Msg.CALL_WORD:  # a call's token, or as a Russian player says it
            assert (_fields(english), _fields(russian)) == ({"call"}, {"ru"})
            continue
        if key == Msg.OWN_WORDS:  # a plugin's text in its own English and Russian
            assert (_fields(english), _fields(russian)) == ({"en"}, {"ru"})
            continue
        # Russian may leave a value out (the look-alike letter: it always shows Т)
        assert _fields(russian) <= _fields(english), key
        assert len(_fields(english) - _fields(russian)) <= 1, key
        assert not LATIN_CARD.search(russian), key


def test_a_phrase_is_said_in_each_language_and_nests() -> None:
    said = phrase(
        Msg.WELCOME,
        name="anna",
        what=phrase(Msg.GUEST),
        tables=count_phrase(2, Msg.ONE_TABLE, Msg.TABLES_COUNT),
        players=count_phrase(5, Msg.ONE_PLAYER_HERE, Msg.PLAYERS_HERE),
        commands=phrase(Msg.LOBBY_COMMANDS),
        resume=phrase(Msg.NOTHING),
    )
    assert said.text() == (
        "Hello, anna (guest). 2 tables, 5 players here. 'tables', 'new', 'sit N', 'seek', 'help'."
    )
    assert said.text(Lang.RU).startswith("Здравствуйте, anna (гость). Столов: 2, игроков")
    seats = phrase(Msg.WAITS_FOR_PLAYERS, table=3, seats=("anna", phrase(Msg.FREE_SEAT)))
    assert seats.text() == "Table 3 waits for players: anna, (free)"
    assert seats.text(Lang.RU) == "Стол 3 ждёт игроков: anna, (свободно)"
    away = tuple(phrase(Msg.AWAY_HELD, name=n, seconds=s) for n, s in (("ann", 97), ("bo", 5)))
    full = phrase(Msg.WAITS_FOR_AWAY, table=3, names=away)
    assert full.text().startswith("Table 3 is full and waits for ann (97 s left), bo (5 s left)")
    assert full.text(Lang.RU).startswith(
        "Стол 3 полон и ждёт возвращения: ann (осталось 97 с), bo (осталось 5 с)."
    )


def test_the_english_line_is_the_protocols_text_and_russian_is_the_phrase() -> None:
    warned = ev.info(phrase(Msg.CLOCK_WARNING, seconds=10))
    assert render(warned, "machine") == ["info text=10 s left to answer."]
    assert render(warned, "human") == ["10 s left to answer."]
    assert render_ru(warned) == ["Осталось 10 с на ответ."]
    refused = ev.error("wrong-phase", phrase(Msg.NO_TRICK_YET))
    assert render(refused, "human") == ["Error (wrong-phase): no trick has been taken yet"]
    assert render_ru(refused) == ["Ошибка (wrong-phase): ещё не взято ни одной взятки"]
    # a refusal without a phrase is told in Russian by its code
    assert render_ru(ev.Error("seat-taken", "seat 1 is not free at table 4")) == [
        "Ошибка (seat-taken): это место занято"
    ]


def test_the_t_question_names_both_readings_in_both_languages() -> None:
    asked = phrase(Msg.AMBIGUOUS_CARD, letter="T", suit="♠")
    assert "10♠" in asked.text() and "A♠" in asked.text()
    russian = asked.text(Lang.RU)
    assert "туз" in russian and "десятка" in russian
    assert "«туз ♠»" in russian and "«10♠»" in russian  # each types beyond doubt
    assert not LATIN_CARD.search(russian)


def test_every_refusal_code_of_the_protocol_has_russian_words() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc.split("## 10. Errors", 1)[1].split("\n## 11.", 1)[0]
    codes = set(re.findall(r"^\| `([a-z-]+)` \|", section, re.M))
    assert "must-follow-suit" in codes and "ambiguous-rank" in codes
    assert codes <= set(RU_ERRORS)


def test_the_russian_help_fits_80_columns_and_is_russian() -> None:
    assert set(RU_COMMANDS) <= set(COMMANDS)
    lines = RU_CALLS_HELP.splitlines()
    for phase in ("login", "lobby", "table"):
        lines += help_text(phase=phase, calls_now=["пас", "играю"], lang=Lang.RU)
    for command in COMMANDS:
        lines += help_text(command, lang=Lang.RU)
    assert [x for x in lines if len(x) > 80] == []
    assert all(re.search("[а-я]", x) for x in RU_CALLS_HELP.splitlines())
    assert help_text("nonsense", lang=Lang.RU)[0].startswith("нет команды «nonsense»")


def test_russian_help_and_usage_refusals_name_the_placeholders_in_russian() -> None:
    """A Russian club player read 'help [COMMAND]', 'sit TABLE [SEAT]' and 'say TEXT'
    amid Russian words (tryout s27); docs/play.ru.md writes 'sit СТОЛ [МЕСТО]'. The
    command's own words stay as they are typed."""
    shown = "\n".join(help_text(phase="lobby", lang=Lang.RU))
    assert "help [КОМАНДА]" in shown and "sit СТОЛ [МЕСТО]" in shown
    assert "new [ИГРОКОВ] [ВАРИАНТ] [ОПЦИИ…] [private]" in shown
    assert help_text("finger", lang=Lang.RU)[0].startswith("finger [ИМЯ]: ")
    assert help_text("finger")[0].startswith("finger [NAME]: ")
    every_form = " ".join(spec.usage + spec.admin_usage for spec in COMMANDS.values())
    placeholders = set(re.findall(r"\b[A-Z]{2,}\b(?: \.\.\.)?", every_form))
    assert placeholders <= set(RU_PLACEHOLDERS), placeholders - set(RU_PLACEHOLDERS)
    for spec in COMMANDS.values():  # nothing Latin in capitals is left in Russian
        assert not re.search(r"\b[A-Z]{2,}\b", Usage(spec.usage).text(Lang.RU)), spec.usage
    refusal = phrase(Msg.USAGE, usage=Usage("rules [TABLE|RULE]"))
    assert (refusal.text(), refusal.text(Lang.RU)) == (
        "rules [TABLE|RULE]",
        "набирайте так: rules [СТОЛ|ПРАВИЛО]",
    )


def test_finger_of_a_house_bot_says_what_it_is_in_both_languages() -> None:
    told = ev.Finger("house-search3", False, False, (), ("m7",), house_bot=True)
    english = " ".join(x.strip() for x in render(told, "human")[:2])  # wrapped at 80
    assert english == (
        "house-search3: a house bot, rated under this name however many copies play "
        "(house-search3-N). Last rated matches: m7."
    )
    assert "гость" not in render_ru(told)[0] and "бот сервера" in render_ru(told)[0]
    assert render(told, "machine")[0].endswith("last=m7 house_bot=1")


def test_finger_of_a_house_bot_says_its_games_are_its_rated_ones() -> None:
    """'finger house-heuristic-6' said 'No finished game.' of a bot whose copies had
    finished matches (m6 on /players/house-heuristic-6), unrated: a house bot's list is
    of its rated matches (docs/protocol.md §5.18), and its line says so (a tryout, s49)."""
    for last, english, russian in (
        ((), "No rated match yet.", "Партий в рейтинге пока нет."),
        (("m7",), "Last rated matches: m7.", "Последние партии в рейтинге: m7."),
    ):
        told = ev.Finger("house-heuristic", False, False, (), last, house_bot=True)
        assert f"(house-heuristic-N). {english}" in " ".join(
            x.strip() for x in render(told, "human")
        )
        assert f"(house-heuristic-N). {russian}" in " ".join(x.strip() for x in render_ru(told))
    player = ev.Finger("ann", True, True, (), ())  # a person's line is as before
    assert render(player, "human")[0] == "ann: registered, online. No finished game."


def test_the_rematch_refusals_are_listed_in_the_protocol_in_both_languages() -> None:
    """§5.16 named the house-bot refusal's case but not its words: a tryout read 'no
    match of yours has just ended' and could not tell it was not the house bot's."""
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = " ".join(doc.split("### 5.16", 1)[1].split("### 5.17", 1)[0].split())
    for said in (Msg.NO_REMATCH, Msg.REMATCH_BOARD, Msg.REMATCH_HOUSE_BOT):
        words = phrase(said, seconds=60) if said is Msg.NO_REMATCH else phrase(said)
        assert f"`{words.text()}`" in section
        assert f"`{words.text(Lang.RU)}`" in section


def test_a_full_tables_wait_is_shown_in_the_protocol_as_the_server_says_it() -> None:
    """§12's transcript and notes hold the words the server says (a change to either
    shows here)."""
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc.split("## 12. Disconnects", 1)[1].split("\n## 13.", 1)[0]
    names = (phrase(Msg.AWAY_HELD, name="ann", seconds=97),)
    waits = phrase(Msg.WAITS_FOR_AWAY, table=1, names=names)
    assert f"info text={waits.text()}\n" in section
    assert " ".join(waits.text(Lang.RU).split(". ")[0].split()) in " ".join(section.split())


def test_help_top_says_the_default_the_server_picks() -> None:
    """A tryout (Kharkiv players): 'help top' said `top` alone shows Moscow for two to
    one who has played nothing rated, and the server showed their club's Kharkov for
    two: the game with the most rated players (docs/protocol.md §5.18)."""
    english = " ".join(" ".join(x.split()) for x in help_text("top"))
    assert "else the one with the most rated players" in english, english
    russian = " ".join(" ".join(x.split()) for x in help_text("top", lang=Lang.RU))
    assert "иначе той, где в рейтинге больше всего игроков" in russian, russian
    assert "moscow" not in russian + english


def test_a_clock_is_said_in_seconds_to_the_millisecond() -> None:
    """'help clock' and 'rules' say a clock as seconds: six digits of ``:g`` said a
    1234567 ms clock as '1234.57'."""
    said = [seconds_said(ms, Lang.EN) for ms in (60_000, 500, 1_234_567, 86_400_000, 10)]
    assert said == ["60", "0.5", "1234.567", "86400", "0.01"]
    assert seconds_said(1500, Lang.RU) == "1,5"


# a full stop that ends a sentence inside a text (not an ellipsis' nor an abbreviation's)
_SENTENCE_BREAK = re.compile(r"(?<!\.)\.(?!\.)\s+\S")
_ABBREVIATIONS = ("разд. ",)  # the score sheet's column: «разд. исход»


def test_a_text_of_sentences_ends_as_a_sentence_does() -> None:
    """A refusal, as every line, is one clause without a stop ('there is no table 9'),
    or sentences, the last ended too: 'lang uk' said "… no Ukrainian lines yet. 'lang
    ru' for Russian; … in either language", its last with no full stop (a tryout, s44).
    A text may end with ':' (the lines it leads follow) or a value that ends itself."""
    for key, texts in MESSAGES.items():
        for text in texts:
            said = text.strip()
            for short in _ABBREVIATIONS:
                said = said.replace(short, "")
            if _SENTENCE_BREAK.search(said):
                assert said[-1] in ".?:}", (key, text)


def test_help_seek_says_a_second_seek_replaces_the_first() -> None:
    """A tryout (s48): 'seek 4 kharkov', then 'seek 2', was answered 'Waiting for a
    moscow game for 2 players.' alone, and 'help seek' did not say the first wait was
    over: one could think oneself waiting for both (docs/protocol.md §5.5)."""
    english = " ".join(" ".join(x.split()) for x in help_text("seek"))
    assert "A 'seek' of another game replaces the one before" in english, english
    russian = " ".join(" ".join(x.split()) for x in help_text("seek", lang=Lang.RU))
    assert "seek другой партии заменяет прежний" in russian, russian
    # the lobby's list keeps the first sentence alone
    listed = "\n".join(help_text(phase="lobby"))
    assert "replaces" not in listed, listed


def test_help_observe_says_a_watcher_sees_no_hand() -> None:
    """A tryout (s49): 'observe TABLE: Watch a table: you see what every player sees.'
    («видно то же, что видят игроки») could be read as every player's hand, as some
    card servers show their kibitzers; a watcher sees the cards played, the calls and
    the score, never a hand (docs/protocol.md §13), and the lobby's list says so."""
    english = " ".join(" ".join(x.split()) for x in help_text("observe"))
    assert "not the players' hands" in english, english
    russian = " ".join(" ".join(x.split()) for x in help_text("observe", lang=Lang.RU))
    assert "руки игроков не видны" in russian, russian
    listed = " ".join(" ".join(x.split()) for x in help_text(phase="lobby"))
    assert "not the players' hands" in listed, listed


def test_help_bot_says_what_the_search_bot_is_stronger_than() -> None:
    """A tryout (s48) read 'search at LEVEL 1-5 (default 3: stronger)' and could not
    tell whether the search bot or a higher level is the stronger: it is stronger than
    the heuristic bot, the club player (docs/protocol.md §5.15); three lines at 80
    columns still."""
    english = help_text("bot")
    joined = " ".join(" ".join(x.split()) for x in english)
    assert "like a club player, random any card, search better still (LEVEL 1-5, default 3)" in (
        joined
    ), joined
    assert len(english) <= 3, english
    russian = help_text("bot", lang=Lang.RU)
    joined = " ".join(" ".join(x.split()) for x in russian)
    assert "любой картой, поисковый сильней их (1-5, обычно 3)" in joined, joined
