"""The table as a person sees it: a pure fold over the server's machine-style lines.

``fold(state, line)`` returns the next state; nothing here touches a terminal or a
socket, so every rule of what is shown is unit-tested on lines alone. The lines are
split by the project's one parser (deberc_net.protocol.wire).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import zip_longest

import attrs

from deberc_net.game.calls import KONETS, MENYAYU, PAS
from deberc_net.game.deal import SWAP_Q
from deberc_net.game.errors import IllegalCall
from deberc_net.game.outcomes import MatchEndReason, Outcome
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import command_word
from deberc_net.protocol.ends import CLAIMED_WORDS, short_words
from deberc_net.protocol.lang import (
    RU_CLAIMED_WORDS,
    RU_MATCH_REASONS,
    Lang,
    outcome_said,
    ru_call,
    ru_card_text,
    spoken_call,
)
from deberc_net.protocol.messages import MESSAGES, RU_ERRORS, Msg, game_for, phrase
from deberc_net.protocol.read_back import russian
from deberc_net.protocol.refusals import refusal_phrase, rules_phrase, unread_phrase
from deberc_net.protocol.render import (
    BANNER_RU,
    CHAT_CONTINUED,
    for_people,
    question,
    scored_lines,
)
from deberc_net.protocol.render_ru import RU_FORFEITS, question_ru
from deberc_net.protocol.wire import (
    EventKind,
    Line,
    Tag,
    View,
    WireError,
    banner_protocol,
    parse_line,
)

from . import replies
from .cards import card, cards, in_hand_order, suit
from .texts import T, say
from .words import words_for

LOG_KEEP = 200  # lines of talk and notices kept for the log pane
FORMER_KEEP = 8  # tables left whose names are kept (TableState.former)


@attrs.frozen
class DealScore:
    """One row of the score: a deal's written points and the totals after it."""

    deal: int
    outcome: str
    written: tuple[int, ...]
    totals: tuple[int, ...]
    # in a short game without a bide, the seat that won the deal (its outcome tells only
    # how the one who ordered fared, docs/rules.md §11); None in any other game
    winner: int | None = None


# how long after its end a match may be played again when its match-end names no
# rematch_s= (a server of before the setting rematch_ms, docs/protocol.md §5.16)
REMATCH_S = 60


@attrs.frozen
class Former:
    """A table we left, or whose match ended: the names by seat of its match. Kept by
    match id, not table number alone: a restarted server numbers its tables from 1 again
    (match ids come from its store and are not used twice)."""

    table: int
    match: str | None  # its match id, as 'start' told it (None: not told, as on a resume)
    names: tuple[str, ...]
    played: bool  # we sat there (a 'sheet' asked at no table is our last match played)


@attrs.frozen
class TableState:
    # the session
    name: str | None = None
    token: str | None = None  # a guest's resume token (ok cmd=login token=)
    # the table
    table: int | None = None
    seat: int | None = None
    players: tuple[str, ...] = ()  # names by seat ('' for a free seat)
    match: str | None = None  # the match id, once 'start' told it
    deal: int = 0
    dealer: int | None = None
    phase: str = ""
    hand: tuple[str, ...] = ()
    turned: str | None = None
    fresa: str | None = None
    trump: str | None = None
    player: int | None = None  # the seat that ordered the game
    # a game with a talon (Tertz): cards left to draw, the turned one included, and the
    # opponent's taken tricks while they are open to see (None: no such game, or closed)
    talon: int | None = None
    their_tricks: tuple[str, ...] | None = None
    # the cards shown face up this deal (pokazyvayu), (seat, card): the views' and each
    # show's since, so they stay in view once the log has scrolled them away
    shown: tuple[tuple[int, str], ...] = ()
    # the cards of ``shown`` played since they were shown: no longer face up in a hand,
    # not said to be by a later show's 'face up now' (a tryout, s49)
    shown_played: tuple[str, ...] = ()
    trick: tuple[tuple[int, str], ...] = ()  # (seat, card) as laid, leader first
    last_trick: tuple[tuple[int, str], ...] = ()
    tricks: tuple[int, ...] = ()
    to_act: int | None = None
    talk: tuple[tuple[int, str], ...] = ()  # this deal's calls other than cards
    # the open request: its seq, the legal calls and the clock when it came
    asking: bool = False
    seq: int | None = None
    legal: tuple[str, ...] = ()
    clock_ms: int | None = None
    # the open request's clock running out forfeits the game: that many timeouts in a
    # row (its ask's last_timeout=, docs/protocol.md §6.3); None: it would not. And the
    # seq of the ask it was said for in the log (once, not again on its repeat)
    last_timeout: int | None = None
    warned_seq: int | None = None
    # the seconds the last match's end gave to ask 'rematch' in (its rematch_s=, the
    # server's setting, docs/protocol.md §5.16; a server of before: 60)
    rematch_s: int = REMATCH_S
    target: int | None = None
    options: tuple[str, ...] = ()  # the table's options, as its 'tables' line lists them
    variant: str | None = None  # and its variant: the game the server says it plays
    # the score: one row per finished deal (deal-end), the totals before this deal
    score: tuple[int, ...] = ()
    deals: tuple[DealScore, ...] = ()
    result: str | None = None  # the match's end, in words
    # the seek we wait with, as the server said it (None: none); sitting, leaving, a
    # login (a new connection: the server forgot it) and 'unseek' end it
    seeking: str | None = None
    # a 'seek' the player sent (typed, or F7) and not answered yet (``typed``): the
    # client seeks nothing for him meanwhile (``_seek_kept``)
    seek_typed: bool = False
    # the server drains (its notice, docs/protocol.md §11.4a): no new game starts, so no
    # rematch is on offer; a new connection (a banner) is to a server that may not
    draining: bool = False
    # the game of our last match played, as 'seek' takes it ('2 tertz to-301'): F7
    # seeks it again (None: none played yet, or its game not told: F7 seeks 'seek 2')
    played: str | None = None
    log: tuple[str, ...] = ()  # talk, notices and errors, oldest first
    # entries ever put in the log (it keeps the last LOG_KEEP): what came since a moment
    # is the last ``logged - then`` entries, also once the oldest go
    logged: int = 0
    # a multi-line reply being gathered (replies.py), and how many lines are still to come
    reply: tuple[Line, ...] = ()
    reply_left: int = 0
    # the client's own requests (command words) whose replies mend the screen unlogged
    quiet: tuple[str, ...] = ()
    # what the table is to be asked again: after a drop its names, sheet and last trick,
    # since the events missed are not replayed (docs/protocol.md §12); on sitting, who
    # sits there already and the target; ``asked_again`` the table it was done for, so
    # a view without names asks once
    resync: tuple[str, ...] = ()
    asked_again: int | None = None
    # what the client sends for the player, its replies shown as his own: his place in
    # line taken again after a leaver's forfeit (``seek_kept``)
    on_behalf: tuple[str, ...] = ()
    # the names at the tables we left (newest last): a 'sheet' or 'history' of a match
    # played there, asked afterwards, names its seats (the machine lines carry seats)
    former: tuple[Former, ...] = ()
    # the table we sat at when the connection was logged in again: taken back if the
    # server says we are back at it (kind=back), else gone (a restarted server)
    before: TableState | None = None
    # the server's banners read (docs/protocol.md §4.1): a second one is a connection
    # made again, said in one line, not greeted again
    banners: int = 0
    # the open question another seat put to us (a view's pending=), said once in the log
    question: str | None = None
    # the language of the client's texts (docs/play.md, "Language"): the server's lines
    # come in the machine style's English whatever it is
    lang: Lang = Lang.EN
    # the house bot an 'ok cmd=bot' said comes (its name, its table) and the log's count
    # just after that line: its seat, said next, takes the line's place (_bot_coming)
    coming: tuple[str, int, int] | None = None

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "-"
        if 0 <= seat < len(self.players) and self.players[seat]:
            return self.players[seat]
        return say(T.SEAT, self.lang, seat=seat)

    def say(self, key: T, **values: object) -> str:
        """The client's text ``key`` in this screen's language."""
        return say(key, self.lang, **values)

    @property
    def words(self) -> Mapping[str, str]:
        """The table's own words for calls, by the game the server names (words.py)."""
        return words_for(self.variant, self.seats, self.options, self.talon)

    def spoken(self, call: str) -> str:
        """A call's token as a player says it in this screen's language, in the table's
        words (Tertz's 'mariage', «марьяж»): 'ot korolya', «от короля»."""
        words = self.words
        return ru_call(call, words) if self.lang == Lang.RU else spoken_call(call, words)

    def card(self, token: str | None) -> str:
        return card(token, self.lang)

    def cards(self, tokens: Sequence[str]) -> str:
        return cards(tuple(tokens), self.lang)

    def server_text(self, text: str) -> str:
        """A sentence of the server (the machine style's English): in Russian by the
        server's own catalogue where it is one of its sentences, else as it came."""
        if self.lang != Lang.RU:
            return text
        return russian(text) or text

    @property
    def seats(self) -> int:
        return len(self.players)

    def names_at(self, table: int | None, match: str | None = None) -> tuple[str, ...]:
        """The names by seat of a reply's match at ``table`` (``match``: its id, which
        'history' tells; 'sheet' tells none): ours, or one we left; () if not known."""
        if table is not None and table == self.table:
            return self.players
        if match is None:  # at no table, 'sheet' is our last match played (§5.13)
            last = self.last_played()
            return last.names if last is not None and last.table == table else ()
        there = [f for f in self.former if f.table == table]
        # that match's, else one whose id we were never told (a resume replays no
        # 'start'; a restarted server's later match there has another id)
        known = [f for f in there if f.match == match] or [f for f in there if f.match is None]
        return known[-1].names if known else ()

    def last_played(self) -> Former | None:
        return next((f for f in reversed(self.former) if f.played), None)

    def game_played(self) -> str | None:
        """The game of the match we play or played at this table, as 'seek' takes it
        (players, variant, options: '2 tertz to-301'), once its 'tables' line named it;
        else the one played before (``played``)."""
        started = self.match is not None or self.deal > 0 or self.result is not None
        if self.seat is None or self.variant is None or not self.players or not started:
            return self.played
        return " ".join((str(self.seats), self.variant, *self.options))

    def left(self) -> tuple[Former, ...]:
        """``former`` once we leave our table: its names kept."""
        if self.table is None or not any(self.players):
            return self.former
        kept = [f for f in self.former if (f.table, f.match) != (self.table, self.match)]
        here = Former(self.table, self.match, self.players, self.seat is not None)
        return (*kept, here)[-FORMER_KEEP:]


