"""The admins keep the club civil (docs/protocol.md §5.19): 'announce', 'kick', 'ban',
'unban', 'bans', 'mute', 'unmute' and 'mutes', for the server's admins only, each logged (who,
what, whom, why) and answered 'ok'; and 'drain' restarts the server once its running
matches are over, as SIGUSR1 does (§11.4a: server/drain.py).

A ban is the store's: it outlasts a restart, and every worker of serve --workers (and
every server on one database) reads it at each login; a ban of an address or a network
('ban 203.0.113.0/24', told from a name's by its shape: banned_addresses.py) too, read by
each login of a name with no account (its guests and new names are refused, its members
let in: login.py). A mute is checked at each 'say', so
it is held in memory, told to the other workers over their bus (cluster/node.py), and
written to the store, whence a server started anew takes those still running, and
'mutes' lists them (the store's: every worker's, with their reasons). Every server looks
at the store's mutes at each heartbeat (``look``): a mute made or lifted on another
server on the database holds, or ends, here within one heartbeat_ms.
Under serve --workers each command reaches a player on any worker: an announcement
goes to every worker's players, a kick to the worker that holds him.
"""

from __future__ import annotations

import enum
import functools
import math
import time
import unicodedata
from typing import TYPE_CHECKING, Any

import attrs
import structlog
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import COMMANDS, Command
from deberc_net.protocol.messages import Msg, Phrase, Usage, phrase, why
from deberc_net.protocol.said_back import said_back

from . import accounts
from .accounts import name_key
from .banned_addresses import (
    ADDRESS_BAN_MINUTES,
    ADDRESS_BAN_MOST_MINUTES,
    about_an_address,
    banned_network,
    holders,
    inside,
    listing_order,
    meant_name,
)
from .banned_addresses import listed as listed_network
from .chat import refused_text
from .drain import Asked
from .house import PREFIX as HOUSE_PREFIX
from .lengths import length_told, looks_like_a_length
from .session import Ending, Session, apart

if TYPE_CHECKING:
    from .lobby import Lobby
    from .store.base import AddressBan, Ban, StoredMute

log = structlog.get_logger("deberc.admin")
MUTE_MINUTES = 60  # a mute's length when the admin gives none
MUTE_MOST_MINUTES = 7 * 24 * 60  # a week: a longer silence is a ban's business
ADDRESS_BAN_USAGE = "ban ADDRESS|NETWORK [MINUTES] [REASON]"
ADDRESS_UNBAN_USAGE = "unban ADDRESS|NETWORK"
# a bare 'ban' or 'unban' is told both forms, as 'help' gives them: the name's alone hid
# the address's
BAN_USAGE = COMMANDS["ban"].usage
UNBAN_USAGE = COMMANDS["unban"].usage


class Action(enum.StrEnum):
    """What an admin did (the ``action`` of its log line)."""

    ANNOUNCE = "announce"
    KICK = "kick"
    BAN = "ban"
    UNBAN = "unban"
    MUTE = "mute"
    UNMUTE = "unmute"
    DRAIN = "drain"


@attrs.frozen
class Mute:
    name: str
    until: float  # trio time, this process's (another worker is told what is left)
    admin: str
    # its end as stored (seconds since the epoch, the muting host's): which mute this is,
    # whether it reaches this server over the bus, from the store or from its own admin
    until_s: float


ENDED = -math.inf  # the ``until`` of a mute lifted here, kept till the store forgets it


