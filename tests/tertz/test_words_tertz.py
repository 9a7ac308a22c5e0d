"""What people are told at a Tertz table says what Tertz has: no Deberts words for
things the game has not (bides, hanging points, points "written as played")."""

from __future__ import annotations

from deberc_net.protocol.commands import help_text
from deberc_net.protocol.lang import Lang


def test_help_sheet_says_bides_and_hanging_points_are_deberts() -> None:
    # 'help sheet' is one text wherever it is asked: it names the game they belong to
    (english,) = help_text("sheet")
    assert "in Deberts also the bides and the points left hanging (Tertz has neither)" in english
    russian = " ".join(x.strip() for x in help_text("sheet", lang=Lang.RU))
    assert "в деберце ещё байды и висячие очки (в терце их нет)" in russian
