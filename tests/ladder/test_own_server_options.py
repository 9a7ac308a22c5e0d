"""The options of `ladder run` that only the ladder's own server takes (`--clock-ms`,
`--away-ms`): a `--server` run given one is warned on standard error, once for each,
and plays on by that server's settings (docs/bots.md). `--away-ms` was ignored there
silently while `--clock-ms` was warned."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from deberc_net.cli import OWN_SERVER_ONLY

from .helpers import RAND, RAND2, ladder

WARNED = "deberc-net ladder: warning: {flag} sets the ladder's own server's {what}, not --server's"


def _closed_port() -> int:
    """A loopback port nobody listens on: the run is refused at its first connection,
    after what it says before it starts."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize(
    ("given", "warned"),
    [
        ((), ()),
        (("--clock-ms", "1000"), ("--clock-ms",)),
        (("--away-ms", "9000"), ("--away-ms",)),
        (("--away-ms", "9000", "--clock-ms", "1000"), ("--clock-ms", "--away-ms")),
    ],
)
def test_a_server_run_is_warned_of_each_option_only_its_own_server_takes(
    tmp_path: Path, given: tuple[str, ...], warned: tuple[str, ...]
) -> None:
    server = ("--server", f"127.0.0.1:{_closed_port()}", "--admin-password", "pw-1")
    done = ladder(tmp_path, "--bot", RAND, "--bot", RAND2, *server, *given)
    assert done.returncode == 2 and "cannot connect to 127.0.0.1:" in done.stderr, done.stderr
    told = [line for line in done.stderr.splitlines() if "warning" in line]
    expected = [WARNED.format(flag=f, what=w) for f, _, w, _ in OWN_SERVER_ONLY if f in warned]
    assert [line.split(": that server's")[0] for line in told] == expected, done.stderr
    if "--away-ms" in warned:  # what applies instead, and its default
        assert told[-1].endswith(": that server's away_limit_ms applies (120000 by default)"), told


def test_a_run_on_its_own_server_is_warned_of_nothing(tmp_path: Path) -> None:
    done = ladder(tmp_path, "--bot", RAND, "--bot", RAND2, "--deals", "1", "--away-ms", "9000")
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