@attrs.define(eq=False)
class Moderation:
    lobby: Lobby
    # by name key; a mute that ran out or was lifted here stays till the store's look
    # finds it gone (a look read before its end would take it up again)
    mutes: dict[str, Mute] = attrs.Factory(dict)
    changes: int = 0  # mutes taken or lifted here: a look read meanwhile is stale

    # ------------------------------------------------------------ commands
    async def announce(self, session: Session, item: Command) -> None:
        admin = self._admin(session, item)
        if admin is None:
            return
        refused = refused_text(item.rest, "announce TEXT")
        if refused is not None:
            session.send(refused)
            return
        _logged(Action.ANNOUNCE, session, text=item.rest)
        self.announced(admin, item.rest)
        if self.lobby.node is not None:
            self.lobby.node.announce(admin, item.rest)
        session.send(ev.ok("announce", phrase(Msg.ANNOUNCE_SENT)))

    async def kick(self, session: Session, item: Command) -> None:
        admin = self._admin(session, item)
        target = None if admin is None else self._target(session, item, "kick NAME [REASON]")
        if admin is None or target is None:
            return
        name, reason = target
        shown = self._online_name(name)
        if shown is None:
            session.send(ev.error("unknown-player", phrase(Msg.NOBODY_HERE, name=name)))
            return
        _logged(Action.KICK, session, shown, reason=reason)
        self._disconnect_anywhere(shown, Action.KICK, admin, reason)
        said = phrase(Msg.KICK_DONE, name=shown)
        session.send(ev.ok("kick", said, (("name", shown),)))

    async def ban(self, session: Session, item: Command) -> None:
        admin = self._admin(session, item)
        if admin is not None and not item.rest.split():
            session.send(ev.usage_error(BAN_USAGE))
            return
        if admin is not None and about_an_address(item.rest):
            await self._ban_address(session, admin, item)
            return
        target = None if admin is None else self._target(session, item, "ban NAME [REASON]")
        if admin is None or target is None:
            return
        name, reason = target
        length = looks_like_a_length(reason)
        if length is not None:  # ('ban ann 5m': a ban for good, its reason '5m')
            usage = Usage("ban NAME [REASON]")
            told = phrase(Msg.NAME_BAN_NO_MINUTES, usage=usage, word=length, name=name)
            session.send(ev.error("bad-argument", told))
            return
        name, known = await self._called(name)
        store = self.lobby.store
        # in the store before he is cut off: a login from then on, on any worker, is refused
        await self.lobby.writes.run(functools.partial(store.ban, name, admin, reason))
        _logged(Action.BAN, session, name, reason=reason)
        closed = self._disconnect_anywhere(name, Action.BAN, admin, reason)
        said = phrase(
            Msg.BAN_DONE,
            name=name,
            disconnected=phrase(Msg.BAN_DISCONNECTED if closed else Msg.NOTHING),
            nobodys=_nobodys(name, known or closed, "unban"),
        )
        fields = (("name", name), ("disconnected", "1" if closed else "0"))
        session.send(ev.ok("ban", said, fields))

    async def unban(self, session: Session, item: Command) -> None:
        admin = self._admin(session, item)
        if admin is not None and not item.rest.split():
            session.send(ev.usage_error(UNBAN_USAGE))
            return
        if admin is not None and about_an_address(item.rest):
            await self._unban_address(session, item)
            return
        target = (
            None if admin is None else self._target(session, item, "unban NAME", admins_too=True)
        )
        if admin is None or target is None:
            return
        name, _ = target
        store = self.lobby.store
        if not await self.lobby.writes.run(functools.partial(store.unban, name)):
            session.send(ev.error("not-allowed", phrase(Msg.NOT_BANNED, name=name)))
            return
        _logged(Action.UNBAN, session, name)
        session.send(ev.ok("unban", phrase(Msg.UNBAN_DONE, name=name), (("name", name),)))

    async def bans(self, session: Session, item: Command) -> None:
        if self._admin(session, item) is None:
            return
        store, now_s = self.lobby.store, time.time()

        def read() -> tuple[list[Ban], list[AddressBan]]:
            return store.bans(), store.address_bans(now_s)

        names, addresses = await trio.to_thread.run_sync(read)
        # the oldest first (as shown, to the second: one order on both stores), those of
        # one second by address
        addresses.sort(key=lambda a: (a.since, listing_order(a.network)))
        listed = tuple(banned_address(a, now_s) for a in addresses)
        session.send(ev.Bans(tuple(banned(b) for b in names), listed))

    async def _ban_address(self, session: Session, admin: str, item: Command) -> None:
        """'ban ADDRESS|NETWORK [MINUTES] [REASON]': its guests and new names refused
        (a registered player still logs in from it: a club behind one NAT), stored, so
        that every worker and every server on the database refuses them at once (each
        login reads it, as a name's ban: server/login.py)."""
        word, *rest = item.rest.split(maxsplit=1)  # (about_an_address: a word there)
        network = banned_network(word, ADDRESS_BAN_USAGE)
        if isinstance(network, Phrase):
            session.send(ev.error("bad-argument", network))
            return
        reason = " ".join(rest[0].split()) if rest else ""
        out_of_range = phrase(
            Msg.ADDRESS_BAN_MINUTES, usage=Usage(ADDRESS_BAN_USAGE), most=ADDRESS_BAN_MOST_MINUTES
        )
        length = _length(
            reason, ADDRESS_BAN_USAGE, ADDRESS_BAN_MINUTES, ADDRESS_BAN_MOST_MINUTES, out_of_range
        )
        if isinstance(length, ev.Error):
            session.send(length)
            return
        minutes, reason = length
        refused = refused_text(reason, ADDRESS_BAN_USAGE) if reason else None
        if refused is not None:
            session.send(refused)
            return
        shown = listed_network(network)
        until_s = time.time() + minutes * 60
        ban = functools.partial(self.lobby.store.ban_address, shown, admin, reason, until_s)
        await self.lobby.writes.run(ban)
        _logged(Action.BAN, session, shown, reason=reason, minutes=minutes)
        # other bans running over it, as 'unban' names them: one wider holds it already
        # (this one is made all the same: its own reason and end, which may be longer),
        # and narrower ones inside it stay when this one is lifted
        running = await trio.to_thread.run_sync(self.lobby.store.address_bans, time.time())
        banned = [b.network for b in running]
        said = phrase(
            Msg.ADDRESS_BAN_DONE,
            address=shown,
            minutes=minutes,
            held=_named(
                holders(network, banned),
                Msg.ADDRESS_BAN_HELD_TOO,
                Msg.ADDRESS_BAN_HELD_TOO_MANY,
                shown,
            ),
            inside=_named(
                inside(network, banned),
                Msg.ADDRESS_BAN_INSIDE_TOO,
                Msg.ADDRESS_BAN_INSIDE_TOO_MANY,
                shown,
            ),
        )
        session.send(ev.ok("ban", said, (("address", shown), ("minutes", str(minutes)))))

    async def _unban_address(self, session: Session, item: Command) -> None:
        """'unban ADDRESS|NETWORK': the ban of that network (as 'bans' lists it, or an
        address 'ban' took as it) lifted."""
        words = item.rest.split()
        if len(words) > 1:
            session.send(ev.usage_error(ADDRESS_UNBAN_USAGE))
            return
        network = banned_network(words[0], ADDRESS_UNBAN_USAGE)
        if isinstance(network, Phrase):
            session.send(ev.error("bad-argument", network))
            return
        shown = listed_network(network)
        lift = functools.partial(self.lobby.store.unban_address, shown, time.time())
        lifted = await self.lobby.writes.run(lift)
        # a wider ban may hold it: 'not banned' (or, its own lifted, 'may log in again')
        # sent the admin away with his guests still shut out
        running = await trio.to_thread.run_sync(self.lobby.store.address_bans, time.time())
        banned = [b.network for b in running]
        wider = holders(network, banned)
        if not lifted:
            # or narrower ones inside it: 'not banned' hid them, and an unban of a
            # network lifts no other ban (each has its own reason and end)
            narrower = [] if wider else inside(network, banned)
            if narrower:
                said = _named(narrower, Msg.ADDRESS_HOLDS, Msg.ADDRESS_HOLDS_MANY, shown)
            elif wider:
                said = _named(wider, Msg.ADDRESS_HELD_BY, Msg.ADDRESS_HELD_BY_MANY, shown)
            else:
                said = phrase(Msg.ADDRESS_NOT_BANNED, address=shown)
            session.send(ev.error("not-allowed", said))
            return
        _logged(Action.UNBAN, session, shown)
        # narrower bans inside it stay (each its own): 'may log in again' was untrue
        # of them (a wider one holding it is named instead: it holds them too)
        narrower = [] if wider else inside(network, banned)
        if narrower:
            inside_msgs = (Msg.ADDRESS_UNBAN_INSIDE, Msg.ADDRESS_UNBAN_INSIDE_MANY)
            said = _named(narrower, *inside_msgs, shown)
        elif wider:
            held_msgs = (Msg.ADDRESS_UNBAN_STILL_HELD, Msg.ADDRESS_UNBAN_STILL_HELD_MANY)
            said = _named(wider, *held_msgs, shown)
        else:
            said = phrase(Msg.ADDRESS_UNBAN_DONE, address=shown)
        session.send(ev.ok("unban", said, (("address", shown),)))

    async def mutes_listed(self, session: Session, item: Command) -> None:
        """The mutes still running, read from the store as 'bans' reads the bans: a mute
        made on any worker (or server) on the database is there, its reason too."""
        if self._admin(session, item) is None:
            return
        now_s = time.time()
        rows = await trio.to_thread.run_sync(self.lobby.store.mutes, now_s)
        session.send(ev.Mutes(tuple(muted_name(m, now_s) for m in rows)))

    async def mute(self, session: Session, item: Command) -> None:
        admin = self._admin(session, item)
        usage = "mute NAME [MINUTES] [REASON]"
        target = None if admin is None else self._target(session, item, usage)
        if admin is None or target is None:
            return
        name, reason = target
        out_of_range = phrase(Msg.MUTE_MINUTES, most=MUTE_MOST_MINUTES)
        length = _length(reason, usage, MUTE_MINUTES, MUTE_MOST_MINUTES, out_of_range)
        if isinstance(length, ev.Error):
            session.send(length)
            return
        minutes, reason = length
        name, known = await self._called(name)
        until_s = time.time() + minutes * 60
        store = self.lobby.store
        await self.lobby.writes.run(functools.partial(store.mute, name, admin, reason, until_s))
        _logged(Action.MUTE, session, name, reason=reason, minutes=minutes)
        self.muted(name, minutes * 60, admin, reason, until_s)
        if self.lobby.node is not None:
            self.lobby.node.mute(name, minutes * 60, admin, reason, until_s)
        said = phrase(
            Msg.MUTE_DONE, name=name, minutes=minutes, nobodys=_nobodys(name, known, "unmute")
        )
        session.send(ev.ok("mute", said, (("name", name), ("minutes", str(minutes)))))

    async def unmute(self, session: Session, item: Command) -> None:
        admin = self._admin(session, item)
        target = (
            None if admin is None else self._target(session, item, "unmute NAME", admins_too=True)
        )
        if admin is None or target is None:
            return
        name, _ = target
        held = self._mute_of(name)
        node = self.lobby.node
        end = functools.partial(self.lobby.store.unmute, name, admin)
        if held is not None:
            # here and on the bus first, then in the store: a worker's look that reads
            # the store after the bus's word finds the mute it lifted (the same until_s).
            # The bus sends from a queue: a look may still read the lift first, and the
            # player is told once, by the look (the store names the admin too)
            name = held.name
            self.unmuted(name, admin)
            if node is not None:
                node.unmute(name, admin)
            await self.lobby.writes.run(end)
        elif await self.lobby.writes.run(end):  # made on another server, not looked at yet
            name = await self._spelling(name)
            if node is not None:  # (a worker that holds it tells him)
                node.unmute(name, admin)
        else:
            session.send(ev.error("not-allowed", phrase(Msg.NOT_MUTED, name=name)))
            return
        # a look that read the store before the delete may have taken the mute up (one
        # made, or made anew, on another server) while it was written: it ends here too,
        # and a look still reading is stale
        self.changes += 1
        self.unmuted(name, admin)
        _logged(Action.UNMUTE, session, name)
        said = phrase(Msg.UNMUTE_DONE, name=name)
        session.send(ev.ok("unmute", said, (("name", name),)))

    async def drain(self, session: Session, item: Command) -> None:
        admin = self._admin(session, item)
        if admin is None:
            return
        if item.rest.strip():  # ('drain 10' is no drain in ten minutes: it would be now)
            session.send(ev.error("bad-argument", phrase(Msg.DRAIN_NO_ARGUMENT)))
            return
        drain = self.lobby.drain
        await drain.heard_the_parent()
        asked = drain.ask(admin)
        if asked is Asked.STOPPING:
            session.log.warning("drain_ignored", admin=admin)
            session.send(ev.error("shutting-down", phrase(Msg.DRAIN_STOPPING)))
            return
        already = asked is Asked.ALREADY
        if already:
            session.log.warning("drain_ignored", admin=admin)
        else:
            _logged(Action.DRAIN, session)
        matches = drain.running()
        said = phrase(Msg.DRAIN_ALREADY if already else Msg.DRAIN_BEGUN, matches=matches)
        fields = (("matches", str(matches)), ("already", "1" if already else "0"))
        session.send(ev.ok("drain", said, fields))

    async def recall(self) -> None:
        """The mutes still running in the store, taken up by a server that starts (they
        are not told again to the names muted)."""
        stored = await trio.to_thread.run_sync(self.lobby.store.mutes, time.time())
        now_s = time.time()
        for mute in stored:
            left = mute.until_s - now_s
            self.muted(mute.name, left, mute.admin, mute.reason, mute.until_s, tell=False)

    async def look(self) -> None:
        """The store's mutes taken up, at each heartbeat (server/running.py): one made
        on another server on the database (or made anew there) holds here from now, its
        player told if he is here; one lifted there ends here, he told so and by whom (the
        store keeps who lifted it till it would have run out). A look whose
        read a change here overlapped is dropped (it may not have seen that change): the
        next heartbeat looks again. Under serve --workers each worker looks for itself
        (each tells only its own players) and the bus tells them first what one of them
        did: a mute heard twice is the same mute (its until_s), told once."""
        seen = self.changes
        read = await trio.to_thread.run_sync(self.lobby.store.mutes_with_lifts, time.time())
        if self.changes != seen:
            return
        # the time left counted from after the read: from before it, a mute made while
        # it read had more than its length left ('mutes you for 6 min' of a 5 min mute)
        now_s = time.time()
        stored = [m for m in read if m.lifted_by is None]
        rows = {name_key(m.name): m for m in stored}
        lifts = {name_key(m.name): m.lifted_by for m in read if m.lifted_by is not None}
        now = trio.current_time()
        for key, held in list(self.mutes.items()):
            if key in rows:
                continue
            del self.mutes[key]  # ran out, or lifted (here: told already; elsewhere: now)
            session = self.lobby.online.get(key)
            if held.until > now and held.until_s > now_s and session is not None:
                # who lifted it, as stored; its row gone before its end (another
                # host's clock ahead of this one's cleared it): 'An admin …'
                admin = lifts.get(key)
                if admin is None:
                    session.send(ev.info(phrase(Msg.UNMUTED_ELSEWHERE)))
                else:
                    session.send(ev.info(phrase(Msg.UNMUTED, admin=admin)))
        for mute in stored:  # (each ended after the read began: the store's choice)
            left = mute.until_s - now_s
            if left > 0:  # (one that ran out while it read is not told)
                self.muted(mute.name, left, mute.admin, mute.reason, mute.until_s)

    # ------------------------------------------------------------ what others ask
    async def ban_refusal(self, name: str) -> ev.Error | None:
        """The refusal of a login of ``name`` if it is banned (read from the store: a
        ban made on any worker, or server, holds); None if it may log in. An admin's
        name is never banned (the settings' admins, not a ban, say who he is)."""
        if name_key(name) in self.lobby.accounts.admins:
            return None
        return self.refusal_for(name, await trio.to_thread.run_sync(self.lobby.store.ban_of, name))

    def refusal_for(self, name: str, ban: Ban | None) -> ev.Error | None:
        """``ban_refusal`` once ``name``'s ban is read (``ban``: None if none)."""
        if ban is None or name_key(name) in self.lobby.accounts.admins:
            return None
        return ev.error("banned", phrase(Msg.BAN_REFUSED, name=name, why=why(ban.reason)))

    @staticmethod
    def address_refusal(ban: AddressBan) -> ev.Error:
        """The refusal of a guest's login, or a new name's, from an address ``ban``
        holds (a registered name's is let in: server/login.py)."""
        return ev.error("banned", phrase(Msg.ADDRESS_BAN_REFUSED, why=why(ban.reason)))

    def mute_refusal(self, session: Session) -> ev.Error | None:
        """The refusal of a 'say' or an 'invite' of ``session`` while its name is muted;
        None if it may talk."""
        held = self._mute_of(session.name or "")
        if held is None:
            return None
        left = math.ceil((held.until - trio.current_time()) / 60)
        return ev.error("muted", phrase(Msg.MUTE_REFUSED, minutes=left))

    # ------------------------------------------------------------ this worker's part
    def announced(self, admin: str, text: str) -> None:
        """``admin``'s announcement, to everyone logged in here (the other workers
        tell theirs: cluster/node.py)."""
        told = ev.Announced(admin, text)
        for session in list(self.lobby.online.values()):
            with apart(session, "announce"):  # (one's failure never keeps the others untold)
                session.send(told)

    def disconnect(self, name: str, action: Action, admin: str, reason: str) -> bool:
        """Close ``name``'s connection here with a 'bye' that says why (his seat goes
        away as after any drop: Lobby.disconnected); False if he is not here. A ban
        closes the connections logging in under the name too: their ban check read the
        store before the ban was in it, and they would be welcomed after it."""
        key = name_key(name)
        session = self.lobby.online.get(key)
        sessions = [] if session is None else [session]
        if action is Action.BAN:
            sessions += self.lobby.login.arriving.get(key, ())
        closing = [s for s in sessions if not s.closed]
        said = phrase(
            Msg.KICKED if action is Action.KICK else Msg.BANNED, admin=admin, why=why(reason)
        )
        ending = Ending.KICKED if action is Action.KICK else Ending.BANNED
        for session in closing:
            session.ending(ending)  # (its disconnect says so, even if its 'bye' failed)
            with apart(session, "bye"):  # (and the next is closed all the same)
                session.send(ev.Bye(said.text(), said, by=admin))
            session.close()
        return bool(closing)

    def muted(
        self,
        name: str,
        seconds: float,
        admin: str,
        reason: str,
        until_s: float,
        *,
        tell: bool = True,
    ) -> None:
        """``name`` may not talk for ``seconds`` from now (till ``until_s``, as stored);
        he is told if he is here and ``tell`` (not when a mute is told again to a worker
        that starts). A mute known here already (its ``until_s``: told by the bus and
        found in the store, or lifted here and still in it) changes nothing."""
        key = name_key(name)
        held = self.mutes.get(key)
        if held is not None and held.until_s == until_s:
            return
        self.changes += 1
        self.mutes[key] = Mute(name, trio.current_time() + seconds, admin, until_s)
        session = self.lobby.online.get(key)
        if tell and session is not None:
            minutes = math.ceil(seconds / 60)
            said = phrase(Msg.MUTED, admin=admin, minutes=minutes, why=why(reason))
            session.send(ev.info(said))

    def tell_at_login(self, session: Session) -> None:
        """``session``, just logged in, is told a mute of its name that runs: one made
        while he was away or before a restart is told him nowhere else (docs/protocol.md
        §5.19)."""
        held = None if session.name is None else self._mute_of(session.name)
        if held is not None:
            minutes = math.ceil((held.until - trio.current_time()) / 60)
            said = phrase(Msg.MUTED_AT_LOGIN, minutes=minutes, admin=held.admin)
            session.send(ev.info(said))

    def unmuted(self, name: str, admin: str) -> None:
        """``name``'s mute ends here (kept, ended, till the store's look finds it gone);
        he is told if he is here and it was running."""
        key = name_key(name)
        held = self._mute_of(name)
        if held is None:
            return
        self.changes += 1
        self.mutes[key] = attrs.evolve(held, until=ENDED)
        session = self.lobby.online.get(key)
        if session is not None:
            session.send(ev.info(phrase(Msg.UNMUTED, admin=admin)))

    def live_mutes(self) -> list[tuple[Mute, float]]:
        """Each mute still running, with the seconds it has left (told to a worker that
        starts: cluster/node.py)."""
        now = trio.current_time()
        return [(m, m.until - now) for m in list(self.mutes.values()) if m.until > now]

    # ------------------------------------------------------------ helpers
    def _admin(self, session: Session, item: Command) -> str | None:
        """The admin's name; None, and ``session`` told, if it is no admin's (as for
        'reserve': docs/protocol.md §5.5a)."""
        if not self.lobby.is_admin(session) or session.name is None:
            told = phrase(Msg.ADMINS_ONLY, command=item.name)
            session.send(ev.error("not-allowed", told))
            return None
        return session.name

    def _target(
        self, session: Session, item: Command, usage: str, *, admins_too: bool = False
    ) -> tuple[str, str] | None:
        """The name a command is about and the words after it (its reason, its blanks
        one space); None, and ``session`` told, if they are no name and no text to show
        others, or (unless ``admins_too``) the name is an admin's."""
        words = item.rest.split(maxsplit=1)
        if not words:
            session.send(ev.usage_error(usage))
            return None
        name = unicodedata.normalize("NFC", words[0])
        if not accounts.valid_name(name):
            # a comma or '!' typed onto the name ('ban ann, spam'): the name suggested,
            # as 'ban ann: spam' has it (an address's signs send that one elsewhere)
            meant = meant_name(name)
            said = (
                phrase(Msg.LOGIN_NAME)
                if meant is None
                else phrase(
                    Msg.NAME_STUCK_MEANT, word=said_back(name), meant=f"{item.name} {meant}"
                )
            )
            session.send(ev.error("bad-argument", said))
            return None
        if not admins_too and name_key(name) in self.lobby.accounts.admins:
            session.send(ev.error("not-allowed", phrase(Msg.NOT_ON_ADMINS, name=name)))
            return None
        if not admins_too and name_key(name).startswith(HOUSE_PREFIX):  # (login refuses it)
            session.send(ev.error("not-allowed", phrase(Msg.NOT_ON_HOUSE_BOTS, name=name)))
            return None
        reason = " ".join(words[1].split()) if len(words) > 1 else ""
        refused = refused_text(reason, usage) if reason else None
        if refused is not None:
            session.send(refused)
            return None
        return name, reason

    async def _spelling(self, name: str) -> str:
        """``name`` as he is called, if he is here, else as his account spells it (a
        registered name has one spelling: docs/protocol.md §4.2), else as typed: what
        'bans', 'mutes' and the log's ``moderation`` line show, so that a search of the
        log for the name finds it."""
        return (await self._called(name))[0]

    async def _called(self, name: str) -> tuple[str, bool]:
        """``name`` as ``_spelling`` gives it, and whether anyone holds it: logged in
        (here or on another worker), or an account's."""
        online = self._online_name(name)
        if online is not None:
            return online, True
        stored = await trio.to_thread.run_sync(self.lobby.store.account_name, name)
        return (name, False) if stored is None else (stored, True)

    def _online_name(self, name: str) -> str | None:
        """``name`` as he is called while he is logged in, here or on another worker;
        None if he is not."""
        here = self.lobby.online.get(name_key(name))
        if here is not None and here.name is not None:
            return here.name
        node = self.lobby.node
        present = node.elsewhere(name) if node is not None else None
        return present.name if present is not None and present.online else None

    def _disconnect_anywhere(self, name: str, action: Action, admin: str, reason: str) -> bool:
        """Close ``name``'s connection, here or on the worker that holds him; False if
        he is logged in nowhere."""
        closed = self.disconnect(name, action, admin, reason)
        node = self.lobby.node
        if node is None:
            return closed
        present = node.elsewhere(name)
        online = present is not None and present.online
        if action is Action.BAN:  # to every worker: a login of the name may be on its way
            node.kick(None, name, action, admin, reason)
        elif not closed and present is not None and online:
            node.kick(present.worker, present.name, action, admin, reason)
        return closed or online

    def _mute_of(self, name: str) -> Mute | None:
        """``name``'s mute while it runs (None once it ran out or was lifted)."""
        held = self.mutes.get(name_key(name))
        return held if held is not None and held.until > trio.current_time() else None


