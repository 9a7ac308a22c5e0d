"""A ladder run's stored command line hides the admin's password (docs/bots.md)."""

from __future__ import annotations

from deberc_net.ladder.stored_argv import without_secrets


def test_the_admins_password_is_hidden_in_either_spelling_and_nothing_else() -> None:
    argv = ["ladder", "run", "--admin-password", "p", "--bot", "a=x --admin-password"]
    assert without_secrets(argv) == [
        "ladder",
        "run",
        "--admin-password",
        "***",
        "--bot",
        "a=x --admin-password",
    ]
    assert without_secrets(["--admin-password=p=q", "--deals", "2"]) == [
        "--admin-password=***",
        "--deals",
        "2",
    ]
    assert without_secrets(["--seed", "--admin-password"]) == ["--seed", "--admin-password"]
