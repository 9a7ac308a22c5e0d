"""Rematch: the players of a match just over play again, same rules, seats rotated.

When a match ends its table closes (server/table.py) and an offer is kept here for
the setting ``rematch_ms`` (60 s): each player may say 'rematch'; the others are told
who asked. When every player has asked, a new table opens with the same rules (and
privacy) and the players seated one seat on (seat 1's player to seat 0, …, seat 0's
to the last: partners stay partners), a new match with a new number and its own
records. The offer is off when its time runs out, or a player disconnects or sits
down elsewhere; under ``serve --workers``, when the worker that keeps it stops or is
lost (cluster/node.py tells its players at the other workers). An offer called off is
kept till its time is out, with why for each player, so that his 'rematch' is told
the true reason. A guest's part in it is his who held the name then: one who takes
the name once it is free (the guest away as the match ended) is not offered it, may
not take it, and calls nothing off (his token is not the guest's: missed.py).
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg, Phrase, phrase

from .accounts import name_key, same_secret
from .config import Config
from .matchmaking import GameSettings, table_settings
from .table_messages import Sit

if TYPE_CHECKING:
    from .lobby import Lobby
    from .session import Session
    from .table import Table

# rematch_ms's default, in seconds: read from Config, not written again
REMATCH_S = Config().rematch_ms / 1000


def offer_s(lobby: Lobby) -> float:
    """How long after a match's end its players may agree to play again (rematch_ms)."""
    return lobby.config.rematch_ms / 1000


def told_s(lobby: Lobby) -> int:
    """That, in whole seconds, as people are told it ("'rematch' within 60 s …"):
    rounded down, never more than there is (5.5 s said 6 s, and a 'rematch' at 5.8 s
    was refused "one is asked within 6 s": a readback, s45); a second at least (the
    setting's least)."""
    return lobby.config.rematch_ms // 1000


class Refusal(enum.StrEnum):
    """Why a finished match has no rematch on offer."""

    BOARD = "board"  # a ladder's board is not played again
    HOUSE_BOT = "house-bot"  # a house bot plays one match only
    DRAIN = "drain"  # the server drains: no new game starts (docs/protocol.md §11.4a)

    @property
    def said(self) -> Msg:
        return _REFUSALS_SAID[self]


_REFUSALS_SAID = {
    Refusal.BOARD: Msg.REMATCH_BOARD,
    Refusal.HOUSE_BOT: Msg.REMATCH_HOUSE_BOT,
    Refusal.DRAIN: Msg.DRAIN_REFUSED,
}


class Ended(enum.StrEnum):
    """Why a player's rematch offer was called off: his 'rematch' is told it (one was
    refused "one is asked within 60 s of your match's end" well within them: club
    evening s39). The offs of the protocol (events.RematchOff), and a seek given back."""

    TIMEOUT = "timeout"
    LEFT = "left"
    ELSEWHERE = "elsewhere"
    SEEK_KEPT = "seek-kept"  # a leaver's forfeit gave the player his seek back (§5.5)
    DRAIN = "drain"
    SERVER_STOPPED = "server-stopped"
    SERVER_LOST = "server-lost"


# what the one who called it off is told of his own step, and what the others are
_OWN = {
    Ended.LEFT: Msg.REMATCH_YOU_LEFT,
    Ended.ELSEWHERE: Msg.REMATCH_YOU_ELSEWHERE,
    Ended.SEEK_KEPT: Msg.REMATCH_YOU_SEEK_KEPT,
}
_OTHERS = {
    Ended.TIMEOUT: Msg.REMATCH_TIMEOUT,
    Ended.LEFT: Msg.REMATCH_WAS_LEFT,  # (he may be back by now)
    Ended.ELSEWHERE: Msg.REMATCH_WENT_ELSEWHERE,  # (he may be out of it by now)
    Ended.SEEK_KEPT: Msg.REMATCH_SEEK_KEPT,
    Ended.DRAIN: Msg.REMATCH_DRAIN,
    Ended.SERVER_STOPPED: Msg.SERVER_STOPPED,
    Ended.SERVER_LOST: Msg.SERVER_LOST,
}


