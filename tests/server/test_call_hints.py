"""A mistyped call over a real socket gets the one near legal call as a hint
(docs/protocol.md §8): `hint=` before `text=` in the machine style, "Did you mean …?" /
"Может быть, «…»?" for people; nothing is played. A mistyped command gets its name,
said to people only."""

from __future__ import annotations

from .client import LineClient, fields, next_ask, seat_pair
from .conftest import Connector

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
PONG = ("ok cmd=ping", "pong")  # 'ping''s answer in either style


async def test_a_slip_of_the_keys_gets_a_hint_and_changes_nothing(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    found = await next_ask(ann, bob)
    assert found is not None
    ask, first = found
    assert ask["phase"] == "bidding"
    await first.send("igrau")
    line = await first.read_until(lambda x: x.startswith("error "))
    assert line == (
        "error code=unknown-command hint=igrayu text=not a table call: 'igrau'. "
        "Type 'help' or 'calls'."
    )
    await first.send("blah blah")  # nothing near: no hint
    assert "hint" not in fields(await first.read_until(lambda x: x.startswith("error ")))[1]
    await first.send("state")  # the request stands as it was, asked again
    again = fields(await first.read_until(lambda x: x.startswith("ask ")))[1]
    assert (again["seq"], again["legal"]) == (ask["seq"], ask["legal"])
    await first.send("igrayu")  # the hint's token is the call
    await first.read_until(lambda x: "kind=call" in x and "call=igrayu" in x)


async def test_people_are_asked_did_you_mean_in_their_language(
    port: int, connect: Connector
) -> None:
    anna = await connect.human(port, "anna")
    boris = await connect.human(port, "boris")
    await anna.send("lang ru")
    await anna.read_until(lambda x: x == "Язык: русский.")
    for person in (anna, boris):
        await person.send("seek 2")
    both = [anna, boris]
    asked = None
    while asked is None:  # whoever bids first
        for person in both:
            if any(x.startswith(("Your call", "Ваш ход")) for x in person.lines):
                asked = person
                break
        else:
            await anna.drain(0.05)
            await boris.drain(0.05)
    await asked.send("пса")  # п-а-с with two letters swapped
    refused = await _refusal(asked)
    said = "Может быть, «пас»?" if asked is anna else "Did you mean pas?"
    assert refused.endswith(said), refused


async def test_a_mistyped_command_is_named_to_people_at_a_table_or_not(
    port: int, connect: Connector
) -> None:
    anna = await connect.human(port, "anna")
    await anna.send("tabels")
    assert (await _refusal(anna)).endswith("Did you mean 'tables'?")
    await anna.send("lang ru")
    await anna.read_until(lambda x: x == "Язык: русский.")
    await anna.send("histroy")
    assert (await _refusal(anna)).endswith("Может быть, history?")
    # a command's Russian word runs it (docs/protocol.md §4); with a Latin look-alike
    # slipped in ('e') it is named
    await anna.send("рeванш")
    assert (await _refusal(anna)).endswith("Может быть, rematch?")
    # seated, where a line that is no command is a table call: no call near, a command is
    ann = await connect.machine(port, "ann")
    bob = await connect.human(port, "bob")
    await ann.send("seek 2")
    await bob.send("seek 2")
    await ann.read_until(lambda x: x.startswith("event ") and "kind=start" in x, 30)
    await bob.send("sheat")
    said = await _refusal(bob)
    assert "not a table call" in said and said.endswith("Did you mean 'sheet'?"), said
    await bob.send("score")  # what it does, not how it is spelt
    said = await _refusal(bob)
    assert "not a table call" in said and said.endswith("Did you mean 'sheet'?"), said
    await ann.send("tabels")  # a program is told it in a field, not as a call's hint=
    line = await ann.read_until(lambda x: x.startswith("error "))
    told = fields(line)[1]
    assert told["command_hint"] == "tables" and "hint" not in told, line
    assert "Did you mean" not in told["text"], line
    # a password command mistyped at the table is not read back whole (a review, s28:
    # 'пароль OLD NEW' came back in full, to stay in a client's log)
    await bob.send("pasword s3cret n3wpass")
    said = await _refusal(bob)
    assert "s3cret" not in said and "n3wpass" not in said, said
    assert said.endswith("Did you mean 'password'?"), said


async def _refusal(person: LineClient) -> str:
    """A person's refusal with its question, its lines (wrapped at 80 columns) joined."""
    refused = await person.read_until(lambda x: x.startswith(("Error", "Ошибка")))
    while not refused.endswith("?"):
        refused += " " + await person.read_until(lambda _: True)
    return " ".join(refused.split())


async def test_help_of_a_command_said_by_its_meaning_or_mistyped_names_it(
    port: int, connect: Connector
) -> None:
    """A tryout (s28): a bare 'пароль' was hinted 'password', but 'help пароль' said
    only that there is no such command. 'пароль' is the command now (docs/protocol.md
    §4): its help is told; typed with a Latin look-alike ('a'), it is named."""
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x == "Язык: русский.")
    await vera.send("help пароль")
    said = await vera.read_until(lambda x: "password" in x)
    assert said.startswith("password СТАРЫЙ НОВЫЙ: Сменить пароль"), said
    await vera.send("help пaроль")
    said = await vera.read_until(lambda x: x.startswith("нет команды"))
    assert said == "нет команды «пaроль»; может быть, help password?"
    await vera.send("help фыва")  # near nothing: no guess
    said = await vera.read_until(lambda x: x.startswith("нет команды"))
    assert said == "нет команды «фыва»; help перечисляет команды, calls — ходы"
    bot = await connect.machine(port, "bot")
    await bot.send("help tabels")
    assert await bot.expect("help") == {"text": "no command 'tabels': did you mean 'help tables'?"}


