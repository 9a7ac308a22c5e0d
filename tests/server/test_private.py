"""Private tables and invitations over real sockets: 'new ... private' and 'invite NAME'."""

from __future__ import annotations

from .client import LineClient, fields, is_event
from .conftest import Connector


async def _private_table(client: LineClient, settings: str = "2 private") -> str:
    await client.send(f"new {settings}")
    return (await client.expect("ok", cmd="sit"))["table"]


async def test_a_private_table_is_listed_to_nobody_and_entered_only_by_invitation(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    table = await _private_table(ann, "2 moscow private to-301")
    await bob.send("tables")  # not to others
    assert (await bob.expect("tables"))["total"] == "0"
    await ann.send("tables")  # but to its own people, marked (tryout s9, finding 16)
    assert (await ann.expect("tables"))["total"] == "1"
    listed = await ann.expect("table")
    assert (listed["id"], listed["seats"], listed["private"]) == (table, "ann,-", "1")
    for line in (f"sit {table}", f"rules {table}", f"observe {table}"):
        # answered as of no table: not even its being there is told (tryouts, s29, s30)
        await bob.send(line)
        assert await bob.expect("error") == {
            "code": "unknown-table",
            "text": f"there is no table {table}",
        }, line
    await ann.send(f"rules {table}")  # its own people read them
    assert (await ann.expect("rules"))["text"].startswith(f"Table {table}: moscow")

    await ann.send("invite bob")
    assert await ann.expect("ok", cmd="invite") == {
        "cmd": "invite",
        "table": table,
        "name": "bob",
        "text": f"You invite bob to table {table}.",
    }
    invite = await bob.expect("invite")
    await bob.send("tables")  # an invited one sees it listed too
    assert (await bob.expect("table"))["private"] == "1"
    assert invite["from"] == "ann" and invite["table"] == table
    assert (invite["players"], invite["variant"], invite["options"], invite["private"]) == (
        "2",
        "moscow",
        "to-301",
        "1",
    )
    await bob.send(f"rules {table}")  # or an invited one
    assert (await bob.expect("rules"))["text"].startswith(f"Table {table}: moscow")
    await bob.send(f"observe {table}")  # an invitation lets one watch, too
    await bob.expect("ok", cmd="observe")
    await bob.send(f"sit {table}")
    assert (await bob.expect("ok", cmd="sit"))["seat"] == "1"
    start = await bob.read_until(lambda x: is_event(x, "start"))
    assert fields(start)[1]["players"] == "ann,bob"
    await eve.send(f"observe {table}")  # nobody else gets in, even to watch the game
    assert (await eve.expect("error"))["code"] == "unknown-table"
    await eve.send("tables")
    assert (await eve.expect("tables"))["total"] == "0"


async def test_a_guests_invitation_goes_with_him_not_to_the_next_guest_of_his_name(
    port: int, connect: Connector
) -> None:
    # hostile tryout (s24): misha, a guest, was invited and quit; a newcomer logging in
    # as misha saw, watched and sat at the private table (a guest's name is anyone's
    # once he has gone, docs/protocol.md §4.2)
    ann = await connect.machine(port, "ann")
    misha = await connect.machine(port, "misha")
    table = await _private_table(ann)
    await ann.send("invite misha")
    await ann.expect("ok", cmd="invite")
    await misha.expect("invite")
    await misha.send("quit")
    await misha.wait_closed()
    impostor = await connect.machine(port, "misha")
    await impostor.send("tables")
    assert (await impostor.expect("tables"))["total"] == "0"
    for line in (f"observe {table}", f"sit {table}"):
        await impostor.send(line)
        assert (await impostor.expect("error"))["code"] == "unknown-table", line
    await ann.send("invite misha")  # invited anew: this misha now
    await ann.expect("ok", cmd="invite")
    await impostor.expect("invite")
    await impostor.send(f"sit {table}")
    assert (await impostor.expect("ok", cmd="sit"))["seat"] == "1"


async def test_a_private_table_is_marked_in_its_players_human_list(
    port: int, connect: Connector
) -> None:
    ann = await connect.human(port, "ann")
    await ann.send("new 2 private")
    await ann.read_until(lambda x: x.startswith("You sit at table 1"))
    await ann.send("tables")
    listed = await ann.read_until(lambda x: x.startswith("Table "))
    assert listed.startswith("Table 1 (private): moscow for 2 players, waiting: ann"), listed


async def test_invite_errors_change_nothing(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    cat = await connect.machine(port, "cat")
    for line, code in [
        ("invite bob", "not-seated"),  # at no table
        ("invite", "bad-argument"),
    ]:
        await ann.send(line)
        assert (await ann.expect("error"))["code"] == code, line
    table = await _private_table(ann)
    for line, code, text in [
        ("invite", "bad-argument", "invite NAME"),
        ("invite bob cat", "bad-argument", "invite NAME"),
        ("invite x", "bad-argument", "a name is 2-20 letters, digits, '_' or '-'"),
        ("invite ANN", "bad-argument", "you sit at the table already"),
        ("invite zed", "unknown-player", "no player called zed is here ('who')"),
    ]:
        await ann.send(line)
        assert await ann.expect("error") == {"code": code, "text": text}, line
    await bob.send(f"sit {table}")
    assert (await bob.expect("error"))["code"] == "unknown-table"  # nobody was invited
    await bob.send("invite cat")  # bob sits nowhere: he cannot invite to ann's table
    assert (await bob.expect("error"))["code"] == "not-seated"
    await cat.send(f"sit {table}")
    assert (await cat.expect("error"))["code"] == "unknown-table"

    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await ann.send("invite cat")  # the table is full (and playing)
    assert await ann.expect("error") == {
        "code": "table-full",
        "text": f"table {table} has no free seat",
    }
    await cat.send("who")
    await cat.expect("who")
    assert not any(line.startswith("invite ") for line in cat.lines)  # cat was told nothing


async def test_an_invitation_to_a_public_table_tells_the_guest_and_anyone_may_sit(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.human(port, "bob")
    cat = await connect.machine(port, "cat")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite")
    said = await bob.read_until(lambda x: "invites you" in x)
    assert said == (
        f"ann invites you to table {table} (moscow for 3 players): 'sit {table}' to play."
    )
    await cat.send("tables")  # a public table is listed, and free to sit at
    assert (await cat.expect("tables"))["total"] == "1"
    assert "private" not in await cat.expect("table")
    await cat.send(f"sit {table}")
    await cat.expect("ok", cmd="sit")
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    await ann.send("invite bob")  # no longer at the table
    assert (await ann.expect("error"))["code"] == "not-seated"


async def test_a_standing_invitation_is_not_sent_again(port: int, connect: Connector) -> None:
    """One invitation per name and table: a repeat is refused and the guest hears it
    once (tryout s9, finding 3)."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await _private_table(ann, "3 private")
    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite")
    for again in ("invite bob", "invite BOB"):
        await ann.send(again)
        assert await ann.expect("error") == {
            "code": "already-invited",
            "text": f"bob is invited to table {table} already: 'sit {table}' is all it takes",
        }, again
    await bob.send("who")
    await bob.expect("who")
    assert sum(x.startswith("invite ") for x in bob.lines) == 1
    await bob.send(f"sit {table}")  # the first invitation stands
    await bob.expect("ok", cmd="sit")


async def test_the_russian_words_for_private_open_a_private_table(
    port: int, connect: Connector
) -> None:
    """'new 2 закрытый' (the server's own word for such a table, «закрытый стол») was
    refused as an unknown option (a tryout, s43): «закрытый», «приватный» and their
    Ukrainian are 'private', any case; 'seek' refuses them as it refuses 'private'."""
    bob = await connect.machine(port, "bob")
    for n, word in enumerate(("закрытый", "Приватный", "закритий", "приватний")):
        ann = await connect.machine(port, f"ann{n}")
        table = await _private_table(ann, f"2 {word} to-301")
        await ann.send("tables")
        listed = await ann.expect("table")
        assert (listed["id"], listed["options"], listed["private"]) == (table, "to-301", "1")
        await bob.send("tables")  # listed to nobody else
        assert (await bob.expect("tables"))["total"] == "0", word
        await ann.send("leave")  # (the table closes: nobody is left)
        await ann.expect("ok", cmd="leave")
        await bob.send("seek 2 " + word)
        refused = await bob.expect("error")
        assert refused["code"] == "bad-rules", refused
        assert refused["text"].startswith("a private table is opened with 'new ... private'")


async def test_a_slip_of_private_is_told_the_word_and_opens_nothing(
    port: int, connect: Connector
) -> None:
    """'new 2 privat' was told "unknown option 'privat'" and the 40 options, none of
    them the word meant (a tryout, s47): a word no rule has that is near 'private' (or
    its Russian) is said so, and no table opens."""
    ann = await connect.machine(port, "ann")
    for word, near in (("privat", "private"), ("Privte", "private"), ("закрытй", "закрытый")):
        await ann.send(f"new 2 {word} to-301")
        refused = await ann.expect("error")
        assert refused["code"] == "bad-rules", refused
        assert refused["text"] == (
            f"unknown option '{word}': did you mean {near}? ('new ... private' opens a"
            " table listed only to those you invite)"
        ), refused
    await ann.send("tables")
    assert (await ann.expect("tables"))["total"] == "0"
    # a word near a rule's name is told that one, as before
    await ann.send("new 2 to301")
    refused = await ann.expect("error")
    assert refused["text"].startswith("unknown option 'to301': did you mean to-301?"), refused
