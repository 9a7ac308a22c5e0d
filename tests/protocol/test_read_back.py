"""The read-back of the server's sentences (deberc_net/protocol/read_back.py: the
terminal client's --lang ru) for any name the server lets a player take: a list of
players is read item by item, and a name is never read as a sentence of its own."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import Msg, Phrase, phrase
from deberc_net.protocol.read_back import russian
from deberc_net.server.accounts import NAME_RULE, new_name
from tests.properties import examples

# names the server allows (accounts.new_name), and the ones the catalogue also says as a
# sentence of their own, which a player may still be called
NAMES = st.from_regex(NAME_RULE, fullmatch=True).filter(new_name)
WORDS = st.sampled_from(["guest", "nobody", "none", "waiting", "registered", "online"])
A_NAME = st.one_of(WORDS, NAMES)


def sentences(names: list[str]) -> list[Phrase]:
    """The sentences a terminal client reads back that name players, some in lists."""
    first, *others = names
    nothing = phrase(Msg.NOTHING)
    seats = tuple(phrase(Msg.SEAT_OF, name=n, seat=i) for i, n in enumerate(others, 1))
    away = tuple(phrase(Msg.AWAY_HELD, name=n, seconds=12 * i) for i, n in enumerate(names))
    return [
        phrase(Msg.SIT, table=2, seat=0, others=phrase(Msg.SIT_OTHERS, names=seats)),
        phrase(Msg.WAITS_FOR_PLAYERS, table=2, seats=(*names, phrase(Msg.FREE_SEAT))),
        phrase(Msg.WAITS_FOR_AWAY, table=2, names=away),
        phrase(Msg.REMATCH_PENDING, table=2, asked=(first,), waiting=tuple(others)),
        phrase(Msg.REMATCH_STANDING, table=2, asked=(first,), waiting=tuple(others)),
        phrase(Msg.REMATCH_ASK, table=2, waiting=phrase(Msg.REMATCH_WAITING, names=(first,))),
        phrase(Msg.KICKED, admin=first, why=nothing),
        phrase(Msg.UNMUTED, admin=first),
    ]


def test_a_list_of_players_reads_back_whole() -> None:
    """'anna (seat 0), boris (seat 1)' was read as one '{name} (seat {seat})' whose name
    was 'anna (seat 0), boris': the second stayed English («boris (seat 1)»)."""
    said = phrase(Msg.SIT_OTHERS, names=(phrase(Msg.SEAT_OF, name="anna", seat=0),))
    two = phrase(
        Msg.SIT,
        table=1,
        seat=2,
        others=phrase(
            Msg.SIT_OTHERS,
            names=(
                phrase(Msg.SEAT_OF, name="anna", seat=0),
                phrase(Msg.SEAT_OF, name="boris", seat=1),
            ),
        ),
    )
    assert (
        russian(two.text())
        == "Вы за столом 1, место 2. За столом: anna (место 0), boris (место 1)."
    )
    assert russian(said.text()) == said.text(Lang.RU)


@examples(200)
@given(st.lists(A_NAME, min_size=2, max_size=4, unique=True))
def test_every_allowed_name_reads_back_as_the_server_says_it(names: list[str]) -> None:
    for said in sentences(names):
        assert russian(said.text()) == said.text(Lang.RU), said.text()


def test_player_counts_read_back_with_russian_words() -> None:
    """'2, 3 or 4' in a refused count or rule (a tryout, s44) is «2, 3 или 4» in the
    terminal client's Russian, not 'or' among the Russian words."""
    assert russian(
        "no game here is played by 5: PLAYERS is 2, 3 or 4 (new [PLAYERS] [VARIANT] [OPTION ...])"
    ) == (
        "здесь нет игры на столько игроков (5): число игроков — 2, 3 или 4"
        " (new [ИГРОКОВ] [ВАРИАНТ] [ОПЦИИ…])"
    )
    told = russian("'short' is for 2 or 3 players, not 4: leave it out, or play with 2 or 3")
    assert told is not None and " or " not in told, told
    assert told.endswith("другое число игроков (2 или 3)"), told


def test_a_game_named_reads_back_with_its_russian_count() -> None:
    """'moscow for 2 players, to-301' («moscow на двоих, to-301», as the web names a
    game): the count, a sentence of its own beside the options, read back whole in a
    seek, an invitation, a table's line; a pattern of any text left it in English, or
    took the options with it (s47)."""
    cases = {
        "Waiting for a moscow game for 2 players (to-301).": (
            "Ждём партию: moscow на двоих (to-301)."
        ),
        "Waiting for a kharkov game for 4 players.": "Ждём партию: kharkov на четверых.",
        "anna invites you to private table 3 (moscow for 3 players, to-301 short): 'sit 3'"
        " to play.": "anna зовёт вас за закрытый стол 3 (moscow на троих, to-301 short):"
        " наберите sit 3.",
        "Table 2: tertz for 2 players, options: to-301.": (
            "Стол 2: tertz на двоих, опции: to-301."
        ),
    }
    for english, said in cases.items():
        assert russian(english) == said, english
