"""What the server says, as small frozen values; ``render`` turns them into lines."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

import attrs

from deberc_net.game.calls import PLAY
from deberc_net.game.cards import Card
from deberc_net.game.events import MatchEvent
from deberc_net.game.outcomes import FORFEITS
from deberc_net.game.sheet import SheetRow
from deberc_net.game.view import SeatView

from .commands import NewGames
from .lang import NO_WORDS
from .messages import Msg, Phrase, Usage, Value, phrase


class TableState(StrEnum):
    WAITING = "waiting"  # for players to sit
    PLAYING = "playing"
    CLOSED = "closed"  # over, or stopped: the table task ends


class ServerGoing(StrEnum):
    """What the server's word to everyone says it does (``info server=…``,
    docs/protocol.md §11.4, §11.4a): its words as /api/health's (docs/web.md)."""

    DRAINING = "draining"  # it restarts once the running matches are over
    STOPPING = "stopping"  # it stops now: the connections close in a moment


@attrs.frozen
class Hello:
    version: str
    protocol: str


@attrs.frozen
class Ok:
    cmd: str
    text: str
    fields: tuple[tuple[str, str], ...] = ()
    said: Phrase | None = None  # the text as a catalogue phrase: told in each language


@attrs.frozen
class Error:
    code: str
    text: str
    human: str | None = None  # the text for people, when it differs (names, ♠♥♦♣)
    said: Phrase | None = None  # the text as a catalogue phrase: told in each language
    hint: str | None = None  # a mistyped call's likely meaning, as a token (hints.py)
    # a mistyped command's likely name (hints.py): said to people, and in a field to a
    # program (command_hint=), whose person may have typed it: the terminal client
    # read the word out of the sentence to guess it itself (s47)
    command: str | None = None
    # the whole line that command means, as people are told it: 'new 2 харьков' for a
    # variant's name typed alone in the lobby (a tryout, s50); command= keeps the name
    meant: str | None = None
    words: Mapping[str, str] = NO_WORDS  # the hint's table's, as in TableEvent
    # a slow-down's wait: ms until the limit that refused it lets it in, as things stand
    # (wait_ms=, appended before text=: a bot knows when to send it again)
    wait_ms: int | None = None
    # the machine style's own fields after those, before text= (a stale call's
    # answers= and open=, the numbers its text says: ``stale``)
    fields: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class Info:
    text: str
    said: Phrase | None = None
    # the machine style's fields before text= (a table's close names it: closed=T)
    fields: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class TextBlock:
    """Help and other multi-line text (machine style: one ``text`` line each)."""

    tag: str
    lines: tuple[str, ...]
    ru: tuple[str, ...] | None = None  # the lines in Russian, for 'lang ru'


@attrs.frozen
class Who:
    names: tuple[str, ...]  # this page's
    total: int = 0  # names in every page
    page: int = 1
    pages: int = 1


@attrs.frozen
class TableInfo:
    id: int
    players: int
    variant: str
    options: tuple[str, ...]
    seats: tuple[str | None, ...]
    state: TableState
    observers: int
    private: bool = False  # listed only to its own people (docs/protocol.md §5.2)
    # a running match's deal and score by side, for people (the web index shows them);
    # the machine line leaves them out
    deal: int | None = None
    score: tuple[int, ...] = ()
    # the seats whose players are away (disconnected): a full table waiting for one of
    # them does not start till he is back (docs/protocol.md §12)
    away: tuple[int, ...] = ()
    # reserved for its players (docs/protocol.md §5.5a): marked to an admin only
    reserved: bool = False


@attrs.frozen
class Tables:
    tables: tuple[TableInfo, ...]  # this page's
    total: int = 0  # tables in every page
    page: int = 1
    pages: int = 1
    # an empty list says what is true of opening one: a drain, or a server closed to games
    games: NewGames = NewGames.OPEN


@attrs.frozen
class Said:
    sender: str
    text: str
    table: int | None
    watchers: bool = False  # a watcher's talk, heard by the table's watchers only


