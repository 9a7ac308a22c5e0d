"""The Russian screens' words, from a tryout by Russian-speaking club players: what is
said of a player fits a woman as well as a man («dina: связь потеряна», not «dina
отключился»); a bide is «байд», the sources' word (docs/rules.md §5); a match is
«партия» (§7)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import deberc_net
from deberc_net.game import events as g
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.plugins.summaries_ru import SUMMARIES_RU, stake_ru, target_ru
from deberc_net.protocol import events as ev
from deberc_net.protocol import lang, messages
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import MESSAGES, Msg, phrase
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import build_ruleset
from tests.game.decks import SIMPLE, build_deck, say

PACKAGE = Path(deberc_net.__file__).parent
DECK = build_deck(*SIMPLE)
CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)


def _strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def russian_texts() -> list[str]:
    """Every Russian text of the screens: the catalogue, the codes' and the commands'
    words, the calls' help, and the Russian renderer's own lines."""
    texts = [ru for _, ru in messages.MESSAGES.values()]
    texts += [*messages.RU_ERRORS.values(), *messages.RU_COMMANDS.values()]
    texts += [messages.RU_CALLS_HELP, messages.RU_TERTZ_CALLS_HELP]
    texts += [*lang.RU_OUTCOMES.values(), *lang.RU_MATCH_REASONS.values()]
    texts += _strings(PACKAGE / "protocol" / "render_ru.py")
    texts += [*SUMMARIES_RU.values(), stake_ru(5), target_ru(301)]  # 'rules'
    return [t for t in texts if CYRILLIC.search(t)]


# a man's past tense or participle of what a player did or is
MASCULINE = re.compile(
    r"(?<![а-яё])(?:отключился|вернулся|ушёл|ушел|вошёл|вошел|пришёл|сел|смог|"
    r"зарегистрирован|приглашён|услышал|ходил|попросил|выиграл|проиграл|должен ответить)"
    r"(?![а-яё])",
    re.IGNORECASE,
)


def test_nothing_said_of_a_player_is_a_mans_only() -> None:
    found = [text for text in russian_texts() if MASCULINE.search(text)]
    assert found == []


def test_the_lines_a_tryout_heard_in_the_masculine() -> None:
    names = ("dina", "boris")
    said = [
        render_ru(ev.TableEvent(1, 3, names, ev.WentAway("dina", 0))),
        render_ru(ev.TableEvent(2, 3, names, ev.CameBack("dina", 0))),
        render_ru(ev.TableEvent(3, 3, names, ev.Left("dina", 0, away_too_long=True))),
        render_ru(ev.TableEvent(4, 3, names, ev.WentAway("dina", 0, 120, clock_runs=False))),
        [phrase(Msg.REGISTERED).text(Lang.RU)],
        [phrase(Msg.BOT_NOT_COME, name="house-random-1").text(Lang.RU)],
        [phrase(Msg.ALREADY_INVITED, name="dina", table=3).text(Lang.RU)],
    ]
    assert said == [
        ["dina: связь потеряна; место ждёт, часы идут."],
        ["dina снова на связи."],
        ["dina: слишком долго нет связи; место 0 свободно для другого игрока."],
        ["dina: связь потеряна; место ждёт 2 мин."],
        ["имя зарегистрировано"],
        ["house-random-1 не придёт."],
        ["у игрока dina уже есть приглашение за стол 3: достаточно набрать sit 3"],
    ]


def test_quit_promises_a_seat_only_if_there_is_one() -> None:
    """The English says "Your seat, if any, waits for you"; the Russian promised a seat
    to everyone, seated or not."""
    assert phrase(Msg.BYE).text(Lang.RU) == (
        "До встречи. Если у вас есть место за столом, оно вас ждёт."
    )
    assert "если" in messages.RU_COMMANDS["quit"]


def test_a_bide_is_a_baid_everywhere() -> None:
    """The sheet said «биты 0/1», a deal «бита», the rules «бит»: three words for one
    thing, none the sources' («байд», «висячий байд»)."""
    beaten = re.compile(r"(?<![а-яё])бит(?:а|ы|ом|у|ов)?(?![а-яё])", re.IGNORECASE)
    assert [text for text in russian_texts() if beaten.search(text)] == []
    assert lang.RU_OUTCOMES["bide"] == "байд"
    assert phrase(Msg.SHEET_BIDES, bides="1/0").text(Lang.RU) == "  байды 1/0"
    assert "байды" in messages.RU_COMMANDS["sheet"]


