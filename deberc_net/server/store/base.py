"""The store interface the server sees, and what both backends share.

A store keeps accounts, finished matches and every deal record. The decks of a running
match must not be knowable: its deals are stored without the match seed and are not
exported until the match ends, when the seeds are filled in. Every method is a blocking
call, made by the server from a worker thread (``trio.to_thread``; a table's writes
from its store writer's, server/store_writer.py, in order), and is one transaction: a
match's deals are stored before its result, and the result before its end is told.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import json
import os
import sys
import time
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

import attrs

from deberc_net.game.record_json import record_text, reseeded
from deberc_net.server.addresses import span, within

DEAD_AFTER_S = 30.0  # a server silent this long is dead: its running matches are over


class StoreError(Exception):
    """The store cannot be opened (unreachable server, a schema newer than this code)."""


def read_only_mount(folder: str) -> bool:
    """Whether ``folder``'s file system is mounted read-only (as far as it can be seen):
    os.access says 'not writable' there for every user, root too, whatever the mode."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def store_failure(exc: BaseException) -> bool:
    """Whether ``exc`` is the database's failing (a full disk, the server away, a file
    locked or damaged), not a bug in this code, so said without a traceback
    (docs/settings.md, Logs): the OS's error; SQLite's of a failing kind
    (SQLITE_FAILING: not SQLITE_ERROR, which a syntax error or a missing table raises
    as ``OperationalError`` too, nor a misuse's ``ProgrammingError`` or
    ``InterfaceError``, nor a constraint's); psycopg's ``OperationalError`` (the
    server away, a full disk, a pool's timeout) or a damaged or read-only database's.
    Each driver's errors checked only if it was imported: only a store that uses it
    raises them. A trigger's refusal counts as the database's (we define none). A
    PostgreSQL 25P02 (a statement after an earlier error in its transaction) is
    classified as that error (``first_error``), as the database's if none is known."""
    if isinstance(exc, OSError):
        return True
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is not None and isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        return isinstance(code, int) and (
            code & 0xFF in SQLITE_FAILING or code == SQLITE_CONSTRAINT_TRIGGER
        )
    psycopg = sys.modules.get("psycopg")
    if psycopg is None or not isinstance(exc, psycopg.Error):
        return False
    state = getattr(exc, "sqlstate", None) or ""
    if state == IN_FAILED_TRANSACTION:  # never a cause of its own: the error it follows is
        first = first_error(exc)
        return first is exc or store_failure(first)
    return isinstance(exc, psycopg.OperationalError) or state[:2] == "XX" or state in REFUSED_BY


def first_error(exc: BaseException) -> BaseException:
    """The error a PostgreSQL 25P02 ("current transaction is aborted") follows, where it
    was raised while that one was handled (its ``__cause__`` or ``__context__``): the
    transaction's first error, the one to classify and to name; else ``exc`` itself."""
    seen = exc
    while True:
        before = seen.__cause__ or seen.__context__
        if before is None:
            return exc
        if getattr(before, "sqlstate", None) != IN_FAILED_TRANSACTION:
            return before
        seen = before


# SQLite's primary result codes of a database failing, not of a query's or a caller's
# fault: BUSY, LOCKED, NOMEM, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, PROTOCOL, NOLFS,
# NOTADB (and PERM): https://sqlite.org/rescode.html
SQLITE_FAILING = frozenset({3, 5, 6, 7, 8, 10, 11, 13, 14, 15, 22, 26})
# A write the database itself refuses by a rule of its own, never ours (we define no
# trigger): an operator's trigger (SQLite's RAISE, PostgreSQL's RAISE EXCEPTION: P0001)
# or a read-only database (25006): the store's refusal, said as its failure is
SQLITE_CONSTRAINT_TRIGGER = 1811
REFUSED_BY = frozenset({"25006", "P0001"})
# PostgreSQL's "current transaction is aborted, commands ignored until end of transaction
# block": a statement after an earlier error in the same transaction, the cause
IN_FAILED_TRANSACTION = "25P02"


def name_key(name: str) -> str:
    """One person however a name is written: compatibility forms (full-width letters)
    folded, case folded in any alphabet (АНЯ is аня)."""
    if len(name) > NAME_KEY_CACHED:  # no valid name: not worth a cache entry
        return unicodedata.normalize("NFKC", name).casefold()
    return _cached_name_key(name)


NAME_KEY_CACHED = 40  # longest name whose key is cached (valid names have at most 20)


@functools.lru_cache(maxsize=4096)  # a table asks for its seats' keys at every event
def _cached_name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


# The Cyrillic and Greek letters drawn as a Latin one in the common faces, sans and
# mono (docs/security.md §1), each in its own case: a capital Cyrillic В is a B, its
# small в (a small capital) is no b, nor is a Greek ν (nu) a v while its capital Ν is
# an N. Mixed with Latin they were refused already (accounts.scripts_mixed); these
# catch a name written wholly so: Cyrillic 'аппа' beside anna, 'ТЕО' beside Teo.
OTHER_ALPHABETS = {
    "\u0430": "a",  # Cyrillic а
    "\u0410": "A",  # Cyrillic А
    "\u0412": "B",  # Cyrillic В
    "\u0441": "c",  # Cyrillic с
    "\u0421": "C",  # Cyrillic С
    "\u0501": "d",  # Cyrillic ԁ (komi de)
    "\u0435": "e",  # Cyrillic е
    "\u0415": "E",  # Cyrillic Е
    "\u04bb": "h",  # Cyrillic һ (shha)
    "\u041d": "H",  # Cyrillic Н
    "\u0458": "j",  # Cyrillic ј
    "\u0408": "J",  # Cyrillic Ј
    "\u041a": "K",  # Cyrillic К
    "\u041c": "M",  # Cyrillic М
    "\u043f": "n",  # Cyrillic п: an n with a flat top, read as one at a glance
    "\u0440": "p",  # Cyrillic р
    "\u0420": "P",  # Cyrillic Р
    "\u051b": "q",  # Cyrillic ԛ
    "\u051a": "Q",  # Cyrillic Ԛ
    "\u0455": "s",  # Cyrillic ѕ
    "\u0405": "S",  # Cyrillic Ѕ
    "\u0422": "T",  # Cyrillic Т
    "\u051d": "w",  # Cyrillic ԝ
    "\u051c": "W",  # Cyrillic Ԝ
    "\u0445": "x",  # Cyrillic х
    "\u0425": "X",  # Cyrillic Х
    "\u0443": "y",  # Cyrillic у
    "\u04ae": "Y",  # Cyrillic Ү (straight U)
    "\u0391": "A",  # Greek Α
    "\u0392": "B",  # Greek Β
    "\u0395": "E",  # Greek Ε
    "\u0397": "H",  # Greek Η
    "\u039a": "K",  # Greek Κ
    "\u039c": "M",  # Greek Μ
    "\u039d": "N",  # Greek Ν
    "\u03a1": "P",  # Greek Ρ
    "\u03a4": "T",  # Greek Τ
    "\u03a7": "X",  # Greek Χ
    "\u03a5": "Y",  # Greek Υ
    "\u0396": "Z",  # Greek Ζ
} | {
    # From Unicode's confusables data (UTS #39, confusables.txt: the Cyrillic and Greek
    # letters it maps to one Latin letter, those NFKC keeps), the small letters only
    # roughly Latin above all: they passed as names of their own beside a Latin one
    # taken (s39). Cyrillic и is not in that data: drawn as u in italic and by hand.
    "\u0438": "u",  # Cyrillic и
    "\u0433": "r",  # Cyrillic г
    "\u0423": "Y",  # Cyrillic У
    "\u042c": "b",  # Cyrillic Ь
    "\u0461": "w",  # Cyrillic ѡ (omega)
    "\u0475": "v",  # Cyrillic ѵ (izhitsa)
    "\u0474": "V",  # Cyrillic Ѵ
    "\u04bd": "e",  # Cyrillic ҽ (Abkhasian che)
    "\u050c": "G",  # Cyrillic Ԍ (komi sje)
    "\ua647": "i",  # Cyrillic ꙇ (iota)
    "\u03b1": "a",  # Greek α
    "\u03b3": "y",  # Greek γ
    "\u03bd": "v",  # Greek ν (its capital Ν is an N)
    "\u03c1": "p",  # Greek ρ
    "\u03c5": "u",  # Greek υ (its capital Υ is a Y)
    "\u037f": "J",  # Greek Ϳ (yot)
    "\u03f3": "j",  # Greek ϳ
    "\u03dc": "F",  # Greek Ϝ (digamma)
}