# what the client asks by itself to mend the screen after a drop, or on observing a table
# mid-match (resync_requests)
RESYNC = ("tables", "sheet", "last")
TO_TARGET = re.compile(r"to-(\d+)")  # the option that sets a match's target
BREAK = "lomayu-"  # a talon game's break of the deck, lomayu-N (docs/protocol.md §8.2)
# the English screen's word to a Russian reader, for the banner's 'lang ru' (said in
# Russian, as the server's hint is)
RUSSIAN_AT_START = "Деберц для людей и ботов. По-русски: deberc-net play --lang ru."
# a connection made again (its banner), and with our seat taken back (kind=back), said
# by texts.T.CONNECTED_AGAIN and T.SEAT_BACK; with none, T.NOT_KEPT_WHY (the server's
# reason, a seat freed, a match lost or cut off, logged after it) or T.NOT_KEPT_UNSAID
# (none given: a restarted server keeps no seat, and a guest's token is new)
# the log's word that a table watched is not shown while our game runs (English; the
# screen says it in its language)
KEEPS_OUR_TABLE = say(T.KEEPS_OUR_TABLE, Lang.EN)


def _round_two_opens(state: TableState) -> bool:
    """The call just told was the last pas of the bidding's first round: every seat has
    spoken once this deal, each a pas."""
    talk = state.talk
    return (
        state.phase == "bidding"
        and state.seats > 0
        and len(talk) == state.seats
        and all(call == PAS for _, call in talk)
    )


def playing(state: TableState) -> bool:
    """Whether our own match runs: seated, dealt, and not over (a 'leave' forfeits it)."""
    running = state.result is None and (state.deal > 0 or bool(state.phase))
    return state.seat is not None and state.table is not None and running


def seek_line(state: TableState) -> str:
    """F7's command: a seek of the game last played (a Tertz player wants another Tertz
    match, not Moscow's), or of any two-player game when none was."""
    game = state.game_played()
    return f"seek {game}" if game is not None else "seek 2"


def watching(state: TableState) -> bool:
    """Whether we watch a table (``observe``): at it, in no seat; a call is not ours."""
    return state.table is not None and state.seat is None


def noted(state: TableState, text: str) -> TableState:
    """The state with the client's own notice ``text`` in the log."""
    return _log(state, text)


class Said(str):
    """A player's line (``say``) in the log: drawn as the human style draws one, each line
    it wraps onto starting CHAT_CONTINUED, which no other entry's line does, and its runs
    of blanks one space. Unmarked, a say padded to wrap (spaces, any width) set a line of
    its own words where the server's stand: '*** boss (admin): …', '! …' (a tryout, s34)."""

    __slots__ = ()

    continued = CHAT_CONTINUED


def _log(state: TableState, *lines: str) -> TableState:
    log = (*state.log, *lines)[-LOG_KEEP:]
    return attrs.evolve(state, log=log, logged=state.logged + len(lines))


def _scored(state: TableState, line: Line) -> TableState:
    """What the declarations of the deal just ended scored, read from its record and
    said as the human style says it after the deal's end ('Scored for combinations:
    boris hundred six 100.'): a Tertz evening saw 'written 140 : 60' unexplained."""
    if state.table is None or line.get_int("table") != state.table:
        return state
    try:
        record = json.loads(line.get_str("text") or "")
    except ValueError:
        return state
    if not isinstance(record, dict) or not state.players:
        return state
    names = tuple(state.who(seat) for seat in range(len(state.players)))
    try:
        said = scored_lines(ev.scored_in(record), names, state.lang, state.words)
    except (KeyError, IndexError, TypeError, ValueError):  # a record of another shape
        return state
    return _log(state, *said)


def versus(names: Sequence[str], lang: Lang = Lang.EN) -> str:
    """The players as the sides they play on: 'anna v boris', four players as their
    pairs, 'anna+olga v vera+nina' (partners sit opposite: seats 0+2 and 1+3, docs/
    rules.md); '' for nobody. In Russian 'anna — boris'."""
    v = say(T.VERSUS, lang)
    if len(names) == 4:
        return f"{names[0]}+{names[2]}{v}{names[1]}+{names[3]}"
    return v.join(names)


# the short games without a bide (docs/rules.md §11): more points wins, whoever ordered;
# their deal's outcome says only how the one who ordered fared ('bide': another won)
NO_BIDE = frozenset({"short", "dave"})
BY_THE_ORDER = frozenset({Outcome.MADE, Outcome.BIDE})
# (docs/protocol.md §5.1: every house bot's name starts so and no person's may)
HOUSE_PREFIX = "house-"
# the server's notice of a drain (``info server=draining``, docs/protocol.md §11.4a):
# known by its field, whatever its words or language
DRAINING = "draining"


def _won(state: TableState, row: DealScore) -> DealScore:
    """``row`` with its winner, in a short game without a bide: the seat that wrote the
    most (the stakes it took; the others wrote what they paid)."""
    if row.outcome not in BY_THE_ORDER or not NO_BIDE & set(state.options) or not row.written:
        return row
    return attrs.evolve(row, winner=row.written.index(max(row.written)))


def _on_points(state: TableState, head: Line) -> bool:
    """Whether a 'sheet' or 'history' reply names each deal's winner: our table's, in a
    short game without a bide (its options known: a table left, or the last match, not
    kept)."""
    ours = head.get_int("table") == state.table and state.table is not None
    return ours and bool(NO_BIDE & set(state.options))


def _pair(numbers: tuple[int, ...]) -> str:
    return " : ".join(map(str, numbers))


def fold_all(lines: Iterable[str], state: TableState | None = None) -> TableState:
    state = state or TableState()
    for line in lines:
        state = fold(state, line)
    return state


def fold(state: TableState, raw: str) -> TableState:
    """The state after one line from the server. A line that does not follow the grammar
    is logged as it came, and changes nothing else."""
    line = parse_line(raw)
    try:
        return _fold(state, line)
    except WireError as exc:  # a reply it spoilt is not awaited further
        return _log(_unreplied(state), state.say(T.UNREADABLE_LINE, error=exc))