@attrs.frozen
class Invited:
    """Someone at a table lets you in ('invite'): 'sit TABLE' takes the seat."""

    sender: str
    table: int
    players: int
    variant: str
    options: tuple[str, ...]
    private: bool


class RematchOff(StrEnum):
    """Why a rematch is called off."""

    TIMEOUT = "timeout"  # not everyone asked in time
    LEFT = "left"  # a player disconnected
    ELSEWHERE = "elsewhere"  # a player sat down (or seeks) elsewhere
    DRAIN = "drain"  # the server drains: no new game starts (docs/protocol.md §11.4a)
    # under --workers, the worker that kept the offer (its match's) stopped, or was lost
    SERVER_STOPPED = "server-stopped"
    SERVER_LOST = "server-lost"


@attrs.frozen
class Rematch:
    """Where a rematch of a finished match stands ('rematch'): who asked, who has not;
    ``off``: why it is called off (None while it stands), ``by`` whom. ``agreed``: the
    one told has asked too, so people are told where it stands, not asked to agree (a
    tryout: "'rematch' to agree" went to one who had); no field of the machine line."""

    table: int
    asked: tuple[str, ...]
    waiting: tuple[str, ...]
    off: RematchOff | None = None
    by: str | None = None
    agreed: bool = False


@attrs.frozen
class Game:
    """One line of a player's recent games."""

    match: str
    table: int
    players: tuple[str, ...]
    variant: str
    winner: str | None
    reason: str
    totals: tuple[int, ...]
    finished: str
    forfeit: int | None = None  # the seat whose forfeit ended it (match-end's, §9.7)
    # its 'claim' was a seat's true konets (protocol/ends.py said_konets): told to
    # people, the machine line keeps reason=claim
    claimed: bool = False
    # the table's options, sorted ('short'): people's line names the game with them
    options: tuple[str, ...] = ()


@attrs.frozen
class Games:
    name: str
    games: tuple[Game, ...]


@attrs.frozen
class Rated:
    """A person's rating in one variant and player count, and his rank there."""

    rank: int
    name: str
    variant: str
    players: int
    rating: float  # mu - 3 sigma
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int


@attrs.frozen
class Top:
    """'top': the standings of one variant and player count, a page of them."""

    variant: str
    players: int
    ratings: tuple[Rated, ...]  # this page's
    total: int = 0
    page: int = 1
    pages: int = 1


@attrs.frozen
class Finger:
    """'finger NAME': who a player is, his ratings and his last games."""

    name: str
    registered: bool
    online: bool
    ratings: tuple[Rated, ...]
    last: tuple[str, ...]  # match ids, newest first
    house_bot: bool = False  # a house bot's rating name: its copies played the matches
    never_rated: bool = False  # a house bot that is never rated (the random bot)
    # told an admin only: the name's ban and running mute, as 'bans' and 'mutes' list them
    ban: Banned | None = None
    mute: MutedName | None = None
    # told an admin only: the address of his connection, as its limits count it (an
    # IPv6 one's /64), what 'ban ADDRESS' takes; None: not logged in, or not an admin's
    address: str | None = None


@attrs.frozen
class Seated:
    name: str
    seat: int


@attrs.frozen
class Left:
    """A seat is given up (before the match starts, or after it is over)."""

    name: str
    seat: int
    # freed by the table: its player was away past the away limit before the match
    # started (docs/protocol.md §12); said to people, the machine line is the same
    away_too_long: bool = False


@attrs.frozen
class WentAway:
    """A seated player lost the connection: the seat waits and the clock runs."""

    name: str
    seat: int
    # the whole seconds the seat is still held (the table's away limit, or what is left
    # of it), for people; the machine line leaves it out (a bot knows the rules)
    held_s: int | None = None
    # a match runs (its clock with it); at a waiting table there is no clock to speak of
    clock_runs: bool = True


@attrs.frozen
class CameBack:
    name: str
    seat: int


