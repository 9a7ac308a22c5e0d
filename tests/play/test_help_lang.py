"""`deberc-net play --help` speaks the client's language, chosen as the client chooses
it (docs/play.md): its ``--lang``, else the locale. The other commands' help, the
operator's, stays English."""

from __future__ import annotations

import pytest

from deberc_net.cli import main, play_help_lang

RU_LOCALE = {"LANG": "ru_RU.UTF-8"}


@pytest.mark.parametrize(
    ("argv", "environ", "lang"),
    [
        (["play"], {}, "en"),
        (["play"], RU_LOCALE, "ru"),
        (["play"], {"LC_ALL": "uk_UA.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),  # LC_ALL first
        (["play", "--lang", "ru"], {}, "ru"),
        (["play", "--lang=ru", "-h"], {}, "ru"),
        (["play", "--la", "ru"], {}, "ru"),  # a prefix, as argparse takes it
        (["play", "--lang", "en"], RU_LOCALE, "en"),  # the option over the locale
        (["play", "--lang", "de"], RU_LOCALE, "ru"),  # refused later, by argparse
        (["play", "--lang"], RU_LOCALE, "ru"),
        (["serve"], RU_LOCALE, "en"),
        ([], RU_LOCALE, "en"),
    ],
)
def test_play_s_help_takes_the_client_s_language(
    argv: list[str], environ: dict[str, str], lang: str
) -> None:
    assert play_help_lang(argv, environ) == lang


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    return capsys.readouterr().out


def test_play_s_help_is_russian_in_a_russian_locale_or_with_lang_ru(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    shown = _help(["play", "--help"], capsys)
    assert shown.startswith("использование: deberc-net play [-h]")
    for said in (
        "позиционные аргументы:",
        "параметры:",
        "показать эту справку и выйти",
        "войти под именем NAME при подключении (гостем)",
        "docs/play.ru.md",
    ):
        assert said in shown, said
    assert "usage" not in shown and "options:" not in shown
    english = _help(["play", "--lang", "en", "--help"], capsys)
    assert english.startswith("usage: deberc-net play") and "log in as NAME" in english
    assert _help(["serve", "--help"], capsys).startswith("usage: deberc-net serve")  # English
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert _help(["play", "--lang=ru", "-h"], capsys).startswith("использование:")
    assert _help(["play", "-h"], capsys).startswith("usage: deberc-net play")
