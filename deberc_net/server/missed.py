"""What a player missed while away: his seat freed, or his match ended, told at his
next login (docs/protocol.md §12). A person whose link dropped for longer than the away
limit logged in again to the lobby with no word of the table he had sat at.

Told only to the name's owner: a registered name's login (its password), or a guest's
with the token he had then (``login NAME token=…``); a guest name taken since by
someone else is told nothing. Kept in memory for a day at most, and for the newest
``KEPT`` names: this is a courtesy, not a record ('games' is the record). Under ``serve
--workers`` every worker keeps it (the table's worker tells the others over the bus,
and the one that tells it has the others forget it: told once); a restart forgets it."""

from __future__ import annotations

import attrs
import trio

from deberc_net.protocol.messages import Phrase

from .accounts import name_key, same_secret

KEPT = 10_000
HELD_S = 24 * 3600.0


@attrs.frozen
class Notice:
    said: Phrase
    token: str | None  # a guest's token then (None: a registered name)
    at: float  # trio time


@attrs.define
class Missed:
    notices: dict[str, Notice] = attrs.Factory(dict)  # by name key, oldest first

    def forget(self, name: str) -> None:
        """``name``'s notice was told (at another worker): not again here."""
        self.notices.pop(name_key(name), None)

    def remember(self, name: str, said: Phrase, token: str | None) -> None:
        key = name_key(name)
        self.notices.pop(key, None)  # (the newest notice of a name is the one told)
        self.notices[key] = Notice(said, token, trio.current_time())
        while len(self.notices) > KEPT:
            del self.notices[next(iter(self.notices))]

    def take(self, name: str, guest: bool, presented: str | None) -> Phrase | None:
        """The notice for ``name``'s login, forgotten once told: None if there is none,
        it is older than a day, or the login is not its owner's (then it waits on)."""
        key = name_key(name)
        notice = self.notices.get(key)
        if notice is None:
            return None
        if trio.current_time() - notice.at > HELD_S:
            del self.notices[key]
            return None
        if notice.token is None:
            owner = not guest
        else:
            owner = guest and presented is not None and same_secret(presented, notice.token)
        if not owner:
            return None
        del self.notices[key]
        return notice.said
