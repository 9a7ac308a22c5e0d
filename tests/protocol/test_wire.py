"""protocol.wire: the one formatter and parser of the machine style (docs/protocol.md §3).

Every kind of line the server's machine renderer makes is rendered, parsed back and
compared with what was rendered (render → parse → equal); the lines of docs/protocol.md's
transcripts parse, and still parse with fields appended (§1).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import attrs
import pytest
import trio

from clients.client import Connection
from deberc_net.game import calls as C
from deberc_net.game import events as g
from deberc_net.game.calls import Call, parse_token
from deberc_net.game.cards import SUITS, card_str, parse_card
from deberc_net.game.match import Match
from deberc_net.game.view import SeatView, view
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import BANNER_RU, MACHINE, render
from deberc_net.protocol.wire import (
    MOST_LINE_BYTES,
    EventKind,
    Line,
    LineBuffer,
    LineTooLong,
    MatchEnd,
    Record,
    Tag,
    View,
    WireError,
    banner_protocol,
    format_line,
    format_value,
    parse,
    parse_line,
)
from deberc_net.server.app import serve
from deberc_net.server.config import Config
from deberc_net.testing import build_ruleset


def one(event: ev.ServerEvent) -> str:
    [line] = render(event, MACHINE)
    return line


# ------------------------------------------------------------------- grammar
def test_values_none_bools_lists_and_spaces() -> None:
    assert format_value(None) == "-"
    assert (format_value(True), format_value(False)) == ("1", "0")
    assert format_value([]) == "" and format_value(("Js", "10h")) == "Js,10h"
    assert format_value([1, None, 3]) == "1,-,3"
    assert format_value("2026-11-29 20:08:52") == "2026-11-29_20:08:52"
    assert format_line("ok", [("cmd", "x"), ("seats", ["a", None])], "two words") == (
        "ok cmd=x seats=a,- text=two words"
    )


def test_the_formatter_refuses_field_names_outside_the_grammar() -> None:
    for key in ("Seq", "to-act", "", "text", "a b"):
        with pytest.raises(WireError):
            format_line("ok", [(key, 1)])


def test_text_is_last_and_runs_to_the_end_whatever_it_holds() -> None:
    line = parse_line("say from=carl table=- text=hello  lobby kind=x text=y")
    assert line.tag is Tag.SAY and line.text == "hello  lobby kind=x text=y"
    assert list(line.fields) == ["from", "table", "text"] and line.get_str("kind") is None
    assert parse_line("help text=").text == ""
    assert parse_line("bye").text is None and parse_line("bye").fields == {}
    # a key merely containing "text" is no text field
    context = parse_line("x context=a b=c")
    assert dict(context.fields) == {"context": "a", "b": "c"} and context.text is None


def test_none_empty_lists_numbers_and_bools_are_typed_on_access() -> None:
    line = parse_line("event seq=3 table=2 kind=match-end winner=- name= totals=0,-5 auto=1")
    assert line.kind is EventKind.MATCH_END and line.seq == 3 and line.table == 2
    assert line.get_int("winner") is None and line.get_str("winner") is None
    assert line.get_str("name") == "" and line.get_list("name") == []
    assert line.get_ints("totals") == [0, -5] and line.get_bool("auto") is True
    assert line.get_int("absent") is None and line.get_list("absent") == []
    with pytest.raises(WireError):
        parse_line("event seq=x").get_int("seq")
    with pytest.raises(WireError):
        parse_line("event table=1").require_int("seq")


def test_unknown_tags_and_kinds_stay_strings_and_human_lines_parse_harmlessly() -> None:
    future = parse_line("tempo beat=3")
    assert future.tag == "tempo" and not isinstance(future.tag, Tag)
    assert parse_line("event seq=1 table=1 kind=juggle").kind == "juggle"
    banner = "deberc-net 0.1.0 (protocol 1) — Deberts for people and bots. Type 'help'."
    assert banner_protocol(banner) == 1 and banner_protocol("ok cmd=x (protocol 1)") is None
    assert parse_line(banner).fields == {}  # no word of it is a field


def test_a_line_buffer_frames_crlf_and_lf_across_reads() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"ok cmd=a\r") == []
    assert buffer.feed(b"\nwho count=0 names=\r\nsay text=\xd0") == [
        "ok cmd=a",
        "who count=0 names=",
    ]
    assert buffer.unfinished
    assert buffer.feed(b"\xb4\r\n") == ["say text=д"] and not buffer.unfinished


def test_a_line_buffer_refuses_a_line_beyond_its_bound_whole_or_in_parts() -> None:
    # hostile tryout (s24): a server's line without end grew a client by 150 MB in 20 s
    buffer = LineBuffer(most=10)
    assert buffer.feed(b"0123456789\nab") == ["0123456789"]  # at the bound: a line
    assert buffer.feed(b"cdefgh") == []
    with pytest.raises(LineTooLong, match="longer than 10 bytes"):
        buffer.feed(b"ijk")  # its parts together outgrow it
    assert not buffer.unfinished  # what it held is dropped
    with pytest.raises(LineTooLong):
        LineBuffer(most=10).feed(b"ok\n" + b"x" * 11 + b"\nok\n")  # one of several
    assert isinstance(LineTooLong("x"), ConnectionError)  # to a bot: a connection lost
    assert LineBuffer().feed(b"w" * MOST_LINE_BYTES + b"\n") == ["w" * MOST_LINE_BYTES]


# ------------------------------------------------- render -> parse -> equal
LOBBY_EVENTS: list[ev.ServerEvent] = [
    ev.Hello("0.1.0", "1"),
    ev.Ok("login", "Hello, anna (guest).", (("name", "anna"), ("guest", "1"))),
    ev.Ok("seek", "Waiting.", (("players", "2"), ("variant", "moscow"), ("options", ""))),
    ev.Ok("unseek", "You no longer wait for a game."),
    ev.Error("stale", "that answers request 6; the open request is 7"),
    ev.Info("Table 3 waits for players: anna, (free)"),
    ev.Bye("Bye. Your seat, if any, waits for you."),
    ev.Who(("anna", "boris")),
    ev.Who(()),
    ev.Said("anna", "hello  there text=x", None),
    ev.Said("boris", "at the table", 4),
]


@pytest.mark.parametrize("event", LOBBY_EVENTS, ids=lambda e: type(e).__name__)
def test_lobby_lines_round_trip(event: ev.ServerEvent) -> None:
    line = one(event)
    parsed = parse_line(line)
    assert parsed.format() == line
    match event:
        case ev.Hello():
            assert parsed.tag is Tag.HELLO and parsed.get_int("protocol") == 1
            assert parsed.get_str("version") == event.version
        case ev.Ok():
            assert parsed.tag is Tag.OK and parsed.get_str("cmd") == event.cmd
            assert [(k, v) for k, v in parsed.fields.items() if k not in ("cmd", "text")] == (
                list(event.fields)
            )
            assert parsed.text == event.text and list(parsed.fields)[-1] == "text"
        case ev.Error():
            assert (parsed.tag, parsed.get_str("code"), parsed.text) == (
                Tag.ERROR,
                event.code,
                event.text,
            )
        case ev.Info() | ev.Bye():
            assert parsed.text == event.text and list(parsed.fields) == ["text"]
        case ev.Who():
            assert parsed.get_int("count") == len(event.names)
            assert parsed.get_list("names") == list(event.names)
        case ev.Said():
            assert parsed.get_str("from") == event.sender and parsed.text == event.text
            assert parsed.get_int("table") == event.table


def test_blocks_tables_and_games_round_trip() -> None:
    block = render(ev.TextBlock("help", ("Commands here:", "  help [COMMAND]   Show.")), MACHINE)
    assert [parse_line(x).text for x in block] == ["Commands here:", "  help [COMMAND]   Show."]
    assert {parse_line(x).tag for x in block} == {Tag.HELP}
    tables = ev.Tables(
        (
            ev.TableInfo(2, 2, "moscow", ("to-301",), ("anna", None), ev.TableState.WAITING, 0),
            ev.TableInfo(5, 4, "kharkov", (), ("a", "b", "c", "d"), ev.TableState.PLAYING, 3),
        )
    )
    head, *rows = [parse_line(x) for x in render(tables, MACHINE)]
    assert head.tag is Tag.TABLES and head.get_int("count") == 2
    for row, info in zip(rows, tables.tables, strict=True):
        assert row.tag is Tag.TABLE and row.get_int("id") == info.id
        assert row.get_int("players") == info.players and row.get_str("variant") == info.variant
        assert row.get_list("options") == list(info.options)
        assert row.get_list("seats") == ["-" if s is None else s for s in info.seats]
        assert row.get_str("state") == info.state and row.get_int("observers") == info.observers
    games = ev.Games(
        "anna",
        (
            ev.Game(
                "m1",
                1,
                ("bob", "anna"),
                "moscow",
                "anna",
                "target",
                (214, 308),
                "2026-11-29 20:46:03",
            ),
            ev.Game("m2", 2, ("a", "b"), "moscow", None, "deals", (0, 0), "2026-11-30 01:02:03"),
        ),
    )
    head, *rows = [parse_line(x) for x in render(games, MACHINE)]
    assert head.get_str("name") == "anna" and head.get_int("count") == 2
    assert rows[0].get_ints("totals") == [214, 308] and rows[0].get_str("winner") == "anna"
    assert rows[0].get_str("finished") == "2026-11-29_20:46:03"  # spaces become _
    assert rows[1].get_str("winner") is None and rows[1].get_list("players") == ["a", "b"]


# one of every event kind of §6.2, with the values the table gives them
def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


# Each typed event the table tells, with the fields its machine line must carry in order.
TABLE_EVENTS: list[tuple[object, str, dict[str, object]]] = [
    (ev.Seated("anna", 0), "seated", {"name": "anna", "seat": 0}),
    (ev.Left("anna", 0), "left", {"name": "anna", "seat": 0}),
    (
        g.MatchStarted(("anna", "boris"), "m3"),
        "start",
        {"players": ["anna", "boris"], "match": "m3"},
    ),
    (
        g.DealStarted(1, 0, parse_card("Ad"), (0, 0), 0),
        "deal",
        {"deal": 1, "dealer": 0, "turned": "Ad", "score": [0, 0], "hanging": 0},
    ),
    (g.CallMade(1, Call(C.IGRAYU)), "call", {"seat": 1, "call": "igrayu", "auto": False}),
    (g.CardPlayed(0, parse_card("Kc"), auto=True), "play", {"seat": 0, "card": "Kc", "auto": True}),
    (
        g.Ordered(1, 2, True, None),
        "order",
        {"player": 1, "trump": "d", "first": True, "fresa": None},
    ),
    (g.Dealt(parse_card("10c")), "dealt", {"fresa": "10c"}),
    (g.TrickTaken(0, _cards("7c Kc")), "trick", {"winner": 0, "cards": ["7c", "Kc"]}),
    (g.Shown(2, _cards("10s Js Qs")), "shown", {"seat": 2, "cards": ["10s", "Js", "Qs"]}),
    (
        g.Penalized(1, parse_token("Kh"), "must-follow-suit"),
        "penalty",
        {"seat": 1, "call": "Kh", "code": "must-follow-suit"},
    ),
    (
        g.DealEnded(1, "bide", (99, 3), (102, 0), (102, 0), 0, {}),
        "deal-end",
        {
            "deal": 1,
            "outcome": "bide",
            "points": [99, 3],
            "written": [102, 0],
            "totals": [102, 0],
            "hanging": 0,
        },
    ),
    (
        g.MatchEnded(None, (), "deals", (0, 0), "s/board1"),
        "match-end",
        {"winner": None, "name": None, "reason": "deals", "totals": [0, 0], "seed": "s/board1"},
    ),
    (
        g.MatchEnded(0, ("fa",), "timeouts", (0, 0), "85376cc51da2e0b0", forfeit=1),
        "match-end",
        {
            "winner": 0,
            "name": "fa",
            "reason": "timeouts",
            "totals": [0, 0],
            "seed": "85376cc51da2e0b0",
            "forfeit": 1,
        },
    ),
    (ev.WentAway("boris", 1), "away", {"name": "boris", "seat": 1}),
    (ev.CameBack("boris", 1), "back", {"name": "boris", "seat": 1}),
]


@pytest.mark.parametrize(
    ("event", "kind", "fields"), TABLE_EVENTS, ids=[k for _, k, _ in TABLE_EVENTS]
)
def test_every_event_kind_round_trips(event: object, kind: str, fields: dict[str, object]) -> None:
    line = one(ev.TableEvent(17, 3, ("anna", "boris", "vera"), event))  # type: ignore[arg-type]
    parsed = parse_line(line)
    assert parsed.format() == line
    assert parsed.tag is Tag.EVENT and parsed.kind is EventKind(kind)
    assert (parsed.seq, parsed.table) == (17, 3)
    assert list(parsed.fields) == ["seq", "table", "kind", *fields]
    for key, value in fields.items():
        if isinstance(value, bool):
            assert parsed.get_bool(key) is value
        elif isinstance(value, int):
            assert parsed.get_int(key) == value
        elif isinstance(value, list):
            want = [str(v) for v in value]
            assert parsed.get_list(key) == want
        else:
            assert parsed.get_str(key) == value
    if kind == "match-end":
        end = MatchEnd.from_line(parsed)
        assert (end.winner, end.reason, end.totals) == (
            fields["winner"],
            fields["reason"],
            fields["totals"],
        )
        assert end.names == ([] if fields["name"] is None else [fields["name"]])
        assert end.forfeit == fields.get("forfeit") and end.seed == fields["seed"]


def expected_view(
    kind: str, seq: int, table: int, v: SeatView, clock: int | None
) -> dict[str, object]:
    return {
        "kind": kind,
        "seq": seq,
        "table": table,
        "deal": v.deal_no,
        "phase": v.phase,
        "seat": v.seat,
        "dealer": v.dealer,
        "to_act": v.to_act,
        "hand": [card_str(c) for c in v.hand],
        "turned": None if v.turned is None else card_str(v.turned),
        "fresa": None if v.fresa is None else card_str(v.fresa),
        "trump": None if v.trump is None else SUITS[v.trump],
        "player": v.player,
        "round": v.bid_round,
        "leader": v.leader,
        "trick": [card_str(c) for _, c in v.trick],
        "tricks": list(v.tricks_taken),
        "score": list(v.totals),
        "hanging": v.hanging,
        "target": v.target,
        "pending": None if v.pending is None else ":".join(map(str, v.pending)),
        "shown": [f"{s}:{card_str(c)}" for s, cs in sorted(v.shown.items()) for c in cs],
        "talk": [f"{s}:{t}" for s, t in v.talk],
        "clock_ms": clock,
        "legal": list(v.legal),
        "players": len(v.names),
    }


@pytest.mark.parametrize(("players", "options"), [(2, ()), (3, ("to-301",)), (4, ())])
def test_every_ask_and_state_of_a_whole_match_round_trips(
    players: int, options: tuple[str, ...]
) -> None:
    rules = build_ruleset(players, "moscow", options)
    match = Match(rules, seed=f"wire-{players}", names=tuple(f"p{i}" for i in range(players)))
    rng = random.Random(players)
    seq = 0
    while not match.over and seq < 400:
        seq += 1
        actor = match.to_act
        for seat in [*range(players), None]:
            v = view(match, seat)
            kind = ev.AskKind.ASK if seat is not None and seat == actor else ev.AskKind.STATE
            clock = None if seat is None else 10_500 - seq
            line = one(ev.Ask(seq, 8, v, clock, kind))
            parsed = parse(line)
            assert isinstance(parsed, View)
            got = attrs_dict(parsed)
            assert got == expected_view(kind, seq, 8, v, clock), line
            assert parse_line(line).format() == line
        assert actor is not None
        match.apply(actor, rng.choice(match.legal_calls(actor)))
    assert match.over and match.records


def attrs_dict(v: View) -> dict[str, object]:
    out = attrs.asdict(v)
    out.pop("raw")
    return out


def test_a_deal_record_round_trips() -> None:
    rules = build_ruleset(2, "moscow", ())
    match = Match(rules, seed="rec", names=("a", "b"))
    rng = random.Random(1)
    while not match.records:
        seat = match.to_act
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_calls(seat)))
    record = {**match.records[0], "notes": ["a note with  spaces", "text=inside"]}
    line = one(ev.DealRecord(6, record))
    parsed = parse(line)
    assert isinstance(parsed, Record)
    assert parsed.table == 6 and parsed.deal == record["deal_no"]
    assert parsed.record == json.loads(json.dumps(record))
    with pytest.raises(WireError):
        parse("record table=6 deal=1 text={not json")


# ------------------------------------------------------------ golden lines
# Copied from docs/protocol.md's transcripts (untrimmed lines only).
GOLDEN = [
    "ok cmd=login name=anna guest=0 text=Hello, anna (registered now, with the password you "
    "typed: log in with it next time). 0 tables, 1 player here. "
    "'tables', 'new', 'sit N', 'seek', 'help'.",
    "ok cmd=style style=machine text=Style machine.",
    "ok cmd=seek players=2 variant=moscow options=to-301"
    " text=Waiting for a moscow game for 2 players.",
    "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0.",
    "ok cmd=reserve table=5 text=Table 5 is reserved for a, b.",
    "error code=stale answers=6 open=7 text=that answers request 6; the open request is 7",
    "error code=busy text=the server is full",
    "who count=2 names=fedya,stayer",
    "tables count=1",
    "table id=2 players=2 variant=moscow options=to-301 seats=anna,- state=waiting observers=0",
    "games name=bot1 count=1",
    "game match=m14 table=14 players=misha,bot1 variant=moscow winner=bot1 reason=left "
    "totals=45,56 finished=2026-11-29_20:08:52",
    "say from=fedya table=21 text=tab here",
    "help text=new [PLAYERS] [VARIANT] [OPTION ...]: Open a table (default: moscow for 2 players) "
    "and sit at it. Example: new 2 moscow to-301",
    "bye text=Bye. Your seat, if any, waits for you.",
    "event seq=1 table=3 kind=seated name=b1 seat=0",
    "event seq=3 table=3 kind=start players=b1,b2 match=m3",
    "event seq=4 table=3 kind=deal deal=1 dealer=0 turned=Ad score=0,0 hanging=0",
    "event seq=5 table=3 kind=call seat=1 call=igrayu auto=0",
    "event seq=6 table=3 kind=order player=1 trump=d first=1 fresa=10c",
    "event seq=7 table=3 kind=play seat=1 card=7c auto=0",
    "event seq=10 table=3 kind=trick winner=0 cards=7c,Kc",
    "event seq=35 table=3 kind=deal-end deal=1 outcome=bide points=99,3 written=102,0 "
    "totals=102,0 hanging=0",
    "event seq=188 table=3 kind=match-end winner=0 name=b1 reason=claim totals=301,226 "
    "seed=256a0501ae6851ed",
    "event seq=99 table=7 kind=match-end winner=1 name=fo1,fo3 reason=target totals=64,320 "
    "seed=442678d0a8f7ac4f",
    "event seq=61 table=14 kind=away name=bot1 seat=1",
    "event seq=62 table=14 kind=back name=bot1 seat=1",
    "ask seq=7 table=3 deal=1 phase=play seat=0 dealer=0 to_act=0 "
    "hand=8h,Jh,Qh,7d,Qd,9d,Jd,8c,Kc turned=Ad fresa=10c trump=d player=1 round=1 leader=1 "
    "trick=7c tricks=0,0 score=0,0 hanging=0 target=301 pending=- shown= talk=1:igrayu "
    "clock=10500 legal=menyayu,Kc,8c players=2",
    "state seq=4 table=14 deal=1 phase=bidding seat=- dealer=0 to_act=1 hand= turned=Ah "
    "fresa=- trump=- player=- round=1 leader=1 trick= tricks=0,0 score=0,0 hanging=0 "
    "target=501 pending=- shown= talk= clock=- legal= players=2",
    'record table=5 deal=2 text={"format":"deberc-deal/1","table":"5","match":"m5",'
    '"deal_no":2,"seed":null,"players":["x2a","x1a"],"outcome":"void"}',
]


def appended(line: str, extra: str = "tempo=fast future=") -> str:
    """The line with fields appended as §1 allows: at the end, before a final text=."""
    head, sep, text = line.partition(" text=")
    return f"{head} {extra}{sep}{text}"


@pytest.mark.parametrize("line", GOLDEN, ids=lambda x: x.split(" ")[0])
def test_golden_lines_parse_and_still_parse_with_fields_appended(line: str) -> None:
    parsed = parse_line(line)
    assert parsed.format() == line
    assert isinstance(parsed.tag, Tag)
    if parsed.tag is Tag.EVENT:
        assert isinstance(parsed.kind, EventKind)
    later = parse_line(appended(line))
    assert later.get_str("tempo") == "fast" and later.get_str("future") == ""
    assert {k: v for k, v in later.fields.items() if k not in ("tempo", "future")} == (
        dict(parsed.fields)
    )
    typed, typed_later = parse(line), parse(appended(line))
    if isinstance(typed, View):
        assert isinstance(typed_later, View)
        assert attrs_dict(typed) == attrs_dict(typed_later)
    elif isinstance(typed, Record):
        assert typed == typed_later and typed.record["deal_no"] == 2
    else:
        assert isinstance(typed, Line) and isinstance(typed_later, Line)
        if typed.kind is EventKind.MATCH_END:
            assert MatchEnd.from_line(typed) == MatchEnd.from_line(typed_later)


def test_golden_view_is_typed() -> None:
    ask = parse(GOLDEN[-3])
    assert isinstance(ask, View) and ask.kind == "ask" and ask.players == 2
    assert ask.legal == ["menyayu", "Kc", "8c"] and ask.trick == ["7c"] and ask.target == 301
    observer = parse(GOLDEN[-2])
    assert isinstance(observer, View)
    assert observer.seat is None and observer.hand == [] and observer.clock_ms is None


@pytest.mark.parametrize("golden", [-3, -2])
def test_a_view_without_players_is_refused_not_typed_none(golden: int) -> None:
    """Every ask and state line has ``players=`` (the seats), so ``View.players`` is an
    ``int`` a bot uses as is; a line without it is refused as one without ``seq=``
    (failed before: it was typed ``int | None`` and read as None)."""
    line = GOLDEN[golden].replace(" players=2", "")
    with pytest.raises(WireError, match="line without players="):
        parse(line)


def golden_key(line: Line) -> tuple[str, str | None]:
    return str(line.tag), str(line.kind or line.get_str("cmd") or "") or None


GOLDEN_KEYS = {
    golden_key(parse_line(x)): [k for k in parse_line(x).fields if k != "text"] for x in GOLDEN
}


async def test_a_real_servers_lines_round_trip_and_only_append_to_the_documented_fields(
    tmp_path: Path,
) -> None:
    """Fields are only ever appended (§1): every line a real server sends in a game has
    the fields its documented example has, in that order, first; and it formats back."""
    config = Config(host="127.0.0.1", port=0, db=str(tmp_path / "w.sqlite3"), lag_ms=0)
    seen: list[str] = []
    rng = random.Random(5)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)
            a = await Connection.open("127.0.0.1", port)
            b = await Connection.open("127.0.0.1", port)
            for conn, name in ((a, "wa"), (b, "wb")):
                await conn.send("style machine")
                await conn.send(f"login {name}")
            await a.send("new 2")
            await a.send("tables")
            await a.send("who")

            async def play(conn: Connection, first: bool) -> None:
                async for text in conn.lines():
                    seen.append(text)
                    line = parse_line(text)
                    if line.tag is Tag.TABLE and not first:
                        await conn.send(f"sit {line.get_int('id')}")
                    elif line.tag is Tag.ASK:
                        legal = line.get_list("legal")
                        await conn.send(f"{rng.choice(legal)} seq={line.seq}")
                    elif line.kind is EventKind.DEAL_END and first:
                        await conn.send("leave")
                    elif line.kind is EventKind.MATCH_END:
                        await conn.send("games")
                    elif line.tag is Tag.GAME:
                        return

            async with trio.open_nursery() as players:
                players.start_soon(play, a, True)
                players.start_soon(play, b, False)
                while not any(x.startswith("ok cmd=sit") for x in seen):
                    await trio.sleep(0.01)
                await b.send("tables")
            for conn in (a, b):
                await conn.aclose()
            nursery.cancel_scope.cancel()
    checked = set()
    for text in seen:
        if banner_protocol(text) is not None or text == BANNER_RU:  # the banner (§4.1)
            continue
        line = parse_line(text)
        assert line.format() == text
        documented = GOLDEN_KEYS.get(golden_key(line))
        if documented is not None:
            keys = [k for k in line.fields if k != "text"]
            assert keys[: len(documented)] == documented, text
            assert "text" not in line.fields or list(line.fields)[-1] == "text"
            checked.add(golden_key(line))
    for wanted in ("ask", "state", "record", "tables", "table", "who", "games", "game"):
        assert any(tag == wanted for tag, _ in checked), wanted
    for kind in (
        "seated",
        "start",
        "deal",
        "call",
        "order",
        "play",
        "trick",
        "deal-end",
        "match-end",
    ):
        assert ("event", kind) in checked, kind
