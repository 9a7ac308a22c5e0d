"""The replay of a finished match (``/games/ID``): each deal rebuilt by the engine from
its ``deberc-deal/1`` record, and what the page shows folded from the events the rebuilt
deal told, the ones a table tells its players (``ReplayFold``), as the record itself is
(game/record.py: RecordFold).

The events are public facts and never say a hand, but a finished deal's page shows
each seat's hand as it held it for its first card (docs/web.md): that comes from the
rebuilt deal, which keeps it for the talk (``Talk.window_hands``); docs/architecture.md
says why it is not worked out from the events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from deberc_net.game.calls import MENYAYU, PLAY, Call
from deberc_net.game.cards import Card, card_str, parse_card
from deberc_net.game.deal import Deal
from deberc_net.game.events import (
    CallMade,
    CardPlayed,
    DealStarted,
    MatchEvent,
    Ordered,
    Penalized,
    Shown,
    TrickTaken,
    Unveiled,
)
from deberc_net.game.outcomes import Outcome
from deberc_net.game.record import draws_per_trick, replay_calls, unveil
from deberc_net.game.rules import RuleSet
from deberc_net.plugins import RuleBook
from deberc_net.protocol import events as ev
from deberc_net.protocol.ends import said_konets, told_reason
from deberc_net.protocol.lang import NO_WORDS, Lang, ru_call, ru_card, spoken_call, table_words
from deberc_net.protocol.messages import RU_ERRORS, Msg, phrase
from deberc_net.protocol.render import (
    breaks_deck,
    deal_winner,
    deal_word,
    hung_said,
    pretty_card,
    scored_lines,
)

from ..store.base import SHUTDOWN, STOPPED
from . import words
from .ends import forfeit_seat, match_over_words, page_end_words
from .words import W


@attrs.frozen
class Trick:
    leader: int
    plays: list[tuple[int, str]]  # (seat, card) in play order
    winner: int | None  # None: left unfinished (a forfeit, a penalty)
    # a game with a talon (Tertz, docs/rules.md §12.2): the cards drawn after this trick,
    # winner first, and how many the talon holds after them (None: no talon)
    draws: list[tuple[int, str]] = attrs.Factory(list)
    talon: int | None = None
    # a game with a talon: the seat that swapped its trump 7 for the turned card before
    # its card in this trick, and that card (docs/rules.md §12.3: at any trick)
    swap: tuple[int, str] | None = None
    # the seats whose card in it the clock played (auto=1: their time ran out)
    by_clock: frozenset[int] = frozenset()


@attrs.frozen
class ReplayedDeal:
    deal_no: int
    dealer: int
    hands: list[list[str]]  # by seat, as held at the first lead (all cards dealt)
    turned: str | None
    trump: str | None
    player: int | None
    talk: list[tuple[int, str]]  # (seat, call) before the first lead, and the declarations
    tricks: list[Trick]
    outcome: str
    # a game with a talon (Tertz): the cards it held at the first lead (the turned one
    # included), and N of the loser's break, lomayu-N (None: no talon, or not broken)
    talon: int | None
    talon_broken: int | None
    written: list[int]
    totals: list[int]  # after the deal, as the replay gives them
    record: dict[str, Any]
    talk_ru: list[tuple[int, str]] = attrs.Factory(list)  # the talk as a Russian page says it
    # the trick each entry of the talk was said in, 1-based: the tricks taken before it,
    # plus one (a Tertz declaration at any trick, docs/rules.md §12.5; Deberts' bella)
    talk_tricks: list[int] = attrs.Factory(list)
    # whether the clock made each entry of the talk for its seat (auto=1)
    talk_by_clock: list[bool] = attrs.Factory(list)
    # whether the clock made the break (its loser let the prompt run out): marked as
    # the talk's entry is, and as 'history' marks it
    talon_broken_by_clock: bool = False
    # what each seat's declarations counted, as `history` says it ('Scored for
    # combinations: vic terts 20, hundred kings 100.'; '' if none), English and Russian
    scored: str = ""
    scored_ru: str = ""
    # the hanging points as the deal's end told the table: what a hanging bide left
    # hanging ('82 points hang.'), and who wrote the points that hung into this deal
    # ('The 82 points that hung go to bob.'); '' if neither, English and Russian
    hung: str = ""
    hung_ru: str = ""
    # a short game's deal, where the most points win whoever ordered: its winner as the
    # table and 'sheet' said it ('won by bob', «победитель — bob»), not 'bide'; '' else
    won_by: str = ""
    won_by_ru: str = ""
    # a dave game's deal whose stake a dave raised: the stake it was played for, as
    # 'history' says it ('The deal was played for 3.'); '' else, English and Russian
    stake: str = ""
    stake_ru: str = ""


@attrs.frozen
class Replay:
    match: str
    players: list[str]
    variant: str
    options: list[str]
    deals: list[ReplayedDeal]
    totals: list[int]
    # the winning side's names (empty for a draw or a match stopped); ``winner`` joins
    # them by ', ' (None then), as old clients of /api/games read it
    winners: list[str]
    reason: str  # why the match ended (docs/records.md match_over), or why it stopped
    forfeit: int | None = None  # the seat that forfeited it, if known (ends.forfeit_seat)

    @property
    def winner(self) -> str | None:
        return ", ".join(self.winners) or None

    @property
    def why(self) -> str:
        """Why it ended, in words ('bob was away too long: forfeit'): a forfeit names
        who lost it, when known; an automatic claim its winners."""
        return page_end_words(self._told, self.winners, self._forfeited())

    @property
    def over(self) -> str:
        """How it ended, as the live page says it ('Match over: bob wins (…).')."""
        return match_over_words(self.winners, self._told, self._forfeited())

    def why_in(self, lang: Lang) -> str:
        """``why`` in ``lang``."""
        return page_end_words(self._told, self.winners, self._forfeited(), lang)

    def over_in(self, lang: Lang) -> str:
        """``over`` in ``lang`` ('Партия окончена: bob выигрывает (…).')."""
        return match_over_words(self.winners, self._told, self._forfeited(), lang)

    def _forfeited(self) -> str | None:
        return None if self.forfeit is None else self.players[self.forfeit]

    @property
    def _told(self) -> str:
        """Its reason as the words look it up: a seat's true konets named so."""
        return told_reason(self.reason, said_konets(self.reason, self.options))

    @property
    def stopped(self) -> bool:
        """Not finished: its server died or shut down while it ran (no winner, no draw)."""
        return self.reason in STOPPED


