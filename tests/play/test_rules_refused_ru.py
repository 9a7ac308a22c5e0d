"""The terminal client's Russian says a rule book's refusal as the server's own Russian
does, its rules' names «short», not the machine text's repr 'short' read back into the
catalogue's sentence (a leftover, s44): the machine lines of a real server, folded, and
what a Russian person over nc is told for the same command."""

from __future__ import annotations

from clients.play.state import TableState, fold_all
from deberc_net.protocol.lang import Lang
from tests.server.client import person_told
from tests.server.conftest import Connector, connect, db_path, port, start_server

__all__ = ["connect", "db_path", "port", "start_server"]  # the fixtures, used by name

LOGIN = "ok cmd=login name=b1 guest=1 token=Tok123 text=Hello, b1 (guest)."
REFUSED = (
    "new 4 kharkov short",  # an option for other counts
    "new 3 tertz",  # a variant for other counts
    "new 2 moscow dave short tertz",  # a variant typed as an option
    "new 2 tertz short",  # an option not played with the variant
)


async def test_a_rules_refusal_reads_as_the_servers_russian_says_it(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    vera = await connect.human(port, "vera")
    await person_told(vera, "lang ru")
    for command in REFUSED:
        error = await ann.reply(command, "error")
        assert " code=bad-rules " in error, error
        told = " ".join(x.strip() for x in await person_told(vera, command))
        assert told.startswith("Ошибка (bad-rules): "), told
        server_said = told.removeprefix("Ошибка (bad-rules): ")
        client_said = fold_all([LOGIN, error], TableState(lang=Lang.RU)).log[-1]
        assert client_said == f"! {server_said}", (command, error)
        assert "«" in client_said and "'" not in client_said, client_said
