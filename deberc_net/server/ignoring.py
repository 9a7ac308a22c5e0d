"""A player's own ignore list: 'ignore NAME', 'unignore NAME', 'ignore' (docs/protocol.md
§5.21). Whom he ignores has his 'say', 'invite' and 'rematch' kept from him where they
are told (chat.py, table.py, rematch.py, and another worker's: cluster/node.py); an
admin's 'announce' and a table's events are told as ever. A registered player's list
is kept in the store and read at his login (login.py); a guest's lives with his
connection."""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command
from deberc_net.protocol.messages import Msg, phrase

from . import accounts
from .accounts import name_key
from .allowance import may_list
from .session import Session

if TYPE_CHECKING:
    from .lobby import Lobby

IGNORE_MOST = 100  # names a player may ignore: what his list costs the server, bounded
IGNORE_USAGE = "ignore [NAME]"
UNIGNORE_USAGE = "unignore NAME"


def digest(key: str) -> str:
    """A name key as the bus carries an ignore list (cluster/payloads.py): 12 hex digits
    (48 bits), whatever the name's length or alphabet, so that a list of IGNORE_MOST
    names fits in a message beside what it travels with (a whole list of long Cyrillic
    names did not); two names alike in them are one chance in 10^14 a pair."""
    return hashlib.blake2b(key.encode(), digest_size=6).hexdigest()


def digests(session: Session) -> list[str]:
    """``session``'s ignore list as the bus tells it (sorted: the same list, the same
    message)."""
    return sorted(digest(key) for key in session.ignored or ())


@attrs.define(eq=False)
class Ignoring:
    lobby: Lobby

    async def ignore(self, session: Session, item: Command) -> None:
        if not item.args:
            self._list(session)
            return
        name = self._name(session, item, IGNORE_USAGE)
        if name is None:
            return
        key = name_key(name)
        if key == name_key(session.name or ""):
            session.send(ev.error("bad-argument", phrase(Msg.IGNORE_SELF)))
            return
        ignored = session.ignored or {}
        if key in ignored:  # nothing changes: answered, as the list stands
            said = phrase(Msg.IGNORE_AGAIN, name=ignored[key])
            session.send(ev.ok("ignore", said, self._fields(ignored[key], ignored)))
            return
        if len(ignored) >= IGNORE_MOST:
            session.send(ev.error("not-allowed", phrase(Msg.IGNORE_MOST, most=IGNORE_MOST)))
            return
        if not self._may_change(session, item):
            return
        name = self._spelling(name)
        ignored = {**ignored, key: name}
        await self._keep(session, self.lobby.store.ignore, name, ignored)
        said = phrase(Msg.IGNORE_DONE, name=name)
        session.send(ev.ok("ignore", said, self._fields(name, ignored)))

    async def unignore(self, session: Session, item: Command) -> None:
        name = self._name(session, item, UNIGNORE_USAGE)
        if name is None:
            return
        key = name_key(name)
        ignored = session.ignored or {}
        if key not in ignored:
            session.send(ev.error("not-allowed", phrase(Msg.NOT_IGNORED, name=name)))
            return
        if not self._may_change(session, item):
            return
        name = ignored[key]
        left = {k: n for k, n in ignored.items() if k != key}
        await self._keep(session, self.lobby.store.unignore, name, left)
        said = phrase(Msg.UNIGNORE_DONE, name=name)
        session.send(ev.ok("unignore", said, self._fields(name, left)))
        self._tell_withheld(session, key)

    def _tell_withheld(self, session: Session, key: str) -> None:
        """The invitations from ``key`` kept from ``session`` while it ignored him, each
        told now if its table still waits for players, still invites it and still seats
        him: his 'invite' again would be refused as made already (docs/protocol.md
        §5.21). One he has left since is not told (it says he invites you to his table:
        s43's leftover), though it still lets her in, as one told would."""
        withheld = session.withheld or {}
        kept = withheld.pop(key, [])
        session.withheld = withheld or None
        for invited in kept:
            table = self.lobby.tables.get(invited.table)
            if table is None or table.state != ev.TableState.WAITING or all(table.seats):
                continue
            if table.seat_of(invited.sender) is None:  # he left it meanwhile
                continue
            if table.invites(session.name or "") and table.seat_of(session.name or "") is None:
                session.send(invited)

    async def _keep(
        self,
        session: Session,
        write: Callable[[str, str], None],
        name: str,
        ignored: dict[str, str],
    ) -> None:
        """``session``'s list is ``ignored`` now, ``name`` added or taken out by
        ``write``: a registered player's in the store first (kept before it is said
        done), then here and on the other workers."""
        if not session.guest:
            await self.lobby.writes.run(functools.partial(write, session.name or "", name))
        session.ignored = ignored or None
        self._changed(session)

    def _may_change(self, session: Session, item: Command) -> bool:
        """Whether ``session`` may change its list now: each change is a write to the
        store (a registered player's) and a message to every worker (serve --workers),
        so it spends one of the connection's lists, as a look in the store does (a
        refusal before it costs none; docs/security.md §2). Unmetered, one connection's
        'ignore x'/'unignore x' at the flood limit's 200 lines a second was as many
        writes and broadcasts."""
        return may_list(self.lobby, session, item.name, self.lobby.is_admin(session))

    def _list(self, session: Session) -> None:
        names = tuple((session.ignored or {}).values())
        if not names:
            session.send(ev.ok("ignore", phrase(Msg.IGNORES_NONE), (("count", "0"), ("names", ""))))
            return
        said = phrase(Msg.IGNORES, count=len(names), names=names)
        fields = (("count", str(len(names))), ("names", ",".join(names)))
        session.send(ev.ok("ignore", said, fields))

    @staticmethod
    def _fields(name: str, ignored: dict[str, str]) -> tuple[tuple[str, str], ...]:
        return (("name", name), ("count", str(len(ignored))))

    @staticmethod
    def _name(session: Session, item: Command, usage: str) -> str | None:
        """The command's one NAME, as 'login' takes it (else the error is sent)."""
        if len(item.args) != 1:
            session.send(ev.usage_error(usage))
            return None
        name = unicodedata.normalize("NFC", item.args[0])
        if not accounts.valid_name(name):
            session.send(ev.error("bad-argument", phrase(Msg.LOGIN_NAME)))
            return None
        return name

    def _spelling(self, name: str) -> str:
        """``name`` as its player writes it, when he is online here or on another
        worker; else as typed (he may be a guest gone, or one to come)."""
        online = self.lobby.online.get(name_key(name))
        if online is not None and online.name is not None:
            return online.name
        node = self.lobby.node
        present = node.elsewhere(name) if node is not None else None
        return present.name if present is not None else name

    def _changed(self, session: Session) -> None:
        """The list changed: another worker's stand-in of ``session`` (at a table
        there, or an offer of a rematch) filters by the new one at once."""
        if self.lobby.node is not None:
            self.lobby.node.ignores_changed(session)