def _length(
    reason: str, usage: str, default: int, most: int, out_of_range: Phrase
) -> tuple[int, str] | ev.Error:
    """A mute's or an address ban's minutes and reason from the words after its NAME or
    ADDRESS (``usage``: its form): MINUTES if they begin with one ('5m' too: it was taken
    for the reason), else ``default``; or the refusal of a length that is no whole
    number of minutes ('90s') or lies outside 1 to ``most`` (``out_of_range``)."""
    told = length_told(reason)
    if told is None:
        return default, reason
    if told.minutes is None:
        said = phrase(Msg.MINUTES_WHOLE, usage=Usage(usage), word=told.word)
        return ev.error("bad-argument", said)
    if not 1 <= told.minutes <= most:
        return ev.error("bad-argument", out_of_range)
    return told.minutes, told.rest


def _logged(action: Action, admin: Session, target: str | None = None, **fields: Any) -> None:
    """An admin's action in the log: who (his connection too), what, whom and why
    (docs/settings.md "Logs"; at warning, so that a server logging only its warnings
    keeps them: they are rare, and what a complaint about an admin needs)."""
    admin.log.warning("moderation", action=str(action), admin=admin.name, target=target, **fields)


def banned(ban: Ban) -> ev.Banned:
    """A stored ban as 'bans' lists it (and 'finger' tells an admin)."""
    return ev.Banned(ban.name, ban.admin, ban.since, ban.reason)