# Characters one alphabet draws alike (docs/security.md §1), mapped BEFORE case is
# folded, so only what looks alike is made one: a capital I, a lower-case l and the
# digit 1 (with the Cyrillic І and palochka Ӏ/ӏ, the Greek Ι), and O, o and 0 (with
# the Cyrillic о/О, the Greek ο/Ο). A lower-case i (dotted, as is the Cyrillic і, kept
# with it) is itself, so ali beside all, or bili beside bill, differ; the Turkish
# dotless ı is an i that lost its dot (short as i, not tall as l), so it is one with
# i, as is the Greek ι, dotless too.
# Two names whose ``look_key`` is one look like one name; a new name that looks like a
# registered one is refused (server/login.py). With them, the Cyrillic and Greek
# letters drawn as Latin ones (OTHER_ALPHABETS), so a name wholly in one of those
# alphabets that reads as a Latin name taken is refused too.
LOOKS_ALIKE = str.maketrans(
    {
        "I": "l",
        "1": "l",
        "\u0131": "i",  # ı, dotless: an i without its dot
        "\u0406": "l",  # Cyrillic І
        "\u04c0": "l",  # Cyrillic Ӏ (palochka)
        "\u04cf": "l",  # Cyrillic ӏ (small palochka)
        "\u0399": "l",  # Greek Ι
        "\u03b9": "i",  # Greek ι: dotless, short, as ı
        "\u0456": "i",  # Cyrillic і: drawn as the Latin i
        "O": "o",
        "0": "o",
        "\u043e": "o",  # Cyrillic о
        "\u041e": "o",  # Cyrillic О
        "\u03bf": "o",  # Greek ο
        "\u039f": "o",  # Greek Ο
    }
    | OTHER_ALPHABETS
)
# The indexes that found a look-alike before migration 21's look (``latin_look``),
# kept as the migrations that made them (18's, then 20's) wrote them: on a coarser
# mapping of the key (``KEY_LOOKS_ALIKE``, in SQL ``LOOK_OF_KEY``: i, l, 1 and the rest
# one letter, o and 0 another, then KEY_PAIRS) that every pair of look-alikes of one
# alphabet shared; a look-up asked for a new name's Latin reading spelled in Cyrillic
# and in Greek letters too. Migration 21 drops them.
KEY_LOOKS_ALIKE = str.maketrans(
    {
        "i": "l",
        "1": "l",
        "\u0131": "l",  # ı, dotless
        "\u0456": "l",  # Cyrillic і (І folded)
        "\u04cf": "l",  # Cyrillic ӏ (Ӏ folded)
        "\u03b9": "l",  # Greek ι (Ι folded)
        "0": "o",
        "\u043e": "o",  # Cyrillic о
        "\u03bf": "o",  # Greek ο
    }
)
# The key with KEY_LOOKS_ALIKE, in SQL (SQLite's and PostgreSQL's replace): the
# expression migration 18 indexed. Never change it (nor KEY_LOOKS_ALIKE): another
# mapping is another migration's index (migration 20's, LOOK_OF_KEY_PAIRS)
LOOK_OF_KEY = (
    "replace(replace(replace(replace(replace(replace(replace(replace(replace(key,"
    " 'i', 'l'), '1', 'l'), '\u0131', 'l'), '\u0456', 'l'), '\u04cf', 'l'), '\u03b9', 'l'),"
    " '0', 'o'), '\u043e', 'o'), '\u03bf', 'o')"
)
# Two letters drawn as one (docs/security.md §1): 'rn' as 'm', 'cl' as 'd', 'vv' as 'w'
# (on the web pages' proportional type above all; in a terminal's cells less so, but
# at a glance). Lower-case only, as they look alike only so (RN is no M): ``look_key``
# makes each pair and its letter one mark BEFORE case is folded, a private-use
# character no name holds (no letter: NAME_RULE), so a capital folded to 'm' never
# meets it; 'w' is two marks of 'v', so 'vvw', 'vwv' and 'wvv' are one.
# (One after another, as the pairs share no letter and no mark is a letter: each
# string's replace is the leftmost match's, as one pattern of them all would be.)
DRAWN_AS_ONE = (
    ("rn", "\ue000"),
    ("m", "\ue000"),
    ("cl", "\ue001"),
    ("d", "\ue001"),
    ("v", "\ue002"),
    ("w", "\ue002\ue002"),
)
# The pairs in the key, for the index (the key has lost the case, so coarser: 'RN' is
# 'm' there too), after LOOK_OF_KEY, then the other alphabets' letters that stand for
# one Latin letter made one (KEY_SPELLED_ONE). Python's str.replace and SQL's replace
# both take the leftmost matches, one after another (as ``latin_look`` and migration
# 21's fill do). 'w' becomes 'vv' (not 'vv' 'w', which would make 'vvv' one with
# 'wv', not 'vw').
# The other alphabets' letters were not made Latin in that index: a replace a letter
# is deeper than SQLite's parser goes (about 28) in one expression; migration 21 stores
# the Latin reading instead, filled by several. Migration 20's made one spelling of a
# Latin letter in each: the Cyrillic һ (shha) and н (of Н) are h, ү (of Ү) and у are
# y, and сӏ is a d as ԁ is.
KEY_SPELLED_ONE = (("\u04bb", "\u043d"), ("\u04af", "\u0443"), ("\u0441l", "\u0501"))
KEY_PAIRS = (("rn", "m"), ("cl", "d"), ("w", "vv"), *KEY_SPELLED_ONE)
# The accounts' ``key`` column so, in SQL: the expression migration 20 indexed (and
# 21 drops by name). Never change it (nor KEY_LOOKS_ALIKE, KEY_PAIRS): it is that
# migration's text
LOOK_OF_KEY_PAIRS = functools.reduce(
    lambda sql, pair: f"replace({sql}, '{pair[0]}', '{pair[1]}')", KEY_PAIRS, LOOK_OF_KEY
)


def look_key(name: str) -> str:
    """What ``name`` looks like: the characters one alphabet draws alike (LOOKS_ALIKE,
    the Cyrillic and Greek letters drawn as Latin ones among them) and the pairs drawn
    as one letter (DRAWN_AS_ONE) made one before case is folded, then its
    ``name_key``, so AIice (a capital I) looks like alice, arnold like amold, and the
    Cyrillic аппа like anna, and ali (a lower-case i) does not look like all."""
    # (name_key's steps, the mappings between, letter by letter: no second NFKC, which
    # could join a mapped letter with a mark after it, so latin_look stays coarser)
    drawn = unicodedata.normalize("NFKC", name).translate(LOOKS_ALIKE)
    for pair, mark in DRAWN_AS_ONE:
        drawn = drawn.replace(pair, mark)
    return drawn.casefold()


