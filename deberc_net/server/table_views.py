"""What a seat or an observer asks to see of a table, read-only: its state (an ask, or
the view), the last trick, the score sheet and the history, each sent to the session
that asked (the table's task calls them: server/table.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import trio

from deberc_net.game.calls import PLAY
from deberc_net.game.cards import SUITS, card_str, parse_card
from deberc_net.game.record import draws_per_trick, swap_trick
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg, Phrase, phrase
from deberc_net.protocol.render import breaks_deck, pair_rost_owner, tagged_lines

from .ask_line import ask_line

if TYPE_CHECKING:
    from deberc_net.game.deal import Deal
    from deberc_net.game.match import Match

    from .session import Session
    from .table import Table


def pair_answers(match: Match) -> bool:
    """Whether the rost? open now is answered for the pair by the declarer's partner
    (four players, docs/rules.md §8): the others are then shown whom the table waits
    for, the call's own line having named only its asker (a tryout, s46)."""
    deal = match.deal
    pending = deal.pending
    if pending is None or len(match.names) != 4:
        return False
    talk = [(e.seat, e.call.token()) for e in deal.log if e.call.name != PLAY]
    owner = pair_rost_owner((pending.kind, pending.asker, pending.answerer), 4, talk)
    return owner is not None


def history_deals(
    records: Sequence[dict[str, Any]], *, draws_told: bool = True, after: tuple[int, ...] = ()
) -> list[ev.HistoryDeal]:
    """The finished deals of the history, from their records in order: the sums a deal
    left waiting beyond the next one (hanging-separate) are the next record's
    ``hanging_pending_before`` (game/sheet.record_rows), the last one's ``after`` (the
    deal being played's; nothing is known of them once the match is over, when
    nothing follows)."""
    later = [tuple(r.get("hanging_pending_before", ())) for r in records[1:]]
    return [
        history_deal(r, draws_told=draws_told, after=waiting)
        for r, waiting in zip(records, [*later, after][: len(records)], strict=True)
    ]


def history_deal(
    record: dict[str, Any], *, draws_told: bool = True, after: tuple[int, ...] = ()
) -> ev.HistoryDeal:
    """A finished (or void) deal of the history, from its record; a Tertz record's
    break and draws (docs/records.md: public once the deal is over) with it, the draws
    only if ``draws_told`` (not to a ladder board's players, whose records are held);
    ``after``: hanging-separate's sums waiting beyond the next deal (history_deals)."""
    trump = record.get("trump")
    written = record.get("written")
    talon = "draws" in record
    taken = record.get("tricks") or ()
    draws = draws_per_trick(
        [(seat, parse_card(c)) for seat, c in record.get("draws") or ()],
        (len(t["cards"]) for t in taken),
    )
    seats = len(record.get("players") or (taken[0]["cards"] if taken else ()))
    swap = swap_at(
        ((c["seat"], c["call"]) for c in record.get("calls") or ()),
        seats,
        record.get("turned"),
        talon,
    )
    left = record.get("unfinished_trick")
    clock = ev.clock_cards(record)
    tricks = [
        ev.HistoryTrick(
            t["leader"],
            tuple(parse_card(c) for c in t["cards"]),
            t["winner"],
            tuple(drawn) if talon and draws_told else None,
            swap.get(i),
            clock[i],
        )
        for i, (t, drawn) in enumerate(zip(taken, draws, strict=True))
    ]
    unfinished = (
        None
        if left is None
        else ev.UnfinishedTrick(
            left["leader"], tuple(parse_card(c) for c in left["cards"]), clock[len(tricks)]
        )
    )
    return ev.HistoryDeal(
        record["deal_no"],
        record["dealer"],
        SUITS.index(trump) if trump else None,
        record.get("player"),
        record.get("outcome"),
        tuple(written) if written is not None else None,
        tuple(tricks),
        talon,
        record.get("talon_broken"),
        ev.scored_in(record),
        unfinished,
        swap.get(len(tricks)),  # a forfeit after the swap, before the trick was taken
        ev.hung_in(record, len(written or ())),
        record.get("hanging", 0),
        after,
        ev.stake_raised(record),
        any(c.get("auto") and breaks_deck(c["call"]) for c in record.get("calls") or ()),
    )