async def test_a_rank_alone_names_the_cards_it_may_be_and_plays_none(
    port: int, connect: Connector
) -> None:
    """A card is its rank and suit (docs/protocol.md §8.1): 'K' holding two kings one
    may play got a bare "not a table call: 'K'" (a tryout, s42); now the refusal names
    them, or, one alone, hints it; nothing is played."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    seen: set[str] = set()
    while seen != {"two", "one"}:
        found = await next_ask(ann, bob)
        assert found is not None, seen  # (a match has more than enough tricks for both)
        ask, who = found
        legal = ask["legal"].split(",")
        if ask["phase"] != "play":
            await who.send("igrayu" if "igrayu" in legal else legal[0])
            continue
        by_rank: dict[str, list[str]] = {}
        for token in legal:  # the cards only: 'menyayu' may stand among them
            if token[-1] in "shdc" and token[:-1] in RANKS:
                by_rank.setdefault(token[:-1], []).append(token)
        for rank, cards in sorted(by_rank.items()):
            kind = "two" if len(cards) > 1 else "one"
            if kind in seen:
                continue
            seen.add(kind)
            await who.send(rank)
            _, error = fields(await who.read_until(lambda x: x.startswith("error ")))
            if kind == "one":
                assert (error["code"], error.get("hint")) == ("unknown-command", cards[0])
                assert error["text"] == f"'{rank}' alone is no card: type it with its suit."
            else:
                symbols = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
                named = ", ".join(sorted(t[:-1] + symbols[t[-1]] for t in cards))
                assert error["code"] == "ambiguous-call" and "hint" not in error
                assert error["text"].startswith(f"'{rank}' is which card: ")
                assert set(error["text"].split(": ")[1].split("?")[0].split(", ")) == set(
                    named.split(", ")
                )
            await who.send("state")  # nothing played: the same request, asked again
            again = fields(await who.read_until(lambda x: x.startswith("ask ")))[1]
            assert (again["seq"], again["legal"]) == (ask["seq"], ask["legal"])
        await who.send(legal[0])


async def test_a_rank_alone_off_ones_move_is_told_whose_move_it_is_as_a_card_is(
    port: int, connect: Connector
) -> None:
    """'K' off one's move got a bare "not a table call: 'K'", where 'Kh' is told whose
    move it is (a tryout, s43): a rank alone is told the same, whether or not one holds
    a card of it, in either style and language; nothing is played."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    while True:
        found = await next_ask(ann, bob)
        assert found is not None
        ask, who = found
        if ask["phase"] == "play":
            other = bob if who is ann else ann
            await other.send("state")
            state = await other.read_until(lambda x: x.startswith("state "))
            hand = fields(state)[1]["hand"].split(",")
            # a rank he holds no card of: a hand may hold every rank (nine cards, eight
            # ranks: --deal-seed=07877fd0), and then a move or two on
            missing = next((r for r in RANKS if not any(c[:-1] == r for c in hand)), None)
            if missing is not None:
                break
        legal = ask["legal"].split(",")
        await who.send("igrayu" if "igrayu" in legal else legal[0])
    held = hand[0]

    async def told(line: str) -> list[str]:
        await other.send(line)
        await other.send("ping")
        out = []
        while not (said := await other.read_until(lambda _: True)).startswith(
            ("ok cmd=ping", "pong")
        ):
            out.append(said)
        return out

    card = await told(held)
    assert len(card) == 1 and fields(card[0])[1]["code"] == "not-your-turn", card
    assert await told(held[:-1]) == card  # a rank held
    assert await told(missing) == card  # and one not held: as its card would be
    await other.send("style human")
    await other.read_until(lambda x: x.startswith("Style"))
    for lang in ("en", "ru"):
        await other.send(f"lang {lang}")
        await other.read_until(lambda x: x.startswith(("Language", "Язык")))
        card = await told(held)
        assert card and card[0].startswith(("Error (not-your-turn)", "Ошибка")), card
        assert await told(held[:-1]) == card
    await other.send("style machine")
    await other.read_until(lambda x: x.startswith("ok cmd=style"))
    await who.send("state")  # nothing played: the same request, asked again
    again = fields(await who.read_until(lambda x: x.startswith("ask ")))[1]
    assert (again["seq"], again["legal"]) == (ask["seq"], ask["legal"])