@attrs.frozen
class Watching:
    """Someone starts (``watching``) or stops watching the table; ``observers``: how
    many watch now. Players are told who looks on."""

    name: str
    watching: bool
    observers: int


SeatEvent = Seated | Left | WentAway | CameBack
"""What the table itself says about its seats (the rest is the engine's, game/events.py)."""


@attrs.frozen
class TableEvent:
    """A public event at a table, numbered per table; ``names`` by seat ("-": free)."""

    seq: int
    table: int
    names: tuple[str, ...]
    event: MatchEvent | SeatEvent | Watching
    sides: tuple[tuple[int, ...], ...] = ()  # the seats of each side, when it matters
    # the rules' Settings.deal_won_on_points: people are told a deal's winner, not
    # how the one who ordered fared (docs/rules.md §11)
    deal_won_on_points: bool = False
    # the table's own Russian words for calls (lang.table_words: Tertz's «марьяж»)
    words: Mapping[str, str] = NO_WORDS
    # after a swap of the trump seven, the card face up now (the call's event names
    # none): a person's line says it
    face_up: Card | None = None
    # the pas that opened the bidding's second round: the turned suit, which it may
    # not name (the call's event says only 'pas'): a person's lines say the round
    round_two: int | None = None
    # a show that adds to what the seat showed before (Tertz shows each card once):
    # every card it has face up now, for a person's line (a fifty read as one card)
    shown_now: tuple[Card, ...] | None = None
    # an accepted dave (Settings.stake_in_play): the stake the deal is played for now
    # (the call's event says only 'prinimayu'): a person's lines say it
    stake: int | None = None


class AskKind(StrEnum):
    ASK = "ask"  # a request to act
    STATE = "state"  # the same fields, asking nothing


@attrs.frozen
class Ask:
    """A request to act, or (``kind=STATE``) the seat's full state."""

    seq: int
    table: int
    view: SeatView
    clock_ms: int | None
    kind: AskKind = AskKind.ASK
    # people are shown the whole table (deal, dealer, score, trump) only when they ask
    # for it ('state', observe, back): a request in play repeats none of it
    whole: bool = False
    words: Mapping[str, str] = NO_WORDS  # as in TableEvent
    # people at three or four players are told whose turn it is after each card, as at
    # a real table, and nothing else again (their hands, the question): human style only
    turn_only: bool = False


@attrs.frozen
class LastTrick:
    """The last trick taken at a table ('last'): who led, the cards as laid, who took it."""

    table: int
    deal: int
    leader: int
    cards: tuple[int, ...]  # cards (game.cards), in the order laid from the leader
    winner: int
    names: tuple[str, ...]
    by_clock: tuple[int, ...] = ()  # as HistoryTrick's: the seats whose card the clock played


@attrs.frozen
class Sheet:
    """The score sheet of a table's match ('sheet'), one row a finished deal."""

    table: int
    names: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    target: int | None
    rows: tuple[SheetRow, ...]
    deal_won_on_points: bool = False  # as in TableEvent: each row names its winner
    over: bool = False  # a finished match's (no row: it ended before its first deal)


@attrs.frozen
class HistoryTrick:
    leader: int
    cards: tuple[int, ...]  # cards (game.cards), in the order laid from the leader
    winner: int
    # a game with a talon (Tertz), in a finished deal: the cards drawn after this trick,
    # winner first, as (seat, card); None: no talon, or not public yet (a deal in play)
    draws: tuple[tuple[int, int], ...] | None = None
    # a game with a talon (Tertz): the seat that swapped the trump 7 for the turned card
    # before its card in this trick, and the card it took (None: no swap here)
    swap: tuple[int, int] | None = None
    # the seats whose card in it the clock played (auto=1: their time ran out)
    by_clock: tuple[int, ...] = ()


@attrs.frozen
class UnfinishedTrick:
    """The cards of a deal's last trick, on the table but not taken (a forfeit
    mid-trick, a penalty: docs/records.md ``unfinished_trick``)."""

    leader: int
    cards: tuple[int, ...]  # in the order laid from the leader
    by_clock: tuple[int, ...] = ()  # as HistoryTrick's


