"""'history' and 'sheet' take no argument (docs/protocol.md §5.13, §5.17): one typed
after them is refused with the command's form, in the reader's language, and nothing
is told in its place.

A club evening of three: olga, at table 5, typed `history 3` for the match she had
just played at table 3 and was told table 5's, as if she had asked for it.
"""

from __future__ import annotations

import trio

from .conftest import Connector

# a refusal, or the history or sheet told in its place
ANSWERS = ("Ошибка", "Error", "История", "Запись", "History", "Score sheet")


async def test_history_and_sheet_with_an_argument_are_refused_with_their_form(
    port: int, connect: Connector
) -> None:
    tanya, olga, ed = [await connect.human(port, name) for name in ("tanya", "olga", "ed")]
    await olga.send("lang ru")
    await olga.read_until(lambda x: x == "Язык: русский.")
    await tanya.send("new 3")
    await tanya.read_until(lambda x: x.startswith("You sit at table"))
    await olga.send("sit 1")
    await ed.send("sit 1")
    await ed.read_until(lambda x: x.startswith("The game starts"))
    with trio.fail_after(20):
        for person, typed, said in (
            (olga, "history 3", "Ошибка (bad-argument): набирайте так: history"),
            (olga, "sheet 3", "Ошибка (bad-argument): набирайте так: sheet"),
            (ed, "history m1", "Error (bad-argument): history"),
            (ed, "sheet all", "Error (bad-argument): sheet"),
        ):
            await person.send(typed)
            answer = await person.read_until(lambda x: x.startswith(ANSWERS))
            assert answer == said, (typed, answer)
        await olga.send("history")  # alone, the table's match as before
        assert (await olga.read_until(lambda x: x.startswith("История"))).startswith(
            "История стола 1 (m"
        )
