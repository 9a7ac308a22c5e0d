"""'games' names a Tertz match's game ('table 67: tertz'), as 'tables' does: a club
evening read its 280:540 as a lost Deberts match. The default game stays unnamed."""

from __future__ import annotations

from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import games_lines


def _games(variant: str) -> ev.Games:
    game = ev.Game(
        "m19", 67, ("ann", "bob"), variant, "bob", "target", (280, 540), "2026-12-06 17:32:10"
    )
    return ev.Games("ann", (game,))


def test_a_tertz_match_is_named_in_games() -> None:
    (english,) = games_lines(_games("tertz"))
    assert english == (
        "2026-12-06 17:32 UTC  m19  table 67: tertz  ann v bob  280:540  winner bob (target)"
    )
    (russian,) = games_lines(_games("tertz"), Lang.RU)
    assert "m19  стол 67: tertz  ann — bob  280:540" in russian


def test_the_default_game_stays_unnamed() -> None:
    (english,) = games_lines(_games("moscow"))
    assert "  table 67  ann v bob  " in english