class NoSuchGame(LookupError):
    """No finished match with that id in the store."""


def replay_match(
    records: list[dict[str, Any]], book: RuleBook, row: dict[str, Any] | None = None
) -> Replay:
    """Rebuild every deal with the engine from its record (docs/records.md). ``row``:
    the match's stored row (``Store.finished_match``), which says how it ended when its
    last deal does not (a forfeit between deals, a server lost or stopped)."""
    if not records:
        raise NoSuchGame("no finished match with that id")
    first = records[0]
    rules = book.ruleset(len(first["players"]), first["variant"], first["options"])
    deals = [_replay_deal(record, rules) for record in records]
    last = records[-1]
    totals = deals[-1].totals
    over = last.get("match_over") or {}
    winner_side = over.get("winner")
    sides = rules.settings.sides()
    winners = [] if winner_side is None else [first["players"][s] for s in sides[winner_side]]
    reason = over.get("reason", "")
    if not over:  # the match ended after its last deal, or never did
        ended = replay_without_deals(row) if row is not None else None
        # (no row: a clean stop before stopped matches were listed left only its deals)
        winners, reason = ([], SHUTDOWN) if ended is None else (ended.winners, ended.reason)
    players = list(first["players"])
    return Replay(
        match=first["match"],
        players=players,
        variant=first["variant"],
        options=list(first["options"]),
        deals=deals,
        totals=totals,
        winners=winners,
        reason=reason,
        forfeit=forfeit_seat(reason, players, winners, _stored_forfeit(row, over)),
    )


def _stored_forfeit(row: dict[str, Any] | None, over: dict[str, Any]) -> int | None:
    """The seat whose forfeit ended the match, as stored: in its row (a forfeit between
    deals has no record to say it), else in its last record's ``match_over``
    (docs/records.md); None for a match stored before they kept it, or not forfeited."""
    if row is not None and row.get("forfeit") is not None:
        return int(row["forfeit"])
    seat = over.get("forfeit")
    return None if seat is None else int(seat)


