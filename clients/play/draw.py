"""The table state as text for the screen's panes: pure functions of a ``TableState``.

Cards read as players read them (``10♥``), the hand in rank order 7 8 9 10 J Q K A grouped
by suit, so runs (terts, fifty) show at a glance. Every line fits the panes of an 80×24
terminal.
"""

from __future__ import annotations

from .cards import RANKS, SUITS, SYMBOL, card, suit
from .state import TableState

NAME_WIDTH = 7
DEAL_ROWS = 5  # deals listed in the score pane (the totals cover the rest)


def rank_order(hand: tuple[str, ...] | list[str]) -> list[list[str]]:
    """The hand grouped by suit (♠ ♥ ♦ ♣), each group in rank order 7 … A."""
    groups: list[list[str]] = []
    for s in SUITS:
        group = [c for c in hand if c[-1:] == s and c[:-1] in RANKS]
        if group:
            groups.append(sorted(group, key=lambda c: RANKS.index(c[:-1])))
    return groups


def hand_text(state: TableState) -> str:
    groups = rank_order(state.hand)
    if not groups:
        return "Hand:   -"
    parts = []
    for group in groups:
        mark = "*" if group[0][-1] == state.trump else ""
        parts.append(SYMBOL[group[0][-1]] + mark + " " + " ".join(c[:-1] for c in group))
    return "Hand:   " + "   ".join(parts)


def _laid(state: TableState, cards: tuple[tuple[int, str], ...]) -> str:
    return (
        "  ".join(f"{state.who(seat)} {card(c)}" if seat >= 0 else card(c) for seat, c in cards)
        or "-"
    )


def clock_text(remaining_ms: int | None) -> str:
    if remaining_ms is None:
        return ""
    return f"{max(0, remaining_ms) // 1000} s"


def turn_text(state: TableState, remaining_ms: int | None) -> str:
    if state.result is not None:
        return state.result
    if state.asking:
        return f"Turn:   YOU ({state.who(state.seat)}), {clock_text(remaining_ms)} left"
    if state.to_act is None:
        return "Turn:   -"
    return f"Turn:   {state.who(state.to_act)}"


def table_text(state: TableState, remaining_ms: int | None = None) -> str:
    """The table pane: who sits, the turned card and fresa, the trick, whose turn."""
    if state.table is None:
        return "\n".join(
            [
                "In the lobby." if state.name else "Not logged in: 'login NAME'.",
                "'seek 2' waits for a game; 'new 2 moscow to-301'",
                "opens a table; 'tables' lists them, 'sit N' sits.",
            ]
        )
    seats = (
        " v ".join(f"{state.who(i)}{'*' if i == state.seat else ''}" for i in range(state.seats))
        or "(waiting)"
    )
    trump = "-"
    if state.trump is not None:
        trump = f"{suit(state.trump)} ({state.who(state.player)} plays)"
    talk = ", ".join(f"{state.who(s)} {t}" for s, t in state.talk[-4:]) or "-"
    return "\n".join(
        [
            f"Table {state.table}, deal {state.deal or '-'}: {seats}",
            f"Dealer: {state.who(state.dealer)}   Target: {state.target or '-'}",
            f"Turned: {card(state.turned)}   Fresa: {card(state.fresa)}   Trump: {trump}",
            f"Talk:   {talk}",
            f"Trick:  {_laid(state, state.trick)}",
            f"Last:   {_laid(state, state.last_trick)}",
            turn_text(state, remaining_ms),
        ]
    )


def legal_text(state: TableState) -> str:
    if not state.asking:
        return ""
    return "Your call: " + " | ".join(state.legal)


def _side_names(state: TableState) -> list[str]:
    sides = len(state.score) or (2 if state.seats == 4 else state.seats)
    if state.seats == 4:
        return [f"{state.who(i)[:3]}+{state.who(i + 2)[:3]}" for i in range(2)]
    return [state.who(i) for i in range(sides)]


def score_text(state: TableState) -> str:
    """The running score: written points per deal (from ``deal-end``) and the totals."""
    names = _side_names(state)
    if not names:
        return "Score\n-"
    head = "Deal " + "".join(f"{n[: NAME_WIDTH - 1]:>{NAME_WIDTH}}" for n in names)
    rows = ["Score", head]
    for row in state.deals[-DEAL_ROWS:]:
        mark = row.outcome[:1] if row.outcome != "made" else " "
        rows.append(f"{row.deal:>3}{mark} " + "".join(f"{w:>{NAME_WIDTH}}" for w in row.written))
    totals = state.score or (0,) * len(names)
    rows.append("Tot  " + "".join(f"{t:>{NAME_WIDTH}}" for t in totals))
    if state.tricks and state.phase == "play":
        rows.append("Trk  " + "".join(f"{t:>{NAME_WIDTH}}" for t in state.tricks))
    return "\n".join(rows)


def status_text(state: TableState, address: str) -> str:
    who = state.name or "not logged in"
    token = f"  token {state.token}" if state.token else ""
    return f"deberc-net {address}  {who}{token}"
