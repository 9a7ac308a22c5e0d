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


def test_an_abbreviated_flag_that_argparse_takes_for_it_is_hidden_too() -> None:
    # argparse takes '--admin-pass P' and '--ad=P' for --admin-password: stored as typed,
    # the password was in every copy of the database
    from deberc_net.cli import build_parser

    parser = build_parser()
    for given in (["--admin-pass", "s3cret"], ["--ad=s3cret"], ["--admin-passwor", "s3cret"]):
        argv = ["ladder", "run", "--bot", "x", *given, "--server", "h:1"]
        assert parser.parse_args(argv).admin_password == "s3cret", given
        hidden = without_secrets(argv)
        assert "s3cret" not in " ".join(hidden), given
        assert len(hidden) == len(argv)


def test_a_postgresql_addresss_password_is_hidden_wherever_it_is_given() -> None:
    # '--db postgresql://USER:PASSWORD@HOST/DB' was stored whole: every copy of the
    # database held it, and 'ladder table --json --runs' printed it
    argv = [
        "--db", "postgresql://ladder:s3cret@db.example:5432/club?sslmode=require",
        "--db=postgres://ladder:s3cret@/club?host=/run/pg",
        "--db", "postgresql://db.example/club?user=ladder&password=s3cret&password=s3cret",
        "--bot", "bot.py --store postgresql://b:s3cret@h/d --deals 2",
    ]  # fmt: skip
    assert without_secrets(argv) == [
        "--db", "postgresql://ladder:***@db.example:5432/club?sslmode=require",
        "--db=postgres://ladder:***@/club?host=/run/pg",
        "--db", "postgresql://db.example/club?user=ladder&password=***&password=***",
        "--bot", "bot.py --store postgresql://b:***@h/d --deals 2",
    ]  # fmt: skip
    kept = ["--db", "postgresql://ladder@db.example/club", "--seed", "a:b@c", "x://u@h"]
    assert without_secrets(kept) == kept  # no password, or no address: as given
    # an address of another scheme's too (SQLAlchemy's 'postgresql+psycopg://', s44)
    other = ["--bot", "b.py --store postgresql+psycopg://b:s3cret@h/d", "x://u:p@h"]
    assert without_secrets(other) == [
        "--bot", "b.py --store postgresql+psycopg://b:***@h/d", "x://u:***@h"
    ]  # fmt: skip
