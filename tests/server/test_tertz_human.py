"""Tertz over real sockets: a whole match in the human style (its break and mariage
typed in Russian), and the machine style's view fields and refusals."""

from __future__ import annotations

import re

import trio

from .client import PROMPT, LineClient, human_choice, next_ask, seat_pair
from .conftest import Connector

TIMEOUT = 20
BREAKS = re.compile(r"(?:lomayu|ломаю) (\d+)\.\.(\d+)")  # the prompt's "lomayu 1..12"
# a Tertz call or outcome as its token, where a Russian line says it in Russian
TOKENS = re.compile(r"lomayu|dvesti|sto-|\bsplit\b|mariazh")
# who counted a split deal (docs/rules.md §12.6), told under its line
COUNTED = re.compile(
    r"(?:\w+ took fewer tricks, so he counts|Equal tricks: \w+, who did not take the last,"
    r" counts) his cards: (?P<cards>\d+), written as (?P<written>\d+); \w+ writes the rest\."
)


def tertz_choice(options: str) -> str:
    """Cards first; the deck broken and mariage said as people say them in Russian."""
    tokens = [t.strip() for g in options.split(" | ") for t in g.strip().split(", ")]
    breaks = [m for t in tokens if (m := BREAKS.fullmatch(t))]
    if breaks:
        return "ломаю " + breaks[0].group(2)  # the most cards it may move
    if "bella" in tokens or "марьяж" in tokens:  # (a Russian table offers «марьяж»)
        return "марьяж"
    return human_choice(options)


async def play_tertz(client: LineClient, said: list[str]) -> str:
    while True:
        line = await client.read_until(lambda _: True, TIMEOUT)
        assert not line.startswith("Error"), f"{client.label}: {line}"
        if line.startswith("Game over:"):
            return line
        prompt = PROMPT.match(line)
        if prompt:
            said.append(tertz_choice(prompt.group(1)))
            await client.send(said[-1])


async def open_tertz(client: LineClient) -> str:
    """``client`` opens a two-player Tertz table: its number."""
    await client.send("new 2 tertz")
    opened = await client.read_until(lambda line: line.startswith("You sit at table"))
    table = re.search(r"table (\d+)", opened)
    assert table is not None
    return table.group(1)


async def play_first_card(client: LineClient) -> None:
    """The first card the prompt offers: one each makes the first trick."""
    prompt = PROMPT.match(await client.read_until(lambda x: PROMPT.match(x) is not None))
    assert prompt is not None
    await client.send(prompt.group(1).split(" | ")[-1].split(", ")[0])


async def test_a_whole_tertz_match_in_the_human_style(port: int, connect: Connector) -> None:
    anna = await connect.human(port, "anna")
    boris = await connect.human(port, "boris")
    await boris.send(f"sit {await open_tertz(anna)}")
    await anna.read_until(lambda line: line.startswith("Deal 1. "), TIMEOUT)
    await anna.send("state")  # the whole table: trump without anybody who ordered it
    trump = await anna.read_until(lambda line: line.startswith("Trump: "), TIMEOUT)
    assert re.fullmatch(r"Trump: [♠♥♦♣]\. Turned: .+\.", trump), trump
    said: dict[str, list[str]] = {"anna": [], "boris": []}
    ends: dict[str, str] = {}

    async def run(client: LineClient, name: str) -> None:
        ends[name] = await play_tertz(client, said[name])

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run, anna, "anna")
            nursery.start_soon(run, boris, "boris")
    assert ends["anna"] == ends["boris"]
    everything = anna.lines + boris.lines
    assert any(x.startswith("Talon: 14") for x in everything)
    assert any(x.startswith("Talon: 2") for x in everything)
    assert any(x.startswith("Their tricks: ") for x in everything)
    # the breaker is asked, and told about himself in the second person
    assert any(x.startswith("You break the deck (lomayu N): ") for x in everything)
    assert [x for x in everything if len(x) > 80] == []
    assert any(s.startswith("ломаю ") for s in said["anna"] + said["boris"])
    # English says the break as it is typed, and the outcome's word as it was
    assert any(re.fullmatch(r"Your call \[\d+ s\]: lomayu 1\.\.\d+", x) for x in everything)
    assert any(re.fullmatch(r"(anna|boris): lomayu \d+", x) for x in everything)
    assert any(x.startswith("Deal 1: split. ") for x in everything)
    assert not any("igrayu" in x or "pas |" in x for x in everything)  # nobody bids
    scores = re.findall(r"\d+", ends["anna"])
    assert scores and max(int(s) for s in scores) >= 500
    # each split says who counted and what (a tryout, s45, read 'Points: 65 … Written:
    # 70' as a five rounded up): his cards rounded to tens, a five down
    told = "\n".join(anna.lines).replace("\n  ", " ").split("\n")
    splits = [i for i, x in enumerate(told) if re.match(r"Deal \d+: split\. ", x)]
    assert splits, told
    for i in splits:
        count = COUNTED.fullmatch(told[i + 1])
        assert count is not None, told[i : i + 2]
        cards, written = int(count["cards"]), int(count["written"])
        assert written == (cards + 4) // 10 * 10, count