def test_tertzs_talon_is_the_koloda_everywhere() -> None:
    """Tertz's talon is «колода» on the screen (`В колоде: 12`) and in docs/play.ru.md;
    its refusals and its `rules` summary said «прикуп» (a Tertz tryout), which in Deberts
    is the extra cards dealt after the order, where the word stays («до прикупа»)."""
    talon = re.compile(r"(?<![а-яё])(?:в|из) прикупе?|прикуп(?:а)? кончил", re.IGNORECASE)
    assert [text for text in russian_texts() if talon.search(text)] == []
    assert "из колоды" in SUMMARIES_RU["tertz"]
    assert phrase(Msg.MUST_BEAT, card="К♠").text(Lang.RU).startswith("колода кончилась")


def test_a_trump_card_of_a_masculine_name_is_kozyrnyj() -> None:
    """Tertz's `rules` said «Козырной валет 20» (a tryout, s50): the sources write
    «козырный валет» (seeds 000, 002); «козырной» is the feminine's oblique case (от
    козырной дамы, нет козырной семёрки), which stays."""
    spoken = re.compile(
        r"(?<![а-яё])козырной (?:валет|король|туз|терц|марьяж)(?![а-яё])", re.IGNORECASE
    )
    assert [text for text in russian_texts() if spoken.search(text)] == []
    assert "Козырный валет 20" in SUMMARIES_RU["tertz"]


def test_a_seek_kept_is_said_of_a_woman_as_well_and_declines_no_name() -> None:
    """«вы снова ждёте партию …, первым в очереди, и с olga вас 10 мин не сведут» (a
    tryout, s50): «первым» is a man's (a woman waits «первой»), and «с olga» declines a
    name that cannot be declined. «в начале очереди» fits anyone, and the name follows
    «игроком», as «у игрока dina» does."""
    apart = phrase(Msg.SEEK_APART, name="olga", minutes=10)
    kept = phrase(
        Msg.SEEK_KEPT,
        name="olga",
        variant="moscow",
        for_players="на двоих",
        options="",
        apart=apart,
    )
    assert kept.text(Lang.RU) == (
        "olga покидает стол до конца первой раздачи: вы снова ждёте партию moscow на двоих,"
        " в начале очереди, и с игроком olga вас 10 мин не сведут."
    )
    place = phrase(
        Msg.SEEK_KEPT_PLACE,
        name="olga",
        variant="moscow",
        for_players="на двоих",
        options="",
        apart=apart,
    )
    assert "и встанете в начало очереди, и с игроком olga" in place.text(Lang.RU)
    assert [text for text in russian_texts() if "первым в очереди" in text] == []


def test_a_match_is_a_partiya_everywhere() -> None:
    """«Игра окончена … Матч m23»: two words for one match in one line. The card table's
    «партия» (docs/rules.md §7) is the one; «игра» stays where it is the play («по
    силе в игре») or a kind of game («короткая игра»)."""
    match = re.compile(r"(?<![а-яё])матч", re.IGNORECASE)
    assert [text for text in russian_texts() if match.search(text)] == []
    end = g.MatchEnded(0, ("anna",), "target", (512, 300), "s", match="m23")
    said = render_ru(ev.TableEvent(9, 1, ("anna", "boris"), end))
    assert " ".join(x.strip() for x in said) == (
        "Партия окончена: anna выигрывает (набраны очки). Итого: anna 512, boris 300. Партия m23."
    )
    # the match's own words: none says «игра» of it any more
    game = re.compile(r"(?<![а-яё])игр[аыуеой]?(?![а-яё])", re.IGNORECASE)
    for key in (Msg.GAME_IS_OVER, Msg.MATCH_OVER, Msg.SEEK, Msg.UNSEEK, Msg.NO_GAMES):
        russian = MESSAGES[key][1]
        assert not game.search(russian) and "парти" in russian, key