def stored_winners(joined: str | None) -> list[str]:
    """A stored match's winners (its row's ``winner``: the names joined by ',')."""
    return [name for name in (joined or "").split(",") if name]


def replay_without_deals(row: dict[str, Any]) -> Replay:
    """A match over before its first call (a forfeit leaves no deal then, docs/protocol.md
    §11.3), from its stored row (``Store.finished_match``)."""
    players, winners = list(row["players"]), stored_winners(row["winner"])
    return Replay(
        match=row["match"],
        players=players,
        variant=row["variant"],
        options=list(row["options"]),
        deals=[],
        totals=list(row["totals"]),
        winners=winners,
        reason=row["reason"],
        forfeit=forfeit_seat(row["reason"], players, winners, row.get("forfeit")),
    )


class ReplayFold:
    """What the page shows of one deal, folded from the events it told, in the order
    they were made: its start (dealer, turned card, a trump known from the start), the
    order, every call of the talk (what the record lists, a penalty's code included),
    every card and trick, and a trick left unfinished (a forfeit, a penalty) last."""

    def __init__(self, words: Mapping[str, str] = NO_WORDS) -> None:
        self.started: DealStarted | None = None
        self.ordered: Ordered | None = None
        self.talk: list[tuple[int, str]] = []
        self.talk_ru: list[tuple[int, str]] = []  # the same, said in Russian
        self.talk_tricks: list[int] = []  # the trick each was said in (ReplayedDeal)
        self.talk_by_clock: list[bool] = []  # whether the clock said each (auto=1)
        self.break_by_clock = False  # whether the clock made the Tertz break
        self.tricks: list[Trick] = []
        self._words = words  # the table's own Russian words for calls (lang.table_words)
        self._plays: list[tuple[int, str]] = []  # the trick in play
        self._by_clock: set[int] = set()  # the seats whose card in it the clock played
        self._swap: tuple[int, int] | None = None  # (seat, trick index) of a menyayu
        # cards shown, by seat, their 'pokazyvayu' to come: in English and in Russian,
        # and the trick they were shown in
        self._shown: dict[int, tuple[str, str, int]] = {}

    def _say(
        self,
        seat: int,
        english: str,
        russian: str,
        trick: int | None = None,
        by_clock: bool = False,
    ) -> None:
        self.talk.append((seat, english))
        self.talk_ru.append((seat, russian))
        self.talk_tricks.append(len(self.tricks) + 1 if trick is None else trick)
        self.talk_by_clock.append(by_clock)

    def feed_all(self, events: Iterable[MatchEvent]) -> ReplayFold:
        for event in events:
            if isinstance(event, CardPlayed):
                self._plays.append((event.seat, card_str(event.card)))
                if event.auto:
                    self._by_clock.add(event.seat)
            elif isinstance(event, TrickTaken):
                plays, self._plays = self._plays, []
                by_clock, self._by_clock = frozenset(self._by_clock), set()
                self.tricks.append(Trick(plays[0][0], plays, event.winner, by_clock=by_clock))
            elif isinstance(event, CallMade):
                if event.call.name == MENYAYU:  # during the trick not yet taken
                    self._swap = (event.seat, len(self.tricks))
                elif event.auto and breaks_deck(event.call.token()):
                    self.break_by_clock = True
                self._say(
                    event.seat,
                    _call_text(event.call, self._words),
                    _ru_call_text(event.call, self._words),
                    by_clock=event.auto,
                )
                if event.seat in self._shown and event.call.token() == "pokazyvayu":
                    self._say(event.seat, *self._shown.pop(event.seat))
            elif isinstance(event, Penalized) and event.call.name != PLAY:
                penalized = _ru_call_text(event.call, self._words, event.code)
                self._say(event.seat, _call_text(event.call, self._words, event.code), penalized)
            elif isinstance(event, Shown):  # public at the table: docs/rules.md §3.5
                # listed after its 'pokazyvayu', which the engine's show after 'skin'
                # logs after it
                trick = len(self.tricks) + 1
                shown = (shown_text(event.cards), shown_text(event.cards, Lang.RU), trick)
                if self.talk and self.talk[-1] == (event.seat, "pokazyvayu"):
                    self._say(event.seat, *shown)
                else:
                    self._shown[event.seat] = shown
            elif isinstance(event, Ordered):
                self.ordered = event
            elif isinstance(event, DealStarted):
                self.started = event
        return self

    def deal(
        self,
        hands: list[list[str]],
        end: Unveiled,
        record: dict[str, Any],
        extra: dict[str, Any] | None = None,
    ) -> ReplayedDeal:
        """The deal as the page shows it, with the hands (which no event says) and
        what its end made public; the totals are those it came in with plus what it
        wrote, so a replay that disagreed with its record would show. ``extra``: a
        game's own keys as the rebuilt deal gives them (Tertz: its draws and break)."""
        extra = record if extra is None else extra
        started = self.started
        assert started is not None, "a replay starts at the deal's start"
        ordered = self.ordered
        trump = started.trump if ordered is None else ordered.trump
        talon = _talon_at_start(hands, record["deck"], extra)
        tricks = _with_draws(self.tricks, extra.get("draws"), talon) + (
            [Trick(self._plays[0][0], self._plays, None, by_clock=frozenset(self._by_clock))]
            if self._plays
            else []
        )
        if talon is not None and self._swap is not None:  # Tertz: where the 7 swapped
            seat, at = self._swap
            if at < len(tricks):
                swap = (seat, card_str(started.turned))
                tricks[at] = attrs.evolve(tricks[at], swap=swap)
        # a deal its calls do not finish (none stored so): what its record says
        outcome = end.outcome or record["outcome"]
        written = list(record["written"] if end.written is None else end.written)
        return ReplayedDeal(
            deal_no=started.deal,
            dealer=started.dealer,
            hands=hands,
            turned=card_str(started.turned),
            trump=None if trump is None else "shdc"[trump],
            player=None if ordered is None else ordered.player,
            talk=self.talk + [(seat, said[0]) for seat, said in self._shown.items()],
            talk_ru=self.talk_ru + [(seat, said[1]) for seat, said in self._shown.items()],
            talk_tricks=self.talk_tricks + [said[2] for said in self._shown.values()],
            talk_by_clock=self.talk_by_clock + [False] * len(self._shown),
            tricks=tricks,
            outcome=outcome,
            talon=talon,
            talon_broken=extra.get("talon_broken"),
            talon_broken_by_clock=self.break_by_clock,
            written=written,
            totals=[before + w for before, w in zip(started.score, written, strict=True)],
            record=record,
        )


