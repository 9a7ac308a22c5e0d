"""A ladder's bot is not given the ladder's secrets in its environment: the admin's
password (DEBERC_ADMIN_PASSWORD, where docs/bots.md says to keep it out of 'ps') and
the database's (PGPASSWORD, docs/scaling.md). A bot is anyone's program; with them it
could log in as the server's admin (deberc_net/child_env.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import RAND, ladder, script, summary

# a bot that writes down its environment, then plays at random
TELLS = """\
import json, os, random, sys
from pathlib import Path
from clients.client import bot_arguments, run_bot
args = bot_arguments("tells its environment").parse_args()
Path(sys.argv[0]).with_name("env-" + args.name).write_text(json.dumps(dict(os.environ)))
rng = random.Random(1)
run_bot(lambda view: rng.choice(view.legal), args)
"""


def test_a_ladders_bot_gets_no_secret_of_the_ladders_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEBERC_ADMIN_PASSWORD", "admin-secret")
    monkeypatch.setenv("PGPASSWORD", "db-secret")
    monkeypatch.setenv("DEBERC_KEPT", "told")  # the rest of it is the bot's
    bot = script(tmp_path, "tells", TELLS)
    done = ladder(tmp_path, "--bot", bot, "--bot", RAND, "--deals", "1", "--json")
    assert summary(done)["games"] == 2
    told = [json.loads(p.read_text()) for p in tmp_path.glob("env-*")]
    assert told  # each start of the bot wrote its environment down
    for env in told:
        assert "DEBERC_ADMIN_PASSWORD" not in env and "PGPASSWORD" not in env, sorted(env)
        assert env["DEBERC_KEPT"] == "told"
        assert env["DEBERC_TOKEN_DIR"]  # what the ladder sets for its bots, as before
