"""Ladder results: runs, games, ratings, in the same database as the ladder's server (an
SQLite file or PostgreSQL; the tables are migration 2 of deberc_net/server/store)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from deberc_net.server.store import is_postgres

from .run_stop import RunStop, StopKind
from .stored_argv import told_settings

if TYPE_CHECKING:
    import psycopg

LEADERBOARD_FIELDS = ("variant", "players", "bot", "rating", "mu", "sigma", "games", "updated")
GAME_FIELDS = ("board", "seating", "match_id", "written", "reason", "forfeit")


@attrs.frozen
class StoredGame:
    """One game of a run, as ``ladder_games`` keeps it."""

    board: int
    seating: list[str]
    match_id: str | None
    written: list[int]
    reason: str
    forfeit: str | None


@attrs.frozen
class RunRow:
    """A stored run: when it started (UTC, ``YYYY-MM-DD HH:MM:SS``), its report (None
    while it runs, or if it broke or stopped) and its stop if it failed or was cancelled."""

    id: int
    started: str
    summary: dict[str, Any] | None
    stop: RunStop | None = None
    # how it was started: its command line (``argv``, its password hidden) and, for a
    # distributed run, its queue's settings (``ladder table --json --runs`` gives them;
    # the web pages never: they name bot commands)
    settings: dict[str, Any] | None = None


@attrs.frozen
class UncountedRun:
    """A run without its summary: its boards done and queued (0 of 0: a single-machine
    run, or a distributed one not queued yet), and its stop if it failed or was
    cancelled (it is never counted then)."""

    id: int
    done: int
    total: int
    stop: RunStop | None


class LadderStore(Protocol):
    def close(self) -> None: ...

    def start_run(self, settings: dict[str, Any]) -> int:
        """A new run's id."""
        ...

    def add_games(self, run: int, games: Sequence[StoredGame]) -> None:
        """Many games in one transaction (a run's, once it is played)."""
        ...

    def finish_run(
        self,
        run: int,
        summary: dict[str, Any],
        ratings: list[dict[str, Any]],
        games: dict[str, int],
    ) -> None:
        """The run's summary, and each bot's new rating with its games added."""
        ...

    def fail_run(self, run: int, reason: str) -> None:
        """A single-machine run whose bots could not play (schedule.BotsCannotPlay): it
        is stopped for good (``failed``, ``reason`` its error), never counted, not listed
        as one being played (docs/bots.md)."""
        ...

    def games(self, run: int) -> list[dict[str, Any]]:
        """The run's games in the order stored (board, seating, match_id, written,
        reason, forfeit)."""
        ...

    def games_page(self, run: int, skip: int, most: int) -> list[dict[str, Any]]:
        """``most`` of the run's games in the order stored, after its first ``skip``:
        a page of them (the ``ladder_games_run`` index's, not the whole run read)."""
        ...

    def game_count(self, run: int) -> int:
        """How many games the run has stored."""
        ...

    def leaderboard(self) -> list[dict[str, Any]]:
        """Every rated bot of every game (variant, number of players), game by game,
        best first (variant, players, bot, rating, mu, sigma, games, updated: UTC)."""
        ...

    def runs(self) -> list[RunRow]:
        """Every run, newest first."""
        ...

    def run(self, run: int) -> RunRow | None:
        """One run (None: no such run)."""
        ...

    def uncounted_runs(self) -> list[UncountedRun]:
        """Every run without its summary: a distributed one being played, waiting to be
        counted, or stopped (failed, cancelled), or one without boards (a single-machine
        run being played, or stopped before its end)."""
        ...

    def withheld_boards(self) -> list[tuple[str, int]]:
        """(board key, results kept) of every board whose results await a release: one
        a ladder plays now, or one whose ladder was killed (docs/bots.md)."""
        ...


def open_ladder_store(db: str | Path, migrate: bool = True) -> LadderStore:
    """StoreError if a PostgreSQL database cannot be reached. ``migrate=False``: a reader
    of a database its server has migrated already (the web pages, per request)."""
    if is_postgres(db):
        return PostgresLadderStore(str(db), migrate)
    return SQLiteLadderStore(db, migrate)