async def test_the_machine_style_tells_the_talon_and_refuses_three_players(
    port: int, connect: Connector
) -> None:
    a = await connect.machine(port, "m1")
    b = await connect.machine(port, "m2")
    await a.send("new 3 tertz")
    refusal = await a.expect("error")
    assert refusal["code"] == "bad-rules" and "2 players, not 3" in refusal["text"]
    await seat_pair(a, b, "2 tertz")
    ask = await a.read_until(lambda line: line.startswith(("ask ", "state ")), TIMEOUT)
    other = await b.read_until(lambda line: line.startswith(("ask ", "state ")), TIMEOUT)
    for line in (ask, other):
        assert " talon=14 " in line and " their_tricks=" in line
        assert " phase=play " in line and " player=" in line


async def test_a_break_out_of_range_is_a_bad_argument_naming_the_range(
    port: int, connect: Connector
) -> None:
    # failed before: 'unknown-command ... not a table call', though the word is one
    a = await connect.machine(port, "m1")
    b = await connect.machine(port, "m2")
    await seat_pair(a, b, "2 tertz")
    # before the first trick is taken no break is due: that is said first, whatever
    # the number (before: 'lomayu N: N from 1 to 12', as if one of them would do)
    out_of_phase = "the loser of the first trick breaks the deck, once, after it"
    asked = await next_ask(a, b)
    assert asked is not None
    for typed in ("lomayu 0", "ломаю 0", "lomayu 13", "break 5x", "ломаю"):
        await a.send(typed)
        refusal = await a.expect("error")
        assert refusal == {"code": "not-allowed", "text": out_of_phase}, typed
    for _ in range(2):  # the first trick
        ask, seat = asked
        cards = [c for c in ask["legal"].split(",") if c[0] in "789JQKA1"]
        await seat.send(cards[0])
        asked = await next_ask(a, b)
        assert asked is not None
    ask, loser = asked
    assert ask["legal"].startswith("lomayu-1,"), ask
    winner = b if loser is a else a
    await winner.send("lomayu 0")  # the winner does not break: the loser does
    refused = (await winner.expect("error"))["text"]
    assert re.fullmatch(r"seat [01] breaks the deck first", refused), refused
    # the loser, at the break: a number it does not have names the range
    # ('²' and '①' are str.isdigit() but int() refuses them: they closed the table
    # the call named as typed (a Russian screen showed 'lomayu N' for 'ломаю 13'), and
    # the word without its number too (it was 'not a call', no range said)
    for typed, word in (
        ("lomayu 13", "lomayu"),
        ("lomayu-0", "lomayu"),
        ("break 5x", "break"),
        ("ломаю 13", "ломаю"),
        ("ломаю", "ломаю"),
        ("Break", "break"),
        ("lomayu ²", "lomayu"),
        ("break ①", "break"),
    ):
        await loser.send(typed)
        refusal = await loser.expect("error")
        assert refusal == {"code": "bad-argument", "text": f"{word} N: N from 1 to 12"}, typed
    await loser.send("frobnicate 3")
    assert (await loser.expect("error"))["code"] == "unknown-command"
    for seat in (a, b):
        await seat.send("state")
        shown = await seat.read_until(lambda x: x.startswith(("state ", "ask ")), TIMEOUT)
        assert " phase=play " in shown  # the table still plays


