"""The terminal client's table model and drawing, on wire lines alone (no terminal)."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
from rich.cells import cell_len

from clients.play.draw import (
    TABLE_COLUMNS,
    hand_text,
    legal_text,
    log_lines,
    log_text,
    rank_order,
    score_text,
    spoken_calls,
    table_text,
    wrapped,
)
from clients.play.entry import History, candidates
from clients.play.state import (
    KEEPS_OUR_TABLE,
    RUSSIAN_AT_START,
    Former,
    TableState,
    fold,
    fold_all,
    resync_requests,
    seek_line,
)
from deberc_net.protocol.lang import Lang

# a two-player deal as the server sends it (docs/protocol.md §15.2), seat 0's view
START = [
    "ok cmd=login name=b1 guest=1 token=Tok123 text=Hello, b1 (guest).",
    "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0.",
    "event seq=1 table=3 kind=seated name=b1 seat=0",
    "event seq=2 table=3 kind=seated name=b2 seat=1",
    "event seq=3 table=3 kind=start players=b1,b2 match=m3",
    "event seq=4 table=3 kind=deal deal=1 dealer=0 turned=Ad score=0,0 hanging=0",
    "state seq=4 table=3 deal=1 phase=bidding seat=0 dealer=0 to_act=1 "
    "hand=8h,Jh,Qh,7d,9d,Qd turned=Ad fresa=- trump=- player=- round=1 leader=1 trick= "
    "tricks=0,0 score=0,0 hanging=0 target=301 pending=- shown= talk= clock=10500 legal= players=2",
    "event seq=5 table=3 kind=call seat=1 call=igrayu auto=0",
    "event seq=6 table=3 kind=order player=1 trump=d first=1 fresa=10c",
    "event seq=7 table=3 kind=play seat=1 card=7c auto=0",
    "ask seq=7 table=3 deal=1 phase=play seat=0 dealer=0 to_act=0 "
    "hand=8h,Jh,Qh,7d,Qd,9d,Jd,8c,Kc turned=Ad fresa=10c trump=d player=1 round=1 leader=1 "
    "trick=7c tricks=0,0 score=0,0 hanging=0 target=301 pending=- shown= talk=1:igrayu "
    "clock=10500 legal=menyayu,Kc,8c players=2",
]


# the replies to a resumed client's quiet requests at table 3 (b1 at seat 0, b2 at 1)
OUR_TABLE = (
    "table id=3 players=2 variant=moscow options=to-301 seats=b1,b2 state=playing observers=0"
)
QUIET_REPLIES = [
    "tables count=1 total=1 page=1 pages=1",
    OUR_TABLE,
    "sheet table=3 deals=0 target=301",
    "last table=3 deal=1 leader=0 cards=Kh,7h winner=0",
]


def test_login_keeps_the_name_and_the_resume_token() -> None:
    state = fold(TableState(), START[0])
    assert (state.name, state.token) == ("b1", "Tok123")
    # a later login line without a token (a registered name) does not lose it
    state = fold(state, "ok cmd=login name=b1 guest=0 text=Hello")
    assert state.token == "Tok123"


def test_an_ask_is_the_open_request_with_its_legal_calls_and_the_trick() -> None:
    state = fold_all(START)
    assert state.players == ("b1", "b2") and state.seat == 0 and state.table == 3
    assert state.asking and state.seq == 7 and state.clock_ms == 10500
    assert state.legal == ("menyayu", "Kc", "8c")
    assert state.trick == ((1, "7c"),)  # laid by the leader, seat 1
    assert (state.turned, state.fresa, state.trump, state.player) == ("Ad", "10c", "d", 1)
    assert state.talk == ((1, "igrayu"),)
    text = table_text(state, remaining_ms=7400)
    assert "Turned: A♦   Fresa: 10♣   Trump: ♦ (b2 plays)" in text
    assert "Trick:  b2 7♣" in text
    assert "Turn:   YOU (b1), 7 s left" in text
    assert legal_text(state) == "Your call: menyayu | 8♣ | K♣"


def test_the_hand_is_drawn_in_rank_order_grouped_by_suit() -> None:
    state = fold_all(START)
    # the server sends trumps by strength (9 J …); a player reads 7 8 9 10 J Q K A
    assert rank_order(["Jd", "9d", "Ad", "7d", "10d", "Ks", "8s"]) == [
        ["8s", "Ks"],
        ["7d", "9d", "10d", "Jd", "Ad"],
    ]
    assert hand_text(state) == "Hand:   ♥ 8 J Q   ♦* 7 9 J Q   ♣ 8 K"


def test_plays_fill_the_trick_and_the_trick_event_moves_it_to_last() -> None:
    state = fold_all(
        [
            *START,
            "event seq=8 table=3 kind=play seat=0 card=Kc auto=0",
        ]
    )
    assert not state.asking and state.legal == ()  # the request was answered
    assert "Kc" not in state.hand and state.trick == ((1, "7c"), (0, "Kc"))
    state = fold(state, "event seq=9 table=3 kind=trick winner=0 cards=7c,Kc")
    assert state.trick == () and state.last_trick == ((1, "7c"), (0, "Kc"))
    assert state.to_act == 0 and state.tricks == (1, 0)
    assert "Last:   b2 7♣  b1 K♣" in table_text(state)
    assert state.log[-1] == "b1 takes 7♣ K♣"


def test_the_score_is_the_deal_end_events_and_the_match_end() -> None:
    state = fold_all(
        [
            *START,
            "event seq=35 table=3 kind=deal-end deal=1 outcome=bide points=99,3 "
            "written=102,0 totals=102,0 hanging=0",
            "event seq=36 table=3 kind=deal deal=2 dealer=1 turned=10c score=102,0 hanging=0",
            "event seq=70 table=3 kind=deal-end deal=2 outcome=made points=60,102 "
            "written=60,102 totals=162,102 hanging=0",
        ]
    )
    assert [(d.deal, d.written, d.totals) for d in state.deals] == [
        (1, (102, 0), (102, 0)),
        (2, (60, 102), (162, 102)),
    ]
    assert score_text(state).splitlines() == [
        "Score",
        "Deal      b1     b2",
        "  1b     102      0",
        "  2       60    102",
        "Tot      162    102",
    ]
    state = fold(
        state,
        "event seq=71 table=3 kind=match-end winner=0 name=b1 reason=target totals=301,226 seed=ab",
    )
    assert state.result == "Game over: b1 wins with 301 (target), totals 301 : 226"
    # (wrapped in the table pane, the totals kept whole)
    assert " ".join(table_text(state).splitlines()[-2:]) == state.result
    # the log names the match the start told (m3), for 'history' and the records
    assert state.log[-2] == "Game over: b1 wins with 301 (target), totals 301 : 226, match m3"
    assert state.log[-1] == "'rematch' within 60 s plays again with the same players."


def test_game_over_says_the_winners_own_total_by_his_name() -> None:
    """'Game over: b2 wins (target), totals 226 : 301' did not say which total was b2's
    (s43's leftover): the totals are by side, side 0 first, and the winner at side 1
    is said with his own, as the bots' match line says it ('won by h1 with 513'), in
    either language."""
    end = (
        "event seq=71 table=3 kind=match-end winner=1 name=b2 reason=target "
        "totals=226,301 seed=ab match=m3"
    )
    state = fold_all([*START, end])
    assert state.result == "Game over: b2 wins with 301 (target), totals 226 : 301"
    russian = fold_all([*START, end], TableState(lang=Lang.RU))
    assert russian.result is not None
    assert russian.result.startswith("Партия окончена: b2 выигрывает, набрав 301 ("), russian
    drawn = fold_all([*START, end.replace("winner=1 name=b2", "winner=- name=-")])
    assert drawn.result is not None and "with" not in drawn.result, drawn.result


def test_game_over_names_the_match_the_end_tells_after_a_resume() -> None:
    """A client back after a drop was never told the start's match id: the end's
    `match=` names it (docs/protocol.md §9.7)."""
    resumed = [line for line in START if "kind=start" not in line]
    state = fold_all(
        [
            *resumed,
            "event seq=71 table=3 kind=match-end winner=0 name=b1 reason=target "
            "totals=301,226 seed=ab match=m9",
        ]
    )
    assert state.log[-2] == "Game over: b1 wins with 301 (target), totals 301 : 226, match m9"


def test_away_and_back_do_not_spoil_the_open_request() -> None:
    state = fold_all([*START, "event seq=8 table=3 kind=away name=b2 seat=1"])
    assert state.asking and state.legal == ("menyayu", "Kc", "8c")
    assert state.log[-1] == "b2 is away"


def test_a_hint_for_a_mistyped_call_is_said_in_the_log() -> None:
    state = fold_all(
        [
            *START,
            "error code=unknown-command hint=ot-K text=not a table call: 'ot korlya'. "
            "Type 'help' or 'calls'.",
        ]
    )
    assert state.log[-1] == (
        "! not a table call: 'ot korlya'. Type 'help' or 'calls'. Did you mean ot korolya?"
    )


def test_talk_errors_and_lobby_lines_go_to_the_log() -> None:
    state = fold_all(
        [
            "say from=anna table=- text=hello lobby",
            "error code=must-follow-suit text=you hold c: follow suit",
            "who count=2 names=anna,fedya total=2 page=1 pages=1",
            "table id=2 players=2 variant=moscow options=to-301 seats=anna,- state=waiting "
            "observers=0",
            "event seq=x table=3 kind=seated name=b1 seat=zero",
        ]
    )
    assert state.log[:4] == (
        "anna: hello lobby",
        "! you hold ♣: follow suit",
        "here: anna, fedya",
        "table 2: moscow to-301 [anna (free)] waiting",
    )
    # a line against the grammar is told, and changes nothing else
    assert state.log[4].startswith("(unreadable line:") and state.players == ()


def test_a_watcher_coming_and_going_is_told_in_the_log() -> None:
    """The players are told who looks on (docs/protocol.md §5.7): the client dropped the
    server's observer events, so its player never learned that anyone watched."""
    lines = [
        *START,
        "event seq=8 table=3 kind=observer name=eve watching=1 observers=1",
        "event seq=9 table=3 kind=observer name=eve watching=0 observers=0",
        "event seq=10 table=3 kind=observer name=kib watching=1 observers=2",
    ]
    state = fold_all(lines)
    assert state.log[-3:] == (
        "eve watches the table (1 watching)",
        "eve stops watching (nobody watching)",
        "kib watches the table (2 watching)",
    )
    assert state.asking and state.legal == ("menyayu", "Kc", "8c")  # the ask stays open
    russian = fold_all(lines, TableState(lang=Lang.RU))
    assert russian.log[-3:] == (
        "eve смотрит за столом (зрителей: 1)",
        "eve больше не смотрит (зрителей нет)",
        "kib смотрит за столом (зрителей: 2)",
    )


def test_watchers_talk_is_marked_apart_from_the_tables() -> None:
    """A watcher's words reach the table's other watchers only (docs/protocol.md §5.8):
    marked as the table's, a kibitzer took them for words the players heard too."""
    lines = [
        "say from=boris table=34 text=my deal",
        "say from=kib5 table=34 watchers=1 text=nice pas, boris",
    ]
    assert fold_all(lines).log[:2] == ("boris (table): my deal", "kib5 (watchers): nice pas, boris")
    russian = fold_all(lines, TableState(lang=Lang.RU))
    assert russian.log[:2] == ("boris (за столом): my deal", "kib5 (зрители): nice pas, boris")


def test_an_admins_announcement_and_bans_go_to_the_log_marked_as_his() -> None:
    # the tags are known to the wire module now: not shown raw, and not dropped either
    state = fold_all(
        [
            "announce from=boss text=the server restarts at 22:00",
            "bans count=2",
            "ban name=troll by=boss since=2026-12-01_20:00:00 text=spam",
            "ban name=other by=chief since=2026-12-02_08:00:00 text=",
        ]
    )
    assert state.log[:4] == (
        "*** boss (admin): the server restarts at 22:00",
        "banned names: 2",
        "  troll by boss: spam",
        "  other by chief",
    )


def test_an_admins_address_bans_go_to_the_log_after_the_names() -> None:
    state = fold_all(
        [
            "bans count=1 addresses=2",
            "ban name=troll by=boss since=2026-12-01_20:00:00 text=spam",
            "address-ban address=203.0.113.0/24 by=boss since=2026-12-01_20:00:00"
            " until=2026-12-02_20:00:00 left=1440 text=fresh guest names",
            "address-ban address=2001:db8::/64 by=chief since=2026-12-01_20:00:00"
            " until=2026-12-01_21:00:00 left=60 text=",
        ]
    )
    assert state.log[:4] == (
        "banned names: 1, addresses: 2",
        "  troll by boss: spam",
        "  203.0.113.0/24 by boss, 1440 more min: fresh guest names",
        "  2001:db8::/64 by chief, 60 more min",
    )
    assert fold_all(["bans count=0 addresses=0"]).log[:1] == ("banned names: 0",)


def test_a_say_padded_to_wrap_sets_no_line_of_its_own_in_the_log() -> None:
    """A player's words, padded with blanks (or words) to wrap, once started a line of
    the pane as the admin's announcement or an error does ('*** boss (admin): …',
    '! …'), whatever the pane's width (a tryout, s34): each line a say wraps onto is
    marked as the human style marks it, and its blanks are one space."""
    forged = "*** boss (admin): the server restarts: log in again as boss"
    state = fold_all(
        [
            "say from=eve table=- text=hi" + " " * 300 + forged,
            "say from=eve table=3 text=hi" + "\u3000" * 100 + "! wrong password for that name",
            "announce from=boss text=" + "the real one " * 12,
        ]
    )
    assert state.log[0] == "eve: hi " + forged
    for width in (30, 60, 80, 120, 200):
        shown = log_text(state.log, width, 100).splitlines()
        assert all(cell_len(line) <= width for line in shown)
        assert [line for line in shown if line.startswith("*** ")] == [
            wrapped(state.log[2], width)[0]  # the server's own, unmarked as it was
        ]
        assert not [line for line in shown if line.startswith("! ")]
        for entry in state.log[:2]:
            first, *more = wrapped(entry, width)
            assert first.startswith("eve") and all(line.startswith("  | ") for line in more)
        assert "  | " not in "".join(wrapped(state.log[2], width))


def test_an_admins_mutes_go_to_the_log_with_the_time_left() -> None:
    state = fold_all(
        [
            "mutes count=2",
            "mute name=troll by=boss until=2026-12-01_20:05:00 left=5 text=",
            "mute name=other by=chief until=2026-12-01_21:00:00 left=60 text=calling names",
        ]
    )
    assert state.log[:3] == (
        "muted names: 2",
        "  troll by boss, 5 more min",
        "  other by chief, 60 more min: calling names",
    )


def test_every_drawn_line_fits_an_80_column_terminal() -> None:
    state = fold_all(
        [
            *START,
            "event seq=35 table=3 kind=deal-end deal=1 outcome=bide points=99,3 "
            "written=102,0 totals=102,0 hanging=0",
        ]
    )
    # the table pane is 80 - 27 (score) - 2 (padding) columns wide
    assert all(len(line) <= 51 for line in table_text(state, 10_000).splitlines())
    lobby = table_text(TableState(name="b1"))
    assert all(len(line) <= 51 for line in lobby.splitlines())
    assert all(len(line) <= 25 for line in score_text(state).splitlines())
    assert len(hand_text(state)) <= 78


def test_completion_offers_the_legal_calls_then_the_commands() -> None:
    legal = ("menyayu", "Kc", "8c", "Ks")
    assert candidates("k", legal) == ["Kc", "Ks"]
    assert candidates("s", legal) == ["say", "seek", "sheet", "sit", "state"]
    assert candidates("m", legal) == ["menyayu"]
    assert candidates("say h", legal) == []  # past the first word: no command names
    # every command a person types, not 17 of them: 'his' and 'fing' completed nothing
    # (a tryout, s48); an admin's, and those the client itself sets, are not offered
    assert candidates("his", ()) == ["history"]
    assert candidates("fing", ()) == ["finger"]
    assert candidates("lea", ()) == ["leave", "leave!"]
    assert candidates("re", ()) == ["rematch"]  # not an admin's reserve, release
    assert candidates("b", ()) == ["bot"]
    assert candidates("st", ()) == ["state"]  # not 'style': the client keeps its own
    assert candidates("ann", ()) == [] and candidates("dr", ()) == []
    # typed in Cyrillic: the calls as a Russian player says them (a tryout, s29)
    russian = ("pishet", "As", "Ah", "10s", "ot-K")
    assert candidates("Т", russian) == ["Т♠", "Т♥"]
    assert candidates("пи", russian) == ["пишет"]
    assert candidates("от", russian) == ["от короля"]
    assert candidates("фыв", russian) == []


def test_history_walks_back_and_forward() -> None:
    history = History()
    for line in ("seek 2", "pas", "pas", "Kc"):
        history.add(line)
    assert history.lines == ["seek 2", "pas", "Kc"]  # a repeat is kept once
    assert [history.back(), history.back(), history.back(), history.back()] == [
        "Kc",
        "pas",
        "seek 2",
        "seek 2",
    ]
    assert [history.forward(), history.forward(), history.forward()] == ["pas", "Kc", ""]
    # a line with a password is not kept to be walked back to (a review, s28)
    for line in ("login anna s3cret", "password s3cret n3w", "login anna", "who"):
        history.add(line)
    assert history.lines[-2:] == ["login anna", "who"] and history.back() == "who"
    assert not any("s3cret" in x for x in history.lines)


def test_invitations_rematches_and_the_lists_go_to_the_log() -> None:
    invite = (
        "invite from=ann table=3 players=2 variant=moscow options= private=1 "
        "text=ann invites you to private table 3 (moscow for 2 players): 'sit 3' to play."
    )
    rematch = (
        "rematch table=3 asked=ann waiting=b1 off=- by=- "
        "text=Rematch of table 3 asked by ann, waiting for b1: 'rematch' to agree."
    )
    rated = "rated rank=1 name=ann variant=moscow players=2 rating=3.438 mu=27.635 sigma=8.066"
    state = fold_all([invite, rematch, rated])
    assert state.log[-3:] == (
        "ann invites you to private table 3 (moscow for 2 players): 'sit 3' to play.",
        "Rematch of table 3 asked by ann, waiting for b1: 'rematch' to agree.",
        rated,
    )


# a Tertz deal (docs/protocol.md, the view's own fields): no bidding, a talon
TERTZ = [
    "ok cmd=sit table=4 seat=1 text=You sit at table 4, seat 1.",
    "event seq=1 table=4 kind=start players=b1,b2 match=m4",
    "event seq=2 table=4 kind=deal deal=1 dealer=0 turned=Kh score=0,0 hanging=0",
    "ask seq=2 table=4 deal=1 phase=play seat=1 dealer=0 to_act=1 "
    "hand=7c,8c,9c,Ad,Kd,10s,8s,7s,9d turned=Kh fresa=- trump=h player=- round=1 leader=1 "
    "trick= tricks=0,0 score=0,0 hanging=0 target=500 pending=- shown= talk= clock=10500 "
    "legal=terts,7c,8c,9c,Ad,Kd,10s,8s,7s,9d players=2 talon=14 their_tricks=-",
]


def test_a_tertz_table_shows_the_talon_the_turned_trump_and_no_bidding() -> None:
    state = fold_all(TERTZ)
    assert (state.phase, state.trump, state.talon, state.their_tricks) == ("play", "h", 14, None)
    text = table_text(state)
    assert "Turned: K♥   Talon: 14   Trump: ♥\n" in text  # nobody plays it: no "(… plays)"
    assert "Theirs:" not in text
    # the opponent's tricks, while open, get a line of their own
    opened = fold(
        state, TERTZ[-1].replace("talon=14 their_tricks=-", "talon=12 their_tricks=Ad,10d")
    )
    assert opened.their_tricks == ("Ad", "10d") and "Theirs: A♦ 10♦" in table_text(opened)
    # the next deal: a talon game has no bidding, the turned card is trump at once
    nxt = fold(
        opened, "event seq=9 table=4 kind=deal deal=2 dealer=1 turned=9s score=70,80 hanging=0"
    )
    assert (nxt.phase, nxt.trump, nxt.tricks, nxt.their_tricks) == ("play", "s", (), None)


def test_the_cards_shown_stay_in_view_and_a_second_show_says_all_face_up() -> None:
    """What the opponent showed was only in the log, which scrolls (and a reconnect
    empties): an evening's tryout had it gone in a few tricks. The table pane keeps a
    line of the cards face up, in the hand's order; a show that adds to an earlier one
    says what lies face up now (docs/play.md), as the server's human style does."""
    state = fold_all(TERTZ)
    assert "Shown:" not in table_text(state)
    state = fold(state, "event seq=3 table=4 kind=shown seat=0 cards=Qs,Ks,As")
    assert state.log[-1] == "b1 shows Q♠ K♠ A♠"
    assert "\nShown:  b1 Q♠ K♠ A♠\n" in table_text(state)
    # a fifty grown under the terts by a draw: only the new card goes face up
    state = fold(state, "event seq=9 table=4 kind=shown seat=0 cards=Js")
    assert state.log[-1] == "b1 shows J♠ (face up now: J♠ Q♠ K♠ A♠)"
    assert "\nShown:  b1 J♠ Q♠ K♠ A♠\n" in table_text(state)
    ru = fold(attrs.evolve(state, lang=Lang.RU), "event seq=10 table=4 kind=shown seat=0 cards=10s")
    assert ru.log[-1] == "b1 показывает 10♠ (теперь открыты: 10♠ В♠ Д♠ К♠ Т♠)"
    assert "\nОткрыты: b1 10♠ В♠ Д♠ К♠ Т♠\n" in table_text(ru)
    # a view (after a reconnect) says them too; the next deal has none
    resumed = TERTZ[-1].replace("shown= ", "shown=0:Js,0:Qs,0:Ks,0:As ")
    again = fold_all([*TERTZ[:2], resumed])
    assert "\nShown:  b1 J♠ Q♠ K♠ A♠\n" in table_text(again)
    nxt = fold(
        state, "event seq=11 table=4 kind=deal deal=2 dealer=1 turned=9s score=70,80 hanging=0"
    )
    assert nxt.shown == () and "Shown:" not in table_text(nxt)


def test_konets_is_offered_last_after_the_cards() -> None:
    """At a manual-claim table ``legal=`` lists konets after every trick the seat took;
    the server's prompt offers it only when it would win (docs/rules.md §10), which the
    client cannot tell (an ask says no points so far in the deal): it is listed last, so
    neither the pane's first word nor what a typed 'k' completes to before a king."""
    line = START[-1].replace("legal=menyayu,Kc,8c", "legal=konets,Kc,8c")
    state = fold_all([*START[:-1], line])
    assert state.legal == ("Kc", "8c", "konets")
    assert legal_text(state) == "Your call: 8♣ | K♣ | konets"
    assert candidates("k", state.legal)[0] == "Kc"
    russian = attrs.evolve(state, lang=Lang.RU)
    assert legal_text(russian).endswith("К♣ | конец")


def test_a_match_a_true_konets_won_says_so_and_the_servers_claim_as_before() -> None:
    """Both come as reason=claim; a seat's konets said just before is told as the table's
    own end line tells it (docs/rules.md §10), not as 'target mid-deal' (a club evening)."""
    konets = "event seq=8 table=3 kind=call seat=0 call=konets auto=0"
    ended = [
        "event seq=9 table=3 kind=deal-end deal=1 outcome=claim points=44,20 written=44,20 "
        "totals=514,20 hanging=0",
        "event seq=10 table=3 kind=match-end winner=0 name=b1 reason=claim totals=514,20 "
        "seed=x match=m3 deals=1",
    ]
    claimed = fold_all([*START, konets, *ended])
    assert claimed.result == "Game over: b1 wins with 514 (claimed: konets), totals 514 : 20"
    russian = fold_all([*START, konets, *ended], TableState(lang=Lang.RU))
    assert russian.result == (
        "Партия окончена: b1 выигрывает, набрав 514 (досрочно: объявлен «конец»), итого 514 : 20"
    )
    servers = fold_all([*START, *ended])
    assert servers.result == "Game over: b1 wins with 514 (target mid-deal), totals 514 : 20"


def test_the_break_is_one_option_with_a_default_for_f8() -> None:
    breaks = ",".join(f"lomayu-{n}" for n in range(1, 13))
    line = TERTZ[-1].replace("legal=terts,7c,8c,9c,Ad,Kd,10s,8s,7s,9d", f"legal={breaks}")
    state = fold_all([*TERTZ[:-1], line])
    assert legal_text(state) == "Your call: lomayu 1..12  (F8: lomayu 6)"
    assert len(legal_text(state)) < 78
    # a Deberts table is drawn as before: no talon, the fresa, who plays
    deberts = fold_all(START)
    assert deberts.talon is None and "Fresa: 10♣" in table_text(deberts)


def test_a_three_player_score_fits_its_pane_and_tells_long_names_apart() -> None:
    state = fold_all(
        [
            "ok cmd=login name=tu guest=1 token=T text=Hello, tu (guest).",
            "ok cmd=sit table=11 seat=0 text=You sit at table 11, seat 0.",
            "event seq=1 table=11 kind=start players=tu,house-random-11,house-random-12 match=m11",
            "event seq=2 table=11 kind=deal deal=1 dealer=2 turned=10h score=0,0,0 hanging=0",
            "event seq=40 table=11 kind=deal-end deal=1 outcome=made points=120,40,2 "
            "written=120,40,0 totals=120,40,0 hanging=0",
        ]
    )
    lines = score_text(state).splitlines()
    assert lines == [
        "Score",
        "Deal     tu ho~11 ho~12",
        "  1     120    40     0",
        "Tot     120    40     0",
    ]
    assert all(len(line) <= 25 for line in lines)  # the pane: no line wraps


def test_an_observer_of_four_players_sees_the_turned_card_go_once_the_game_is_ordered() -> None:
    """With four players the turned card joins the dealer's hand at the order (the
    next state says turned=-); an observer is told only the event, and goes by it."""
    lines = [
        "ok cmd=observe table=5 text=You observe table 5.",
        "state seq=6 table=5 deal=1 phase=bidding seat=- dealer=2 to_act=3 hand= "
        "turned=8d fresa=- trump=- player=- round=1 leader=3 trick= tricks=0,0 score=0,0 "
        "hanging=0 target=501 pending=- shown= talk= clock=- legal= players=4",
        "event seq=7 table=5 kind=call seat=3 call=igrayu auto=0",
    ]
    state = fold_all(lines)
    assert state.seats == 4 and "Turned: 8♦" in table_text(state)
    state = fold(state, "event seq=8 table=5 kind=order player=3 trump=d first=1 fresa=-")
    assert state.turned is None and "Turned: -" in table_text(state)
    assert "Trump: ♦" in table_text(state)


def test_four_players_show_whose_turn_it_is_after_each_card() -> None:
    """At three and four players the screen's Turn: line names the next player after
    every card and the trick's winner after a trick, from the events alone (an observer
    and a seat not to act are sent no state between): the human style says it the same
    way since s48 ('Waiting for …' after each card)."""
    lines = [
        "ok cmd=observe table=5 text=You observe table 5.",
        "state seq=6 table=5 deal=1 phase=bidding seat=- dealer=2 to_act=3 hand= "
        "turned=8d fresa=- trump=- player=- round=1 leader=3 trick= tricks=0,0 score=0,0 "
        "hanging=0 target=501 pending=- shown= talk= clock=- legal= players=4",
        "event seq=7 table=5 kind=call seat=3 call=igrayu auto=0",
        "event seq=8 table=5 kind=order player=3 trump=d first=1 fresa=-",
    ]
    state = fold_all(lines)
    for seq, (seat, card) in enumerate([(3, "Ad"), (0, "7d"), (1, "8s"), (2, "9d")], 9):
        state = fold(state, f"event seq={seq} table=5 kind=play seat={seat} card={card} auto=0")
        if seq < 12:
            assert f"Turn:   {state.who((seat + 1) % 4)}" in table_text(state)
    state = fold(state, "event seq=13 table=5 kind=trick winner=3 cards=Ad,7d,8s,9d")
    assert state.to_act == 3 and f"Turn:   {state.who(3)}" in table_text(state)


def test_the_seven_swap_shows_the_trump_seven_at_once() -> None:
    """After 'menyayu' the trump 7 lies face up where the turned card was: shown from
    the call's event, not only from the next state line (an observer may get none)."""
    state = fold_all(START)
    assert state.turned == "Ad"
    state = fold(state, "event seq=8 table=3 kind=call seat=0 call=menyayu auto=0")
    assert state.turned == "7d" and "Turned: 7♦" in table_text(state)


def test_game_over_with_long_names_keeps_its_totals_in_the_table_pane() -> None:
    """At 80×24 the table pane is 51 columns by 9 lines: a talk line of long names
    wrapped, and the match's result, last, lost its totals (docs/play.md, Table)."""
    long = [line.replace("b2", "house-heuristic-3").replace("b1", "anna") for line in START]
    state = fold_all(
        [
            *long,
            "event seq=8 table=3 kind=call seat=0 call=pas auto=1",
            "event seq=9 table=3 kind=call seat=1 call=pas auto=1",
            "event seq=10 table=3 kind=match-end winner=1 name=house-heuristic-3 "
            "reason=timeouts totals=0,0 seed=ab forfeit=0",
        ]
    )
    lines = table_text(state).splitlines()
    assert sum(-(-len(line) // 51) for line in lines) <= 9, lines  # as the pane wraps them
    assert all(len(line) <= 51 for line in lines[-2:])
    assert " ".join(lines[-2:]) == state.result
    # a forfeit names who lost it
    assert state.result == ("Game over: house-heuristic-3 wins (timeouts: anna), totals 0 : 0")


def test_the_lookups_are_shown_in_words_as_the_human_style_writes_them() -> None:
    """'sheet', 'history', 'games', 'top', 'finger' came as raw machine lines or not at
    all: each is gathered to its last line and written as the human style writes it."""
    state = fold_all(
        [
            *START,
            "sheet table=3 deals=1 target=301",
            "sheet-deal table=3 deal=1 outcome=bide written=0,162 totals=0,162 hanging=0 bides=1,0",
            "history table=3 match=m3 deals=1",
            "history-deal table=3 deal=1 dealer=0 trump=h player=1 outcome=made "
            "written=62,100 tricks=1",
            "history-trick table=3 deal=1 trick=1 leader=1 cards=Kh,7h winner=1",
            "games name=b1 count=1",
            "game match=m5 table=15 players=b1,b2 variant=moscow winner=b1 reason=short "
            "totals=1,-1 finished=2026-12-02_05:47:47",
            "top variant=moscow players=2 count=1 total=1 page=1 pages=1",
            "rated rank=1 name=b1 variant=moscow players=2 rating=3.438 mu=27.635 "
            "sigma=8.066 games=1 wins=1 losses=0 draws=0",
            "finger name=b1 registered=1 online=1 ratings=0 last=m14,m9",
        ]
    )
    log = "\n".join(state.log)
    assert "Score sheet, table 3 (to 301)" in log
    assert "   1 bide             0   0    162 162  bides b1 1, b2 0" in log
    assert "History of table 3 (m3): b1 v b2" in log
    assert "Deal 1, b1 deals, trump ♥ (b2): made, b1 62, b2 100" in log
    assert "  1 b2 K♥ b1 7♥ > b2" in log
    assert "2026-12-02 05:47 UTC  m5  table 15  b1 v b2  1:-1  winner b1 (short game)" in log
    assert "Standings: moscow for 2 players (1 rated)." in log
    assert "b1: registered, online. Last games: m14 m9." in log
    assert "=" not in log  # no machine line shown as it came
    assert state.deals and state.deals[0].written == (0, 162)  # the score pane's row


def test_the_random_house_bots_finger_says_it_is_never_rated() -> None:
    """The server's 'never_rated=1' is read: the client wrote of the random bot, as the
    server once did, that it was rated under its name."""
    state = fold_all(
        [
            *START,
            "finger name=house-random registered=0 online=0 ratings=0 last= house_bot=1 "
            "never_rated=1",
        ]
    )
    log = "\n".join(state.log)
    assert "house-random: a house bot, never rated (its copies play as house-random-N)." in log
    assert "rated under this name" not in log and "Not rated yet" not in log


def test_back_after_a_drop_asks_the_table_again_quietly() -> None:
    """A client resuming with its token knows no names (they came with 'seated' and
    'start', not replayed): its 'back' asks 'tables', 'sheet' and 'last', whose replies
    mend the screen without filling the log."""
    state = fold_all(
        [
            "ok cmd=login name=b1 guest=1 token=Tok123 text=Hello, b1 (guest).",
            "event seq=9 table=3 kind=back name=b1 seat=0",
            START[-1].replace("seq=7", "seq=9"),
        ]
    )
    assert state.players == ("b1", "") and state.resync == ("tables", "sheet", "last")
    state, asked = resync_requests(state)
    assert asked == ("tables", "sheet", "last") and not state.resync
    logged = len(state.log)
    state = fold_all(
        [
            *QUIET_REPLIES,
            "last table=3 deal=1 leader=1 cards=7c,8c winner=1",  # one asked by hand
        ],
        state,
    )
    assert state.players == ("b1", "b2") and state.quiet == ()
    assert state.last_trick == ((1, "7c"), (0, "8c"))
    assert state.log[logged:] == ("last trick (deal 1): b2 7♣  b1 8♣; b2 took it",)
    assert "b2" in table_text(state).splitlines()[0]


def test_last_marks_a_card_the_clock_played() -> None:
    """A 'last' reply's ``auto=`` (docs/protocol.md §5.12): the seat's card is said
    '(by the clock)', as the server's human style says it."""
    state = fold_all([*START, "last table=3 deal=1 leader=1 cards=7c,8c winner=1 auto=0"])
    assert state.log[-1] == "last trick (deal 1): b2 7♣  b1 8♣ (by the clock); b2 took it"


def test_the_log_pane_shows_the_newest_lines_that_fit_and_a_recent_error() -> None:
    long = "\n".join(f"rule {i}: " + "word " * 20 for i in range(30))
    shown = log_text(("! not a card: '7x'", long, "here: anna"), 40, 6).splitlines()
    assert len(shown) == 6 and all(len(line) <= 40 for line in shown)
    assert shown[-1] == "here: anna"
    assert shown[0] == "! not a card: '7x'"  # pushed up by the long reply, still in view
    # long gone (five entries on): the newest lines only
    later = log_text(("! bad", long, "a", "b", "c", "d"), 40, 3).splitlines()
    assert later == ["b", "c", "d"]


def test_sitting_at_a_waiting_table_learns_who_is_there_and_the_target() -> None:
    state = fold_all([START[0], "ok cmd=sit table=2 seat=1 text=You sit at table 2, seat 1."])
    state, asked = resync_requests(state)
    assert asked == ("tables",)
    logged = len(state.log)
    state = fold_all(
        [
            "tables count=2 total=2 page=1 pages=1",
            "table id=1 players=2 variant=moscow options= seats=x,- state=waiting observers=0",
            "table id=2 players=4 variant=moscow options=to-301 seats=anna,b1,-,- "
            "state=waiting observers=0",
        ],
        state,
    )
    assert state.target == 301 and state.players[:2] == ("anna", "b1")
    assert len(state.log) == logged and state.quiet == ()
    assert "Target: 301" in table_text(state)


def test_a_waiting_table_says_how_many_players_it_awaits_and_how_to_have_a_bot() -> None:
    """A newcomer alone at his new table read 'Turn: -' (Russian 'Ход: -') and nothing
    about whom the table waits for: it says how many more, and how a house bot comes."""
    state = fold_all(
        [
            START[0],
            "ok cmd=sit table=5 seat=0 seats=b1,-,-,- text=You sit at table 5, seat 0.",
            "tables count=1 total=1 page=1 pages=1",  # (asked quietly: resync_requests)
            "table id=5 players=4 variant=moscow options= seats=b1,-,-,- state=waiting observers=0",
        ]
    )
    text = table_text(state)
    assert "Turn:" not in text  # (it read 'Turn:   -')
    assert text.endswith("\nWaiting for 3 more; 'bot heuristic' seats a bot.")  # one line
    russian = table_text(attrs.evolve(state, lang=Lang.RU))
    assert russian.endswith("\nЖдём игроков: ещё 3; bot heuristic — бот сервера.")
    # a bot sits: one fewer; a watcher is not told to call one (it is the players' table)
    state = fold(state, "event seq=1 table=5 kind=seated name=house-heuristic seat=1")
    assert table_text(state).endswith("\nWaiting for 2 more; 'bot heuristic' seats a bot.")
    watcher = attrs.evolve(state, seat=None)
    assert table_text(watcher).endswith("\nWaiting for players: 2 more.")
    # all seated, the match running: whose turn, as before
    running = table_text(fold_all(START))
    assert "Turn:   YOU (b1)" in running and "Waiting" not in running


def test_a_house_bot_coming_is_said_once_in_either_language() -> None:
    """The reply to 'bot' and the bot's seat said one arrival twice (tests/play/test_app.py
    with a real server): its seat takes the reply's line, in Russian too."""
    lines = [
        START[0],
        "ok cmd=sit table=5 seat=0 seats=b1,- text=You sit at table 5, seat 0.",
        "ok cmd=bot table=5 name=house-random-3 kind=random level=- rated=0 "
        "text=house-random-3 comes to table 5.",
        "event seq=2 table=5 kind=seated name=house-random-3 seat=1",
    ]
    assert fold_all(lines).log[-2:] == (
        "You sit at table 5, seat 0.",
        "house-random-3 sits at seat 1",
    )
    russian = fold_all(lines, TableState(lang=Lang.RU)).log
    assert russian[-2:] == ("Вы за столом 5, место 0.", "house-random-3 садится на место 1")
    # another's seat after the reply: both said
    other = [*lines[:3], "event seq=2 table=5 kind=seated name=vera seat=1"]
    assert fold_all(other).log[-2:] == ("house-random-3 comes to table 5.", "vera sits at seat 1")


def test_the_tables_list_marks_a_player_away_as_the_server_does() -> None:
    """'tables' dropped the line's away=: a table whose player had dropped, a house bot
    playing on against his clock, read as any match being played (a tryout at 3 a.m.)."""
    listed = [
        "tables count=1 total=1 page=1 pages=1",
        "table id=10 players=2 variant=moscow options=to-301 seats=lena,house-search2-14 "
        "state=playing observers=0 away=lena",
    ]
    state = fold_all([START[0], *listed])
    assert "table 10: moscow to-301 [lena (away) house-search2-14] playing" in state.log
    state = fold_all(listed, attrs.evolve(fold_all([START[0]]), lang=Lang.RU))
    assert any("[lena (нет связи) house-search2-14]" in line for line in state.log)


def test_the_russian_guide_promises_of_tables_only_what_the_client_shows() -> None:
    """docs/play.ru.md said 'tables' showed a running match's deal and score; the
    server's machine line carries neither (docs/protocol.md §5.2), so the client shows
    only that it plays, and the guide says so."""
    listed = [
        "tables count=1 total=1 page=1 pages=1",
        "table id=10 players=2 variant=moscow options=to-301 seats=lena,anna "
        "state=playing observers=0",
    ]
    state = fold_all(listed, attrs.evolve(fold_all([START[0]]), lang=Lang.RU))
    shown = [line for line in state.log if "[lena anna]" in line]
    assert shown and "раздача" not in shown[0], state.log
    guide = (Path(__file__).resolve().parents[2] / "docs" / "play.ru.md").read_text("utf-8")
    row = next(x for x in guide.splitlines() if x.startswith("| `tables "))
    assert "номером раздачи" not in row and "observe СТОЛ" in row, row


def test_the_calls_offered_are_spoken_and_the_cards_in_the_hands_order() -> None:
    assert spoken_calls(("As", "Kd", "Js", "Qh", "9d", "menyayu")) == [
        "menyayu",
        "J♠",
        "A♠",
        "Q♥",
        "9♦",
        "K♦",
    ]
    assert spoken_calls(("pas", "igrayu-s", "igrayu-d", "ot-K")) == [
        "pas",
        "igrayu ♠",
        "igrayu ♦",
        "ot korolya",
    ]


def test_four_players_are_shown_as_pairs_and_a_pair_wins_together() -> None:
    state = fold_all(
        [
            START[0],
            "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0.",
            "event seq=3 table=3 kind=start players=b1,b2,b3,b4 match=m3",
            "event seq=4 table=3 kind=match-end winner=0 name=b1,b3 reason=claim totals=321,293 "
            "seed=ab",
        ]
    )
    assert table_text(state).splitlines()[0] == "Table 3, deal -: b1*+b3 v b2+b4"
    # (the server's claim as the target was reached: nobody claimed, so not "(claim)")
    assert state.result == ("Game over: b1 and b3 win with 321 (target mid-deal), totals 321 : 293")


def test_a_failed_tables_end_is_no_draw() -> None:
    """A table that failed (docs/protocol.md §9.7, ``reason=internal``): nobody wins,
    loses or draws, as the server's human style says. Failed before: 'a draw'."""
    state = fold_all(
        [
            START[0],
            "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0.",
            "event seq=3 table=3 kind=start players=b1,b2 match=m3",
            "event seq=4 table=3 kind=match-end winner=- name=- reason=internal totals=0,0 seed=-",
        ]
    )
    assert state.result == "Game over: no result, the table failed (internal), totals 0 : 0"


def test_f4_asks_again_for_names_still_unknown() -> None:
    """A 'state' (F4's) at a table whose names are still unknown asks for them again;
    a request in play does not ask twice."""
    state = fold_all([START[0], START[-1]])
    assert state.resync == ("tables", "sheet", "last")
    state, _ = resync_requests(state)
    state = fold_all(  # the table not listed (a ladder's board, docs/protocol.md §5.5a)
        [
            "tables count=0 total=0 page=1 pages=1",
            "sheet table=3 deals=0 target=301",
            "error code=wrong-phase text=no trick has been taken yet",
        ],
        state,
    )
    assert state.quiet == () and not any(line.startswith("! ") for line in state.log)
    state = fold(state, START[-1].replace("seq=7", "seq=8"))
    assert state.resync == ()
    state = fold(state, START[-1].replace("ask seq=7", "state seq=8"))
    assert state.resync == ("tables", "sheet", "last")
    state, _ = resync_requests(state)
    state = fold(state, START[-1].replace("ask seq=7", "state seq=8"))
    assert state.resync == ()  # the answer to the last asking is on its way


def test_quiet_requests_of_a_dropped_connection_swallow_no_later_reply() -> None:
    """Dropped again before the quiet replies came (Ctrl+R twice, a flapping link): the
    new connection's login forgets them, so the person's own 'sheet' afterwards is
    shown and F4 may ask for names again (they waited for replies never to come)."""
    back = [
        "ok cmd=login name=b1 guest=1 token=Tok123 text=Hello, b1 (guest).",
        "event seq=9 table=3 kind=back name=b1 seat=0",
    ]
    state, _ = resync_requests(fold_all(back))
    state = fold(state, "sheet table=3 deals=2 target=301")  # the drop: one line of three
    state = fold(state, "info text=connection lost: trying again in 0.5 s (attempt 2)")
    state, asked = resync_requests(fold_all(back, state))
    assert asked == ("tables", "sheet", "last")
    state = fold_all(
        [
            *QUIET_REPLIES,
        ],
        state,
    )
    assert state.quiet == () and state.reply == ()
    logged = len(state.log)
    state = fold(state, "sheet table=3 deals=0 target=301")  # typed by the person
    assert state.log[logged:] and state.log[logged].startswith("Score sheet, table 3")


def test_a_table_listed_on_a_later_page_is_asked_for_there() -> None:
    """A busy server (more than 100 tables) lists ours on page 2: the quiet 'tables'
    goes on to the next page for the names, still unlogged."""
    state, _ = resync_requests(fold_all([START[0], START[-1]]))
    logged = len(state.log)
    others = [
        f"table id={n} players=2 variant=moscow options= seats=x{n},- state=waiting observers=0"
        for n in (1, 2)
    ]
    state = fold_all(["tables count=2 total=3 page=1 pages=2", *others], state)
    state, asked = resync_requests(state)
    assert asked == ("tables 2",) and state.quiet == ("sheet", "last", "tables")
    state = fold_all(
        [
            "tables count=1 total=3 page=2 pages=2",
            OUR_TABLE,
            "sheet table=3 deals=0 target=301",
            "error code=wrong-phase text=no trick has been taken yet",
        ],
        state,
    )
    assert state.players == ("b1", "b2") and state.quiet == () and state.resync == ()
    assert len(state.log) == logged
    # the person's own 'tables' is shown, and a page without ours asks nothing more
    state = fold_all(["tables count=2 total=3 page=1 pages=2", *others], state)
    assert state.resync == () and state.log[logged] == "3 tables"


def test_a_reply_short_of_its_count_is_taken_in_at_the_next_line() -> None:
    """A reply whose head counts more lines than come (a line lost) is shown when another
    line comes, which is itself folded; a quiet one is no longer awaited."""
    state = fold_all(
        [
            "games name=b1 count=2",
            "game match=m5 table=15 players=b1,b2 variant=moscow winner=b1 reason=short "
            "totals=1,-1 finished=2026-12-02_05:47:47",
            "event seq=3 table=3 kind=away name=b2 seat=1",
            "say from=b2 text=hello",
        ]
    )
    assert "2026-12-02 05:47 UTC  m5  table 15  b1 v b2  1:-1  winner b1 (short game)" in state.log
    assert state.log[-1] == "b2: hello" and state.reply == ()
    state, _ = resync_requests(fold_all([START[0], START[-1]]))
    state = fold_all(
        [
            "tables count=2 total=2 page=1 pages=1",
            OUR_TABLE,
            "sheet table=3 deals=0 target=301",
        ],
        state,
    )
    assert state.players == ("b1", "b2") and state.quiet == ("last",)
    # a line of it unreadable: said once, and the lines after it are read
    state = fold_all(
        [
            "sheet table=3 deals=2 target=301",
            "sheet-deal table=3 outcome=made written=1,2 totals=1,2 hanging=0 bides=0,0",
            "say from=b2 text=hello",
            "say from=b2 text=again",
        ]
    )
    assert state.log == (
        "(unreadable reply: a sheet-deal line without deal=)",
        "b2: hello",
        "b2: again",
    )


def test_the_log_pane_counts_a_wide_character_as_two_columns() -> None:
    """A chat line in Chinese (a name may be in any alphabet) or with emoji: each shown
    line fits the pane's columns, so the pane does not wrap it again and push the newest
    line out of view (seen: 'b2: newest' below a 60×5 pane)."""
    log = (*(f"b{i}: line {i}" for i in range(8)), "李小龍: " + "你好朋友" * 12, "b2: newest")
    shown = log_text(log, 60, 5).splitlines()
    assert len(shown) == 5 and shown[-1] == "b2: newest"
    assert all(cell_len(line) <= 60 for line in shown)
    assert "".join(shown[-3:-1]) == "李小龍: " + "你好朋友" * 12  # in two lines, cut by columns
    emoji = log_text(("anna: " + "👍" * 40,), 20, 6).splitlines()
    assert all(cell_len(line) <= 20 for line in emoji) and len(emoji) == 5


def test_a_sheet_with_no_deal_yet_names_every_player_of_three() -> None:
    """Three players, no deal finished: the sheet's header has all three (it had two)."""
    state = fold_all(
        [
            "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0.",
            "event seq=3 table=3 kind=start players=ann,bob,cat match=m3",
            "sheet table=3 deals=0 target=301",
        ]
    )
    header = state.log[-2].split()
    assert header == ["deal", "outcome", "ann", "bob", "cat"]
    four = fold_all(["event seq=3 table=3 kind=start players=a,b,c,d match=m3"], state)
    assert fold(four, "sheet table=3 deals=0 target=301").log[-2].split()[2:] == ["a+c", "b+d"]


def _tertz_after(*events: str) -> TableState:
    """Seat 1 of the TERTZ deal (b2 against b1), after the given events."""
    return fold_all([*TERTZ, *events])


def test_tertz_turn_goes_to_the_breaker_after_the_first_trick_then_to_the_winner() -> None:
    # seat 1 wins trick 1: seat 0, its loser, must break before anything else (§12.2)
    won = _tertz_after(
        "event seq=3 table=4 kind=play seat=1 card=Ad auto=0",
        "event seq=4 table=4 kind=play seat=0 card=7d auto=0",
        "event seq=5 table=4 kind=trick winner=1 cards=Ad,7d",
    )
    assert won.to_act == 0 and "Turn:   b1" in table_text(won)
    # nobody drew yet (the break comes first), and the breaker is asked: no view to ask
    assert "state" not in resync_requests(won)[1]
    # the break made, the winner leads (and was asked: nothing for it to request)
    broken = fold(won, "event seq=6 table=4 kind=call seat=0 call=lomayu-6 auto=0")
    assert broken.to_act == 1
    assert "state" not in resync_requests(broken)[1]


def test_after_the_break_and_a_lost_trick_the_seat_asks_its_view_quietly() -> None:
    # seat 1 loses trick 1 and breaks: the winner leads, and both drew (no event says so)
    lost = _tertz_after(
        "event seq=3 table=4 kind=play seat=1 card=7c auto=0",
        "event seq=4 table=4 kind=play seat=0 card=Ac auto=0",
        "event seq=5 table=4 kind=trick winner=0 cards=7c,Ac",
    )
    assert lost.to_act == 1 and "state" not in resync_requests(lost)[1]  # our break is asked
    broken = fold(lost, "event seq=6 table=4 kind=call seat=1 call=lomayu-6 auto=0")
    assert broken.to_act == 0 and "Turn:   b1" in table_text(broken)
    quiet, sent = resync_requests(broken)
    assert "state" in sent
    drawn = fold(
        quiet,
        TERTZ[-1]
        .replace("ask seq=2", "state seq=6")
        .replace("to_act=1", "to_act=0")
        .replace("hand=7c,", "hand=Js,")
        .replace("tricks=0,0", "tricks=1,0")
        .replace("talon=14", "talon=12")
        .replace("legal=terts,7c,8c,9c,Ad,Kd,10s,8s,7s,9d", "legal="),
    )
    assert drawn.talon == 12 and "Js" in drawn.hand and not drawn.asking
    assert "state" not in drawn.quiet and "state" not in resync_requests(drawn)[1]
    # a later trick lost: both draw again, only the winner is asked
    later = fold_all(
        [
            "event seq=7 table=4 kind=play seat=0 card=Kc auto=0",
            "event seq=8 table=4 kind=play seat=1 card=8c auto=0",
            "event seq=9 table=4 kind=trick winner=0 cards=Kc,8c",
        ],
        drawn,
    )
    assert later.to_act == 0 and "state" in resync_requests(later)[1]
    # a trick won: our own ask brings the new hand
    won = fold_all(
        [
            "event seq=7 table=4 kind=play seat=0 card=9c auto=0",
            "event seq=8 table=4 kind=play seat=1 card=Kd auto=0",
            "event seq=9 table=4 kind=trick winner=1 cards=9c,Kd",
        ],
        drawn,
    )
    assert won.to_act == 1 and "state" not in resync_requests(won)[1]


def test_an_error_is_shown_with_suit_signs_and_names_as_the_human_style_says_it() -> None:
    state = fold_all(
        [
            *TERTZ,
            "error code=must-follow-suit seq=2 text=you hold s: follow suit",
            "error code=illegal-card seq=2 text=10h is not in your hand",
            "error code=not-your-turn seq=2 text=it is seat 0's turn",
        ]
    )
    assert state.log[-3:] == (
        "! you hold ♠: follow suit",
        "! 10♥ is not in your hand",
        "! it is b1's turn",
    )
    # a call the table words its own way is said so ('rost?' is Tertz's 'ot chego?')
    told = "table id=4 players=2 variant=tertz options= seats=b1,b2 state=playing observers=0"
    refused = fold_all(
        [
            "tables count=1 total=1 page=1 pages=1",
            told,
            "error code=not-allowed seq=2 text=a combination as high is declared: ask rost?",
        ],
        state,
    )
    assert refused.log[-1] == "! a combination as high is declared: ask ot chego?"


def test_a_waiting_four_player_table_shows_its_free_seats_as_free() -> None:
    state = fold_all([START[0], "ok cmd=sit table=2 seat=1 text=You sit at table 2, seat 1."])
    state = fold_all(
        [
            "tables count=1 total=1 page=1 pages=1",
            "table id=2 players=4 variant=moscow options=to-301 seats=anna,b1,-,- "
            "state=waiting observers=0",
        ],
        resync_requests(state)[0],
    )
    assert table_text(state).splitlines()[0] == "Table 2, deal -: anna+(free) v b1*+(free)"
    # once the match starts, a name not known yet is its seat (never 'free')
    started = fold(state, "event seq=5 table=2 kind=seated name=cat seat=2")
    assert "anna+cat v b1*+(free)" in table_text(started)


def test_a_sheet_and_history_asked_after_leaving_name_the_seats_of_the_table_left() -> None:
    state = fold_all([*START, "ok cmd=leave text=You leave table 3."])
    assert state.table is None and state.former == (Former(3, "m3", ("b1", "b2"), True),)
    # seated at a new table, the old match's replies still name its own players
    state = fold(state, "ok cmd=sit table=7 seat=0 text=You sit at table 7, seat 0.")
    state = fold_all(
        [
            "event seq=1 table=7 kind=seated name=b1 seat=0",
            "event seq=2 table=7 kind=seated name=zoe seat=1",
            "sheet table=3 deals=1 target=301",
            "sheet-deal table=3 deal=1 outcome=made written=62,100 totals=62,100 hanging=0 "
            "bides=0,0",
            "history table=3 match=m3 deals=1",
            "history-deal table=3 deal=1 dealer=0 trump=h player=1 outcome=made "
            "written=62,100 tricks=1",
            "history-trick table=3 deal=1 trick=1 leader=1 cards=Kh,7h winner=1",
        ],
        state,
    )
    sheet = next(i for i, x in enumerate(state.log) if x.startswith("Score sheet, table 3"))
    replies = "\n".join(state.log[sheet:])
    assert "History of table 3 (m3): b1 v b2" in replies and "  1 b2 K♥ b1 7♥ > b2" in replies
    assert "b1" in state.log[sheet + 1] and "b2" in state.log[sheet + 1]  # the sheet's head
    assert "seat " not in replies and "zoe" not in replies


def test_the_turned_card_is_no_longer_shown_once_drawn_from_the_talon() -> None:
    state = fold_all(TERTZ)
    drawn = fold(state, TERTZ[-1].replace("talon=14", "talon=0"))
    assert "Turned: -   Talon: 0   Trump: ♥" in table_text(drawn)
    assert "Turned: K♥   Talon: 14" in table_text(state)


def test_the_log_pane_scrolls_back_a_reply_taller_than_it() -> None:
    calls = "\n".join(f"call {i}" for i in range(16))  # 'calls' at a Tertz table: 16 lines
    log = ("before", calls, "after")
    newest = log_text(log, 78, 10).splitlines()
    assert newest[-1] == "after" and "call 0" not in newest
    back = log_text(log, 78, 10, back=9).splitlines()
    assert back[-1] == "-- 9 more lines below: PgDn --" and len(back) == 10
    assert back[:9] == ["before", *(f"call {i}" for i in range(8))]
    # never past the top: the first line stays the log's first
    top = log_text(log, 78, 10, back=100).splitlines()
    assert top == back
    assert log_lines(log, 78) == 18


def test_the_names_of_a_finished_match_outlive_watching_another_table() -> None:
    """The match over at table 3, we watch table 7 (its state takes the screen) and stop:
    'history' of the match at table 3 (our last, docs/protocol.md §5.17) still names b1
    and b2, not 'seat 0' and the watched table's players."""
    state = fold_all(
        [
            *START,
            "event seq=9 table=3 kind=match-end winner=1 reason=left totals=0,0 seed=-",
            "ok cmd=observe table=7 text=You observe table 7.",
            "state seq=5 table=7 deal=1 phase=bidding seat=- dealer=0 to_act=1 hand= "
            "turned=Ah fresa=- trump=- player=- round=1 leader=1 trick= tricks=0,0 score=0,0 "
            "hanging=0 target=501 pending=- shown= talk= clock=- legal= players=2",
        ]
    )
    # table 7's seats are not known yet: not table 3's names (this failed: b1 and b2)
    assert state.players == ("", "") and "b1" not in table_text(state)
    state = fold_all(
        [
            "event seq=6 table=7 kind=seated name=zoe seat=0",
            "event seq=7 table=7 kind=seated name=yan seat=1",
            "ok cmd=leave text=You stop watching table 7.",
            "history table=3 match=m3 deals=1",
            "history-deal table=3 deal=1 dealer=0 trump=h player=1 outcome=made "
            "written=62,100 tricks=1",
            "history-trick table=3 deal=1 trick=1 leader=1 cards=Kh,7h winner=1",
        ],
        state,
    )
    told = "\n".join(state.log[-4:])
    assert "History of table 3 (m3): b1 v b2" in told and "  1 b2 K♥ b1 7♥ > b2" in told


def test_a_russian_history_writes_its_cards_in_russian_letters() -> None:
    """A pty tryout (Kharkiv players): the Russian client's 'history' wrote the tricks
    in Latin letters ('Оксана Q♠', 'K♥ … J♣'), where every other line of it, and the
    server's own Russian 'history', write В Д К Т."""
    history = [
        "history table=3 match=m3 deals=1",
        "history-deal table=3 deal=1 dealer=0 trump=h player=1 outcome=made "
        "written=62,100 tricks=2",
        "history-trick table=3 deal=1 trick=1 leader=1 cards=Kh,Jh winner=1",
        "history-trick table=3 deal=1 trick=2 leader=1 cards=As,Qs winner=1",
    ]
    state = fold_all([*START, *history], TableState(lang=Lang.RU))
    told = state.log[-3:]
    assert told[1:] == ("  1 b2 К♥ b1 В♥ > b2", "  2 b2 Т♠ b1 Д♠ > b2"), told
    # a match whose names this client never saw (a fresh client's last match): its
    # seats, in Russian too (it said «seat 0 — seat 1»)
    fresh = fold_all([START[0], *history], TableState(lang=Lang.RU))
    told = fresh.log[-4:]
    assert told[0] == "История стола 3 (m3): место 0 — место 1", told
    assert told[2:] == (
        "  1 место 1 К♥ место 0 В♥ > место 1",
        "  2 место 1 Т♠ место 0 Д♠ > место 1",
    )


def test_a_restarted_servers_table_of_the_same_number_is_not_named_as_the_old_one() -> None:
    """A plain server restarted numbers its tables from 1 again: the names of the match
    we played at table 3 (m3) do not name a later match at another table 3 (m9, watched
    before its seats were told); they were kept by table number and did (b1 v b2). Our
    'sheet' at no table, our last match played, is still m3's."""
    state = fold_all([*START, "ok cmd=leave text=You leave table 3."])
    state = fold_all(
        [
            "ok cmd=login name=b1 guest=1 token=Tok456 text=Hello, b1 (guest).",
            "ok cmd=observe table=3 text=You observe table 3.",
            "state seq=5 table=3 deal=1 phase=bidding seat=- dealer=0 to_act=1 hand= "
            "turned=Ah fresa=- trump=- player=- round=1 leader=1 trick= tricks=0,0 score=0,0 "
            "hanging=0 target=501 pending=- shown= talk= clock=- legal= players=2",
            "ok cmd=leave text=You stop watching table 3.",
            "history table=3 match=m9 deals=1",
            "history-deal table=3 deal=1 dealer=0 trump=h player=1 outcome=made "
            "written=62,100 tricks=1",
            "history-trick table=3 deal=1 trick=1 leader=1 cards=Kh,7h winner=1",
        ],
        state,
    )
    told = "\n".join(state.log[-4:])
    assert "History of table 3 (m9): seat 0 v seat 1" in told, told
    state = fold_all(
        [
            "sheet table=3 deals=1 target=301",
            "sheet-deal table=3 deal=1 outcome=made written=62,100 totals=62,100 hanging=0 "
            "bides=0,0",
        ],
        state,
    )
    assert "b1" in state.log[-2] and "b2" in state.log[-2], state.log[-3:]  # the head


def test_a_resumed_clients_table_left_still_names_its_match_in_history() -> None:
    """A client resuming with its token was never told its match's id ('start' is not
    replayed): the names of the table it then leaves still name that match's 'history'
    (kept by match id, an unknown one matched nothing: the seats went unnamed)."""
    state = fold_all(
        [
            "ok cmd=login name=b1 guest=1 token=Tok123 text=Hello, b1 (guest).",
            "event seq=9 table=3 kind=back name=b1 seat=0",
            START[-1].replace("seq=7", "seq=9"),
        ]
    )
    state, _ = resync_requests(state)
    state = fold_all([*QUIET_REPLIES, "ok cmd=leave text=You leave table 3."], state)
    assert state.table is None and state.former == (Former(3, None, ("b1", "b2"), True),)
    history = ["history table=3 match=m3 deals=0"]  # (its deals' lines name seats as the head)
    told = "\n".join(fold_all(history, state).log[-2:])
    assert "History of table 3 (m3): b1 v b2" in told, told
    # a match whose id we were told is named by it first, newer unknown ones after
    known = TableState(
        former=(Former(3, "m3", ("b1", "b2"), True), Former(3, None, ("x", "y"), True))
    )
    assert known.names_at(3, "m3") == ("b1", "b2") and known.names_at(3, "m4") == ("x", "y")
    assert known.names_at(4, "m3") == ()


def test_observing_after_a_finished_match_shows_the_watched_table_alone() -> None:
    """A match over at table 3 (seat 0, its result on screen), 'observe 8': the header
    was still table 3's (its names, our seat, its target) and the old result stayed under
    table 8's live trick, and again after 'leave' (tryout s16, finding 1)."""
    state = fold_all(
        [
            *START,
            "event seq=9 table=3 kind=match-end winner=1 name=b2 reason=claim totals=111,304 "
            "seed=ab",
            "ok cmd=observe table=8 text=You observe table 8.",
            "info text=Table 8 waits for players: anna, (free), (free), (free).",
        ]
    )
    assert (state.table, state.seat, state.result, state.target) == (8, None, None, None)
    assert table_text(state).splitlines()[:2] == [
        "Table 8, deal -: (waiting)",
        "Dealer: -   Target: -",
    ]
    state, asked = resync_requests(state)
    # who sits there and the target; the deals and the last trick (none yet): quietly
    assert asked == ("tables", "sheet", "last")
    logged = state.log
    state = fold_all(
        [
            "error code=wrong-phase text=the match has not started",
            "error code=wrong-phase text=the match has not started",
            "tables count=1 total=1 page=1 pages=1",
            "table id=8 players=4 variant=kharkov options=to-301 seats=anna,-,-,- "
            "state=waiting observers=1",
        ],
        state,
    )
    assert table_text(state).splitlines()[:2] == [
        "Table 8, deal -: anna+(free) v (free)+(free)",
        "Dealer: -   Target: 301",
    ]
    assert state.log == logged and state.quiet == ()  # the errors of a table not started
    # a running table watched next: its view, and no result of ours under it
    state = fold_all(
        [
            "ok cmd=observe table=9 text=You observe table 9.",
            "state seq=5 table=9 deal=14 phase=bidding seat=- dealer=0 to_act=1 hand= "
            "turned=Ah fresa=- trump=- player=- round=1 leader=1 trick= tricks=0,0,0 "
            "score=200,150,90 hanging=0 target=1001 pending=- shown= talk= clock=- legal= "
            "players=3",
        ],
        state,
    )
    text = table_text(state)
    assert "Game over" not in text and "Target: 1001" in text and "*" not in text.splitlines()[0]
    # stopping watching: the lobby, not table 9 still
    state = fold(state, "ok cmd=leave text=You stop observing table 9.")
    assert state.table is None and table_text(state).startswith("In the lobby.")


# four players at kostya's turn, a house bot's long name (tryout s16, finding 2)
FOUR_LONG = [
    "ok cmd=login name=kostya guest=1 token=T text=Hello, kostya (guest).",
    "ok cmd=sit table=2 seat=0 text=You sit at table 2, seat 0.",
    "event seq=1 table=2 kind=start players=kostya,sasha,house-heuristic-1,volodya match=m2",
    "event seq=2 table=2 kind=deal deal=2 dealer=0 turned=Kh score=40,60 hanging=0",
    "event seq=3 table=2 kind=call seat=1 call=pas auto=0",
    "event seq=4 table=2 kind=call seat=2 call=igrayu auto=0",
    "event seq=5 table=2 kind=order player=2 trump=h first=1 fresa=-",
    "event seq=6 table=2 kind=call seat=1 call=bella auto=0",
    "event seq=7 table=2 kind=call seat=2 call=terts auto=0",
    "event seq=8 table=2 kind=call seat=1 call=rost? auto=0",
    "event seq=9 table=2 kind=call seat=2 call=ot-K-kozyrnogo auto=0",
    "event seq=10 table=2 kind=play seat=1 card=Qh auto=0",
    "event seq=11 table=2 kind=play seat=2 card=10h auto=0",
    "event seq=12 table=2 kind=play seat=3 card=Jh auto=0",
    "event seq=13 table=2 kind=play seat=0 card=7h auto=0",
    "event seq=14 table=2 kind=trick winner=3 cards=Qh,10h,Jh,7h",
    "event seq=15 table=2 kind=play seat=3 card=9s auto=0",
    "ask seq=15 table=2 deal=2 phase=play seat=0 dealer=0 to_act=0 hand=10s,Ks,8d,Jd,Ad,10c,Jc "
    "turned=- fresa=- trump=h player=2 round=1 leader=3 trick=9s tricks=0,1 score=40,60 "
    "hanging=0 target=501 pending=- shown= talk=1:pas,2:igrayu,1:bella,2:terts,1:rost?,"
    "2:ot-K-kozyrnogo clock=60000 legal=10s,Ks players=4",
]


def test_four_players_with_long_names_keep_the_turn_line_in_the_table_pane() -> None:
    """At 80×24 the table pane is 51 columns by 9 lines: the seats, 'Trump: ♥ (NAME
    plays)' and a four-card 'Last:' wrapped, and 'Turn: YOU' fell off the pane."""
    state = fold_all(FOUR_LONG)
    lines = table_text(state, 12_000).splitlines()
    assert all(cell_len(line) <= 51 for line in lines), lines  # none wraps
    assert len(lines) <= 9 and lines[-1] == "Turn:   YOU (kostya), 12 s left"
    # a long name is shortened (its head and its last two characters) only on a line
    # that needs it, and to one form on every such line (test_screen_names.py)
    assert lines[0] == "Table 2, deal 2: kostya*+hou~-1 v sasha+vol~ya"
    assert lines[2] == "Turned: -   Fresa: -   Trump: ♥ (hou~-1 plays)"
    assert lines[5] == "Last:   sasha Q♥  hou~-1 10♥  vol~ya J♥  kostya 7♥"
    assert lines[1] == "Dealer: kostya   Target: 501"


def test_the_talk_line_shortens_a_long_name_rather_than_drop_its_calls() -> None:
    """Against a house bot the talk line kept its whole name and room for one call:
    'Talk: … house-heuristic-2 bella', the 'terts' a rost? would answer gone (a tryout,
    s34). The name's short form (the score pane's, as on the other lines) leaves room."""
    bot = [line.replace("b2", "house-heuristic-2") for line in START]
    calls = ["menyayu", "terts", "bella"]
    state = fold_all(
        [
            *bot[:9],  # seat 1 said igrayu
            *(
                f"event seq={7 + i} table=3 kind=call seat=1 call={c} auto=0"
                for i, c in enumerate(calls)
            ),
        ]
    )
    talk = next(x for x in table_text(state).splitlines() if x.startswith("Talk:"))
    # cut no more than the line needs ('hou~-2', the score pane's form, where the line
    # had room for more of the name: s39)
    assert talk == "Talk:   … house-heur~-2 terts, house-heur~-2 bella", talk
    assert cell_len(talk) <= TABLE_COLUMNS
    # whole names where they let as many calls show
    assert "Talk:   house-heuristic-2 igrayu\n" in table_text(fold_all(bot[:9]))


def test_the_talk_line_cuts_every_name_to_one_room_only_when_it_must() -> None:
    """A Tertz evening (s39): the Talk line read 'hou~-3' where the pane had room for
    the bot's whole name. Names are whole where the calls shown fit so; past the pane
    every name gets the same room, the widest that fits: none is cut more than another."""

    def talk(lines: list[str], columns: int = TABLE_COLUMNS) -> str:
        told = table_text(fold_all(lines), columns=columns).splitlines()
        return next(x for x in told if x.startswith("Talk:"))

    two = [line.replace("b1", "anna").replace("b2", "house-heuristic-3") for line in START]
    said = [*two[:9], "event seq=7 table=3 kind=call seat=0 call=terts auto=0"]
    assert talk(said) == "Talk:   house-heuristic-3 igrayu, anna terts"
    # the evening's line: 'hou~-3' showed a third call, two fit in whole names
    more = [
        *said,
        "event seq=8 table=3 kind=call seat=1 call=rost? auto=0",
        "event seq=9 table=3 kind=call seat=0 call=ot-K auto=0",
    ]
    assert talk(more) == "Talk:   … house-heuristic-3 rost?, anna ot korolya"
    # two long names: both cut to one room, as wide as the line lets them
    long = [line.replace("anna", "house-heuristic-9") for line in two]
    calls = ["terts", "rost?", "ot-K"]
    told = talk(
        [
            *long[:9],
            *(
                f"event seq={7 + i} table=3 kind=call seat={i % 2} call={c} auto=0"
                for i, c in enumerate(calls)
            ),
        ]
    )
    assert cell_len(told) <= TABLE_COLUMNS, told
    cut = re.findall(r"(\S+~-\d)", told)
    assert cut and len({len(name) for name in cut}) == 1, told  # the same room for all
    assert "hou~-" not in told, told  # not the score pane's form: the line had room
    # a wider terminal: the same talk in whole names
    assert "~" not in talk(
        [*long[:9], "event seq=7 table=3 kind=call seat=0 call=terts auto=0"], 80
    )


def test_a_talk_line_too_wide_in_whole_names_is_never_wider_than_the_pane() -> None:
    """One call is always shown, however long: with a 20-letter name, 'ot desyatki
    kozyrnogo' and the mark of the calls left out, the line in whole names is 52
    columns. It was shown so (the whole names kept when the short ones showed no more
    calls), wrapped, and pushed the pane's last line out of view."""
    long = [line.replace("b2", "abcdefghijklmnopqrst") for line in START]
    calls = ("terts", "ot-10-kozyrnogo")
    state = fold_all(
        [
            *long[:9],
            *(
                f"event seq={7 + i} table=3 kind=call seat=1 call={c} auto=0"
                for i, c in enumerate(calls)
            ),
        ]
    )
    talk = next(x for x in table_text(state).splitlines() if x.startswith("Talk:"))
    assert cell_len(talk) <= TABLE_COLUMNS, talk
    assert talk.endswith(" ot desyatki kozyrnogo"), talk  # the call whole, its name short


def test_the_talk_is_shown_as_spoken_on_the_talk_line_and_in_the_log() -> None:
    """The web replay says 'sasha: ot damy'; the terminal said 'sasha: ot-Q' (tryout
    s16, finding 7): the calls as people say (and may type) them."""
    state = fold_all(FOUR_LONG)
    assert "house-heuristic-1: ot korolya kozyrnogo" in state.log
    assert "sasha: rost?" in state.log and "house-heuristic-1: igrayu" in state.log
    talk = next(line for line in table_text(state).splitlines() if line.startswith("Talk:"))
    assert talk.endswith("ot korolya kozyrnogo") and "ot-K" not in talk


def test_the_talk_line_marks_earlier_calls_left_out() -> None:
    """The Talk line shows the deal's last calls that fit (docs/play.md); a leading '…'
    says earlier ones were left out, so a line of two calls is not taken for the
    deal's whole talk."""

    def talk(state: TableState) -> str:
        return next(x for x in table_text(state).splitlines() if x.startswith("Talk:"))

    long = fold_all(FOUR_LONG)  # six calls; two fit, the long name in its short form
    assert talk(long) == "Talk:   … sasha rost?, hous~-1 ot korolya kozyrnogo"
    assert talk(fold_all(FOUR_LONG[:8])) == "Talk:   sasha pas, house-heu~-1 igrayu, sasha bella"
    # all of the deal's talk shown: nothing marked
    assert talk(fold_all(FOUR_LONG[:6])) == "Talk:   sasha pas, house-heuristic-1 igrayu"
    assert talk(fold_all(START)) == "Talk:   b2 igrayu"


def test_the_score_pane_heads_name_pairs_and_free_seats_readably() -> None:
    """Four players' heads read 'kos~ou sas~ol' (two names squeezed into six cells), a
    free seat of a waiting table 'se~ 1' (tryout s16, finding 9)."""
    lines = score_text(fold_all(FOUR_LONG)).splitlines()
    assert lines[1] == "Deal  kost+hous sash+volo"
    assert all(len(line) <= 25 for line in lines)
    waiting = fold_all(
        [
            START[0],
            "ok cmd=sit table=6 seat=0 text=You sit at table 6, seat 0.",
            "tables count=1 total=1 page=1 pages=1",
            "table id=6 players=3 variant=kharkov options=to-301 seats=b1,-,- state=waiting "
            "observers=0",
        ]
    )
    assert score_text(waiting).splitlines()[1] == "Deal     b1  free  free"


def test_observing_another_table_while_playing_keeps_our_table_on_screen() -> None:
    """Seated at table 2 with our turn, 'observe 8' (the server allows it): the screen
    became table 8 with no seat, and table 8's calls and table 2's plays were folded
    into one another (rv41: 'observe' while seated, tryout s16's fix)."""
    state = fold_all(
        [
            *FOUR_LONG,
            "ok cmd=observe table=8 text=You observe table 8.",
            "state seq=40 table=8 deal=3 phase=bidding seat=- dealer=1 to_act=2 hand= "
            "turned=Ac fresa=- trump=- player=- round=1 leader=2 trick= tricks=0,0,0 "
            "score=10,20,30 hanging=0 target=1001 pending=- shown= talk= clock=- legal= "
            "players=3",
            "event seq=41 table=8 kind=call seat=2 call=pas auto=0",
            "event seq=42 table=8 kind=play seat=1 card=As auto=0",
        ]
    )
    assert (state.table, state.seat, state.target) == (2, 0, 501)
    assert state.asking and state.legal == ("10s", "Ks") and len(state.hand) == 7
    assert state.trick == ((3, "9s"),) and "pas" not in dict(state.talk).values()
    assert state.log[-2:] == ("You observe table 8.", KEEPS_OUR_TABLE)
    # our own table's lines still count
    state = fold(state, "event seq=16 table=2 kind=play seat=0 card=Ks auto=0")
    assert state.trick == ((3, "9s"), (0, "Ks")) and "Ks" not in state.hand


def test_a_watched_table_takes_no_event_of_the_finished_table_we_still_sit_at() -> None:
    """After a finished match (still seated there) 'observe 9': table 3's seating lines
    went into table 9's seats (rv41)."""
    state = fold_all(
        [
            *START,
            "event seq=9 table=3 kind=match-end winner=1 name=b2 reason=claim totals=111,304 "
            "seed=ab",
            "ok cmd=observe table=9 text=You observe table 9.",
            "state seq=5 table=9 deal=14 phase=bidding seat=- dealer=0 to_act=1 hand= "
            "turned=Ah fresa=- trump=- player=- round=1 leader=1 trick= tricks=0,0,0 "
            "score=200,150,90 hanging=0 target=1001 pending=- shown= talk= clock=- legal= "
            "players=3",
            "event seq=10 table=3 kind=left seat=1 name=b2",
            "event seq=6 table=9 kind=call seat=1 call=pas auto=0",
        ]
    )
    assert state.table == 9 and state.talk == ((1, "pas"),) and "b2 leaves seat 1" not in state.log


def test_a_history_and_sheet_of_a_match_over_before_any_call_say_so() -> None:
    """The tryout's: anna left before anyone called. Asked afterwards, at no table, the
    server tells that match with no deal (docs/protocol.md §5.17): the client said 'No
    card played yet', as of a match still to be played, where the server's human style
    says it ended."""
    state = fold_all(
        [
            *START[:5],
            "event seq=4 table=3 kind=match-end name=b1 reason=left totals=0,0 seed=- match=m3",
            "sheet table=3 deals=0 target=301",
            "history table=3 match=m3 deals=0",
        ]
    )
    assert list(state.log[-3:]) == [
        "   - no deal: the match ended before anyone made a call",
        "History of table 3 (m3): b1 v b2",
        "No deal was played: the match ended before anyone made a call.",
    ]
    # the match running at our table has had none yet: nothing is played yet
    running = fold_all([*START[:5], "history table=3 match=m3 deals=0"])
    assert running.log[-1] == "No card played yet."


def test_the_last_pas_of_round_one_says_round_two_opens() -> None:
    """As the human style says it (docs/play.md): a Russian tryout saw the prompt
    change after everyone passed with no word of a second round."""
    bidding = START[:6]  # the deal told, nobody has spoken: turned Ad
    state = fold(fold_all(bidding), "event seq=5 table=3 kind=call seat=1 call=pas auto=0")
    assert state.log[-1] == "b2: pas"
    state = fold(state, "event seq=6 table=3 kind=call seat=0 call=pas auto=0")
    assert state.log[-2:] == (
        "b1: pas",
        "all passed: round two of the bidding (a suit other than ♦)",
    )
    state = fold(state, "event seq=7 table=3 kind=call seat=1 call=pas auto=0")
    assert state.log[-1] == "b2: pas"  # round two's own pas: nothing more


LOGIN_AGAIN = "ok cmd=login name=b1 guest=1 token=Tok999 text=Hello, b1 (guest). 0 tables"


def test_a_login_with_no_seat_after_a_restart_clears_the_dead_table() -> None:
    """A restarted server has no seat for us: the login answers with no 'back', and the
    old deal (its clock, its calls) is gone from the screen; the log stays."""
    state = fold_all([*START, LOGIN_AGAIN])
    assert state.table is None and not state.asking and not state.legal and not state.hand
    assert "Turn" not in table_text(state) and legal_text(state) == ""
    assert "b2: igrayu" in state.log
    # its names are kept for a 'sheet' or 'history' of the match asked afterwards
    assert state.names_at(3, "m3") == ("b1", "b2")


PONG = "ok cmd=ping text=pong"  # the link's fence after its login: all its answer came


def test_a_seat_not_given_back_is_said_plainly() -> None:
    """Logged in again and no 'back' before the fence's pong: the log said only
    'Connected again.' and the table went from the screen with no word why. It says the
    seat was not kept, in that line's place, and points at the server's reason when one
    came (a seat freed, a match lost while away), else that none was given."""
    freed = (
        "info text=While you were away, your seat at table 3 was freed: a seat is held 120 s"
        " for a player away, then it is free for another."
    )
    told = fold_all([*BANNER, *START, *AGAIN, freed, PONG])
    assert told.table is None and told.before is None
    assert told.log[-2:] == (
        "Connected again, but your seat at table 3 was not kept (the server says why below).",
        freed[len("info text=") :],
    )
    restarted = fold_all([*BANNER, *START, *AGAIN, PONG])
    assert restarted.log[-1] == (
        "Connected again, but your seat at table 3 was not kept: the server holds none of"
        " yours now (a restarted server keeps no seats)."
    )
    assert restarted.logged == fold_all([*BANNER, *START, *AGAIN]).logged  # in its place
    # given back: the pong changes nothing; in the lobby there was no seat to say
    back = [*AGAIN, "event seq=8 table=3 kind=back name=b1 seat=0", START[-1], PONG]
    assert fold_all(back, fold_all([*BANNER, *START])).log[-1] == (
        "Connected again: your seat at table 3 is back."
    )
    assert fold_all([*BANNER, START[0], *AGAIN, PONG]).log[-1] == "Connected again."


def test_a_login_that_is_back_at_the_seat_keeps_the_table() -> None:
    """After a drop the server says we are back (kind=back, then the view): the names,
    the score and the match id of the table are taken back."""
    state = fold_all(
        [*START, LOGIN_AGAIN, "event seq=8 table=3 kind=back name=b1 seat=0", START[-1]]
    )
    assert (state.table, state.seat, state.match) == (3, 0, "m3")
    assert state.players == ("b1", "b2") and state.asking and state.legal


def test_a_table_closing_with_its_match_clears_the_table_pane() -> None:
    """'Table 3 closes: … Match m3 stops here': the table pane goes, the notice stays."""
    stopped = (
        "info closed=3 text=Table 3 closes: SIGTERM received. Match m3 stops here: nobody wins or"
        " loses, and it is not rated."
    )
    state = fold_all([*START, stopped])
    assert state.table is None and not state.legal and "Turn" not in table_text(state)
    assert state.log[-1].startswith("Table 3 closes")
    # another table's closing is not ours
    other = fold_all([*START, stopped.replace("3", "4")])
    assert other.table == 3 and other.legal


def test_the_server_saying_we_sit_nowhere_clears_a_table_left_on_screen() -> None:
    """A call refused with 'you sit at no table': the table shown is gone."""
    refused = "error code=not-seated nowhere=1 text=you sit at no table and observe none"
    state = fold_all([*START, refused])
    assert state.table is None and state.log[-1] == f"! {refused.split('text=')[1]}"
    # a watched table's final screen stays until the server says we watch nothing
    watched = fold_all(
        [
            "ok cmd=observe table=3 text=You observe table 3.",
            "event seq=9 table=3 kind=match-end name=b1 reason=target totals=301,120",
        ]
    )
    assert watched.result is not None and watched.table == 3
    assert fold(watched, refused).table is None


def test_a_call_made_by_the_clock_is_said_so() -> None:
    state = fold_all([*START[:-3], "event seq=5 table=3 kind=call seat=0 call=pas auto=1"])
    assert state.log[-1] == "b1: pas (by the clock)"
    state = fold_all([*START, "event seq=8 table=3 kind=play seat=0 card=Kc auto=1"])
    assert state.log[-1] == "b1 plays K♣ (by the clock)"
    mine = fold_all([*START, "event seq=8 table=3 kind=play seat=0 card=Kc auto=0"])
    assert not mine.log[-1].endswith("(by the clock)")


def test_the_result_after_leaving_names_the_players() -> None:
    """'leave' forfeits: the match's end comes after 'ok leave', at no table; it names
    the players of the table left, not its seats (and shows no score: we left)."""
    state = fold_all(
        [
            *START,
            "ok cmd=leave text=You leave table 3.",
            "event seq=8 table=3 kind=match-end match=m3 name=b2 reason=left forfeit=0 totals=0,0",
        ]
    )
    assert state.result == "Game over: b2 wins (left: b1), totals 0 : 0"
    assert state.log[-1].endswith("totals 0 : 0, match m3") and score_text(state) == "Score\n-"


def test_a_refusal_not_of_a_call_keeps_the_option_names_as_the_server_wrote_them() -> None:
    # a new player's tryout: every hyphen of a refusal was spoken as a space, so
    # 'to-301' became 'to 301', and typing that was refused again
    state = fold_all(
        [
            *START,
            "error code=bad-rules text=unknown option 'to-9999'; variants: kharkov, moscow, "
            "tertz; options: stake-1, to-1001, to-301, to-9-stakes",
            "error code=bad-rules text=unknown option '301': did you mean to-301? Options: to-301",
            "error code=wrong-phase seq=7 text=ot-K is not a call you may make now",
        ]
    )
    assert state.log[-3:] == (
        "! unknown option 'to-9999'; variants: kharkov, moscow, tertz; options: stake-1, "
        "to-1001, to-301, to-9-stakes",
        "! unknown option '301': did you mean to-301? Options: to-301",
        "! ot korolya is not a call you may make now",  # a call's refusal: spoken still
    )


def test_a_misspelled_command_is_told_the_one_it_is_close_to() -> None:
    # the human style says "Did you mean 'help'?"; the machine style names it in
    # command_hint= (docs/protocol.md §8), which the client says so
    state = fold_all(
        [
            START[0],
            "error code=unknown-command command_hint=help text='hepl' is not a command, and"
            " you sit at no table. Type 'help'.",
            "error code=unknown-command text='xyzzy' is not a command, and you sit at no "
            "table. Type 'help'.",
            *START[1:],
            "error code=unknown-command command_hint=tables text=not a table call: 'tabels'."
            " Type 'help' or 'calls'.",
        ]
    )
    refusals = [line for line in state.log if line.startswith("!")]
    assert refusals == [
        "! 'hepl' is not a command, and you sit at no table. Type 'help'. Did you mean 'help'?",
        "! 'xyzzy' is not a command, and you sit at no table. Type 'help'.",
        "! not a table call: 'tabels'. Type 'help' or 'calls'. Did you mean 'tables'?",
    ]


def test_one_table_is_said_in_the_singular() -> None:
    state = fold_all([START[0], "tables count=1 total=1 page=1 pages=1", OUR_TABLE])
    assert state.log[-2] == "1 table"
    state = fold_all(["tables count=0 total=0 page=1 pages=1"], state)
    assert state.log[-1] == "0 tables"


def test_a_private_table_is_listed_as_private_not_as_open() -> None:
    """A pty tryout (Kharkiv players): invited to a private table, the client's 'tables'
    said «открытых столов: 1» and listed it unmarked, where the server's own list says
    «Стол 36 (закрытый)» (docs/play.ru.md): the list counts the tables the player may
    see, and marks a private one."""
    private = (
        "table id=36 players=2 variant=kharkov options= seats=anna,- state=waiting"
        " observers=0 private=1"
    )
    listed = ["tables count=2 total=2 page=1 pages=1", OUR_TABLE, private]
    english = fold_all([START[0], *listed])
    assert list(english.log[-3:]) == [
        "2 tables",
        "table 3: moscow to-301 [b1 b2] playing",
        "table 36 (private): kharkov - [anna (free)] waiting",
    ]
    russian = fold_all([START[0], *listed], TableState(lang=Lang.RU))
    assert list(russian.log[-3:]) == [
        "столов: 2",
        "стол 3: moscow to-301 [b1 b2] играют",
        "стол 36 (закрытый): kharkov - [anna (свободно)] ждёт игроков",
    ]


def test_a_quiet_resync_request_refused_slow_down_is_no_longer_awaited() -> None:
    """'sheet' spends the lists allowance now (ea9153f4): a resync's quiet 'sheet'
    refused with slow-down has no reply to come, so it must not stay quiet and swallow
    the reply to the 'sheet' the player types next (review 321)."""
    state = fold_all(
        [
            "ok cmd=login name=b1 guest=1 token=Tok123 text=Hello, b1 (guest).",
            "event seq=9 table=3 kind=back name=b1 seat=0",
            START[-1].replace("seq=7", "seq=9"),
        ]
    )
    state, asked = resync_requests(state)
    assert asked == ("tables", "sheet", "last")
    state = fold_all(
        [
            QUIET_REPLIES[0],
            QUIET_REPLIES[1],
            "error code=slow-down wait_ms=1500 cmd=sheet text=too many 'sheet' at once: wait 2 s",
            QUIET_REPLIES[3],
        ],
        state,
    )
    assert "sheet" not in state.quiet
    logged = len(state.log)
    state = fold(state, "sheet table=3 deals=0 target=301")  # the one typed by hand
    assert len(state.log) > logged


def test_a_table_watched_before_a_drop_is_said_to_be_left() -> None:
    """A login again gives back a seat, not a table one watched (docs/play.md): the
    screen turned to the lobby without a word (a pty tryout, s29)."""
    state = fold_all(
        [
            "ok cmd=login name=zed guest=1 token=T1 text=Hello, zed (guest).",
            "ok cmd=observe table=7 text=You observe table 7.",
            "state seq=5 table=7 deal=1 phase=bidding seat=- dealer=0 to_act=1 hand= "
            "turned=Ah fresa=- trump=- player=- round=1 leader=1 trick= tricks=0,0 score=0,0 "
            "hanging=0 target=501 pending=- shown= talk= clock=- legal= players=2",
            "ok cmd=login name=zed guest=1 token=T1 text=Hello, zed (guest).",
        ]
    )
    assert state.table is None
    assert "No longer watching table 7 ('observe 7')." in state.log


def test_a_claimed_deal_leaves_no_cards_in_the_hand() -> None:
    """A claim ends the deal after a trick, cards still in the hands (docs/protocol.md
    §9.6, outcome 'claim'): the deal is over, and the hand pane is empty, as after the
    last trick (it showed the cards left till the table was left)."""
    state = fold_all(
        [
            *START,
            "event seq=8 table=3 kind=play seat=0 card=Kc auto=0",
            "event seq=9 table=3 kind=trick winner=0 cards=7c,Kc",
            "event seq=10 table=3 kind=deal-end deal=1 outcome=claim points=33,0 "
            "written=33,0 totals=301,226 hanging=0",
            'record table=3 deal=1 text={"format":"deberc-deal/1"}',
            "event seq=11 table=3 kind=match-end winner=0 name=b1 reason=claim "
            "totals=301,226 seed=ab match=m3",
        ]
    )
    assert state.hand == () and hand_text(state) == "Hand:   -"
    assert state.last_trick == ((1, "7c"), (0, "Kc"))  # the last trick stays to be seen


def test_a_deal_or_match_cut_short_mid_trick_leaves_no_trick_on_the_table() -> None:
    """A deal that ends with a card on the table (a bide on cards, table-penalties:
    docs/rules.md §10) or a match forfeited so (docs/protocol.md §11.3, no deal-end):
    the Trick line is empty from then, as after a trick taken; its card stayed there
    until the next deal, or for good. (tests/play/test_trick_cut_short_served.py: the
    same over a real server.)"""
    trick = 4  # the table pane's Trick line
    before = fold_all(START)
    assert table_text(before).splitlines()[trick] == "Trick:  b2 7♣"
    penalty = fold(
        before,
        "event seq=8 table=3 kind=deal-end deal=1 outcome=penalty points=0,31 "
        "written=0,162 totals=0,162 hanging=0",
    )
    assert penalty.trick == () and table_text(penalty).splitlines()[trick] == "Trick:  -"
    forfeit = fold(
        before,
        "event seq=8 table=3 kind=match-end winner=1 name=b2 reason=left forfeit=0 "
        "totals=0,0 seed=ab match=m3",
    )
    assert forfeit.trick == () and table_text(forfeit).splitlines()[trick] == "Trick:  -"


def test_leaving_a_running_match_clears_the_score_until_the_next_one() -> None:
    """'leave' forfeits; the match's end comes after 'ok leave', at no table: its result
    is said in the log with the players' names, and the score pane is no longer the old
    match's (it was, in the lobby, till the next table); the next match's score shows."""
    state = fold_all(
        [
            *START,
            "event seq=8 table=3 kind=deal-end deal=1 outcome=made points=90,72 "
            "written=90,72 totals=90,72 hanging=0",
            "ok cmd=leave text=You leave table 3.",
            "event seq=9 table=3 kind=match-end match=m3 name=b2 reason=left forfeit=0 "
            "totals=90,72",
        ]
    )
    assert state.table is None and state.log[-1].startswith("Game over: b2 wins (left: b1)")
    assert score_text(state) == "Score\n-"
    state = fold_all(
        [
            "ok cmd=sit table=4 seat=1 text=You sit at table 4, seat 1.",
            "event seq=1 table=4 kind=seated name=b3 seat=0",
            "event seq=2 table=4 kind=seated name=b1 seat=1",
            "event seq=3 table=4 kind=start players=b3,b1 match=m4",
        ],
        state,
    )
    assert score_text(state).splitlines() == ["Score", "Deal      b3     b1", "Tot        0      0"]


def test_a_match_ended_mid_deal_by_a_forfeit_leaves_no_cards_in_the_hand() -> None:
    """The other side leaves mid-deal: the match ends with no deal-end (docs/protocol.md
    §11.3), and the hand is no longer held (a pty tryout: it stayed on screen under the
    result)."""
    end = (
        "event seq=8 table=3 kind=match-end winner=0 name=b1 reason=left forfeit=1 "
        "totals=0,0 seed=ab match=m3"
    )
    state = fold_all([*START, end])
    assert state.hand == () and hand_text(state) == "Hand:   -"
    # his total only when it says something: not 'b1 wins with 0' (s44), nothing written
    assert state.result == "Game over: b1 wins (left: b2), totals 0 : 0"
    russian = fold_all([*START, end], TableState(lang=Lang.RU))
    assert russian.result == (
        "Партия окончена: b1 выигрывает (b2 покидает стол: поражение), итого 0 : 0"
    )
    # a forfeit after deals were written says it: he won with what he had
    later = fold_all([*START, end.replace("totals=0,0", "totals=62,100")])
    assert later.result == "Game over: b1 wins with 62 (left: b2), totals 62 : 100"


def test_leaving_a_finished_match_is_no_error() -> None:
    """A finished match stays on screen till 'leave' (docs/play.md), but its table has
    closed (docs/protocol.md §9.7): the server answers 'leave' that we sit nowhere. That
    is said as where we are now, not as an error (a pty tryout: '! you sit at no table
    and observe none' for doing what the guide says)."""
    over = "event seq=9 table=3 kind=match-end winner=0 name=b1 reason=target totals=301,120"
    refused = "error code=not-seated nowhere=1 text=you sit at no table and observe none"
    for start in (START, ["ok cmd=observe table=3 text=You observe table 3."]):
        state = fold_all([*start, over, refused])
        assert state.table is None and score_text(state) == "Score\n-"
        assert state.log[-1] == "The match at table 3 is over: you are in the lobby."


def test_state_right_after_a_finished_match_is_no_error() -> None:
    """'state' within 60 s of one's match ending is answered with the match named
    (docs/protocol.md §5.10, s46): 'you sit at no table and observe none: your match at
    table 3 is over (…)'. The client read only the bare line as "our table is gone" and
    showed this one as a refusal, the finished match still on screen (a read-back,
    s46): it is said as where we are, as the bare line is."""
    over = "event seq=9 table=3 kind=match-end winner=0 name=b1 reason=target totals=301,120"
    refused = (
        "error code=not-seated nowhere=1 text=you sit at no table and observe none: your match at"
        " table 3 is over ('last', 'sheet' and 'history' show it)"
    )
    state = fold_all([*START, over, refused])
    assert state.table is None and score_text(state) == "Score\n-"
    assert state.log[-1] == "The match at table 3 is over: you are in the lobby."


def test_the_talk_of_a_deal_only_grows_whatever_a_view_says() -> None:
    """The Talk line was each view's ``talk=`` taken whole (a pty tryout: 'igrayu' and
    'menyayu' gone after a card): a view that had not caught up with the events shown
    (its seq older than theirs) took calls back. Within a deal the talk only grows; a
    view adds what it knows more (calls missed in a drop), and a new deal starts it
    afresh."""
    swap = "event seq=8 table=3 kind=call seat=0 call=menyayu auto=0"
    state = fold_all([*START[:-1], swap, START[-1]])  # the ask of seq 7 after seq 8's swap
    assert state.talk == ((1, "igrayu"), (0, "menyayu"))
    assert "Talk:   b2 igrayu, b1 menyayu" in table_text(state)
    more = START[-1].replace("ask seq=7", "ask seq=10")
    state = fold(state, more.replace("talk=1:igrayu", "talk=1:igrayu,0:menyayu,1:terts"))
    assert state.talk == ((1, "igrayu"), (0, "menyayu"), (1, "terts"))
    state = fold(state, "event seq=11 table=3 kind=deal deal=2 dealer=1 turned=7s score=0,0")
    assert state.talk == ()


def test_a_punished_call_is_in_the_talk_as_the_views_count_it() -> None:
    """A call punished instead of refused (table-penalties, docs/rules.md §10: a 'rost?'
    while holding a longer combination, and the deal goes on) is in the views' talk=
    (docs/protocol.md §6.3: every call but cards); the events left it out, so the talk
    shown and the next view's disagreed. A card punished is no talk."""
    punished = "event seq=8 table=3 kind=penalty seat=0 call=rost? code=forbidden-rost"
    state = fold_all([*START, punished])
    assert state.talk == ((1, "igrayu"), (0, "rost?"))
    card = "event seq=9 table=3 kind=penalty seat=0 call=8h code=must-follow-suit"
    assert fold(state, card).talk == state.talk


BANNER = [
    "deberc-net 0.1.0 (protocol 1) — Deberts for people and bots. Type 'help'.",
    "Деберц для людей и ботов. По-русски: наберите lang ru, потом help.",
]


def test_a_russian_screen_says_the_banner_in_russian() -> None:
    """A pty tryout (Kharkiv players, Russian only): the Russian client's log opened
    with the server's English banner and its Russian hint «наберите lang ru», for nc
    users: the screen is Russian already. It says the banner in Russian, once."""
    state = fold_all([*BANNER, START[0]], TableState(lang=Lang.RU))
    assert state.log[0] == "deberc-net 0.1.0 (протокол 1) — деберц для людей и ботов."
    assert not any("lang ru" in x or "Deberts" in x for x in state.log), state.log
    # English: the first line as sent; the hint for a Russian reader names the
    # client's --lang ru, since 'lang ru' typed at it left the screen English (s46)
    english = (BANNER[0], "Деберц для людей и ботов. По-русски: deberc-net play --lang ru.")
    assert fold_all([*BANNER, START[0]]).log[:2] == english


# what a connection made again brings before the table's lines: the link's notice, the
# banner, the replies to its own 'style', 'clock' and login
AGAIN = [
    "info text=connection lost: trying again in 0.5 s (attempt 2)",
    *BANNER,
    "ok cmd=style style=machine text=Style machine.",
    "ok cmd=clock clock=human ms=60000 text=Your clock: 60 s a call.",
    LOGIN_AGAIN,
]


def test_a_connection_made_again_is_said_in_one_line_not_greeted_again() -> None:
    """A pty tryout: each resume logged the server's banner and its 'Hello …' again
    (some five lines a drop). The first connection's greeting is shown; after that a
    connection made again says so once, with the seat it took back."""
    state = fold_all([*BANNER, *START])
    assert state.log[:3] == (BANNER[0], RUSSIAN_AT_START, "Hello, b1 (guest).")
    logged = state.logged
    state = fold_all([*AGAIN, "event seq=8 table=3 kind=back name=b1 seat=0", START[-1]], state)
    assert state.log[logged:] == (
        "connection lost: trying again in 0.5 s (attempt 2)",
        "Connected again: your seat at table 3 is back.",
    )
    assert state.logged - logged == 2 and state.table == 3
    # with no seat to take back (the lobby; a restarted server): said as plainly
    lobby = fold_all([*BANNER, START[0], *AGAIN])
    assert lobby.log[-2:] == (state.log[logged], "Connected again.")


def test_a_tertz_table_says_mariage_as_the_server_does() -> None:
    """Tertz's mariage is 'mariage' in the server's English lines (docs/rules.md §12.5);
    the client, reading the machine style's 'bella', said Deberts's word there."""
    line = TERTZ[-1].replace("legal=terts,", "legal=bella,terts,")
    state = fold_all([*TERTZ[:-1], line])
    assert legal_text(state).startswith("Your call: mariage | terts | ")
    said = fold(state, "event seq=3 table=4 kind=call seat=1 call=bella auto=0")
    assert said.log[-1] == "b2: mariage"
    assert "Talk:   b2 mariage" in table_text(said)
    refused = fold(said, "error code=unknown-command hint=bella text=not a table call: 'marage'.")
    assert refused.log[-1].endswith("Did you mean mariage?")
    # a Deberts table's bella is 'bella'
    deberts = fold(fold_all(START), "event seq=8 table=3 kind=call seat=0 call=bella auto=0")
    assert deberts.log[-1] == "b1: bella"


def tables_line(table: int, variant: str, options: str, seats: str) -> list[str]:
    """The answer to the 'tables' the client asks on sitting: the game the server names."""
    return [
        "tables count=1 total=1 page=1 pages=1",
        f"table id={table} players=2 variant={variant} options={options} seats={seats}"
        " state=playing observers=0",
    ]


def test_a_tables_game_is_the_one_the_server_names_not_one_guessed_by_its_talon() -> None:
    """A game with a talon was taken for Tertz, whatever the server played there: a
    third party's game (one the rules beside the client do not know) had Tertz's
    'mariage' said for its 'bella'. The 'tables' line names the game."""
    line = TERTZ[-1].replace("legal=terts,", "legal=bella,terts,")
    other = fold_all([*TERTZ[:-1], *tables_line(4, "talon-game", "", "b1,b2"), line])
    assert legal_text(other).startswith("Your call: bella | terts | ")
    said = fold(other, "event seq=3 table=4 kind=call seat=1 call=bella auto=0")
    assert said.log[-1] == "b2: bella"
    russian = fold_all(
        [*TERTZ[:-1], *tables_line(4, "talon-game", "", "b1,b2"), line], TableState(lang=Lang.RU)
    )
    assert legal_text(russian).startswith("Ваш ход: белла | терц | ")
    # a Tertz table named so says its words; a Deberts table with 'dave' on, the option's
    tertz = fold_all([*TERTZ[:-1], *tables_line(4, "tertz", "", "b1,b2"), line])
    assert legal_text(tertz).startswith("Your call: mariage | terts | ")
    dave = START[-1].replace("legal=menyayu,", "legal=dave,menyayu,")
    offered = fold_all(
        [*START[:-1], *tables_line(3, "moscow", "dave", "b1,b2"), dave], TableState(lang=Lang.RU)
    )
    assert legal_text(offered).startswith("Ваш ход: даве | меняю | ")


def test_the_lobby_hint_names_every_player_count_seek_takes() -> None:
    """'seek' and 'new' take 2, 3 or 4 players (docs/protocol.md §5.5): the hint named
    two-player games only, in both languages, and still fits the pane. Its table is the
    plainest, 'new 2': a newcomer puzzled over 'new 4 to-301' (a club evening)."""
    for lang in Lang:
        lobby = table_text(fold_all(START[:1], TableState(lang=lang)))
        assert all(f"seek {players}" in lobby for players in (2, 3, 4)), lobby
        assert "new 2" in lobby and "to-301" not in lobby
        assert max(cell_len(line) for line in lobby.splitlines()) <= TABLE_COLUMNS


# three players: b1 (seat 0) declared a terts; b2 asks rost?, then b3 asks pokazhi
THREE_ASKED = [
    "ok cmd=login name=b1 guest=1 token=T text=Hello, b1 (guest).",
    "ok cmd=sit table=5 seat=0 text=You sit at table 5, seat 0.",
    "event seq=1 table=5 kind=start players=b1,b2,b3 match=m5",
    "event seq=2 table=5 kind=deal deal=1 dealer=2 turned=Kh score=0,0,0 hanging=0",
    "event seq=3 table=5 kind=call seat=0 call=igrayu auto=0",
    "event seq=4 table=5 kind=order player=0 trump=h first=0 fresa=-",
    "event seq=5 table=5 kind=call seat=0 call=terts auto=0",
    "event seq=6 table=5 kind=call seat=1 call=rost? auto=0",
    "ask seq=6 table=5 deal=1 phase=play seat=0 dealer=2 to_act=0 hand=7s,8s,9s,Kh,Ad "
    "turned=- fresa=- trump=h player=0 round=1 leader=0 trick= tricks=0,0,0 score=0,0,0 "
    "hanging=0 target=301 pending=rost:1:0 shown= talk=0:igrayu,0:terts,1:rost? "
    "clock=60500 legal=ot-9 players=3",
]


def test_a_question_put_to_you_says_who_asks_it() -> None:
    """At three or four players the talk's 'b2: rost?' does not say whom b2 asks; the
    human style says the question to the one asked (docs/protocol.md §3): so does the
    log, in the server's words, once."""
    state = fold_all(THREE_ASKED)
    assert state.log[-2:] == (
        "b2: rost?",
        "b2 asks you how high the combination goes (rost?): you name its top.",
    )
    again = fold(state, THREE_ASKED[-1].replace("ask seq=6", "state seq=6"))  # F4: not again
    assert again.log == state.log
    shown = [
        "event seq=7 table=5 kind=call seat=0 call=ot-9 auto=0",
        "event seq=8 table=5 kind=call seat=2 call=pokazhi auto=0",
        THREE_ASKED[-1]
        .replace("seq=6", "seq=8")
        .replace("pending=rost:1:0", "pending=show:2:0")
        .replace("talk=0:igrayu,0:terts,1:rost?", "talk=0:igrayu,0:terts,1:rost?,0:ot-9,2:pokazhi")
        .replace("legal=ot-9", "legal=pokazyvayu"),
    ]
    state = fold_all(shown, state)
    assert state.log[-1] == "b3 asks you to show the combination (pokazhi): you show it."
    russian = fold_all([*THREE_ASKED, *shown], TableState(lang=Lang.RU))
    assert "b2 спрашивает вас, от какой карты комбинация («рост?»): назовите старшую." in (
        russian.log
    )
    assert russian.log[-1] == "b3 просит вас показать комбинацию («покажи»): покажите её."
    # a question to another seat is its own: the talk says it
    other = THREE_ASKED[-1].replace("pending=rost:1:0", "pending=rost:0:1")
    assert fold_all([*THREE_ASKED[:-1], other]).log[-1] == "b2: rost?"


def test_a_pokazhi_you_may_answer_skin_says_so() -> None:
    """Asked to show while skin is legal too (the asker has not played his card and it
    is his turn), the log says both answers, as the human style does (a club evening,
    s39: "you show it." alone, the prompt offering skin)."""
    state = fold_all(THREE_ASKED)
    shown = [
        "event seq=7 table=5 kind=call seat=0 call=ot-9 auto=0",
        "event seq=8 table=5 kind=call seat=2 call=pokazhi auto=0",
        THREE_ASKED[-1]
        .replace("seq=6", "seq=8")
        .replace("pending=rost:1:0", "pending=show:2:0")
        .replace("talk=0:igrayu,0:terts,1:rost?", "talk=0:igrayu,0:terts,1:rost?,0:ot-9,2:pokazhi")
        .replace("legal=ot-9", "legal=pokazyvayu,skin"),
    ]
    assert fold_all(shown, state).log[-1] == (
        "b3 asks you to show the combination (pokazhi): you show it, or have b3 play his"
        " card first (skin)."
    )
    russian = fold_all([*THREE_ASKED, *shown], TableState(lang=Lang.RU))
    assert russian.log[-1] == (
        "b3 просит вас показать комбинацию («покажи»): покажите её или велите игроку b3"
        " сначала сходить («скинь»)."
    )


def test_a_dave_put_to_you_says_the_stake() -> None:
    """A tryout (s40): dave's question never said what giving up costs; the ask's
    stake= (a dave table's, docs/protocol.md §6.3) is said in it, in either language."""
    asked = [
        "ok cmd=login name=b1 guest=1 token=T text=Hello, b1 (guest).",
        "ok cmd=sit table=5 seat=0 text=You sit at table 5, seat 0.",
        "event seq=1 table=5 kind=start players=b1,b2 match=m5",
        "event seq=2 table=5 kind=deal deal=1 dealer=1 turned=Kh score=0,0 hanging=0",
        "event seq=3 table=5 kind=call seat=0 call=igrayu auto=0",
        "event seq=4 table=5 kind=order player=0 trump=h first=0 fresa=-",
        "event seq=5 table=5 kind=call seat=1 call=dave auto=0",
        "ask seq=5 table=5 deal=1 phase=play seat=0 dealer=1 to_act=0 hand=7s,8s,9s,Kh,Ad "
        "turned=- fresa=- trump=h player=0 round=1 leader=0 trick= tricks=0,0 score=0,0 "
        "hanging=0 target=- pending=dave:1:0 shown= talk=0:igrayu,1:dave "
        "clock=60500 legal=prinimayu,sdayus players=2 stake=2",
    ]
    assert fold_all(asked).log[-1] == (
        "b2 says dave: give up at stake 2 (sdayus) or play on for the next (prinimayu)."
    )
    russian = fold_all(asked, TableState(lang=Lang.RU)).log[-1]
    assert russian.startswith("b2 говорит «даве»: сдайтесь за ставку 2 («сдаюсь»)"), russian


def test_a_match_cut_off_by_a_crash_is_shown_as_the_server_says_it() -> None:
    """After a kill -9 and a restart, the login's notice (docs/protocol.md §12), its
    fields before text=, is logged as its text: the player reads why his match went."""
    lost = (
        "info cut_off=m3 table=3 reason=server-lost text=Your last match, m3 at table 3,"
        " was cut off when its server was lost (2026-12-07 01:50 UTC): it is listed as"
        " server-lost; nobody won or lost, and it was not rated. 'games' lists it."
    )
    told = fold_all([*BANNER, *START, *AGAIN, PONG, lost])
    assert told.log[-1] == lost[lost.index("text=") + len("text=") :]


def test_a_seek_whose_table_failed_before_seating_us_is_no_longer_waited_for() -> None:
    """A table opened for our seek that fails before it seats us (its match number not
    drawn: a full disk) says `info closed=T …`, T a table we never sat at, and the seek
    is over (docs/protocol.md §11.4). The lobby pane said the wait on ('Waiting for a
    2-player moscow game … unseek to stop'), for a game never to come."""
    seeking = fold_all(
        [
            "ok cmd=login name=misha guest=1 token=T text=Hello, misha (guest).",
            "ok cmd=seek players=2 variant=moscow options=to-301 text=Waiting for a 2-player"
            " moscow game (to-301).",
        ]
    )
    assert seeking.seeking is not None
    closed = fold(seeking, "info closed=1 text=table 1 failed and closes; sorry")
    assert closed.seeking is None
    assert table_text(closed).splitlines()[1].startswith("'seek 2'")  # to seek again
    assert closed.log[-1] == "table 1 failed and closes; sorry"
    # any other notice leaves the wait as it was
    other = fold(seeking, "info text=the server restarts in 5 minutes")
    assert other.seeking == seeking.seeking


def test_a_tertz_table_asks_ot_chego_in_its_own_words() -> None:
    """A whole Tertz match played in the client (s41): the opponent's rost? was said
    'rost?' on the Talk line, in the log and in the question ('how high the combination
    goes (rost?)'), and offered as 'rost?' among our calls, while 'calls' at the table
    told 'ot chego?': Deberts's word at a Tertz table. Tertz's own, as the server's
    Russian says «от чего?»."""
    asked = (
        TERTZ[-1]
        .replace("seq=2 ", "seq=5 ")
        .replace("pending=-", "pending=rost:0:1")
        .replace("talk=", "talk=1:terts,0:terts,0:rost?")
        .replace("legal=terts,7c,8c,9c,Ad,Kd,10s,8s,7s,9d", "legal=ot-9,pishet")
    )
    state = fold_all([*TERTZ, "event seq=3 table=4 kind=call seat=1 call=terts auto=0"])
    state = fold(state, "event seq=4 table=4 kind=call seat=0 call=terts auto=0")
    state = fold(state, "event seq=5 table=4 kind=call seat=0 call=rost? auto=0")
    state = fold(state, asked)
    assert "b1: ot chego?" in state.log, state.log
    assert state.log[-1] == (
        "b1 asks you how high the combination goes (ot chego?): you name its top."
    )
    assert "b1 ot chego?" in table_text(state)
    # our own, when the opponent declared: offered and said in Tertz's words too
    ours = fold(
        state,
        asked.replace("seq=5 ", "seq=6 ")
        .replace("pending=rost:0:1", "pending=-")
        .replace("legal=ot-9,pishet", "legal=rost?,7c"),
    )
    assert legal_text(ours).startswith("Your call: ot chego? | "), legal_text(ours)
    # a Deberts table still says rost?
    deberts = fold_all(START)
    assert deberts.spoken("rost?") == "rost?"


def test_a_tertz_table_waiting_for_its_match_says_talon_not_fresa() -> None:
    """Seated at a Tertz table before its first deal the table pane read 'Turned: -
    Fresa: -': Deberts's fresa, which Tertz has not."""
    sat = TERTZ[0]
    told = "table id=4 players=2 variant=tertz options=to-301 seats=-,b2 state=waiting observers=0"
    state = fold_all([sat, "tables count=1 total=1 page=1 pages=1", told])
    assert state.variant == "tertz"
    assert "Turned: -   Talon: -   Trump: -\n" in table_text(state)
    moscow = fold_all(
        [sat, "tables count=1 total=1 page=1 pages=1", told.replace("tertz", "moscow")]
    )
    assert "Turned: -   Fresa: -   Trump: -\n" in table_text(moscow)


def test_tab_completes_a_tertz_call_in_the_words_its_prompt_shows() -> None:
    """A whole Tertz match in the client (s41): the prompt offered 'ot chego?' and
    'mariage', but 'o' and Tab gave 'ot-K', 'm' and Tab 'menyayu' alone: completion read
    the tokens only. The table's English words first, then the tokens; a Deberts table
    as before."""
    tertz = fold_all(TERTZ)
    words, legal = tertz.words, ("rost?", "bella", "menyayu", "ot-K", "7c")
    assert candidates("o", legal, Lang.EN, words)[:2] == ["ot chego?", "ot-K"]
    assert candidates("m", legal, Lang.EN, words) == ["mariage", "menyayu"]
    assert candidates("b", legal, Lang.EN, words) == [
        "bella",
        "bot",
    ]  # the token still, then a command
    assert candidates("r", legal, Lang.EN, words)[0] == "rost?"
    assert candidates("o", legal, Lang.EN)[0] == "ot-K"  # no table words: the tokens


def test_a_tertz_deals_split_is_not_marked_in_the_score_pane() -> None:
    """A whole Tertz match in the client (s41): every row read '1s', '2s' (split, each
    Tertz deal's end, docs/rules.md §12.6), a mark that said nothing. Unmarked as a
    Deberts deal made is; another end still marked."""
    state = fold_all(
        [
            *TERTZ,
            "event seq=35 table=4 kind=deal-end deal=1 outcome=split points=90,60 "
            "written=90,60 totals=90,60 hanging=0",
            "event seq=36 table=4 kind=deal deal=2 dealer=1 turned=10c score=90,60 hanging=0",
            "event seq=70 table=4 kind=deal-end deal=2 outcome=timeouts points=0,150 "
            "written=0,150 totals=90,210 hanging=0",
        ]
    )
    rows = score_text(state).splitlines()
    assert rows[2:4] == ["  1       90     60", "  2t       0    150"], rows


def test_f7_seeks_the_game_last_played_and_seek_2_before_any() -> None:
    """F7 sent 'seek 2' after a Tertz match, which waits for a Moscow game: it seeks the
    game the match played (its players, variant and options, as its 'tables' line said
    them), at its end, in the lobby after 'leave' and while watching another table."""
    assert seek_line(TableState()) == "seek 2"
    told = "table id=4 players=2 variant=tertz options=to-301 seats=b1,b2 state=playing observers=0"
    playing = fold_all([*TERTZ, "tables count=1 total=1 page=1 pages=1", told])
    end = "event seq=90 table=4 kind=match-end winner=1 name=b2 reason=target totals=120,301"
    over = fold(playing, end)
    assert seek_line(over) == "seek 2 tertz to-301"
    left = fold(over, "ok cmd=leave text=You left table 4.")
    assert left.table is None and seek_line(left) == "seek 2 tertz to-301"
    watched = fold_all(
        [
            "ok cmd=observe table=3 text=You watch table 3.",
            "tables count=1 total=1 page=1 pages=1",
            OUR_TABLE,
        ],
        left,
    )
    assert watched.variant == "moscow" and seek_line(watched) == "seek 2 tertz to-301"
    # seated at a table whose match has not started: the game played before, still
    sat = fold(left, "ok cmd=sit table=5 seat=0 text=You sit at table 5, seat 0.")
    assert seek_line(sat) == "seek 2 tertz to-301"
    # a game of no options: none named; a game its 'tables' line never named: 'seek 2'
    no_options = OUR_TABLE.replace("options=to-301", "options=")
    bare = fold_all([*START, "tables count=1 total=1 page=1 pages=1", no_options])
    assert seek_line(fold(bare, end.replace("table=4", "table=3"))) == "seek 2 moscow"
    assert seek_line(fold_all(START)) == "seek 2"  # (no 'tables' line: not known)


def test_a_trick_whose_first_card_came_unseen_keeps_who_laid_the_rest() -> None:
    """A client that came mid-trick (an observer's view, a reconnect: b2's 7♣ laid
    before it could see it) saw b1 lay K♣: the turn goes round the table, so that one
    card places the trick's every card. It took both as laid by nobody (seat -1), and
    the Last line showed the cards without who laid them."""
    unseen_lead = [line for line in START if "kind=play" not in line and "ask " not in line]
    state = fold_all(
        [
            *unseen_lead,
            "event seq=8 table=3 kind=play seat=0 card=Kc auto=0",
            "event seq=9 table=3 kind=trick winner=0 cards=7c,Kc",
        ]
    )
    assert state.last_trick == ((1, "7c"), (0, "Kc"))
    assert "Last:   b2 7♣  b1 K♣\n" in table_text(state)


def test_a_trick_none_of_whose_cards_were_seen_says_who_laid_them_is_not_known() -> None:
    """Every card of the trick laid before the client could see it: who laid which is
    not known, and the Last line says so (the winner's name is in the log's line)."""
    unseen = [line for line in START if "kind=play" not in line and "ask " not in line]
    state = fold_all([*unseen, "event seq=9 table=3 kind=trick winner=0 cards=7c,Kc"])
    assert state.last_trick == ((-1, "7c"), (-1, "Kc"))
    text = table_text(state)
    assert "Last:   7♣  K♣ (who laid each: not seen)\n" in text and "-1" not in text
    assert state.log[-1] == "b1 takes 7♣ K♣"
    russian = table_text(attrs.evolve(state, lang=Lang.RU))
    assert "Прошлая: 7♣  К♣ (кто что положил — не видно)\n" in russian
    # 'last' tells the seats: the line is whole again
    told = fold(state, "last table=3 deal=1 leader=1 cards=7c,Kc winner=0")
    assert "Last:   b2 7♣  b1 K♣\n" in table_text(told)


def test_a_void_deal_is_logged_as_dealt_again_in_either_language() -> None:
    """'deal 1 void: …' where the Russian says «пересдача» (s43's leftover): the English
    says the deal is dealt again too, `redealt` as the sheet says it (s44); the Russian
    is as it was."""
    void = (
        "event seq=12 table=3 kind=deal-end deal=1 outcome=void points=0,0 written=0,0 "
        "totals=0,0 hanging=0"
    )
    state = fold_all([*START, void])
    assert state.log[-1] == "deal 1 redealt: written 0 : 0, totals 0 : 0"
    russian = fold_all([*START, void], TableState(lang=Lang.RU))
    assert russian.log[-1] == "раздача 1: пересдача, записано 0 : 0, итого 0 : 0"
    # the score pane marks it by that word's letter: 'r' (it was 'v'), «п»
    assert score_text(state).splitlines()[2].split()[0] == "1r"
    assert score_text(russian).splitlines()[2].split()[0] == "1п"
