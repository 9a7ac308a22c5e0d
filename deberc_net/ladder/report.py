"""The ladder's summary and leaderboard as text for people (and `ladder table --json
--runs`'s object for programs)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from deberc_net.protocol.messages import game_for

if TYPE_CHECKING:
    from .store import RunRow, UncountedRun


def _num(x: float | None, fmt: str = "+.1f") -> str:
    """A figure with its sign; a zero as it rounds has none (never '-0.0')."""
    if x is None:
        return "?"
    told = format(x, fmt)
    return told if float(told) != 0 else format(0.0, fmt.lstrip("+"))


def count(n: int, thing: str) -> str:
    """'1 board', '2 boards': a count as English says it."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


# the words the figures are said with (the web's Russian ladder pages hand their own,
# server/web/words.py; the text report and the English pages say these)
FIGURE_WORDS: dict[str, str] = {
    "every-won": "+∞ (every deal won)",
    "every-lost": "-∞ (every deal lost)",
    "few-deals": "(margin: too few deals)",
    "few-sets": "(margin: too few duplicate sets)",
    "no-points": "none",
    "after-one": "; {after} pair finished after it, in the totals above only",
    "after-many": "; {after} pairs finished after it, in the totals above only",
    "verdict-h1": "H1 ({first} more than {elo0} Elo over {second})",
    "verdict-h0": "H0 ({first} less than {elo1} Elo over {second})",
    "no-decision": "no decision",
}


def _margin(x: float | None, few: str) -> str:
    """'± M'; a margin the results cannot give yet (JSON's null: no finite interval, as
    when every deal went one way or one duplicate set was played) is said in words."""
    return few if x is None else f"± {x:.1f}"


# the ratings are kept by name (docs/bots.md): said wherever they are shown, since a
# bot changed under its old name mixes its versions without a word otherwise
BY_NAME = (
    "Ratings are by bot name, each game's apart: a bot changed and run again under its "
    "old name goes on from the old one's rating (give a new version a new name)."
)

DISAGREE = (
    "Elo and points/deal disagree in sign: Elo, its LOS and the SPRT count deals won, "
    "points/deal (and its LOS) the points written, which win a match (docs/bots.md)"
)


NO_DIFFERENCE = (
    "no difference established: neither Elo nor points/deal is clear of 0 (each LOS "
    "within 2.5%-97.5%); more boards would tell"
)
# the note instead of NO_DIFFERENCE when the run's SPRT decided for the pair: its
# sequential bounds can decide where neither LOS is past 97.5%, and "more boards would
# tell" beside a verdict that stopped the boards would contradict it
SPRT_DECIDED = (
    "the SPRT decided this pair: {verdict}; neither Elo nor points/deal alone is clear "
    "of 0 (each LOS within 2.5%-97.5%)"
)
# a LOS this far from 50% either way: the figure's 95% interval leaves out 0
ESTABLISHED_LOS = 0.975


def _established(los: float | None) -> bool:
    """A figure's sign is established: its LOS (Elo's from the deals won and lost,
    points/deal's from the duplicate sets) is past 97.5% one way or the other."""
    return los is not None and max(los, 1 - los) > ESTABLISHED_LOS


def _disagree(elo: float | None, points: float | None) -> bool:
    """Elo and points/deal point opposite ways (each as the report rounds it)."""
    if elo is None or points is None:
        return False
    return round(elo, 1) * round(points, 1) < 0


def _decided(sprt: Mapping[str, Any], p: Mapping[str, Any]) -> bool:
    """The run's SPRT reached a verdict, on this pair's two bots."""
    if sprt.get("verdict") not in ("H1", "H0"):
        return False
    return {sprt.get("first"), sprt.get("second")} == {p["a"], p["b"]}


