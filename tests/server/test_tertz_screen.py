"""What a person's screen at a Tertz table says over real sockets: after the trump
seven's swap, the card that lies face up now (the engine's call event names none; the
machine style's ask carries ``turned=``)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

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