@attrs.frozen
class Scored:
    """A declaration that counted in a deal: its owner's seat, the combination as its
    record names it ('terts to Qs', 'pyatdesyat to As', 'bella') and its points."""

    seat: int
    combo: str
    points: int
    # in a bide, the sides (each as its seats) that wrote these points instead of the
    # owner's side (docs/rules.md §5, §8); () when the owner's side wrote them
    to: tuple[tuple[int, ...], ...] = ()
    hangs: bool = False  # a hanging bide's player's: they hang for the next deal (§5)


# a short game's record notes its stake (docs/rules.md §11): its written are stakes
_STAKE = re.compile(r"stake (\d+)")


def _whose(record: dict[str, Any]) -> tuple[int | None, tuple[tuple[int, ...], ...], bool]:
    """In a bide (or a hanging bide) of a game written in points: the side that ordered
    (its index), the sides that wrote its points (each as its seats: the whistler; three
    players' two, or under ``bide-to-leader`` the one with more points, equal: the one
    who plays earlier, §8) and whether they hang instead."""
    outcome, player = record.get("outcome"), record.get("player")
    sides, seats = len(record.get("written") or ()), len(record.get("players") or ())
    notes = record.get("notes") or ()
    if (
        outcome not in ("bide", "hanging")
        or not isinstance(player, int)
        or not sides
        or not seats
        or any(_STAKE.fullmatch(str(n)) for n in notes)
    ):
        return None, (), False
    own = player % sides
    if outcome == "hanging":
        return own, (), True
    whistlers = [s for s in range(sides) if s != own]
    if "bide-to-leader" in (record.get("options") or ()) and len(whistlers) > 1:
        points = record.get("points") or [0] * sides
        dealer = int(record.get("dealer") or 0)
        whistlers = [max(whistlers, key=lambda s: (points[s], -((s - dealer - 1) % seats)))]
    return own, tuple(tuple(range(s, seats, sides)) for s in whistlers), False


def scored_in(record: dict[str, Any]) -> tuple[Scored, ...]:
    """The declarations that counted in a deal, by seat: its record's ``declared[]``
    ``scored`` (docs/records.md), the engine's own count; none in a deal a forfeit ended
    (its record keeps the count as it stood, but nothing was written: a tryout's
    `history` said 'Scored for combinations: … bella 20' under a deal written 0, 0).
    In a bide the side that ordered's name whose points they became (``to``, ``hangs``):
    a Kharkov table read the bidder's 'terts 20' as his own."""
    if record.get("outcome") in FORFEITS:
        return ()
    own, to, hangs = _whose(record)
    sides = len(record.get("written") or ()) or 1
    counted = [
        Scored(entry["seat"], item["combo"], item["points"])
        if own is None or entry["seat"] % sides != own
        else Scored(entry["seat"], item["combo"], item["points"], to, hangs)
        for entry in record.get("declared") or ()
        for item in entry.get("scored") or ()
    ]
    return tuple(sorted(counted, key=lambda s: s.seat))


def by_clock(plays: Iterable[tuple[int, bool]], sizes: Iterable[int]) -> list[tuple[int, ...]]:
    """For each trick (its cards' count, in order), the seats whose card in it the
    clock played: ``plays`` are the cards laid, in order, as (seat, made by the clock)."""
    laid = list(plays)
    out, at = [], 0
    for size in sizes:
        out.append(tuple(seat for seat, auto in laid[at : at + size] if auto))
        at += size
    return out


def clock_cards(record: dict[str, Any]) -> list[tuple[int, ...]]:
    """A deal record's tricks (the one left unfinished last), each with the seats whose
    card in it the clock played: its calls' ``"auto": true`` (docs/records.md); a
    punished card was laid on no trick."""
    left = record.get("unfinished_trick")
    tricks = [*(record.get("tricks") or ()), *([left] if left else [])]
    laid = (
        (c["seat"], bool(c.get("auto")))
        for c in record.get("calls") or ()
        if c["call"] == PLAY and "penalty" not in c
    )
    return by_clock(laid, (len(t["cards"]) for t in tricks))


