"""A proxies setting that covers every address (``0.0.0.0/0``, ``::/0``, or networks that
add up to one) is said in the
log as the server starts (docs/security.md, "The game port behind a TCP or TLS proxy"):
in ``trusted_proxies`` every web client chooses its own address (every per-address web
limit void), in ``game_proxies`` every direct player is refused. An operator's tryout
started both without a word."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.process import start_server_process


def _start_lines(db: Path, settings: str) -> list[dict[str, Any]]:
    said: list[dict[str, Any]] = []
    proc, _ = start_server_process(db, settings=settings, said=said)
    proc.terminate()
    proc.wait(timeout=20)
    return said


def test_a_proxies_setting_of_every_address_is_a_warning_at_the_start(tmp_path: Path) -> None:
    """Failed before: no `proxies_everyone` line."""
    settings = (
        'trusted_proxies = ["10.0.0.0/8", "0.0.0.0/0"]\n'
        # (halves that add up to every IPv6 address: as open as ::/0)
        'game_proxies = ["::/1", "8000::/1", "127.0.0.2"]\nlog_level = "warning"'
    )
    said = _start_lines(tmp_path / "open.sqlite3", settings)
    warned = {e["setting"]: e for e in said if e["event"] == "proxies_everyone"}
    assert set(warned) == {"trusted_proxies", "game_proxies"}
    assert all(e["level"] == "warning" for e in warned.values())
    trusted, game = warned["trusted_proxies"], warned["game_proxies"]
    assert (trusted["networks"], game["networks"]) == (["0.0.0.0/0"], ["::/1", "8000::/1"])
    assert "every per-address web limit is void" in trusted["text"]
    assert "every player who connects directly is refused" in game["text"]


def test_proxies_of_ones_own_are_no_warning(tmp_path: Path) -> None:
    settings = 'trusted_proxies = ["10.0.0.0/8"]\ngame_proxies = ["127.0.0.2"]\nlog_level = "info"'
    said = _start_lines(tmp_path / "closed.sqlite3", settings)
    assert [e["event"] for e in said if e["level"] == "warning"] == []
    assert said[-1]["event"] == "listening"