# The statements both backends share; each fills in its own dialect: ``p`` its
# placeholder, ``now`` its current time, ``order`` the column that keeps insertion order.
_INSERT_GAME = (
    "INSERT INTO ladder_games (run_id, board, seating, match_id, written, reason, forfeit)"
    " VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p})"
)
_UPSERT_RATING = (
    "INSERT INTO ladder_ratings (variant, players, bot, mu, sigma, rating, games)"
    " VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p})"
    " ON CONFLICT (variant, players, bot) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " rating = excluded.rating, games = ladder_ratings.games + excluded.games,"
    " updated = {now}"
)
# (a run with its summary, or stopped already, keeps what it has)
_FAIL_RUN = (
    "UPDATE ladder_runs SET stopped = {p}, stop_reason = {p}"
    " WHERE id = {p} AND summary IS NULL AND stopped IS NULL"
)
# a game's ratings together, each game's best first
_SELECT_LEADERBOARD = (
    "SELECT variant, players, bot, rating, mu, sigma, games, {updated} FROM ladder_ratings"
    " ORDER BY variant, players, rating DESC"
)
_SELECT_RUNS = "SELECT id, {started}, summary, stopped, stop_reason, settings FROM ladder_runs"
# the same in both dialects ('done' is SQLite's 0/1, PostgreSQL's boolean)
_SELECT_UNCOUNTED = (
    "SELECT r.id, coalesce(sum(CASE WHEN b.done THEN 1 ELSE 0 END), 0), count(b.board),"
    " r.stopped, r.stop_reason"
    " FROM ladder_runs r LEFT JOIN ladder_boards b ON b.run_id = r.id"
    " WHERE r.summary IS NULL GROUP BY r.id, r.stopped, r.stop_reason ORDER BY r.id"
)
_SELECT_WITHHELD = (
    "SELECT board, count(*) FROM running WHERE board IS NOT NULL AND result IS NOT NULL"
    " GROUP BY board ORDER BY board"
)


def _uncounted(rows: Sequence[Sequence[Any]]) -> list[UncountedRun]:
    return [
        UncountedRun(int(r[0]), int(r[1]), int(r[2]), RunStop.from_row(r[3], r[4])) for r in rows
    ]


def _withheld(rows: Sequence[Sequence[Any]]) -> list[tuple[str, int]]:
    return [(str(r[0]), int(r[1])) for r in rows]


def _pg_utc(column: str) -> str:
    """A PostgreSQL timestamp as SQLite's ``datetime('now')`` writes it: UTC text."""
    return f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')"


_SELECT_GAMES = (
    "SELECT " + ", ".join(GAME_FIELDS) + " FROM ladder_games WHERE run_id = {p} ORDER BY {order}"
)
_SELECT_PAGE = _SELECT_GAMES + " LIMIT {p} OFFSET {p}"
_COUNT_GAMES = "SELECT count(*) FROM ladder_games WHERE run_id = {p}"


def _run(row: tuple[Any, ...]) -> RunRow:
    run, started, summary, stopped, reason, settings = row
    return RunRow(
        int(run),
        str(started),
        json.loads(summary) if summary else None,
        RunStop.from_row(stopped, reason),
        # (a row stored before addresses' passwords were hidden: told without them)
        told_settings(json.loads(settings)) if settings else None,
    )


def _game(row: tuple[Any, ...]) -> dict[str, Any]:
    game = dict(zip(GAME_FIELDS, row, strict=True))
    game["seating"], game["written"] = json.loads(game["seating"]), json.loads(game["written"])
    return game


def _game_params(run: int, game: StoredGame) -> tuple[Any, ...]:
    """A ``ladder_games`` row, its lists as JSON: the same in both backends."""
    return (
        run,
        game.board,
        json.dumps(game.seating),
        game.match_id,
        json.dumps(game.written),
        game.reason,
        game.forfeit,
    )


def insert_games_postgres(
    db: psycopg.Connection[Any], run: int, games: Sequence[StoredGame]
) -> None:
    """The games' ``ladder_games`` rows, in the caller's transaction: a run's games
    (PostgresLadderStore.add_games), or a board's with the board marked done
    (BoardQueue.complete)."""
    with db.cursor() as cursor:
        cursor.executemany(_INSERT_GAME.format(p="%s"), [_game_params(run, g) for g in games])


def games_postgres(db: psycopg.Connection[Any], run: int) -> list[dict[str, Any]]:
    """A run's games in the order stored, in the caller's transaction (a distributed
    run's waiter reads them through its patient connection: queue.py)."""
    rows = db.execute(_SELECT_GAMES.format(p="%s", order="seq"), (run,)).fetchall()
    return [_game(tuple(r)) for r in rows]