# the engine's note of where the hanging points went (game/scoring.py, the Moscow rules)
_HUNG = re.compile(r"hanging (\d+) to (?:side (\d+)|the whistlers)")


def stake_raised(record: dict[str, Any]) -> int | None:
    """The stake a deal was played for, from its record's ``notes`` (``stake N``: a
    short game's, docs/rules.md §11), when a dave raised it above the one every deal
    starts at; None otherwise (a deal at stake 1, a game that writes points)."""
    for note in record.get("notes") or ():
        found = _STAKE.fullmatch(str(note))
        if found is not None and int(found.group(1)) > 1:
            return int(found.group(1))
    return None


def hung_in(record: dict[str, Any], sides: int) -> tuple[int, tuple[int, ...]] | None:
    """The points that hung into a deal and the sides that wrote them in it, if it won
    them (docs/rules.md §5: the side that wrote more; a bide's whistlers), from its
    record's ``notes``; None if it did not (they hang on, or none did)."""
    notes = record.get("notes") or ()
    found = next((m for note in notes if (m := _HUNG.fullmatch(str(note)))), None)
    if found is None or not sides:
        return None
    if found.group(2) is not None:
        return int(found.group(1)), (int(found.group(2)),)
    player = record.get("player")
    if not isinstance(player, int):
        return None
    # a bide: the player's whistlers (with three, two of them share)
    return int(found.group(1)), tuple(s for s in range(sides) if s != player % sides)


@attrs.frozen
class HistoryDeal:
    """One deal of a match's history: who dealt, the trump and who ordered it, how it
    ended (None: still being played), and its tricks taken."""

    deal: int
    dealer: int
    trump: int | None  # a suit index (game.cards.SUITS)
    player: int | None
    outcome: str | None
    written: tuple[int, ...] | None
    tricks: tuple[HistoryTrick, ...]
    talon: bool = False  # a game with a talon (Tertz), whose deck is broken (§12.2)
    broken: int | None = None  # N of its break, lomayu-N (None: not broken yet)
    scored: tuple[Scored, ...] = ()  # the declarations that counted, once it is over
    unfinished: UnfinishedTrick | None = None  # a finished deal's trick not taken
    # a game with a talon (Tertz), a finished deal: the swap of the trump 7 made after
    # its last taken trick (in the trick not taken, its cards laid or not), as
    # HistoryTrick.swap; None: none there
    unfinished_swap: tuple[int, int] | None = None
    # the points that hung into it and the sides that wrote them in it (hung_in)
    hung: tuple[int, tuple[int, ...]] | None = None
    # a finished deal's points left hanging for the next deal (its record's ``hanging``)
    # and, hanging-separate, the sums waiting for the deals after that (as a sheet
    # row's hanging_after: the next deal's ``hanging_pending_before``)
    hanging: int = 0
    hanging_after: tuple[int, ...] = ()
    # the stake it was played for (a finished deal) or is played for now, where a
    # dave raised it (the table said 'The deal is now played for 2.'); None: not raised
    stake: int | None = None
    # a game with a talon: its break made by the clock (the loser let the prompt run
    # out), as the table said it, 'lomayu 1 (by the clock)' (a tryout, s49)
    broken_auto: bool = False


@attrs.frozen
class History:
    """The match at a table deal by deal, trick by trick ('history')."""

    table: int
    match: str
    names: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    deals: tuple[HistoryDeal, ...]
    deal_won_on_points: bool = False  # as in TableEvent: each deal names its winner
    over: bool = False  # a finished match's (no deal: it ended before its first call)
    words: Mapping[str, str] = NO_WORDS  # as in TableEvent