# The accounts' ``look`` column (migration 21, in place of 20's index): each name's
# key read as Latin, coarser than ``look_key`` (which needs the case the key has lost),
# so every name ``look_key`` makes one with another has the other's ``look``, whatever
# its alphabets, one registered before mixing them was refused among them. Each key
# letter becomes the Latin letter it is drawn as in either case (LOOKS_ALIKE), letters
# one key letter stands for in its two cases made one (Greek ν is N and v: n and v are
# one, as υ makes u and y one, ι i and l); then the pairs drawn as one (DRAWN_AS_ONE).
# Computed here for a new account, and by migration 21 in SQL (the same replaces, in
# order, ``LATIN_OF_KEY_SQL``) for those registered before: never change it (another
# reading is another migration's refill).
def _latin_steps() -> tuple[tuple[str, str], ...]:
    readings: dict[str, set[str]] = {}  # by key letter: the Latin letters it is drawn as
    for drawn, latin in [*_LOOKS_ALIKE_READ.items(), *OTHER_ALPHABETS.items()]:
        readings.setdefault(drawn.casefold(), set()).add(latin.casefold())
    for letter, read in readings.items():
        if letter.isascii():
            read.add(letter)  # a Latin key letter (i of I) is drawn as itself too
    classes: list[set[str]] = []
    for read in readings.values():
        joined = {*read}.union(*(c for c in classes if c & read))
        classes = [c for c in classes if not c & read] + [joined]
    first = {latin: min(c, key=lambda x: (not x.isalpha(), x)) for c in classes for latin in c}
    steps = [(letter, first[min(read)]) for letter, read in sorted(readings.items())]
    steps += [(latin, one) for latin, one in sorted(first.items()) if latin not in readings]
    n, v, i = first.get("n", "n"), first.get("v", "v"), first.get("l", "l")
    pairs = [("w", v + v), ("r" + n, "m"), ("c" + i, "d")]
    return tuple((a, b) for a, b in steps if a != b) + tuple(pairs)


_LOOKS_ALIKE_READ = {chr(k): str(v) for k, v in LOOKS_ALIKE.items()}
LATIN_OF_KEY = _latin_steps()
LATIN_STEPS_AT_ONCE = 20  # replaces in one SQL expression: SQLite's parser nests ~28


def latin_look(name: str) -> str:
    """``name``'s look as the accounts' ``look`` column holds it (LATIN_OF_KEY)."""
    return functools.reduce(lambda look, step: look.replace(*step), LATIN_OF_KEY, name_key(name))


def _latin_sql(column: str, steps: tuple[tuple[str, str], ...]) -> str:
    return functools.reduce(lambda sql, s: f"replace({sql}, '{s[0]}', '{s[1]}')", steps, column)


# LATIN_OF_KEY in SQL (SQLite's and PostgreSQL's replace), in expressions of at most
# LATIN_STEPS_AT_ONCE replaces: the first reads ``key``, each next the ``look`` so far
LATIN_OF_KEY_SQL = tuple(
    _latin_sql("key" if at == 0 else "look", LATIN_OF_KEY[at : at + LATIN_STEPS_AT_ONCE])
    for at in range(0, len(LATIN_OF_KEY), LATIN_STEPS_AT_ONCE)
)


def look_alike(name: str, candidates: Iterable[str]) -> str | None:
    """The first of ``candidates`` (registered names of ``name``'s ``latin_look``)
    that looks like ``name`` (``look_key``), or None."""
    look = look_key(name)
    return next((c for c in candidates if look_key(c) == look), None)


class Outcome(enum.StrEnum):
    """A rated player's result in one match."""

    WON = "won"
    LOST = "lost"
    DRAWN = "drawn"


@attrs.frozen
class RatingResult:
    """One player's new rating after a rated match (server/ratings.py computes it)."""

    name: str
    mu: float
    sigma: float
    rating: float
    outcome: Outcome


@attrs.frozen
class PlayerRating:
    """A person's standing in one variant and player count."""

    name: str
    variant: str
    players: int
    mu: float
    sigma: float
    rating: float
    games: int
    wins: int
    losses: int
    draws: int


@attrs.frozen
class RatingPoint:
    """A person's rating after one rated match."""

    variant: str
    players: int
    match: str
    rating: float


@attrs.frozen
class Ban:
    """A name kept from logging in (docs/protocol.md §5.19): as it was banned, by which
    admin, since when ('YYYY-MM-DD HH:MM:SS', UTC), and why ('' if no reason was given)."""

    name: str
    admin: str
    since: str
    reason: str


@attrs.frozen
class AddressBan:
    """An address or a network whose guests and new names may not log in
    (docs/protocol.md §5.19), as listed ('203.0.113.0/24': server/banned_addresses.py),
    by which admin, since when ('YYYY-MM-DD HH:MM:SS', UTC), why ('' if no reason was
    given) and till when (seconds since the epoch)."""

    network: str
    admin: str
    since: str
    reason: str
    until_s: float


@attrs.frozen
class StoredMute:
    """A name whose 'say' and 'invite' are refused (docs/protocol.md §5.19) till
    ``until_s`` (seconds since the epoch), as it was muted, by which admin, and why;
    ``lifted_by``: the admin whose 'unmute' ended it before then (None: running)."""

    name: str
    admin: str
    reason: str
    until_s: float
    lifted_by: str | None = None


@attrs.frozen
class Arrival:
    """What a login reads first, in one read (one thread's turn, not two: a burst of
    logins otherwise holds twice the memory in flight, docs/performance.md): the
    name's ban, None if it has none, its account's spelling (``login VERA`` is
    Vera's), None if it has no account, the names it ignores, in the order added
    (only if asked: a password's login, not a guest's), and, if it has no account,
    another's it looks like (``looks_like``)."""

    ban: Ban | None
    spelling: str | None
    ignored: tuple[str, ...] = ()
    # an unregistered name's look-alike: the spelling of a registered account whose
    # ``look_key`` is the name's (None: none, or the name is registered itself)
    looks_like: str | None = None
    # an unregistered name's: the ban of an address or network that holds the login's
    # address, if it was given (None: none, or the name is registered)
    address_ban: AddressBan | None = None

    @property
    def registered(self) -> bool:
        return self.spelling is not None


