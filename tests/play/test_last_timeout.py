"""The terminal client warns its player of the timeout that would lose the game, as
the server warns a person over nc (docs/protocol.md §11.1): the ask says so to a
program, ``last_timeout=3`` (§6.3), and the client, one, said nothing of it (a review,
s45): its log says it once, as the ask comes, and its Turn line while it runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.play.draw import turn_text
from clients.play.link import Link
from clients.play.state import TableState, fold_all
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.wire import parse_line
from tests.play.server import Heard, ServerThread

WARNED = "If your clock runs out now, the game is lost (3 timeouts in a row)."
WARNED_RU = "Если ваше время выйдет и сейчас, партия проиграна (пропусков подряд: 3)."


@pytest.mark.timeout(60)
def test_the_client_warns_of_the_timeout_that_loses_the_game(tmp_path: Path) -> None:
    heard = Heard()
    said = heard.said
    # roman's clock (a person's: the client says 'clock human') is short, and he never
    # answers: the clock calls for him twice, and the third time forfeits
    with ServerThread(tmp_path / "db.sqlite3", human_clock_ms=400) as server:
        link = Link("127.0.0.1", server.port, heard.deliver, name="roman")
        link.start()
        try:
            heard.index_of("ok cmd=login name=roman", timeout=20)
            assert link.send("new 2")
            table = parse_line(said[heard.index_of("ok cmd=sit", timeout=20)]).get_int("table")
            server.opponent("olga", f"sit {table}")
            heard.index_of("kind=match-end", timeout=30)
        finally:
            link.stop()
        assert not server.errors, server.errors
    ended = next(i for i, x in enumerate(said) if "kind=match-end" in x)
    assert "reason=timeouts" in said[ended], said[ended]
    last = next(i for i, x in enumerate(said) if x.startswith("ask ") and "last_timeout=3" in x)
    before = fold_all(said[:last])
    assert WARNED not in before.log
    state = fold_all(said[: last + 1])
    assert state.log[-1] == WARNED, state.log[-4:]
    assert turn_text(state, 400, state.who) == ("Turn:   YOU (roman), 0 s left (last chance)")
    assert turn_text(before, 400, before.who) != turn_text(state, 400, state.who)
    # said once: the whole match's log holds it once, before the end
    whole = fold_all(said[: ended + 1])
    assert whole.log.count(WARNED) == 1, whole.log
    over = next(i for i, x in enumerate(whole.log) if x.startswith("Game over:"))
    assert whole.log.index(WARNED) < over
    russian = fold_all(said[: last + 1], TableState(lang=Lang.RU))
    assert russian.log[-1] == WARNED_RU, russian.log[-3:]
    assert turn_text(russian, 400, russian.who) == (
        "Ход:    ВАШ (roman), осталось 0 с (последний шанс)"
    )
