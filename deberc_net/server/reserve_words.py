"""An admin's ``reserve`` line read into its settings words and its ``key=value`` words
(docs/protocol.md §5.5a), each of the latter checked: a slip of the keys (``sead=5``)
or a second ``deals=`` was ignored, and a seat for a name nobody can log in as
(``seats=pa,`` reserved one for the empty name) was reserved, the table forfeiting
at the away limit."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import attrs

from deberc_net.protocol import events as ev

from .accounts import valid_name

RESERVE_KEYS = ("seats", "seed", "deals", "board", "watch")
USAGE = (
    "reserve PLAYERS VARIANT [OPTION ...] seats=A,B[,..] [seed=S] [deals=N] [board=KEY] "
    "[watch=ends]"
)


@attrs.frozen
class ReserveWords:
    plain: tuple[str, ...]  # the table's settings, as 'new' takes them
    keyed: dict[str, str]
    seats: tuple[str, ...]


def reserve_words(args: Sequence[str]) -> ReserveWords | ev.Error:
    """The words of ``reserve``, or the refusal of the first wrong one."""
    keyed: dict[str, str] = {}
    plain: list[str] = []
    for word in args:
        if "=" not in word:
            plain.append(word)
            continue
        key, value = word.split("=", 1)
        if key not in RESERVE_KEYS:
            near = difflib.get_close_matches(key, RESERVE_KEYS, n=1)
            guess = f" ({near[0]}=?)" if near else ""
            return ev.Error(
                "bad-argument",
                f"reserve takes {', '.join(k + '=' for k in RESERVE_KEYS)}: not {key}={guess}",
            )
        if key in keyed:
            return ev.Error("bad-argument", f"{key}= is given twice: give it once")
        if not value:
            return ev.Error("bad-argument", f"{key}= is given no value")
        keyed[key] = value
    if "seats" not in keyed:
        return ev.Error("bad-argument", f"{USAGE}: seats= names the players, seat by seat")
    seats = tuple(keyed["seats"].split(","))
    for name in seats:
        if not valid_name(name):
            shown = repr(name) if name else "an empty name (two commas, or one at an end)"
            return ev.Error(
                "bad-argument",
                f"seats= names {shown}: a name is 2-20 letters, digits, '_' or '-'",
            )
    return ReserveWords(tuple(plain), keyed, seats)