async def test_a_rank_alone_none_of_which_one_may_play_says_so_and_what_one_may(
    port: int, connect: Connector
) -> None:
    """'K' on one's move holding no king one may play (none, or another suit to
    follow) got "not a table call: 'K'" (s43's leftover): it is told that no card of
    that rank may be played now, and the cards that may be, in either style and
    language; nothing is played."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    while True:
        found = await next_ask(ann, bob)
        assert found is not None  # (a match has tricks enough to miss a rank in)
        ask, who = found
        legal = ask["legal"].split(",")
        cards = [t for t in legal if t[-1] in "shdc" and t[:-1] in RANKS]
        missing = [r for r in RANKS if not any(c[:-1] == r for c in cards)]
        if ask["phase"] == "play" and cards and missing:
            break
        await who.send("igrayu" if "igrayu" in legal else legal[0])
    symbols = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
    shown = {t[:-1] + symbols[t[-1]] for t in cards}

    async def told(line: str) -> str:
        await who.send(line)
        await who.send("ping")
        out = []
        while not (said := await who.read_until(lambda _: True)).startswith(PONG):
            out.append(said)
        return " ".join(" ".join(out).split())

    rank = missing[0]
    _, error = fields(await told(rank))
    assert error["code"] == "unknown-command" and "hint" not in error, error
    head = f"'{rank}': you have no card of that rank you may play now; you may play "
    assert error["text"].startswith(head), error
    assert set(error["text"][len(head) : -1].split(", ")) == shown, error
    await who.send("style human")
    await who.read_until(lambda x: x.startswith("Style"))
    said = await told(rank)
    assert said.startswith(f"Error (unknown-command): {head}"), said
    assert "not a table call" not in said, said
    await who.send("lang ru")
    await who.read_until(lambda x: x.startswith("Язык"))
    said = await told(rank)
    assert f"«{rank}»: такой карты, которую можно сыграть сейчас, у вас нет" in said, said
    assert "сыграть можно" in said and "не ход" not in said, said
    await who.send("style machine")
    await who.read_until(lambda x: x.startswith("ok cmd=style"))
    await who.send("state")  # nothing played: the same request, asked again
    again = fields(await who.read_until(lambda x: x.startswith("ask ")))[1]
    assert (again["seq"], again["legal"]) == (ask["seq"], ask["legal"])


async def test_hod_alone_says_which_card_or_what_stops_a_card(
    port: int, connect: Connector
) -> None:
    """A tryout: a bare 'hod' was told "not a table call … Type 'help' or 'calls'",
    though 'calls' lists "CARD or hod CARD". On one's move in the play it is told an
    example and the cards one may play; in the bidding, that cards come after the
    order; off one's move, whose move it is, as a card is; nothing is played."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)

    async def told(client: LineClient, line: str) -> str:
        await client.send(line)
        await client.send("ping")
        out = []
        while not (said := await client.read_until(lambda _: True)).startswith(PONG):
            out.append(said)
        return " ".join(" ".join(out).split())

    found = await next_ask(ann, bob)
    assert found is not None
    ask, who = found
    assert ask["phase"] == "bidding"
    assert await told(who, "hod") == (
        "error code=wrong-phase text=bidding is on: hod comes after the order"
    )
    while ask["phase"] != "play":
        legal = ask["legal"].split(",")
        await who.send("igrayu" if "igrayu" in legal else legal[0])
        found = await next_ask(ann, bob)
        assert found is not None
        ask, who = found
    symbols = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
    cards = [t for t in ask["legal"].split(",") if t[-1] in "shdc" and t[:-1] in RANKS]
    shown = {t[:-1] + symbols[t[-1]] for t in cards}
    _, error = fields(await told(who, "hod"))
    assert error["code"] == "unknown-command", error
    head = "'hod' plays which card? Name it: 'hod "
    assert error["text"].startswith(head), error
    example, _, rest = error["text"][len(head) :].partition("'; you may play ")
    assert example in shown and set(rest.rstrip(".").split(", ")) == shown, error
    assert (error.get("hint") is None) == (len(cards) > 1), error
    other = bob if who is ann else ann
    await other.send("state")
    hand = fields(await other.read_until(lambda x: x.startswith("state ")))[1]["hand"].split(",")
    assert await told(other, "hod") == await told(other, hand[0])  # as a card: whose move
    await who.send("style human")
    await who.read_until(lambda x: x.startswith("Style"))
    await who.send("lang ru")
    await who.read_until(lambda x: x.startswith("Язык"))
    said = await told(who, "ход")
    ru = "Ошибка (unknown-command): «ход» — какой картой? Назовите её: «ход "
    assert said.startswith(ru), said
    assert "сыграть можно" in said and "не ход" not in said, said
    await who.send("style machine")
    await who.read_until(lambda x: x.startswith("ok cmd=style"))
    await who.send("state")  # nothing played: the same request, asked again
    again = fields(await who.read_until(lambda x: x.startswith("ask ")))[1]
    assert (again["seq"], again["legal"]) == (ask["seq"], ask["legal"])


