"""Names and passwords: salted scrypt hashes, computed off the event loop, in bounded
worker pools (registrations apart from logins, so a registration flood never slows the
login of a registered name), with failed logins limited per name and per address. A
name's limit slows only addresses it has not logged in from (docs/security.md §1), so a
guesser cannot lock its owner out."""

from __future__ import annotations

import enum
import hashlib
import hmac
import os
import unicodedata
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg, phrase

from .config import Config
from .fair_turns import FairTurns
from .limits import Recent, WindowCounter
from .local import LOCAL_ADDRESS
from .names import NAME_RULE, valid_name
from .store import Store, name_key

SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
# The shortest new password (a registration's, a 'password' change's, 'deberc-net
# admin''s), in characters: one a club's players accept typing, past a guess of a few
# letters. The passwords of accounts made before it was asked for still log in.
PASSWORD_LEAST = 6
# The alphabets whose letters look alike (Latin a, Cyrillic а, Greek ο and о): a new
# name mixes none of them, so 'аnna' (a Cyrillic а) is not taken beside anna, nor
# 'bоss' beside an admin, nor 'hоuse-search3' as a house bot (a hostile tryout, s34).
# Nor with an Armenian օ, a Cherokee Ꭺ, a Coptic ⲟ, a Lisu ꓮ, a Canadian syllabic ᐯ or
# a Tifinagh ⵔ: 'hօuse-search3' was taken beside the house bot (a tryout, 2026-12-06).
# A name wholly in one alphabet is its own ('аня'), as before.
LOOKALIKE_SCRIPTS = frozenset(
    {"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "LISU", "CANADIAN", "TIFINAGH"}
)


# Letters of phonetic notation, no language's spelling, each drawn as another letter,
# which the look-alike comparison (store/base.py's look_key) does not make one with it:
# a hostile tryout (s45) took 'bᴏss' (a small capital O) beside the admin boss,
# 'hoᴜse-search3' among the house bots, 'ɡregory' (a script g) beside gregory and
# 'aǁen' (a lateral click, drawn as ll) beside allen. A new name has none of them:
# every small capital (by its Unicode name: ᴀ ʙ ᴄ … ʀ ꜱ ᴛ ᴜ), the script g, the Latin
# alpha and iota (ɑ as a, ɩ as an i), the dotless j, the Latin beta (ꞵ as ß), the
# tone six (Ƅ ƅ as b) and the click letters (ǀ as l, ǁ as ll, ǃ as !). Refused, not
# made one with their letters: the stored look of the accounts (``latin_look``,
# migration 21) stays as it is.
_DRAWN_AS_OTHERS_NAMED = "\u0261\u0251\u0269\u0237\ua7b5\u0184\u0185\u01c0\u01c1\u01c2\u01c3"
# every letter whose Unicode name says SMALL CAPITAL (as of Python 3.11's Unicode 14:
# tests/server/test_drawn_as_others.py checks the list against unicodedata)
SMALL_CAPITALS = (
    "\u0262\u026a\u0274\u0276\u0280\u0281\u028f\u0299\u029b\u029c\u029f\u02b6"
    "\u1d00\u1d01\u1d03\u1d04\u1d05\u1d06\u1d07\u1d0a\u1d0b\u1d0c\u1d0d\u1d0e"
    "\u1d0f\u1d10\u1d15\u1d18\u1d19\u1d1a\u1d1b\u1d1c\u1d20\u1d21\u1d22\u1d23"
    "\u1d26\u1d27\u1d28\u1d29\u1d2a\u1d2b\u1d7b\u1d7e\u1da6\u1da7\u1dab\u1db0"
    "\u1db8\u2c7b\ua730\ua731\ua776\ua7ae\ua7af\ua7fa\uab46\uab65\U00010780"
    "\U00010784\U00010792\U00010794\U00010796\U0001079c\U000107a3\U000107aa"
    "\U000107b2\U0001df02\U0001df04\U0001df10"
)
DRAWN_AS_OTHERS = frozenset(_DRAWN_AS_OTHERS_NAMED + SMALL_CAPITALS)


def new_name(name: str) -> bool:
    """A name that may be taken now (registered, or a guest's): ``valid_name`` in the
    compatibility form names are compared in (``name_key``) too, so one character that
    stands for many (U+FDFA, a whole phrase with spaces; ½) counts as what it is; not
    ``scripts_mixed``, and none of the letters ``drawn_as_others``."""
    compatible = unicodedata.normalize("NFKC", name)
    return (
        valid_name(name)
        and bool(NAME_RULE.match(compatible))
        and not scripts_mixed(name)
        and not drawn_as_others(name)
    )


def drawn_as_others(name: str) -> bool:
    """Whether ``name`` (in its compatibility form) holds a letter of DRAWN_AS_OTHERS."""
    return not DRAWN_AS_OTHERS.isdisjoint(unicodedata.normalize("NFKC", name))


def new_name_refused(name: str) -> Msg:
    """Why ``name`` is no ``new_name``, in the words a login (and ``deberc-net admin``)
    says it: mixed alphabets, a letter drawn as another, or the names' rule."""
    if scripts_mixed(name):
        return Msg.NAME_SCRIPTS
    if drawn_as_others(name):
        return Msg.NAME_DRAWN_AS_OTHERS
    return Msg.LOGIN_NAME


def scripts_mixed(name: str) -> bool:
    """Whether ``name`` (in its compatibility form: full-width ａ is a Latin a) has
    letters of more than one of LOOKALIKE_SCRIPTS. Each letter's alphabet is the first
    word of its Unicode name ('CYRILLIC SMALL LETTER A'), as the standard names them."""
    scripts = {
        unicodedata.name(char, "").partition(" ")[0]
        for char in unicodedata.normalize("NFKC", name)
        if char.isalpha()
    }
    return len(scripts & LOOKALIKE_SCRIPTS) > 1


def short_password(password: str) -> bool:
    """Whether ``password`` is too short for a new password (PASSWORD_LEAST)."""
    return len(password) < PASSWORD_LEAST


def password_hash(password: str, salt: bytes) -> bytes:
    """A password's hash as accounts are stored with it (scrypt at the cost SCRYPT)."""
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, **SCRYPT)


