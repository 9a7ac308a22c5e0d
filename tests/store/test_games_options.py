"""A player's games come with their matches' options, in both backends: they tell a
seat's true `konets` (manual-claim) from the server's own claim, both stored as reason
`claim` (protocol/ends.py said_konets), so `games` and his page can say which."""

from __future__ import annotations

from deberc_net.protocol.ends import said_konets
from deberc_net.server.store import open_store


def test_recent_games_and_a_finished_match_give_its_options(store_db: str) -> None:
    store = open_store(store_db)
    try:
        store.finish_match("m1", 1, ["ann", "bob"], "moscow", [], "ann", "claim", [514, 0])
        store.finish_match(
            "m2", 1, ["ann", "bob"], "moscow", ["manual-claim", "to-301"], "ann", "claim", [310, 0]
        )
        games = {g["match"]: g for g in store.recent_games("ann")}
        assert games["m1"]["options"] == [] and games["m2"]["options"] == ["manual-claim", "to-301"]
        assert [said_konets(g["reason"], g["options"]) for g in store.recent_games("bob")] == [
            True,
            False,
        ]
        finished = store.finished_match("m2")
        assert finished is not None and finished == games["m2"]
    finally:
        store.close()