async def test_russian_players_see_the_talon_and_break_the_deck_in_russian(
    port: int, connect: Connector
) -> None:
    people = [await connect.human(port, name) for name in ("anna", "boris")]
    for person in people:
        await person.send("lang ru")
        await person.read_until(lambda x: x == "Язык: русский.")
    for person in people:
        await person.send("seek 2 tertz")
    said: list[str] = []

    async def play_in_russian(client: LineClient) -> None:
        while True:
            line = await client.read_until(lambda _: True, TIMEOUT)
            assert not line.startswith("Ошибка"), line
            if line.startswith("Партия окончена"):
                return
            if line.startswith("Ваш ход"):
                options = line.split(": ", 1)[1]
                said.append(tertz_choice(options))
                await client.send(said[-1])

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for person in people:
                nursery.start_soon(play_in_russian, person)
    sheet = await _russian_block(people[0], "sheet", "Запись")
    history = await _russian_block(people[0], "history", "История")
    # (under a deal, what its declarations scored, when any did: «За комбинации: …»)
    history = [x for x in history if not x.startswith("    За комбинации: ")]
    lines = people[0].lines + people[1].lines
    assert any(x.startswith("В колоде: 14") for x in lines)
    assert any(x.startswith("Взятки соперника: ") for x in lines)
    assert any(s.startswith("ломаю ") for s in said)
    # a tryout's Russian Tertz table said `tzman: lomayu-6`, `Ваш ход …: lomayu 1..12`,
    # `Раздача 1: split.`, `1 split  50 50` and `козырь ♥: split, …`
    assert any(re.fullmatch(r"Ваш ход \[\d+ с\]: ломаю 1\.\.\d+", x) for x in lines)
    assert any(re.fullmatch(r"(anna|boris): ломаю \d+", x) for x in lines)
    assert any(re.match(r"Раздача 1: поделена\. Очки: ", x) for x in lines)
    # (each side's written points and total right-aligned apart: " 60  60")
    assert re.fullmatch(r" +1 поделена +\d+ +\d+ +\d+ +\d+", sheet[2]), sheet
    assert re.search(r"^Раздача 1, сдаёт \w+, козырь [♠♥♦♣]: поделена, ", history[1]), history
    # the break under the first trick, after the trump 7's swap if one came in it
    # (history-trick's swap, said under its trick: a fresh-clone run's failure)
    after_first = [x for x in history[3:5] if "меняю —" not in x]
    assert re.fullmatch(r" +(anna|boris): ломаю \d+", after_first[0]), history
    assert [x for x in lines if TOKENS.search(x)] == []
    assert [x for x in lines if "белла" in x] == []  # Deberts's word: «марьяж» here


async def _russian_block(client: LineClient, command: str, title: str) -> list[str]:
    """The Russian lines that answer ``command``, from its title on ('lang ru' after
    it marks the end: the server answers in order)."""
    await client.send(command)
    await client.send("lang ru")
    lines = [await client.read_until(lambda x: x.startswith(title), TIMEOUT)]
    while (line := await client.read_until(lambda _: True, TIMEOUT)) != "Язык: русский.":
        lines.append(line)
    return lines


async def test_rules_at_a_tertz_table_say_its_target_not_the_variants(
    port: int, connect: Connector
) -> None:
    """At a to-301 table to-301's line says 301 (the table's line names no target an
    option's says: docs/protocol.md §5.9) and the tertz line no target of its own, in
    both languages (the tryout of session 13 was told 500, then 301)."""
    anna = await connect.machine(port, "anna")
    await anna.send("new 2 tertz to-301")
    table = (await anna.expect("ok", cmd="sit"))["table"]
    await anna.send("rules")
    told = [(await anna.expect("rules"))["text"] for _ in range(3)]
    assert told[0] == f"Table {table}: tertz for 2 players, options: to-301.", told
    assert told[1].startswith("tertz: ") and not re.search(r"\b(500|501)\b", told[1]), told
    assert told[2].startswith("to-301: The match is played to 301 points")
    boris = await connect.human(port, "boris")
    await boris.send("lang ru")
    await boris.send(f"rules {table}")
    lines = [await boris.read_until(lambda line: line.startswith("tertz: "))]
    while not lines[-1].startswith("to-301: "):
        lines.append(await boris.read_until(lambda _: True))
    said = " ".join(line.strip() for line in lines[:-1])  # wrapped to 80 columns
    assert "Игра до" not in said and not re.search(r"\b(500|501)\b", said), said