def history_in_play(deal: Deal) -> ev.HistoryDeal:
    """The deal being played, as its history tells it: the tricks taken so far, and a
    Tertz deal's break and swap (public: the table was told them), not its draws (each
    seat sees its own until the deal is over)."""
    extra = deal.record_extra()
    swap = swap_at(
        ((c.seat, c.call.name) for c in deal.log),
        deal.players,
        card_str(deal.original_turned),
        "talon_broken" in extra,
    )
    done = [(t, t.winner) for t in deal.tricks if t.winner is not None]
    clock = clock_in_deal(deal)
    taken = tuple(
        ev.HistoryTrick(t.leader, tuple(c for _, c in t.cards), won, None, swap.get(i), clock[i])
        for i, (t, won) in enumerate(done)
    )
    # a dave's raised stake, as the table said it ('The deal is now played for 2.')
    stake = int(deal.extra.get("stake", 1)) if deal.rules.settings.stake_in_play else 1
    return ev.HistoryDeal(
        deal.deal_no,
        deal.dealer,
        deal.trump,
        deal.player,
        None,
        None,
        taken,
        "talon_broken" in extra,
        extra.get("talon_broken"),
        stake=stake if stake > 1 else None,
        broken_auto=any(c.auto and breaks_deck(c.call.name) for c in deal.log),
    )


def clock_in_deal(deal: Deal) -> list[tuple[int, ...]]:
    """The deal's tricks taken, then the one being laid, each with the seats whose card
    in it the clock played (``auto=1``): as the history, ``last`` and the web's table
    page mark them (a punished card was laid on no trick)."""
    laid = ((c.seat, c.auto) for c in deal.log if c.call.name == PLAY and c.penalty is None)
    return ev.by_clock(laid, [*(len(t.cards) for t in deal.tricks), len(deal.trick.cards)])


def swap_at(
    calls: Iterable[tuple[int, str]], players: int, turned: str | None, talon: bool
) -> dict[int, tuple[int, int]]:
    """A game with a talon (Tertz): the trick its trump 7 took the turned card in, by
    index, with the seat and the card it took (the turned card as dealt: one swap a
    deal); a game without one says nothing of it in its history (Deberts swaps before
    the first card)."""
    where = swap_trick(calls, players) if talon and turned and players else None
    if where is None or turned is None:
        return {}
    trick, seat = where
    return {trick: (seat, parse_card(turned))}


def send_state(
    table: Table,
    session: Session,
    seat: int | None,
    *,
    whole: bool = False,
    turn_only: bool = False,
) -> None:
    """``session``'s view of the table: ``seat``'s (None: an observer's), its ask if
    the seat is to act; at a table still waiting, what it waits for. ``turn_only``:
    only whose turn it is (a person, after a card at three or four players)."""
    match = table.match
    if match is None:
        session.send(ev.info(table.waits_for()))
        return
    asked = seat is not None and seat == match.to_act and not match.over
    kind = ev.AskKind.ASK if asked else ev.AskKind.STATE
    clock = None
    if seat is not None:  # an open request: the clock left on it
        clock = (
            table.clocks.left_ms(seat, trio.current_time())
            if asked
            else table.clocks.per_seat_ms[seat]
        )
    if seat is not None and session.machine:  # the line straight from the state
        line = ask_line(kind, table.seq, table.id, match, seat, clock, table.kept_talk)
        if asked:
            session.send_asked(line + table.last_timeout_field(seat))
        else:
            session.send_lines([line])
        return
    told: list[ev.ServerEvent] = [
        ev.Ask(table.seq, table.id, view(match, seat), clock, kind, whole, table.words, turn_only)
    ]
    away = players_away(table, seat) if whole and not session.machine else None
    if away is not None:  # (a watcher of several tables too: a read-back, s46)
        told.append(ev.info(away))
    if seat is None and not session.machine and table.watched_alongside(session):
        connection = session.connection  # (its table named on each line, as its events)
        for event in told:
            lines = connection.render(event)
            session.send_lines(tagged_lines(lines, table.id, connection.lang))
        return
    if seat is None and not session.machine and session.remote:  # (its worker tags it)
        for event in told:
            session.send_watched(session.connection.render(event), b"", table.id)
        return
    for event in told:
        session.send(event)


