"""clients.protocol: real machine-style lines (captured from a server run) become typed
View / Event / Record objects; text= keeps its spaces, empty values are empty lists,
``-`` is None."""

from __future__ import annotations

import json

import pytest

from clients.protocol import Event, Record, View, WireError, fields_of, parse
from deberc_net.protocol.wire import quick_ask

# Captured from `deberc-net serve` with machine-style clients (bot clock 400 ms).
BANNER = "deberc-net 0.1.0 (protocol 1) — Deberts for people and bots. Type 'help' for commands."
ASK_PLAY = (
    "ask seq=73 table=1 deal=3 phase=play seat=0 dealer=0 to_act=0 "
    "hand=10s,7h,Kh,7d,Qd,10d,Jc,10c,Ac turned=Kd fresa=Qc trump=d player=0 round=1 leader=1 "
    "trick=8h tricks=0,0 score=72,115 hanging=0 target=301 pending=- shown= "
    "talk=1:pas,0:igrayu clock=400 legal=menyayu,Kh,7h players=2"
)
ASK_THREE = (
    "ask seq=15 table=2 deal=1 phase=play seat=0 dealer=2 to_act=0 "
    "hand=7s,Jh,10h,9d,10d,Jc,Kc,Ac turned=8s fresa=Qh trump=s player=0 round=1 leader=0 "
    "trick= tricks=1,0,0 score=0,0,0 hanging=0 target=301 pending=- shown=2:10s,2:Js,2:Qs "
    "talk=0:igrayu,2:terts,0:pokazhi,2:pokazyvayu clock=400 legal=Jc,7s,9d,10h,Kc,Ac,Jh,10d "
    "players=3"
)
ASK_PENDING = (
    "ask seq=13 table=2 deal=1 phase=play seat=2 dealer=2 to_act=2 "
    "hand=Qs,10s,Js,Ah,8d,Jd,8c,Qc turned=8s fresa=Qh trump=s player=0 round=1 leader=0 "
    "trick= tricks=1,0,0 score=0,0,0 hanging=0 target=301 pending=show:0:2 shown= "
    "talk=0:igrayu,2:terts,0:pokazhi clock=400 legal=pokazyvayu players=3"
)
STATE_BIDDING_SHORT = (
    "state seq=4 table=3 deal=1 phase=bidding seat=0 dealer=0 to_act=1 "
    "hand=10h,Ah,7d,Jd,7c,9c turned=Jc fresa=- trump=- player=- round=1 leader=1 trick= "
    "tricks=0,0 score=0,0 hanging=0 target=- pending=- shown= talk= clock=400 legal= players=2"
)
STATE_OBSERVER = (
    "state seq=6 table=1 deal=1 phase=bidding seat=- dealer=1 to_act=2 hand= turned=Jh "
    "fresa=- trump=- player=- round=1 leader=2 trick= tricks=0,0 score=0,0 hanging=0 "
    "target=501 pending=- shown= talk= clock=- legal= players=4"
)
RECORD = (
    'record table=4 deal=1 text={"format":"deberc-deal/1","table":"4","match":"m4",'
    '"deal_no":1,"seed":null,"variant":"moscow","options":[],"rule_versions":{"moscow":"1"},'
    '"players":["fa","fb"],"dealer":1,"deck":["10d","Js","7d","Qd","9c","10h","Ad","Jd","8s",'
    '"As","Qs","Kh","Jh","Kd","8h","9s","7s","Jc","8c","Kc","Ah","7c","10s","Ks","Qc","8d",'
    '"10c","7h","Ac","Qh","9d","9h"],"calls":[{"seat":0,"call":"pas","ms":401,"auto":true},'
    '{"seat":1,"call":"pas","ms":803,"auto":true},{"seat":0,"call":"pas","ms":1204,'
    '"auto":true},{"seat":1,"call":"pas","ms":1605,"auto":true}],"trump":null,"player":null,'
    '"first_trump":false,"turned":"Jh","fresa":null,"tricks":[],"declared":[],'
    '"points":[0,0],"written":[0,0],"hanging":0,"outcome":"void","bides_before":[0,0],'
    '"void_reason":"all passed","notes":[],"totals_before":[0,0],"hanging_before":0,'
    '"hanging_pending_before":[],"totals":[0,0]}'
)
MATCH_END_FORFEIT = (
    "event seq=13 table=4 kind=match-end winner=0 name=fa reason=timeouts totals=0,0 "
    "seed=85376cc51da2e0b0 forfeit=1"
)
MATCH_END_SHORT = (
    "event seq=37 table=3 kind=match-end winner=0 name=p20t reason=short totals=1,-1 "
    "seed=460236a38cc870ce"
)
MATCH_END_DRAW = (
    "event seq=10 table=2 kind=match-end winner=- name=- reason=deals totals=0,0 seed=ladder/board1"
)
OTHER_LINES = [
    "ok cmd=style style=machine text=Style machine.",
    "ok cmd=login name=carl guest=1 text=Hello, carl (guest). 0 tables, 1 player here. "
    "'tables', 'new', 'sit N', 'seek', 'help'.",
    "ok cmd=seek players=2 variant=moscow options=to-301"
    " text=Waiting for a moscow game for 2 players.",
    "ok cmd=sit table=1 seat=0 text=You sit at table 1, seat 0.",
    "who count=1 names=carl",
    "tables count=1",
    "table id=2 players=2 variant=moscow options=to-301 seats=-,- state=waiting observers=0",
    "games name=ann count=1",
    "game match=m1 table=1 players=bob,ann variant=moscow winner=ann reason=target "
    "totals=214,308 finished=2026-11-29_20:46:03",
    "say from=carl table=- text=hello  lobby",
    "say from=ann table=1 text=at the table",
    "error code=unknown-command text='frob' is not a command, and you sit at no table. "
    "Type 'help'.",
    "rules text=Table 2: moscow for 2 players, options: to-301.",
    "error code=not-seated text=you sit at no table and observe none",
    "bye text=Bye. Your seat, if any, waits for you.",
    "event seq=1 table=1 kind=seated name=ann seat=0",
    "event seq=3 table=1 kind=start players=p201,p211 match=m1",
    "event seq=4 table=1 kind=deal deal=1 dealer=1 turned=9s score=0,0 hanging=0",
    "event seq=7 table=1 kind=order player=0 trump=c first=1 fresa=Kd",
    "event seq=39 table=1 kind=call seat=0 call=igrayu-h auto=0",
    "event seq=10 table=1 kind=trick winner=0 cards=Jh,Qh",
    "event seq=15 table=2 kind=shown seat=2 cards=10s,Js,Qs",
    "event seq=35 table=1 kind=deal-end deal=1 outcome=bide points=27,44 written=0,71 "
    "totals=0,71 hanging=0",
    "event seq=5 table=4 kind=away name=fb seat=1",
    "event seq=6 table=4 kind=back name=fb seat=1",
]