def _replay_deal(record: dict[str, Any], rules: RuleSet) -> ReplayedDeal:
    deal = replay_calls(record, rules)
    said = table_words(rules.call_aliases)
    fold = ReplayFold(said).feed_all([deal.started(), *deal.history])
    # a game's own keys (the draws, the break) as the rebuilt deal gives them, not as
    # stored: a replay that disagreed with its record would show
    replayed = fold.deal(_hands_at_first_card(deal), unveil(deal), record, deal.record_extra())
    counted, names = ev.scored_in(record), [str(name) for name in record["players"]]
    return attrs.evolve(
        replayed,
        scored="".join(scored_lines(counted, names, Lang.EN, said)),
        scored_ru="".join(scored_lines(counted, names, Lang.RU, said)),
        hung=_hung_words(deal, record, names, Lang.EN),
        hung_ru=_hung_words(deal, record, names, Lang.RU),
        won_by=_won_by(replayed, names, rules, Lang.EN),
        won_by_ru=_won_by(replayed, names, rules, Lang.RU),
        stake=_stake_words(deal, rules, Lang.EN),
        stake_ru=_stake_words(deal, rules, Lang.RU),
    )


def _stake_words(deal: Deal, rules: RuleSet, lang: Lang) -> str:
    """The stake the rebuilt deal was played for, where a dave raised it, as 'history'
    says it and the table told it at the raise; '' for a deal at stake 1."""
    stake = int(deal.extra.get("stake", 1)) if rules.settings.stake_in_play else 1
    return phrase(Msg.HISTORY_STAKE, stake=stake).text(lang) if stake > 1 else ""


def _won_by(deal: ReplayedDeal, names: list[str], rules: RuleSet, lang: Lang) -> str:
    """A deal of a short game won on points (docs/rules.md §11) as its players read it
    ('won by bob'); '' for any other deal, whose outcome word says it."""
    on_points = rules.settings.deal_won_on_points
    if not on_points or deal_winner(deal.outcome, deal.written) is None:
        return ""
    return deal_word(deal.outcome, deal.written, names, on_points, lang)


