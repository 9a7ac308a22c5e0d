"""The human style in Russian ('lang ru', issue #13): a whole match played over real
sockets by people who read every line in an 80-column terminal and answer in Russian."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import trio

from .client import LineClient
from .conftest import Connector
from .human import RU_CARD, RU_PROMPT, without_tokens

# a Latin rank letter where a card is shown: 'J♠', 'Qh', or a hand's '♠ 7 J'
LATIN_RANK = re.compile(
    r"(?<![\w-])(?:(?:10|[789JQKA])[shdc]|[JQKA][♠♥♦♣])(?!\w)|[♠♥♦♣](?: \w+)* [JQKA]\b"
)
LATIN_TALK = re.compile(r"\b(?:pishet|igrayu|ot-[0-9JQKA]+|menyayu|pas)\b")


def russian_choice(options: str) -> str:
    """What a person picks: the first card, else 'играю', else the first call offered,
    typed as it is shown."""
    tokens = [t.strip() for group in options.split(" | ") for t in group.split(", ")]
    cards = [t for t in tokens if RU_CARD.fullmatch(t)]
    if cards:
        return cards[0]
    return "играю" if "играю" in tokens else tokens[0]


async def play_in_russian(client: LineClient) -> str:
    """Answer every 'Ваш ход' prompt until the game is over; the last line."""
    while True:
        line = await client.read_until(lambda _: True, 20)
        assert not line.startswith("Ошибка"), f"{client.label}: {line}"
        if line.startswith("Партия окончена:"):
            return line
        if prompt := RU_PROMPT.match(line):
            await client.send(russian_choice(prompt.group(1)))


async def test_a_whole_two_player_match_in_russian(port: int, connect: Connector) -> None:
    people = [await connect.human(port, name) for name in ("anna", "boris")]
    for person in people:
        await person.send("lang ru")
        assert await person.read_until(lambda x: x.startswith("Язык")) == "Язык: русский."
    for person in people:
        await person.send("seek 2 to-301")
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for person in people:
                nursery.start_soon(play_in_russian, person)
    for person in people:
        lines = person.lines
        assert [x for x in lines if len(x) > 80] == []
        assert [x for x in lines if LATIN_RANK.search(without_tokens(x))] == []
        assert [x for x in lines if LATIN_TALK.search(without_tokens(x))] == []
        assert [x for x in lines if x.startswith(("Your ", "Deal ", "Game over"))] == []
        deals = [x for x in lines if re.match(r"Раздача \d+\. \w+ сдаёт и открывает ", x)]
        assert deals and deals[0].startswith("Раздача 1. ")
        assert any(x.startswith("Ваши карты: ") for x in lines)
        assert any(re.fullmatch(r"\w+ ходит " + RU_CARD.pattern, x) for x in lines)
        assert any(re.match(r"\w+ берёт взятку \(", x) for x in lines)
        assert any(re.match(r"\w+: играю", x) for x in lines)  # echoed in Cyrillic
        assert any(re.match(r"Партия окончена: \w+ выигрывает \(", x) for x in lines)


async def test_lang_is_checked_and_can_go_back_to_english(port: int, connect: Connector) -> None:
    anna = await connect.human(port, "anna")
    await anna.send("lang fr")
    assert await anna.read_until(lambda x: x.startswith("Error")) == (
        "Error (bad-argument): lang en|ru"
    )
    await anna.send("lang ru")
    await anna.read_until(lambda x: x == "Язык: русский.")
    await anna.send("sit 99")
    assert (await anna.read_until(lambda x: x.startswith("Ошибка ("))).startswith("Ошибка (")
    await anna.send("lang en")
    assert await anna.read_until(lambda x: x.startswith("Language")) == "Language: English."
    await anna.send("help")
    assert await anna.read_until(lambda x: x.startswith("  lang en|ru"))  # help lists it
    # the machine style has no language: its lines stay the protocol's
    bot = await connect.machine(port, "bot")
    await bot.send("lang ru")
    await bot.expect("ok", cmd="lang", lang="ru")
    await bot.send("sit 99")
    await bot.expect("error")


async def test_rules_in_russian_describe_the_shipped_rules_in_russian(
    port: int, connect: Connector
) -> None:
    """'rules' under 'lang ru': the shipped rules' own descriptions are Russian too
    (RuleInfo.summary_ru); a third-party plugin without one (the example posled-20)
    keeps its English, said in Russian to be English (docs/plugins.md)."""
    anna = await connect.human(port, "anna")
    await anna.send("lang ru")
    await anna.read_until(lambda x: x.startswith("Язык"))
    await anna.send("rules")
    listed = [await anna.read_until(lambda x: x.startswith("Варианты и опции"))]
    while not listed[-1].startswith("to-9-stakes"):  # the list is in name order
        listed.append(await anna.read_until(lambda _: True))
    text = "\n".join(listed)
    assert "moscow (вариант, игроков: 2, 3 или 4, до 501): Московские правила:" in text
    assert "to-301 (опция, игроков: 2, 3 или 4): Партия играется до 301 очка, а не до цели" in text
    # (its English said to be so, in Russian: the line read as if Russian were missed)
    assert (
        "posled-20 (опция, игроков: 2, 3 или 4): по-английски (описания по-русски у"
        " правила нет): The last trick counts 20 points"
    ) in " ".join(x.strip() for x in text.splitlines())
    await anna.send("new 3 to-301")
    await anna.read_until(lambda x: x.startswith("Вы за столом"))
    await anna.send("rules")
    table = [await anna.read_until(lambda x: x.startswith("Стол "))]
    while "Часы" not in table[-1]:
        table.append(await anna.read_until(lambda _: True))
    # the player count's rule is asked by nobody by name: its line names itself in
    # Russian, not «three-players:» (a newcomers' tryout: an English word nobody types)
    assert [x.split(":")[0] for x in table[1:-1] if not x.startswith(" ")] == [
        "Трое игроков",
        "to-301",
        "moscow — во всём, чего не меняют строки выше",  # what they leave of it (§5.9)
        "moscow не играется с опциями",  # (Tertz's own: tertz-501, …)
    ]
    said = "\n".join(table)
    assert "Трое игроков: играющий должен набрать больше" in said
    assert "Moscow rules" not in said and "Three players" not in said
    assert "three-players" not in said


async def test_a_refused_prokhodit_q_says_the_questions_rule(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """A tryout's `проходит?` from a seat without the trump 7 was answered with the
    swap's rule («меняют семёрку только в первом козыре…»): it is told the question's.
    The seed deals bob (seat 1, first to bid) the trump 7; ann, in her window after
    bob's card, has none."""
    port = await start_server(match_seed="s105")
    ann = await connect.human(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("lang ru")
    await ann.read_until(lambda x: x == "Язык: русский.")
    await ann.send("new 2")
    sat = await ann.read_until(lambda line: line.startswith("Вы за столом"))
    table = re.findall(r"\d+", sat)[0]
    await bob.send(f"sit {table}")
    await bob.expect("ask")
    await bob.send("igrayu")
    led = await bob.expect("ask", player="1")
    card = next(t for t in led["legal"].split(",") if re.fullmatch(r"(?:10|[789JQKA])[shdc]", t))
    await bob.send(card)
    await ann.read_until(lambda x: x.startswith("Ваш ход"))
    await ann.send("проходит?")
    refusal = await ann.read_until(lambda x: x.startswith("Ошибка"))
    assert refusal.startswith("Ошибка (not-allowed): «проходит?» спрашивает тот, у кого"), refusal
    assert "меняют семёрку" not in refusal


async def test_refused_rules_say_their_reason_in_russian(port: int, connect: Connector) -> None:
    """A tryout's every 'bad-rules' in Russian was «таких правил нет; rules их
    перечисляет», whatever the reason: each says its own now (docs/protocol.md §4.3c)."""
    maria = await connect.human(port, "maria")
    await maria.send("lang ru")
    await maria.read_until(lambda x: x == "Язык: русский.")
    for command, said in [
        ("new 5", "здесь нет игры на столько игроков (5): число игроков — 2, 3"),
        ("new 3 tertz", "«tertz» — для 2 игроков, а не для 3"),
        ("new 2 moscow short to-301", "опции «short» и «to-301» противоречат друг другу"),
        ("new 2 pair-combinations", "«pair-combinations» — для 4 игроков, а не для 2"),
        ("new 2 moskow", "варианта «moskow» нет: может быть, moscow? Варианты:"),
        ("new 2 to-300", "опции «to-300» нет: может быть, to-301? Опции:"),
        ("seek 2 foo", "опции «foo» нет; варианты: kharkov, moscow, tertz; опции:"),
        ("seek 2 private", "закрытый стол открывают командой new ... private, а садятся"),
    ]:
        await maria.send(command)
        refusal = await maria.read_until(lambda x: x.startswith("Ошибка"))
        assert refusal.startswith(f"Ошибка (bad-rules): {said}"), (command, refusal)


async def test_a_refused_say_says_why_in_russian(port: int, connect: Connector) -> None:
    """Each refusal of a text others would see says its reason in Russian (a tryout's
    were the generic «неверные параметры команды» for every one)."""
    maria = await connect.human(port, "maria")
    await maria.send("lang ru")
    await maria.read_until(lambda x: x == "Язык: русский.")
    for command, said in [
        ("say", "say ТЕКСТ: нужен текст"),
        ("say \u202eпривет", "say ТЕКСТ: без знаков смены направления письма (U+202A"),
        ("say \u200b\u200b", "say ТЕКСТ: без невидимых символов"),
        ("say \u2800", "say ТЕКСТ: без невидимых символов"),
        ("say e" + "\u0301" * 6, "say ТЕКСТ: не больше 4 надстрочных знаков"),
        # a command typed wrong says its form, as 'help' shows it (a review, s28: these
        # said only «неверные параметры команды»)
        ("sit x", "набирайте так: sit СТОЛ [МЕСТО]"),
        ("observe", "набирайте так: observe СТОЛ"),
        ("unobserve x", "набирайте так: unobserve [СТОЛ]"),
    ]:
        await maria.send(command)
        refusal = await maria.read_until(lambda x: x.startswith("Ошибка"))
        assert refusal.startswith(f"Ошибка (bad-argument): {said}"), (command, refusal)


async def test_the_russian_welcome_fits_anyone_and_names_the_resume_code(
    port: int, connect: Connector
) -> None:
    """A tryout: «Здравствуйте, Мария (зарегистрирован)» was a man's word, and «Ваш
    жетон» no club's; the `login NAME token=…` to type stays exact."""

    async def welcome(login: str) -> tuple[LineClient, str]:
        client = await LineClient.connect(port, login.split()[1])
        await client.send(login)
        said = [await client.read_until(lambda x: x.startswith("Здравствуйте, "))]
        while not said[-1].endswith(("help.", "место.")):  # wrapped for the terminal
            said.append(await client.read_until(lambda _: True))
        return client, " ".join(x.strip() for x in said)

    maria, said = await welcome("login Мария secret1 lang=ru")
    now = "имя зарегистрировано сейчас, с набранным паролем: входите с ним и дальше"
    assert said.startswith(f"Здравствуйте, Мария ({now}). Столов: 0"), said
    dina, said = await welcome("login dina lang=ru")
    assert said.startswith("Здравствуйте, dina (гость). "), said
    code = re.search(r"Ваш код возврата: (\S+)\. Если связь прервётся", said)
    assert code is not None, said
    # the instruction is typed as it is shown (its line may wrap at its space only)
    assert f"«login dina token={code.group(1)} lang=ru» вернёт вам место." in said, said
    for client in (maria, dina):
        await client.aclose()


async def test_the_russian_resume_line_typed_as_shown_brings_the_seat_back_in_russian(
    port: int,
) -> None:
    """A club evening: a Russian player whose connection dropped typed the line the
    greeting showed her, «login olga token=…», and was back at her seat in English
    (a login's language is the connection's, and the new one had none)."""
    olga = await LineClient.connect(port, "olga")
    await olga.send("login olga lang=ru")
    said = [await olga.read_until(lambda x: x.startswith("Здравствуйте, "))]
    while not said[-1].endswith("место."):  # wrapped for the terminal
        said.append(await olga.read_until(lambda _: True))
    typed = re.search(r"«(login olga token=[^»]+)»", " ".join(x.strip() for x in said))
    assert typed is not None, said
    await olga.send("new 3")
    await olga.read_until(lambda x: x.startswith("Вы за столом"))
    await olga.aclose()  # the connection drops; the seat is held
    again = await LineClient.connect(port, "olga again")
    await again.send(typed.group(1))
    back = await again.read_until(lambda x: x.startswith(("Здравствуйте, ", "Hello, ")))
    assert back.startswith("Здравствуйте, olga (гость). Вы снова на своём месте"), back
    await again.aclose()


async def test_calls_in_russian_say_the_options_calls_russian_first(
    port: int, connect: Connector
) -> None:
    """A tryout: the options' calls led with the Latin token (`prinimayu (принимаю,
    accept)`), the opposite of the main list (`пас (pas, pass)`); and `два полтинника,
    две копы`, calls, wrapped into the explanations' column (now the calls' line, and
    the explanation under it, so 'help терц' tells it whole)."""
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x == "Язык: русский.")
    await vera.send("new 2 dave")
    await vera.read_until(lambda x: x.startswith("Вы за столом"))
    await vera.send("calls")
    said = [await vera.read_until(lambda x: x.startswith("Ходы и заявки"))]
    while not said[-1].startswith("Заявки опций этого стола"):
        said.append(await vera.read_until(lambda _: True))
    said += [await vera.read_until(lambda _: True) for _ in range(6)]
    assert said[-6:] == [  # each with what it does (black-box evening s40)
        "  даве (dave, double)                  опция dave: предложить сопернику сдаться",
        "                                       на этой ставке",
        "  принимаю (prinimayu, accept)         опция dave: ответ на даве, играть на",
        "                                       следующую ставку",
        "  сдаюсь (sdayus, give up, resign)     опция dave: ответ на даве, сдаться и",
        "                                       проиграть эту ставку",
    ]
    declare = said.index("  терц, два терца, пятьдесят, два полтинника (две копы)")
    assert said[declare + 1].strip() == "объявить лучшую комбинацию до своей первой карты"