def players_away(table: Table, seat: int | None) -> Phrase | None:
    """For a person shown the table whole ('state', back at his seat, 'observe'): the
    players away from this running match but ``seat``, how long each seat is still held
    and that the clock runs. His view said "Waiting for ann." of an ann gone two minutes
    ago, and only 'tables' told it (a tryout, s46); a program reads the away events."""
    match = table.match
    if match is None or match.over:
        return None
    now = trio.current_time()
    names = tuple(
        phrase(Msg.AWAY_HELD, name=table.seats[s] or "?", seconds=table.clocks.held_s(s, now))
        for s in sorted(table.clocks.away_since)
        if s != seat
    )
    return phrase(Msg.PLAYING_AWAY, names=names) if names else None


def last_taken_this_deal(table: Table) -> ev.LastTrick | None:
    """The last trick this deal has taken; None before the first (or once the match
    is over)."""
    match = table.match
    if match is None or match.over:
        return None
    deal = match.deal
    taken = [i for i, t in enumerate(deal.tricks) if t.winner is not None]
    if not taken:
        return None
    trick = deal.tricks[taken[-1]]
    assert trick.winner is not None
    cards = tuple(c for _, c in trick.cards)
    clock = clock_in_deal(deal)[taken[-1]]
    return ev.LastTrick(
        table.id, deal.deal_no, trick.leader, cards, trick.winner, match.names, clock
    )


def send_last(table: Table, session: Session) -> None:
    """The last trick taken: this deal's, else the last one of the deal before."""
    match = table.match
    if match is None:
        session.send(ev.error("wrong-phase", phrase(Msg.NOT_STARTED)))
        return
    last = last_taken_this_deal(table)
    if last is not None:
        session.send(last)
        return
    # a new deal: the last of an earlier one
    session.send(last_in_records(table.id, match.records, match.names))


def last_in_records(
    table: int, records: Sequence[dict[str, Any]], names: tuple[str, ...]
) -> ev.LastTrick | ev.Error:
    """The last trick taken in the deals ``records`` hold (the latest with one), its
    cards the clock played marked; ``no-trick-yet`` if none was taken."""
    for record in reversed(records):
        if record.get("tricks"):
            told = record["tricks"][-1]
            return ev.LastTrick(
                table,
                record["deal_no"],
                told["leader"],
                tuple(parse_card(c) for c in told["cards"]),
                told["winner"],
                names,
                ev.clock_cards(record)[len(record["tricks"]) - 1],
            )
    return ev.error("wrong-phase", phrase(Msg.NO_TRICK_YET))


def send_sheet(table: Table, session: Session) -> None:
    """The score sheet: every finished deal's written points, bides and totals, as
    the deal ends told fold them (game/sheet.py)."""
    match = table.match
    if match is None:
        session.send(ev.error("wrong-phase", phrase(Msg.NOT_STARTED)))
        return
    session.send(
        ev.Sheet(
            table.id,
            match.names,
            table.sides,
            table.rules.settings.target,
            tuple(table.sheet.rows),
            table.deal_won_on_points,
        )
    )


def send_history(table: Table, session: Session) -> None:
    """The match so far, deal by deal and trick by trick (public: every card of a
    trick taken was shown to the whole table)."""
    match = table.match
    if match is None:
        session.send(ev.error("wrong-phase", phrase(Msg.NOT_STARTED)))
        return
    # a ladder board's records are held from its players until the board's release
    # (docs/protocol.md §5.5a): the draws they alone tell are held with them (an
    # admin watching is sent the records; one seated there is a player like any)
    watcher = table.lobby.is_admin(session) and table.seat_of(session.name or "") is None
    told = table.board is None or watcher
    deal = match.deal
    records = match.records
    in_play = not match.over and (not records or deal.deal_no > records[-1]["deal_no"])
    # the sums the last finished deal left beyond the one being played: that one's
    after = deal.hanging_pending if in_play else ()
    deals = history_deals(records, draws_told=told, after=after)
    if in_play:
        deals.append(history_in_play(deal))
    sides = table.sides
    history = ev.History(
        table.id,
        match.match_id,
        match.names,
        sides,
        tuple(deals),
        table.deal_won_on_points,
        words=table.words,
    )
    session.send(history)