async def test_a_variants_name_alone_in_the_lobby_is_told_its_new(
    port: int, connect: Connector
) -> None:
    """'харьков' alone was told only "not a command" (a tryout, s50): it means 'new'."""
    anna = await connect.human(port, "anna")
    for typed, told in (
        ("kharkov", "new 2 kharkov"),
        ("Moscow", "new 2 Moscow"),
        ("tertz", "new 2 tertz"),
    ):
        await anna.send(typed)
        assert (await _refusal(anna)).endswith(f"Did you mean '{told}'?"), typed
    await anna.send("lang ru")
    await anna.read_until(lambda x: x == "Язык: русский.")
    for typed in ("харьков", "харків", "москва", "терц"):
        await anna.send(typed)
        refused = await _refusal(anna)
        assert refused.endswith(f"не сидите. Наберите help. Может быть, new 2 {typed}?"), refused
    await anna.send("харьков 4")  # more than the name: no guess at what else it says
    await anna.send("ping")
    assert await anna.read_until(lambda x: "Может быть" in x or x in PONG) in PONG
    ann = await connect.machine(port, "ann")
    await ann.send("харьков")
    line = await ann.read_until(lambda x: x.startswith("error "))
    assert fields(line)[1]["command_hint"] == "new"  # a command's name, as always
    await ann.send("new 2 харьков")  # what the hint says is a command the lobby runs
    await ann.expect("ok", cmd="sit")