class Store(Protocol):
    def close(self) -> None: ...

    def hurry(self, timeout_s: float) -> None:
        """The server stops: from now on a call waits at most ``timeout_s`` for a
        connection (PostgreSQL's pool: not its 30 s, for a database gone away); SQLite's
        waits are its busy timeout's, as ever."""
        ...

    def group(self) -> contextlib.AbstractContextManager[None]:
        """The writes the calling thread makes inside it as one transaction where the
        backend gains by it (SQLite: one wait for the file's write lock, one commit),
        each write still all or nothing (a savepoint, or one statement): a write that
        fails undoes only itself. If the group raises (its begin or commit failed, or a
        write's error rolled its whole transaction back, as a full disk may), none of
        its writes is stored; where there is no group (PostgreSQL), each write is stored
        as it is made and the group never raises of its own. The store writer's
        (server/store_writer.py); other threads' calls wait for it."""
        ...

    def schema_version(self) -> int:
        """The number of the last migration applied to the database."""
        ...

    # accounts
    def account(self, name: str) -> tuple[bytes, bytes] | None:
        """(salt, scrypt hash) of ``name``'s account, None if it has none."""
        ...

    def account_name(self, name: str) -> str | None:
        """``name`` as its account was registered (``VERA`` is ``Vera``), None if it
        has none: one spelling for one player (docs/protocol.md §4.2)."""
        ...

    def add_account(self, name: str, salt: bytes, digest: bytes) -> bool:
        """Register ``name``; False if it is taken already (in any writing of it)."""
        ...

    def register(self, name: str, salt: bytes, digest: bytes) -> str | None:
        """Register the new ``name`` unless a registered name is it (in any writing) or
        looks like it (``look_alike``), read and written in one transaction, so two
        look-alikes registered at once are not both taken (docs/security.md §1): None
        if registered, else that registered name, as spelled."""
        ...

    def forget_account(self, name: str) -> None:
        """Drop an account, its ratings, their history and its ignore list, in one
        transaction (FORGET_ACCOUNT): whoever registers the name next starts clean
        (``set_password`` re-makes one)."""
        ...

    def set_account_secret(self, name: str, salt: bytes, digest: bytes) -> bool:
        """Give ``name``'s account a new password's salt and hash, at once (a player's
        'password'); False if it has no account."""
        ...

    # bans (server/moderation.py)
    def ban(self, name: str, admin: str, reason: str) -> None:
        """Keep ``name`` (in any writing of it) from logging in; a name banned already
        is banned anew, by ``admin``, for ``reason``, from now."""
        ...

    def unban(self, name: str) -> bool:
        """Let ``name`` log in again; False if it was not banned."""
        ...

    def ban_of(self, name: str) -> Ban | None:
        """``name``'s ban, None if it is not banned."""
        ...

    def arrival(
        self,
        name: str,
        ignored_most: int = 0,
        address: str | None = None,
        now_s: float | None = None,
    ) -> Arrival:
        """``name``'s ban and its account's spelling, read together, and the first
        ``ignored_most`` names he ignores (the oldest: a list the store holds beyond
        its bound, by two servers' changes at once, is read as the bound); a name with
        no account, the ban of an address or network holding ``address`` that runs at
        ``now_s`` (the time now if None)."""
        ...

    def bans(self) -> list[Ban]:
        """Every ban, the oldest first."""
        ...

    # bans of addresses (server/moderation.py)
    def ban_address(self, network: str, admin: str, reason: str, until_s: float) -> None:
        """Refuse guests and new names from ``network`` (as listed) till ``until_s``
        (seconds since the epoch); one banned already is banned anew (and the bans run
        out are forgotten)."""
        ...

    def unban_address(self, network: str, now_s: float) -> bool:
        """Lift ``network``'s ban; False if it had none running at ``now_s``."""
        ...

    def address_bans(self, now_s: float) -> list[AddressBan]:
        """The bans of addresses running at ``now_s``, the oldest first."""
        ...

    # mutes (server/moderation.py)
    def mute(self, name: str, admin: str, reason: str, until_s: float) -> None:
        """Refuse ``name``'s talk till ``until_s`` (seconds since the epoch); a name
        muted already is muted anew (and the mutes run out are forgotten)."""
        ...

    def unmute(self, name: str, admin: str) -> bool:
        """End ``name``'s mute, lifted by ``admin`` (kept till it would have run out, so
        the other servers tell its player who lifted it); False if it had none running."""
        ...

    def mutes(self, now_s: float) -> list[StoredMute]:
        """The mutes still running at ``now_s`` (seconds since the epoch)."""
        ...

    def mutes_with_lifts(self, now_s: float) -> list[StoredMute]:
        """The mutes not run out at ``now_s``, read together with those lifted before
        their end (``lifted_by``): what a server's look at the store reads."""
        ...

    def tell_cut_off_once(self, name: str, match: str, now_s: float) -> bool:
        """Whether ``name`` is to be told now that ``match`` was cut off: True the first
        time it is asked for that name and match, on any server of the database (the
        ask is kept, ``now_s`` seconds since the epoch), False ever after. Asks kept
        longer than CUT_OFF_TOLD_KEPT_S are forgotten meanwhile."""
        ...

    def untell_cut_off(self, name: str, match: str) -> None:
        """Forget that ``name`` was to be told of ``match`` (``tell_cut_off_once``): his
        connection closed before he could be, so his next login tells him."""
        ...

    # ignore lists (server/ignoring.py; read by ``arrival``)
    def ignore(self, name: str, other: str) -> None:
        """``name`` ignores ``other`` (in any writing of either); kept as ``other`` is
        written here. Ignored already: nothing changes."""
        ...

    def unignore(self, name: str, other: str) -> None:
        """``name`` no longer ignores ``other`` (nothing if he did not)."""
        ...

    # records
    def add_deal(
        self, record: dict[str, Any], board: str | None = None, *, text: str | None = None
    ) -> None:
        """Store a deal of a running match: withheld, and without the seed. ``board``: a
        ladder board's key, its match withheld until ``release_board`` (even past a stop
        of its server: it ends listed only then). ``text``: ``withheld(record)``, if the
        caller has it already (a table encodes a record once: its line and its row)."""
        ...

    def finish_match(
        self,
        match_id: str,
        table_id: int,
        players: list[str],
        variant: str,
        options: list[str],
        winner: str | None,
        reason: str,
        totals: list[int],
        seeds: dict[int, str] | None = None,
        board: str | None = None,
        ratings: list[RatingResult] | None = None,
        forfeit: int | None = None,
        public_table: bool = False,
    ) -> None:
        """The match is over: its row, and its deals released with their seeds (by deal
        number) filled in. A ladder board's (``board``, its key): the result is kept,
        and the match withheld, until ``release_board``. ``ratings``: a rated match's
        new ratings, stored as ``save_ratings`` does, in the same transaction: the
        result and the ratings together or not at all (a board is never rated).
        ``forfeit``: the seat whose forfeit ended it (migration 11). ``public_table``:
        it was played at a public table, not a private one nor a board (migration 23:
        ``last_match_at`` names only such a table's match)."""
        ...

    def release_board(self, board: str) -> int:
        """Every seating of the board ``board`` is played: its matches' results kept so
        far are written as ``finish_match`` does (those its server did not finish listed
        as stopped, docs/scaling.md). How many matches it released."""
        ...

    def records(self) -> Iterator[str]:
        """Every stored deal (one JSON text each, in the order stored) except those of
        matches still running."""
        ...

    def match_records(self, match_id: str) -> list[str]:
        """One finished match's deals (JSON texts) in deal order; none while it runs."""
        ...

    def matches_records(self, match_ids: Sequence[str], after: int = 0) -> dict[str, list[str]]:
        """Finished matches' deals by match, each as ``match_records`` gives it, read in
        one query (a ladder run's thousands: a query a match was one a game); a match
        running, unknown or without deals is not in it. ``after``: only the deals stored
        after deal row ``after`` (``last_deal``: a ladder run's start), so that a
        ``--server`` run's match numbers, alike in its ``--db``, read none stored before."""
        ...

    def last_deal(self) -> int:
        """The row id of the last deal stored (0: none): those stored later are above it
        (``matches_records``' ``after``)."""
        ...

    def recent_games(self, name: str, limit: int = 10) -> list[dict[str, Any]]:
        """``name``'s finished matches, newest first: match, table, players, variant,
        winner, reason, totals, finished ('YYYY-MM-DD HH:MM:SS', UTC), forfeit (the
        seat that forfeited it; None: not a forfeit, or not kept then), options (the
        table's, sorted), dealt (a deal of it is stored: not one forfeited before its
        first call). A registered name's: only those finished since its account was
        made (before, the name was a guest's: RECENT_GAMES)."""
        ...

    def finished_match(self, match_id: str) -> dict[str, Any] | None:
        """A finished match's row, as ``recent_games`` gives one; None for a match
        unknown or still running. For a match that has no deal stored (a forfeit before
        the first call)."""
        ...

    def last_match_at(self, table_id: int) -> str | None:
        """The match stored last at table ``table_id``, if that table was public: a
        closed table's web page links it (docs/web.md). None if no match is stored
        there, or the last one is a private table's or a ladder board's, or was stored
        before migration 23 or cut off by a stop (not known whose): a private table's
        number says nothing (docs/security.md §1)."""
        ...

    def max_match_number(self) -> int:
        """The highest ``m<N>`` stored (0 if none)."""
        ...

    # several servers on one database (docs/scaling.md)
    server_id: int | None
    """Opened by a server (``serving``): its row in ``servers``, drawn from the store;
    the running matches it stores are its own. None otherwise."""

    def new_match_number(self) -> int:
        """A match number no other call, in this process or any other on the same
        database, ever gets: match ids are ``m<N>``."""
        ...

    def new_match_numbers(self, count: int) -> list[int]:
        """``count`` match numbers, ascending, as ``new_match_number`` gives each: a
        server draws them in blocks (one store call, not one a match); those a server
        never uses are never used (match ids may skip numbers)."""
        ...

    def new_table_numbers(self, count: int) -> list[int]:
        """``count`` table numbers, ascending, that no other call in any process on the
        same database gets: every server numbers its tables from them (drawn ahead,
        server/table_numbers.py), the workers of ``serve --workers`` on any host too."""
        ...

    def highest_table_number(self) -> int:
        """The highest table number any call of ``new_table_numbers`` on this database
        has given (0 if none): a number above it is no table, nor one on its way, of
        any server or worker on it (``serve --workers`` refuses it at once:
        server/cluster/looks.py)."""
        ...

    def give_back_numbers(self, counter: str, lowest: int, highest: int) -> bool:
        """The numbers ``lowest`` to ``highest`` of ``counter`` (``table_numbers`` or
        ``match_numbers``), drawn by this store and never handed out, handed out again by
        the next draw, if no draw since has taken any above them (a stopping server's:
        the next start goes on from its last table, not past its block). Whether they
        were. SQLite: yes, unless another process drew since. PostgreSQL: never (a
        sequence cannot be set back safely while another server may draw from it)."""
        ...

    def heartbeat(self, dead_after_s: float, every_s: float = 0.0) -> int:
        """This server is alive (its heartbeat is now, by the database's clock); the
        servers silent for more than ``dead_after_s`` are dead, and their running
        matches over (exportable, seedless). Returns how many matches it ended.

        ``every_s``: how often this server beats. A beat that comes later than that
        after its last (by the same clock: this server did not run, or the database did
        not answer it, meanwhile) judges the others as its beat on time would have,
        counting their silence only up to ``every_s`` after its last beat (``late_by``):
        a whole machine paused, every server stalled with this one, and the first to
        beat as they ran again ended the others' matches, though they were alive. A
        server found dead (its row gone) ends none at the beat that writes it again."""
        ...

    # people's ratings (server/ratings.py)
    def ratings_for(
        self, names: list[str], variant: str, players: int
    ) -> dict[str, tuple[float, float]]:
        """(mu, sigma) of each of ``names`` that has a rating in this variant and player
        count, by name_key."""
        ...

    def ratings_held(
        self, names: list[str], variant: str, players: int
    ) -> contextlib.AbstractContextManager[None]:
        """A rated match's end (server/table.py): its players' ratings read
        (``ratings_for``), the new ones computed and stored with its result
        (``finish_match``) inside it, in one transaction that holds those names'
        ratings of that game, so that another server ending a rated match of one of
        them at the same moment (serve --workers) waits for it, and reads what it wrote
        (before, it read the same ratings, and one of the two updates was lost).
        SQLite: inside the store writer's group nothing more (its write transaction holds
        the file's lock: server/store_writer.py); outside one, a write transaction of
        its own (a group that could not begin does its jobs one by one)."""
        ...

    def save_ratings(
        self, match_id: str, variant: str, players: int, results: list[RatingResult]
    ) -> None:
        """A rated match's new ratings: each player's row updated (a game and its
        outcome counted) and a point added to his history, in one transaction."""
        ...

    def standings(self, variant: str, players: int) -> list[PlayerRating]:
        """Everyone rated in this variant and player count, best first."""
        ...

    def standings_page(
        self, variant: str, players: int, first: int, count: int
    ) -> list[PlayerRating]:
        """``count`` of ``standings`` from the ``first`` (0: the best): a page of
        them, read without the rest ('top', server/club.py)."""
        ...

    def rated_counts(self) -> dict[tuple[str, int], int]:
        """How many are rated in each variant and player count, by (variant, players)."""
        ...

    def rank(self, rating: PlayerRating) -> int:
        """The place of ``rating`` (one of ``standings``') in its standings, 1 the
        best, counted without reading them ('finger', server/club.py)."""
        ...

    def player_ratings(self, name: str) -> list[PlayerRating]:
        """``name``'s ratings, one per variant and player count he has played rated."""
        ...

    def rating_history(self, name: str, last: int | None = None) -> list[RatingPoint]:
        """``name``'s rating after each of his rated matches, oldest first; only his
        ``last`` ones if given, read without the rest (his page: docs/web.md)."""
        ...


