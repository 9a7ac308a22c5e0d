"""Logging in: a name's right to it (password or guest token), registering a free
name, and the welcome; a name that logs in again closes its old connection."""

from __future__ import annotations

import functools
import secrets
import unicodedata
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import attrs
import structlog
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command, NewGames
from deberc_net.protocol.connection import Tell
from deberc_net.protocol.events import TableState
from deberc_net.protocol.login_words import Refused, SetElsewhere, read_login
from deberc_net.protocol.messages import Msg, Phrase, count_phrase, phrase

from . import accounts
from .accounts import Admitted, name_key
from .fair_turns import FairTurns
from .house import PREFIX as HOUSE_PREFIX
from .ignoring import IGNORE_MOST
from .limits import AddressBuckets, WindowCounter
from .rematch import offer_s
from .session import Ending, LastMatch, Session
from .store.base import look_alike, look_key
from .summaries import Summaries
from .table_messages import Back, Leave

if TYPE_CHECKING:
    from .lobby import Lobby

log = structlog.get_logger("deberc.lobby")
# the greeting's commands: during a drain none that starts a game, and on a server
# closed to games only what may be done there
_LOBBY_COMMANDS = {
    NewGames.OPEN: Msg.LOBBY_COMMANDS,
    NewGames.DRAINING: Msg.LOBBY_COMMANDS_DRAINING,
    NewGames.CLOSED: Msg.LOBBY_COMMANDS_NO_GAMES,
}
# The look of each name held, kept: every new name is compared with all of them, the
# same thousands at each login, and look_key is a microsecond. Not an LRU of a fixed
# size: a scan of more names than it holds (a club's workers' players) goes round it,
# emptying it as it reads, every look drawn again at every login. All are kept, and
# let go all at once when they are more than twice those held now, and this floor
HELD_LOOKS_FLOOR = 16384
held_look = functools.cache(look_key)


def held_look_alike(name: str, held: Iterable[str]) -> str | None:
    """The first of the names ``held`` now that looks like the new ``name`` (not its
    own), or None: each one's look kept (``held_look``) for the next login's."""
    key, look = name_key(name), look_key(name)
    found, count = None, 0
    for other in held:
        count += 1
        if found is None and held_look(other) == look and name_key(other) != key:
            found = other
    if held_look.cache_info().currsize > 2 * count + HELD_LOOKS_FLOOR:  # gone: let go
        held_look.cache_clear()
    return found


# logins of a name that holds a seat: 10 at once, then one every 5 s (a dropped player
# comes back at once; a loop of resumes is held to a line every few seconds)
SEAT_LOGINS_PER_S = 0.2
SEAT_LOGINS_BURST = 10.0
SEAT_LOGINS_KEPT = 1000  # names' allowances kept (the refilled, offline ones go first)
# logins' first store reads (``arrival``) at once in trio's threads; the others wait on
# the loop, an address's first FEW_LOGINS of the window ahead of the rest, which keep
# their order (fair_turns.py): a loop of logins from 199 addresses filled trio's 40
# threads' line, and an honest login waited behind it, 3 ms -> 0.7 s. Not fewest-first
# throughout: an address that logs in often (a club room behind one NAT) would then wait
# behind every new address of a flood, 16 s in a tryout (docs/security.md §1)
ARRIVAL_READS = 4
FEW_LOGINS = 4
ARRIVALS_WINDOW_S = 60.0


def _log_login_failed(**fields: Any) -> None:
    log.warning("login_failed", **fields)


def _log_password_asked(**fields: Any) -> None:
    log.info("password_asked", **fields)


