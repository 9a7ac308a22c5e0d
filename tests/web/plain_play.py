"""Two players who play a match plainly (ordering whenever they may, else the first legal
call or card), for the live page's tests on seeds whose deals are known, and a page's
element read as shown."""

from __future__ import annotations

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By

from tests.server.client import LineClient, fields


async def play(client: LineClient, deals: int) -> dict[str, str]:
    """Answer each ask as a plain player does (igrayu when offered, else the first legal
    call or card) until deal ``deals`` ends; that deal-end event's fields."""
    while True:
        line = await client.read_until(lambda x: x.startswith(("ask ", "event ")), 20)
        tag, f = fields(line)
        if tag == "event" and f.get("kind") == "deal-end" and f["deal"] == str(deals):
            return f
        if tag == "ask":
            legal = f["legal"].split(",")
            await client.send(f"{'igrayu' if 'igrayu' in legal else legal[0]} seq={f['seq']}")


async def deals_played(ann: LineClient, bob: LineClient, deals: int = 1) -> dict[str, str]:
    """Both play until deal ``deals`` ends: its deal-end event's fields."""
    ends: list[dict[str, str]] = []

    async def one(client: LineClient) -> None:
        ends.append(await play(client, deals))

    with trio.fail_after(30 * deals):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(one, ann)
            nursery.start_soon(one, bob)
    return ends[0]


def text_of(browser: webdriver.Chrome, css: str) -> str:
    return str(browser.find_element(By.CSS_SELECTOR, css).text)