def _hung_words(deal: Deal, record: dict[str, Any], names: list[str], lang: Lang) -> str:
    """The hanging points of a deal as its end told the players (the human style's
    deal end and ``history``): what its hanging bide left hanging, and who wrote the
    points that hung into it. Nobody at the table read a replay without them."""
    sides = len(record["written"])
    said = hung_said(ev.hung_in(record, sides), names, sides, lang)
    score = None if deal.result is None else deal.result.score
    if score is not None and score.outcome == Outcome.HANGING:
        pending = list(score.hanging_pending)
        if pending:  # hanging-separate: the next deal plays for the first sum only
            later = "".join(words.said(W.HANGS_THEN, lang, points=p) for p in pending[1:])
            said.insert(
                0,
                words.said(
                    W.HANGS_SEPARATE, lang, hanging=score.hanging_out, after=pending[0], later=later
                ),
            )
        else:
            said.insert(0, words.said(W.HANGS, lang, hanging=score.hanging_out))
    return " ".join(said)


def _talon_at_start(hands: list[list[str]], deck: list[str], extra: dict[str, Any]) -> int | None:
    """The talon at the first lead, the turned card included: the deck less the hands
    dealt (a game with draws only: Tertz, docs/records.md)."""
    if "draws" not in extra:
        return None
    return len(deck) - sum(len(hand) for hand in hands)


def _with_draws(
    tricks: list[Trick], draws: list[list[Any]] | None, talon: int | None
) -> list[Trick]:
    """Each trick with the draws that followed it (``draws_per_trick``) and the talon
    left after them."""
    if draws is None or talon is None:
        return tricks
    out = []
    per_trick = draws_per_trick(draws, (len(t.plays) for t in tricks))
    for trick, drawn in zip(tricks, per_trick, strict=True):
        talon -= len(drawn)
        pairs = [(int(seat), str(card)) for seat, card in drawn]
        out.append(attrs.evolve(trick, draws=pairs, talon=talon if pairs else None))
    return out


def _hands_at_first_card(deal: Deal) -> list[list[str]]:
    """Each seat's hand as it held it for its first card (every card dealt, after any
    swap of the trump seven); a seat that played none (a void deal, a claim, a bide on
    cards): what it holds at the end."""
    at_first = deal.talk.window_hands
    return [[card_str(c) for c in at_first.get(seat, hand)] for seat, hand in enumerate(deal.hands)]


def _call_text(call: Call, table: Mapping[str, str], penalty: str | None = None) -> str:
    """A call as the page lists it: as spoken, as the human style writes the talk
    ('igrayu ♠', 'ot korolya', 'dva tertsa': docs/protocol.md §3; ``table``'s own words,
    Tertz's 'mariage'), a penalty's code after it in words."""
    said = spoken_call(call.token(), table)
    if penalty is None:
        return said
    return f"{said} ({words.said(W.PENALTY, Lang.EN, why=penalty.replace('-', ' '))})"


def _ru_call_text(call: Call, table: Mapping[str, str], penalty: str | None = None) -> str:
    """``_call_text`` as a Russian page says it: «играю ♠ (штраф: …)», as the table does."""
    said = ru_call(call.token(), table)
    if penalty is None:
        return said
    return f"{said} ({words.said(W.PENALTY, Lang.RU, why=RU_ERRORS.get(penalty, penalty))})"


def shown_text(cards: Iterable[Card], lang: Lang = Lang.EN) -> str:
    """Cards a seat showed (``pokazyvayu``), as the talk lists them: 'shows 7♠ 8♠ 9♠'
    («показывает 7♠ В♠» in Russian)."""
    card = ru_card if lang == Lang.RU else pretty_card
    return words.said(W.SHOWS, lang) + " ".join(card(c) for c in cards)


def in_hand_order(hand: Iterable[str]) -> list[str]:
    """A hand as the human style sorts it: by suit ♠ ♥ ♦ ♣, each in rank order
    7 8 9 10 J Q K A (a card's number is its suit, then its rank: game/cards.py)."""
    return [card_str(c) for c in sorted(parse_card(t) for t in hand)]
