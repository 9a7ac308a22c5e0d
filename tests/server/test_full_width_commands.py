"""A command's word in full-width letters is the command (docs/protocol.md §4): names
are compared in their compatibility form, and a new player's tryout typed 'ｗｈｏ' (an
input method's full-width mode) and was told it was not a command, with no hint."""

from __future__ import annotations

from .client import fields
from .conftest import Connector


async def test_a_full_width_command_word_is_the_command(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    for typed in ("ｗｈｏ", "ＷＨＯ", "ｗｈｏ 1"):
        await ann.send(typed)
        assert (await ann.expect("who"))["names"] == "ann", typed
    await ann.send("ｈｅｌｐ ｗｈｏ")
    tag, said = fields(await ann.read_until(lambda _: True))
    assert tag == "help" and said["text"].startswith("who [PAGE]: "), said
    # the arguments are read as typed: a full-width number is still no number (§4)
    await ann.send("ｓｉｔ １")
    error = await ann.expect("error")
    assert error["code"] == "bad-argument", error