async def _told_before(person: LineClient, command: str, marker: str) -> list[str]:
    """The lines ``command`` gets, read up to the answer of a later 'help MARKER'."""
    await person.send(command)
    start = person.pos
    await person.send(f"help {marker}")
    await person.read_until(lambda x: marker in x)
    return person.lines[start : person.pos - 1]


async def test_help_on_a_table_call_tells_the_lines_of_calls_naming_it(
    port: int, connect: Connector
) -> None:
    """A Russian club player typed 'help рост?' and read only «нет команды» (tryout
    s27): a table call is no command, but 'calls' explains it, and 'help' says so now,
    with its entries of 'calls' (an explanation wrapped onto a second line too)."""
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x == "Язык: русский.")
    told = await _told_before(vera, "help рост?", "фыва")
    assert told[0] == "«рост?» — не команда. Ходы за столом с этим словом (все ходы — в calls):"
    assert told[1] == "Ходы и заявки:"  # (Deberts'; Tertz's «от чего?» below its own)
    assert told[2].startswith("  рост? (rost?) ") and "высоту комбинации" in told[2]
    assert "Ходы и заявки в терце:" in told
    assert any(x.startswith("  от КАРТЫ") and "ответ на «рост?»" in x for x in told[2:])
    assert not any("пишет" in x for x in told)
    assert vera.lines[vera.pos - 1] == (
        "нет команды «фыва»; help перечисляет команды, calls — ходы"
    )
    told = await _told_before(vera, "help ломаю", "фыва")  # (Tertz's, in the lobby:
    assert told[1:] == [  # said whose, under its heading)
        "Ходы и заявки в терце:",
        "  ломаю N (lomayu N, break N)",
        "                              проигравший первую взятку ломает колоду;",
        "                              N — число 1–12",
    ]
    # the lobby's entries of Deberts and of Tertz each under its game's heading (a
    # tryout, s28), an entry the same in both once, under both (it was told twice)
    told = await _told_before(vera, "help пишет", "фыва")
    assert told[1:] == [
        "Ходы и заявки / Ходы и заявки в терце:",
        "  пишет (pishet, годится)     уступить: комбинация соперника лучше",
    ]
    await vera.send("lang en")
    await vera.read_until(lambda x: x.startswith("Language"))
    told = await _told_before(vera, "help ot", "qwerty")
    assert told[0] == "ot is no command. The table calls that say it ('calls' lists them all):"
    assert [x for x in told if not x.startswith("  ")] == [
        told[0],
        "Table calls:",
        "Tertz table calls:",
    ]
    told = await _told_before(vera, "help pishet", "qwerty")
    assert told == [
        "pishet is no command. The table calls that say it ('calls' lists them all):",
        "Table calls / Tertz table calls:",
        "  pishet (пишет, goditsya)             concede: the other's combination is",
        "                                       better",
    ]
    for word, entry in (("show", "  pokazhi (покажи, show)"), ("skin", "  pokazyvayu / skin")):
        told = await _told_before(vera, f"help {word}", "qwerty")
        assert told[1] == "Table calls / Tertz table calls:", told
        assert [x for x in told if x.startswith("  ") and x[2] != " "] == [told[2]], told
        assert told[2].startswith(entry), told