def banned_address(ban: AddressBan, now_s: float) -> ev.AddressBanned:
    """A stored ban of an address running at ``now_s`` as 'bans' lists it: its end in
    UTC and the minutes left, rounded up."""
    until = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ban.until_s))
    left = math.ceil((ban.until_s - now_s) / 60)
    return ev.AddressBanned(ban.network, ban.admin, ban.since, until, left, ban.reason)


def muted_name(mute: StoredMute, now_s: float) -> ev.MutedName:
    """A stored mute running at ``now_s`` as 'mutes' lists it (and 'finger' tells an
    admin): its end in UTC and the minutes left, rounded up."""
    until = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(mute.until_s))
    return ev.MutedName(
        mute.name, mute.admin, until, math.ceil((mute.until_s - now_s) / 60), mute.reason
    )


def _named(networks: list[str], one: Msg, many: Msg, address: str) -> Phrase:
    """The sentence naming other bans' ``networks`` in the reply about ``address``'s
    (``one`` for one, ``many`` for several); nothing for none. (Every reply that names
    the other bans over or inside one: ban's, unban's, and unban's refusal.)"""
    if not networks:
        return phrase(Msg.NOTHING)
    if len(networks) == 1:
        return phrase(one, address=address, network=networks[0])
    return phrase(many, address=address, networks=tuple(networks))


def _nobodys(name: str, known: bool, undo: str) -> Phrase:
    """The admin's reply's warning that ``name`` is nobody's (a slip of the keys?)."""
    return phrase(Msg.NOTHING) if known else phrase(Msg.NAME_NOBODYS, name=name, undo=undo)
