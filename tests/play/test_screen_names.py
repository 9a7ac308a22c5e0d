"""How the terminal client writes the players' names: in screen cells, one short form a
name on the screen, pairs as pairs; and a short game's deal named by its winner."""

from __future__ import annotations

import re
import unicodedata

from rich.cells import cell_len

from clients.play.draw import score_text, table_text, wrapped
from clients.play.state import fold_all
from deberc_net.protocol.render import short_name

# a two-player deal at table 3 (docs/protocol.md §15.2), seat 0's view, NAME0 and NAME1
DEAL = [
    "ok cmd=login name=NAME0 guest=1 token=T text=Hello.",
    "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0.",
    "event seq=1 table=3 kind=start players=NAME0,NAME1 match=m3",
    "event seq=2 table=3 kind=deal deal=1 dealer=0 turned=Ad score=0,0 hanging=0",
    "event seq=3 table=3 kind=call seat=1 call=igrayu auto=0",
    "event seq=4 table=3 kind=order player=1 trump=d first=1 fresa=10c",
    "event seq=5 table=3 kind=play seat=1 card=7c auto=0",
    "ask seq=5 table=3 deal=1 phase=play seat=0 dealer=0 to_act=0 "
    "hand=8h,Jh,Qh,7d,Qd,9d,Jd,8c,Kc turned=Ad fresa=10c trump=d player=1 round=1 leader=1 "
    "trick=7c tricks=0,0 score=0,0 hanging=0 target=301 pending=- shown= talk=1:igrayu "
    "clock=10500 legal=menyayu,Kc,8c players=2",
]


def dealt(first: str, second: str) -> list[str]:
    return [line.replace("NAME0", first).replace("NAME1", second) for line in DEAL]


def test_a_name_is_shortened_by_the_columns_it_takes_not_its_characters() -> None:
    """'汉字汉字汉字名前' is 8 characters and 16 columns: counted as 8 it was written
    whole in a 7-column score head and pushed the pane's columns apart; an accented
    name written with combining marks was shortened though it fitted."""
    assert short_name("汉字汉字汉字名前", 6) == "汉~前"
    assert cell_len(short_name("汉字汉字汉字名前", 5)) <= 5
    assert short_name("Zoe\u0308", 3) == "Zoe\u0308"  # three columns: whole
    # a cut never parts an accent from its letter, nor an emoji from its joiner
    assert short_name("Jose\u0301-Mari\u0301a", 6) == "Jos~i\u0301a"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one picture, two columns
    assert short_name("ann" + family * 3, 6) == "ann~" + family
    state = fold_all(dealt("汉字汉字汉字名前", "Zoe\u0308"))
    head = score_text(state).splitlines()[1]
    assert cell_len(head) == len("Deal ") + 2 * 7, head  # two columns of seven
    assert head.endswith("    Zoe\u0308") and "汉~前" in head
    assert all(cell_len(line) <= 51 for line in table_text(state, 9_000).splitlines())


def test_the_log_breaks_a_line_with_a_wide_name_between_words() -> None:
    """The history's deal line after a Chinese name was cut mid-word by columns,
    'house-he' / 'uristic-2 0' (textwrap counts characters, the terminal columns)."""
    entry = (
        "Deal 1, 汉字汉字汉字名前 deals, no trump: void, 汉字汉字汉字名前 0, house-heuristic-2 0"
    )
    lines = wrapped(entry, 78)
    assert lines[-1] == "house-heuristic-2 0" and " ".join(lines) == entry
    assert all(cell_len(line) <= 78 for line in lines)
    trick = wrapped("  1 汉字汉字汉字名前 K♦ house-heuristic-2 J♦ > 汉字汉字汉字名前", 30)
    assert trick == ["  1 汉字汉字汉字名前 K♦", "house-heuristic-2 J♦ >", "汉字汉字汉字名前"]


def test_a_line_of_as_many_wide_characters_as_marks_is_wrapped_by_columns() -> None:
    """A Chinese name saying something in decomposed Vietnamese: 8 wide characters and
    8 combining marks make as many columns as characters, so the line was left to
    textwrap, whose first piece took 84 columns of the log's 80 (the pane wrapped it
    again, the newest line pushed out of view); a mark was cut from its letter too."""
    text = unicodedata.normalize(
        "NFD", "good game, well played all of you! one more round now? một ván nữa nhé bạn, chơi đi"
    )
    state = fold_all([f"say from=汉字汉字汉字名前 table=8 text={text}"])
    entry = state.log[-1]
    assert cell_len(entry) == len(entry)  # the line's count hides the wide characters
    lines = wrapped(entry, 80)
    assert all(cell_len(line) <= 80 for line in lines), lines
    assert " ".join(line.removeprefix("  | ") for line in lines) == entry  # a say's mark
    balanced = "汉汉汉汉汉汉 " + "e\u0301" * 6
    lines = wrapped(balanced, 10)
    assert all(cell_len(line) <= 10 and cell_len(line[:1]) for line in lines), lines
    assert lines == ["汉汉汉汉汉", "汉 " + "e\u0301" * 6]


def test_the_result_of_a_match_won_by_a_wide_name_fits_the_table_pane() -> None:
    """The result's lines were wrapped by characters: a winner of twenty Chinese
    characters (forty columns) made a line of 58 columns, which the pane wrapped again."""
    wide = "汉字" * 10
    state = fold_all(
        [
            *dealt(wide, "b2"),
            f"event seq=9 table=3 kind=match-end winner=0 name={wide} reason=timeouts "
            "totals=0,0 seed=ab",
        ]
    )
    lines = table_text(state).splitlines()
    assert all(cell_len(line) <= 51 for line in lines), lines
    assert state.result is not None
    assert "".join(lines[-2:]).replace(" ", "") == state.result.replace(" ", "")