def finish_run_postgres(
    db: psycopg.Connection[Any],
    run: int,
    summary: dict[str, Any],
    ratings: list[dict[str, Any]],
    games: dict[str, int],
) -> bool:
    """PostgresLadderStore.finish_run in the caller's transaction; False (nothing
    written) if the run has its summary already: a distributed run finished by its
    waiter and by ``ladder finish`` at once, or a write tried again after its commit's
    answer was lost, counts its games in the ratings once."""
    summed = db.execute(
        "UPDATE ladder_runs SET summary = %s WHERE id = %s AND summary IS NULL",
        (json.dumps(summary), run),
    )
    if summed.rowcount != 1:
        return False
    db.execute("SELECT pg_advisory_xact_lock(%s)", (RATINGS_LOCK,))  # (lock_ratings)
    for row in ratings:
        db.execute(_UPSERT_RATING.format(p="%s", now="now()"), _rating_params(summary, row, games))
    return True


RATINGS_LOCK = 0x6C616464  # the advisory lock the ratings' writers of a database take


def lock_ratings(
    db: psycopg.Connection[Any], bots: Sequence[str], variant: str, players: int
) -> list[dict[str, Any]]:
    """The ratings' lock taken for the caller's transaction (every run finished on this
    database waits for it), and these bots' stored ratings in this game (``ladder
    table``'s rows): what a run's count starts from, unchanged by another run until it
    commits."""
    db.execute("SELECT pg_advisory_xact_lock(%s)", (RATINGS_LOCK,))
    rows = db.execute(
        "SELECT bot, mu, sigma FROM ladder_ratings"
        " WHERE variant = %s AND players = %s AND bot = ANY(%s)",
        (variant, players, list(bots)),
    ).fetchall()
    return [{"bot": bot, "mu": mu, "sigma": sigma} for bot, mu, sigma in rows]


def _rating_params(
    summary: dict[str, Any], row: dict[str, Any], games: dict[str, int]
) -> tuple[Any, ...]:
    """A bot's ``ladder_ratings`` upsert in the run's game: (variant, players, bot, mu,
    sigma, rating, games added)."""
    game = (summary.get("variant", "moscow"), summary.get("players", 2))
    return (*game, row["bot"], row["mu"], row["sigma"], row["rating"], games.get(row["bot"], 0))


def of_game(rows: Sequence[dict[str, Any]], variant: str, players: int) -> list[dict[str, Any]]:
    """The leaderboard's rows of one game: a run carries its bots' ratings in its game."""
    return [r for r in rows if (r["variant"], r["players"]) == (variant, players)]


class SQLiteLadderStore:
    def __init__(self, path: str | Path, migrate: bool = True) -> None:
        from deberc_net.server.store import sqlite

        try:  # one sentence for a file it cannot open, as the server's store says it
            sqlite.make_private(str(path))  # the server's file too: made as it makes it
            self.db = sqlite3.connect(str(path), isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise sqlite.cannot_open(str(path), exc) from None
        if migrate:
            try:
                migrated = sqlite.migrate(self.db)
            except sqlite3.DatabaseError as exc:
                self.db.close()
                raise sqlite.cannot_open(str(path), exc) from None
            if migrated is not None:
                migrated.tell(str(path))
            # (a database: made its owner's only; a file that is none was refused above,
            # its mode as it was; not a web page's read, each request: the server's open did)
            sqlite.keep_private(str(path))

    def close(self) -> None:
        self.db.close()

    def start_run(self, settings: dict[str, Any]) -> int:
        cur = self.db.execute(
            "INSERT INTO ladder_runs (settings) VALUES (?)", (json.dumps(settings),)
        )
        return int(cur.lastrowid or 0)

    def add_games(self, run: int, games: Sequence[StoredGame]) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany(
                _INSERT_GAME.format(p="?"), [_game_params(run, game) for game in games]
            )

    def finish_run(
        self,
        run: int,
        summary: dict[str, Any],
        ratings: list[dict[str, Any]],
        games: dict[str, int],
    ) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "UPDATE ladder_runs SET summary = ? WHERE id = ?", (json.dumps(summary), run)
            )
            for row in ratings:
                self.db.execute(
                    _UPSERT_RATING.format(p="?", now="datetime('now')"),
                    _rating_params(summary, row, games),
                )

    def fail_run(self, run: int, reason: str) -> None:
        self.db.execute(_FAIL_RUN.format(p="?"), (StopKind.FAILED.value, reason, run))

    def games(self, run: int) -> list[dict[str, Any]]:
        rows = self.db.execute(_SELECT_GAMES.format(p="?", order="rowid"), (run,)).fetchall()
        return [_game(r) for r in rows]

    def games_page(self, run: int, skip: int, most: int) -> list[dict[str, Any]]:
        query = _SELECT_PAGE.format(p="?", order="rowid")
        return [_game(r) for r in self.db.execute(query, (run, most, skip)).fetchall()]

    def game_count(self, run: int) -> int:
        return int(self.db.execute(_COUNT_GAMES.format(p="?"), (run,)).fetchone()[0])

    def leaderboard(self) -> list[dict[str, Any]]:
        rows = self.db.execute(_SELECT_LEADERBOARD.format(updated="updated")).fetchall()
        return [dict(zip(LEADERBOARD_FIELDS, r, strict=True)) for r in rows]

    def runs(self) -> list[RunRow]:
        rows = self.db.execute(_SELECT_RUNS.format(started="started") + " ORDER BY id DESC")
        return [_run(r) for r in rows.fetchall()]

    def run(self, run: int) -> RunRow | None:
        query = _SELECT_RUNS.format(started="started") + " WHERE id = ?"
        row = self.db.execute(query, (run,)).fetchone()
        return None if row is None else _run(row)

    def uncounted_runs(self) -> list[UncountedRun]:
        return _uncounted(self.db.execute(_SELECT_UNCOUNTED).fetchall())

    def withheld_boards(self) -> list[tuple[str, int]]:
        return _withheld(self.db.execute(_SELECT_WITHHELD).fetchall())


