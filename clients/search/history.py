"""What a seat has seen of the current deal, collected from the server's events.

The ``ask`` line carries the seat's view but not the order in which calls and cards
came; replaying the deal through the engine needs that order, so the bot keeps every
``call`` and ``play`` event of the deal, and the rules of its table.
"""

from __future__ import annotations

import attrs

from clients.protocol import Event, Record, View
from deberc_net.game.cards import RANKS

Item = Event | View | Record


@attrs.define
class DealHistory:
    """The public calls of one deal in order, as ``(seat, token)``; cards included."""

    table: int
    deal: int
    dealer: int
    turned: str  # the card turned at the deal (before any seven swap)
    calls: list[tuple[int, str]] = attrs.Factory(list)


@attrs.define
class TableRules:
    """The rules a table plays by, as far as the seat can tell."""

    players: int = 2
    variant: str = "moscow"
    options: tuple[str, ...] = ()
    known: bool = False  # told by the server (seek reply or a record), not assumed


def rules_from_seek(seek: str) -> TableRules:
    """The rules named by a ``--seek`` argument (``2 kharkov to-301``); ``reserved``
    tells nothing, so the defaults stand until the server says more."""
    words = seek.split()
    out = TableRules()
    if words and words[0].isdigit():
        out.players = int(words.pop(0))
    if words and words[0] in ("moscow", "kharkov", "tertz"):
        out.variant = words.pop(0)
    if words and words != ["reserved"]:
        out.options = tuple(words)
    return out


@attrs.define
class Tracker:
    """Feeds on every line the client parses (``Bot.on_event``)."""

    rules: TableRules = attrs.Factory(TableRules)
    deals: dict[int, DealHistory] = attrs.Factory(dict)  # by table
    # seated at a ladder board ('ok cmd=sit … board=KEY'): a match of one deal
    one_deal: bool = False

    def __call__(self, item: Item) -> None:
        if isinstance(item, Record):
            rec = item.record
            self.rules = TableRules(
                players=len(rec.get("players", [])) or self.rules.players,
                variant=str(rec.get("variant", self.rules.variant)),
                options=tuple(rec.get("options", [])),
                known=True,
            )
            return
        if isinstance(item, View):
            return
        f = item.fields
        if item.tag == "ok" and f.get("cmd") == "sit":
            self.one_deal = "board" in f
            return
        if item.tag == "ok" and f.get("cmd") == "seek" and "players" in f:
            self.rules = TableRules(
                int(f["players"]),
                f.get("variant", "moscow"),
                tuple(o for o in f.get("options", "").split(",") if o),
                known=True,
            )
            return
        if item.tag != "event" or item.table is None:
            return
        kind = item.kind
        if kind == "start":
            self.rules.players = len(item.get_list("players")) or self.rules.players
        elif kind == "deal":
            self.deals[item.table] = DealHistory(
                item.table,
                item.get_int("deal") or 0,
                item.get_int("dealer") or 0,
                item.fields.get("turned", ""),
            )
        elif kind in ("call", "play"):
            deal = self.deals.get(item.table)
            seat = item.get_int("seat")
            token = f.get("call") if kind == "call" else f.get("card")
            if deal is not None and seat is not None and token:
                deal.calls.append((seat, token))

    def history(self, view: View) -> DealHistory | None:
        """The history of the deal ``view`` is about, if complete."""
        deal = self.deals.get(view.table)
        if deal is None or deal.deal != view.deal:
            return None
        talk = [f"{s}:{t}" for s, t in deal.calls if not is_card(t)]
        # a copy: events may arrive while the bot thinks in its worker thread
        return attrs.evolve(deal, calls=list(deal.calls)) if talk == view.talk else None


def is_card(token: str) -> bool:
    """A card (``10h``, ``Js``) rather than a call: no call token starts with a rank."""
    return token[:-1] in RANKS
