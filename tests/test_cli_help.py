"""Every command's `--help` says what each of its options takes (a README tryout:
`selfplay --help` showed `--variant VARIANT` and `--players {2,3,4}` with no word, the
variants' names only in README)."""

from __future__ import annotations

import re

import pytest

from deberc_net.cli import main

# every command and subcommand of deberc-net (deberc-net --help, ladder --help)
COMMANDS = [
    ["selfplay"],
    ["play"],
    ["serve"],
    ["ladder", "run"],
    ["ladder", "worker"],
    ["ladder", "finish"],
    ["ladder", "cancel"],
    ["ladder", "table"],
    ["admin"],
    ["backup"],
    ["move-store"],
    ["records", "export"],
]
# an option's line: its spellings, then its help two spaces on, if it fits there
OPTION = re.compile(r"^  (-\w, )?--[\w-]+")


def unexplained(help_text: str) -> list[str]:
    """The options of ``help_text`` (argparse's, wrapped) given with no help at all: the
    line ends after the option's spelling, and the next line is no continuation."""
    lines = help_text.splitlines()
    bare = []
    for at, line in enumerate(lines):
        if not OPTION.match(line) or re.search(r"\S {2,}\S", line):
            continue
        after = lines[at + 1] if at + 1 < len(lines) else ""
        if not after.startswith("    ") or OPTION.match(after):
            bare.append(line.strip())
    return bare


def test_the_check_sees_an_option_without_help() -> None:
    text = "options:\n  --games GAMES      matches\n  --players {2,3,4}\n  --json\n"
    assert unexplained(text) == ["--players {2,3,4}", "--json"]
    assert unexplained("options:\n  --config FILE.toml\n                settings\n") == []


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_option_says_what_it_takes(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    assert unexplained(capsys.readouterr().out) == []


def test_selfplay_names_the_variants_and_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["selfplay", "--help"])
    told = " ".join(capsys.readouterr().out.split())
    assert "moscow" in told and "kharkov" in told and "tertz" in told


def test_serve_help_says_what_each_signal_does(capsys: pytest.CaptureFixture[str]) -> None:
    """A tryout's operator (s50) found the signals in docs/protocol.md §11.4 alone: `serve
    --help` said nothing of them, and SIGHUP, a daemon's "reload" elsewhere (a log
    rotation's `postrotate`), stops this server and cuts its matches."""
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "Signals: SIGTERM, SIGINT and SIGHUP stop the server, cutting its running matches"
        " (nobody wins; SIGHUP reads no settings again: a log rotation must not send it);"
        " SIGUSR1, as an admin's 'drain', stops it once its running matches are over"
    ) in text
    assert "The settings file is read once, as the server starts" in text
