"""A line as a bug's log says it (server/running.py's command_error): never a secret."""

from __future__ import annotations

from deberc_net.protocol.commands import for_log, parse_line


def test_a_secrets_command_is_logged_without_its_arguments() -> None:
    for line in ("login vera s3cret lang=ru", "password s3cret n3w", "LOGIN vera token=Tok"):
        logged = for_log(parse_line(line))
        assert "s3cret" not in logged and "n3w" not in logged and "Tok" not in logged, logged
        assert "…" in logged
    assert "hello all" in for_log(parse_line("say hello all"))  # others as they came
    assert len(for_log(parse_line("say " + "x" * 300))) == 100
