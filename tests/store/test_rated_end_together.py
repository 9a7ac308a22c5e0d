"""A rated match's result and its players' new ratings are one store call
(``finish_match``'s ``ratings``): stored together or not at all, on both stores. Forced
over real sockets: the database refuses the ratings' history rows (a trigger)."""

from __future__ import annotations

import random

import structlog
import trio

from deberc_net.server.accounts import set_password
from deberc_net.server.store import is_postgres, open_store
from tests.server.client import LineClient, fields, is_event, play_machine, seat_pair
from tests.server.conftest import Connector, make_config, running_server

from .records import raw

TIME_LIMIT_S = 30
REFUSED = "no room for the ratings"  # what the trigger says
SQLITE_REFUSAL = (
    "CREATE TRIGGER refused BEFORE INSERT ON rating_history"
    f" BEGIN SELECT RAISE(ABORT, '{REFUSED}'); END",
)
POSTGRES_REFUSAL = (
    "CREATE FUNCTION refused() RETURNS trigger LANGUAGE plpgsql AS"
    f" $$ BEGIN RAISE EXCEPTION '{REFUSED}'; END $$",
    "CREATE TRIGGER refused BEFORE INSERT ON rating_history"
    " FOR EACH ROW EXECUTE FUNCTION refused()",
)


async def test_a_rated_matchs_result_is_not_stored_without_its_ratings(store_db: str) -> None:
    """The ratings cannot be written: the match's end is not stored either (one
    transaction): the match runs on in the store until the server's stop lists it, cut
    off, and nobody's rating moved; the players are told its end as played, the loss
    logged (`store_write_failed`, docs/settings.md). Failed before: the result was its
    own store call, committed first, so the match was listed as won, with nobody's
    rating moved; and then the table failed as a bug (an internal error, no result)."""
    store = open_store(store_db)
    for name in ("ann", "bob"):
        set_password(store, name, f"pw-{name}-1")
    store.close()
    raw(store_db, *(POSTGRES_REFUSAL if is_postgres(store_db) else SQLITE_REFUSAL))
    connect = Connector()
    with trio.fail_after(TIME_LIMIT_S), structlog.testing.capture_logs() as logs:
        async with running_server(make_config(store_db)) as port:
            ann = await connect.machine(port, "ann", "pw-ann-1")
            bob = await connect.machine(port, "bob", "pw-bob-1")
            try:
                await seat_pair(ann, bob, "2 short")  # a public table: rated
                ends: list[dict[str, str]] = []

                async def play(client: LineClient, seed: int) -> None:
                    ends.append(fields(await play_machine(client, random.Random(seed)))[1])

                async with trio.open_nursery() as nursery:
                    nursery.start_soon(play, ann, 1)
                    nursery.start_soon(play, bob, 2)
                assert [e["reason"] != "internal" for e in ends] == [True, True]
            finally:
                await connect.aclose()
    (start,) = [fields(x)[1] for x in ann.lines if is_event(x, "start")]
    lost = [e for e in logs if e["event"] == "store_write_failed"]
    assert [e["match"] for e in lost] == [start["match"]]
    store = open_store(store_db)
    try:
        # listed only by the server's stop, as a match cut off: its end was not stored
        game = store.finished_match(start["match"])
        assert game is not None and (game["winner"], game["reason"]) == (None, "shutdown")
        assert store.standings("moscow", 2) == []
    finally:
        store.close()
