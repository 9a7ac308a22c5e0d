"""The keys' footer at 80×24 (docs/play.md, "The screen"): every key the app shows is
drawn whole, its word too, in English and in Russian, at a Deberts table (nine keys)
and at a Tertz one (F8 in F2 and F3's place). A tryout read `^p palette` over F10 and
Ctrl+R in English, and `f10 выхо` cut at the edge in Russian."""

from __future__ import annotations

import asyncio

import pytest

from clients.play.app import PlayApp, RussianPlayApp, WireLine
from clients.play.texts import T, say

from .pilot import SIZE, footer_row, until

TERTZ_ASK = (
    "ask seq=3 table=1 deal=1 phase=play seat=0 dealer=1 to_act=0 "
    "hand=8h,Jh,Qh,7d,Qd,9d,Js,Qs,Kc turned=Ad fresa=- trump=- player=- round=1 leader=0 "
    "trick= tricks=0,0 score=0,0 hanging=0 target=301 pending=- shown= talk= "
    "clock=60500 legal=Js,Qs players=2 talon=14"
)


def shown_keys(app: PlayApp) -> list[str]:
    """Each key the footer should show now, as it is drawn: 'f10 quit'."""
    return [
        f"{app.get_key_display(binding)} {binding.description}"
        for _node, binding, enabled, _tip in app.screen.active_bindings.values()
        if binding.show and enabled
    ]


def assert_whole(app: PlayApp, keys: set[str]) -> None:
    row, shown = footer_row(app), shown_keys(app)
    assert {key.split()[0] for key in shown} == keys, shown
    missing = [key for key in shown if f" {key} " not in f" {row} "]
    assert not missing, f"not drawn whole in {row!r}: {missing}"


async def _whole_keys(app_class: type[PlayApp]) -> None:
    app = app_class("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.size == (80, 24)
        deberts = {"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f10", "^r"}
        assert_whole(app, deberts)
        assert f"f10 {say(T.KEY_QUIT, app.LANG)}" in footer_row(app)
        app.post_message(WireLine(TERTZ_ASK))
        await until(pilot, lambda: app.state.talon == 14, "the Tertz view")
        await pilot.pause()
        assert_whole(app, deberts - {"f2", "f3"} | {"f8"})
        await pilot.press("ctrl+q")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("app_class", [PlayApp, RussianPlayApp])
def test_every_key_is_drawn_whole_at_80_columns(app_class: type[PlayApp]) -> None:
    asyncio.run(asyncio.wait_for(_whole_keys(app_class), 50))