def deal_text(record: dict[str, Any]) -> str:
    """A record's JSON: ``json.dumps(record, ensure_ascii=False, separators=(",", ":"))``
    byte for byte (by orjson for a record the fold checked: game/record_json.py)."""
    return record_text(record)


def withheld(record: dict[str, Any]) -> str:
    """A running match's deal as stored: its seed left out."""
    return record_text(reseeded(record, None))


def told(text: str, record: dict[str, Any]) -> str:
    """``deal_text(record)`` from ``text``, its ``withheld``: the same but for the seed,
    filled in by ``released`` (no second encoding of the whole record)."""
    seed = record["seed"]
    return text if seed is None else released(text, {record["deal_no"]: seed})


def released(body: str, seeds: dict[int, str] | None) -> str:
    """A stored deal with its seed filled in, at its match's end: what decoding it and
    ``deal_text`` of it with the seed give, byte for byte, found without decoding the
    whole record (a finish did that for every deal of its match: docs/performance.md)."""
    head, withheld_seed, tail = body.partition(_NO_SEED)
    if withheld_seed:
        try:  # the text before it is the record's start only if it closes as an object
            start = json.loads(head + "}")
        except ValueError:
            start = None
        # (before it ``withheld`` wrote the record's first keys, its deal number among
        # them; a ``,"seed":`` outside any string is a key: a nested one fails above)
        if isinstance(start, dict) and "deal_no" in start:
            seed = json.dumps((seeds or {}).get(start["deal_no"]), ensure_ascii=False)
            return f'{head},"seed":{seed},{tail}'
    record = json.loads(body)
    return deal_text({**record, "seed": (seeds or {}).get(record["deal_no"])})


_NO_SEED = ',"seed":null,'  # a withheld record's seed, as deal_text writes it


def match_row(
    match_id: str,
    table_id: int,
    players: list[str],
    variant: str,
    options: list[str],
    winner: str | None,
    reason: str,
    totals: list[int],
    forfeit: int | None = None,
    public_table: bool | None = None,
) -> tuple[Any, ...]:
    """A finished match's ``matches`` row (MATCH_COLUMNS), its lists as JSON: the same
    in both backends. ``public_table``: None, not known (a match a stop cut off)."""
    return (
        match_id,
        table_id,
        json.dumps(players),
        variant,
        json.dumps(options),
        winner,
        reason,
        json.dumps(totals),
        forfeit,
        public_table,
    )


# A ``matches`` row's columns, as ``match_row`` gives them, and the statements' part
# that writes one ({p}: the dialect's placeholder)
MATCH_COLUMNS = (
    "id",
    "table_id",
    "players",
    "variant",
    "options",
    "winner",
    "reason",
    "totals",
    "forfeit",
    "public_table",
)
# The match stored last at a table ({p}: its number; {order}: the order stored,
# SQLite's rowid, PostgreSQL's seq), and whether the table was public: one probe of
# migration 23's index on table_id
LAST_MATCH_AT = (
    "SELECT id, public_table FROM matches WHERE table_id = {p} ORDER BY {order} DESC LIMIT 1"
)