@attrs.frozen
class Off:
    """Why an offer is off for a player: ``why``, by whose step (``by``, a name)."""

    why: Ended
    by: str | None = None

    def said(self, table: int, asker: str) -> Phrase:
        """The refusal of ``asker``'s 'rematch' (docs/protocol.md §5.16)."""
        own = self.by is not None and name_key(self.by) == name_key(asker)
        key = _OWN.get(self.why) if own else None
        why = phrase(key or _OTHERS[self.why], name=self.by or "")
        return phrase(Msg.NO_REMATCH_OFF, table=table, why=why)


@attrs.define(eq=False)
class Offer:
    table: int  # the finished match's table
    names: tuple[str, ...]  # by seat, in the finished match
    settings: GameSettings
    private: bool
    rated: bool
    deadline: float
    refusal: Refusal | None = None
    asked: list[str] = attrs.Factory(list)  # names, in the order they asked
    open: bool = True
    # by player's name key, once it is off: why (kept till its deadline, for his 'rematch')
    off: dict[str, Off] = attrs.Factory(dict)
    # those who watched the match to its end (its table's observers then, this
    # server's): told where the rematch is, as they cannot follow it otherwise (s43)
    watchers: tuple[Session, ...] = ()
    ended: trio.Event = attrs.Factory(trio.Event)  # taken up or off: set by _close
    taken: int | None = None  # the rematch's table, once it starts
    # every player asked with no table number at hand (a worker's: table_numbers.py):
    # it starts as the draw on its way lands (``Rematches._start_once_drawn``)
    starting: bool = False
    # under serve --workers, the stand-ins of other workers' web pages among
    # ``watchers`` whose workers were told it stands (Node.offer_to_pages): told its end
    pages_elsewhere: tuple[Session, ...] = ()
    # by name key, each guest player's token as the match ended: only its holder speaks
    # for the name here (None: a guest of another worker's whose token is not known
    # here, any guest on the name; a registered name is not in it: its password's login)
    tokens: dict[str, str | None] = attrs.Factory(dict)

    def waiting(self) -> tuple[str, ...]:
        keys = {name_key(n) for n in self.asked}
        return tuple(n for n in self.names if name_key(n) not in keys)


@attrs.define(eq=False)
class Followed:
    """Under ``serve --workers``, at a web page's worker, the offer of a match it
    watched to its end at another worker (``owner``), which keeps it: what its feed
    waits on, as on an ``Offer`` here (web/feed.py). Its owner told it stands, and
    tells its end (where the rematch starts, or none); it ends untaken should the
    owner be lost (cluster/node.py)."""

    owner: int
    table: int
    deadline: float  # (this worker's clock: the time left as told, from when it came)
    ended: trio.Event = attrs.Factory(trio.Event)
    taken: int | None = None


