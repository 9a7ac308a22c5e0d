"""The human style in Russian ('lang ru'): every line a person sees.

A sentence the server sends as a catalogue phrase (protocol.messages) is said in
Russian; a refusal without one, by its code. What still has no Russian words (a rule
plugin's own description) is told as in English, its cards in Cyrillic letters. The
machine style has no language and never comes here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any

from deberc_net.game import calls as C
from deberc_net.game import events as g
from deberc_net.game.cards import SUIT_SYMBOLS, SUITS, Card
from deberc_net.game.deal import SWAP_Q
from deberc_net.game.outcomes import MatchEndReason, Outcome
from deberc_net.game.view import SeatView, offered

from . import events as ev
from .lang import (
    NO_WORDS,
    RU_CLAIMED_WORDS,
    RU_MATCH_REASONS,
    RU_OUTCOMES,
    RU_RANKS,
    Lang,
    ru_call,
    ru_card,
    ru_card_text,
)
from .messages import RU_ERRORS, Msg, Phrase, phrase
from .render import (
    HandOrder,
    Pending,
    Sides,
    _by_side,
    _fit,
    _name,
    _ordered,
    _render,
    and_list,
    announced_lines,
    asked_skin,
    bans_lines,
    bide_side,
    deal_word,
    face_up,
    finger_lines,
    forfeited_before_a_card,
    games_lines,
    hanging_now,
    hangs_later,
    held_for,
    history_lines,
    hung_lines,
    invited_lines,
    is_void,
    mutes_lines,
    names_higher,
    order_sides,
    pair_rost_owner,
    played_tricks,
    prompt_calls,
    rematch_lines,
    rost_owner,
    round_two_line,
    rule_calls_out_of_turn,
    said_lines,
    said_so_far,
    scored_lines,
    sentence,
    sheet_lines,
    skin_too,
    split_count_line,
    tables_lines,
    top_lines,
    void_line,
    who_lines,
)


def _said(said: Phrase | None, text: str) -> str:
    return text if said is None else said.text(Lang.RU)


def render_ru(event: ev.ServerEvent, order: HandOrder = HandOrder.RANK) -> list[str]:
    """The human lines that tell ``event`` in Russian."""
    match event:
        case ev.Error():
            text = RU_ERRORS.get(event.code, event.human or event.text)
            refused = f"Ошибка ({event.code}): {_said(event.said, text)}"
            if event.hint is not None:
                refused = f"{sentence(refused)} Может быть, «{ru_call(event.hint, event.words)}»?"
            elif event.command is not None:
                refused = f"{sentence(refused)} Может быть, {event.meant or event.command}?"
            lines = [refused]
        case ev.Ok() | ev.Info() | ev.Bye():
            lines = [_said(event.said, event.text)]
        case ev.TextBlock():
            lines = list(event.ru if event.ru is not None else event.lines)
        case ev.Who():
            lines = who_lines(event, Lang.RU)
        case ev.Tables():
            lines = tables_lines(event, Lang.RU)
        case ev.Said():
            lines = said_lines(event, Lang.RU)
        case ev.Announced():
            lines = announced_lines(event, Lang.RU)
        case ev.Bans():
            lines = bans_lines(event, Lang.RU)
        case ev.Mutes():
            lines = mutes_lines(event, Lang.RU)
        case ev.Games():
            lines = games_lines(event, Lang.RU)
        case ev.Sheet():
            lines = sheet_lines(event, Lang.RU)
        case ev.Invited():
            lines = invited_lines(event, Lang.RU)
        case ev.Rematch():
            lines = rematch_lines(event, Lang.RU)
        case ev.History():
            lines = history_lines(event, Lang.RU)
        case ev.Top():
            lines = top_lines(event, Lang.RU)
        case ev.Finger():
            lines = finger_lines(event, Lang.RU)
        case ev.TableEvent():
            told = event.event
            if event.deal_won_on_points and type(told) is g.DealEnded:
                how = deal_word(told.outcome, told.written, event.names, True, Lang.RU)
                scored = scored_lines(ev.scored_in(told.record), event.names, Lang.RU, event.words)
                hung = hung_lines(told, event.names, Lang.RU)
                lines = [_deal_end_line(told, event.names, how), *scored, *hung]
            elif event.face_up is not None and type(told) is g.CallMade:  # a swap
                lines = _call_in(told, event.names, event.words, event.face_up)
            elif event.shown_now is not None and type(told) is g.Shown:  # as in English
                now, added = ru_cards(event.shown_now), ru_cards(told.cards)
                lines = [f"{event.names[told.seat]} показывает: {added} (теперь открыты: {now})"]
            elif event.round_two is not None and type(told) is g.CallMade:  # as in English
                said = _call_in(told, event.names, event.words)
                lines = [*said, round_two_line(event.round_two, Lang.RU)]
            elif event.stake is not None and type(told) is g.CallMade:  # as in English
                said = _call_in(told, event.names, event.words)
                lines = [*said, phrase(Msg.STAKE_NOW, stake=event.stake).text(Lang.RU)]
            elif event.words and type(told) in _SPOKEN:  # said in the table's own words
                lines = _SPOKEN[type(told)](told, event.names, event.words)
            else:
                lines = _human(told, event.names, event.sides) or _render(event, False, order)
        case ev.Ask():
            lines = _ask(event, order)
        case ev.LastTrick():
            lines = _last(event)
        case ev.DealRecord():
            lines = _record(event.record)
        case _:
            lines = _render(event, False, order)
    return _fit(ru_card_text(text) for text in lines)


def ru_cards(cards: Iterable[Card]) -> str:
    return " ".join(ru_card(c) for c in cards)


def ru_hand(cards: Iterable[Card], order: HandOrder) -> str:
    """'♠ 7 9 В  ♥ 10 Т': the hand by suit, in ``order``."""
    groups: dict[int, list[str]] = {}
    for c in _ordered(cards, order):
        groups.setdefault(c >> 3, []).append(RU_RANKS[c & 7])
    return "  ".join(SUIT_SYMBOLS[SUITS[s]] + " " + " ".join(r) for s, r in groups.items())


def _suit(s: int) -> str:
    return SUIT_SYMBOLS[SUITS[s]]


def _clock(auto: bool) -> str:
    return " (по часам)" if auto else ""


Names = tuple[str, ...]


@functools.singledispatch
def _human(event: object, n: Names, sides: Sides) -> list[str]:
    return []  # told as in English (its cards in Cyrillic)


@_human.register
def _call(e: g.CallMade, n: Names, sides: Sides) -> list[str]:
    return _call_in(e, n)


def _call_in(
    e: g.CallMade, n: Names, words: Mapping[str, str] = NO_WORDS, face_up: Card | None = None
) -> list[str]:
    said = f"{n[e.seat]}: {ru_call(e.call.token(), words)}{_clock(e.auto)}"
    if e.call.name == C.MENYAYU:  # as in English: what lies face up now
        seven = "козырная семёрка" if face_up is None else ru_card(face_up)
        said += f" — берёт открытую карту, теперь открыта {seven}."
    return [said]


@_human.register
def _card(e: g.CardPlayed, n: Names, sides: Sides) -> list[str]:
    return [f"{n[e.seat]} ходит {ru_card(e.card)}{_clock(e.auto)}"]


@_human.register
def _penalty(e: g.Penalized, n: Names, sides: Sides) -> list[str]:
    return _penalty_in(e, n)


def _penalty_in(e: g.Penalized, n: Names, words: Mapping[str, str] = NO_WORDS) -> list[str]:
    why = RU_ERRORS.get(e.code, e.code)
    return [f"{n[e.seat]} штрафуется за «{ru_call(e.call.token(), words)}» ({why})."]


@_human.register
def _dealt(e: g.Dealt, n: Names, sides: Sides) -> list[str]:
    fresa = "" if e.fresa is None else f" Фреза: {ru_card(e.fresa)}."
    return [f"Последние карты розданы.{fresa}"]


@_human.register
def _order(e: g.Ordered, n: Names, sides: Sides) -> list[str]:
    first = " (открытая масть)" if e.first else ""
    fresa = "" if e.fresa is None else f" Фреза: {ru_card(e.fresa)}."
    partners, others = order_sides(e.player, n, sides)
    # («, партнёр — Гена», not «в паре с Гена»: a name is not declined, so never after a
    # preposition that asks for another case)
    word = "партнёр" if len(partners) == 1 else "партнёры"
    partner = f", {word} — {' и '.join(partners)}" if partners else ""
    # («boris вистует», «вистуют boris и vera»: the verb before a list, as said)
    whistle = f"{others[0]} вистует" if len(others) == 1 else f"вистуют {' и '.join(others)}"
    return [f"{n[e.player]} играет в {_suit(e.trump)}{first}{partner}; {whistle}.{fresa}"]


@_human.register
def _trick(e: g.TrickTaken, n: Names, sides: Sides) -> list[str]:
    return [f"{n[e.winner]} берёт взятку ({ru_cards(e.cards)})."]


@_human.register
def _shown(e: g.Shown, n: Names, sides: Sides) -> list[str]:
    return [f"{n[e.seat]} показывает: {ru_cards(e.cards)}"]


@_human.register
def _start(e: g.MatchStarted, n: Names, sides: Sides) -> list[str]:
    # a dash, not «против»: after it a name would need its genitive («против Богдана»),
    # which a name as typed cannot take
    if any(len(side) > 1 for side in sides):
        pairs = [and_list([n[s] for s in side], Lang.RU) for side in sides]
        return [f"Партия начинается: {' — '.join(pairs)} (партнёры сидят напротив)."]
    if len(n) > 2:  # as in English
        return [f"Партия начинается: {and_list(n, Lang.RU)}, каждый сам за себя."]
    return [f"Партия начинается: {' — '.join(n)}."]


@_human.register
def _deal(e: g.DealStarted, n: Names, sides: Sides) -> list[str]:
    hang = hanging_now(e.hanging, e.pending, Lang.RU)
    trump = "" if e.trump is None else f": козырь {SUIT_SYMBOLS[SUITS[e.trump]]}"  # (Tertz)
    return [
        f"Раздача {e.deal}. {n[e.dealer]} сдаёт и открывает {ru_card(e.turned)}{trump}. "
        f"Счёт: {_by_side(n, e.score)}.{hang}"
    ]


@_human.register
def _deal_end(e: g.DealEnded, n: Names, sides: Sides) -> list[str]:
    return _deal_end_in(e, n)


def _deal_end_in(e: g.DealEnded, n: Names, words: Mapping[str, str] = NO_WORDS) -> list[str]:
    scored = scored_lines(ev.scored_in(e.record), n, Lang.RU, words)
    bide = bide_side(e, n)  # «байд у игрока anna», as a club says it
    if bide is None:
        how = RU_OUTCOMES.get(e.outcome, e.outcome)
    elif e.outcome == Outcome.HANGING:  # the sources' «висячий байд» (docs/rules.md §5)
        how = f"висячий байд {_at(bide)}, висит {e.hanging}"
        how += hangs_later(e.pending, Lang.RU)  # (hanging-separate: the first sum only)
    else:
        how = f"байд {_at(bide)}"
    counted = split_count_line(e, n, Lang.RU)
    return [_deal_end_line(e, n, how), *counted, *scored, *hung_lines(e, n, Lang.RU)]


# the events that say a call (or a combination named as one), told in a table's own
# words (TableEvent.words) when it has any: the rest say none
_SPOKEN: dict[type, Callable[[Any, Names, Mapping[str, str]], list[str]]] = {
    g.CallMade: _call_in,
    g.Penalized: _penalty_in,
    g.DealEnded: _deal_end_in,
}


def _deal_end_line(e: g.DealEnded, n: Names, how: str) -> str:
    """«Раздача 1: сыграна. Очки: …»: ``how`` says how it ended (render.deal_word)."""
    if e.outcome == Outcome.VOID:
        return void_line(e, n, Lang.RU)
    pts = _by_side(n, e.points or [])
    tot = _by_side(n, e.totals)
    if e.written is not None and e.points is not None and list(e.written) == list(e.points):
        # ('сыграна … как сыграно' said it twice); Tertz: a round count (render.py)
        written = " — округлять нечего" if e.outcome == Outcome.SPLIT else " — так и записаны"
    else:
        written = f". Записано: {_by_side(n, e.written or []) or '-'}"
    return f"Раздача {e.deal}: {how}. Очки: {pts or '-'}{written}. Итого: {tot}."


@_human.register
def _match_end(e: g.MatchEnded, n: Names, sides: Sides) -> list[str]:
    tot = _by_side(n, e.totals)
    reason = RU_MATCH_REASONS.get(e.reason, e.reason)
    if e.reason == MatchEndReason.INTERNAL:  # nobody wins, nor draws (docs/protocol.md §9.7)
        return [f"Партия окончена без результата: {reason}. Итого: {tot}."]
    # its replay's id ('games'), by the one word for a match, the card table's
    named = "" if e.match is None else f" Партия {e.match}."
    if not e.winners:
        return [f"Партия окончена: ничья ({reason}). Итого: {tot}.{named}"]
    verb = "выигрывают" if len(e.winners) > 1 else "выигрывает"
    if e.forfeit is not None and e.reason in RU_FORFEITS:  # who lost it (render.py)
        reason = RU_FORFEITS[e.reason].format(who=n[e.forfeit])
    if e.claimed:  # a seat's «конец», not the server's claim (docs/rules.md §10)
        reason = RU_CLAIMED_WORDS
    return [f"Партия окончена: {' и '.join(e.winners)} {verb} ({reason}). Итого: {tot}.{named}"]


def _at(side: str) -> str:
    """«у игрока anna», «у пары anna+olga»: a name after «у» is not declined («у Вася»
    is wrong Russian, «у Васи» cannot be made of any name), so it follows a noun that is."""
    return f"у пары {side}" if "+" in side else f"у игрока {side}"


# a forfeit's words naming who lost it, in forms that fit any player («у игрока NAME»:
# a name is not declined, _at)
RU_FORFEITS = {
    "left": "{who} покидает стол: поражение",
    "timeouts": "у игрока {who} вышло время: поражение",
    "away": "{who} отсутствует слишком долго: поражение",
}


_human.register(ev.Seated, lambda e, n, sides: [f"{e.name} садится на место {e.seat}."])


@_human.register
def _left(e: ev.Left, n: Names, sides: Sides) -> list[str]:
    if e.away_too_long:
        return [f"{e.name}: слишком долго нет связи; место {e.seat} свободно для другого игрока."]
    return [f"{e.name} уходит с места {e.seat}."]


_human.register(ev.WentAway, lambda e, n, sides: [_went_away(e)])
# said of anyone, man or woman («отключился», «вернулся» were a man's)
_human.register(ev.CameBack, lambda e, n, sides: [f"{e.name} снова на связи."])


def _went_away(e: ev.WentAway) -> str:
    held = "" if e.held_s is None else f" {held_for(e.held_s, Lang.RU)}"  # «ждёт 2 мин»
    clock = ", часы идут" if e.clock_runs else ""  # (a waiting table has none)
    return f"{e.name}: связь потеряна; место ждёт{held}{clock}."


@_human.register
def _watching(e: ev.Watching, n: Names, sides: Sides) -> list[str]:
    now = f"зрителей: {e.observers}" if e.observers else "зрителей нет"
    verb = "смотрит за столом" if e.watching else "больше не смотрит"
    return [f"{e.name} {verb} ({now})."]


def _ask(e: ev.Ask, order: HandOrder) -> list[str]:
    v = e.view
    n = v.names
    if e.turn_only:
        return _waiting(v, e.words)
    out = []
    if e.whole:
        out.append(
            f"Стол {e.table}, раздача {v.deal_no}. Сдаёт: {n[v.dealer]}. "
            f"Счёт: {_by_side(n, v.totals)}."
            + hanging_now(v.hanging, v.hanging_after, Lang.RU)
            + ("" if v.stake is None else f" Ставка: {v.stake}.")  # as in English
        )
        if v.trump is not None:
            out.append(
                f"Козырь: {_suit(v.trump)}"
                + ("." if v.player is None else f" (играет {_name(n, v.player)}).")  # Tertz: no bid
                + (f" Открыта: {ru_card(turned)}." if (turned := face_up(v)) is not None else "")
                + (f" Фреза: {ru_card(v.fresa)}." if v.fresa is not None else "")
            )
        elif v.turned is not None:
            out.append(
                f"Открытая карта: {ru_card(v.turned)}, козырь первого круга — "
                f"{_suit(v.turned >> 3)}. Круг торговли {v.bid_round}."
            )
        out += said_so_far(v, Lang.RU, e.words)
        if v.trick:
            out.append("Взятка: " + ", ".join(f"{n[s]} {ru_card(c)}" for s, c in v.trick))
    if v.hand:
        out.append(f"Ваши карты: {ru_hand(v.hand, order)}")
    out.extend(_game_line(name, value) for name, value in v.game if value is not None)
    if v.pending is not None:
        out.append(
            _question(
                *v.pending,
                n,
                v.seat,
                e.words,
                rost_owner(v),
                names_higher(v),
                skin_too(v),
                v.stake,
            )
        )
    if e.kind == ev.AskKind.ASK and v.legal:
        words = e.words
        say = ru_call if not words else partial(ru_call, words=words)
        if v.declares is not None:  # as in English
            call, classes = v.declares
            out.append(
                f"«{say(call)}» объявит все ваши необъявленные комбинации: "
                f"{', '.join(say(c) for c in classes)}."
            )
        options = " | ".join(prompt_calls(offered(v), v.hand, order, say))
        clock = f" [{e.clock_ms // 1000} с]" if e.clock_ms is not None else ""
        out.append(f"Ваш ход{clock}: {options}")
    else:
        out += _waiting(v, e.words)
    return out


def _waiting(v: SeatView, words: Mapping[str, str]) -> list[str]:
    """Whom the table waits for, to a seat not to act or a watcher (as in English)."""
    if v.to_act is None or v.seat == v.to_act:
        return []
    out = [f"Ход игрока {v.names[v.to_act]}."]  # (not «Ждём Гена»: a name as written)
    if C.SEVENS in v.legal:  # as in English
        out.append(phrase(Msg.SEVENS_NOW, call=ru_call(C.SEVENS, words)).text(Lang.RU))
    if own := rule_calls_out_of_turn(v):
        calls = " или ".join(f"«{ru_call(token, words)}»" for token in own)
        out.append(phrase(Msg.OWN_CALLS_NOW, calls=calls).text(Lang.RU))
    return out


_GAME_FIELDS = {"talon": "В колоде", "their_tricks": "Взятки соперника"}  # Tertz's


def _game_line(name: str, value: Any) -> str:
    """A whole new game's own view field (Tertz: "В колоде: 12")."""
    if isinstance(value, tuple):
        value = " ".join(ru_card(c) for c in value) if value else "нет"
    return f"{_GAME_FIELDS.get(name, name)}: {value}"


