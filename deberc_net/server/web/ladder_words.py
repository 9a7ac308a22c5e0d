"""A ladder run's stored lines read back into the page's language (docs/web.md,
"Languages"): a bot's first fault, as the client library words it (clients/client.py,
``Bot._faulted``), and the clock's first call for it, as the count words it
(ladder/clock_calls.py). A run stores them in English, once, as its report says them;
a Russian page reads each back by its known form and says it in Russian, as the live
page reads a table's closing words back. A line of no known form (a bot's own words,
said on its standard error) stays as it came."""

from __future__ import annotations

import re
from collections.abc import Callable

from deberc_net.protocol.lang import ru_call

# ladder/clock_calls.py: 'match m361 deal 1: play Jh', 'match m1 deal 2: pas'
_CLOCK_CALL = re.compile(
    r"match (?P<match>\S+) deal (?P<deal>\S+): (?:play (?P<card>\S+)|(?P<call>\S+))"
)
# clients/client.py, Bot._raised, _checked, _pick and _answer
_RAISED = re.compile(
    r"(?P<what>choose|pick|on_event|on_board) raised (?P<exc>.+?)(?: at (?P<where>\S+:\d+))?"
)
_NOT_LEGAL = re.compile(r"(?P<what>choose|pick) answered (?P<choice>.+), not a legal call")
_TOOK_LONG = re.compile(
    r"choose took longer than its (?P<budget>\S+) s \(the request's clock=(?P<clock>\S+) ms"
    r" less (?P<margin>\S+) s\)"
)


def ru_clock_call(told: str) -> str:
    """'match m1 deal 1: play Jh' as «партия m1, раздача 1: ход В♥»."""
    m = _CLOCK_CALL.fullmatch(told)
    if m is None:
        return told
    call = f"ход {ru_call(m['card'])}" if m["card"] is not None else ru_call(m["call"])
    return f"партия {m['match']}, раздача {m['deal']}: {call}"


def _raised(m: re.Match[str]) -> str:
    where = "" if m["where"] is None else f" в {m['where']}"
    return f"{m['what']} подняла исключение {m['exc']}{where}"


def _not_legal(m: re.Match[str]) -> str:
    return f"{m['what']} ответила {m['choice']}, а это недопустимый ход"


def _took_long(m: re.Match[str]) -> str:
    return (
        f"choose думала дольше отведённых ей {m['budget']} с (часы запроса"
        f" clock={m['clock']} мс минус {m['margin']} с)"
    )


# the first that matches (a repr that holds ' answered …' is still an exception's)
_FAULTS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (_TOOK_LONG, _took_long),
    (_RAISED, _raised),
    (_NOT_LEGAL, _not_legal),
)


def ru_first_fault(told: str) -> str:
    """A bot's first fault as the client library said it, in Russian: 'pick raised
    RuntimeError('x') at bot.py:8' as «pick подняла исключение RuntimeError('x') в
    bot.py:8»; a bot's own words as they came."""
    for form, say in _FAULTS:
        m = form.fullmatch(told)
        if m is not None:
            return say(m)
    return told