class PostgresLadderStore:
    """One connection: the ladder's command writes from one thread, in turn. Each method
    is one transaction (the connection commits at the end of each ``with``)."""

    def __init__(self, url: str, migrate: bool = True) -> None:
        from deberc_net.server.store import postgres

        self.db = postgres.connect(url)
        if migrate:
            with self.db.transaction():
                migrated = postgres.migrate(self.db)
            if migrated is not None:
                migrated.tell(postgres.redacted(url))

    def close(self) -> None:
        self.db.close()

    def start_run(self, settings: dict[str, Any]) -> int:
        with self.db.transaction():
            row = self.db.execute(
                "INSERT INTO ladder_runs (settings) VALUES (%s) RETURNING id",
                (json.dumps(settings),),
            ).fetchone()
        assert row is not None
        return int(row[0])

    def add_games(self, run: int, games: Sequence[StoredGame]) -> None:
        with self.db.transaction():
            insert_games_postgres(self.db, run, games)

    def finish_run(
        self,
        run: int,
        summary: dict[str, Any],
        ratings: list[dict[str, Any]],
        games: dict[str, int],
    ) -> None:
        with self.db.transaction():
            finish_run_postgres(self.db, run, summary, ratings, games)

    def fail_run(self, run: int, reason: str) -> None:
        with self.db.transaction():
            self.db.execute(_FAIL_RUN.format(p="%s"), (StopKind.FAILED.value, reason, run))

    def games(self, run: int) -> list[dict[str, Any]]:
        with self.db.transaction():
            return games_postgres(self.db, run)

    def games_page(self, run: int, skip: int, most: int) -> list[dict[str, Any]]:
        query = _SELECT_PAGE.format(p="%s", order="seq")
        with self.db.transaction():
            rows = self.db.execute(query, (run, most, skip)).fetchall()
        return [_game(tuple(r)) for r in rows]

    def game_count(self, run: int) -> int:
        with self.db.transaction():
            row = self.db.execute(_COUNT_GAMES.format(p="%s"), (run,)).fetchone()
        assert row is not None
        return int(row[0])

    def leaderboard(self) -> list[dict[str, Any]]:
        with self.db.transaction():
            query = _SELECT_LEADERBOARD.format(updated=_pg_utc("updated"))
            rows = self.db.execute(query).fetchall()
        return [dict(zip(LEADERBOARD_FIELDS, r, strict=True)) for r in rows]

    def runs(self) -> list[RunRow]:
        with self.db.transaction():
            query = _SELECT_RUNS.format(started=_pg_utc("started")) + " ORDER BY id DESC"
            rows = self.db.execute(query).fetchall()
        return [_run(tuple(r)) for r in rows]

    def run(self, run: int) -> RunRow | None:
        with self.db.transaction():
            query = _SELECT_RUNS.format(started=_pg_utc("started")) + " WHERE id = %s"
            row = self.db.execute(query, (run,)).fetchone()
        return None if row is None else _run(tuple(row))

    def uncounted_runs(self) -> list[UncountedRun]:
        with self.db.transaction():
            return _uncounted(self.db.execute(_SELECT_UNCOUNTED).fetchall())

    def withheld_boards(self) -> list[tuple[str, int]]:
        with self.db.transaction():
            return _withheld(self.db.execute(_SELECT_WITHHELD).fetchall())
