"""What a ``serve --workers`` worker tells another over the bus (server/cluster/
payloads.py) reads back as it was: a phrase, a table message forwarded to the table's
owner, an invitation. Each crosses as JSON, as the bus encodes it."""

from __future__ import annotations

import json
from typing import Any

import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg, phrase
from deberc_net.server.cluster.payloads import (
    invited_for_bus,
    invited_from_bus,
    message_for_bus,
    message_from_bus,
    phrase_for_bus,
    phrase_from_bus,
)
from deberc_net.server.house import HouseBotKind
from deberc_net.server.matchmaking import GameSettings
from deberc_net.server.session import Outbox, Session
from deberc_net.server.table_messages import (
    Away,
    Back,
    Dismiss,
    Invite,
    Leave,
    Message,
    Observe,
    Say,
    ShowHistory,
    ShowLast,
    ShowSheet,
    ShowState,
    Sit,
    Stop,
    SummonBot,
    TableCall,
    Unobserve,
)


def _carried(value: Any) -> Any:
    """``value`` as another worker reads it off the bus."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def test_a_phrase_crosses_the_bus_whole() -> None:
    said = phrase(
        Msg.WAITS_FOR_AWAY,
        table=7,
        names=(phrase(Msg.AWAY_HELD, name="ann", seconds=97), "bob"),
    )
    assert phrase_from_bus(_carried(phrase_for_bus(said))) == said


async def test_each_table_message_a_worker_forwards_is_read_back_as_posted() -> None:
    session = Session(1, Outbox(1 << 16), trio.CancelScope(), name="ann", address="10.0.0.7")
    forwarded: list[Message] = [
        Sit(session, 2, GameSettings(4, "moscow", ("to-301",))),
        Sit(session, None),
        Leave(session, confirmed=True),
        Leave(session, paid=True),  # (a seat paid for at a waiting table: not again)
        TableCall(session, "pas", 17),
        Observe(session, sheet=True),
        Unobserve(session),
        Back(session),
        ShowState(session),
        ShowLast(session),
        ShowSheet(session),
        ShowHistory(session),
        Say(session, "удачи"),
        Invite(session, "bob"),
        SummonBot(session, HouseBotKind.SEARCH, 3, rated=True),
    ]
    for message in forwarded:
        told = _carried(message_for_bus(message))
        assert message_from_bus(told["m"], session, told) == message
    # an away is a name's (its owner reads it itself); a stop or a dismissal is never sent
    assert message_for_bus(Away("ann")) == {"m": "away", "name": "ann"}
    assert message_for_bus(Stop("stopping")) is None
    assert message_for_bus(Dismiss("bot")) is None


async def test_a_leave_and_a_bot_tell_the_owner_the_players_own_address() -> None:
    """The stand-in of another worker's player has his worker's address until a message
    tells his own: a 'leave' (those whose match he leaves are kept apart from it,
    docs/protocol.md §5.5) and a 'bot' (the house bots' cap per address)."""
    ann = Session(1, Outbox(1 << 16), trio.CancelScope(), name="ann", address="10.0.0.7")
    for message in (Leave(ann, confirmed=True), SummonBot(ann, HouseBotKind.RANDOM, None)):
        stand_in = Session(9, Outbox(1 << 16), trio.CancelScope(), name="ann", address="w1")
        stand_in.address_told = False
        told = _carried(message_for_bus(message))
        message_from_bus(told["m"], stand_in, told)
        assert (stand_in.address, stand_in.address_told) == ("10.0.0.7", True), message
    # a worker of an older version tells none: the stand-in's stays its worker's
    stand_in = Session(9, Outbox(1 << 16), trio.CancelScope(), name="ann", address="w1")
    stand_in.address_told = False
    message_from_bus("leave", stand_in, {"m": "leave", "confirmed": True})
    assert (stand_in.address, stand_in.address_told) == ("w1", False)


def test_an_invitation_crosses_the_bus_whole() -> None:
    invited = ev.Invited("ann", 12, 4, "moscow", ("to-301", "bolt"), True)
    assert invited_from_bus(_carried(invited_for_bus(invited))) == invited