def _unreplied(state: TableState) -> TableState:
    return attrs.evolve(state, reply=(), reply_left=0)


def _fold(state: TableState, line: Line) -> TableState:
    tag = line.tag
    if state.reply and tag not in replies.BODIES:
        # the server writes a reply in one piece: another line means it is over, though
        # it counted more lines; what came is taken in (not left to hide the next one)
        try:
            state = _gathered(attrs.evolve(state, reply_left=0))
        except WireError as exc:
            state = _log(_unreplied(state), state.say(T.UNREADABLE_REPLY, error=exc))
    if tag in (Tag.ASK, Tag.STATE):
        view = View.from_line(line)
        if tag == Tag.STATE and _playing_elsewhere(state, view.table):
            return state  # a table watched while we play at ours: one table on screen
        return _view(state, view)
    if tag == Tag.EVENT:
        if _playing_elsewhere(state, line.get_int("table")) or _watching_elsewhere(
            state, line.get_int("table")
        ):
            return state  # (its own 'state' lines show the watched table)
        return _event(state, line)
    if tag == Tag.OK:
        if state.seek_typed and line.get_str("cmd") in ("seek", "sit"):
            state = attrs.evolve(state, seek_typed=False)  # (answered: waiting, or seated)
        return _ok(state, line)
    if tag == Tag.ERROR:
        # (answers come in order, docs/protocol.md §2.3: this one is the seek's, or a
        # line's typed before it; either way the seek is no longer waited for here)
        state = attrs.evolve(state, seek_typed=False)
        for asked in ("last", "sheet"):  # no trick taken yet, no match yet: nothing to mend
            if asked in state.quiet and line.get_str("code") in ("wrong-phase", "not-seated"):
                return _unquiet(state, asked)
        # one the client asked for itself, refused past the lists allowance: no reply is
        # to come, and the player typed nothing (it stayed awaited and swallowed the
        # reply to the next one he typed: a review, s29)
        # (the list refused named in cmd=, docs/protocol.md §10)
        metered = line.get_str("cmd") if line.get_str("code") == "slow-down" else None
        if metered is not None and metered in state.quiet:
            return _unquiet(state, metered)
        # the server has us at no table and watching none (nowhere=1, §5.6, §5.10)
        said_nowhere = line.get_str("nowhere") == "1"
        if said_nowhere and state.table is not None and state.result is not None:
            # the finished match on screen: its table closed with it (docs/protocol.md
            # §9.7), so 'leave' (or 'state') there is answered so; said as where we are
            return _log(_lobby(state), state.say(T.MATCH_OVER_LOBBY, table=state.table))
        nowhere = state.seat is not None or said_nowhere  # our table is gone
        if line.get_str("code") == "not-seated" and state.table is not None and nowhere:
            state = _lobby(state)
        refused = _refusal(state, line)
        near = line.get_str("hint")  # a mistyped call's likely meaning (protocol §8)
        if near is not None:
            refused += state.say(T.MEANT_CALL, call=state.spoken(near))
        elif (meant := _command_meant(line)) is not None:
            refused += state.say(T.MEANT_COMMAND, command=meant)
        return _log(state, state.say(T.REFUSED, text=refused))
    if tag == Tag.SAY:
        where = ""
        if line.get_str("table") is not None:  # a watcher's reach the watchers only
            kept = line.get_str("watchers") == "1"
            where = state.say(T.SAID_TO_WATCHERS if kept else T.SAID_AT_TABLE)
        text = " ".join((line.text or "").split())  # blanks pad a line out: one space
        return _log(state, Said(f"{line.get_str('from')}{where}: {text}"))
    if tag == Tag.ANNOUNCE:  # an admin's (docs/protocol.md §5.19): marked as his
        return _log(state, state.say(T.ADMIN, name=line.get_str("from"), text=line.text or ""))
    if tag == Tag.BANS:  # an admin's 'bans', then a line a ban, then an address's each
        count, addresses = line.get_str("count"), line.get_str("addresses")
        if addresses is None or addresses == "0":  # (an older server's: no addresses=)
            return _log(state, state.say(T.BANNED, count=count))
        return _log(state, state.say(T.BANNED_ADDRESSES, count=count, addresses=addresses))
    if tag == Tag.BAN:
        why = f": {line.text}" if line.text else ""
        by = line.get_str("by")
        return _log(state, state.say(T.BANNED_BY, name=line.get_str("name"), by=by, why=why))
    if tag == Tag.ADDRESS_BAN:
        why = f": {line.text}" if line.text else ""
        address, by, rest = line.get_str("address"), line.get_str("by"), line.get_str("left")
        said = state.say(T.ADDRESS_BANNED_BY, address=address, by=by, left=rest, why=why)
        return _log(state, said)
    if tag == Tag.MUTES:  # an admin's 'mutes', then a line a mute
        return _log(state, state.say(T.MUTED, count=line.get_str("count")))
    if tag == Tag.MUTE:
        why = f": {line.text}" if line.text else ""
        name, by, minutes = line.get_str("name"), line.get_str("by"), line.get_str("left")
        return _log(state, state.say(T.MUTED_BY, name=name, by=by, left=minutes, why=why))
    if tag == Tag.WHO:
        names = ", ".join(line.get_list("names")) or state.say(T.NOBODY)
        return _log(state, state.say(T.HERE, names=names))
    if tag in replies.HEADS:
        return _gathered(attrs.evolve(state, reply=(line,), reply_left=replies.lines_after(line)))
    if tag in replies.BODIES and state.reply:
        left = state.reply_left - 1 + replies.lines_after(line)
        return _gathered(attrs.evolve(state, reply=(*state.reply, line), reply_left=left))
    if tag == Tag.LAST:
        return _last(state, line)
    if tag == Tag.INFO and line.get_str("server") == DRAINING:
        state = attrs.evolve(state, draining=True)
    closed = line.get_int("closed") if tag == Tag.INFO else None
    if closed is not None and closed == state.table:
        # the table on screen closes (info closed=T, docs/protocol.md §11.4): the table
        # pane goes; the log keeps it
        return _log(_lobby(state), state.server_text(line.text or ""))
    if closed is not None and state.table is None:
        # the table our seek was matched to, failed before it seated us (docs/protocol.md
        # §11.4): the seek is over (the pane said the wait on, for a game never to come)
        return _log(attrs.evolve(state, seeking=None), state.server_text(line.text or ""))
    if tag == Tag.INFO and line.get_str("first_in_line") == "1":
        return _seek_kept(_no_rematch_said(state), line)
    if tag in (Tag.INFO, Tag.BYE, Tag.HELP, Tag.RULES, Tag.INVITE, Tag.REMATCH):
        return _log(state, state.server_text(line.text or ""))
    if tag == Tag.TABLE:  # a table's line with no head before it
        return _log(state, _table_text(state, line))
    if tag in replies.BODIES:  # a body with no head before it: shown as it came
        return _log(state, line.line)
    if tag == Tag.RECORD:  # the deal in full: the score already came with deal-end
        return _scored(state, line)
    if isinstance(tag, Tag):
        return state
    if banner_protocol(line.line) is not None:
        state = attrs.evolve(state, banners=state.banners + 1, draining=False)
        if state.banners > 1 and state.name is None:  # made again, with no login to
            return _log(state, state.say(T.CONNECTED_AGAIN))  # answer: said now (once
            # greeted is enough)
    if state.banners > 1:  # (the banner's second line)
        return state
    if line.line == BANNER_RU:  # the server's hint to type 'lang ru', for nc: a Russian
        # screen is Russian already, and the English one is made Russian at start (typed
        # 'lang ru' left it English: a Russian reader followed the hint and got nothing)
        return state if state.lang == Lang.RU else _log(state, RUSSIAN_AT_START)
    if state.lang == Lang.RU:  # a Russian screen says the banner in Russian
        protocol = banner_protocol(line.line)
        if protocol is not None:
            version = line.line.split()[1]
            return _log(state, state.say(T.BANNER, version=version, protocol=protocol))
    return _log(state, line.line) if line.line.strip() else state  # the banner


# the codes of a table call the rules refused (the engine's, whose texts the server's
# human style says for people: deberc_net/server/table.py)
CALL_REFUSAL_CODES = frozenset({IllegalCall.code} | {c.code for c in IllegalCall.__subclasses__()})


