"""The settings for a web face behind a reverse proxy (docs/web.md, "Behind a proxy"):
``http_host`` (and ``serve --http-host``) and ``trusted_proxies``; and for the game port
behind a TCP or TLS proxy (docs/security.md), ``game_proxies``; checked as every
setting is (a bad value stops ``serve`` with one line naming it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deberc_net.cli import build_parser, main, serve_config
from deberc_net.server.config import Config


def _settings(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "server.toml"
    path.write_text(f"[server]\n{text}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("http_host = 5", "setting http_host expects a string, not 5"),
        # '' binds every address: the opposite of what one leaving it empty may mean
        ('http_host = ""', "setting http_host expects an address to listen on (leave it out"),
        ('trusted_proxies = "127.0.0.1"', "setting trusted_proxies expects a list of strings"),
        ("trusted_proxies = [5]", "setting trusted_proxies expects a list of strings"),
        (
            'trusted_proxies = ["127.0.0.1", "nginx"]',
            'setting trusted_proxies expects IP addresses or networks such as "10.0.0.0/8" or'
            " \"::1\" ('nginx' is neither), not ['127.0.0.1', 'nginx']",
        ),
        # host bits set: what it meant to trust is unclear, so it is not widened; the
        # refusal names that, and the network (it said 'is neither', an operator's tryout)
        (
            'trusted_proxies = ["10.0.0.1/8"]',
            "('10.0.0.1/8' has host bits set: the network is '10.0.0.0/8'), not ['10.0.0.1/8']",
        ),
        ('game_proxies = "127.0.0.1"', "setting game_proxies expects a list of strings"),
        ("game_proxies = [true]", "setting game_proxies expects a list of strings"),
        (
            'game_proxies = ["127.0.0.1", "stunnel"]',
            'setting game_proxies expects IP addresses or networks such as "10.0.0.0/8" or'
            " \"::1\" ('stunnel' is neither), not ['127.0.0.1', 'stunnel']",
        ),
        ('game_proxies = ["127.0.0.1:7502"]', "('127.0.0.1:7502' is neither)"),
        (
            'game_proxies = ["fd00::1/8"]',
            "('fd00::1/8' has host bits set: the network is 'fd00::/8')",
        ),
        ('game_proxies = ["10.0.0.0/33"]', "('10.0.0.0/33' is neither)"),
    ],
)
def test_a_bad_proxy_setting_is_refused_naming_it(tmp_path: Path, line: str, said: str) -> None:
    path = _settings(tmp_path, line)
    with pytest.raises(ValueError) as info:
        Config.from_toml(path)
    assert str(info.value).startswith(f"{path}: ") and said in str(info.value)


def test_the_web_face_listens_on_the_games_host_unless_given_its_own(tmp_path: Path) -> None:
    assert Config(host="0.0.0.0").web_host() == "0.0.0.0"  # as before http_host
    assert Config(host="0.0.0.0", http_host="127.0.0.1").web_host() == "127.0.0.1"
    parse = build_parser().parse_args
    path = _settings(tmp_path, 'host = "0.0.0.0"\nhttp_host = "127.0.0.1"')
    config = serve_config(parse(["serve", "--config", str(path)]))
    assert (config.host, config.web_host()) == ("0.0.0.0", "127.0.0.1")
    # the flag wins over the file, as every flag does (docs/settings.md)
    config = serve_config(parse(["serve", "--config", str(path), "--http-host", "::1"]))
    assert config.web_host() == "::1"
    config = serve_config(parse(["serve", "--host", "0.0.0.0", "--http-host", "127.0.0.1"]))
    assert (config.host, config.web_host()) == ("0.0.0.0", "127.0.0.1")


def test_serve_refuses_an_empty_http_host_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    assert main(["serve", "--http-host", "", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err == (
        "deberc-net serve: --http-host expects an address to listen on (leave it out for "
        "the game's host), not ''\n"
    )
    assert not db.exists()


def test_serve_says_a_web_host_it_cannot_listen_on_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    # 192.0.2.1 (TEST-NET-1) is no address of this machine; (the command line's
    # --http-port off is no web face, the file's 0 any free port)
    argv = ["serve", "--port", "0", "--http-host", "192.0.2.1"]
    path = _settings(tmp_path, "http_port = 0")
    assert main([*argv, "--config", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deberc-net serve: cannot listen on 192.0.2.1:0 (web): "), err
    # which settings the address is (an owner looked for it under host), and where each
    # came from (the port from the file was said as if by a flag)
    assert err.rstrip().endswith(f"; set by --http-host and http_port in {path}"), err
    assert err.count("\n") == 1 and not db.exists()


def test_trusted_proxies_take_addresses_and_networks_of_both_versions(tmp_path: Path) -> None:
    listed = ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"]
    path = _settings(tmp_path, f"trusted_proxies = {listed!r}".replace("'", '"'))
    assert Config.from_toml(path).trusted_proxies == listed
    assert Config().trusted_proxies == []  # none by default: every peer is its client


def test_serve_refuses_a_proxy_that_is_no_address_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _settings(tmp_path, 'trusted_proxies = ["proxy.example.org"]')
    db = tmp_path / "s.sqlite3"
    assert main(["serve", "--config", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"deberc-net serve: {path}: setting trusted_proxies expects IP ")
    assert err.count("\n") == 1 and not db.exists()


def test_game_proxies_take_addresses_and_networks_of_both_versions(tmp_path: Path) -> None:
    listed = ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"]
    path = _settings(tmp_path, f"game_proxies = {listed!r}".replace("'", '"'))
    assert Config.from_toml(path).game_proxies == listed
    assert Config().game_proxies == []  # none by default: no header is read from anyone


def test_serve_refuses_a_game_proxy_that_is_no_address_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _settings(tmp_path, 'game_proxies = ["haproxy.internal"]')
    db = tmp_path / "s.sqlite3"
    assert main(["serve", "--config", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"deberc-net serve: {path}: setting game_proxies expects IP ")
    assert err.count("\n") == 1 and not db.exists()
