"""'games' names a Tertz match's game ('table 67: tertz'), as 'tables' does: a club
evening read its 280:540 as a lost Deberts match. The default game stays unnamed."""

from __future__ import annotations

import attrs

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


def test_a_tables_options_name_its_game_as_tables_does() -> None:
    short = ev.Game(
        "m20", 68, ("ann", "bob"), "kharkov", "bob", "target", (2, 5), "2026-12-07 08:10:00",
        options=("short",),
    )  # fmt: skip
    (english,) = games_lines(ev.Games("ann", (short,)))
    assert "  m20  table 68: kharkov short  ann v bob  2:5  " in english
    # the default game is named once it has options: 'short' alone would read as a game
    moscow_short = attrs.evolve(short, variant="moscow")
    (russian,) = games_lines(ev.Games("ann", (moscow_short,)), Lang.RU)
    assert "  m20  стол 68: moscow short  ann — bob  2:5  " in russian