def _refusal(state: TableState, line: Line) -> str:
    """A refusal's words: a call refused as the human style says it (suit signs, spoken
    calls, names for seats); another as it came (its 'to-301' is to be typed so). In
    Russian, the server's own sentence for it (the engine's read back by its form, the
    catalogue's by its English), else as it came."""
    code = line.get_str("code") or ""
    text = line.text or ""
    if state.lang == Lang.RU:
        said = None
        if code in CALL_REFUSAL_CODES:
            names = tuple(state.who(seat) for seat in range(max(state.seats, 4)))
            found = refusal_phrase(text, names, state.words)
            said = None if found is None else found.text(Lang.RU)
        elif code == "bad-rules":  # the rule book's, its names «short» as the server's
            # Russian says them (the catalogue's read-back kept the repr's 'short')
            ruled = rules_phrase(text)
            said = None if ruled is None else ruled.text(Lang.RU)
        said = said or _no_call_ru(code, text)
        said = said or (russian(text) if text else RU_ERRORS.get(code))
        if said is not None:
            # its cards as the server's Russian lines write them ('Д♠', not 'Q♠')
            return ru_card_text(said)
    refused = text or code
    if code in CALL_REFUSAL_CODES:
        refused = for_people(refused, state.players, state.words)
    return refused


