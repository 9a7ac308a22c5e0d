"""'history' says the stake a dave game's deal was played for where a dave raised it
(docs/protocol.md §5.17): the table said 'The deal is now played for 2.' («Раздача
теперь играется на 2.») as each raise was accepted, and the history said nothing of it:
a deal written 3 : -3 read as one at stake 1. A finished deal's from its record's note
(`stake N`, a given-up deal's too), the deal being played's from the deal; the machine
style appends `stake=`, which the terminal client reads back. A deal at stake 1 says
nothing more."""

from __future__ import annotations

from clients.play.replies import history_text
from deberc_net.game.match import Match
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import HUMAN, MACHINE, history_lines, render
from deberc_net.protocol.wire import parse_line
from deberc_net.server.table_views import history_deals, history_in_play
from deberc_net.testing import build_deck, build_ruleset, parse
from tests.game.decks import SIMPLE, SIMPLE_PLAY

TWO = ("ann", "bob")


def _say(match: Match, seat: int | None, tokens: str) -> None:
    for token in tokens.split():
        who = match.deal.to_act if seat is None else seat
        assert who is not None
        match.apply(who, parse(token))


def _history(match: Match) -> ev.History:
    deals = [*history_deals(match.records)]
    if not match.over:
        deals.append(history_in_play(match.deal))
    return ev.History(5, "m9", TWO, ((0,), (1,)), tuple(deals), deal_won_on_points=True)


def _read_back(history: ev.History, lang: Lang = Lang.EN) -> list[str]:
    machine = [parse_line(x) for x in render(history, MACHINE)]
    return history_text(machine, history.names, on_points=True, lang=lang)


def _dave_match(*options: str) -> Match:
    rules = build_ruleset(2, options=("dave", *options))
    match = Match(rules, seed="stake", dealer=1, decks={1: build_deck(*SIMPLE)}, names=TWO)
    _say(match, 0, "igrayu dave")
    _say(match, 1, "prinimayu")  # the deal is played for 2 now
    return match


def test_a_raised_stake_is_said_while_the_deal_is_played_and_after_it() -> None:
    match = _dave_match()
    playing = _history(match)
    assert playing.deals[-1].stake == 2
    human = render(playing, HUMAN)
    assert human[-1] == "    The deal is now played for 2.", human
    assert history_lines(playing, Lang.RU)[-1] == "    Раздача теперь играется на 2."
    assert render(playing, MACHINE)[-1].endswith(" tricks=0 stake=2")
    assert _read_back(playing) == human
    _say(match, None, "Jc")
    _say(match, 1, "dave")
    _say(match, 0, "prinimayu")  # 3
    _say(match, None, SIMPLE_PLAY[len("Jc ") :])
    assert match.records[0]["notes"] == ["stake 3"] and match.records[0]["written"] == [3, -3]
    over = _history(match)
    human = render(over, HUMAN)
    assert human[1].startswith("Deal 1") and human[2] == "    The deal was played for 3.", human
    assert history_lines(over, Lang.RU)[2] == "    Раздача игралась на 3."
    assert render(over, MACHINE)[1].endswith(" tricks=9 stake=3")
    assert _read_back(over) == human
    assert _read_back(over, Lang.RU)[2] == "    Раздача игралась на 3."


def test_a_deal_given_up_after_a_raise_says_its_stake_and_one_at_1_says_none() -> None:
    match = _dave_match()
    _say(match, None, "Jc")
    _say(match, 1, "dave")
    _say(match, 0, "sdayus")  # ann gives up at 2
    (deal,) = _history(match).deals
    assert (deal.outcome, deal.written, deal.stake) == ("gave-up", (-2, 2), 2)
    assert "    The deal was played for 2." in render(_history(match), HUMAN)
    rules = build_ruleset(2, options=("dave",))
    plain = Match(rules, seed="stake", dealer=1, decks={1: build_deck(*SIMPLE)}, names=TWO)
    _say(plain, 0, "igrayu")
    assert _history(plain).deals[-1].stake is None  # stake 1: nothing raised
    _say(plain, None, SIMPLE_PLAY)
    history = _history(plain)
    assert plain.records[0]["notes"] == ["stake 1"] and history.deals[0].stake is None
    assert not any("played for" in x for x in render(history, HUMAN))
    assert " stake=" not in render(history, MACHINE)[1]