def public_match(row: tuple[Any, ...] | None) -> str | None:
    """A ``LAST_MATCH_AT`` answer: the match, if its table was public (1, true; NULL,
    stored before migration 23 or cut off, is not known to be)."""
    return None if row is None or not row[1] else str(row[0])


MATCH_INTO = (
    f"INTO matches ({', '.join(MATCH_COLUMNS)}) VALUES ({', '.join(['{p}'] * len(MATCH_COLUMNS))})"
)


# Why a match that did not end is listed: its server died (silent past its time), or
# stopped cleanly (SIGTERM) while it ran. Nobody won, lost or drew it.
SERVER_LOST = "server-lost"


def late_by(since_own_beat_s: float | None, every_s: float) -> float | None:
    """How much later than ``every_s`` a server beats, its last beat
    ``since_own_beat_s`` before (``Store.heartbeat``): what it adds to the silence
    after which it takes another for dead. None: it has no row (thought dead itself,
    its silence its own), and ends none."""
    if since_own_beat_s is None:
        return None
    return max(0.0, since_own_beat_s - every_s)


SHUTDOWN = "shutdown"
STOPPED = frozenset({SERVER_LOST, SHUTDOWN})
# A stopped match's ``matches`` row, written over its earlier one if that one says it
# stopped too: a match another server ended (its server thought dead) and whose server
# stored deals of it again (docs/scaling.md) is listed anew when it stops again, with
# the totals after its last deal; never over a finished match's row (an ending that
# took the match as orphaned while its server finished it). ``now``: the dialect's.
LIST_STOPPED = (
    f"INSERT {MATCH_INTO} ON CONFLICT (id) DO UPDATE"
    " SET winner = excluded.winner, reason = excluded.reason, totals = excluded.totals,"
    " finished = {now} WHERE matches.reason IN ("
    + ", ".join(f"'{reason}'" for reason in sorted(STOPPED))
    + ")"
)

# The matches an old clean stop left unlisted (migration 8's ``old_stops``): listed by
# the next server as a clean stop's, each finished when the listed match numbered just
# before it did (every match numbered before it had started, and had ended by the stop),
# so a player's history keeps its order; with none before it (the store's first), just
# before the listed match numbered after it finished, not now, above every later one.
# Parameters: its number twice (NULL for an id not 'm<N>': finished stays), its id.
# ``number`` reads 'm<N>' (NULL for another id); ``before``: a moment before ``t``.
OLD_STOPS = "SELECT match_id FROM old_stops"
OLD_STOP_FINISHED = (
    "UPDATE matches SET finished = coalesce((SELECT max(e.finished) FROM matches e"
    " WHERE {number} < {p} AND e.id NOT IN (SELECT match_id FROM old_stops)),"
    " (SELECT {before} FROM matches e"
    " WHERE {number} > {p} AND e.id NOT IN (SELECT match_id FROM old_stops)), finished)"
    " WHERE id = {p}"
)
SQLITE_NUMBER = (
    "CASE WHEN e.id GLOB 'm[0-9]*' AND NOT substr(e.id, 2) GLOB '*[^0-9]*'"
    " THEN CAST(substr(e.id, 2) AS INTEGER) END"
)
SQLITE_BEFORE = "datetime(min(e.finished), '-1 second')"  # (finished: to the second)
POSTGRES_NUMBER = "CASE WHEN e.id ~ '^m[0-9]{1,18}$' THEN substr(e.id, 2)::bigint END"
POSTGRES_BEFORE = "min(e.finished) - interval '1 millisecond'"


def old_stop_number(match_id: str) -> int | None:
    """An old stop's number for OLD_STOP_FINISHED: None unless its id is 'm<N>'."""
    return highest_match_number([match_id]) or None


def in_number_order(stops: list[str]) -> list[str]:
    """Old stops in the order to list them: by match number (those finished at one
    time, numbered after the same listed match, are then shown by it, m10 after m9),
    any id not 'm<N>' last."""

    def number(match_id: str) -> tuple[bool, int, str]:
        found = old_stop_number(match_id)
        return (found is None, found or 0, match_id)

    return sorted(stops, key=number)


def lost_match_row(match_id: str, last_deal: str, reason: str = SERVER_LOST) -> tuple[Any, ...]:
    """The ``matches`` row of a match its server did not finish, from its last stored
    deal: no winner (nobody lost it), ``reason`` (one of STOPPED), the totals after that
    deal; the deal in play when the server died or stopped is gone with it."""
    record = json.loads(last_deal)
    table = str(record["table"])
    return match_row(
        match_id,
        int(table) if table.isdecimal() else 0,
        record["players"],
        record["variant"],
        record["options"],
        None,
        reason,
        record["totals"],
    )


# A ladder board's match kept withheld (``running.result``) until its board's release:
# its ``matches`` row and the seeds to fill in, as the table ended it, or as its
# server's stop or death left it (``lost_match_row``, seedless); and when it was kept,
# so that the release writes them in the order they ended, as each finish_match did
# before results were kept ('games' lists a board's seatings newest ended first).
def board_result(row: tuple[Any, ...], seeds: dict[int, str] | None) -> str:
    return json.dumps(
        {"row": list(row), "seeds": seeds, "kept": time.time_ns()}, ensure_ascii=False
    )


def board_finishes(results: Iterable[str]) -> list[tuple[tuple[Any, ...], dict[int, str] | None]]:
    """The rows and seeds of kept ``board_result``s, in the order kept (JSON's keys are
    strings: deal numbers again; one kept by 91d3455, without its time, first)."""
    finishes = []
    for kept in sorted((json.loads(r) for r in results), key=lambda k: int(k.get("kept", 0))):
        seeds = kept["seeds"]
        row = kept_row(kept["row"])
        finishes.append((row, None if seeds is None else {int(k): v for k, v in seeds.items()}))
    return finishes


def kept_row(row: list[Any]) -> tuple[Any, ...]:
    """A kept result's ``matches`` row: one kept before migration 11 (a board's seating
    that ended before its server's upgrade) has no ``forfeit``, so none; one kept
    before migration 23, no ``public_table`` (a board's: not public, NULL says as much)."""
    return (*row, *[None] * (len(MATCH_COLUMNS) - len(row)))


# the running matches no live server owns (the owner silent past its time, or a row
# from before servers were numbered), but a board's result kept for its release
ORPHANED = "result IS NULL AND (server IS NULL OR server NOT IN (SELECT id FROM servers))"
OWN_RUNNING = "result IS NULL AND server = {p}"  # a server's own, at its stop
LAST_DEAL = "SELECT record FROM deals WHERE match_id = {p} ORDER BY deal_no DESC LIMIT 1"
BOARD_RESULTS = "SELECT match_id, result FROM running WHERE board = {p} AND result IS NOT NULL"
# At its release, a board's seatings not over (a server dead but not yet found so, or
# stalled past its lease; an end still queued on another worker) become plain running
# matches: its deck is public now, so they end as any match does, never kept again.
UNBOARD_RUNNING = "UPDATE running SET board = NULL WHERE board = {p} AND result IS NULL"
# What finish_match of a board's match finds: its running row's board (NULL once the
# board is released), and whether it is listed already (the release wrote what a stop
# or a dead server left of it; its server, back, ends it after all)
KEPT_BOARD = "SELECT board FROM running WHERE match_id = {p}"
# add_deal's board for a board's match: none if the match is listed (its board was
# released, and its server, back from a stall, plays on: a plain match from then on)
BOARD_UNLESS_LISTED = (
    "CASE WHEN EXISTS (SELECT 1 FROM matches WHERE id = {p}) THEN NULL ELSE {p} END"
)
LISTED = "SELECT 1 FROM matches WHERE id = {p}"
# add_deal's running row, when it writes one: a board's seating played on after its
# server was thought dead has the result that ending kept (lost, after an older deal);
# it is running again, so the result goes (a stop or an ending lists it anew as it
# leaves it, docs/scaling.md)
PLAYS_ON = " ON CONFLICT (match_id) DO UPDATE SET result = NULL WHERE running.result IS NOT NULL"
# add_deal's one statement stores a deal only while its match runs with no kept result
RUNNING_NOW = "SELECT 1 FROM running WHERE match_id = {p} AND result IS NULL"


