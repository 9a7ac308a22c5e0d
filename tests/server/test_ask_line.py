"""server/ask_line.py writes, from the match's state, exactly the ``ask`` (and ``state``)
line that the view and the generic renderer write (protocol/render.py, the definition
of the line): compared on every state of self-played matches over rule sets that use
every field (2, 3 and 4 players, the talk and shown combinations, a hidden fresa, the
turned card in the dealer's hand, manual claims, Tertz's own fields); with the talk
field read afresh and kept from ask to ask as a table keeps it."""

from __future__ import annotations

import gc
import random
import weakref
from typing import Any

import attrs
import pytest

from deberc_net.game.deal import Deal
from deberc_net.game.match import Match
from deberc_net.game.talk import Pending
from deberc_net.game.view import view
from deberc_net.plugins import RuleBook, RuleInfo, hookimpl
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import MACHINE, render
from deberc_net.server.ask_line import KeptTalk, ask_line
from deberc_net.testing import build_ruleset

RULE_SETS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (2, "moscow", ()),
    (3, "moscow", ()),
    (4, "moscow", ("pair-combinations", "partner-exemption", "show-combination")),
    (2, "moscow", ("manual-claim", "table-penalties", "bella-after-trick")),
    (3, "kharkov", ("sequence-by-strength", "swap-before-extra")),
    (3, "moscow", ("commitment", "player-leads", "fresa-hidden", "bide-to-leader")),
    (2, "moscow", ("deberts", "poltinniki", "stake-5", "hanging-separate")),
    (2, "tertz", ()),
    (2, "moscow", ("dave", "dave-geometric", "to-9-stakes")),  # stake= appended
)


@pytest.fixture(scope="module")
def book() -> RuleBook:
    return RuleBook.load()


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=lambda r: f"{r[0]}/{r[1]}/{','.join(r[2])}")
def test_the_ask_line_is_the_rendered_view_on_every_state(
    book: RuleBook, rule_set: tuple[int, str, tuple[str, ...]]
) -> None:
    rules = book.ruleset(*rule_set)
    rng = random.Random(str(rule_set))
    compared = 0
    fields_seen: set[str] = set()
    for game in range(20):  # until enough states are compared
        if compared >= 400:
            break
        match = Match(rules, seed=f"ask-line/{game}", match_id=f"m{game}", table="7")
        seq = 0
        kept = KeptTalk()  # a table's: the talk field kept from ask to ask, deal to deal
        while match.result is None:
            seq += 1
            clock = rng.choice((None, 0, 12_345))
            for seat in range(rules.settings.players):
                kind = ev.AskKind.ASK if seat == match.to_act else ev.AskKind.STATE
                told = ev.Ask(seq, 7, view(match, seat), clock, kind=kind)
                (expected,) = render(told, MACHINE)
                assert ask_line(kind, seq, 7, match, seat, clock) == expected
                assert ask_line(kind, seq, 7, match, seat, clock, kept) == expected
                fields_seen.update(
                    part.partition("=")[0]
                    for part in expected.split(" ")[1:]
                    if not part.endswith(("=", "=-"))
                )
                compared += 1
            actor = match.deal.to_act
            assert actor is not None
            match.apply(actor, rng.choice(match.legal_calls(actor)))
    assert compared >= 400
    # each of these fields was seen with a value (neither empty nor '-') at least once
    assert {"hand", "trick", "legal", "score", "tricks"} <= fields_seen
    if rule_set[0] == 4:
        assert {"shown", "talk"} <= fields_seen
    # dave's stake (docs/protocol.md §6.3) is told at its tables, and only there
    assert ("stake" in fields_seen) == ("dave" in rule_set[2])


class _RetoldDeal(Deal):
    """A game of its own that tells its question and shown cards its own way (the
    engine's ``Deal`` reads both off its talk): a question told as asked by the seat
    that answers it, and only the first card of each seat's shown."""

    @property
    def pending(self) -> Pending | None:
        asked = self.talk.pending
        return None if asked is None else attrs.evolve(asked, asker=asked.answerer)

    @pending.setter
    def pending(self, question: Pending | None) -> None:
        self.talk.pending = question

    @property
    def shown(self) -> dict[int, list[int]]:
        return {seat: cards[:1] for seat, cards in self.talk.shown.items()}


class _Retold:
    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="retold-test", kind="variant", summary="a game", players=(4,))

    @hookimpl
    def deberc_deal_class(self, settings: object) -> Any:
        return _RetoldDeal


def test_a_game_that_tells_its_question_and_shown_cards_its_own_way_is_asked_so() -> None:
    """A plugin's deal class whose ``pending`` and ``shown`` are its own: the ask line
    writes what they say, as the view does (the ask line reads the talk of the
    engine's own deals straight, never a subclass's)."""
    rules = build_ruleset(4, "retold-test", ("show-combination",), plugins=(_Retold(),))
    rng = random.Random("retold")
    told: set[str] = set()
    for game in range(40):
        match = Match(rules, seed=f"retold/{game}", match_id=f"m{game}", table="7")
        kept = KeptTalk()
        seq = 0
        while match.result is None:
            seq += 1
            seat = match.deal.to_act
            assert seat is not None
            (expected,) = render(ev.Ask(seq, 7, view(match, seat), None), MACHINE)
            assert ask_line(ev.AskKind.ASK, seq, 7, match, seat, None, kept) == expected
            told.update(
                part.partition("=")[0]
                for part in expected.split(" ")
                if part.startswith(("pending=", "shown=")) and not part.endswith(("=", "=-"))
            )
            match.apply(seat, rng.choice(match.legal_calls(seat)))
        if told == {"pending", "shown"}:
            break
    assert told == {"pending", "shown"}  # both told their own way, at least once


def test_a_deal_class_asked_about_goes_with_its_deals() -> None:
    """The ask line keeps nothing by deal class: a class made per table (a plugin's) is
    freed with its table's match once asked about (it was kept for ever, one a table)."""
    rules = attrs.evolve(build_ruleset(2, "moscow", ()), deal_class=type("OwnDeal", (Deal,), {}))
    match = Match(rules, seed="class-per-table", match_id="m1", table="7")
    kind = type(match.deal)
    assert kind is not Deal and not kind.own_view
    seat = match.deal.to_act
    assert seat is not None
    (expected,) = render(ev.Ask(1, 7, view(match, seat), None), MACHINE)
    assert ask_line(ev.AskKind.ASK, 1, 7, match, seat, None, KeptTalk()) == expected
    gone = weakref.ref(kind)
    del rules, match, kind
    gc.collect()
    assert gone() is None


def test_a_deal_class_knows_whether_its_view_is_its_own() -> None:
    """``Deal.own_view``, set for each subclass as it is made: the ask line's one test."""
    assert not Deal.own_view
    assert _RetoldDeal.own_view

    class Viewed(Deal):
        def view_fields(self, seat: int | None) -> tuple[tuple[str, object], ...]:
            return ()

    class Plain(Deal):
        pass

    assert Viewed.own_view
    assert not Plain.own_view