def _view(line: str) -> View:
    item = parse(line)
    assert isinstance(item, View)
    return item


def test_fields_split_on_spaces_and_text_runs_to_the_end() -> None:
    assert fields_of("say from=carl table=- text=hello  lobby  text=x") == (
        "say",
        {"from": "carl", "table": "-", "text": "hello  lobby  text=x"},
    )
    assert fields_of("bye text=Bye. Your seat, if any, waits for you.") == (
        "bye",
        {"text": "Bye. Your seat, if any, waits for you."},
    )
    assert fields_of("help text=") == ("help", {"text": ""})
    assert fields_of("tables count=0") == ("tables", {"count": "0"})
    assert fields_of("bye") == ("bye", {})
    # a key merely ending in "text" is no text field
    assert fields_of("x context=a b=c") == ("x", {"context": "a", "b": "c"})


def test_ask_in_play_every_field_typed() -> None:
    v = _view(ASK_PLAY)
    assert v == View(
        kind="ask",
        seq=73,
        table=1,
        deal=3,
        phase="play",
        seat=0,
        dealer=0,
        to_act=0,
        hand=["10s", "7h", "Kh", "7d", "Qd", "10d", "Jc", "10c", "Ac"],
        turned="Kd",
        fresa="Qc",
        trump="d",
        player=0,
        round=1,
        leader=1,
        trick=["8h"],
        tricks=[0, 0],
        score=[72, 115],
        hanging=0,
        target=301,
        pending=None,
        shown=[],
        talk=["1:pas", "0:igrayu"],
        clock_ms=400,
        legal=["menyayu", "Kh", "7h"],
        raw=v.raw,
        players=2,
    )
    assert v.raw["legal"] == "menyayu,Kh,7h" and v.raw["pending"] == "-"


