"""'password OLD NEW': a registered name's owner changes its password (docs/protocol.md
§5.20). The old one is checked as a login's is (the same limits, a wrong one logged
and counted against the connection), the new one hashed in the registration pool,
under its limits (it counts as a registration from the address)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command
from deberc_net.protocol.login_words import typable
from deberc_net.protocol.messages import Msg, phrase

from .accounts import PASSWORD_LEAST, short_password
from .session import Session

if TYPE_CHECKING:
    from .lobby import Lobby


@attrs.define(eq=False)
class PasswordChange:
    lobby: Lobby

    async def password(self, session: Session, item: Command) -> None:
        name = session.name
        assert name is not None  # (a command of the logged in: protocol/connection.py)
        if len(item.args) != 2:
            session.send(ev.usage_error("password OLD NEW"))
            return
        old, new = item.args
        accounts = self.lobby.accounts
        if session.guest:
            session.send(ev.error("not-allowed", phrase(Msg.PASSWORD_NONE)))
            return
        if accounts.vouches_for(name):  # (a ladder's admin, over the process's own link)
            session.send(ev.error("not-allowed", phrase(Msg.NO_PASSWORD_HERE, name=name)))
            return
        if new == old:
            session.send(ev.error("bad-argument", phrase(Msg.PASSWORD_SAME)))
            return
        # as 'login NAME SECRET' reads them: 'token=' as it is, 'lang=', 'style=', … in
        # any case
        if not typable(new):  # it could never log in
            session.send(ev.error("bad-argument", phrase(Msg.PASSWORD_RESERVED)))
            return
        if short_password(new):
            least = PASSWORD_LEAST
            session.send(ev.error("bad-argument", phrase(Msg.PASSWORD_SHORT, least=least)))
            return
        # the new one's limits first: nothing hashed for a change refused anyway
        refused = accounts.change_refused(session.address) or await accounts.check(
            name, old, session.address
        )
        if refused is not None:
            if refused.code == "bad-password":
                told = ev.error(refused.code, phrase(Msg.PASSWORD_OLD_WRONG))
                self.lobby.login.wrong_password(session, name, told, command="password")
            else:  # over a limit: logged as a login's is (a review, s28)
                self.lobby.login.refused(session, name, refused, command="password")
            return
        refused = await accounts.change_password(name, new, session.address)
        if refused is not None:
            self.lobby.login.refused(session, name, refused, command="password")
            return
        session.log.info("password_changed", name=name)
        session.send(ev.ok("password", phrase(Msg.PASSWORD_CHANGED)))