def _question_lines(match: Match, seat: int | None) -> list[str]:
    asked = ev.Ask(1, 1, view(match, seat), None, kind=ev.AskKind.STATE)
    return [" ".join(x.strip() for x in render_ru(asked))]  # wrapped for the terminal


def test_the_options_questions_are_said_as_what_they_are() -> None:
    """A tryout read «anna спрашивает «offer?»: ответьте.» at a poltinniki table and
    «anna спрашивает «даве»» at a dave one: the Latin kind, and a question that is an
    offer."""
    match = Match(build_ruleset(2, options=["poltinniki"]), seed="q", dealer=1, decks={1: DECK})
    match.names = ("anna", "boris")
    say(match, 0, "igrayu")
    assert (
        "boris может предложить игроку anna 50 очков без игры («предлагаю») или играть («играем»)."
        in (_question_lines(match, None)[0])
    )
    assert "Вы можете предложить игроку anna 50 очков" in _question_lines(match, 1)[0]
    say(match, 1, "predlagayu")
    assert (
        "boris предлагает вам 50 очков без игры: ответьте «принимаю» или «играем»."
        in (_question_lines(match, 0)[0])
    )
    dave = Match(build_ruleset(2, options=["dave"]), seed="q", dealer=1, decks={1: DECK})
    dave.names = ("anna", "boris")
    say(dave, 0, "igrayu", "dave")
    assert (
        "anna говорит «даве»: сдайтесь за ставку 1 («сдаюсь») или играйте на следующую"
        " («принимаю»)." in _question_lines(dave, 1)[0]
    )
    assert (
        "anna говорит «даве»: boris сдаётся за ставку 1 («сдаюсь») или играет"
        in (_question_lines(dave, None)[0])
    )
    for lines in (_question_lines(match, 0), _question_lines(dave, 0)):
        assert not re.search(r"offer|dave", lines[0]), lines


def test_the_rules_russian_summaries_say_the_calls_in_russian() -> None:
    """`rules` in Russian said «скажите 'dave' … ('sdayus') … ('prinimayu')», «('konets')»,
    «lomayu N»: the calls as they are said at a Russian table (the options' own names,
    typed with `new`, stay as they are)."""
    latin = re.compile(
        r"'[a-z?-]+'|(?<![\w-])(?:sdayus|prinimayu|predlagayu|igraem|konets|pokazhi|"
        r"menyayu|ne-menyayu|lomayu|rost\?)(?![\w-])"
    )
    texts = [*SUMMARIES_RU.values(), stake_ru(5), target_ru(301)]
    assert [text for text in texts if latin.search(text)] == []
    assert "скажите «даве»" in SUMMARIES_RU["dave"]


def test_no_sentence_has_a_dot_before_a_colon() -> None:
    """'мин.:' read as two stops (a mute's notice lost it, its refusal kept it): an
    abbreviation before a colon goes without its dot."""
    assert [m for m, texts in MESSAGES.items() if any(".:" in t for t in texts)] == []


def test_no_games_of_a_cyrillic_name_reads_without_declining_it() -> None:
    """«У Зритель нет законченных партий.» (a tryout, s30): a name cannot be declined,
    so it is said after «игрока», as «у игрока NAME уже есть приглашение» is."""
    said = phrase(Msg.NO_GAMES, name="Зритель").text(Lang.RU)
    assert said == "У игрока Зритель нет законченных партий.", said