def pair_note(p: Mapping[str, Any], sprt: Mapping[str, Any] | None = None) -> str | None:
    """The line under a pair's, if any: no difference established when neither figure
    is clear of 0 (their signs are noise, whichever way they point), unless ``sprt``
    (the run's) decided for this pair: then its verdict, said as the test that decided;
    else DISAGREE when they point opposite ways, one of them at least established."""
    if not (_established(p.get("los")) or _established(p.get("points_los"))):
        if sprt is not None and _decided(sprt, p):
            return SPRT_DECIDED.format(verdict=verdict(sprt))
        return NO_DIFFERENCE
    if _disagree(p.get("elo"), p.get("points_per_deal")):
        return DISAGREE
    return None


def _boards(data: dict[str, Any]) -> str:
    """'200 boards', or '23 of 2000 boards' when the ladder stopped early."""
    played = data.get("boards_played", data["boards"])
    if played == data["boards"]:
        return count(data["boards"], "board")
    return f"{played} of {count(data['boards'], 'board')}"


def elo_told(p: dict[str, Any], words: Mapping[str, str] = FIGURE_WORDS) -> str:
    """The Elo difference and its margin, as the text and the run's web page say them;
    every deal one way has no finite one (the figure, ±2400 in the JSON, is a clamp)."""
    if p["deals"] and p["deals"] in (p["wins"], p["losses"]):  # (the score is rounded)
        return words["every-won"] if p["wins"] else words["every-lost"]
    return f"{_num(p['elo'])} {_margin(p['elo_margin'], words['few-deals'])}"


def points_told(p: dict[str, Any], words: Mapping[str, str] = FIGURE_WORDS) -> str:
    """Points/deal and its margin, as the text and the run's web page say them; 'none'
    without a complete duplicate set (a seating forfeited on every board: the
    one-seating sets' luck did not cancel)."""
    if p["points_per_deal"] is None:
        return words["no-points"]
    return f"{_num(p['points_per_deal'])} {_margin(p['points_per_deal_margin'], words['few-sets'])}"


def _elo(p: dict[str, Any]) -> str:
    return f"Elo {elo_told(p)}"


def _draws(p: dict[str, Any]) -> str:
    """Which draws were void (nobody wrote a point: passed out) and which equal points
    written; a report stored before void draws were counted says nothing."""
    void = p.get("void_draws")
    if not p["draws"] or void is None:
        return ""
    return f" (draws: {void} void, {p['draws'] - void} equal points)"


def _points(p: dict[str, Any]) -> str:
    if p["points_per_deal"] is None:
        return "points/deal: none (no complete duplicate set)"
    return f"points/deal {points_told(p)} over {count(p['duplicate_sets'], 'duplicate set')}"


def after_verdict(s: dict[str, Any], words: Mapping[str, str] = FIGURE_WORDS) -> str:
    """The pairs the games running at the verdict finished: counted in the totals, not
    in the LLR, which is the one that decided (the text report's SPRT line and the
    web's /ladders/N end with it)."""
    after = s.get("pairs_after_verdict") or 0  # (a run stored before it was told)
    if not after:
        return ""
    return words["after-one" if after == 1 else "after-many"].format(after=after)


def _per_bot(counts: Mapping[str, int]) -> str:
    """A count per bot in words, 'flaky 5, rand 1' (not the dict's "{'flaky': 5}")."""
    return ", ".join(f"{bot} {count}" for bot, count in counts.items()) or "none"


def verdict(s: Mapping[str, Any], words: Mapping[str, str] = FIGURE_WORDS) -> str:
    """The SPRT's verdict with the bots it is about (H1 and H0 say nothing alone), and
    what it shows: H1 that first is more than elo0 over second (wrong at most alpha of
    the time), H0 less than elo1 (beta); not 'at least elo1': bots between elo0 and
    elo1 end in either, equal bots under -10,10 in H1 a third of the time. The text
    report's SPRT line and the web's /ladders/N say it, ``words`` in its language."""
    key = {"H1": "verdict-h1", "H0": "verdict-h0"}.get(s["verdict"], "no-decision")
    if key == "no-decision":  # (names no bots: a run stored before it named them too)
        return words[key]
    bounds = {"elo0": f"{s['elo0']:+g}", "elo1": f"{s['elo1']:+g}"}
    return words[key].format(first=s["first"], second=s["second"], **bounds)