async def test_a_refused_bot_says_its_usage_in_russian(port: int, connect: Connector) -> None:
    """'bot search 9' told a Russian player «УРОВЕНЬ (search only) 1 to 5»: the usage's
    placeholders were Russian, its explanation English."""
    nina = await connect.human(port, "nina")
    await nina.send("lang ru")
    await nina.read_until(lambda x: x == "Язык: русский.")
    for line in ("bot search 9", "bot heuristic 3"):
        await nina.send(line)
        first = await nina.read_until(lambda x: x.startswith("Ошибка"))
        assert first == (
            "Ошибка (bad-argument): набирайте так: bot heuristic|random|search [УРОВЕНЬ]"
        )
        wrapped = await nina.read_until(lambda _: True)  # (80 columns)
        assert wrapped == "  [rated]: УРОВЕНЬ (только для search) от 1 до 5", wrapped


async def test_before_login_and_at_the_last_wrong_password_russian_says_all_english_does(
    port: int, connect: Connector, register: Callable[[str, str], Awaitable[None]]
) -> None:
    """A tryout (s28): the Russian refusal before a login lacked the password's
    placeholder, and the third wrong password did not say the connection closes."""
    await register("vera", "right-1")
    vera = await connect.raw(port, "vera")
    for line in ("style human", "lang ru", "who"):
        await vera.send(line)
    refused = await vera.read_until(lambda x: x.startswith("Ошибка ("))
    assert refused == "Ошибка (not-logged-in): сначала войдите: login ИМЯ [ПАРОЛЬ]"
    for _ in range(3):
        await vera.send("login vera wrong-1")
        await vera.read_until(lambda x: x.startswith("Ошибка (bad-password)"))
    bye = await vera.read_until(lambda x: x.startswith("Слишком"))
    assert bye == "Слишком много неверных паролей: соединение закрывается."
    await vera.wait_closed()
