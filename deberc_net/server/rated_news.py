"""A waiting table tells its players when whether its match will be rated changes
(docs/protocol.md §5.18). Registered players wait for a rated match (a house bot among
them asked for 'rated'); a guest sits, or a house bot comes asked for without 'rated':
the match will not be rated, and they are told so and why, one line. The one who made
it so goes: it will be rated again, told too. A registered person who comes where it
will not be (sits down, or is back on a new connection) is told so himself: nothing
changed, but nobody had told him. A table where no registered person sits, or one whose
matches are never rated (private, a ladder's board), tells nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg, Phrase, phrase

if TYPE_CHECKING:
    from .house import HouseBot


@attrs.define
class RatedNews:
    guests: set[int] = attrs.Factory(set)  # the seats held by people without an account
    # whether the match would be rated, as last seen; None: no registered person sat
    rates: bool | None = None

    def sat(self, seat: int, guest: bool) -> None:
        """``seat`` taken, by a guest (a person without an account) or not."""
        if guest:
            self.guests.add(seat)
        else:
            self.guests.discard(seat)

    def left(self, seat: int) -> None:
        self.guests.discard(seat)

    def news(
        self,
        table: int,
        seats: Sequence[str | None],
        bots: Sequence[HouseBot],
        came: int | None = None,
    ) -> News | None:
        """What ``table``'s players are told now that its ``seats`` (and the house
        ``bots`` seated or on their way) are as they are, ``came``: the seat whose
        person just sat or is back. None when whether its match will be rated is as it
        was, or no registered person sits there, and ``came`` is no registered person
        to whom it will not be."""
        names = {b.name for b in bots}
        people = [s for s, name in enumerate(seats) if name is not None and name not in names]
        if all(s in self.guests for s in people):  # nobody registered: nobody expects it
            self.rates = None
            return None
        guest = next((s for s in people if s in self.guests), None)
        unrated = next((b.name for b in bots if not b.rated), None)
        why: Phrase | None = None
        if guest is not None:
            why = phrase(Msg.UNRATED_BY_GUEST, table=table, name=str(seats[guest]))
        elif unrated is not None:
            why = phrase(Msg.UNRATED_BY_BOT, table=table, name=unrated)
        rates, before = why is None, self.rates
        self.rates = rates
        if before is not None and before != rates:
            said = why if why is not None else phrase(Msg.RATED_AGAIN, table=table)
            if guest is None:
                return News(_info(table, rates, said))
            # the guest it names reads of himself: 'stas is a guest' told stas (s48)
            yours = phrase(Msg.UNRATED_BY_YOU, table=table)
            return News(_info(table, rates, said), guest=(guest, _info(table, rates, yours)))
        if why is not None and came in people and came not in self.guests:
            # a registered newcomer where it is so already (the first one too, at a
            # guest's table): those there knew, he did not
            return News(_info(table, rates, why), came)
        return None


@attrs.frozen
class News:
    info: ev.Info
    seat: int | None = None  # only this seat's person is told; None: every person seated
    # the guest the line names, and his own line in its place ('you are a guest')
    guest: tuple[int, ev.Info] | None = None


def _info(table: int, rates: bool, said: Phrase) -> ev.Info:
    return ev.Info(said.text(), said, (("table", str(table)), ("rated", str(int(rates)))))