def text(data: dict[str, Any]) -> str:
    lines = [
        f"Ladder: {', '.join(data['bots'])}; {_game(data['variant'], data['players'])}"
        + (f" ({', '.join(data['options'])})" if data["options"] else "")
        + f"; {_boards(data)}, seed {data['seed']}, {data['schedule']}",
        # fixed decimals: the JSON's rounded figures drop trailing zeros (97.7, 78.89)
        f"{count(data['games'], 'game')} ({count(data['deals'], 'deal')}) in "
        f"{data['seconds']:.1f} s: {data['deals_per_second']:.1f} deals/s",
        "",
        # each game's own (a bot's two- and three-player ratings apart: ladder table),
        # named as the server names a game (it said "for moscow with 2 players")
        f"Ratings in {_game(data['variant'], data['players'])} "
        "(openskill, mu - 3 sigma; kept from run to run, by name):",
    ]
    for row in data["ratings"]:
        lines.append(
            f"  {row['bot']:<16} {row['rating']:8.2f}  (mu {row['mu']:.2f}, "
            f"sigma {row['sigma']:.2f})"
        )
    lines += ["", "Pairs (first against second):"]
    for p in data["pairs"]:
        lines.append(
            f"  {p['a']} v {p['b']}: {p['wins']}-{p['draws']}-{p['losses']}{_draws(p)} "
            f"score {p['score']:.3f}, {_elo(p)}, LOS {100 * p['los']:.1f}%, "
            f"{_points(p)}"
            + ("" if p.get("points_los") is None else f", points LOS {100 * p['points_los']:.1f}%")
        )
        note = pair_note(p, data.get("sprt"))
        if note is not None:
            lines.append(f"    {note}")
    if data.get("sprt"):
        s = data["sprt"]
        lines += [
            "",
            f"SPRT {s['first']} v {s['second']} elo0={s['elo0']} elo1={s['elo1']} "
            f"alpha={s['alpha']} beta={s['beta']}: LLR {s['llr']} in {s['bounds']} after "
            f"{s['pairs']} pairs: {verdict(s)}" + after_verdict(s),
        ]
    if data["crashes"] or data["forfeits"]:
        lines += [
            "",
            f"Crashes (restarted): {_per_bot(data['crashes'])}; "
            f"forfeits: {_per_bot(data['forfeits'])}",
        ]
    for bot, games in (data.get("unseated") or {}).items():
        # a forfeit count alone left a tryout's bot, which sought once, a mystery
        lines.append(
            f"  {bot} never sat down in {count(games, 'game')}: a bot is "
            "seated at a ladder's next game only by another 'seek reserved', sent after "
            'each match-end (docs/bots.md, "Ladders")'
        )
    if data.get("cut"):  # (a run stored before s49 has no such field)
        lines += [
            "",
            f"Cut: {count(len(data['cut']), 'game')} whose table closed with no end, the"
            ' server playing on (not played again: docs/bots.md, "Cut games"):',
        ]
        for cut in data["cut"]:
            lines.append(
                f"  board {cut['board']} ({', '.join(cut['seating'])}) at table"
                f" {cut['table']}: {cut['said']}"
            )
    if data.get("fallbacks") or data.get("bot_errors") or data.get("first_faults"):
        lines += ["", "Bot faults:"]
        for bot in data["bots"]:
            first = data["first_faults"].get(bot)
            if first is None and not data["fallbacks"].get(bot):
                continue
            lines.append(
                f"  {bot}: {count(data['fallbacks'].get(bot, 0), 'fallback')}, "
                f"{count(data['bot_errors'].get(bot, 0), 'exception')}"
                + ("" if first is None else f"; first: {first}")
            )
    if data.get("reconnects"):  # absent from a run stored before they were counted
        lines += [
            "",
            "Reconnects (the server cut the bot's connection, or it broke; its seat away"
            " till it logged in again):",
        ]
        lines += [
            f"  {b}: {data['reconnects'][b]}" for b in data["bots"] if data["reconnects"].get(b)
        ]
    if data.get("clock_calls"):  # each a request the bot let run out (docs/bots.md)
        lines += [
            "",
            "Clock's calls (an ask not answered in time, or answered only with refused calls):",
        ]
        for bot in data["bots"]:
            if data["clock_calls"].get(bot):
                first = data.get("first_clock_calls", {}).get(bot)
                lines.append(
                    f"  {bot}: {data['clock_calls'][bot]}"
                    + ("" if first is None else f"; first: {first}")
                )
    if data.get("clock_calls_missing"):
        lines += ["", f"Clock's calls: not counted ({data['clock_calls_missing']})."]
    drawn = " (drawn at random for this run)" if data.get("random_seed") else ""
    # a seed has no space (schedule.seed_refused) but may hold what a shell reads ($ ; ')
    again = shlex.quote(data["seed"])
    lines += ["", f"Seed: {data['seed']}{drawn}; --seed {again} plays the same boards again."]
    return "\n".join(lines)