# the machine style's refusal of a line that is no table call: its catalogue sentence
# (Msg.NOT_A_CALL, or NOT_A_CALL_WHY for a call's own word read wrong, 'igrayu zz') is
# made of the call reader's reason, read back by protocol/refusals.py
_NO_CALL = re.compile(r"(?P<reason>.*?)(?:\. Type 'help' or 'calls'\.)?")
_NO_CALL_WORD = re.compile(r"not a table call(?: here)?: ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


def _no_call_ru(code: str, text: str) -> str | None:
    """A line refused as no table call, said by the catalogue's Russian («хрень» — не ход
    и не заявка; «назовите масть: …» for 'igrayu zz'): read_back cannot, its English
    holding no ``typed``; None for another."""
    found = _NO_CALL.fullmatch(text) if code == "unknown-command" else None
    if found is None:
        return None
    reason = found["reason"]
    said = unread_phrase(reason, "")
    if said.key == Msg.NOT_A_CALL_WHY:
        return said.text(Lang.RU)
    word = _NO_CALL_WORD.fullmatch(reason)
    if word is None:
        return None
    try:
        typed = ast.literal_eval(word[1])  # the word as the server quoted it (a repr)
    except (ValueError, SyntaxError):
        return None
    return phrase(Msg.NOT_A_CALL, reason=text, typed=str(typed)).text(Lang.RU)


def _command_meant(line: Line) -> str | None:
    """The command a refused word is close to ('tabels': 'tables'), as the human style
    tells it: the server's guess, ``command_hint=`` (docs/protocol.md §8; the client
    guessed from the word it read out of the English sentence before s47)."""
    if line.get_str("code") != "unknown-command":
        return None
    return line.get_str("command_hint")


def resync_requests(state: TableState) -> tuple[TableState, tuple[str, ...]]:
    """The requests to send (``state.resync``), and the state that awaits their replies
    quietly: ``tables`` for the names (and a waiting table's target), ``sheet`` for the
    finished deals, ``last`` for the last trick."""
    asked = state.resync
    if not asked:
        return state, ()
    words = (request.split()[0] for request in asked)  # a reply's head is the command word
    again = attrs.evolve(state, resync=(), asked_again=state.table, quiet=(*state.quiet, *words))
    return again, asked


def _view_again(state: TableState) -> TableState:
    """Ask the table for our view, quietly: drawing from the talon is no event, and a
    seat not to act is sent no view after it (docs/protocol.md §8.2, §6.3)."""
    if "state" in state.resync:
        return state
    return attrs.evolve(state, resync=(*state.resync, "state"))


def _unquiet(state: TableState, command: str) -> TableState:
    quiet = list(state.quiet)
    quiet.remove(command)
    return attrs.evolve(state, quiet=tuple(quiet))


def _gathered(state: TableState) -> TableState:
    """A reply whose lines have all come is taken in: shown, and what it tells of the
    table kept (names, sheet rows); one the client asked for itself is not shown."""
    if state.reply_left > 0:
        return state
    lines, state = state.reply, attrs.evolve(state, reply=(), reply_left=0)
    head = lines[0]
    quiet = str(head.tag) in state.quiet
    if quiet:
        state = _unquiet(state, str(head.tag))
    shown: list[str] = []
    if head.tag == Tag.TABLES:
        for table in lines[1:]:
            state = _names_from(state, table)
        ours = any(table.get_int("id") == state.table for table in lines[1:])
        page, pages = head.get_int("page") or 1, head.get_int("pages") or 1
        if quiet and not ours and state.table is not None and page < pages:
            # a busy server lists ours on a later page (100 to a page: docs/protocol.md §5.2)
            state = attrs.evolve(state, resync=(*state.resync, f"tables {page + 1}"))
        total = head.get_int("total") or 0
        listed = T.ONE_TABLE_LISTED if total == 1 else T.TABLES_LISTED
        count = state.say(listed, count=total)
        shown = [count, *(_table_text(state, table) for table in lines[1:])]
    elif head.tag == Tag.SHEET:
        if head.get_int("table") == state.table and state.table is not None:
            rows = tuple(_won(state, DealScore(*row)) for row in replies.sheet_rows(lines))
            state = attrs.evolve(state, deals=rows, score=rows[-1].totals if rows else state.score)
        shown = replies.sheet_text(
            lines,
            state.names_at(head.get_int("table")),
            _on_points(state, head),
            _over(state, head),
            state.lang,
        )
    elif head.tag == Tag.HISTORY:
        names = state.names_at(head.get_int("table"), head.get_str("match"))
        on_points, over = _on_points(state, head), _over(state, head)
        # the game's words for its combinations (Tertz's 'mariage'): our table's, or a
        # match left's by what its lines show of a talon
        talon = any("broken" in line.fields for line in lines[1:])
        here = head.get_int("table") == state.table and state.table is not None
        words = state.words if here else words_for(None, talon=0 if talon else None)
        shown = replies.history_text(lines, names, on_points, over, state.lang, words)
    elif head.tag == Tag.GAMES:
        shown = replies.games_text(lines, state.lang)
    elif head.tag == Tag.TOP:
        shown = replies.top_text(lines, state.lang)
    elif head.tag == Tag.FINGER:
        shown = replies.finger_text(lines, state.lang)
    return state if quiet else _log(state, *shown)


def _over(state: TableState, head: Line) -> bool:
    """Whether a 'sheet' or 'history' reply is of a finished match: any but the one
    running at our table (at no table they tell our last match, §5.17), so one with no
    deal says it ended before anyone made a call, not that nothing is played yet."""
    return head.get_int("table") != state.table or state.result is not None


def _table_text(state: TableState, line: Line) -> str:
    free = state.say(T.FREE)
    # a player away marked as the human style marks him: his table may wait for him,
    # or a bot at it play on alone till his away limit (docs/protocol.md §5.2)
    away = set(line.get_list("away"))
    mark = MESSAGES[Msg.AWAY_MARK][1 if state.lang == Lang.RU else 0]
    seats = " ".join(
        free if name == "-" else name + (mark if name in away else "")
        for name in line.get_list("seats")
    )
    options = ",".join(line.get_list("options")) or "-"
    told = line.get_str("state") or ""
    if state.lang == Lang.RU and told in TABLE_STATES:  # as the lobby's list says it
        told = MESSAGES[TABLE_STATES[told]][1]
    table, variant = line.get_str("id"), line.get_str("variant")
    private = state.say(T.PRIVATE_TABLE) if line.get_str("private") == "1" else ""
    return state.say(
        T.TABLE_LINE,
        table=table,
        private=private,
        variant=variant,
        options=options,
        seats=seats,
        state=told,
    )


# a table's state on its 'tables' line, and the catalogue's word for it (Russian)
TABLE_STATES = {"waiting": Msg.WAITING, "playing": Msg.PLAYING, "closed": Msg.CLOSED}


def _names_from(state: TableState, table: Line) -> TableState:
    """The names at our table, from its ``tables`` line (seats by name, ``-`` free)."""
    if state.table is None or table.get_int("id") != state.table:
        return state
    seated = [name if name != "-" else "" for name in table.get_list("seats")]
    names = (new or known for new, known in zip_longest(seated, state.players, fillvalue=""))
    targets = [int(m.group(1)) for o in table.get_list("options") if (m := TO_TARGET.fullmatch(o))]
    known = attrs.evolve(
        state,
        players=tuple(names),
        target=state.target or (targets[0] if targets else None),
        options=tuple(table.get_list("options")),
        variant=table.get_str("variant"),
    )
    # a deal that ended before the options came (a table just observed, its deal-end
    # sent before the answer to 'tables'): its winner named in the score pane now
    return attrs.evolve(known, deals=tuple(_won(known, row) for row in known.deals))


def _last(state: TableState, line: Line) -> TableState:
    """``last``: the last trick taken; it mends the Last line of this deal."""
    laid = line.get_list("cards")
    leader, seats = line.get_int("leader") or 0, max(state.seats, len(laid), 1)
    trick = tuple(((leader + i) % seats, c) for i, c in enumerate(laid))
    if line.get_int("table") == state.table and line.get_int("deal") == state.deal:
        state = attrs.evolve(state, last_trick=trick)
    if "last" in state.quiet:
        return _unquiet(state, "last")
    auto = line.get_ints("auto")  # the seats whose card the clock played
    clock = state.say(T.BY_THE_CLOCK)
    said = "  ".join(
        f"{state.who(seat)} {state.card(c)}{clock if seat in auto else ''}" for seat, c in trick
    )
    winner = state.who(line.get_int("winner"))
    return _log(state, state.say(T.LAST_TRICK, deal=line.get_str("deal"), laid=said, name=winner))


def _ok(state: TableState, line: Line) -> TableState:
    cmd = line.get_str("cmd")
    # a login on a connection made again (the link's own): said in one line, not the
    # greeting again (one connection logs in once: a name known is a later connection's)
    again = cmd == "login" and state.name is not None
    if cmd == "login":
        # a login is a connection's first reply (docs/protocol.md §4.2: once a
        # connection): what was asked on a dropped one is never answered, nor the rest
        # of a reply it was sending; waited for, they would swallow the next replies
        # the table on screen goes with the connection that showed it: the server tells
        # a seat that is still ours (kind=back, then the view), and it is taken back then
        before = state if state.table is not None else None
        state = attrs.evolve(
            _lobby(state),
            name=line.get_str("name"),
            token=line.get_str("token") or state.token,
            quiet=(),
            reply=(),
            reply_left=0,
            before=before,
            seek_typed=False,  # (a dropped connection's line is never answered)
        )
        if again:
            state = _log(state, state.say(T.CONNECTED_AGAIN))
        if before is not None and before.seat is None and before.table is not None:
            # a table we watched: the server gives back a seat only, so say it went (a
            # pty tryout, s29: the screen turned to the lobby without a word)
            state = _log(state, state.say(T.NO_LONGER_WATCHING, table=before.table))
    elif cmd == "sit":
        state = attrs.evolve(
            _lobby(state),
            table=line.get_int("table"),
            seat=line.get_int("seat"),
            resync=("tables",),  # who sits there already, and the target
        )
    elif cmd == "observe" and _playing_elsewhere(state, line.get_int("table")):
        # one table on screen: ours while its match runs (another's lines would mix in)
        said = state.server_text(line.text or "ok observe")
        return _log(state, said, state.say(T.KEEPS_OUR_TABLE))
    elif cmd == "observe":
        # the watched table takes the screen: nothing of the table shown until now (its
        # seats, target, a finished match's result) is kept for it (docs/play.md); what
        # it played before we came is not sent: asked, as after a drop
        state = attrs.evolve(_lobby(state), table=line.get_int("table"), resync=RESYNC)
    elif cmd == "leave":
        state = _lobby(state)
    elif cmd == "seek":
        state = attrs.evolve(state, seeking=state.server_text(line.text or "ok seek"))
    elif cmd == "unseek":
        state = attrs.evolve(state, seeking=None)
    elif cmd == "ping" and state.before is not None:
        state = _not_kept(state)
    if cmd in ("style", "clock", "ping") or again:
        return state
    state = _log(state, state.server_text(line.text or "") or state.say(T.OK, command=cmd))
    name, table = line.get_str("name"), line.get_int("table")
    if cmd == "bot" and name is not None and table is not None:  # (its fields, §5.15)
        state = attrs.evolve(state, coming=(name, table, state.logged))
    return state


def _playing_elsewhere(state: TableState, table: int | None) -> bool:
    """A line of another table while we play at ours (seated, its match not over): the
    server lets a player watch other tables too, but this screen shows one table."""
    return (
        state.seat is not None
        and state.result is None
        and state.table is not None
        and table is not None
        and table != state.table
    )


def _watching_elsewhere(state: TableState, table: int | None) -> bool:
    """An event of another table than the one watched (we still sit at the table of a
    finished match): not folded into the watched one's seats and talk."""
    return state.seat is None and state.table is not None and table not in (None, state.table)


def _lobby(state: TableState) -> TableState:
    """Away from any table: the session kept, and the names of the table left."""
    return TableState(
        name=state.name,
        token=state.token,
        log=state.log,
        logged=state.logged,
        quiet=state.quiet,
        former=state.left(),
        played=state.game_played(),
        banners=state.banners,
        lang=state.lang,
        seek_typed=state.seek_typed,  # (a table closing does not answer it)
    )


def typed(state: TableState, line: str) -> TableState:
    """The state once the player's ``line`` has gone to the server: a 'seek' waits for
    its answer (``ok cmd=seek`` or ``cmd=sit``, or a refusal), so that a place in line a
    leaver gives back meanwhile is not sought too (``_seek_kept``)."""
    words = line.split()
    if words and command_word(words[0]) == "seek":
        return attrs.evolve(state, seek_typed=True)
    return state


def _by_the_clock(state: TableState, line: Line) -> str:
    """What follows a call the clock made for a seat out of time (``auto=1``,
    docs/protocol.md §11.2): ' (by the clock)'."""
    return state.say(T.BY_THE_CLOCK) if line.get_str("auto") == "1" else ""


def _not_kept(state: TableState) -> TableState:
    """A pong after logging in again with our seat not taken back: the seat is gone, said
    in place of the bare 'Connected again.' (the link pings right after its login, and
    the answer to a login, a seat's 'back' and view included, comes before the next
    line's: docs/protocol.md §2.3). A table only watched was said at the login, and a
    seat whose match was over is no seat to keep (a tryout, s44: 'your seat at table 4
    was not kept' of a match lost an hour before the server's restart)."""
    before = state.before
    state = attrs.evolve(state, before=None)
    if before is None or before.seat is None or before.table is None or before.result:
        return state
    log = list(state.log)
    again = state.say(T.CONNECTED_AGAIN)
    at = next((i for i in reversed(range(len(log))) if log[i] == again), None)
    if at is None:  # (gone from the log kept: said now)
        return _log(state, state.say(T.NOT_KEPT_UNSAID, table=before.table))
    # what the server logged since the login is its word on it (a seat freed, a match
    # lost or ended while away; a registered name's match cut off by a restart)
    said = T.NOT_KEPT_WHY if at < len(log) - 1 else T.NOT_KEPT_UNSAID
    log[at] = state.say(said, table=before.table)
    return attrs.evolve(state, log=tuple(log))


def _back(state: TableState, table: int | None) -> TableState:
    """Back at our seat after logging in again: the table we sat at taken back (its
    names, score, match), with the session as it is now."""
    before = state.before
    if before is None or before.table != table or state.table is not None:
        return state
    return attrs.evolve(
        before,
        name=state.name,
        token=state.token,
        log=state.log,
        logged=state.logged,
        reply=state.reply,
        reply_left=state.reply_left,
        quiet=state.quiet,
        resync=state.resync,
        before=None,
        banners=state.banners,
    )


def _view(state: TableState, view: View) -> TableState:
    seats = view.players
    trick_seats = [(view.leader + i) % seats for i in range(len(view.trick))]
    said = []
    for item in view.talk:
        seat, _, token = item.partition(":")
        said.append((int(seat) if seat.isdigit() else -1, token))
    talk = _talk_after(state, view, tuple(said))
    # (names of the table shown until now only if this is that table: not at one
    # newly watched, until its seats come)
    same_table = view.table == state.table
    players = list(state.players if same_table and len(state.players) == seats else ("",) * seats)
    if view.seat is not None and 0 <= view.seat < seats and not players[view.seat]:
        players[view.seat] = state.name or ""  # our own seat, whatever else is unknown
    # names not known (a new client resuming with its token): ask the table, once a
    # table, and again on a 'state' (F4), which only comes when asked for
    again = state.asked_again != view.table or view.kind == Tag.STATE
    again = again and "tables" not in state.quiet  # not while the answer is on its way
    resync = state.resync or (RESYNC if not all(players) and again else ())
    same_deal = (view.table, view.deal) == (state.table, state.deal)
    asking = view.kind == Tag.ASK
    if "state" in state.quiet:  # the answer to our own 'state' (either view answers it)
        state = _unquiet(state, "state")
    talon = view.raw.get("talon")
    theirs = view.raw.get("their_tricks")
    seen = attrs.evolve(
        state,
        table=view.table,
        seat=view.seat,
        players=tuple(players),
        match=state.match if same_table else None,
        options=state.options if same_table else (),
        variant=state.variant if same_table else None,
        resync=resync,
        last_trick=state.last_trick if same_deal else (),
        deal=view.deal,
        dealer=view.dealer,
        phase=view.phase,
        hand=tuple(view.hand),
        turned=view.turned,
        fresa=view.fresa,
        trump=view.trump,
        player=view.player,
        talon=int(talon) if talon is not None and talon.isdigit() else None,
        their_tricks=tuple(theirs.split(",")) if theirs and theirs != "-" else None,
        shown=_face_up(view.shown),
        trick=tuple(zip(trick_seats, view.trick, strict=True)),
        tricks=tuple(view.tricks),
        to_act=view.to_act,
        talk=talk,
        asking=asking,
        seq=view.seq,
        legal=konets_last(view.legal),
        clock_ms=view.clock_ms if asking else None,
        last_timeout=_last_timeout(view) if asking else None,
        target=view.target,
        score=tuple(view.score),
    )
    if seen.last_timeout is not None and seen.warned_seq != view.seq:
        # said once, as the ask comes: a person over nc hears it 10 s before the end
        told = seen.say(T.LAST_TIMEOUT, count=seen.last_timeout)
        seen = _log(attrs.evolve(seen, warned_seq=view.seq), told)
    stake = view.raw.get("stake")  # a dave table's (docs/protocol.md §6.3)
    return _asked(seen, view.pending, int(stake) if stake and stake.isdigit() else None)


def _last_timeout(view: View) -> int | None:
    """An ask's ``last_timeout=``: the timeouts in a row that forfeit the game, when its
    clock running out would (docs/protocol.md §6.3); None if absent or unreadable."""
    told = view.raw.get("last_timeout")
    return int(told) if told is not None and told.isdigit() else None


def konets_last(legal: Iterable[str]) -> tuple[str, ...]:
    """The legal calls with ``konets`` last. ``legal=`` lists it after every trick the
    seat took; the server's own prompt leaves it out only while the side could not
    reach the target in this deal, and never tells whether a claim would win
    (docs/rules.md §10: that is the player's own count), nor does this client. Listed
    last, it is never the pane's first word nor what Tab or a typed 'k' completes to
    before a king."""
    calls = tuple(legal)
    return (*(c for c in calls if c != KONETS), *(c for c in calls if c == KONETS))


# the open questions no player asks: the table asks each seat in turn (swap?), or the
# rules (lomayu: the Turn line and F8 say it)
UNASKED = frozenset({SWAP_Q, "lomayu"})


def _asked(state: TableState, pending: str | None, stake: int | None = None) -> TableState:
    """A question another seat puts to us (rost?, pokazhi, prokhodit?, dave, …): said in
    the log once, as the human style tells it, naming who asks (at three or four
    players the talk's 'boris: rost?' does not say whom he asks)."""
    if pending is None:
        return attrs.evolve(state, question=None) if state.question is not None else state
    kind, _, seats = pending.partition(":")
    asker, _, answerer = seats.partition(":")
    if pending == state.question or not (asker.isdigit() and answerer.isdigit()):
        return state
    told = attrs.evolve(state, question=pending)
    me, by = state.seat, int(asker)
    if me is None or int(answerer) != me or by == me or kind in UNASKED:
        return told
    names = [state.who(seat) for seat in range(max(state.seats, by + 1, me + 1))]
    asked = (kind, by, me)
    if state.lang == Lang.RU:
        said = question_ru(asked, names, me, state.talk, state.words, state.legal, stake)
        return _log(told, said)
    return _log(told, question(asked, names, me, state.talk, state.legal, stake, state.words))


def _is_card(token: str) -> bool:
    return card(token) != token  # (card() leaves what is no card as it is)


def _talk_after(
    state: TableState, view: View, said: tuple[tuple[int, str], ...]
) -> tuple[tuple[int, str], ...]:
    """The deal's talk once ``view`` came: its ``talk=`` (``said``) if that holds every
    call shown (it may hold more: calls made while the connection was down), else the
    talk shown. A view is the table at its ``seq`` (docs/protocol.md §6.3, §7), the
    events as they happen: one that has not caught up with them takes no call back
    (within a deal the talk only grows; the deal's ``deal`` event starts it afresh)."""
    same_deal = (view.table, view.deal) == (state.table, state.deal)
    if same_deal and said[: len(state.talk)] != state.talk:
        return state.talk
    return said


# the events after which an earlier request no longer stands (away/back do not spoil it)
_MOVES = frozenset(
    {
        EventKind.CALL,
        EventKind.PLAY,
        EventKind.ORDER,
        EventKind.DEALT,
        EventKind.TRICK,
        EventKind.DEAL,
        EventKind.DEAL_END,
        EventKind.MATCH_END,
        EventKind.PENALTY,
    }
)


def _face_up(shown: Sequence[str]) -> tuple[tuple[int, str], ...]:
    """A view's ``shown`` (``SEAT:CARD``, docs/protocol.md §6.3) as (seat, card)."""
    out = []
    for item in shown:
        seat, _, card_ = item.partition(":")
        if seat.isdigit() and card_:
            out.append((int(seat), card_))
    return tuple(out)


def _said_already(state: TableState, line: Line, seat: int) -> bool:
    """Our own ``seated``, at the table and seat the ``ok cmd=sit`` before it told us
    (its text was logged: 'You sit at table 1, seat 0.'); said again, it read as twice."""
    name, me = line.get_str("name"), state.name
    if name is None or me is None or name.casefold() != me.casefold():
        return False
    return (state.table, state.seat) == (line.get_int("table"), seat)


def _bot_coming(state: TableState, line: Line) -> bool:
    """The log's last line is the ``ok cmd=bot`` that said this house bot comes to the
    table it now sits at ('house-random-3 comes to table 5.'): its seat says it better
    ('house-random-3 sits at seat 1'), and both read as two arrivals. Known by that
    line's fields (``name= table=``), not its words, which a server may choose."""
    if state.coming is None or state.table is None:
        return False
    told = (line.get_str("name"), state.table, state.logged)
    return bool(state.log) and state.coming == told


def _event(state: TableState, line: Line) -> TableState:
    kind = line.kind
    if kind in _MOVES:  # the table moved on: the next ask (if any) brings the new request
        state = attrs.evolve(state, asking=False, legal=(), clock_ms=None, last_timeout=None)
    if kind == EventKind.SEATED or kind == EventKind.LEFT:
        seat = line.require_int("seat")
        names = list(state.players) + [""] * (seat + 1 - len(state.players))
        names[seat] = line.require("name") if kind == EventKind.SEATED else ""
        verb = T.SITS if kind == EventKind.SEATED else T.LEAVES
        named = attrs.evolve(state, players=tuple(names))
        if kind == EventKind.SEATED and _said_already(state, line, seat):
            return named
        sits = state.say(verb, name=line.require("name"), seat=seat)
        if kind == EventKind.SEATED and _bot_coming(state, line):  # in one line, not two
            return attrs.evolve(named, log=(*state.log[:-1], sits))
        return _log(named, sits)
    if kind == EventKind.START:
        seated = tuple(line.get_list("players"))
        sides = len(seated) if len(seated) < 4 else 2  # four players: two pairs
        return _log(
            attrs.evolve(
                state,
                players=seated,
                match=line.get_str("match"),
                deals=(),
                result=None,
                score=(0,) * sides,
            ),
            state.say(T.STARTS, sides=versus(seated, state.lang)),
        )
    if kind == EventKind.DEAL:
        turned = line.get_str("turned")
        # a game with a talon (its views said so) has no bidding: the turned card is trump
        talon_game = state.talon is not None
        return _log(
            attrs.evolve(
                state,
                deal=line.require_int("deal"),
                dealer=line.get_int("dealer"),
                turned=turned,
                fresa=None,
                trump=turned[-1:] if talon_game and turned else None,
                player=None,
                trick=(),
                last_trick=(),
                tricks=(),
                their_tricks=None,
                shown=(),
                shown_played=(),
                talk=(),
                score=tuple(line.get_ints("score")),
                phase="play" if talon_game else "bidding",
            ),
            state.say(
                T.DEALS, deal=line.require_int("deal"), name=state.who(line.get_int("dealer"))
            ),
        )
    if kind == EventKind.CALL:
        seat = line.require_int("seat")
        call = line.require("call")
        nxt = seat if state.phase != "bidding" else (seat + 1) % max(state.seats, 1)
        turned = state.turned
        if call == MENYAYU and turned:  # the trump 7 lies face up in its place from now
            turned = "7" + turned[-1]
        broken = call.startswith(BREAK)
        if broken:  # the winner of the first trick leads once the deck is broken (§12.2)
            nxt = (seat + 1) % max(state.seats, 1)
        state = attrs.evolve(state, talk=(*state.talk, (seat, call)), to_act=nxt, turned=turned)
        if broken and nxt != state.seat:  # both drew; only the winner is asked
            state = _view_again(state)
        spoken = state.spoken(call)  # as said (Tertz's 'mariage')
        said = state.say(
            T.CALLED, name=state.who(seat), call=spoken, clock=_by_the_clock(state, line)
        )
        if _round_two_opens(state):  # as the human style says it (docs/play.md)
            other = (
                state.say(T.OTHER_SUIT, suit=suit(turned[-1:]))
                if turned
                else state.say(T.ANOTHER_SUIT)
            )
            return _log(state, said, state.say(T.ROUND_TWO, other=other))
        return _log(state, said)
    if kind == EventKind.PLAY:
        seat = line.require_int("seat")
        card = line.require("card")
        hand = tuple(c for c in state.hand if c != card) if seat == state.seat else state.hand
        played = (*state.shown_played, card) if (seat, card) in state.shown else state.shown_played
        state = attrs.evolve(
            state,
            trick=(*state.trick, (seat, card)),
            hand=hand,
            shown_played=played,
            to_act=(seat + 1) % max(state.seats, 1),
        )
        if line.get_str("auto") == "1":  # a card the clock played: said, as its calls are
            clock = _by_the_clock(state, line)
            said = state.cards([card])
            return _log(
                state, state.say(T.PLAYS_CARD, name=state.who(seat), cards=said, clock=clock)
            )
        return state
    if kind == EventKind.TRICK:
        winner = line.require_int("winner")
        laid = line.get_list("cards")
        done = _taken(state.trick, laid, state.seats)
        tricks = list(state.tricks) or [0] * max(len(state.score), 2)
        side = winner % len(tricks) if len(tricks) > 1 else 0
        tricks[side] += 1
        # a talon game's first trick: its loser must break the deck before anything
        # else (docs/rules.md §12.2), and nobody draws until then
        breaking = state.talon is not None and sum(tricks) == 1
        nxt = (winner + 1) % max(state.seats, 1) if breaking else winner
        talon_open = bool(state.talon)
        state = attrs.evolve(state, trick=(), last_trick=done, to_act=nxt, tricks=tuple(tricks))
        if talon_open and not breaking and winner != state.seat:
            state = _view_again(state)  # both drew, and only the winner is asked
        return _log(state, state.say(T.TAKES, name=state.who(winner), cards=state.cards(laid)))
    if kind == EventKind.ORDER:
        trump = line.get_str("trump")
        return _log(
            attrs.evolve(
                state,
                # four players: the turned card goes to the dealer's hand (docs/protocol.md
                # §6.3); a seat's next ask says so too, an observer has only this event
                turned=None if state.seats == 4 else state.turned,
                trump=trump,
                player=line.get_int("player"),
                fresa=line.get_str("fresa"),
                phase="play",
            ),
            state.say(T.ORDERS, name=state.who(line.get_int("player")), suit=suit(trump)),
        )
    if kind == EventKind.DEALT:
        return attrs.evolve(state, fresa=line.get_str("fresa"))
    if kind == EventKind.SHOWN:
        seat = line.require_int("seat")
        before = [c for s, c in state.shown if s == seat]
        added = [c for c in line.get_list("cards") if c not in before]
        state = attrs.evolve(state, shown=(*state.shown, *((seat, c) for c in added)))
        said = state.cards(line.get_list("cards"))
        # a show that adds to one before (Tertz): what lies face up now, as the server's
        # human style says it: the cards shown still in the hand, none played since
        face_up = [c for c in [*before, *added] if c not in state.shown_played]
        if len(face_up) <= len(line.get_list("cards")):
            return _log(state, state.say(T.SHOWS, name=state.who(seat), cards=said))
        now = state.cards(in_hand_order(face_up))
        return _log(state, state.say(T.SHOWS_NOW, name=state.who(seat), cards=said, now=now))
    if kind == EventKind.PENALTY:
        offender, punished = line.get_int("seat"), line.get_str("call")
        if offender is not None and punished and not _is_card(punished):  # in talk= too
            state = attrs.evolve(state, talk=(*state.talk, (offender, punished)))
        return _log(
            state, state.say(T.PENALTY, name=state.who(offender), code=line.get_str("code"))
        )
    if kind == EventKind.DEAL_END:
        row = DealScore(
            line.require_int("deal"),
            line.require("outcome"),
            tuple(line.get_ints("written")),
            tuple(line.get_ints("totals")),
        )
        row = _won(state, row)
        # a short game without a bide names the deal's winner: 'bide' there meant only
        # that another than the one who ordered won (docs/rules.md §11)
        # (a void deal 'redealt', «пересдача»: dealt again, as the sheet says it)
        outcome = outcome_said(row.outcome, state.lang)
        how = outcome if row.winner is None else state.say(T.WON_BY, name=state.who(row.winner))
        # the deal is over: a hand a claim (or a penalty) cut short is not held any
        # more, as after the last trick (docs/protocol.md §9.6), nor is a trick a penalty
        # cut short on the table (its cards stayed on the Trick line till the next deal)
        ended = attrs.evolve(
            state,
            deals=(*state.deals, row),
            score=row.totals,
            to_act=None,
            phase="done",
            hand=(),
            trick=(),
        )
        return _log(
            ended,
            state.say(
                T.DEAL_END,
                deal=row.deal,
                how=how,
                written=_pair(row.written),
                totals=_pair(row.totals),
            ),
        )
    if kind == EventKind.MATCH_END:
        table = line.get_int("table")
        if state.table is None and table is not None:  # ours, just left ('leave'): said
            return _left_match_ended(state, line)  # with its names, no score shown
        result, told = _game_over(state, line)
        # its names kept now: a table watched next takes the screen (and its names) in
        # place, and 'history' of this match, our last, still names its players
        former = state.left() if line.get_int("table") == state.table else state.former
        totals = tuple(line.get_ints("totals"))
        # no hand is held any more, nor a trick on: a forfeit ends the match mid-deal
        # (mid-trick too), with no deal-end
        offered = _rematch_offered(state, line)
        state = attrs.evolve(
            state, result=result, to_act=None, score=totals, former=former, hand=(), trick=()
        )
        state = _log(attrs.evolve(state, played=state.game_played()), told)
        if not offered:
            return state
        seconds = line.get_int("rematch_s") or REMATCH_S  # (said as the server says it)
        state = attrs.evolve(state, rematch_s=seconds)
        return _log(state, phrase(Msg.REMATCH_OFFERED, seconds=seconds).text(state.lang))
    if kind == EventKind.OBSERVER:  # who looks on: the players are told (protocol §5.7)
        count = line.get_int("observers") or 0
        now = state.say(T.WATCHING, count=count) if count else state.say(T.NOBODY_WATCHING)
        verb = T.WATCHES if line.get_str("watching") == "1" else T.STOPS_WATCHING
        return _log(state, state.say(verb, name=line.get_str("name"), now=now))
    if kind == EventKind.BACK and line.get_str("name") == state.name:
        state = _back(state, line.get_int("table"))
    if kind == EventKind.AWAY or kind == EventKind.BACK:
        word = T.IS_AWAY if kind == EventKind.AWAY else T.IS_BACK
        if kind == EventKind.BACK and line.get_str("name") == state.name:
            state = attrs.evolve(state, resync=RESYNC)  # what we missed is not replayed
            if state.log[-1:] == (state.say(T.CONNECTED_AGAIN),):  # said with the seat,
                seat_back = state.say(T.SEAT_BACK, table=line.get_int("table"))  # in one line
                return attrs.evolve(state, log=(*state.log[:-1], seat_back))
        return _log(state, state.say(word, name=line.get_str("name")))
    return state


def _taken(
    seen: tuple[tuple[int, str], ...], laid: Sequence[str], seats: int
) -> tuple[tuple[int, str], ...]:
    """A taken trick's cards (its event's, as laid) with who laid each: as we saw them
    laid; else placed by any one of them we saw (the turn goes round the table, so one
    card's seat gives every card's: a client that came mid-trick, an observer whose
    view came after the trick's first card); else -1, not known (docs/play.md)."""
    if [c for _, c in seen] == list(laid):
        return seen
    known = dict((c, s) for s, c in seen)
    placed = next(((i, known[c]) for i, c in enumerate(laid) if c in known), None)
    players = seats or len(laid)  # a card a seat: a whole trick is one round
    if placed is None or players < len(laid):
        return tuple((-1, c) for c in laid)
    index, seat = placed
    return tuple(((seat - index + i) % players, c) for i, c in enumerate(laid))


def _rematch_offered(state: TableState, line: Line) -> bool:
    """Whether the server offers the match just ended at our seat again, as it tells a
    person over nc ("'rematch' within 60 s …", docs/protocol.md §5.16) and a program
    not at all: a player's (not a watcher's), not with a house bot (whose name says it
    is one, §5.1), not to the one whose 'leave' ended it (``_left_match_ended`` tells
    him, after 'ok leave', unless that crossed the end). A tryout (s44): the client's player never
    heard of the rematch."""
    if state.seat is None or line.get_int("table") != state.table or state.draining:
        return False  # (a drain: no new game starts, none is offered)
    reason = line.get_str("reason")
    if reason == MatchEndReason.INTERNAL:  # the table failed: no result
        return False
    if reason == Outcome.LEFT and line.get_int("forfeit") == state.seat:  # he chose to go
        return False
    return not any(name.lower().startswith(HOUSE_PREFIX) for name in state.players)


def _seek_kept(state: TableState, line: Line) -> TableState:
    """A leaver ended the match we sought before its first deal ended, and the server
    keeps our place in line for a program to take (``info first_in_line=1``,
    docs/protocol.md §5.5): the client takes it, seeking that game again, as the server
    keeps a person's seek over nc (a person at the client expects no less: s45), and
    says so as it says it to him ('… you still wait for a moscow game for 2 players, first
    in line …'), from the line's fields (``leaver= apart_ms=``; it read them out of
    the English sentence, and a server that words it otherwise had no seek sent, s47).
    Not when we wait for a game already (a seek typed meanwhile), nor while a seek he
    typed is on its way, unanswered (two went out, and the client's, sent last, took
    the place of his, s47's notes: his is sought, and goes first in line if of that
    game), nor for a line with no game named (a server of before: said as it came); one
    that names no leaver is sought again, its own sentence said."""
    text = line.text or ""
    players, variant = line.get_int("players"), line.get_str("variant")
    if state.seeking is not None or state.seek_typed or players is None or not variant:
        return _log(state, state.server_text(text))
    options = line.get_list("options")
    game = " ".join((str(players), variant, *options))
    state = attrs.evolve(state, on_behalf=(*state.on_behalf, f"seek {game}"))
    leaver, apart_ms = line.get_str("leaver"), line.get_int("apart_ms")
    if leaver is None or apart_ms is None:
        return _log(state, state.server_text(text))
    minutes = -(-apart_ms // 60_000)  # as the server rounds them (server/matchmaking.py)
    apart = phrase(Msg.SEEK_APART, name=leaver, minutes=minutes) if minutes else phrase(Msg.NOTHING)
    named = f" ({', '.join(options)})" if options else ""
    kept = phrase(
        Msg.SEEK_KEPT,
        name=leaver,
        variant=variant,
        for_players=game_for(players),
        options=named,
        apart=apart,
    )
    return _log(state, kept.text(state.lang))


def sent_on_behalf(state: TableState) -> tuple[TableState, tuple[str, ...]]:
    """The requests the client sends for the player now (``state.on_behalf``), and the
    state without them."""
    if not state.on_behalf:
        return state, ()
    return attrs.evolve(state, on_behalf=()), state.on_behalf


def _no_rematch_said(state: TableState) -> TableState:
    """The rematch said on offer at the match's end, just before, taken back: a leaver
    ended it before its first deal ended, and we sought it, so the server gives us our
    place in line again (``info first_in_line=1``, docs/protocol.md §5.5) and offers a
    person no rematch (it would pair us with the leaver we are kept apart from). The
    log read "'rematch' within 60 s …", then "olga left …: seek … again" (a review, s45)."""
    offered = phrase(Msg.REMATCH_OFFERED, seconds=state.rematch_s).text(state.lang)
    if state.log[-1:] != (offered,):
        return state
    return attrs.evolve(state, log=state.log[:-1], logged=state.logged - 1)


def _game_over(state: TableState, line: Line) -> tuple[str, str]:
    """A match end in words: the result (the table pane's) and the log's line, which
    names the match too."""
    winners = line.get_list("name")
    # a pair wins together, as the human style says it: "vika and nika win"
    verb = T.WIN if len(winners) > 1 else T.WINS
    reason = line.get_str("reason") or ""
    if reason == MatchEndReason.INTERNAL:  # failed: no result at all
        verdict = state.say(T.NO_RESULT)
    else:
        named = state.say(T.AND).join(winners)
        verdict = state.say(verb, names=named) if winners else state.say(T.DRAW)
        side, sums = line.get_int("winner"), line.get_ints("totals")
        # his total only when it says something: a forfeit before any deal was written
        # won with nothing ('b2 wins with 0 (left: b1)', true but odd: s44)
        if winners and side is not None and 0 <= side < len(sums) and sums[side] > 0:
            verdict += state.say(T.WITH_TOTAL, total=sums[side])
    russian_words = state.lang == Lang.RU
    why = RU_MATCH_REASONS.get(reason, reason) if russian_words else short_words(reason)
    forfeit = line.get_int("forfeit")  # who lost it (three at 0:0:0 would not say)
    if forfeit is not None and russian_words and reason in RU_FORFEITS:
        why = RU_FORFEITS[reason].format(who=state.who(forfeit))  # as the server says it
    elif forfeit is not None:
        why = state.say(T.FORFEIT, why=why, name=state.who(forfeit))
    # a seat's true konets, said just before (the wire's reason is 'claim' either way):
    # as the table's own end line says it, not as the server's claim (docs/rules.md §10)
    if reason == Outcome.CLAIM and state.talk[-1:] and state.talk[-1][1] == KONETS:
        why = RU_CLAIMED_WORDS if russian_words else CLAIMED_WORDS
    totals = _pair(tuple(line.get_ints("totals")))
    result = state.say(T.GAME_OVER, verdict=verdict, why=why, totals=totals)
    # the log names its id, for 'history' and the records (a resumed client was
    # never told the start's); the table pane's few columns keep the result alone
    match = line.get_str("match") or state.match
    return result, result if match is None else state.say(T.MATCH, result=result, match=match)


def _left_match_ended(state: TableState, line: Line) -> TableState:
    """The end of the match at the table we just left ('leave' forfeits it; the end comes
    after 'ok leave'): said with the names kept on leaving, its seats' names; the score
    pane stays empty, as in the lobby (it showed the old match's till the next)."""
    names = state.names_at(line.get_int("table"), line.get_str("match"))
    result, told = _game_over(attrs.evolve(state, players=names or state.players), line)
    return _log(attrs.evolve(state, result=result), told)