def test_three_player_ask_with_shown_cards_and_an_empty_trick() -> None:
    v = _view(ASK_THREE)
    assert v.players == 3 and v.score == [0, 0, 0] and v.tricks == [1, 0, 0]
    assert v.trick == [] and v.pending is None
    assert v.shown == ["2:10s", "2:Js", "2:Qs"]
    assert v.talk == ["0:igrayu", "2:terts", "0:pokazhi", "2:pokazyvayu"]
    assert v.legal == ["Jc", "7s", "9d", "10h", "Kc", "Ac", "Jh", "10d"]


def test_pending_question_is_kept_whole() -> None:
    v = _view(ASK_PENDING)
    assert v.pending == "show:0:2" and v.legal == ["pokazyvayu"] and v.seat == v.to_act == 2


def test_state_in_bidding_dashes_are_none_and_empty_values_are_empty_lists() -> None:
    v = _view(STATE_BIDDING_SHORT)
    assert v.kind == "state" and v.phase == "bidding"
    assert (v.fresa, v.trump, v.player, v.target, v.pending) == (None, None, None, None, None)
    assert v.trick == [] and v.shown == [] and v.talk == [] and v.legal == []
    assert v.turned == "Jc" and v.to_act == 1 and v.clock_ms == 400


def test_observer_state_has_no_seat_hand_or_clock() -> None:
    v = _view(STATE_OBSERVER)
    assert v.seat is None and v.hand == [] and v.clock_ms is None and v.legal == []
    assert v.players == 4 and v.score == [0, 0] and v.target == 501


def test_record_is_the_json_object_with_its_table_and_deal() -> None:
    item = parse(RECORD)
    assert isinstance(item, Record)
    assert item.table == 4 and item.deal == 1
    assert item.record["format"] == "deberc-deal/1" and item.record["seed"] is None
    assert len(item.record["deck"]) == 32 and item.record["outcome"] == "void"
    assert item.record["calls"][0] == {"seat": 0, "call": "pas", "ms": 401, "auto": True}


def test_match_end_fields_typed() -> None:
    end = parse(MATCH_END_FORFEIT)
    assert isinstance(end, Event)
    assert (end.tag, end.kind, end.seq, end.table) == ("event", "match-end", 13, 4)
    assert end.get_int("winner") == 0 and end.get_int("forfeit") == 1
    assert end.get_list("name") == ["fa"] and end.get_str("reason") == "timeouts"
    assert end.get_ints("totals") == [0, 0] and end.line == MATCH_END_FORFEIT
    short = parse(MATCH_END_SHORT)
    assert isinstance(short, Event) and short.get_ints("totals") == [1, -1]
    assert short.get_int("forfeit") is None  # absent
    draw = parse(MATCH_END_DRAW)
    assert isinstance(draw, Event)
    assert draw.get_int("winner") is None and draw.get_list("name") == []
    assert draw.get_str("name") is None and draw.get_str("seed") == "ladder/board1"


@pytest.mark.parametrize("line", OTHER_LINES)
def test_every_other_line_is_an_event_with_its_fields(line: str) -> None:
    item = parse(line)
    assert isinstance(item, Event) and item.line == line
    tag, fields = fields_of(line)
    assert item.tag == tag == line.split(" ")[0] and item.fields == fields
    if "text=" in line:
        assert item.fields["text"] == line.split("text=", 1)[1]
    if tag == "event":
        assert isinstance(item.seq, int) and isinstance(item.table, int) and item.kind