@attrs.frozen
class DealRecord:
    table: int
    record: dict[str, Any]
    # the record as its machine line's JSON, if encoded already (the table's, once for
    # its store row and its line: server/store/base.py ``told``)
    text: str | None = None


@attrs.frozen
class Bye:
    text: str
    said: Phrase | None = None
    by: str | None = None  # the admin who closes the connection ('kick', 'ban': §5.19)


@attrs.frozen
class Announced:
    """An admin's announcement to everyone logged in ('announce', docs/protocol.md §5.19)."""

    sender: str
    text: str


@attrs.frozen
class Banned:
    """One banned name, as 'bans' lists it: by which admin, since when (UTC), why."""

    name: str
    admin: str
    since: str
    reason: str


@attrs.frozen
class AddressBanned:
    """One banned address or network, as 'bans' lists it: by which admin, since and
    till when (UTC), the minutes it has left (rounded up), why."""

    address: str
    admin: str
    since: str
    until: str
    minutes: int
    reason: str


@attrs.frozen
class Bans:
    bans: tuple[Banned, ...]
    addresses: tuple[AddressBanned, ...] = ()  # (listed after the names)


@attrs.frozen
class MutedName:
    """One muted name, as 'mutes' lists it: by which admin, till when (UTC), the
    minutes it has left (rounded up), why."""

    name: str
    admin: str
    until: str
    minutes: int
    reason: str


@attrs.frozen
class Mutes:
    mutes: tuple[MutedName, ...]


ServerEvent = (
    Hello
    | Ok
    | Error
    | Info
    | TextBlock
    | Who
    | Tables
    | Said
    | Games
    | TableEvent
    | Ask
    | DealRecord
    | Bye
    | LastTrick
    | Sheet
    | Invited
    | Rematch
    | History
    | Top
    | Finger
    | Announced
    | Bans
    | Mutes
)


def ok(cmd: str, said: Phrase, fields: tuple[tuple[str, str], ...] = ()) -> Ok:
    """An ``ok`` whose text is a catalogue phrase (protocol.messages)."""
    return Ok(cmd, said.text(), fields, said)


def error(code: str, said: Phrase) -> Error:
    return Error(code, said.text(), said=said)


# the server's word that a 'leave' or 'state' finds its sender at no table and
# watching none (docs/protocol.md §5.6, §5.10): the library's own, said in Russian by
# the code's (RU_ERRORS)
NOWHERE = "you sit at no table and observe none"


def nowhere(said: Phrase | None = None) -> Error:
    """``not-seated`` to one at no table and watching none, with ``nowhere=1`` for a
    program (docs/protocol.md §5.6, §5.10): the other ``not-seated`` refusals (a table
    call at a table not one's own, an 'invite' …) leave him where he is; the terminal
    client read which this is out of the sentence (s47). ``said``: a sentence of the
    catalogue instead of the plain one (just after one's match: NOT_SEATED_OVER)."""
    told = (("nowhere", "1"),)
    if said is None:
        return Error("not-seated", NOWHERE, fields=told)
    return Error("not-seated", said.text(), said=said, fields=told)


def stale(said: Phrase, answers: int, open_request: int) -> Error:
    """A table call whose ``seq=`` answers no open request (docs/protocol.md §7), with
    ``answers=`` (the request it answered) and ``open=`` (the open one) for programs,
    which matched a refusal to its call by the number in the text, a sentence for people."""
    told = (("answers", str(answers)), ("open", str(open_request)))
    return Error("stale", said.text(), said=said, fields=told)


