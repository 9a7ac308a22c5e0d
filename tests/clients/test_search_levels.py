"""The search bot's levels: each thinks for its own time per decision unless told, on the
command line, in a ladder's in-process bots and as the server's house bot; bad values
are refused with what is wrong (no timing here: the levels' strength is bench/'s)."""

from __future__ import annotations

import pytest

from clients.search.policy import DEFAULT_LEVEL, LEVELS, SearchPlayer
from clients.search_bot import LEVEL_ENV, MS_ENV, player_from, player_from_env
from deberc_net.server.house import SEARCH_LEVELS, HouseBot, HouseBotKind, HouseBots


def test_a_higher_level_is_given_more_time_and_level_3_keeps_the_ladders_200_ms() -> None:
    times = [SearchPlayer(level=level).ms for level in sorted(LEVELS)]
    assert times == sorted(set(times))  # strictly more at every step
    assert SearchPlayer().level == DEFAULT_LEVEL == 3 and SearchPlayer().ms == 200
    assert SearchPlayer(level=5, ms=70).ms == 70
    assert SearchPlayer(level=1, ms=5000).ms == 5000


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"level": 0}, "level must be one of 1, 2, 3, 4, 5, not 0"),
        ({"level": 6, "ms": 100}, "level must be one of 1, 2, 3, 4, 5, not 6"),
        ({"level": 2, "ms": 0}, "ms must be at least 1 (milliseconds a decision), not 0"),
        ({"ms": -5}, "ms must be at least 1 (milliseconds a decision), not -5"),
    ],
)
def test_a_player_refuses_a_level_or_time_that_is_none(fields: dict[str, int], error: str) -> None:
    with pytest.raises(ValueError) as refused:
        SearchPlayer(**fields)  # type: ignore[arg-type]
    assert str(refused.value) == error


def test_a_players_time_cannot_be_set_to_nothing_later() -> None:
    player = SearchPlayer(level=4)
    with pytest.raises(ValueError, match="ms must be at least 1"):
        player.ms = 0
    assert player.ms == LEVELS[4].ms


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_the_command_line_takes_the_levels_time_unless_ms_is_given(level: int) -> None:
    _, player = player_from(["--name", "s", "--level", str(level)])
    assert (player.level, player.ms) == (level, LEVELS[level].ms)
    _, told = player_from(["--name", "s", "--level", str(level), "--ms", "333"])
    assert (told.level, told.ms) == (level, 333)


def test_the_command_lines_default_is_level_3_at_its_200_ms() -> None:
    _, player = player_from(["--name", "s"])
    assert (player.level, player.ms) == (3, 200)


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["--ms", "0"], "--ms must be at least 1 (milliseconds a decision), not 0"),
        (["--ms", "-20"], "--ms must be at least 1 (milliseconds a decision), not -20"),
        (["--ms", "fast"], "argument --ms: invalid int value: 'fast'"),
        (["--level", "6"], "argument --level: invalid choice: 6"),
        (["--level", "0", "--ms", "100"], "argument --level: invalid choice: 0"),
    ],
)
def test_the_command_line_refuses_bad_values_with_what_is_wrong(
    argv: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as refused:
        player_from(["--name", "s", *argv])
    assert refused.value.code == 2
    assert error in capsys.readouterr().err


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_an_in_process_bot_takes_its_levels_time_unless_the_environment_gives_one(
    level: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LEVEL_ENV, str(level))
    monkeypatch.delenv(MS_ENV, raising=False)
    player = player_from_env("t")
    assert (player.level, player.ms) == (level, LEVELS[level].ms)
    monkeypatch.setenv(MS_ENV, "")  # empty is unset
    assert player_from_env("t").ms == LEVELS[level].ms
    monkeypatch.setenv(MS_ENV, "45")
    assert player_from_env("t").ms == 45


def test_an_in_process_bot_without_settings_is_level_3_at_200_ms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(LEVEL_ENV, raising=False)
    monkeypatch.delenv(MS_ENV, raising=False)
    player = player_from_env(None)
    assert (player.level, player.ms) == (3, 200)


@pytest.mark.parametrize(
    ("level", "ms", "error"),
    [
        ("9", None, "DEBERC_SEARCH_LEVEL must be one of 1, 2, 3, 4, 5, not 9"),
        ("three", None, "DEBERC_SEARCH_LEVEL must be a whole number, not 'three'"),
        ("2", "0", "DEBERC_SEARCH_MS must be at least 1 (milliseconds a decision), not 0"),
        ("2", "1.5", "DEBERC_SEARCH_MS must be a whole number, not '1.5'"),
    ],
)
def test_an_in_process_bot_refuses_bad_settings_naming_the_variable(
    level: str, ms: str | None, error: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LEVEL_ENV, level)
    if ms is None:
        monkeypatch.delenv(MS_ENV, raising=False)
    else:
        monkeypatch.setenv(MS_ENV, ms)
    with pytest.raises(ValueError) as refused:
        player_from_env("t")
    assert str(refused.value) == error


def test_the_servers_levels_are_the_bots_and_a_house_bot_thinks_for_its_levels_time() -> None:
    """A person asking for 'bot search 5' gets level 5 at level 5's time: the server
    passes the level alone, and the bot's command line does the rest."""
    assert list(SEARCH_LEVELS) == sorted(LEVELS)
    house = HouseBots(lobby=None, spawner=None, enabled=True, per_table=3, per_server=20)  # type: ignore[arg-type]
    for level in SEARCH_LEVELS:
        bot = HouseBot(f"house-search{level}-1", HouseBotKind.SEARCH, level, None, "t")  # type: ignore[arg-type]
        argv = house.argv(bot)
        assert argv[1:3] == ["-m", "clients.search_bot"] and "--ms" not in argv
        _, player = player_from(argv[3:])
        assert (player.level, player.ms) == (level, LEVELS[level].ms)