def keeps_result(running: tuple[Any, ...] | None, listed: tuple[Any, ...] | None) -> bool:
    """Whether a board's match's result is kept for the board's release (``running``:
    its KEPT_BOARD row, ``listed``: its LISTED row): not if the board was released."""
    if running is not None:
        return running[0] is not None
    return listed is None


def player_rows(match_id: str, players: list[str]) -> list[tuple[str, str]]:
    """The match's ``match_players`` rows: one per person, however often seated."""
    return [(match_id, name_key(p)) for p in set(players)]


# A match's players' rows take its 'finished' and its place in the order stored
# ({order}: SQLite's rowid, PostgreSQL's seq) after each write of its ``matches`` row
# (listed, listed again, an old stop's time set: migration 15), so that a player's
# newest matches are the end of his range of the (key, finished, seq) index
PLAYERS_FOLLOW = (
    "UPDATE match_players SET (finished, seq) ="
    " (SELECT finished, {order} FROM matches WHERE id = {p}) WHERE match_id = {p}"
)
# A serving store's open fills in the rows an older deberc-net still writing beside a
# newer one left without them (a rolling upgrade over migration 15: docs/scaling.md),
# each from its match's row: a scan of the table, once a start (200,000 rows: 14 ms on
# SQLite, 20 ms on PostgreSQL; no index needed for it)
PLAYERS_HEAL = (
    "UPDATE match_players SET (finished, seq) ="
    " (SELECT m.finished, m.{order} FROM matches m WHERE m.id = match_players.match_id)"
    " WHERE finished IS NULL"
)
# whether a match (``{m}``: its row) has a deal stored: one forfeited before its first
# call has none (the (match_id, deal_no) key's index answers it)
DEALT = "EXISTS (SELECT 1 FROM deals d WHERE d.match_id = {m}.id)"
# ``recent_games``: his newest rows off that index, each joined to its match. A row
# stores a name only, and a guest's name is anyone's once he has gone: a registered
# name's games are those finished since its account was made (no guest can play under
# it since, nor could anyone register it while a guest held it), so the games a guest
# of that name played before are not his (a tryout, s42: finger listed them)
RECENT_GAMES = (
    "SELECT m.id, m.table_id, m.players, m.variant, m.winner, m.reason, m.totals,"
    " {finished}, m.forfeit, m.options, " + DEALT.format(m="m") + " FROM match_players p"
    " JOIN matches m ON m.id = p.match_id"
    " WHERE p.key = {p} AND NOT EXISTS (SELECT 1 FROM accounts a"
    " WHERE a.key = p.key AND a.created > p.finished)"
    " ORDER BY p.finished DESC, p.seq DESC LIMIT {p}"
)


# Queries written the same in both SQL dialects.
RELEASED_RECORDS = (
    "SELECT record FROM deals WHERE match_id NOT IN (SELECT match_id FROM running) ORDER BY id"
)
# the (match_id, deal_no) key's index finds one match's deals
MATCH_RECORDS = (
    "SELECT record FROM deals WHERE match_id = {p}"
    " AND match_id NOT IN (SELECT match_id FROM running) ORDER BY deal_no"
)
# many matches' deals, the matches given as one parameter ({ids}: the dialect's list)
MATCHES_RECORDS = (
    "SELECT match_id, record FROM deals WHERE match_id IN ({ids}) AND id > {after}"
    " AND match_id NOT IN (SELECT match_id FROM running) ORDER BY match_id, deal_no"
)
MATCH_IDS = "SELECT match_id FROM deals UNION SELECT id FROM matches"
LAST_DEAL_ROW = "SELECT coalesce(max(id), 0) FROM deals"  # (last_deal)


