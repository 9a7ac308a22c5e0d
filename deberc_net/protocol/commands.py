"""Lines to commands: the session and lobby vocabulary, with help for each (sans-IO).

Anything whose first word is not a command is a table call for the seat's table; the
vocabulary module reads those.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Sequence
from enum import StrEnum

import attrs

from .lang import Lang, decimal_mark
from .messages import RU_ADMIN_SUMMARIES, RU_COMMANDS, Msg, Phrase, Usage, phrase
from .said_back import said_back

PROTOCOL_VERSION = "1"


@attrs.frozen
class Command:
    name: str
    args: tuple[str, ...] = ()
    rest: str = ""  # the text after the command word, as typed (for say)


# (not frozen, though nothing changes one: a frozen class's __init__ sets each field
# through object.__setattr__, ~2,300 instructions more, and one is made every call)
@attrs.define
class TableCallText:
    text: str
    seq: int | None = None  # the ask it answers, when the client says so


# the commands whose arguments hold a secret (a password, a resume token)
SECRET_COMMANDS = frozenset({"login", "password"})


def for_log(item: Command | TableCallText) -> str:
    """``item`` as a log may say it (a bug's line): a secret's command without its
    arguments, anything else cut to 100 characters."""
    if isinstance(item, Command) and item.name in SECRET_COMMANDS:
        return repr(Command(item.name, ("…",) * len(item.args)))
    return repr(item)[:100]


@attrs.frozen
class CommandSpec:
    usage: str
    summary: str
    phases: str  # where it makes sense: "any", "lobby", "table"
    admins: bool = False  # listed in 'help' to the server's admins only
    waiting: bool = False  # at a table: while it waits for players only
    # a way to a game ('new', 'seek', …): not listed where no table ever opens (NewGames)
    opens: bool = False
    # a form told to the server's admins only (its usage after the command's, its
    # sentence after the summary): ladders' 'seek reserved', of no use to a person
    admin_usage: str = ""
    admin_summary: str = ""


COMMANDS: dict[str, CommandSpec] = {
    "help": CommandSpec(
        "help [COMMAND]",
        "Show the commands, or how to use one. lang=en or lang=ru: this answer in that language.",
        "any",
    ),
    "login": CommandSpec(
        "login NAME [PASSWORD | token=TOKEN] [lang=en|ru] [style=human|machine]",
        "Log in. With a password (6 characters at least) the name is registered on first "
        "use and checked after; "
        "without one you are a guest, given a resume token. A name in use is refused; "
        "your password, or a guest's token, resumes your seat. lang=ru: as 'lang ru'; "
        "style=machine: as 'style machine'.",
        "any",
    ),
    "style": CommandSpec(
        "style human|machine [tell=all|asks]",
        "Choose the output: readable text, or tagged key=value lines for programs. "
        "'style machine tell=asks' tells a bot only its asks, the match's end and replies.",
        "any",
    ),
    "sort": CommandSpec(
        "sort rank|strength",
        "Order your hand in the human style: by rank, 7 8 9 10 J Q K A (the default: runs "
        "show), or by strength in play. Grouped by suit either way.",
        "any",
    ),
    "clock": CommandSpec(
        "clock human|bot",
        "Ask for a person's clock ({human} s a call on this server) or a bot's ({bot} s)."
        " Without it "
        "the style decides: machine style, a bot's. Fixed at each match's start.",
        "any",
    ),
    "lang": CommandSpec(
        "lang en|ru",
        "The human style's language: English, or Russian (Cyrillic ranks В Д К Т, "
        "the talk as said: «от туза», «пишет»). Calls are heard in either language.",
        "any",
    ),
    "quit": CommandSpec("quit", "Leave the server (your seat waits for you to come back).", "any"),
    "who": CommandSpec("who [PAGE]", "List the players connected (a page at a time).", "any"),
    "tables": CommandSpec(
        "tables [PAGE]", "List the tables, their rules, seats and state (a page at a time).", "any"
    ),
    "ping": CommandSpec(
        "ping", "Keep the connection open: any line does, 'ping' does nothing else.", "any"
    ),
    "new": CommandSpec(
        "new [PLAYERS] [VARIANT] [OPTION ...] [private]",
        "Open a table (default: moscow for 2 players) and sit at it. Example: new 2 moscow to-301. "
        "A private table is listed to its own people only: only those you 'invite' sit or watch. "
        "'rules' in the lobby lists the variants and options.",
        "lobby",
        opens=True,
    ),
    "invite": CommandSpec(
        "invite NAME",
        "Let a player (a person or a bot) sit at your waiting table, or watch it; "
        "the only way into a private table. NAME is told.",
        "table",
        waiting=True,
    ),
    "sit": CommandSpec(
        "sit TABLE [SEAT]", "Sit at a table; the game starts when it is full.", "lobby", opens=True
    ),
    "leave": CommandSpec(
        "leave",
        "Leave your table, stop observing, or stop seeking. A "
        "game in progress is forfeited: in the human style 'leave' asks "
        "first, and a second 'leave' within 10 s confirms.",
        "any",
    ),
    "leave!": CommandSpec(
        "leave!",
        "Leave your table at once, forfeiting a game in progress, with no question asked.",
        "any",
    ),
    "observe": CommandSpec(
        "observe TABLE",
        "Watch a table: its cards played, calls and score, not the players' hands.",
        "any",
    ),
    "unobserve": CommandSpec(
        "unobserve [TABLE]", "Stop watching a table (all, without TABLE).", "any"
    ),
    "say": CommandSpec(
        "say TEXT",
        "Talk to your table (a watcher: to its watchers), or to the lobby. What is said "
        "is kept in the server's log: its admins may read it.",
        "any",
    ),
    "seek": CommandSpec(
        "seek [PLAYERS] [VARIANT] [OPTION ...]",
        "Wait for the next game with these settings; you are seated when enough players "
        "seek the same. A 'seek' of another game replaces the one before: you wait for "
        "one game at a time ('unseek' stops waiting).",
        "lobby",
        opens=True,
        admin_usage=" | seek reserved",
        admin_summary=" 'seek reserved' waits only for a table reserved for you.",
    ),
    "reserve": CommandSpec(
        "reserve PLAYERS VARIANT [OPTION ...] seats=A,B[,..] [seed=S] [deals=N] [board=KEY] "
        "[watch=ends]",
        "(admins) Open a table for the named players, each in the given seat, with a fixed "
        "seed and a deal limit: a ladder's board.",
        "lobby",
        admins=True,
        opens=True,
    ),
    "release": CommandSpec(
        "release BOARD",
        "(admins) Send the players of a ladder's board its deal records, "
        "held since they were played.",
        "any",
        admins=True,
    ),
    # the admins' moderation (docs/protocol.md §5.19)
    "announce": CommandSpec(
        "announce TEXT",
        "(admins) Tell everyone logged in TEXT, marked as an admin's announcement.",
        "any",
        admins=True,
    ),
    "kick": CommandSpec(
        "kick NAME [REASON]",
        "(admins) Close a player's connection, telling him the reason. His seat is away, "
        "as after any drop, and he may log in again.",
        "any",
        admins=True,
    ),
    "ban": CommandSpec(
        "ban NAME [REASON] | ban ADDRESS|NETWORK [MINUTES] [REASON]",
        "(admins) Keep a name from logging in (stored: a restart keeps it), telling the "
        "reason; a player online under it is disconnected. A word with '.', ':' or '/' "
        "is an address (203.0.113.7, 2001:db8::1: its /64) or a network (203.0.113.0/24, "
        "at most a /16; IPv6 a /32): its guests and new names may not log in for MINUTES "
        "(default a day, at most a year), its registered players still may; 'finger "
        "NAME' tells a player's.",
        "any",
        admins=True,
    ),
    "unban": CommandSpec(
        "unban NAME | unban ADDRESS|NETWORK",
        "(admins) Let a banned name, or an address's guests, log in again.",
        "any",
        admins=True,
    ),
    "bans": CommandSpec(
        "bans",
        "(admins) The banned names and addresses: by whom, since (and till) when, why.",
        "any",
        admins=True,
    ),
    "mute": CommandSpec(
        "mute NAME [MINUTES] [REASON]",
        "(admins) Refuse a player's 'say' and 'invite' for MINUTES (default 60, at most a "
        "week, 10080; or with a unit: 5m, 2h, 1d; stored: a restart keeps it).",
        "any",
        admins=True,
    ),
    "unmute": CommandSpec(
        "unmute NAME", "(admins) Let a muted player talk again.", "any", admins=True
    ),
    "mutes": CommandSpec(
        "mutes", "(admins) The muted names: by whom, how long still, why.", "any", admins=True
    ),
    "drain": CommandSpec(
        "drain",
        "(admins) Stop the server once its running matches are over, as SIGUSR1 does, for "
        "its supervisor to start it again (it does not start itself): no new game starts "
        "meanwhile, and the tables waiting for players close.",
        "any",
        admins=True,
    ),
    "unseek": CommandSpec("unseek", "Stop waiting for a game.", "lobby", opens=True),
    "ignore": CommandSpec(
        "ignore [NAME]",
        "Stop hearing a player: his 'say' (lobby and table), 'invite' and 'rematch' no "
        "longer reach you (he is not told); an admin's 'announce' and his calls at your "
        "table still do. Alone: whom you ignore. A registered name's list is kept.",
        "any",
    ),
    "unignore": CommandSpec("unignore NAME", "Hear an ignored player again.", "any"),
    "rules": CommandSpec(
        "rules [TABLE|RULE]",
        "The table's variant, options and clocks in words. 'rules tertz' (a variant or"
        " option by name): that one alone. lang=en or lang=ru: this answer in that"
        " language.",
        "any",
    ),
    "state": CommandSpec(
        "state", "Show your table (or the one you observe) again: hand, trump, trick, score.", "any"
    ),
    "last": CommandSpec(
        "last",
        "The last trick taken at your table (or the one you observe; at no table, "
        "in your last finished match): who led, the cards, who took it.",
        "any",
    ),
    "sheet": CommandSpec(
        "sheet",
        "The score sheet of your table's match (or the one you observe; at no table, "
        "your last finished one): each deal's written points and the totals; in Deberts "
        "also the bides and the points left hanging (Tertz has neither).",
        "any",
    ),
    "bot": CommandSpec(
        "bot heuristic|random|search [LEVEL] [rated]",
        # three lines at 80 columns, what a person choosing needs (it was five, the
        # longest of all: the think times are docs/protocol.md §5.15's); its first
        # sentence, all a table's 'help' lists, is short
        "A house bot plays one match at your waiting table. heuristic plays like a club "
        "player, random any card, search better still (LEVEL 1-5, default 3). 'rated': a "
        "rated match (not random).",
        "table",
        waiting=True,
    ),
    "rematch": CommandSpec(
        "rematch",
        "After a match: play again with the same players and rules, seats rotated. "
        "Everyone must ask within {rematch} s of the match's end (on this server); the "
        "others are told who asked.",
        "lobby",
        opens=True,
    ),
    "history": CommandSpec(
        "history",
        "The match at your table (or the one you observe; at no table, your last finished "
        "one) deal by deal: who dealt, the trump, how it ended, and every trick taken.",
        "any",
    ),
    "top": CommandSpec(
        "top [VARIANT] [PLAYERS] [PAGE]",
        "The rated players of a variant and player count (alone: the game you play "
        "rated most, else the one with the most rated players), best first (a page at a "
        "time). Rated: public matches of registered players, a house bot only with 'bot "
        "KIND rated'.",
        "any",
    ),
    "finger": CommandSpec(
        "finger [NAME]",
        "Who a player is (default: you): registered, online, his ratings with rank and "
        "record (won, lost, drawn), and his last games.",
        "any",
    ),
    "games": CommandSpec(
        "games [NAME]",
        "Recent finished games of a player, with their match ids. Match m12 is replayed at "
        "/games/m12 on the server's web pages.",
        "any",
    ),
    "password": CommandSpec(
        "password OLD NEW",
        "Change your registered name's password: the old one, then the new. A guest has "
        "none ('login NAME PASSWORD' registers a free name).",
        "any",
    ),
    "calls": CommandSpec(
        "calls",
        "The table calls and how to type them. lang=en or lang=ru: this answer in that language.",
        "any",
    ),
}

_SEQ_ARGUMENT = re.compile(r"seq=[0-9]+")
# the most digits a call's seq=N may have, leading zeros aside (docs/protocol.md §7):
# what int() reads however low its limit is set (sys.int_info.str_digits_check_threshold),
# far past any request's number
SEQ_DIGITS = 640


# what ``number_word`` reads a number of more than SEQ_DIGITS digits as: more than any
# table, seat, page, level or count, so each command refuses it as it refuses 1000 digits
PAST_ANY_NUMBER = 10**SEQ_DIGITS


def number_word(word: str) -> int | None:
    """The whole number ``word`` writes in ASCII digits 0-9, or None: every number a
    command takes is written so (docs/protocol.md §4), as a table call's seq= is (§7).
    int() also reads other scripts' digits ('١', '𝟏') and str.isdigit() takes '²',
    which int() refuses: a number read by one command was refused by another. One of
    more than SEQ_DIGITS digits (leading zeros aside) is PAST_ANY_NUMBER: int() refuses
    past 4,300 digits, and a server whose ``max_line`` let such a word in answered
    'who', 'sit', 'top' and the rest with an internal error, a traceback logged each
    (a hostile pass, s45)."""
    if not (word.isascii() and word.isdecimal()):
        return None
    digits = word.lstrip("0") or "0"
    return int(digits) if len(digits) <= SEQ_DIGITS else PAST_ANY_NUMBER


def stale_answer(seq: int | None, open_request: int, last_event: int) -> Phrase | None:
    """Why a table call answering request ``seq`` is stale, or None: it must answer the
    open request or come after it (events since, someone away or back, do not spoil
    it); a call without ``seq`` is never stale (docs/protocol.md §7). A ``seq`` the
    table has not reached is no old request: it is said so."""
    if seq is None or open_request <= seq <= last_event:
        return None
    key = Msg.STALE_FUTURE if seq > last_event else Msg.STALE_PAST
    return phrase(key, seq=seq, open=open_request)


# the Russian and Ukrainian words people type for a command by what it does (a Tertz
# evening's 'история' was told 'history?' and not answered), and the Latin commands as a
# Russian keyboard spells them ('хелп'): each runs its command (docs/protocol.md §4).
# None is a word of a table call in any game (tests/protocol/test_spoken_commands.py).
SPOKEN_COMMANDS: dict[str, str] = {
    word: command
    for command, words in {
        "help": ("помощь", "справка", "хелп", "хэлп", "допомога", "довідка"),
        "sheet": ("счет", "счета", "запись", "лист", "рахунок", "запис"),
        "history": ("история", "історія"),
        "rematch": ("реванш",),
        "rules": ("правила",),
        "tables": ("столы", "столи"),
        "state": ("стол", "стіл"),
        "who": ("кто", "хто"),
        "games": ("партии", "игры", "партії", "ігри"),
        "seek": ("ждать", "чекати"),
        "quit": ("выход", "выйти", "квит", "вихід", "вийти"),
        "password": ("пароль",),
        "lang": ("язык", "мова"),
    }.items()
    for word in words
}


def command_word(word: str) -> str:
    """``word`` as a command's name is looked up: case aside, and in the compatibility
    form names are compared in (docs/protocol.md §4): full-width ``ｗｈｏ``, which an
    input method's full-width mode types, is ``who``; a spoken word its command's name
    (``история``, ``Счёт``: ``history``, ``sheet``). The arguments are left as typed."""
    if word.isascii():
        return word.lower()
    folded = unicodedata.normalize("NFKC", word).lower()
    return SPOKEN_COMMANDS.get(folded.replace("ё", "е"), folded)


def parse_line(text: str) -> Command | TableCallText:
    """A command if the first word names one, else a table call (``seq=N`` may follow)."""
    stripped = text.strip()
    # the words are split at any space, as str.split() does: a phone's or a copied
    # line's no-break space (U+00A0) after 'say' made the whole 'say\xa0hi' one word
    word, *more = stripped.split(maxsplit=1) or [""]
    rest = more[0] if more else ""
    name = command_word(word)
    if name in COMMANDS:
        # commands take no seq= (a bot may add it to every line): 'who seq=3' is 'who';
        # 'say' speaks ``rest``, as typed
        args = tuple(a for a in rest.split() if not _SEQ_ARGUMENT.fullmatch(a))
        return Command(name, args, rest.strip())
    # a table call, and the ``seq=N`` it ends with if any (docs/protocol.md §7): ASCII
    # digits only ('seq=٤' is no request number), after any space, as the words are
    # split (a no-break space too), the call before it on one line. What the pattern
    # ``^(.*?)\s+seq=([0-9]+)$`` read, by string operations at a third of its work
    # (every call of a bot's): its ``\s`` is ``str.isspace``, which ``rstrip`` strips,
    # and its ``.`` anything but a line feed
    head, found, digits = stripped.rpartition("seq=")
    if found and digits.isascii() and digits.isdecimal():
        call = head.rstrip()
        # (leading zeros aside: a number longer than int() reads, which a server whose
        # max_line allows it raised on, dropping the connection: no request number)
        digits = digits.lstrip("0") or "0"
        if call and len(call) < len(head) and "\n" not in call and len(digits) <= SEQ_DIGITS:
            return TableCallText(call, int(digits))
    return TableCallText(stripped)


# the answers to the table talk, the same in Deberts and Tertz
_TALK_ANSWERS = """\
  ot RANK [kozyrnogo] (от короля)      answer rost? with your top card
  pishet (пишет, goditsya)             concede: the other's combination is
                                       better
  pokazhi (покажи, show)               demand the declared cards be shown
  pokazyvayu / skin (скинь)            show them / demand a card be played first"""

CALLS_HELP = f"""\
Table calls (Latin, Cyrillic or English; case does not matter):
  pas (пас, pass)                      pass in bidding
  igrayu (играю, play)                 order the game in the turned suit
  igrayu SUIT (igrayu h, играю черви)  round two: name another suit
  menyayu (меняю, swap)                swap the trump 7 for the turned card: in
                                       the first trump, before your first card
                                       and before you declare
  prokhodit? (проходит?)               ask whether your trump sequence passes
  terts, dva tertsa, pyatdesyat (50)   declare your best combination (before
                                       your first card)
  rost? (рост?)                        ask the height of a combination of the
                                       same length
{_TALK_ANSWERS}
  bella (белла)                        declare trump K+Q before playing one of
                                       them
  CARD or hod CARD                     play a card: 7 8 9 10 J Q K A, or
                                       В Д К Т (Cyrillic: Т is the ace; a
                                       Latin T is the ten) + s h d c
                                       (♠ ♥ ♦ ♣, п ч б к): 10h, Js, Д♠, Кп
  chetyre semerki (sevens)             show four sevens: redeal
Ukrainian too: граю, пасую, пише, від туза, туз пік (docs/protocol.md §8.2).
A call mistyped by a letter or two is answered "Did you mean ...?".
"""

TERTZ_CALLS_HELP = f"""\
Tertz table calls (no bidding; Latin, Cyrillic or English):
  lomayu N (ломаю N, break N)          after the first trick, its loser breaks
                                       the deck: N from 1 to 12
  menyayu (меняю, swap)                swap the trump 7 for the turned card: on
                                       your turn, while the talon holds two
                                       cards or more (a 7 you declared stays)
  terts, pyatdesyat (50)               declare a run of 3 (20) or 4 (50), at
                                       any trick while you hold nine cards
  sto-pyat, sto-shest, sto-sem, sto-vosem (сто пять …)
                                       declare a run of 5, 6, 7, 8 (100)
  sto-dam, sto-korolei, sto-tuzov      declare four queens, kings, aces (100)
  sto (hundred, сто, 100)              your hundred, whichever it is
  dvesti (двести, two hundred, 200)    declare four jacks (200)
  ot chego? (rost?, от чего?)          ask the height of a combination of the
                                       same class
{_TALK_ANSWERS.replace("answer rost?", "answer ot chego?")}
  mariage (bella, марьяж)              declare trump K+Q, on your turn, once
  CARD or hod CARD                     play a card: 7 8 9 10 J Q K A, or
                                       В Д К Т (Cyrillic: Т is the ace; a
                                       Latin T is the ten) + s h d c
                                       (♠ ♥ ♦ ♣, п ч б к)
"""
VARIANT_CALLS_HELP = {"tertz": TERTZ_CALLS_HELP}  # a game of its own; others: CALLS_HELP
# the engine's own calls that an option makes (docs/protocol.md §8.2), by that option:
# 'calls' lists them with the options' (at a table only where the option is on: a plain
# table listed konets among its game's calls, and refused it as no table call there)
OPTION_CALLS_HELP = {
    "swap-before-extra": """\
  ne menyayu (не меняю, keep)          option swap-before-extra: no swap before
                                       the last cards""",
    "manual-claim": """\
  konets (конец, claim, 501)           option manual-claim: claim the match
                                       after a trick you took""",
}


class NewGames(StrEnum):
    """Whether a game may start on the server now, as the lobby's texts say it."""

    OPEN = "open"
    # a drain: none until the restart after the running matches (docs/protocol.md §11.4a)
    DRAINING = "draining"
    # max_tables 0: no table opens at all, a server closed to games (docs/settings.md)
    CLOSED = "closed"


def seconds_said(ms: int, lang: Lang) -> str:
    """Milliseconds as seconds said, to the millisecond: '60', '0.5', '1234.567' (Russian
    '0,5'; ``:g``'s six digits said 1234567 ms as '1234.57')."""
    return decimal_mark(f"{ms / 1000:.3f}".rstrip("0").rstrip("."), lang)


def help_text(
    topic: str | None = None,
    phase: str = "lobby",
    calls_now: Sequence[str] = (),
    lang: Lang = Lang.EN,
    *,
    admin: bool = False,
    playing: bool = False,
    clocks_ms: tuple[int, int] = (60_000, 10_000),
    rematch_s: int = 60,
    house_bots: bool = False,
    games: NewGames = NewGames.OPEN,
) -> list[str]:
    """Help for one command, or for the commands that make sense where the user is
    (``phase``: "login", "lobby" or "table"; an ``admin`` sees the admins' commands, a
    table ``playing`` hides those for a waiting table), with the table calls he may make
    now; in ``lang`` (a command without Russian words yet is explained in English).
    ``clocks_ms``: the server's clocks a call, a person's and a bot's, as 'clock' says;
    ``rematch_s``: its time to agree to a rematch, as a match's end says it.
    ``house_bots``: the server seats its own bots ('bot'), said in the lobby; unless
    ``games`` says no new game starts (a drain), and the lobby's last line says so
    instead, or that none ever does here (a server closed to games), whose lobby lists
    no command that opens one (``CommandSpec.opens``)."""
    ru = lang == Lang.RU

    def summary(name: str) -> str:
        spec = COMMANDS[name]
        said = RU_COMMANDS.get(name, spec.summary) if ru else spec.summary
        if admin and spec.admin_summary:
            said += RU_ADMIN_SUMMARIES.get(name, spec.admin_summary) if ru else spec.admin_summary
        if name == "clock":  # the server's own (human_clock_ms, bot_clock_ms), not 60 and 10
            human, bot = (seconds_said(ms, lang) for ms in clocks_ms)
            said = said.format(human=human, bot=bot)
        if name == "rematch":  # the server's rematch_ms, not '60 s as a rule' (s48)
            said = said.format(rematch=rematch_s)
        return said

    def usage(name: str) -> str:
        spec = COMMANDS[name]
        return Usage(spec.usage + (spec.admin_usage if admin else "")).text(lang)

    if topic:
        key = command_word(topic)
        if key in COMMANDS:
            # wrapped to 80 columns in either language, as the rest of 'help' (the
            # English was one long line, the Russian wrapped: docs/protocol.md §4.4)
            text = f"{usage(key)}: {summary(key)}"
            return textwrap.wrap(text, 80, subsequent_indent="  ", break_on_hyphens=False)
        told = said_back(topic)
        if ru:
            return [f"нет команды «{told}»; help перечисляет команды, calls — ходы"]
        return [f"no command {told!r}; 'help' lists them, 'calls' lists the table calls"]
    if phase == "login" and ru:
        return [
            "Сначала войдите: login ИМЯ [ПАРОЛЬ] [lang=ru] (с паролем имя регистрируется).",
            "Программам: style machine. Подробнее: help КОМАНДА.",
        ]
    if phase == "login":
        return [
            "First log in: login NAME [PASSWORD] (a password registers the name).",
            "Programs: 'style machine' for tagged lines. 'help COMMAND' for more.",
        ]
    wanted = ("any", phase)
    lines = ["Команды здесь:" if ru else "Commands here:"]
    # laid out to fit 80 columns: the explanation keeps its column when it wraps
    width = _USAGE if ru else _USAGE_EN
    for name, spec in COMMANDS.items():
        if (
            spec.phases not in wanted
            or name == "login"  # logged in already
            or (spec.admins and not admin)
            or (spec.waiting and playing)
            or (spec.opens and phase == "lobby" and games != NewGames.OPEN)
        ):
            continue
        lines += _columns(usage(name), _first_sentence(summary(name)), width)
    if phase == "table":
        if calls_now:
            lines.append(
                ("Ваши ходы сейчас: " if ru else "Your table calls now: ") + " | ".join(calls_now)
            )
        lines.append(
            "calls объясняет все ходы и как их набирать."
            if ru
            else "'calls' explains every table call and how to type it."
        )
    elif phase == "lobby" and games == NewGames.CLOSED:
        # its greeting offers neither 'new' nor 'seek', each refused: the list none of
        # them either, and it says why (they were listed as if they worked), in place of
        # how to play at a table, of which there is none
        left_out = [n for n, c in COMMANDS.items() if c.opens and (admin or not c.admins)]
        lines += textwrap.wrap(
            "На этом сервере сейчас не играют: столы не открываются, поэтому команды,"
            f" которые ведут к партии ({', '.join(left_out)}), здесь не перечислены."
            if ru
            else "This server plays no games for now: no table opens here, so the commands"
            f" that lead to one ({', '.join(repr(n) for n in left_out)}) are not listed.",
            80,
            subsequent_indent="  ",
        )
        return lines  # (nor is a house bot offered)
    elif phase == "lobby" and games == NewGames.DRAINING:
        # its hint offered 'new 2', which a drain refuses: what may be done meanwhile;
        # and the commands it refuses are left out, as its greeting leaves them out (a
        # tryout, s43: they were listed, the last line saying no game starts)
        left_out = [n for n, c in COMMANDS.items() if c.opens and (admin or not c.admins)]
        lines += textwrap.wrap(
            "Сервер перезапустится, когда закончатся идущие партии: до тех пор новые"
            " партии не начинаются, поэтому команды, которые ведут к партии"
            f" ({', '.join(left_out)}), здесь не перечислены (observe СТОЛ — смотреть"
            " идущую)."
            if ru
            else "The server restarts once the running matches are over: no new game"
            " starts until then, so the commands that lead to one"
            f" ({', '.join(repr(n) for n in left_out)}) are not listed ('observe TABLE'"
            " watches one).",
            80,
            subsequent_indent="  ",
        )
        return lines  # (nor is a house bot offered)
    elif ru:
        lines.append("За столом набирайте ходы и заявки (calls их перечисляет).")
    else:
        lines.append("At a table you type the table calls ('calls' lists them).")
    if phase == "lobby" and house_bots:
        # 'bot' is listed at a waiting table only: a lone player in the lobby never
        # learnt that bots would play with him (a tryout at 3 a.m.)
        lines += textwrap.wrap(
            "Не с кем играть? new 2 открывает стол, bot heuristic сажает за него бота "
            "сервера (help bot)."
            if ru
            else "Nobody to play with? 'new 2' opens a table, then 'bot heuristic' seats "
            "a house bot at it ('help bot').",
            80,
            subsequent_indent="  ",
        )
    return lines


_USAGE = 22  # the usage column of the Russian help; its text starts after it
_USAGE_EN = 30  # the English help's (its usages are the same, its words shorter)


def _columns(usage: str, text: str, width: int) -> list[str]:
    """'  usage   text', the text wrapped in its column; a long usage on a line of its own."""
    indent = " " * (width + 3)
    wrapped = textwrap.wrap(text, 80 - len(indent))
    if len(usage) > width:
        usages = textwrap.wrap(usage, 78, initial_indent="  ", subsequent_indent="    ")
        return usages + [indent + t for t in wrapped]
    return [f"  {usage:<{width}} {wrapped[0]}"] + [indent + t for t in wrapped[1:]]


def _first_sentence(text: str) -> str:
    head, dot, _ = text.partition(". ")
    return head + ("." if dot or not head.endswith(".") else "")