@attrs.define(eq=False)
class Rematches:
    lobby: Lobby
    # by player's name key, till its deadline: open, or off (why kept: Offer.off)
    offers: dict[str, Offer] = attrs.Factory(dict)
    # every offer by its deadline (rematch_ms after its match's end, so in order): one
    # task calls off those due, not a task sleeping out each match's rematch_ms (a
    # ladder ends hundreds of matches a second, each one a board's, never played again)
    _expiring: deque[Offer] = attrs.Factory(deque)
    _expirer: bool = False  # that task is running

    def match_over(
        self, table: Table, leaver: str | None = None, seeks_back: Sequence[Session] = ()
    ) -> None:
        """A match has ended at ``table``: its players may ask for a rematch a while.
        ``leaver``: the one whose 'leave' ended it, not told of the offer (he chose to
        go; should the others ask, he is told that, as anyone). ``seeks_back``: those
        the leaver's forfeit gives their seek back; one that will be kept (by
        matchmaking.kept_seek, here or at his worker) calls the offer off at once, here,
        so nobody is told it is on offer, and nobody's 'rematch' is taken."""
        names = tuple(n for n in table.seats if n is not None)
        if len(names) != table.players:
            return
        refusal = None
        if table.board is not None:
            refusal = Refusal.BOARD
        elif any(self.lobby.house.get(n) is not None for n in names):
            refusal = Refusal.HOUSE_BOT
        elif self.lobby.drain.begun:
            # none is said to be on offer: a 'rematch' is refused now (a review, s44:
            # its people were told "'rematch' within 60 s …", then refused)
            refusal = Refusal.DRAIN
        offer = Offer(
            table.id,
            names,
            table_settings(table),
            table.private,
            table.rated,
            trio.current_time() + offer_s(self.lobby),
            refusal,
            watchers=tuple(table.observers),
        )
        if refusal is None:
            offer.tokens = self._guest_tokens(names)
        for name in names:
            old = self.offers.get(name_key(name))
            if old is not None:
                old.open = False
            self.offers[name_key(name)] = offer
        kept = [s for s in seeks_back if self.lobby.matchmaking.keeps_seek(s)]
        node = self.lobby.node
        if node is not None:
            # one whose 'leave' ended it was told his seat gone before the offer was made:
            # his worker hears its players now (for a loss of this one: node.py), or that
            # none was offered, or that it is off as it is made (below)
            gone = [p for p in self._players(offer) if p.table is not table]
            if gone:
                refused = refusal is not None
                node.rematch_asked(table.id, (), gone, names, refused=refused, off=bool(kept))
        if refusal is None and kept:
            # off as it is made, decided here: under serve --workers the worker of one
            # of another worker's keeps his seek, and says so (a withdraw) a hop later,
            # when a 'rematch' of another was taken meanwhile, then called off
            self._call_off(offer, ev.RematchOff.ELSEWHERE, kept[0].name, ended=Ended.SEEK_KEPT)
            for seeker in kept:  # each one's own step (as his withdraw says once here)
                if seeker.name is not None:
                    offer.off[name_key(seeker.name)] = Off(Ended.SEEK_KEPT, seeker.name)
        if refusal is None and not kept:  # people are told it is on offer (§5.16)
            offered = ev.info(phrase(Msg.REMATCH_OFFERED, seconds=told_s(self.lobby)))
            for name in names:  # (one of another worker's too: his stand-in's)
                session = self.lobby.session_named(name)
                if session is None or session.closed or session.machine:
                    continue
                if name != leaver:
                    session.send(offered)
            if node is not None and not offer.private:
                # the web pages of other workers that watched it: theirs is told it
                # stands, before the table's close is (docs/web.md, "The live socket")
                offer.pages_elsewhere = node.offer_to_pages(offer)
        self._expiring.append(offer)
        if not self._expirer:
            self._expirer = True
            self.lobby.spawner.start_soon(self._expire)

    def _guest_tokens(self, names: Sequence[str]) -> dict[str, str | None]:
        """The guests among ``names`` now, by name key, with their tokens (as missed
        notices keep them; a guest of another worker's, as known there: None if not,
        Table.keep_missed)."""
        tokens: dict[str, str | None] = {}
        node = self.lobby.node
        for name in names:
            key = name_key(name)
            token = self.lobby.guest_tokens.get(key)
            if token is not None:
                tokens[key] = token
            elif node is not None:
                present = node.elsewhere(name)
                if present is not None and present.guest:
                    tokens[key] = present.token
        return tokens

    def _his(self, offer: Offer, session: Session) -> bool:
        """Whether ``session`` speaks for its name in ``offer``: a registered name's
        login, or the guest who held it then (his token, kept by ``logged_in`` when he
        came back with it; a guest's free name taken since is another's)."""
        name = session.name
        if name is None:
            return False
        if offer.refusal is not None:  # none on offer: anyone on the name is told why
            return True
        key = name_key(name)
        if key not in offer.tokens:
            return not session.guest
        token = offer.tokens[key]
        if token is None or not session.guest:
            return session.guest
        return self._guest_tokens((name,)).get(key) == token

    def logged_in(self, session: Session, presented: str | None) -> None:
        """A guest logged in: back with the token his name's offer was made to, his new
        token speaks for it from now (one who claims a free name is given a new one)."""
        name = session.name
        offer = self.offers.get(name_key(name)) if name is not None else None
        if offer is None or name is None or not session.guest or presented is None:
            return
        held = offer.tokens.get(name_key(name))
        if held is not None and same_secret(presented, held):
            now = self._guest_tokens((name,)).get(name_key(name))
            if now is not None:
                offer.tokens[name_key(name)] = now

    async def _expire(self) -> None:
        """Call off each offer at its deadline, in turn; end when none is left."""
        try:
            while self._expiring:
                await trio.sleep_until(self._expiring[0].deadline)
                offer = self._expiring.popleft()
                if offer.open:
                    self._call_off(offer, ev.RematchOff.TIMEOUT)
                self._forget(offer)
        finally:
            self._expirer = False

    def ask(self, session: Session) -> None:
        """'rematch' by ``session`` (logged in, seated nowhere: the lobby checked). Not
        while the server stops (one asked from another worker: cluster/node.py):
        refused, as a 'rematch' here then is, so no table opens on a server going."""
        name = session.name
        assert name is not None
        if self.lobby.refused_new_game(session):
            return
        key = name_key(name)
        offer = self.offers.get(key)
        if offer is not None and not self._his(offer, session):
            offer = None  # a guest's free name taken since: not his to take
        off = offer.off.get(key) if offer is not None else None  # off for him: why
        node = self.lobby.node
        if offer is not None and offer.refusal is not None:
            # none was ever on offer: the reason, its time out or not, and after a step
            # elsewhere too (a tryout was told "you went to another game", as if his
            # step had called one off); a later match's at another worker is asked there
            if node is None or not node.ask_rematch(session, offer.deadline):
                session.send(ev.error("not-allowed", phrase(offer.refusal.said)))
            return
        if offer is None or not offer.open or off is not None:
            # the match was played on another worker, which keeps its offer (one here
            # called off, of an earlier match, is not what he asks of)
            after = None if offer is None else offer.deadline
            if node is not None and node.ask_rematch(session, after):
                return
            # called off: why, for him (not "asked within 60 s", which he had: s39)
            said = (
                off.said(offer.table, name)
                if off is not None and offer is not None
                else phrase(Msg.NO_REMATCH, seconds=told_s(self.lobby))
            )
            session.send(ev.error("not-allowed", said))
            return
        # asked again: answered again, but the others were told once (a loop of it put
        # a line on their screens each time, till a slow reader's outbox overflowed)
        again = name_key(name) in {name_key(n) for n in offer.asked}
        if not again:
            offer.asked.append(name)
        waiting = offer.waiting()
        # the cap, whoever asks: the last ask opens the table (docs/protocol.md §5.16:
        # busy); only the first ones checked it, and the last opened one past it
        if not self.lobby.table_room(session, opening=False):
            if not again:
                offer.asked.remove(name)  # refused: as if not asked
            return
        told = self._event(offer)
        # one who asked already is told where it stands, not asked to agree (a tryout)
        told_asked = attrs.evolve(told, agreed=True)
        asked_keys = {name_key(n) for n in offer.asked}
        if waiting:
            said = phrase(
                Msg.REMATCH_ASK,
                table=offer.table,
                waiting=phrase(Msg.REMATCH_WAITING, names=waiting),
            )
        else:  # the last to agree is told it starts, as the others are
            said = phrase(Msg.REMATCH_STARTS, table=offer.table)
        session.send(
            ev.ok(
                "rematch",
                said,
                (
                    ("table", str(offer.table)),
                    ("asked", ",".join(offer.asked)),
                    ("waiting", ",".join(waiting)),
                ),
            )
        )
        asker = name_key(name)
        players = self._players(offer)
        if node is not None and waiting and not again:  # their workers: for a loss of this one
            node.rematch_asked(offer.table, tuple(offer.asked), players, offer.names)
        for other in players:
            # not to one who ignores him (docs/protocol.md §5.21): the offer's end or
            # start is told him as ever
            if other is not session and not again and not other.ignores(asker):
                other.send(told_asked if name_key(other.name or "") in asked_keys else told)
        if not waiting:
            self._start(offer)

    def tell_back(self, session: Session) -> None:
        """``session`` has logged in at no table: an offer that stands for him (he was
        away as his match ended, even by the away limit's forfeit, docs/protocol.md
        §5.16) is told him, or he could only find out by typing 'rematch' (s47). A
        person is told it is on offer, with the seconds left; anyone, the 'rematch' line
        an ask sent while he was away (a program's word of an offer: it missed the
        match-end's rematch_s=, and no line says an offer nobody asked)."""
        name = session.name
        offer = self.offers.get(name_key(name)) if name is not None else None
        if offer is None or name is None or not offer.open or offer.refusal is not None:
            return
        if name_key(name) in offer.off or not self._his(offer, session):
            return
        left = int(offer.deadline - trio.current_time())  # rounded down, as told_s
        if left < 1:
            return
        if not session.machine:
            session.send(ev.info(phrase(Msg.REMATCH_OFFERED, seconds=left)))
        if any(not session.ignores(name_key(n)) for n in offer.asked):  # as told then
            session.send(self._event(offer))

    def drain(self) -> None:
        """The server drains (drain.py): every offer open is off, its askers told (a
        'rematch' would be refused now)."""
        self._all_off(ev.RematchOff.DRAIN)

    def stopped(self) -> None:
        """This worker of ``serve --workers`` stops (lobby.py): its offers, kept in its
        memory alone, go with it; its players at other workers stay online, so every
        offer open is off, its askers told, not left to find none."""
        self._all_off(ev.RematchOff.SERVER_STOPPED)

    def _all_off(self, why: ev.RematchOff) -> None:
        for offer in {id(o): o for o in self.offers.values()}.values():
            if offer.open and offer.refusal is None:
                self._call_off(offer, why)
            else:
                self._close(offer)

    def withdraw(self, session: Session, why: ev.RematchOff, *, kept: bool = False) -> None:
        """``session`` goes elsewhere (or away): its match's offer is off. ``kept``: a
        leaver's forfeit gave him his seek back (matchmaking.kept_seek)."""
        name = session.name
        if name is None:
            return
        offer = self.offers.get(name_key(name))
        if offer is not None and not self._his(offer, session):
            offer = None  # one who took a guest's free name: not his to call off
        off = Off(Ended.SEEK_KEPT if kept else Ended(why), name)
        if offer is not None and offer.refusal is not None:
            # nothing to call off here. A house bot quits once its match is over: the
            # offer stays, so its players are told why until its time is out (they were
            # told no match of theirs had just ended), wherever they went since; a later
            # match's, at another worker, is called off there (below)
            pass
        elif offer is not None and offer.open:
            self._call_off(offer, why, name, without=session, ended=off.why)
            return
        elif offer is not None:  # off already: what he did since is what he knows of
            offer.off[name_key(name)] = off
        if self.lobby.node is not None:  # an offer kept by another worker is off too
            self.lobby.node.withdraw_rematch(session, why, kept=kept)

    def _call_off(
        self,
        offer: Offer,
        why: ev.RematchOff,
        by: str | None = None,
        without: Session | None = None,
        ended: Ended | None = None,
    ) -> None:
        self._close(offer)
        reason = Off(Ended(why) if ended is None else ended, by)
        for name in offer.names:
            offer.off.setdefault(name_key(name), reason)
        if not offer.asked:  # nobody wanted one: nobody is told
            return
        off = ev.Rematch(offer.table, tuple(offer.asked), offer.waiting(), why, by)
        for player in self._players(offer):
            if player is not without:
                player.send(off)

    def _event(self, offer: Offer) -> ev.Rematch:
        return ev.Rematch(offer.table, tuple(offer.asked), offer.waiting())

    def _players(self, offer: Offer) -> list[Session]:
        """The offer's players online, each his name's owner (_his)."""
        players = []
        for name in offer.names:
            player = self.lobby.session_named(name)
            if player is not None and not player.closed and self._his(offer, player):
                players.append(player)
        return players

    def _close(self, offer: Offer, *, told: bool = True) -> None:
        """The offer is over (called off or taken up): kept (its players' 'rematch' told
        why) till its deadline, when it is forgotten. ``told``: the other workers'
        pages that follow it are told its end now (not yet: _start)."""
        offer.open = False
        offer.ended.set()
        if told:
            self._pages_told(offer)

    def _pages_told(self, offer: Offer) -> None:
        """The workers of other workers' pages that follow ``offer`` are told its end,
        once: where the rematch starts (after the line that says it), or none."""
        pages, offer.pages_elsewhere = offer.pages_elsewhere, ()
        if pages and self.lobby.node is not None:
            self.lobby.node.offer_ended_to_pages(offer, pages)

    def _forget(self, offer: Offer) -> None:
        """Its deadline: no player's any more (one's newer match's is not touched)."""
        for name in offer.names:
            if self.offers.get(name_key(name)) is offer:
                del self.offers[name_key(name)]

    def _start(self, offer: Offer, *, draw_failed: bool = False) -> None:
        # a worker's with no table number at hand (the last ask another worker's
        # player's, no line here that waited for one: table_numbers.py): it starts once
        # the draw on its way lands, the loop running on; if that draw failed (its
        # database away), its players are told so and it stays on offer, a 'rematch'
        # again trying again (before, the table drew in place, in the loop)
        if not self.lobby.table_numbers.at_hand():
            if draw_failed:
                for player in self._players(offer):
                    player.send(ev.error("busy", phrase(Msg.NO_TABLE_NUMBER)))
            elif not offer.starting:
                offer.starting = True
                self.lobby.spawner.start_soon(self._start_once_drawn, offer)
            return
        # (another worker's pages are told its end after the line where it starts)
        self._close(offer, told=False)
        players = self._players(offer)
        if len(players) != len(offer.names) or any(p.table is not None for p in players):
            self._pages_told(offer)
            return  # cannot happen: leaving or sitting elsewhere calls the offer off
        rotated = offer.names[1:] + offer.names[:1]
        table = self.lobby.open_table(
            offer.settings, reserved=rotated, private=offer.private, rated=offer.rated
        )
        table.invited.update(name_key(n) for n in rotated)  # a private table's, too
        offer.taken = table.id
        self._tell_watchers(offer, table.id)
        self._pages_told(offer)
        by_key = {name_key(p.name or ""): p for p in players}
        for name in rotated:
            session = by_key[name_key(name)]
            session.seat_coming(table)  # at once, as 'new' does
            # a request of each player's: his reader takes his next line once the table
            # has seated him, so his 'ok cmd=sit' comes before its reply (one read as it
            # completed was refused 'already-seated' first: docs/protocol.md §5.16)
            table.post(Sit(session, None), request=True, capped=False)

    async def _start_once_drawn(self, offer: Offer) -> None:
        drawn = await self.lobby.table_numbers.landed()
        offer.starting = False
        if offer.open and not offer.waiting():  # (not called off meanwhile)
            self._start(offer, draw_failed=not drawn)

    def followed(self, table: Table, watcher: Session) -> Offer | Followed | None:
        """The offer of ``table``'s match, just over, that ``watcher`` (one who watched
        it to its end) will be told the start of, should it be taken up: one open, of a
        table not private (its watchers are not told, _tell_watchers). None: nothing to
        wait for (none offered, off already, or not his to hear of). Of another worker's
        table (under ``serve --workers``), the stand-in of the offer its worker keeps,
        as that worker told a web page's session here (cluster/node.py): ended already,
        should its end or its worker's loss have come before the close was noticed."""
        node = self.lobby.node
        if table.remote:
            return None if node is None else node.followed_offer(table, watcher)
        for name in table.seats:
            offer = self.offers.get(name_key(name)) if name is not None else None
            if offer is not None and offer.table == table.id:
                followed = offer.open and offer.refusal is None and not offer.private
                return offer if followed and watcher in offer.watchers else None
        return None

    def _tell_watchers(self, offer: Offer, table: int) -> None:
        """Tell those who watched the finished match where its rematch is (its table is
        a new one, which they do not watch): not those now seated or watching there, nor
        at a private table, which they may not see unless they are its admins."""
        said = ev.rematch_watch(
            offer.table, table, phrase(Msg.REMATCH_WATCH, old=offer.table, table=table)
        )
        for watcher in offer.watchers:
            if watcher.closed or watcher.table is not None or table in watcher.observing:
                continue
            if offer.private and not self.lobby.is_admin(watcher):
                continue
            watcher.send(said)