async def test_rules_of_a_variant_or_option_named_say_that_one(
    port: int, connect: Connector
) -> None:
    """'rules tertz', what a club player types to read the game, was refused with the
    command's bare form (an evening's tryout); it says that variant's
    lines of the list (or an option's), read as 'new' reads the name, at a table too."""
    anna = await connect.machine(port, "anna")
    await anna.send("rules tertz")
    told = [(await anna.expect("rules"))["text"] for _ in range(3)]
    assert told[0].startswith("tertz (variant, 2 players, to 500): Tertz, the ancestor"), told
    assert told[1].startswith("tertz is not played with the options: "), told
    assert told[2].startswith("tertz has no bidding"), told
    await anna.send("new 2")  # seated at a Deberts table: an option by name, any case
    await anna.expect("ok", cmd="sit")
    await anna.send("rules Tertz-501")
    assert (await anna.expect("rules"))["text"] == (
        "tertz-501 (option of tertz, 2 players): Tertz to 501 instead of 500."
    )  # (whose option: refused at every other game's table, fdb3939a)
    await anna.send("rules frob")  # no rule, no number: the command's form, as before
    # (its form names the rule too: 'rules [TABLE]' alone hid 'rules NAME', a review)
    assert await anna.expect("error") == {"code": "bad-argument", "text": "rules [TABLE|RULE]"}
    await anna.send("rules терц lang=ru")  # the club's spelling, in Russian
    said = (await anna.expect("rules"))["text"]
    assert said.startswith("tertz (вариант, игроков: 2, до 500): Терц, предок деберца"), said
    for _ in range(2):  # (what it refuses, and its bidding)
        await anna.expect("rules")
    await anna.send("rules tertz-swap-until-two lang=ru")
    said = (await anna.expect("rules"))["text"]
    assert said.startswith("tertz-swap-until-two (опция варианта tertz, игроков: 2): "), said


async def test_a_refused_rost_says_tertz_rule_in_english_and_russian(
    port: int, connect: Connector
) -> None:
    """Tertz's rost? is open at every trick while a seat holds nine cards: a tryout's
    refusal said Deberts's "rost? answers a declaration, before your first card, once".
    Nothing is declared when the deal starts: each seat, on its turn, is told so, in
    its language and its table's words."""
    anna = await connect.human(port, "anna")
    boris = await connect.human(port, "boris")
    await boris.send("lang ru")
    await boris.read_until(lambda x: x == "Язык: русский.")
    for person in (anna, boris):
        await person.send("seek 2 tertz")
    prompts = {"anna": "Your call", "boris": "Ваш ход"}
    told = {}

    async def ask_rost(client: LineClient, name: str) -> None:
        prompt = await client.read_until(lambda x: x.startswith(prompts[name]), TIMEOUT)
        await client.send("rost?")
        refusal = await client.read_until(lambda x: x.startswith(("Error", "Ошибка")))
        await client.send(prompt.split(" | ")[-1].split(": ")[-1].split(", ")[0])
        rest = await client.read_until(lambda _: True)  # cut at 80 columns: goes on "  …"
        told[name] = f"{refusal} {rest.strip()}" if rest.startswith("  ") else refusal

    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(ask_rost, anna, "anna")
            nursery.start_soon(ask_rost, boris, "boris")
    # (nothing is declared: that is the case, not the rule's conditions, which a seat
    # on its turn with nine cards meets: a tryout, s28)
    assert told["anna"] == (
        # (the call in the table's English words, as its prompt says it: s41)
        "Error (not-allowed): nothing is declared: ot chego? asks about a declaration"
    ), told
    assert told["boris"] == (
        # (in Tertz's own words: «от чего?», as its table says the call)
        "Ошибка (not-allowed): никто ничего не объявлял: «от чего?» спрашивают об "
        "объявленной комбинации"
    ), told