def test_lobby_lines_typed() -> None:
    said = parse("say from=carl table=- text=hello  lobby")
    assert isinstance(said, Event)
    assert said.table is None and said.get_str("text") == "hello  lobby"
    table = parse(OTHER_LINES[6])
    assert isinstance(table, Event)
    assert table.get_int("id") == 2 and table.get_list("options") == ["to-301"]
    assert table.get_list("seats") == ["-", "-"]  # '-' inside a list: a free seat
    who = parse("who count=1 names=carl")
    assert isinstance(who, Event) and who.get_list("names") == ["carl"]
    deal_end = parse(OTHER_LINES[22])
    assert isinstance(deal_end, Event)
    assert deal_end.get_ints("written") == [0, 71] and deal_end.get_str("outcome") == "bide"
    empty = parse("tables count=0 names=")
    assert isinstance(empty, Event)
    assert empty.get_list("names") == [] and empty.get_str("names") == ""


def test_banner_and_unknown_lines_do_not_break_parsing() -> None:
    banner = parse(BANNER)
    assert isinstance(banner, Event) and banner.tag == "deberc-net"
    future = parse("hello server=deberc-net version=0.2.0 protocol=1 text=hi there")
    assert isinstance(future, Event) and future.get_int("protocol") == 1
    # new fields are appended; a View keeps them in raw and parses the rest as before
    v = _view(ASK_PLAY + " tempo=fast")
    assert v.raw["tempo"] == "fast" and v.legal == ["menyayu", "Kh", "7h"]


def test_record_text_with_spaces_survives() -> None:
    body = {"format": "deberc-deal/1", "notes": ["a note with spaces", "text=inside"]}
    item = parse(f"record table=9 deal=2 text={json.dumps(body)}")
    assert isinstance(item, Record) and item.record == body and item.deal == 2


def test_a_view_with_a_bad_or_missing_field_is_a_wire_error_naming_it() -> None:
    for broken, key in [
        (ASK_PLAY.replace("seq=73", "seq=x"), "seq"),
        (ASK_PLAY.replace("dealer=0 ", ""), "dealer"),
        (ASK_PLAY.replace("dealer=0", "dealer=-"), "dealer"),
        (ASK_PLAY.replace("clock=400", "clock=4.5"), "clock"),
        (ASK_PLAY.replace("score=72,115", "score=72,x"), "score"),
    ]:
        with pytest.raises(WireError, match=key):
            parse(broken)


def test_a_view_reads_odd_but_valid_values_as_the_line_reader_does() -> None:
    v = _view(ASK_PLAY.replace("score=72,115", "score=72,,-").replace("tricks=0,0", "tricks=-"))
    assert v.score == [72, 0, 0] and v.tricks == []  # an empty item or '-' counts 0
    v = _view(ASK_PLAY.replace("round=1", "round=").replace("seat=0", "seat=-"))
    assert v.round == 1 and v.seat is None and v.hand[0] == "10s"


@pytest.mark.parametrize("line", [ASK_PLAY, ASK_THREE, ASK_PENDING])
def test_the_quick_reading_of_an_ask_agrees_with_the_whole_reading(line: str) -> None:
    view = _view(line)
    assert quick_ask(line) == (str(view.seq), view.legal)


@pytest.mark.parametrize(
    "line",
    [
        "ask seq=5 table=1 deal=1 legal=",  # nothing legal: the long way says why
        "ask seq=5 table=1 deal=1 legal=-",
        "ask table=1 deal=1 legal=pas,igrayu",  # no seq
        "ask seq=x5 table=1 legal=pas,igrayu",  # a seq that is no number
        "ask seq=5² table=1 legal=pas,igrayu",  # nor digits int() refuses
        "ask seq=٥ table=1 legal=pas,igrayu",  # nor another script's
        "ask seq=5 table=1 deal=1",  # no legal
        "ask seq=5 table=1 text=legal=pas",  # a text field: read whole
    ],
)
def test_an_ask_the_quick_reading_cannot_vouch_for_is_left_to_the_whole_reading(
    line: str,
) -> None:
    assert quick_ask(line) is None


def test_the_quick_reading_takes_a_field_at_the_end_of_the_line() -> None:
    assert quick_ask("ask table=1 legal=7h,Kh seq=12") == ("12", ["7h", "Kh"])