def question_ru(
    pending: Pending,
    names: Sequence[str],
    me: int | None,
    talk: Sequence[tuple[int, str]],
    words: Mapping[str, str] = NO_WORDS,
    legal: Sequence[str] = (),
    stake: int | None = None,
) -> str:
    """``render.question`` in Russian, in the table's ``words`` (Tertz's «от чего?»)."""
    owner = pair_rost_owner(pending, len(names), talk)
    skin = asked_skin(pending, me, legal)
    return _question(*pending, names, me, words, owner, skin=skin, stake=stake)


def _question(
    kind: str,
    asker: int,
    answerer: int,
    n: Sequence[str],
    me: int | None = None,
    words: Mapping[str, str] = NO_WORDS,
    owner: int | None = None,
    higher: bool = True,
    skin: bool = False,
    stake: int | None = None,
) -> str:
    """The open question of the table talk, as a Russian player would say it; to ``me``
    (the seat it is told to) about himself on «вы». ``owner``: as in English, the
    partner whose declaration a rost? asks about when the answerer answers for the pair;
    ``higher``, ``skin``, ``stake``: as in English."""
    a, b = n[asker], n[answerer]
    you_ask, you_answer = asker == me, answerer == me
    if kind == "rost" and owner is not None:  # the partner answers for the pair
        said = ru_call(C.ROST, words)
        asks = "Вы спрашиваете" if you_ask else f"{a} спрашивает"
        whom = "вас" if owner == me else f"игрока {n[owner]}"
        if you_answer:
            answer = "вы отвечаете за пару своей комбинацией: назовите её старшую карту"
        else:
            answer = f"за пару отвечает {b} своей комбинацией и называет её старшую карту"
        return f"{asks} {whom}, от какой карты комбинация («{said}»): {answer}."
    if kind == SWAP_Q:
        who = "вы" if you_answer else b
        return f"Каждый по очереди может обменять козырную семёрку на открытую карту: {who}."
    if kind == "rost":
        said = ru_call(C.ROST, words)  # (Tertz's «от чего?»)
        if you_answer:
            return f"{a} спрашивает вас, от какой карты комбинация («{said}»): назовите старшую."
        asks = "Вы спрашиваете" if you_ask else f"{a} спрашивает"
        return f"{asks} игрока {b}, от какой карты комбинация («{said}»): {b} называет старшую."
    if kind == "rost-reply":
        if you_ask and not higher:  # only «пишет» is legal (docs/rules.md §3, §9)
            return "Вы услышали старшую карту: ваша не старше, скажите «пишет»."
        if you_ask:
            return "Вы услышали старшую карту: скажите «пишет» или назовите свою, если она старше."
        return f"Старшая карта названа: {a} говорит «пишет» или называет старше."
    if kind == "show":
        if you_answer:
            first = f" или велите игроку {a} сначала сходить («скинь»)" if skin else ""
            return f"{a} просит вас показать комбинацию («покажи»): покажите её{first}."
        asks = "Вы просите" if you_ask else f"{a} просит"
        return f"{asks} игрока {b} показать комбинацию («покажи»): {b} показывает."
    if kind == "prokhodit":
        asks = "Вы спрашиваете" if you_ask else f"{a} спрашивает"
        answers = "ответьте" if you_answer else f"{b} отвечает"
        return f"{asks}, проходит ли козырная комбинация («проходит?»): {answers}."
    if kind == "lomayu":  # терц: проигравший первую взятку ломает колоду
        breaks = "Вы ломаете" if you_answer else f"{b} ломает"
        return f"{breaks} колоду («ломаю N»): N карт сверху колоды уходят под низ."
    # the shipped options' own questions (house/short.py, house/poltinniki.py): said as
    # what they are, not «спрашивает «offer?»» (a tryout)
    if kind == "dave":
        said = "Вы сказали" if you_ask else f"{a} говорит"
        at = "эту ставку" if stake is None else f"ставку {stake}"  # as in English
        if you_answer:
            answer = f"сдайтесь за {at} («сдаюсь») или играйте на следующую («принимаю»)"
        else:
            given = "" if stake is None else f" за ставку {stake}"
            answer = f"{b} сдаётся{given} («сдаюсь») или играет на следующую ставку («принимаю»)"
        return f"{said} «даве»: {answer}."
    if kind == "offer?":
        to = "вам" if you_ask else f"игроку {a}"
        may = "Вы можете" if you_answer else f"{b} может"
        return f"{may} предложить {to} 50 очков без игры («предлагаю») или играть («играем»)."
    if kind == "offer":
        offers = "Вы предлагаете" if you_ask else f"{a} предлагает"
        answers = "ответьте" if you_answer else f"{b} отвечает"
        to = "вам" if you_answer else f"игроку {b}"
        return f"{offers} {to} 50 очков без игры: {answers} «принимаю» или «играем»."
    asks = "Вы спрашиваете" if you_ask else f"{a} спрашивает"
    answers = "ответьте" if you_answer else f"{b} отвечает"
    return f"{asks} «{ru_call(kind, words)}»: {answers}."