# the pending checks' keys (Accounts._pending): an address's, a name's, and a pair's
# (no name or address holds a NUL)
_ADDRESS, _NAME = "\0address ", "\0name "


def same_secret(given: str, held: str) -> bool:
    """Whether a secret typed (a token, a vouched password) is the one held, compared in
    constant time. As bytes: hmac refuses str with a letter outside ASCII (a token
    copied with the Russian welcome's closing «»» raised TypeError: an internal error)."""
    return hmac.compare_digest(given.encode(), held.encode())


def _pair(name: str, address: str) -> str:
    """One key for a name and an address (no name holds a space)."""
    return f"{name_key(name)} {address}"


def set_password(store: Store, name: str, password: str) -> str | None:
    """Register ``name`` (or change its password) outside the server: how an admin's name
    is made (``deberc-net admin NAME``, or a ladder on its own server). None, or the
    registered name a new one looks like (it is not registered then)."""
    salt = os.urandom(16)
    digest = password_hash(password, salt)
    if store.set_account_secret(name, salt, digest):
        return None
    holder = store.register(name, salt, digest)
    if holder is not None and name_key(holder) == name_key(name):  # registered meanwhile
        store.set_account_secret(name, salt, digest)
        return None
    return holder


__all__ = [
    "NAME_RULE",
    "Accounts",
    "Admitted",
    "name_key",
    "new_name",
    "set_password",
    "valid_name",
]


class Admitted(enum.Enum):
    """How a login with a password was let in."""

    PASSWORD = "password"  # the name's password was right
    REGISTERED = "registered"  # the name was free: it is registered with it now


