"""Refusals that say what went wrong and what to type instead, in English and Russian,
and change nothing (a tryout, s44): a rule for other player counts ('new 4 kharkov
short'), a player count no game is for ('new 5', which named the 'moscow' never
typed), a bid in the play ('bidding is over' alone), a command typed in Cyrillic
letters ('фингер anna', no hint), and 'lang uk' ending as the sentence it is
(docs/protocol.md §4.3c, §5.3, §8, §4)."""

from __future__ import annotations

import pytest
import trio

from .client import LineClient, next_ask, person_told, seat_pair
from .conftest import Connector


async def _russian(connect: Connector, port: int, name: str) -> LineClient:
    person = await connect.human(port, name)
    await person_told(person, "lang ru")
    return person


async def _said(person: LineClient, command: str) -> str:
    """What a person is told in answer to ``command``, its wrapped lines joined."""
    return " ".join(x.strip() for x in await person_told(person, command))


async def _no_tables(client: LineClient) -> None:
    await client.send("tables")
    assert (await client.expect("tables"))["total"] == "0"  # nothing opened


async def test_a_rule_for_other_player_counts_says_what_to_type(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    for command, text in (
        (
            "new 4 kharkov short",
            "'short' is for 2 or 3 players, not 4: leave it out, or play with 2 or 3",
        ),
        (
            "seek 3 tertz",
            "'tertz' is for 2 players, not 3: play it with 2, or choose another variant",
        ),
    ):
        await ann.send(command)
        assert await ann.expect("error") == {"code": "bad-rules", "text": text}
    await _no_tables(ann)
    vera = await _russian(connect, port, "vera")
    assert await _said(vera, "new 4 kharkov short") == (
        "Ошибка (bad-rules): «short» — для 2 или 3 игроков, а не для 4: уберите эту"
        " опцию или наберите другое число игроков (2 или 3)"
    )
    assert await _said(vera, "new 3 tertz") == (
        "Ошибка (bad-rules): «tertz» — для 2 игроков, а не для 3: наберите другое число"
        " игроков (2) или другой вариант"
    )


async def test_a_player_count_no_game_is_for_is_said_as_typed(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    for command in ("new 5", "seek 7", "new 5 kharkov", "new 1 moscow to-301"):
        await ann.send(command)
        error = await ann.expect("error")
        players, name = command.split()[1], command.split()[0]
        assert error == {
            "code": "bad-rules",
            "text": f"no game here is played by {players}: PLAYERS is 2, 3 or 4"
            f" ({name} [PLAYERS] [VARIANT] [OPTION ...])",
        }, error
    await ann.send("seek 2")  # no seek was left waiting by the refused one
    assert (await ann.expect("ok"))["cmd"] == "seek"
    await ann.send("unseek")
    await ann.expect("ok", cmd="unseek")
    await _no_tables(ann)
    vera = await _russian(connect, port, "vera")
    told = await _said(vera, "new 5")
    assert told == (
        "Ошибка (bad-rules): здесь нет игры на столько игроков (5): число игроков — 2, 3"
        " или 4 (new [ИГРОКОВ] [ВАРИАНТ] [ОПЦИИ…])"
    ), told
    assert "moscow" not in told


@pytest.mark.timeout(60)
async def test_a_bid_in_the_play_says_what_is_asked_now(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob, "2")
    with trio.fail_after(30):
        while True:  # ordered at the first chance: the play
            asked = await next_ask(ann, bob)
            assert asked is not None
            ask, seat = asked
            if ask["phase"] == "play":
                break
            legal = ask["legal"].split(",")
            await seat.send(f"{'igrayu' if 'igrayu' in legal else legal[-1]} seq={ask['seq']}")
    other = bob if seat is ann else ann
    await seat.send("pas")
    assert await seat.expect("error") == {
        "code": "wrong-phase",
        "text": "bidding is over: it is the play now, and your turn: play a card",
    }
    await other.send("igrayu")
    assert await other.expect("error") == {
        "code": "wrong-phase",
        "text": f"bidding is over: it is the play now, seat {ask['seat']}'s turn",
    }
    name = "ann" if seat is ann else "bob"
    for client in (seat, other):
        await client.send("style human")
        await client.read_until(lambda x: x == "Style human.")
        await client.send("lang ru")
        await client.read_until(lambda x: x.startswith("Язык"))
    assert await _said(seat, "пас") == (
        "Ошибка (wrong-phase): торговля уже закончилась: идёт розыгрыш, ваш ход — кладите карту"
    )
    assert await _said(other, "играю") == (
        f"Ошибка (wrong-phase): торговля уже закончилась: идёт розыгрыш, ходит {name}"
    )
    await other.send("lang en")
    await other.read_until(lambda x: x.startswith("Language"))
    assert await _said(other, "pas") == (
        f"Error (wrong-phase): bidding is over: it is the play now, {name}'s turn"
    )


async def test_a_command_spelt_in_cyrillic_gets_a_hint_towards_it(
    port: int, connect: Connector
) -> None:
    misha = await connect.human(port, "misha")
    await person_told(misha, "lang en")  # (the welcome read)
    assert await _said(misha, "фингер anna") == (
        "Error (unknown-command): 'фингер' is not a command, and you sit at no table."
        " Type 'help'. Did you mean 'finger'?"
    )
    vera = await _russian(connect, port, "vera")
    for typed, meant in (("фингр anna", "finger"), ("тейблс", "tables"), ("обсерв 3", "observe")):
        told = await _said(vera, typed)
        assert told.endswith(f"Наберите help. Может быть, {meant}?"), told
    # a word that spells no command is not guessed at
    told = await _said(vera, "хрень")
    assert "Может быть" not in told, told


async def test_lang_uk_ends_as_the_sentence_it_is(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send("lang uk")
    error = await ann.expect("error")
    assert error["code"] == "bad-argument"
    assert error["text"].endswith("are understood in either language."), error
    vera = await _russian(connect, port, "vera")
    told = await _said(vera, "lang uk")
    assert told.endswith("понимаются на любом языке."), told