def _game(variant: str, players: int) -> str:
    """A game named as the server names it: 'moscow for 2 players' (game_for), so a
    ladder's table and the game port's say one game alike."""
    return f"{variant} {game_for(players).text()}"


def leaderboard(rows: list[dict[str, Any]], runs_pending: bool = False) -> str:
    """The ratings; with none, whether a run is on its way to them (one being played,
    or stopped) or none was ever started."""
    if not rows and runs_pending:
        return "No ladder ratings on this database yet."
    if not rows:
        return "No ladder has been run on this database."
    lines: list[str] = []
    for (variant, players), ranked in by_game(rows).items():
        if lines:
            lines.append("")
        lines += [
            f"{_game(variant, players)}:",
            f"{'#':>3}  {'bot':<16} {'rating':>8} {'mu':>7} {'sigma':>6} {'games':>6}",
        ]
        for i, r in enumerate(ranked, 1):
            lines.append(
                f"{i:>3}  {r['bot']:<16} {r['rating']:8.2f} {r['mu']:7.2f} "
                f"{r['sigma']:6.2f} {r['games']:6d}"
            )
    return "\n".join([*lines, "", BY_NAME])


def by_game(rows: list[dict[str, Any]]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """The leaderboard's rows game by game (variant, number of players: each its own
    ratings, as the server's for people), in the order given (each game's best first);
    a row stored without its game (an old ``--json``) as moscow's two-player."""
    games: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for r in rows:
        games.setdefault((r.get("variant", "moscow"), r.get("players", 2)), []).append(r)
    return games


def table_object(
    rows: list[dict[str, Any]],
    runs: list[RunRow],
    uncounted: list[UncountedRun],
    withheld: list[tuple[str, int]],
) -> dict[str, Any]:
    """``ladder table --json --runs``: the leaderboard's rows (``--json``'s list), every
    run newest first with its summary (``ladder run --json``'s object: the faults, the
    clock's calls, the seed, each pair's margins; null until it is counted), its settings
    and why it stopped, and what the text says below the ratings: the boards played of
    a run not counted, the board keys whose results await a release (docs/bots.md)."""
    boards = {run.id: run for run in uncounted}
    listed = []
    for run in runs:
        waiting = boards.get(run.id)
        listed.append(
            {
                "id": run.id,
                "started": run.started,
                "counted": run.summary is not None,
                "summary": run.summary,
                "settings": run.settings,
                "stopped": None if run.stop is None else run.stop.kind.value,
                "stop_reason": None if run.stop is None else run.stop.reason,
                "boards_done": None if waiting is None else waiting.done,
                "boards_queued": None if waiting is None else waiting.total,
            }
        )
    return {
        "leaderboard": rows,
        "runs": listed,
        "withheld": [{"board": key, "results": n} for key, n in withheld],
    }
