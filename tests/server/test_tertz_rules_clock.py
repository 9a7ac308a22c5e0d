"""'rules' says what the clock does for a seat out of time, the break of Tertz's deck
included (it breaks by one, docs/protocol.md §11.2: the first of legal=); the tryout of
session 13 saw the automatic lomayu-1 that 'rules' did not mention. And the asker of
rost? out of time after the declarer's answer: the clock says pishet for him, never
his ot-… (game/clock.py), and 'rules' says so."""

from __future__ import annotations

from .conftest import Connector


async def test_the_rules_clock_line_names_the_automatic_break(
    port: int, connect: Connector
) -> None:
    anna = await connect.machine(port, "anna")
    await anna.send("new 2 tertz")
    table = (await anna.expect("ok", cmd="sit"))["table"]
    await anna.send("rules")
    clock = await anna.read_until(lambda x: x.startswith("rules ") and "Clock:" in x)
    # Tertz has no bidding: no 'pass in bidding' (a tryout, s31)
    assert (
        "Out of time: in Tertz the break lomayu 1, the forced answer in the table talk "
        "(after the answer to rost?, pishet for the asker), the lowest legal card in play. "
        "3 calls in a row" in clock
    ), clock
    assert "bidding" not in clock
    olga = await connect.human(port, "olga")
    await olga.send("lang ru")
    await olga.send(f"sit {table}")
    await olga.send("rules")
    said = [await olga.read_until(lambda x: x.startswith("Часы:"))]
    said += [await olga.read_until(lambda _: True) for _ in range(3)]  # wrapped at 80
    told = " ".join(x.strip() for x in said)
    assert (
        "за вас ходят часы: в терце «ломаю 1», вынужденный ответ в разговоре (после "
        "ответа на «рост?» спросивший «пишет»), младшая" in told
    ), told
    assert "торговл" not in told


async def test_a_deberts_tables_clock_line_says_nothing_of_a_break(
    port: int, connect: Connector
) -> None:
    """Only a Tertz table's clock breaks a deck: a Deberts table's line is as it was."""
    anna = await connect.machine(port, "anna")
    await anna.send("new 2")
    await anna.expect("ok", cmd="sit")
    await anna.send("rules")
    clock = await anna.read_until(lambda x: x.startswith("rules ") and "Clock:" in x)
    assert (
        "Out of time: pass in bidding, the forced answer in the table talk (after the "
        "answer to rost?, pishet for the asker), the lowest legal card in play. 3 calls "
        "in a row by the clock" in clock
    ), clock
    assert "Tertz" not in clock and "lomayu" not in clock
    olga = await connect.human(port, "olga")
    await olga.send("lang ru")
    await olga.send("new 3")
    await olga.send("rules")
    said = [await olga.read_until(lambda x: x.startswith("Часы:"))]
    said += [await olga.read_until(lambda _: True) for _ in range(3)]  # wrapped at 80
    told = " ".join(x.strip() for x in said)
    assert "младшая разрешённая карта в игре. Проигрыш:" in told and "ломаю" not in told
    assert "(после ответа на «рост?» спросивший «пишет»)" in told, told