def by_match(rows: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """``MATCHES_RECORDS``' rows as ``matches_records`` gives them."""
    records: dict[str, list[str]] = {}
    for match_id, body in rows:
        records.setdefault(match_id, []).append(body)
    return records


GAME_FIELDS = (
    "match",
    "table",
    "players",
    "variant",
    "winner",
    "reason",
    "totals",
    "finished",
    "forfeit",
    "options",  # which tell a seat's konets from the server's claim (ends.said_konets)
    "dealt",  # a deal of it is stored: none if forfeited before the first call (DEALT)
)


def game_row(row: tuple[Any, ...]) -> dict[str, Any]:
    """A ``recent_games`` entry from (id, table_id, players, variant, winner, reason,
    totals, finished, forfeit, options, dealt)."""
    game = dict(zip(GAME_FIELDS, row, strict=True))
    game["dealt"] = bool(game["dealt"])  # (SQLite's EXISTS is 0 or 1)
    for listed in ("players", "totals", "options"):
        game[listed] = json.loads(game[listed])
    return game


def finished_match_row(row: tuple[Any, ...] | None) -> dict[str, Any] | None:
    """A ``finished_match`` answer: ``recent_games``' columns."""
    return None if row is None else game_row(tuple(row))


def highest_match_number(ids: list[str]) -> int:
    numbers = [int(i[1:]) for i in ids if i.startswith("m") and i[1:].isdigit()]
    return max(numbers, default=0)


# Bans: the same SQL in both dialects ({p}: the placeholder; {now}: the dialect's now,
# {since}: ``since`` as 'YYYY-MM-DD HH:MM:SS', UTC)
BAN = (
    "INSERT INTO bans (key, name, admin, reason) VALUES ({p}, {p}, {p}, {p})"
    " ON CONFLICT (key) DO UPDATE SET name = excluded.name, admin = excluded.admin,"
    " reason = excluded.reason, since = {now}"
)
BAN_OF = "SELECT name, admin, {since}, reason FROM bans WHERE key = {p}"
BANS = "SELECT name, admin, {since}, reason FROM bans ORDER BY since, key"


def ban_row(row: tuple[Any, ...]) -> Ban:
    return Ban(str(row[0]), str(row[1]), str(row[2]), str(row[3]))


# Bans of addresses (migration 25): the same SQL in both dialects, as the bans'. A row
# whose end has passed means nothing and goes at the next ban
ADDRESS_BAN = (
    "INSERT INTO address_bans (network, admin, reason, until_s) VALUES ({p}, {p}, {p}, {p})"
    " ON CONFLICT (network) DO UPDATE SET admin = excluded.admin,"
    " reason = excluded.reason, until_s = excluded.until_s, since = {now}"
)
ADDRESS_BANS_RUN_OUT = "DELETE FROM address_bans WHERE until_s <= {p}"
ADDRESS_UNBAN = "DELETE FROM address_bans WHERE network = {p} AND until_s > {p}"
ADDRESS_BANS = (
    "SELECT network, admin, {since}, reason, until_s FROM address_bans WHERE until_s > {p}"
    " ORDER BY since, network"
)


def address_ban_row(row: tuple[Any, ...]) -> AddressBan:
    return AddressBan(str(row[0]), str(row[1]), str(row[2]), str(row[3]), float(row[4]))


def covering(rows: Iterable[Sequence[Any]], address: str) -> AddressBan | None:
    """The first of ``ADDRESS_BANS``' rows whose network holds ``address``, as a ban,
    or None. (Matched here, not by the query: an admin's list, a few rows, and SQLite
    has no network type; only the one found is made a ban: each made was 3 µs of a
    guest's login a ban listed, a profile's.)"""
    client = span(address)
    if client is None:  # (the in-process link's name: no address)
        return None
    found = next((r for r in rows if within(client, str(r[0]))), None)
    return None if found is None else address_ban_row(tuple(found))


# Mutes: the same SQL in both dialects ({p}: the placeholder)
MUTE = (
    "INSERT INTO mutes (key, name, admin, reason, until_s) VALUES ({p}, {p}, {p}, {p}, {p})"
    " ON CONFLICT (key) DO UPDATE SET name = excluded.name, admin = excluded.admin,"
    " reason = excluded.reason, until_s = excluded.until_s, lifted_by = NULL"
)
MUTES_RUN_OUT = "DELETE FROM mutes WHERE until_s <= {p}"
# a player's ignore list (migration 17), the same SQL in both dialects
# the registered names that may look like one not registered (its latin_look, migration
# 21's index), by key (its candidates, a few at most; look_alike picks)
LOOKS_LIKE = "SELECT name FROM accounts WHERE look = {p} ORDER BY key"
ADD_ACCOUNT = "INSERT INTO accounts (key, name, salt, hash, look) VALUES ({p}, {p}, {p}, {p}, {p})"
# ``forget_account``, in one transaction: the account and what is kept by its name
# for it alone (its ratings, their history, its ignore list), so whoever registers the
# name next starts clean (rows are keyed by the name: he inherited them). Kept: the
# matches (the others' records too; RECENT_GAMES lists a new account's from its
# creation), its bans and mutes (the name's), the others' ignoring of it
FORGET_ACCOUNT = tuple(
    f"DELETE FROM {table} WHERE key = {{p}}"
    for table in ("accounts", "player_ratings", "rating_history", "ignores")
)
IGNORED_BY = "SELECT name FROM ignores WHERE key = {p} ORDER BY added_s, ignored LIMIT {p}"
IGNORE = (
    "INSERT INTO ignores (key, ignored, name, added_s) VALUES ({p}, {p}, {p}, {p})"
    " ON CONFLICT (key, ignored) DO NOTHING"
)
UNIGNORE = "DELETE FROM ignores WHERE key = {p} AND ignored = {p}"
# a cut-off match is news for a day (server/cut_off.py); its 'told' is kept two, so a
# match at the day's edge is not told again after its row went
CUT_OFF_TOLD_KEPT_S = 2 * 24 * 3600.0
CUT_OFFS_TOLD_OLD = "DELETE FROM cut_offs_told WHERE told_s < {p}"
CUT_OFF_UNTOLD = "DELETE FROM cut_offs_told WHERE key = {p} AND match = {p}"
CUT_OFF_TOLD = (
    "INSERT INTO cut_offs_told (key, match, told_s) VALUES ({p}, {p}, {p})"
    " ON CONFLICT (key, match) DO NOTHING"
)
# a mute lifted stays, with who lifted it (migration 16), till the next mute's clean-up
# after its end: a server that learns the lift from the store tells the player his name.
# One run out (its row not cleared yet) is no mute: 'NAME is not muted'
UNMUTE = "UPDATE mutes SET lifted_by = {p} WHERE key = {p} AND lifted_by IS NULL AND until_s > {p}"
_MUTE_COLUMNS = "SELECT name, admin, reason, until_s, lifted_by FROM mutes WHERE until_s > {p}"
MUTES = _MUTE_COLUMNS + " AND lifted_by IS NULL ORDER BY until_s, key"
MUTES_WITH_LIFTS = _MUTE_COLUMNS + " ORDER BY until_s, key"


def mute_row(row: tuple[Any, ...]) -> StoredMute:
    lifted_by = None if row[4] is None else str(row[4])
    return StoredMute(str(row[0]), str(row[1]), str(row[2]), float(row[3]), lifted_by)


# People's ratings: the same SQL in both dialects ({p}: the placeholder)
RATINGS_FOR = (
    "SELECT key, mu, sigma FROM player_ratings WHERE variant = {p} AND players = {p}"
    " AND key IN ({keys})"
)
SAVE_RATING = (
    "INSERT INTO player_ratings (key, name, variant, players, mu, sigma, rating, games,"
    " wins, losses, draws) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, 1, {p}, {p}, {p})"
    " ON CONFLICT (key, variant, players) DO UPDATE SET name = excluded.name,"
    " mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating,"
    " games = player_ratings.games + 1, wins = player_ratings.wins + excluded.wins,"
    " losses = player_ratings.losses + excluded.losses,"
    " draws = player_ratings.draws + excluded.draws"
)
SAVE_HISTORY = (
    "INSERT INTO rating_history (key, variant, players, match_id, rating)"
    " VALUES ({p}, {p}, {p}, {p}, {p})"
)
RATING_FIELDS = "name, variant, players, mu, sigma, rating, games, wins, losses, draws"
STANDINGS = (
    f"SELECT {RATING_FIELDS} FROM player_ratings WHERE variant = {{p}} AND players = {{p}}"
    " ORDER BY rating DESC, key LIMIT 100000"
)
STANDINGS_PAGE = (
    f"SELECT {RATING_FIELDS} FROM player_ratings WHERE variant = {{p}} AND players = {{p}}"
    " ORDER BY rating DESC, key LIMIT {p} OFFSET {p}"
)
RATED_COUNTS = "SELECT variant, players, count(*) FROM player_ratings GROUP BY variant, players"
RANK = (
    "SELECT 1 + count(*) FROM player_ratings WHERE variant = {p} AND players = {p}"
    " AND (rating > {p} OR (rating = {p} AND key < {p}))"
)
PLAYER_RATINGS = (
    f"SELECT {RATING_FIELDS} FROM player_ratings WHERE key = {{p}} ORDER BY variant, players"
)
RATING_HISTORY = (
    "SELECT variant, players, match_id, rating FROM rating_history WHERE key = {p} ORDER BY id"
)
# his last points, newest first, off the (key, id) index: a player's page read all of
# them (10,000 rated matches: 150 ms of CPU a page, a bench of a big club)
RATING_HISTORY_LAST = (
    "SELECT variant, players, match_id, rating FROM rating_history WHERE key = {p}"
    " ORDER BY id DESC LIMIT {p}"
)


def rating_rows(
    match_id: str, variant: str, players: int, results: list[RatingResult]
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The player_ratings and rating_history rows of a rated match's results."""
    ratings, history = [], []
    for r in results:
        key = name_key(r.name)
        won, lost = int(r.outcome == Outcome.WON), int(r.outcome == Outcome.LOST)
        drawn = int(r.outcome == Outcome.DRAWN)
        ratings.append((key, r.name, variant, players, r.mu, r.sigma, r.rating, won, lost, drawn))
        history.append((key, variant, players, match_id, r.rating))
    return ratings, history


def player_rating(row: tuple[Any, ...]) -> PlayerRating:
    name, variant, players, mu, sigma, rating, games, wins, losses, draws = row
    return PlayerRating(
        name, variant, int(players), float(mu), float(sigma), float(rating),
        int(games), int(wins), int(losses), int(draws),
    )  # fmt: skip


def rating_point(row: tuple[Any, ...]) -> RatingPoint:
    variant, players, match, rating = row
    return RatingPoint(variant, int(players), match, float(rating))
