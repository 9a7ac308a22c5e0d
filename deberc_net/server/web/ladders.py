"""Ladder results for the pages, read through the ladder store from the database (SQLite
file or PostgreSQL) a ladder run with ``--db`` shares with the server."""

from __future__ import annotations

import functools
from typing import Any

import attrs

from deberc_net.ladder.results import count_pairs
from deberc_net.ladder.schedule import set_size
from deberc_net.ladder.stats import PairStats
from deberc_net.ladder.store import RunRow, open_ladder_store
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import MESSAGES, Msg

from .kept import Kept
from .paging import Paged, paged
from .plot import Rule, Series, line_chart
from .words import W, said

LARGEST_ID = 2**63 - 1  # a run id is a 64-bit integer in either database
ELO_LIMIT = 800.0  # a pair with no loss yet has infinite Elo: the plot stops at ±800
GAMES_PAGE = 100  # a run's games a page lists (docs/web.md: ?page=N)


@attrs.frozen
class LadderRun:
    id: int
    started: str
    summary: dict[str, Any] | None  # the run's report (None while it runs or if it broke)
    games: list[dict[str, Any]]  # board, seating, match_id, written, reason, forfeit
    # why a distributed run stopped before its report (failed, cancelled: never counted)
    stopped: str | None = None


@attrs.frozen
class RunPage:
    """A run with one page of its games (``run.games``: those alone)."""

    run: LadderRun
    paged: Paged
    # an earlier counted run of its game had one of its bots: its ratings went on from
    # theirs ("carried over"); the first run's started afresh
    carried: bool = True


@attrs.frozen
class Ladders:
    # variant, players, bot, rating, mu, sigma, games, updated: game by game, best first
    leaderboard: list[dict[str, Any]]
    runs: list[LadderRun]  # newest first, without their games


def ladders(db: str) -> Ladders:
    store = open_ladder_store(db, migrate=False)  # the server migrated it
    try:
        board, runs = store.leaderboard(), store.runs()
    finally:
        store.close()
    return Ladders(board, [_listed(r, []) for r in runs])


def ladder_run(db: str, run: int, page: int = 1) -> RunPage | None:
    """Run ``run`` with page ``page`` of its games (GAMES_PAGE a page, read off the
    ``ladder_games_run`` index: never the whole run); None: no such run; NoSuchPage
    (paging.py) for a page it has not."""
    if not 0 < run <= LARGEST_ID:  # (a number the database cannot hold names no run)
        return None
    store = open_ladder_store(db, migrate=False)  # the server migrated it
    try:
        found = store.run(run)
        if found is None:
            return None
        shown = paged(page, store.game_count(run), GAMES_PAGE)
        games = store.games_page(run, shown.skip, GAMES_PAGE)
        carried = found.summary is not None and _carried(found.summary, found.id, store.runs())
    finally:
        store.close()
    return RunPage(_listed(found, games), shown, carried)


def _carried(summary: dict[str, Any], run: int, runs: list[RunRow]) -> bool:
    """An earlier counted run of the same game (variant, players) had one of its bots,
    whose rating this run went on from (ratings are per game: docs/bots.md)."""
    game, bots = (summary.get("variant"), summary.get("players")), set(summary["bots"])
    return any(
        r.id < run
        and r.summary is not None
        and (r.summary.get("variant"), r.summary.get("players")) == game
        and bots & set(r.summary.get("bots", []))
        for r in runs
    )


def _listed(run: RunRow, games: list[dict[str, Any]]) -> LadderRun:
    stopped = None if run.stop is None else run.stop.told()
    return LadderRun(run.id, run.started, run.summary, games, stopped)


# a run's faults, each summed over its bots, in the order the runs' list says them
# (docs/web.md): the report's `forfeits`, `crashes`, `fallbacks`, `bot_errors`,
# `clock_calls` and `reconnects` (docs/bots.md), each a count by bot
FAULT_KINDS = ("forfeits", "crashes", "fallbacks", "bot_errors", "clock_calls", "reconnects")
# the kinds a run must have stored to be said clean: a run stored before reconnects
# were counted had none told (its bots' drops read as 0, as the report reads them)
COUNTED_KINDS = FAULT_KINDS[:-1]


def fault_counts(summary: dict[str, Any]) -> dict[str, int]:
    """Each kind of fault the run had, summed over its bots (none: not in it)."""
    summed = {kind: sum(summary.get(kind, {}).values()) for kind in FAULT_KINDS}
    return {kind: n for kind, n in summed.items() if n}


def faults_counted(summary: dict[str, Any]) -> bool:
    """The run counted every kind (one stored before its bots' faults or the clock's
    calls were counted says nothing of them: not 'none')."""
    return all(kind in summary for kind in COUNTED_KINDS)