class Accounts:
    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config
        self.admins = {name_key(n) for n in config.admins}
        # the hash threads' turns, fewest-first by the address's recent checks, so a
        # loop of logins (to its own accounts, from many addresses) goes behind the
        # logins of those who check little; the threads' own limiter is never waited on
        self._hash_turns = FairTurns(config.hash_workers)
        self._logins = trio.CapacityLimiter(config.hash_workers)
        self._registrations = trio.CapacityLimiter(config.registration_workers)
        self._registering = 0
        self._registering_from: Counter[str] = Counter()  # by address
        self._registered_from = WindowCounter(config.registration_window_ms / 1000)
        window = config.failure_window_ms / 1000
        self._failed_names = WindowCounter(window)
        self._failed_addresses = WindowCounter(window)
        self._failed_pairs = WindowCounter(window)  # (name, address): see _limited
        self._known = Recent(config.known_address_ms / 1000)  # (name, address) logged in
        self._checks = WindowCounter(config.password_check_window_ms / 1000)  # by address
        self._checking: dict[str, trio.CapacityLimiter] = {}  # by address: see _turn
        # checks asked and not answered yet, counted as wrong passwords by the limits
        # until they are (else a burst sent at once would all pass before one counted)
        self._pending: Counter[str] = Counter()
        # under --workers: a wrong password (and a right one) is told to the other
        # workers, which count it too (cluster/node.py), so the limits hold across them
        self.tell_failure: Callable[[str, str], None] | None = None
        self.tell_success: Callable[[str, str], None] | None = None
        # names this process vouches for over its own in-memory link (``trust``)
        self._trusted: dict[str, str] = {}

    @property
    def checks_waiting(self) -> int:
        """Password checks waiting for a hash thread (how far logins are behind)."""
        return len(self._hash_turns)

    def trust(self, name: str, secret: str) -> None:
        """Let ``name`` log in with ``secret``, registered, over this process's own link
        only (``app.LocalLink``): a ladder's admin on its own server, with no account and
        no hash to compute (the secret never leaves the process)."""
        self._trusted[name_key(name)] = secret

    def vouches_for(self, name: str) -> bool:
        """Whether ``name`` is one this process vouches for: only ``trusted`` logs it in
        (it has no account, so no guest or registration may take it meanwhile)."""
        return name_key(name) in self._trusted

    def trusted(self, name: str, secret: str, address: str) -> bool:
        """A login this process vouches for: from its own link, with the secret given
        to ``trust``. A socket's peer is never ``LOCAL_ADDRESS``."""
        held = self._trusted.get(name_key(name))
        return held is not None and address == LOCAL_ADDRESS and same_secret(secret, held)

    def _limited(self, name: str, address: str, now: float) -> ev.Error | None:
        """The refusal of a login over a limit, before anything is hashed. A name over
        its limit (a guesser, maybe from many addresses) is refused only to addresses
        it has not logged in from lately: its owner, back from where he plays, is let
        in, unless that address has itself guessed wrong for it as often."""
        c = self.config
        pair, key, pending = _pair(name, address), name_key(name), self._pending
        waits = [
            self._failed_addresses.wait_pending(
                address, now, c.failed_logins_per_address, pending[_ADDRESS + address]
            ),
            self._failed_pairs.wait_pending(pair, now, c.failed_logins_per_name, pending[pair]),
        ]
        if not self._known.seen(pair, now):
            limit = c.failed_logins_per_name
            waits.append(self._failed_names.wait_pending(key, now, limit, pending[_NAME + key]))
        # let in only once every limit that holds it has: the longest of their waits
        known = max((w for w in waits if w is not None), default=0.0)
        if known > 0:
            return ev.slow_down(Msg.SLOW_WRONG_PASSWORDS, known)
        if None in waits:
            # past a limit only with checks still being hashed: they may be right, so
            # no wait is told (docs/protocol.md §10)
            return ev.error("slow-down", phrase(Msg.LOGINS_BEING_CHECKED))
        return None

    async def check_or_register(self, name: str, password: str, address: str) -> ev.Error | None:
        """None if the password is right (or the name was just registered), else the
        error to send. Nothing is hashed for a request over a limit."""
        admitted = await self.admit(name, password, address)
        return admitted if isinstance(admitted, ev.Error) else None

    async def admit(self, name: str, password: str, address: str) -> ev.Error | Admitted:
        """``check_or_register``, saying which it did (the log tells a registration
        from a login: docs/settings.md, "Logs")."""
        now = trio.current_time()
        limited = self._limited(name, address, now)
        if limited is not None:
            return limited
        known = await trio.to_thread.run_sync(self.store.account, name)
        if known is None:
            refused = self._registration_refused(name, address, now)
            if refused is not None:
                return refused
            holder = await self._register(name, password, address)
            if holder is None:
                self._logged_in(name, address)
                return Admitted.REGISTERED
            if name_key(holder) != name_key(name):  # a look-alike registered meanwhile
                said = phrase(Msg.NAME_LOOKS_LIKE, name=name, other=holder)
                return ev.error("bad-argument", said)
            known = await trio.to_thread.run_sync(self.store.account, name)  # taken meanwhile
            if known is None:  # (and dropped again: 'deberc-net admin' re-makes it)
                return ev.error("not-allowed", phrase(Msg.NO_PASSWORD_HERE, name=name))
        return await self._verify(name, known, password, address)

    async def check(self, name: str, password: str, address: str) -> ev.Error | None:
        """None if ``password`` is a registered name's own (never registers one: a
        change of password checks the old so), else the error to send; counted by the
        limits as a login's check is."""
        limited = self._limited(name, address, trio.current_time())
        if limited is not None:
            return limited
        known = await trio.to_thread.run_sync(self.store.account, name)
        if known is None:  # (dropped meanwhile by the owner: 'deberc-net admin' re-makes it)
            return ev.error("not-allowed", phrase(Msg.NO_PASSWORD_HERE, name=name))
        checked = await self._verify(name, known, password, address)
        return checked if isinstance(checked, ev.Error) else None

    def change_refused(self, address: str) -> ev.Error | None:
        """The refusal of a new password from ``address`` over the registrations' limits
        (it is hashed in their pool and counts as one: a loop of changes fills the pool
        no more than a loop of registrations may), else None."""
        limit = self.config.registrations_per_address
        wait = self._registered_from.wait(address, trio.current_time(), limit)
        if wait > 0:
            return ev.slow_down(Msg.SLOW_PASSWORD_CHANGES, wait)
        return self._pool_refused(address)

    async def change_password(self, name: str, password: str, address: str) -> ev.Error | None:
        """Hash ``password`` (in the registration pool: a login's check never waits for
        it) and make it ``name``'s, counted as a registration from ``address``; None, or
        the refusal (the limits', or the name has no account)."""
        refused = self.change_refused(address)
        if refused is not None:
            return refused
        async with self._in_the_pool(address):
            salt = os.urandom(16)
            digest = await trio.to_thread.run_sync(
                password_hash, password, salt, limiter=self._registrations
            )
        if not await trio.to_thread.run_sync(self.store.set_account_secret, name, salt, digest):
            return ev.error("not-allowed", phrase(Msg.NO_PASSWORD_HERE, name=name))
        return None

    async def _verify(
        self, name: str, known: tuple[bytes, bytes], password: str, address: str
    ) -> ev.Error | Admitted:
        """``password`` hashed with the account's salt (``known``) and compared, under
        the checks' limits."""
        salt, digest = known
        now = trio.current_time()
        wait = self._checks.wait(address, now, self.config.password_checks_per_address)
        if wait > 0:
            # a right password costs a hash as a wrong one does: a loop of logins to
            # one's own account must not fill the pool either
            return ev.slow_down(Msg.SLOW_PASSWORD_CHECKS, wait)
        # again, with nothing awaited between this look and the count of it as pending
        limited = self._limited(name, address, now)
        if limited is not None:
            return limited
        self._checks.add(address, now)
        pending = (_ADDRESS + address, _pair(name, address), _NAME + name_key(name))
        self._pending.update(pending)
        try:
            async with (
                self._turn(address),
                self._hash_turns.turn(self._checks.count(address, trio.current_time())),
            ):
                given = await trio.to_thread.run_sync(
                    password_hash, password, salt, limiter=self._logins
                )
        finally:
            self._pending.subtract(pending)
            for key in pending:
                if self._pending[key] <= 0:
                    del self._pending[key]  # (memory follows use)
        # the password read before the hash (and a queue's wait) may have been changed
        # meanwhile ('password', §5.20): the old one no longer logs in
        if (
            hmac.compare_digest(given, digest)
            and await trio.to_thread.run_sync(self.store.account, name) == known
        ):
            self._logged_in(name, address)
            return Admitted.PASSWORD
        self.failed(name, address)
        if self.tell_failure is not None:
            self.tell_failure(name, address)
        return ev.error("bad-password", phrase(Msg.WRONG_PASSWORD))

    @asynccontextmanager
    async def _turn(self, address: str) -> AsyncIterator[None]:
        """An address's hashes wait their turn here before the pool's queue (first come,
        first served): at most ``password_checks_at_once_per_address`` of one address
        are in that queue, so a burst from it delays its own logins, not everyone's."""
        gate = self._checking.get(address)
        if gate is None:
            limit = self.config.password_checks_at_once_per_address
            gate = self._checking[address] = trio.CapacityLimiter(limit)
        try:
            async with gate:
                yield
        finally:
            held = gate.statistics()
            if not held.borrowed_tokens and not held.tasks_waiting:
                self._checking.pop(address, None)  # nothing of it left: memory follows use

    def _logged_in(self, name: str, address: str) -> None:
        self.succeeded(name, address)
        if self.tell_success is not None:
            self.tell_success(name, address)

    def failed(self, name: str, address: str) -> None:
        """Count a wrong password for ``name`` from ``address`` (here, or on another
        worker: docs/security.md §1)."""
        now = trio.current_time()
        self._failed_names.add(name_key(name), now)
        self._failed_addresses.add(address, now)
        self._failed_pairs.add(_pair(name, address), now)

    def succeeded(self, name: str, address: str) -> None:
        """Remember that ``name`` logged in from ``address`` with its password (here, or
        on another worker): the name's limit does not slow that address."""
        self._known.add(_pair(name, address), trio.current_time())

    def _registration_refused(self, name: str, address: str, now: float) -> ev.Error | None:
        c = self.config
        if name_key(name) in self.admins:
            return ev.error("not-allowed", phrase(Msg.ADMIN_NAME_LOGIN, name=name))
        wait = self._registered_from.wait(address, now, c.registrations_per_address)
        if wait > 0:
            return ev.slow_down(Msg.SLOW_REGISTRATIONS, wait)
        return self._pool_refused(address)

    def _pool_refused(self, address: str) -> ev.Error | None:
        """The refusal of a hash for the registration pool (a registration's, a new
        password's) over its queue's limits, else None."""
        c = self.config
        # an address's share of the queue first: one address's burst filled it, and a
        # newcomer from elsewhere was told 'busy' (a hostile tryout's 20 at once)
        if self._registering_from[address] >= c.registrations_waiting_per_address:
            return ev.error("slow-down", phrase(Msg.REGISTRATIONS_WAITING))
        if self._registering >= c.registrations_waiting:
            return ev.error("busy", phrase(Msg.BUSY_REGISTRATIONS))
        return None

    @asynccontextmanager
    async def _in_the_pool(self, address: str) -> AsyncIterator[None]:
        """A hash of the registration pool's, counted in its queue while it waits and
        runs, then as a registration from ``address``."""
        self._registering += 1
        self._registering_from[address] += 1
        try:
            yield
        finally:
            self._registering -= 1
            self._registering_from[address] -= 1
            if not self._registering_from[address]:
                del self._registering_from[address]  # memory follows use
        self._registered_from.add(address, trio.current_time())

    async def _register(self, name: str, password: str, address: str) -> str | None:
        """Hash in the registration pool and store; None, or the name registered
        meanwhile that is this one or looks like it (``Store.register``)."""
        async with self._in_the_pool(address):
            salt = os.urandom(16)
            digest = await trio.to_thread.run_sync(
                password_hash, password, salt, limiter=self._registrations
            )
        return await trio.to_thread.run_sync(self.store.register, name, salt, digest)