def slow_down(key: Msg, wait_s: float, **values: Value) -> Error:
    """A ``slow-down`` that knows its wait: ``key``'s sentence says it in whole seconds,
    rounded up (its ``{seconds}``: 'wait 12 s'), and ``wait_ms=`` gives it to programs
    (docs/protocol.md §10); a wait without end (a rate of 0) is '?', with no field."""
    if math.isinf(wait_s):
        said = phrase(key, seconds="?", **values)
        return Error("slow-down", said.text(), said=said)
    # rounded up, but a float sum's last bit past a whole ms is no ms more (a bucket's
    # 99 s of 100 left 1.0000000000002 ms: told 1001)
    wait_ms = max(1, math.ceil(wait_s * 1000 - 1e-6))
    said = phrase(key, seconds=-(-wait_ms // 1000), **values)
    return Error("slow-down", said.text(), said=said, wait_ms=wait_ms)


def lists_slow_down(command: str, wait_s: float) -> Error:
    """A list asked past the lists' allowance (Msg.SLOW_LISTS): a ``slow-down`` naming
    the list refused, ``cmd=`` (docs/protocol.md §10), for a client that asked for it
    itself to know that no reply comes (the terminal client read it out of the
    sentence, s47)."""
    refused = slow_down(Msg.SLOW_LISTS, wait_s, command=command)
    return attrs.evolve(refused, fields=(("cmd", command),))


def usage_error(form: str) -> Error:
    """A command typed wrong: its form (``sit TABLE [SEAT]``), placeholders in the
    reader's language (messages.Usage)."""
    return error("bad-argument", phrase(Msg.USAGE, usage=Usage(form)))


def info(said: Phrase) -> Info:
    return Info(said.text(), said)


def table_closed(table: int, said: Phrase) -> Info:
    """A table that closes with no match-end of its own (a stop, a lost worker): said,
    and named in a field a program reads (``info closed=T text=…``, docs/protocol.md
    §11.4) rather than in the English text."""
    return Info(said.text(), said, (("closed", str(table)),))


def server_going(going: ServerGoing, said: Phrase) -> Info:
    """The server's word that it drains or stops, told to everyone: the state in a field
    a program reads (``info server=draining|stopping text=…``, docs/protocol.md §11.4,
    §11.4a) rather than in the sentence, which a server may word otherwise."""
    return Info(said.text(), said, (("server", going.value),))


def seat_kept(table: int, said: Phrase) -> Info:
    """A seat at another worker's table kept across this one's stop, the table named
    in a field (``info kept=T text=…``, docs/protocol.md §11.4)."""
    return Info(said.text(), said, (("kept", str(table)),))


def first_in_line(
    said: Phrase,
    players: int,
    variant: str,
    options: Sequence[str],
    leaver: str,
    apart_ms: int,
) -> Info:
    """To a program whose match a leaver ended before its first deal ended, which it
    had sought (server/matchmaking.kept_seek): its next 'seek' of that game goes first
    in line, the game named for it (``info first_in_line=1 players=N variant=V
    options=A,B leaver=NAME apart_ms=MS text=…``, docs/protocol.md §5.5), and who left
    and how long he is kept apart, which the sentence says: a client that says it in its
    own words reads them here, not out of the sentence (the terminal client did, s47).
    A person is given his seek back, and told no rematch (he waits for another game):
    the terminal client reads it so."""
    told = (
        ("first_in_line", "1"),
        ("players", str(players)),
        ("variant", variant),
        ("options", ",".join(options)),
        ("leaver", leaver),
        ("apart_ms", str(apart_ms)),
    )
    return Info(said.text(), said, told)


def rematch_watch(old: int, table: int, said: Phrase) -> Info:
    """To those who watched a match to its end: its rematch starts at ``table``
    (``info rematch=T table=OLD text=…``, docs/protocol.md §5.16), named for a program."""
    return Info(said.text(), said, (("rematch", str(table)), ("table", str(old))))


def cut_off(match: str, table: str, reason: str, said: Phrase) -> Info:
    """A registered player's last match cut off by a stop, at his login after it
    (server/cut_off.py): ``info cut_off=M table=T reason=server-lost|shutdown text=…``
    (docs/protocol.md §12), the match named for a program, not only in the text."""
    told = (("cut_off", match), ("table", table), ("reason", reason))
    return Info(said.text(), said, told)


def bye(said: Phrase) -> Bye:
    return Bye(said.text(), said)