def elo_curves(run: LadderRun) -> dict[tuple[str, str], list[float]]:
    """Each pair's Elo (first against second, as in the pairs table) after each game
    counted for it, from the run's stored games in the order they were counted."""
    pairs: dict[tuple[str, str], PairStats] = {}
    curves: dict[tuple[str, str], list[float]] = {}
    order = _pair_order(run.summary)
    for game in run.games:
        written = game["written"]
        bots = game["seating"][: len(written)]  # side i's first seat is seat i
        key = (game["board"], tuple(sorted(set(game["seating"]))))
        size = set_size(game["seating"])
        counted = count_pairs(pairs, key, size, bots, written, game["forfeit"], order)
        # a pair meets twice in a game of (a, a, b): one point a game, as docs/web.md says
        for pair in dict.fromkeys(counted):
            curves.setdefault(pair, []).append(pairs[pair].elo_point())
    return dict(sorted(curves.items()))


def sprt_rules(run: LadderRun) -> list[Rule]:
    """The SPRT's two hypotheses as Elo lines, from the pair's side (the test is from
    the first bot's side; a run stored before pairs kept that order has its pair from
    the alphabetically first bot's)."""
    s = run.summary
    if not s or not s.get("sprt") or len(s["bots"]) != 2:
        return []
    sign = 1 if s["bots"][0] == _pair_order(s)[0] else -1
    elo0, elo1 = sign * s["sprt"]["elo0"] + 0.0, sign * s["sprt"]["elo1"] + 0.0  # no -0
    return [
        Rule(f"SPRT H0 {elo0:+g}", elo0),
        Rule(f"SPRT H1 {elo1:+g}", elo1),
    ]


def _pair_order(summary: dict[str, Any] | None) -> list[str]:
    """Each pair first against second as the run's report put it: in the order of its
    ``--bot`` options, or by name for a run stored before (docs/bots.md)."""
    bots = list(summary.get("bots", [])) if summary else []
    rank = {bot: i for i, bot in enumerate(bots)}
    stored = summary.get("pairs", []) if summary else []
    if all(p["a"] in rank and p["b"] in rank and rank[p["a"]] < rank[p["b"]] for p in stored):
        return bots
    return sorted(bots)


# finished runs' plots by (database, run, language), kept (kept.py); '': no plot
KeptPlots = Kept[tuple[str, int, Lang], str]


# A finished run never changes (its games are stored before its summary, and nothing
# writes them after), so its plot is made once, at its first request, and kept by the
# web face (make_app: one KeptPlots a process, no module state): its games read and
# counted are 0.45 s of CPU for a run of 20,000, which every request spent
# (docs/performance.md, "A big club's store"). In memory, not in the store: the pages
# only read the database, which the ladder writes, and a plot is small (8 KB a pair:
# 500 points a line at most), so 8 MB keep hundreds of runs; a restart makes each again.
KEPT_PLOTS_BYTES = 8 * 1024 * 1024


async def finished_plot(
    db: str, run: LadderRun, kept_plots: KeptPlots, lang: Lang = Lang.EN
) -> str | None:
    """``elo_plot`` of finished run ``run`` (its summary stored: None for one that has
    none, whose games still come), from all its games however few ``run`` holds: kept
    in ``kept_plots``, read and counted at its first request only, in a thread (drawn
    then in every language: the counting is the cost)."""
    if run.summary is None:
        return None
    made = functools.partial(_plots_made, db, run, kept_plots, lang)
    return await kept_plots.kept_or_made((db, run.id, lang), made) or None  # '': none


def _plots_made(db: str, run: LadderRun, kept_plots: KeptPlots, lang: Lang) -> str:
    """In a thread: ``run``'s games read and counted, its plot drawn in every language
    and kept; the one in ``lang`` ('' for none)."""
    store = open_ladder_store(db, migrate=False)  # the server migrated it
    try:
        games = store.games(run.id)
    finally:
        store.close()
    whole = attrs.evolve(run, games=games)
    curves = elo_curves(whole)
    plots = {each: elo_plot(whole, each, curves) or "" for each in Lang}
    for each, plot in plots.items():
        kept_plots.put((db, run.id, each), plot)
    return plots[lang]


def elo_plot(
    run: LadderRun,
    lang: Lang = Lang.EN,
    curves: dict[tuple[str, str], list[float]] | None = None,
) -> str | None:
    """The SVG of Elo against games counted, one line per pair (None: no game yet);
    its labels in ``lang`` (the bots' names and the SPRT's lines as they are);
    ``curves``: ``elo_curves(run)``, worked out already."""
    curves = elo_curves(run) if curves is None else curves
    if not curves:
        return None
    versus = MESSAGES[Msg.VERSUS][lang == Lang.RU]  # ' v ', as the pairs' table says it
    return line_chart(
        [Series(f"{a}{versus}{b}", values) for (a, b), values in curves.items()],
        rules=sprt_rules(run),
        x_label=said(W.PLOT_ELO_X, lang),
        y_label=said(W.PLOT_ELO_Y, lang),
        title=said(W.PLOT_ELO_TITLE, lang, run=run.id),
        limit=ELO_LIMIT,
    )