def _last(e: ev.LastTrick) -> list[str]:
    n = e.names
    laid = []
    seat = e.leader
    for card in e.cards:
        laid.append(f"{n[seat]} {ru_card(card)}{_clock(seat in e.by_clock)}")
        seat = (seat + 1) % len(n)
    return [
        f"Последняя взятка (раздача {e.deal}): первый ход — {n[e.leader]}; "
        f"{', '.join(laid)}; взятку берёт {n[e.winner]}."
    ]


def _record(record: dict[str, Any]) -> list[str]:
    """The deal's play trick by trick: who led, the cards in order, who took it."""
    if is_void(record):  # its end line said why and that it is dealt again: nothing to add
        return []
    names = record["players"]
    tricks = played_tricks(record)
    stopped = forfeited_before_a_card(record)
    if stopped is not None:  # no deal in full to show: what stopped it, and whose doing
        reason, seat = stopped
        # (a record that names no seat: the reason in Russian, as a match's end says it)
        unnamed = f"поражение ({RU_MATCH_REASONS.get(reason, reason)})"
        words = unnamed if seat is None else RU_FORFEITS[reason].format(who=names[seat])
        return [f"Раздача {record['deal_no']} прервана до первой карты: {words}."]
    none = "" if tricks else " ни одной карты не сыграно."
    out = [f"Раздача {record['deal_no']} полностью:{none}"]
    clock = ev.clock_cards(record)  # a card the clock played says so, as it was told
    for number, (trick, auto) in enumerate(zip(tricks, clock, strict=True), 1):
        seat = trick["leader"]
        laid = []
        for text in trick["cards"]:
            laid.append(f"{names[seat]} {ru_call(text)}{_clock(seat in auto)}")
            seat = (seat + 1) % len(names)
        taker = trick.get("winner")
        took = f" → {names[taker]}" if isinstance(taker, int) else " (не доиграна)"
        out.append(f"  взятка {number}: {', '.join(laid)}{took}")
    return out
