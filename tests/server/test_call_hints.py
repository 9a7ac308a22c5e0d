"""A mistyped call over a real socket gets the one near legal call as a hint
(docs/protocol.md §8): `hint=` before `text=` in the machine style, "Did you mean …?" /
"Может быть, «…»?" for people; nothing is played."""

from __future__ import annotations

from .client import fields, next_ask, seat_pair
from .conftest import Connector


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
    refused = await asked.read_until(lambda x: x.startswith(("Error", "Ошибка")))
    while not refused.endswith("?"):  # the human style wraps at 80 columns
        refused += " " + await asked.read_until(lambda _: True)
    said = "Может быть, «пас»?" if asked is anna else "Did you mean pas?"
    assert " ".join(refused.split()).endswith(said), refused