@attrs.define(eq=False)
class Login:
    lobby: Lobby
    # names being registered right now: no guest takes one while its hash is computed
    registering: set[str] = attrs.Factory(set)
    # logins of a name that holds a seat, by name key: each one is 'away' and 'back' on
    # its table's screens (docs/security.md §6)
    seat_logins: AddressBuckets = attrs.Factory(
        lambda: AddressBuckets(SEAT_LOGINS_PER_S, SEAT_LOGINS_BURST, SEAT_LOGINS_KEPT)
    )
    # logins (and password changes) refused but for a wrong password checked: logged
    # summarized (refused)
    failures: Summaries = attrs.Factory(
        lambda self: Summaries(_log_login_failed, self.lobby.spawner), takes_self=True
    )
    # a registered name's logins without a password, its password asked for: no failed
    # login (nothing was tried; a person types his name first, a ladder checks that its
    # admin is registered there), but they may come in floods too
    asked: Summaries = attrs.Factory(
        lambda self: Summaries(_log_password_asked, self.lobby.spawner), takes_self=True
    )
    # the sessions logging in now, by the name key they ask for, from their ban check
    # to their welcome: a ban made meanwhile closes them too (moderation.py), as the
    # store said no ban when they asked
    arriving: dict[str, set[Session]] = attrs.Factory(dict)
    # the arrival reads' turns, by the address's recent logins (ARRIVAL_READS)
    arrival_turns: FairTurns = attrs.Factory(lambda: FairTurns(ARRIVAL_READS))
    arrivals: WindowCounter = attrs.Factory(lambda: WindowCounter(ARRIVALS_WINDOW_S))

    async def login(self, session: Session, item: Command) -> None:
        read = read_login(item.args)
        if isinstance(read, SetElsewhere):  # no password: refused, naming its command
            said = phrase(Msg.LOGIN_SET_ELSEWHERE, word=read.word, command=read.command)
            session.send(ev.error("bad-argument", said))
            return
        if read is Refused.UKRAINIAN:
            # a Ukrainian player's first try: told what there is, not the bare usage
            session.send(ev.error("bad-argument", phrase(Msg.LANG_UK)))
            return
        if read is Refused.USAGE:
            session.send(ev.error("bad-argument", phrase(Msg.LOGIN_USAGE)))
            return
        # 'login NAME lang=ru style=machine': the replies from here on so, this one's too
        if read.lang is not None:
            session.connection.lang = read.lang
        if read.style is not None:  # as 'style machine' (every line told: tell=all)
            session.style = str(read.style)
            session.connection.tell = Tell.ALL
        name = unicodedata.normalize("NFC", read.name)
        if not accounts.valid_name(name):
            session.send(ev.error("bad-argument", phrase(Msg.LOGIN_NAME)))
            return
        if session.name is not None:
            session.send(ev.error("not-allowed", phrase(Msg.LOGGED_IN_AS, name=session.name)))
            return
        wait = self._seat_logins_wait(name)
        if wait > 0:
            self.refused(session, name, ev.slow_down(Msg.SLOW_SEAT_LOGINS, wait, name=name))
            return
        if name_key(name).startswith(HOUSE_PREFIX) and self.lobby.house.get(name) is None:
            session.send(ev.error("bad-argument", phrase(Msg.HOUSE_NAMES, prefix=HOUSE_PREFIX)))
            return
        key = name_key(name)
        self.arriving.setdefault(key, set()).add(session)
        try:
            await self._login_unbanned(session, name, read.password, read.token)
        finally:
            waiting = self.arriving[key]
            waiting.discard(session)
            if not waiting:
                del self.arriving[key]

    async def _login_unbanned(
        self, session: Session, name: str, password: str | None, token: str | None
    ) -> None:
        """``login``'s part from the ban check to the welcome (``arriving`` meanwhile)."""
        # before any hash or claim: its ban, whether it has an account and, for a
        # password's login (a guest's has none), his ignore list, in one read (a second
        # read, per registered login, a ladder's per board, was another thread's turn
        # and PostgreSQL round trip). A change his other connection makes during his
        # hash is stored but missed here till his next login: one name, rarely
        ignored_most = 0 if password is None else IGNORE_MOST
        now, address = trio.current_time(), session.address
        self.arrivals.add(address, now)
        many = self.arrivals.count(address, now) > FEW_LOGINS
        async with self.arrival_turns.turn(int(many)):
            # (and, for a name with no account, a ban of the address: docs/protocol.md
            # §5.19, read at each login as a name's ban is, so it holds on every worker)
            arrival = await trio.to_thread.run_sync(
                self.lobby.store.arrival, name, ignored_most, address
            )
        banned = self.lobby.moderation.refusal_for(name, arrival.ban)
        if banned is not None:
            self.refused(session, name, banned)
            return
        fresh = False  # a guest's claim of a free name (no right to it beyond being first)
        registered_now = False  # this login's password registered the name
        if password is not None and self.lobby.accounts.trusted(name, password, session.address):
            guest = False  # this process vouches for it (a ladder's admin): nothing hashed
        # a name this process vouches for takes no other login (it has no account)
        elif (vouched := self.lobby.accounts.vouches_for(name)) or arrival.registered:
            if password is None:  # its password asked for: no failed login
                session.send(ev.error("bad-password", phrase(Msg.NEED_PASSWORD, name=name)))
                fields = {"name": name, "peer": session.peer, "conn": session.id}
                self.asked.note("no-password", session.address, **fields)
                return
            if vouched:
                self.refused(session, name, ev.error("bad-password", phrase(Msg.WRONG_PASSWORD)))
                return
            if await self._check_password(session, name, password) is None or not (
                await self._still_unbanned(session, name)
            ):
                return
            # one player, one spelling: the account's, whatever case was typed now
            name, guest = arrival.spelling or name, False
        elif arrival.address_ban is not None and name_key(name) not in self.lobby.accounts.admins:
            # a guest, or a new name, from a banned address (a member was let in above)
            refusal = self.lobby.moderation.address_refusal(arrival.address_ban)
            self.refused(session, name, refusal, "address-banned")
            return
        elif not accounts.new_name(name):  # not taken before, and no longer to be taken
            session.send(ev.error("bad-argument", phrase(accounts.new_name_refused(name))))
            return
        elif (alike := self._looks_like(name, arrival.looks_like)) is not None:
            # a new name drawn as another's (AIice beside alice): refused as a mixed one
            self.refused(session, name, ev.error("bad-argument", alike), "looks-like")
            return
        elif password is not None:
            admitted = await self._register(session, name, password)
            if admitted is None or not await self._still_unbanned(session, name):
                return
            guest, registered_now = False, admitted is Admitted.REGISTERED
        elif name_key(name) in self.lobby.accounts.admins:  # not registered yet
            # a guest under it would speak as the admin to everyone (and hold the name
            # from its owner's first login)
            self.refused(
                session,
                name,
                ev.error("not-allowed", phrase(Msg.ADMIN_NAME_GUEST, name=name)),
            )
            return
        else:
            held = self.guest_token(name)
            if name_key(name) in self.registering:  # no guest's: nobody has its token
                self.refused(session, name, self._being_registered(name))
                return
            if held is not None and (token is None or not accounts.same_secret(token, held)):
                self.refused(
                    session, name, ev.error("name-in-use", phrase(Msg.NAME_IN_USE, name=name))
                )
                return
            guest, fresh = True, held is None
        if session.closed:
            return
        # his ignore list, in place before anything is told him (docs/protocol.md §5.21)
        self._welcome(
            session,
            name,
            guest,
            fresh,
            token,
            () if guest else arrival.ignored,
            registered_now,
        )

    def _looks_like(self, name: str, registered: str | None) -> Phrase | None:
        """Why the new ``name`` is refused as drawn like another's (its ``look_key``
        is theirs: docs/security.md §1): ``registered``, a registered name the store
        found so, an admin's (registered or not) or the house bots' prefix; None if it
        looks like none. An admin's own name is left to its own refusals."""
        key = name_key(name)
        if key in self.lobby.accounts.admins:
            return None
        look = look_key(name)
        # (a key with the prefix is a running house bot's own: any other was refused)
        if look.startswith(look_key(HOUSE_PREFIX)) and not key.startswith(HOUSE_PREFIX):
            return phrase(Msg.HOUSE_NAMES, prefix=HOUSE_PREFIX)
        other = look_alike(name, self.lobby.config.admins) or registered
        if other is None and self.guest_token(name) is None:  # (held: his own, to resume)
            other = self._held_look_alike(name)
        if other is None:
            return None
        return phrase(Msg.NAME_LOOKS_LIKE, name=name, other=other)

    def _held_look_alike(self, name: str) -> str | None:
        """A name held now that looks like the new ``name`` (not its own): a guest's or a
        player's, connected here or at another worker, or a guest's away from his seat
        (guests are not stored: the store's look-up cannot find them)."""
        return held_look_alike(name, self._held_names())

    def _held_names(self) -> Iterator[str]:
        """The names held now, as spelled (some more than once): every connection's
        here, every seat's at a table not closed (an away guest's among them; another
        worker's tables are copied here), and the other workers' connections (and a
        guest's name they hold through a stall)."""
        yield from (s.name for s in self.lobby.online.values() if s.name is not None)
        for table in self.lobby.tables.values():
            if table.state != TableState.CLOSED:
                yield from (seat for seat in table.seats if seat is not None)
        node = self.lobby.node
        if node is not None:
            now = trio.current_time()
            yield from (p.name for p in node.present.values() if p.online or p.held_until > now)

    async def _still_unbanned(self, session: Session, name: str) -> bool:
        """Whether ``name`` is still not banned after its password's hash (seconds, when
        logins queue for the hash threads): a ban made meanwhile by another server on the
        database (this one's, and its workers', close ``arriving``); refused if it is."""
        banned = await self.lobby.moderation.ban_refusal(name)
        if banned is not None:
            self.refused(session, name, banned)
        return banned is None

    async def _check_password(self, session: Session, name: str, password: str) -> Admitted | None:
        """How ``name`` was let in with ``password``, or None (refused, and told so)."""
        admitted = await self.lobby.accounts.admit(name, password, session.address)
        if admitted is Admitted.REGISTERED:
            session.log.info("register", name=name)
        if not isinstance(admitted, ev.Error):
            return admitted
        if admitted.code != "bad-password":  # a limit's or a registration's refusal
            # (a look-alike registered meanwhile: as one registered before, "looks-like")
            alike = admitted.said is not None and admitted.said.key is Msg.NAME_LOOKS_LIKE
            self.refused(session, name, admitted, "looks-like" if alike else None)
            return None
        self.wrong_password(session, name, admitted)
        return None

    def wrong_password(self, session: Session, name: str, error: ev.Error, **logged: str) -> None:
        """A password hashed and wrong (a login's, or the old one of a 'password'): told,
        logged a line each (for fail2ban), as many as the limits let be hashed
        (docs/security.md §1), and counted against the connection."""
        session.send(error)
        session.log.warning("login_failed", name=name, reason=error.code, **logged)
        session.failed_logins += 1
        if session.failed_logins >= self.lobby.config.failed_logins_per_connection:
            session.send(ev.bye(phrase(Msg.TOO_MANY_PASSWORDS)))
            session.close(Ending.TOO_MANY_PASSWORDS)

    def refused(
        self,
        session: Session,
        name: str,
        error: ev.Error,
        reason: str | None = None,
        command: str = "login",
    ) -> None:
        """Tell ``session`` its ``command`` ('login', or a 'password' change) as
        ``name`` is refused (``error``), and log it as ``reason`` (its code unless
        given), never a password or token: a refusal that cost nothing to ask for can
        come in floods, so the first of each reason is logged, and the rest counted
        (server/summaries.py)."""
        session.send(error)
        fields = {"name": name, "peer": session.peer, "conn": session.id}
        if command != "login":  # (a login's line as it always was)
            fields["command"] = command
        self.failures.note(reason or error.code, session.address, **fields)

    async def _register(self, session: Session, name: str, password: str) -> Admitted | None:
        """Register a free name; refused while a guest holds it (connected or seated):
        None, told so."""
        key = name_key(name)
        if key in self.registering:
            self.refused(session, name, self._being_registered(name))
            return None
        if self.guest_token(name) is not None:
            error = ev.error("name-in-use", phrase(Msg.NAME_IN_USE_BY_GUEST, name=name))
            self.refused(session, name, error)
            return None
        if accounts.short_password(password):  # a new password: nothing hashed
            said = phrase(Msg.PASSWORD_SHORT, least=accounts.PASSWORD_LEAST)
            self.refused(session, name, ev.error("bad-argument", said), "short-password")
            return None
        self.registering.add(key)  # no guest takes it while the hash is computed
        try:
            return await self._check_password(session, name, password)
        finally:
            self.registering.discard(key)

    @staticmethod
    def _being_registered(name: str) -> ev.Error:
        """The refusal of ``name`` while another connection's registration of it waits
        for its hash: not a guest's name (no token resumes it), and free again if that
        registration fails."""
        return ev.error("name-in-use", phrase(Msg.NAME_BEING_REGISTERED, name=name))

    def _welcome(
        self,
        session: Session,
        name: str,
        guest: bool,
        fresh: bool = False,
        presented: str | None = None,
        ignored: Iterable[str] = (),
        registered_now: bool = False,
    ) -> None:
        """Log ``session`` in as ``name`` (its right to it checked; ``fresh``: a guest's
        claim of a free name; ``presented``: the token it gave): a connection that held
        the name closes, and a seat the name holds comes back. ``ignored``: the names a
        registered player ignores, as stored; ``registered_now``: this login registered
        the name, which the welcome says (a newcomer's 'login Misha Ivanov' made
        'Ivanov' his password)."""
        key = name_key(name)
        self._seat_login_spend(name)
        previous = self.lobby.online.get(key)
        name = self._spelling(name, previous)
        if previous is not None:
            self.logged_in_elsewhere(previous)
        token = None
        if guest:
            present = self.lobby.node.elsewhere(name) if self.lobby.node is not None else None
            if present is not None and present.token is not None:  # resumed from there
                self.lobby.guest_tokens.setdefault(key, present.token)
            token = self.lobby.guest_tokens.setdefault(key, secrets.token_urlsafe(12))
        else:
            self.lobby.guest_tokens.pop(key, None)
        session.name, session.guest = name, guest
        if not guest:  # his list as stored (a guest's: the connection he takes over's)
            session.ignored = {name_key(n): n for n in ignored} or None
        elif previous is not None:
            session.ignored = previous.ignored
        session.connection.logged_in()
        self.lobby.online[key] = session
        if self.lobby.node is not None:
            self.lobby.node.logged_in(session, token, fresh)
        session.log.info("login", guest=guest)  # (its conn, peer and name)
        what = phrase(
            Msg.GUEST if guest else Msg.REGISTERED_NOW if registered_now else Msg.REGISTERED
        )
        fields: tuple[tuple[str, str], ...] = (("name", name), ("guest", "1" if guest else "0"))
        resume = phrase(Msg.NOTHING)
        if token is not None:
            fields += (("token", token),)
            resume = phrase(Msg.RESUME, token=token, name=name)
        table = self.lobby.table_of(name)
        lost = None  # his table's, if its worker has died (forgotten now: no seat there)
        lost_match: str | None = None
        node = self.lobby.node
        if table is not None and node is not None and node.forget_if_dead(table):
            lost, lost_match = table.id, node.match_of(table)
            table = self.lobby.table_of(name)
        if table is not None:  # where he is (his table's view follows), not the lobby
            said = phrase(Msg.WELCOME_BACK, name=name, what=what, table=table.id, resume=resume)
        else:
            games = self.lobby.new_games()
            commands = phrase(_LOBBY_COMMANDS[games])
            said = phrase(
                Msg.WELCOME_NO_GAMES if games == NewGames.CLOSED else Msg.WELCOME,
                name=name,
                what=what,
                # what 'tables' lists him: a private table only if he sits at it or is invited
                tables=count_phrase(
                    len(self.lobby.listed_tables(session)), Msg.ONE_TABLE, Msg.TABLES_COUNT
                ),
                players=count_phrase(
                    self.lobby.players_online(),
                    Msg.ONE_PLAYER_HERE,
                    Msg.PLAYERS_HERE,
                ),
                commands=commands,
                resume=resume,
            )
        session.send(ev.ok("login", said, fields))
        self.lobby.drain.tell(session)  # a login during a drain is told it too
        self.lobby.moderation.tell_at_login(session)  # a mute made while he was away
        if lost is not None:  # as its players here were told, as it was forgotten
            said = phrase(Msg.TABLE_CLOSES, table=lost, reason=phrase(Msg.SERVER_LOST))
            session.send(ev.table_closed(lost, said))
            if lost_match is not None:  # told now: not again by the cut-off's notice below
                self.lobby.cut_off.told_live(name, guest, lost_match)
        missed = self.lobby.missed.take(name, guest, presented)
        if missed is not None:  # his seat freed, or his match over, while he was away
            session.send(ev.info(missed))
            if missed.key in (Msg.MISSED_FORFEIT, Msg.MISSED_END):
                # his 'state' says that match is over, as his opponent's does: it said
                # only "you sit at no table" after the login said he lost (a tryout, s47)
                over = dict(missed.values)["table"]
                if isinstance(over, int):
                    hold = offer_s(self.lobby)
                    session.last_match = LastMatch(over, trio.current_time() + hold)
            if self.lobby.node is not None:  # told once: the other workers forget it
                self.lobby.node.missed_told(name)
        elif not guest:  # his last match cut off by a stop (a restart forgot the above)
            self.lobby.spawner.start_soon(self.lobby.cut_off.tell, session, name)
        # a rematch on offer for him still (away as his match ended): to the name's owner,
        # as the notice above (a guest's name is anyone's once he has gone)
        if guest:  # back with the token of a guest's rematch offer: his again
            self.lobby.rematches.logged_in(session, presented)
        if table is None and (not guest or missed is not None):
            self.lobby.rematches.tell_back(session)
        if table is not None:
            session.table = table  # at once: 'new' or 'seek' right after must see the seat
            # its state answers the login, before the next line (docs/protocol.md §2.3;
            # at another worker's table it comes over the bus, waited for as well)
            table.post(Back(session), request=True)

    def _seat_logins_wait(self, name: str) -> float:
        """Seconds until ``name`` may log in again if it holds a seat and has logged in
        too often, else 0: a guest's resumes
        in a loop (a token, nothing to hash) put ~930 'away' and 'back' lines a second
        on its table's screens, till a slow reader there was cut off. Only a login let
        in spends the allowance (``_seat_login_spend``): refused ones, anyone's, would
        let a stranger's wrong tokens keep the owner from his seat till it forfeits."""
        if self.lobby.table_of(name) is None:
            return 0.0
        now = trio.current_time()
        return self.seat_logins.of(name_key(name), now, self.lobby.online).wait(now)

    def _seat_login_spend(self, name: str) -> None:
        """A login of ``name`` let in: one of its seat's allowance, if it holds one."""
        if self.lobby.table_of(name) is not None:
            now = trio.current_time()
            self.seat_logins.of(name_key(name), now, self.lobby.online).take(now)

    def _spelling(self, name: str, previous: Session | None) -> str:
        """The spelling a name logs in under: its seat's, or its connection's that it
        takes over (on this worker or another), whatever case or form was typed now
        ('Sasha' back at sasha's seat stays sasha: one player, one spelling in 'who',
        the table and its lines)."""
        table = self.lobby.table_of(name)
        if table is not None:
            key = name_key(name)
            return next(s for s in table.seats if s is not None and name_key(s) == key)
        if previous is not None and previous.name is not None:
            return previous.name
        # a connection (or a guest's held name) on another worker of serve --workers
        present = self.lobby.node.elsewhere(name) if self.lobby.node is not None else None
        return name if present is None else present.name

    def logged_in_elsewhere(self, previous: Session) -> None:
        """``previous`` held a name that has just logged in again: it closes, and no
        longer speaks for the name's seat."""
        previous.send(ev.bye(phrase(Msg.LOGGED_IN_ELSEWHERE)))
        previous.name = None
        previous.close(Ending.LOGGED_IN_ELSEWHERE)
        self.lobby.matchmaking.forget(previous)

    def lost_race(self, session: Session) -> None:
        """``session``'s claim of a free name lost the race with another worker's login
        of it, made at the same time (docs/scaling.md): the name was never his, so he
        leaves nothing of it behind: no token, and no seat (he leaves his table, which
        closes if nobody else sits there), which the winner would have come back to."""
        assert session.name is not None
        self.lobby.guest_tokens.pop(name_key(session.name), None)
        if session.table is not None:  # (he keeps the name till the table has let him go)
            session.table.post(Leave(session, confirmed=True))
        session.send(ev.bye(phrase(Msg.LOGGED_IN_ELSEWHERE)))
        session.close(Ending.LOGGED_IN_ELSEWHERE)
        self.lobby.matchmaking.forget(session)

    def guest_token(self, name: str) -> str | None:
        """The token of the guest who holds ``name`` (connected, or seated at a table
        that is not closed); None if the name is free."""
        key = name_key(name)
        token = self.lobby.guest_tokens.get(key)
        if (
            token is not None
            and key not in self.lobby.online
            and not self.lobby.may_seat(name)
            and self.lobby.house.get(name) is None  # a house bot's, held while the bot runs
        ):
            del self.lobby.guest_tokens[key]  # a claim left behind: free here (and elsewhere?)
            token = None
        if token is None and self.lobby.node is not None:  # a guest on another worker holds it
            present = self.lobby.node.elsewhere(name)
            if (
                present is not None
                and present.guest
                and (
                    present.online
                    or self.lobby.table_of(name) is not None
                    or present.held_until > trio.current_time()  # (a seat told closed)
                )
            ):
                return present.token
        return token
