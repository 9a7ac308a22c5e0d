"""The collector paused for a command's start-up (deberc_net/start_up.py): off in the
block, on again where the command freezes its start-up heap or at the block's end,
whichever comes first; a collector its caller turned off stays off."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from deberc_net.cli import main
from deberc_net.start_up import collector_paused, resume


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    assert gc.isenabled()
    yield
    gc.enable()  # whatever a failed test left


def test_the_collector_is_off_in_the_block_and_on_after_it() -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_resume_turns_it_on_and_the_block_s_end_leaves_it_on() -> None:
    with collector_paused():
        resume()
        assert gc.isenabled()
        resume()  # a second: nothing
        assert gc.isenabled()
    assert gc.isenabled()


def test_an_error_in_the_block_turns_it_on() -> None:
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("a start-up that failed")
    assert gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
        resume()  # not the pause's to turn on
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_a_resume_with_no_pause_leaves_the_collector_alone() -> None:
    gc.disable()
    resume()
    assert not gc.isenabled()


def test_serve_refusing_its_settings_in_process_leaves_the_collector_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A program's own call of the CLI (a test's) gets its collector back: the refusal
    ends serve's start-up before any freeze."""
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "0", "--http-port", "off", "--host", ""]) == 2
    assert "deberc-net serve:" in capsys.readouterr().err
    assert gc.isenabled()