def test_a_long_name_has_one_short_form_on_the_whole_screen() -> None:
    """'house-heuristic-1' read 'house-heuri~-1' on the seats' line, 'house-~-1' on
    the trump's and 'hou~-1' in the score pane: three names for one player."""
    state = fold_all(dealt("汉字汉字汉字名前", "house-heuristic-1"))
    table = table_text(state, 9_000)
    assert table.splitlines()[0] == "Table 3, deal 1: 汉~前* v hou~-1"
    assert "Score" in score_text(state) and "hou~-1" in score_text(state).splitlines()[1]
    shown = table + "\n" + score_text(state)
    assert set(re.findall(r"h\S*~\S*", shown)) == {"hou~-1"}, shown
    # a line with room for whole names writes them whole; one without, the short form
    fits = fold_all(dealt("anna", "volodymyr"))
    lines = table_text(fits).splitlines()
    assert lines[0] == "Table 3, deal 1: anna* v volodymyr"
    assert lines[2] == "Turned: A♦   Fresa: 10♣   Trump: ♦ (vol~yr plays)"
    assert "vol~yr" in score_text(fits)


def test_four_players_are_logged_as_their_pairs() -> None:
    """'the game starts: a v b v c v d' while the table pane says 'a+c v b+d'."""
    state = fold_all(
        [
            "ok cmd=login name=anna guest=1 token=T text=Hello.",
            "ok cmd=sit table=8 seat=0 text=You sit at table 8, seat 0.",
            "event seq=1 table=8 kind=start players=anna,vera,olga,nina match=m8",
        ]
    )
    assert state.log[-1] == "the game starts: anna+olga v vera+nina"
    assert "anna*+olga v vera+nina" in table_text(state)
    two = fold_all(dealt("b1", "b2"))
    assert "the game starts: b1 v b2" in two.log


SHORT = [
    *DEAL[:2],
    "tables count=1 total=1 page=1 pages=1",
    "table id=3 players=2 variant=moscow options=short seats=NAME0,NAME1 state=playing observers=0",
    *DEAL[2:],
    # seat 1 ordered and lost: outcome bide by the order's measure (docs/rules.md §11)
    "event seq=30 table=3 kind=deal-end deal=1 outcome=bide points=90,72 written=1,-1 "
    "totals=1,-1 hanging=0",
]


def test_a_short_games_deal_names_its_winner_not_a_bide() -> None:
    """In 'short' who ordered does not matter: more points wins. The log said 'deal 1
    bide' and the score '1b' though nobody is bide in a game without one (seed 000's
    «без байда»)."""
    state = fold_all(line.replace("NAME0", "anna").replace("NAME1", "boris") for line in SHORT)
    assert state.log[-1] == "deal 1 won by anna: written 1 : -1, totals 1 : -1"
    assert score_text(state).splitlines()[2] == "  1        1     -1"
    # its sheet in the log, as the server's human style writes it: the deal's winner
    state = fold_all(
        [
            "sheet table=3 deals=1 target=-",
            "sheet-deal table=3 deal=1 outcome=bide written=1,-1 totals=1,-1 hanging=0 bides=0,1",
        ],
        state,
    )
    assert list(state.log[-2:]) == [
        "deal won by                 anna      boris",
        "   1 anna                    1 1      -1 -1",
    ]
    # and its history, as the server's human style writes it too (it said 'bide')
    state = fold_all(
        [
            "history table=3 match=m3 deals=1",
            "history-deal table=3 deal=1 dealer=0 trump=d player=1 outcome=bide "
            "written=1,-1 tricks=0",
        ],
        state,
    )
    assert state.log[-1] == "Deal 1, anna deals, trump ♦ (boris): won by anna, anna 1, boris -1"
    # 'short-bide' has a bide: it stays one
    bide = [
        line.replace("options=short", "options=short-bide").replace("1,-1", "2,-2")
        for line in SHORT
    ]
    state = fold_all(line.replace("NAME0", "anna").replace("NAME1", "boris") for line in bide)
    assert state.log[-1] == "deal 1 bide: written 2 : -2, totals 2 : -2"
    assert score_text(state).splitlines()[2] == "  1b       2     -2"


def test_a_deal_that_ended_before_the_tables_options_came_is_named_by_its_winner() -> None:
    """Watching a short game just observed, its deal-end may come before the answer to
    the 'tables' the client asks on 'observe': the score pane kept its 'b' for good."""
    state = fold_all(
        [
            "ok cmd=login name=eve guest=1 token=T text=Hello.",
            "ok cmd=observe table=3 text=You observe table 3.",
            "state seq=20 table=3 deal=1 phase=play seat=- dealer=0 to_act=0 hand= turned=Ad "
            "fresa=10c trump=d player=1 round=9 leader=1 trick= tricks=4,4 score=0,0 "
            "hanging=0 target=- pending=- shown= talk= clock=10500 legal= players=2",
            SHORT[-1],
            *SHORT[2:4],
        ]
    )
    assert state.options == ("short",)
    assert score_text(state).splitlines()[2] == "  1        1     -1"


def test_a_score_is_not_cut_across_lines() -> None:
    """A tryout (s29): the Game over line wrapped in the middle of the score ('totals -1'
    / ': -1 : 2')."""
    entry = "Game over: house-heuristic-4 and house-heuristic-5 win (target), totals -1 : -1 : 2"
    for width in (40, 70, 78):
        lines = wrapped(entry, width)
        assert " ".join(lines) == entry and all(len(line) <= width for line in lines)
        assert any(line.endswith("-1 : -1 : 2") for line in lines), lines
    assert wrapped("汉字汉字 totals 12 : 34", 12) == ["汉字汉字", "totals", "12 : 34"]
