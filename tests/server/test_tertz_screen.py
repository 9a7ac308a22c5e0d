"""What a person's screen at a Tertz table says over real sockets: after the trump
seven's swap, the card that lies face up now (the engine's call event names none; the
machine style's ask carries ``turned=``)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import trio

from clients.play.state import fold_all

from .client import LineClient, fields
from .conftest import Connector

TIMEOUT = 20
# the first deal of this seed: anna (seat 0) leads holding 7♣, the turned card J♣
SWAP_SEED = "swap6"


async def test_a_swap_names_the_card_face_up_now_in_english_and_russian(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    port = await start_server(match_seed=SWAP_SEED)
    anna = await connect.human(port, "anna")
    boris = await connect.human(port, "boris")
    await boris.send("lang ru")
    await boris.read_until(lambda x: x == "Язык: русский.")
    await anna.send("new 2 tertz")
    opened = await anna.read_until(lambda x: x.startswith("You sit at table"))
    table = re.search(r"table (\d+)", opened)
    assert table is not None
    await boris.send(f"sit {table.group(1)}")
    prompt = await anna.read_until(lambda x: x.startswith("Your call"), TIMEOUT)
    assert "menyayu" in prompt, prompt
    await anna.send("menyayu")
    swapped = "anna: menyayu — takes the turned card; 7♣ now lies face up."
    assert await anna.read_until(lambda x: x.startswith("anna: "), TIMEOUT) == swapped
    ru = "anna: меняю — берёт открытую карту, теперь открыта 7♣."
    assert await boris.read_until(lambda x: x.startswith("anna: "), TIMEOUT) == ru
    await anna.send("state")  # the view agrees: J♣ in her hand, 7♣ face up
    trump = await anna.read_until(lambda x: x.startswith("Trump: "), TIMEOUT)
    assert trump == "Trump: ♣. Turned: 7♣.", trump


# this seed's first deal, each seat preferring these calls (else its first legal one):
# a seat shows 10♥ J♥ Q♥ K♥, then a run of five grown under it, 9♥, at a later trick
LATE_SHOW_SEED = "late-show-4"
SHOWING = ("pokazyvayu", "pokazhi", "terts", "dva-tertsa", "pyatdesyat", "sto", "rost?")
FACE_UP = re.compile(r"^\w+ shows: 9♥ \(face up now: (.+)\)$")


async def _showing(client: LineClient) -> None:
    """Answer every ask, with a show (SHOWING) whenever one is legal."""
    while True:
        ask = fields(await client.read_until(lambda x: x.startswith("ask "), TIMEOUT))[1]
        legal = ask["legal"].split(",")
        call = next((c for c in SHOWING if c in legal), legal[0])
        await client.send(f"{call} seq={ask['seq']}")


async def test_a_show_under_a_run_shown_before_lists_the_cards_face_up_in_hand_order(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """A run shown, then a longer one grown under it by a draw: the second show said
    «(теперь открыты: Д♠ К♠ Т♠ В♠)», and `state` «Показано: ann Д♠ К♠ Т♠ В♠», the
    cards in the order shown (an evening's tryout); what lies face up reads as the run
    does, as docs/play.md's example has it."""
    port = await start_server(match_seed=LATE_SHOW_SEED)
    anna = await connect.machine(port, "anna")
    boris = await connect.machine(port, "boris")
    eve = await connect.human(port, "eve")
    await anna.send("new 2 tertz")
    table = (await anna.expect("ok", cmd="sit"))["table"]
    await boris.send(f"sit {table}")
    await boris.expect("ok", cmd="sit")
    await eve.send(f"observe {table}")

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_showing, anna)
            nursery.start_soon(_showing, boris)
            line = await eve.read_until(lambda x: FACE_UP.match(x) is not None, TIMEOUT)
            nursery.cancel_scope.cancel()
    face_up = FACE_UP.match(line)
    # Q♥ was played before the show: no longer face up (a tryout, s49), though 'state'
    # lists every card shown this deal, as the view's shown= does (docs/protocol.md §6.3)
    assert face_up is not None and face_up.group(1) == "9♥ 10♥ J♥ K♥", line
    await eve.send("state")
    shown = await eve.read_until(lambda x: x.startswith("Shown: "), TIMEOUT)
    assert shown.endswith(" 9♥ 10♥ J♥ Q♥ K♥"), shown


# this seed's first deal, each seat preferring SHOWING: boris shows a terts
# (10♥ J♥ Q♥), plays one of it, then shows four of a kind at a later trick
SHOWN_PLAYED_SEED = "shown-played-4"
FOUR = re.compile(r"^boris shows: (\S+ \S+ \S+ \S+) \(face up now: (.+)\)$")


async def test_face_up_now_lists_the_cards_shown_still_in_the_hand_not_those_played(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """A seat's later show says what lies face up now: the cards it showed before and
    still holds, not one it has played since (docs/rules.md §12.5; a tryout, s49, read
    a played card there); the terminal client, folding the machine lines, says so too."""
    port = await start_server(match_seed=SHOWN_PLAYED_SEED)
    anna = await connect.machine(port, "anna")
    boris = await connect.machine(port, "boris")
    eve = await connect.human(port, "eve")
    await anna.send("new 2 tertz")
    table = (await anna.expect("ok", cmd="sit"))["table"]
    await eve.send(f"observe {table}")
    await eve.read_until(lambda x: x.startswith("eve "), TIMEOUT)
    await boris.send(f"sit {table}")
    await boris.expect("ok", cmd="sit")

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_showing, anna)
            nursery.start_soon(_showing, boris)
            line = await eve.read_until(lambda x: FOUR.match(x) is not None, TIMEOUT)
            nursery.cancel_scope.cancel()
    seen = eve.lines[: eve.pos]
    shown = next(x for x in seen if x.startswith("boris shows: ")).split(": ")[1].split()
    played = [c for c in shown if f"boris plays {c}" in seen]
    assert played, seen  # (the seed's point: a card shown, then played)
    four = FOUR.match(line)
    assert four is not None
    still = [c for c in shown if c not in played]
    assert sorted(four.group(2).split()) == sorted([*four.group(1).split(), *still]), line
    # the terminal client, from the lines a machine-style seat read, says the same
    state = fold_all([x for x in anna.lines[: anna.pos] if not x.startswith("record ")])
    said = next(x for x in reversed(state.log) if x.startswith("boris shows "))
    assert said == f"boris shows {four.group(1)} (face up now: {four.group(2)})", said