async def test_a_tertz_deal_is_announced_with_its_trump(port: int, connect: Connector) -> None:
    """Tertz has no bidding: the turned card makes the trump, said so where the deal is
    announced (a tryout's newcomer to Tertz, a Deberts player, read 'deals and turns
    10♠' as a card to bid on, s45); a Deberts deal's turned card names no trump."""
    anna = await connect.human(port, "anna")
    boris = await connect.human(port, "boris")
    await boris.send("lang ru")
    await boris.read_until(lambda x: x == "Язык: русский.")
    for person in (anna, boris):
        await person.send("seek 2 tertz")
    deal = await anna.read_until(lambda x: x.startswith("Deal 1. "), TIMEOUT)
    told = re.fullmatch(r"Deal 1\. \w+ deals and turns \S+?([♠♥♦♣]): trump ([♠♥♦♣])\. .+", deal)
    assert told is not None and told.group(1) == told.group(2), deal
    deal = await boris.read_until(lambda x: x.startswith("Раздача 1. "), TIMEOUT)
    told = re.fullmatch(
        r"Раздача 1\. \w+ сдаёт и открывает \S+?([♠♥♦♣]): козырь ([♠♥♦♣])\. .+", deal
    )
    assert told is not None and told.group(1) == told.group(2), deal
    carl, dina = await connect.human(port, "carl"), await connect.human(port, "dina")
    for person in (carl, dina):
        await person.send("seek 2")
    deal = await carl.read_until(lambda x: x.startswith("Deal 1. "), TIMEOUT)
    assert re.fullmatch(r"Deal 1\. \w+ deals and turns \S+\. Score: .+", deal), deal


async def test_the_first_tricks_winner_is_told_the_loser_breaks_the_deck(
    port: int, connect: Connector
) -> None:
    """After the first trick its loser breaks the deck before anyone leads: the winner,
    told only who took the trick, waited in silence till the break came (a tryout, s45).
    He is shown the question and whom the table waits for; a program, nothing new."""
    anna, boris = await connect.human(port, "anna"), await connect.human(port, "boris")
    for person in (anna, boris):
        await person.send("seek 2 tertz")
    people = {"anna": anna, "boris": boris}
    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            for person in (anna, boris):
                nursery.start_soon(play_first_card, person)
        taken = await anna.read_until(lambda x: " takes the trick " in x)
    winner = people[taken.split()[0]]
    loser = boris if winner is anna else anna
    told = [await winner.read_until(lambda x: x.startswith(f"{loser.label} breaks the deck"))]
    told.append(await winner.read_until(lambda _: True))
    assert told == [
        f"{loser.label} breaks the deck (lomayu N): N cards from the talon's top go under it.",
        f"Waiting for {loser.label}.",
    ], told
    await loser.read_until(lambda x: x.startswith("Your call") and "lomayu 1..12" in x)


async def test_a_watcher_is_told_the_loser_breaks_the_deck(port: int, connect: Connector) -> None:
    """The first trick's break of the deck is shown to a watcher in the human style as
    to its winner: the trick's line alone said nothing of whom the table waits for."""
    anna, boris = await connect.human(port, "anna"), await connect.human(port, "boris")
    carl = await connect.human(port, "carl")
    table = await open_tertz(anna)
    await carl.send(f"observe {table}")
    await carl.read_until(lambda line: line.startswith("You observe table"), TIMEOUT)
    await boris.send(f"sit {table}")
    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            for person in (anna, boris):
                nursery.start_soon(play_first_card, person)
        taken = await carl.read_until(lambda x: " takes the trick " in x)
        loser = "boris" if taken.split()[0] == "anna" else "anna"
        told = [await carl.read_until(lambda x: x.startswith(f"{loser} breaks the deck"))]
        told.append(await carl.read_until(lambda _: True))
    assert told == [
        f"{loser} breaks the deck (lomayu N): N cards from the talon's top go under it.",
        f"Waiting for {loser}.",
    ], told
