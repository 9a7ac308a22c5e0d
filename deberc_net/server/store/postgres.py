"""The PostgreSQL store: the same promises as the SQLite one, in a shared database.

psycopg 3, blocking calls (the server makes them from worker threads), through a
psycopg_pool connection pool so those threads never wait for one another's round
trips. Each method is one transaction (a pool connection's block commits on success).
Migrations run under an advisory lock, so servers started at once on one database
apply each one once.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
import psycopg_pool

from . import without_password
from .base import (
    ADD_ACCOUNT,
    ADDRESS_BAN,
    ADDRESS_BANS,
    ADDRESS_BANS_RUN_OUT,
    ADDRESS_UNBAN,
    BAN,
    BAN_OF,
    BANS,
    BOARD_RESULTS,
    BOARD_UNLESS_LISTED,
    CUT_OFF_TOLD,
    CUT_OFF_TOLD_KEPT_S,
    CUT_OFF_UNTOLD,
    CUT_OFFS_TOLD_OLD,
    DEAD_AFTER_S,
    DEALT,
    FORGET_ACCOUNT,
    IGNORE,
    IGNORED_BY,
    KEPT_BOARD,
    LAST_DEAL,
    LAST_DEAL_ROW,
    LAST_MATCH_AT,
    LIST_STOPPED,
    LISTED,
    LOOKS_LIKE,
    MATCH_IDS,
    MATCH_INTO,
    MATCH_RECORDS,
    MATCHES_RECORDS,
    MUTE,
    MUTES,
    MUTES_RUN_OUT,
    MUTES_WITH_LIFTS,
    OLD_STOP_FINISHED,
    OLD_STOPS,
    ORPHANED,
    OWN_RUNNING,
    PLAYER_RATINGS,
    PLAYERS_FOLLOW,
    PLAYERS_HEAL,
    PLAYS_ON,
    POSTGRES_BEFORE,
    POSTGRES_NUMBER,
    RANK,
    RATED_COUNTS,
    RATING_HISTORY,
    RATING_HISTORY_LAST,
    RATINGS_FOR,
    RECENT_GAMES,
    RELEASED_RECORDS,
    RUNNING_NOW,
    SAVE_HISTORY,
    SAVE_RATING,
    SERVER_LOST,
    SHUTDOWN,
    STANDINGS,
    STANDINGS_PAGE,
    UNBOARD_RUNNING,
    UNIGNORE,
    UNMUTE,
    AddressBan,
    Arrival,
    Ban,
    PlayerRating,
    RatingPoint,
    RatingResult,
    StoredMute,
    StoreError,
    address_ban_row,
    ban_row,
    board_finishes,
    board_result,
    by_match,
    covering,
    finished_match_row,
    game_row,
    highest_match_number,
    in_number_order,
    keeps_result,
    late_by,
    latin_look,
    look_alike,
    lost_match_row,
    match_row,
    mute_row,
    name_key,
    old_stop_number,
    player_rating,
    player_rows,
    public_match,
    rating_point,
    rating_rows,
    released,
    withheld,
)
from .gone import tell_ended_at_start
from .migrations import MIGRATIONS, POSTGRES_VERSIONS, Migrated, Migration, pending

# a ban's time as SQLite stores it ('YYYY-MM-DD HH:MM:SS', UTC)
SINCE = "to_char(since AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')"

MIGRATION_LOCK = 0x64656265  # 'debe': the advisory lock key migrations hold
# a player's rating of a game held for a rated match's end (ratings_held): a transaction
# lock of the two-key kind ('rate', the name's and game's hash), apart from the above
RATING_LOCK = "SELECT pg_advisory_xact_lock(1918989413, hashtext(%s))"
RATING_ORDER = "SELECT key FROM unnest(%s::text[]) AS key ORDER BY hashtext(key), key"
HOLD_ACCOUNTS = "SELECT key FROM accounts WHERE key = ANY(%s) ORDER BY key FOR KEY SHARE"
CONNECT_TIMEOUT_S = 10.0


def release_board_in(conn: psycopg.Connection[Any], board: str) -> int:
    """Release ``board``'s withheld records in ``conn``'s transaction; how many results
    it kept. Run again after a commit whose answer was lost, it finds none: a board is
    released once (the distributed ladder's end retries it over an outage)."""
    # the board's running rows held first, so that the two statements below see
    # each seating alike: a deal taking a kept result back (add_deal's PLAYS_ON)
    # committed between them left a seating of the released board
    conn.execute(BOARD_ROWS, (board,))
    # first, as a seating's end at once on another worker (FOR UPDATE there)
    # either waits for this, or is among the results this then takes
    conn.execute(UNBOARD_RUNNING.format(p="%s"), (board,))
    # (FOR UPDATE: a release at once on another worker waits, then finds none)
    kept = conn.execute(BOARD_RESULTS.format(p="%s") + " FOR UPDATE", (board,)).fetchall()
    for row, seeds in board_finishes(result for _, result in kept):
        _finish(conn, row, seeds)
    return len(kept)


HURRY_CHECK_S = 0.25  # how often, once hurried, the calls waiting for a connection look


class Hurried(Exception):
    """A call's wait for a connection ended by ``HurriedPool.hurry``'s watch: it looks
    again at the pool's timeout (raised and caught inside the pool only)."""


class HurriedPool(psycopg_pool.ConnectionPool):
    """A pool whose waits ``hurry`` cuts short, those begun before it too: psycopg_pool
    reads its timeout once, as a call begins, so a heartbeat waiting for a connection as
    the database went away held a stopping worker for the pool's 30 s (a test saw it
    not end in 20). Until ``hurry`` it is psycopg_pool's own wait, first come first
    served; from then on a thread ends every wait each HURRY_CHECK_S, and each call
    waits again only while its whole wait is within the timeout as it is then. (Not a
    wait in slices from the start: a call whose slice ended went to the back of the
    queue, after calls that came later, on any busy pool.)"""

    _watch: threading.Thread | None = None
    _closing: threading.Event | None = None

    def getconn(self, timeout: float | None = None) -> psycopg.Connection[Any]:
        if timeout is not None:
            return super().getconn(timeout)
        started = time.monotonic()
        while (left := self.timeout - (time.monotonic() - started)) > 0:
            try:
                return super().getconn(left)
            except Hurried:
                continue
            except psycopg_pool.PoolTimeout:
                break
        # the whole wait said (psycopg_pool's message says its last try's)
        waited = time.monotonic() - started
        raise psycopg_pool.PoolTimeout(f"couldn't get a connection after {waited:.2f} sec")

    def hurry(self, timeout_s: float) -> None:
        """From now on a call waits at most ``timeout_s`` in all for a connection, one
        already waiting too (within HURRY_CHECK_S)."""
        self.timeout = timeout_s
        if self._watch is None and not self.closed:
            self._closing = threading.Event()
            self._watch = threading.Thread(
                target=self._hurry_waiting, args=(self._closing,), name="deberc-store-hurry"
            )
            self._watch.daemon = True
            self._watch.start()

    def _hurry_waiting(self, closing: threading.Event) -> None:
        # psycopg_pool's queue of waiting calls (its close() fails them the same way);
        # a call served or timed out meanwhile refuses the failure, and is left alone
        while not closing.wait(HURRY_CHECK_S):
            with self._lock:
                waiting = list(self._waiting)
            for pos in waiting:
                pos.fail(Hurried())

    def close(self, timeout: float = 5.0) -> None:
        if self._closing is not None and self._watch is not None:
            self._closing.set()
            self._watch.join()
        super().close(timeout)


class PostgresStore:
    def __init__(
        self,
        url: str,
        *,
        serving: bool = False,
        migrations: Sequence[Migration] = MIGRATIONS,
        pool_size: int = 4,
        connect_timeout_s: float = CONNECT_TIMEOUT_S,
        dead_after_s: float = DEAD_AFTER_S,
        plain: bool = True,
    ) -> None:
        """``url``: postgresql://USER[:PASSWORD]@HOST[:PORT]/DB (any libpq conninfo).
        ``serving``, ``dead_after_s``, ``plain``: as for SQLiteStore."""
        self.server_id: int | None = None
        self._plain = plain
        self._above_stored: set[str] = set()  # the sequences moved (ABOVE_STORED) so far
        self._url = url
        self._held = threading.local()  # a rated match's end's connection (ratings_held)
        # one plain connection first: a refusal is told at once, with its reason
        first = connect(url, connect_timeout_s)
        ended = 0
        with first:  # commits at the end of the block, and closes it
            migrated = migrate(first, migrations)
            if serving:
                row = first.execute(
                    "INSERT INTO servers (host, pid, plain) VALUES (%s, %s, %s) RETURNING id",
                    (socket.gethostname(), os.getpid(), plain),
                ).fetchone()
                assert row is not None
                self.server_id = int(row[0])
                _lock_servers(first, dead_after_s)
                ended = _end_the_dead(first, dead_after_s)
                _list_old_stops(first)
                first.execute(PLAYERS_HEAL.format(order="seq"))
        if migrated is not None:  # (committed: told only once it is)
            migrated.tell(redacted(url))
        tell_ended_at_start(ended)
        self._pool = HurriedPool(
            url,
            min_size=1,
            max_size=pool_size,
            open=False,
            name="deberc-store",
            check=psycopg_pool.ConnectionPool.check_connection,
            kwargs={"connect_timeout": max(1, int(connect_timeout_s))},
        )
        try:
            self._pool.open(wait=True, timeout=connect_timeout_s)
        except psycopg_pool.PoolTimeout:
            self._pool.close()
            raise StoreError(
                f"cannot connect to PostgreSQL at {redacted(url)} within {connect_timeout_s:g} s"
            ) from None

    def hurry(self, timeout_s: float) -> None:
        """From now on a call waits at most ``timeout_s`` for a connection, not the
        pool's 30 s, a call already waiting too (HurriedPool): a server stopping
        (SIGTERM, server/running.py; a worker's lost bus, server/cluster/bus_lost.py)
        whose database went away fails its last calls at once and ends."""
        self._pool.hurry(timeout_s)

    def close(self) -> None:
        """End this server's own matches (listed) and its row, then close the pool;
        the pool is closed even if that fails (the database gone): its threads and
        connections do not outlive the store, and StoreError says why in one line."""
        try:
            if self.server_id is not None:  # a server's own matches end with it, listed
                with self._pool.connection() as conn:
                    own = OWN_RUNNING.format(p="%s")
                    rows = conn.execute(
                        f"SELECT match_id, board FROM running WHERE {own}", (self.server_id,)
                    ).fetchall()
                    _list_stopped(conn, [(m, b) for m, b in rows], SHUTDOWN)
                    conn.execute(f"DELETE FROM running WHERE {own}", (self.server_id,))
                    conn.execute("DELETE FROM servers WHERE id = %s", (self.server_id,))
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            reason = " ".join(str(exc).split())
            raise StoreError(
                f"the database at {redacted(self._url)} did not answer at the stop ({reason}):"
                " this server's matches are listed as a lost server's once it is back"
            ) from exc
        finally:
            self._pool.close()

    def group(self) -> contextlib.AbstractContextManager[None]:
        """Each write its own transaction still: PostgreSQL's writers do not wait for
        one lock on the whole database, as SQLite's do (``Store.group``)."""
        return contextlib.nullcontext()

    # several servers on one database
    def heartbeat(self, dead_after_s: float, every_s: float = 0.0) -> int:
        with self._pool.connection() as conn:
            _lock_servers(conn, dead_after_s, self.server_id)
            since = conn.execute(SINCE_OWN_BEAT, (self.server_id,)).fetchone()
            beat = conn.execute(
                "UPDATE servers SET heartbeat = now() WHERE id = %s", (self.server_id,)
            )
            if beat.rowcount == 0 and self.server_id is not None:  # thought dead: alive again
                # (or a deal of its, add_deal, says so at once: its row is there then)
                conn.execute(REVIVE_SERVER, self._row())
            late = late_by(None if since is None else float(since[0]), every_s)
            if late is None:
                return 0
            return _end_the_dead(conn, dead_after_s + late)

    def _row(self) -> tuple[int | None, str, int, bool]:
        """This server's row in ``servers`` (written again: REVIVE_SERVER)."""
        return (self.server_id, socket.gethostname(), os.getpid(), self._plain)

    def new_match_number(self) -> int:
        return self._new_numbers("match_numbers", 1)[0]

    def new_match_numbers(self, count: int) -> list[int]:
        return self._new_numbers("match_numbers", count)

    def new_table_numbers(self, count: int) -> list[int]:
        return self._new_numbers("table_numbers", count)

    def highest_table_number(self) -> int:
        # (a sequence's last value is seen at once by every session: no transaction)
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END"
                " FROM table_numbers"
            ).fetchone()
        return int(row[0]) if row is not None else 0

    def give_back_numbers(self, counter: str, lowest: int, highest: int) -> bool:
        # a sequence's nextval takes no lock a look-then-setval could hold: another
        # server's draw between the two would be given the same numbers again
        return False

    def _new_numbers(self, sequence: str, count: int) -> list[int]:
        """``count`` new numbers, ascending, of ``sequence`` (match_numbers or
        table_numbers); this store's first draw of it above every number stored
        (ABOVE_STORED)."""
        if sequence not in self._above_stored:
            with self._pool.connection() as conn:
                conn.execute(ABOVE_STORED[sequence])
            self._above_stored.add(sequence)
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT nextval(%s::regclass) FROM generate_series(1, %s)", (sequence, count)
            ).fetchall()
        return sorted(int(row[0]) for row in rows)

    def schema_version(self) -> int:
        with self._pool.connection() as conn:
            return _version(conn)

    # accounts
    def account(self, name: str) -> tuple[bytes, bytes] | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT salt, hash FROM accounts WHERE key = %s", (name_key(name),)
            ).fetchone()
        return (bytes(row[0]), bytes(row[1])) if row else None

    def account_name(self, name: str) -> str | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT name FROM accounts WHERE key = %s", (name_key(name),)
            ).fetchone()
        return str(row[0]) if row else None

    def add_account(self, name: str, salt: bytes, digest: bytes) -> bool:
        with self._pool.connection() as conn:
            cur = conn.execute(
                ADD_ACCOUNT.format(p="%s") + " ON CONFLICT (key) DO NOTHING",
                (name_key(name), name, salt, digest, latin_look(name)),
            )
            return cur.rowcount == 1

    def register(self, name: str, salt: bytes, digest: bytes) -> str | None:
        with self._pool.connection() as conn, conn.transaction():
            # the accounts' writers take turns from here to the commit (a read is let
            # by): another registration looks only once this one is stored
            conn.execute("LOCK TABLE accounts IN SHARE ROW EXCLUSIVE MODE")
            row = conn.execute(
                "SELECT name FROM accounts WHERE key = %s", (name_key(name),)
            ).fetchone()
            if row is not None:
                return str(row[0])
            alike = _looks_like(conn, name)
            if alike is None:
                conn.execute(
                    ADD_ACCOUNT.format(p="%s"),
                    (name_key(name), name, salt, digest, latin_look(name)),
                )
        return alike

    def forget_account(self, name: str) -> None:
        with self._pool.connection() as conn, conn.transaction():
            for forget in FORGET_ACCOUNT:
                conn.execute(forget.format(p="%s"), (name_key(name),))

    def set_account_secret(self, name: str, salt: bytes, digest: bytes) -> bool:
        with self._pool.connection() as conn:
            changed = conn.execute(
                "UPDATE accounts SET salt = %s, hash = %s WHERE key = %s",
                (salt, digest, name_key(name)),
            )
            return changed.rowcount == 1

    # bans
    def ban(self, name: str, admin: str, reason: str) -> None:
        with self._pool.connection() as conn:
            conn.execute(BAN.format(p="%s", now="now()"), (name_key(name), name, admin, reason))

    def unban(self, name: str) -> bool:
        with self._pool.connection() as conn:
            gone = conn.execute("DELETE FROM bans WHERE key = %s", (name_key(name),))
            return gone.rowcount == 1

    def ban_of(self, name: str) -> Ban | None:
        with self._pool.connection() as conn:
            row = conn.execute(BAN_OF.format(p="%s", since=SINCE), (name_key(name),)).fetchone()
        return None if row is None else ban_row(tuple(row))

    def arrival(
        self,
        name: str,
        ignored_most: int = 0,
        address: str | None = None,
        now_s: float | None = None,
    ) -> Arrival:
        key = (name_key(name),)
        ignored: list[Any] = []
        alike: str | None = None
        address_bans: list[Any] = []
        with self._pool.connection() as conn:
            ban = conn.execute(BAN_OF.format(p="%s", since=SINCE), key).fetchone()
            account = conn.execute("SELECT name FROM accounts WHERE key = %s", key).fetchone()
            if account is None:  # a new name: a registered one it looks like
                alike = _looks_like(conn, name)
            if account is None and address is not None:  # (a member logs in from it)
                query = ADDRESS_BANS.format(p="%s", since=SINCE)
                when = time.time() if now_s is None else now_s
                address_bans = conn.execute(query, (when,)).fetchall()
            if ignored_most > 0:
                query = IGNORED_BY.format(p="%s")
                ignored = conn.execute(query, (*key, ignored_most)).fetchall()
        ban_read = None if ban is None else ban_row(tuple(ban))
        spelling = None if account is None else str(account[0])
        held = None if address is None else covering(address_bans, address)
        return Arrival(ban_read, spelling, tuple(str(r[0]) for r in ignored), alike, held)

    def bans(self) -> list[Ban]:
        with self._pool.connection() as conn:
            rows = conn.execute(BANS.format(since=SINCE)).fetchall()
        return [ban_row(tuple(r)) for r in rows]

    # bans of addresses
    def ban_address(self, network: str, admin: str, reason: str, until_s: float) -> None:
        with self._pool.connection() as conn:
            conn.execute(ADDRESS_BANS_RUN_OUT.format(p="%s"), (time.time(),))
            row = (network, admin, reason, until_s)
            conn.execute(ADDRESS_BAN.format(p="%s", now="now()"), row)

    def unban_address(self, network: str, now_s: float) -> bool:
        with self._pool.connection() as conn:
            gone = conn.execute(ADDRESS_UNBAN.format(p="%s"), (network, now_s))
            return gone.rowcount == 1

    def address_bans(self, now_s: float) -> list[AddressBan]:
        with self._pool.connection() as conn:
            query = ADDRESS_BANS.format(p="%s", since=SINCE)
            rows = conn.execute(query, (now_s,)).fetchall()
        return [address_ban_row(tuple(r)) for r in rows]

    # mutes
    def mute(self, name: str, admin: str, reason: str, until_s: float) -> None:
        with self._pool.connection() as conn:
            conn.execute(MUTES_RUN_OUT.format(p="%s"), (time.time(),))
            conn.execute(MUTE.format(p="%s"), (name_key(name), name, admin, reason, until_s))

    def unmute(self, name: str, admin: str) -> bool:
        with self._pool.connection() as conn:
            lifted = conn.execute(UNMUTE.format(p="%s"), (admin, name_key(name), time.time()))
            return lifted.rowcount == 1

    def mutes(self, now_s: float) -> list[StoredMute]:
        return self._mutes(MUTES, now_s)

    def mutes_with_lifts(self, now_s: float) -> list[StoredMute]:
        return self._mutes(MUTES_WITH_LIFTS, now_s)

    def _mutes(self, query: str, now_s: float) -> list[StoredMute]:
        with self._pool.connection() as conn:
            rows = conn.execute(query.format(p="%s"), (now_s,)).fetchall()
        return [mute_row(tuple(r)) for r in rows]

    def tell_cut_off_once(self, name: str, match: str, now_s: float) -> bool:
        with self._pool.connection() as conn:
            conn.execute(CUT_OFFS_TOLD_OLD.format(p="%s"), (now_s - CUT_OFF_TOLD_KEPT_S,))
            told = conn.execute(CUT_OFF_TOLD.format(p="%s"), (name_key(name), match, now_s))
            return told.rowcount == 1

    def untell_cut_off(self, name: str, match: str) -> None:
        with self._pool.connection() as conn:
            conn.execute(CUT_OFF_UNTOLD.format(p="%s"), (name_key(name), match))

    # ignore lists (read by arrival)
    def ignore(self, name: str, other: str) -> None:
        row = (name_key(name), name_key(other), other, time.time())
        with self._pool.connection() as conn:
            conn.execute(IGNORE.format(p="%s"), row)

    def unignore(self, name: str, other: str) -> None:
        with self._pool.connection() as conn:
            conn.execute(UNIGNORE.format(p="%s"), (name_key(name), name_key(other)))

    # records
    def add_deal(
        self, record: dict[str, Any], board: str | None = None, *, text: str | None = None
    ) -> None:
        match_id = record["match"]
        deal = (match_id, record["deal_no"], withheld(record) if text is None else text)
        with self._pool.connection() as conn:
            # one statement a deal as a rule: the deal, if its match is withheld and its
            # server alive (its row held till the commit: an ending waits, or came first)
            if deal[1] != 1:  # (a first deal writes its running row: below at once)
                if self.server_id is None:
                    stored = conn.execute(DEAL_IF_RUNNING, (*deal, match_id))
                else:
                    stored = conn.execute(DEAL_IF_ALIVE, (*deal, self.server_id, match_id))
                if stored.rowcount == 1:
                    return
            # its first deal, or its server thought dead (its matches ended by another
            # server) and on: the match withheld again, the server alive again, with it
            running = RUNNING_ROW if board is None else RUNNING_BOARD_ROW
            row: tuple[Any, ...] = (match_id, self.server_id)
            if board is not None:
                row += (match_id, board)
                if deal[1] != 1:  # (a first deal's match has no row yet)
                    conn.execute(HOLD_RUNNING, (match_id,))
            if self.server_id is None:
                conn.execute(RUNNING_DEAL.format(running=running), (*row, *deal))
            else:
                server = self._row()
                conn.execute(REVIVED_RUNNING_DEAL.format(running=running), (*server, *row, *deal))

    def finish_match(
        self,
        match_id: str,
        table_id: int,
        players: list[str],
        variant: str,
        options: list[str],
        winner: str | None,
        reason: str,
        totals: list[int],
        seeds: dict[int, str] | None = None,
        board: str | None = None,
        ratings: list[RatingResult] | None = None,
        forfeit: int | None = None,
        public_table: bool = False,
    ) -> None:
        with self._connection() as conn:
            row = match_row(
                match_id,
                table_id,
                players,
                variant,
                options,
                winner,
                reason,
                totals,
                forfeit,
                public_table,
            )
            if board is not None and _keeps_result(conn, match_id):  # till the release
                conn.execute(
                    "INSERT INTO running (match_id, server, board, result)"
                    " VALUES (%s, %s, %s, %s) ON CONFLICT (match_id) DO UPDATE"
                    " SET board = excluded.board, result = excluded.result",
                    (match_id, self.server_id, board, board_result(row, seeds)),
                )
                return
            _finish(conn, row, seeds)
            if ratings:
                _save_ratings(conn, match_id, variant, len(players), ratings)

    def release_board(self, board: str) -> int:
        with self._pool.connection() as conn:
            return release_board_in(conn, board)

    def records(self) -> Iterator[str]:
        with self._pool.connection() as conn:
            rows = conn.execute(RELEASED_RECORDS).fetchall()
        for (body,) in rows:
            yield body

    def match_records(self, match_id: str) -> list[str]:
        with self._pool.connection() as conn:
            rows = conn.execute(MATCH_RECORDS.format(p="%s"), (match_id,)).fetchall()
        return [body for (body,) in rows]

    def matches_records(self, match_ids: Sequence[str], after: int = 0) -> dict[str, list[str]]:
        query = MATCHES_RECORDS.format(ids="SELECT unnest(%s::text[])", after="%s")
        with self._pool.connection() as conn:
            rows = conn.execute(query, (list(match_ids), after)).fetchall()
        return by_match((match_id, body) for match_id, body in rows)

    def last_deal(self) -> int:
        with self._pool.connection() as conn:
            row = conn.execute(LAST_DEAL_ROW).fetchone()
        return int(row[0]) if row is not None else 0

    def recent_games(self, name: str, limit: int = 10) -> list[dict[str, Any]]:
        with self._pool.connection() as conn:
            finished = "to_char(m.finished AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')"
            rows = conn.execute(
                RECENT_GAMES.format(p="%s", finished=finished), (name_key(name), limit)
            ).fetchall()
        return [game_row(tuple(r)) for r in rows]

    def finished_match(self, match_id: str) -> dict[str, Any] | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT id, table_id, players, variant, winner, reason, totals,"
                " to_char(finished AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), forfeit,"
                " options, " + DEALT.format(m="matches") + " FROM matches WHERE id = %s",
                (match_id,),
            ).fetchone()
        return finished_match_row(None if row is None else tuple(row))

    def last_match_at(self, table_id: int) -> str | None:
        with self._pool.connection() as conn:
            row = conn.execute(LAST_MATCH_AT.format(p="%s", order="seq"), (table_id,)).fetchone()
        return public_match(None if row is None else tuple(row))

    def max_match_number(self) -> int:
        with self._pool.connection() as conn:
            rows = conn.execute(MATCH_IDS).fetchall()
        return highest_match_number([r[0] for r in rows])

    # people's ratings
    def ratings_for(
        self, names: list[str], variant: str, players: int
    ) -> dict[str, tuple[float, float]]:
        keys = sorted({name_key(n) for n in names})
        sql = RATINGS_FOR.format(p="%s", keys=", ".join(["%s"] * len(keys)))
        with self._connection() as conn:
            rows = conn.execute(sql, (variant, players, *keys)).fetchall()
        return {key: (float(mu), float(sigma)) for key, mu, sigma in rows}

    @contextlib.contextmanager
    def ratings_held(self, names: list[str], variant: str, players: int) -> Iterator[None]:
        # a transaction lock per name and game (the row may not be there yet: a first
        # rating), taken in one order, so two ends of the same names take turns: the
        # locks' own (their keys' 32-bit hashes), not the names' (two names' may share
        # one: two ends took two locks in opposite orders, a deadlock)
        keys = [f"{variant} {players} {key}" for key in sorted({name_key(n) for n in names})]
        with self._pool.connection() as conn:
            for (key,) in conn.execute(RATING_ORDER, (keys,)).fetchall():
                conn.execute(RATING_LOCK, (key,))
            # and their accounts, till the commit: a forget_account meanwhile waits, then
            # deletes what this end wrote (before, it deleted first, and the end's upsert
            # made the forgotten name's rating anew); one made before is seen (unrated)
            conn.execute(HOLD_ACCOUNTS, (sorted({name_key(n) for n in names}),))
            self._held.conn = conn
            try:
                yield  # its ratings_for and finish_match use conn: committed at the end
            finally:
                self._held.conn = None

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pool connection, or this thread's inside ``ratings_held``."""
        held: psycopg.Connection[Any] | None = getattr(self._held, "conn", None)
        if held is not None:
            yield held
            return
        with self._pool.connection() as conn:
            yield conn

    def save_ratings(
        self, match_id: str, variant: str, players: int, results: list[RatingResult]
    ) -> None:
        with self._pool.connection() as conn:
            _save_ratings(conn, match_id, variant, players, results)

    def standings(self, variant: str, players: int) -> list[PlayerRating]:
        with self._pool.connection() as conn:
            rows = conn.execute(STANDINGS.format(p="%s"), (variant, players)).fetchall()
        return [player_rating(tuple(r)) for r in rows]

    def standings_page(
        self, variant: str, players: int, first: int, count: int
    ) -> list[PlayerRating]:
        sql = STANDINGS_PAGE.format(p="%s")
        with self._pool.connection() as conn:
            rows = conn.execute(sql, (variant, players, count, first)).fetchall()
        return [player_rating(tuple(r)) for r in rows]

    def rated_counts(self) -> dict[tuple[str, int], int]:
        with self._pool.connection() as conn:
            rows = conn.execute(RATED_COUNTS).fetchall()
        return {(str(variant), int(players)): int(n) for variant, players, n in rows}

    def rank(self, rating: PlayerRating) -> int:
        args = (rating.variant, rating.players, rating.rating, rating.rating, name_key(rating.name))
        with self._pool.connection() as conn:
            row = conn.execute(RANK.format(p="%s"), args).fetchone()
        assert row is not None
        return int(row[0])

    def player_ratings(self, name: str) -> list[PlayerRating]:
        with self._pool.connection() as conn:
            rows = conn.execute(PLAYER_RATINGS.format(p="%s"), (name_key(name),)).fetchall()
        return [player_rating(tuple(r)) for r in rows]

    def rating_history(self, name: str, last: int | None = None) -> list[RatingPoint]:
        key = name_key(name)
        with self._pool.connection() as conn:
            if last is None:
                rows = conn.execute(RATING_HISTORY.format(p="%s"), (key,)).fetchall()
            else:
                query = RATING_HISTORY_LAST.format(p="%s")
                rows = conn.execute(query, (key, last)).fetchall()[::-1]
        return [rating_point(tuple(r)) for r in rows]


def _above(sequence: str, highest: str) -> str:
    """The statement that moves ``sequence`` past ``highest`` (a query of one number,
    NULL for none) if it is behind it, by drawing the numbers between; not setval, which
    could move it back below numbers another server drew meanwhile: draws only go up."""
    return (
        f"SELECT count(nextval('{sequence}')) FROM generate_series(1, ({highest})"
        f" - (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM {sequence}))"
    )


# Each sequence moved past the highest number the matches hold at a store's first draw,
# as sqlite.ABOVE_STORED (0.1.0's databases, and 0.1.0's code run on an upgraded one).
ABOVE_STORED = {
    "table_numbers": _above("table_numbers", "SELECT max(table_id) FROM matches"),
    "match_numbers": _above("match_numbers", f"SELECT max({POSTGRES_NUMBER}) FROM matches e"),
}


# add_deal's statements. As a rule one: the deal stored if its match's running row is
# there (without a kept result: base.RUNNING_NOW) and (a server's store) the server's
# own row, held (FOR KEY SHARE) until the commit: a server ending this one as dead
# deletes that row first, so it waits for this deal (and lists the match with it), or
# this waits for it and finds the row gone.
_STORE_DEAL = (
    "INSERT INTO deals (match_id, deal_no, record) SELECT %s, %s, %s WHERE {alive}"
    f" EXISTS ({RUNNING_NOW.format(p='%s')})"
    " ON CONFLICT (match_id, deal_no) DO UPDATE SET record = excluded.record"
)
DEAL_IF_RUNNING = _STORE_DEAL.format(alive="")
DEAL_IF_ALIVE = _STORE_DEAL.format(
    alive="EXISTS (SELECT FROM servers WHERE id = %s FOR KEY SHARE) AND"
)
# Else (a match's first deal; a match another server ended, its server thought dead)
# one more, all at once: the running row written (its kept result gone), the server's
# row written if it is gone (a server storing a deal is alive), the deal.
REVIVE_SERVER = (
    "INSERT INTO servers (id, host, pid, plain) VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING"
)
# The server's row is held too, if it is there, till the commit (an upsert locks the
# row it finds even when its WHERE leaves it as it is): an ending of this server waits
# for the commit and then ends this match with the server, or this waits for the
# ending and writes the row again. Left free (DO NOTHING), an ending between this
# statement and its commit deleted the row without seeing the new running row: a match
# of a live server left with no server, ended by the next heartbeat, whoever beat.
HOLD_OR_REVIVE_SERVER = (
    "INSERT INTO servers (id, host, pid, plain) VALUES (%s, %s, %s, %s)"
    " ON CONFLICT (id) DO UPDATE SET pid = excluded.pid WHERE false"
)
RUNNING_ROW = "INSERT INTO running (match_id, server) VALUES (%s, %s)" + PLAYS_ON
# A board's match's row held first (after its server's, as an ending holds them): a
# release of its board (release_board) that took the row is waited for, so that the
# row's board (BOARD_UNLESS_LISTED) is decided after it, never written again as the
# released board's by an insert that waited for the release's delete
HOLD_RUNNING = "SELECT FROM running WHERE match_id = %s FOR UPDATE"
BOARD_ROWS = "SELECT FROM running WHERE board = %s FOR UPDATE"
RUNNING_BOARD_ROW = (
    "INSERT INTO running (match_id, server, board)"
    f" VALUES (%s, %s, {BOARD_UNLESS_LISTED.format(p='%s')})" + PLAYS_ON
)
_DEAL = (
    " INSERT INTO deals (match_id, deal_no, record) VALUES (%s, %s, %s)"
    " ON CONFLICT (match_id, deal_no) DO UPDATE SET record = excluded.record"
)
RUNNING_DEAL = "WITH running_row AS ({running})" + _DEAL
REVIVED_RUNNING_DEAL = (
    f"WITH server_row AS ({HOLD_OR_REVIVE_SERVER}), running_row AS ({{running}})" + _DEAL
)


# seconds since this server's last beat, by the database's clock (its row is locked)
SINCE_OWN_BEAT = "SELECT EXTRACT(EPOCH FROM now() - heartbeat)::float8 FROM servers WHERE id = %s"


def _lock_servers(
    conn: psycopg.Connection[Any], dead_after_s: float, own: int | None = None
) -> None:
    """Lock the rows of the servers silent for ``dead_after_s`` and ``own``'s, in the
    order of their ids, before writing any: two servers each finding the other dead
    (both silent, a database away for a while) take turns, the second finding the
    first alive, instead of each holding its own row and waiting for the other's."""
    conn.execute(
        "SELECT FROM servers WHERE id = %s OR heartbeat < now() - make_interval(secs => %s)"
        " ORDER BY id FOR UPDATE",
        (own, dead_after_s),
    )


def living_servers(url: str, own: int, dead_after_s: float) -> list[tuple[int, str, int]]:
    """The other servers on the database at ``url`` with a bus (not plain: their rows
    say so) whose heartbeat is younger than ``dead_after_s``: (id, host, pid) each.
    What a worker starting waits to hear from before it listens (cluster/node.py,
    ``Node.open``): a plain server never tells it its tables."""
    with connect(url) as conn:
        rows = conn.execute(
            "SELECT id, host, pid FROM servers WHERE id <> %s AND NOT plain"
            " AND heartbeat >= now() - make_interval(secs => %s) ORDER BY id",
            (own, dead_after_s),
        ).fetchall()
    return [(int(i), str(host), int(pid)) for i, host, pid in rows]


def _end_the_dead(conn: psycopg.Connection[Any], dead_after_s: float) -> int:
    """Forget the servers silent for ``dead_after_s``; end the running matches no live
    server owns. How many it ended."""
    conn.execute(
        "DELETE FROM servers WHERE heartbeat < now() - make_interval(secs => %s)",
        (dead_after_s,),
    )
    orphaned = conn.execute(f"SELECT match_id, board FROM running WHERE {ORPHANED}").fetchall()
    _list_stopped(conn, [(m, b) for m, b in orphaned], SERVER_LOST)
    cur = conn.execute(f"DELETE FROM running WHERE {ORPHANED}")
    return cur.rowcount


def _save_ratings(
    conn: psycopg.Connection[Any],
    match_id: str,
    variant: str,
    players: int,
    results: list[RatingResult],
) -> None:
    """``save_ratings``' writes, in the connection's transaction."""
    ratings, history = rating_rows(match_id, variant, players, results)
    with conn.cursor() as cur:
        cur.executemany(SAVE_RATING.format(p="%s"), ratings)
        cur.executemany(SAVE_HISTORY.format(p="%s"), history)


def _list_old_stops(conn: psycopg.Connection[Any]) -> None:
    """The matches an old clean stop left unlisted, listed once (base.OLD_STOPS); the
    rows locked, so two servers starting at once list each once."""
    stops = in_number_order([m for (m,) in conn.execute(OLD_STOPS + " FOR UPDATE").fetchall()])
    if not stops:
        return
    _list_stopped(conn, [(m, None) for m in stops], SHUTDOWN)
    finished = OLD_STOP_FINISHED.format(p="%s", number=POSTGRES_NUMBER, before=POSTGRES_BEFORE)
    for match_id in stops:
        number = old_stop_number(match_id)
        conn.execute(finished, (number, number, match_id))
        _players_follow(conn, match_id)
    conn.execute("DELETE FROM old_stops WHERE match_id = ANY(%s)", (stops,))


def _keeps_result(conn: psycopg.Connection[Any], match_id: str) -> bool:
    """(FOR UPDATE: a release at once on another worker waits for this end, or this for
    the release)"""
    running = conn.execute(KEPT_BOARD.format(p="%s") + " FOR UPDATE", (match_id,)).fetchone()
    listed = conn.execute(LISTED.format(p="%s"), (match_id,)).fetchone()
    return keeps_result(running, listed)


def _finish(
    conn: psycopg.Connection[Any], row: tuple[Any, ...], seeds: dict[int, str] | None
) -> None:
    """``finish_match``'s writes of its ``matches`` row, in the connection's transaction."""
    match_id = row[0]
    rows = conn.execute(
        "SELECT id, record FROM deals WHERE match_id = %s FOR UPDATE", (match_id,)
    ).fetchall()
    with conn.cursor() as cur:
        cur.executemany(
            "UPDATE deals SET record = %s WHERE id = %s",
            [(released(body, seeds), row_id) for row_id, body in rows],
        )
    conn.execute("DELETE FROM running WHERE match_id = %s", (match_id,))
    # listed already (ended as stopped while it ran on, its server thought dead; a
    # board's seating its release listed): its players' rows are there, once
    written = conn.execute(
        "INSERT " + MATCH_INTO.format(p="%s") + " ON CONFLICT (id) DO UPDATE"
        " SET table_id = excluded.table_id, players = excluded.players,"
        " variant = excluded.variant, options = excluded.options,"
        " winner = excluded.winner, reason = excluded.reason, totals = excluded.totals,"
        " forfeit = excluded.forfeit, public_table = excluded.public_table,"
        " finished = now()" + FIRST_LISTED,
        row,
    ).fetchone()
    if written is not None and written[0]:
        _list_players(conn, row)
    _players_follow(conn, match_id)


# RETURNING whether the ``matches`` row was inserted, not written over an earlier one
# (a row an upsert updates carries its transaction's id as xmax; an inserted one, 0)
FIRST_LISTED = " RETURNING xmax = 0"


def _list_players(conn: psycopg.Connection[Any], row: tuple[Any, ...]) -> None:
    """The ``match_players`` rows of a match listed for the first time (its ``matches``
    row: ``row``); ``_players_follow`` fills in its time."""
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO match_players (match_id, key) VALUES (%s, %s)",
            player_rows(row[0], json.loads(row[2])),
        )


def _players_follow(conn: psycopg.Connection[Any], match_id: str) -> None:
    """Its players' rows take its ``matches`` row's time and place (base.PLAYERS_FOLLOW)."""
    conn.execute(PLAYERS_FOLLOW.format(p="%s", order="seq"), (match_id, match_id))


def _list_stopped(
    conn: psycopg.Connection[Any], matches: list[tuple[str, str | None]], reason: str
) -> None:
    """List the running matches their server did not finish (``reason``: one of STOPPED),
    each from its last stored deal; one without a deal is not listed. A ladder board's
    (match, board key) is kept withheld, to be listed at its board's release."""
    for match_id, board in matches:
        last = conn.execute(LAST_DEAL.format(p="%s"), (match_id,)).fetchone()
        if last is None:
            continue  # not one deal stored: nothing to list
        row = lost_match_row(match_id, last[0], reason)
        if board is not None:
            conn.execute(
                "UPDATE running SET result = %s WHERE match_id = %s",
                (board_result(row, None), match_id),
            )
            continue
        # (another server may have ended it first: written over, as again; or its server
        # finished it meanwhile: left as it is)
        written = conn.execute(
            LIST_STOPPED.format(p="%s", now="now()") + FIRST_LISTED, row
        ).fetchone()
        if written is not None and written[0]:
            _list_players(conn, row)
        _players_follow(conn, match_id)


def connect(url: str, timeout_s: float = CONNECT_TIMEOUT_S) -> psycopg.Connection[Any]:
    """One connection to ``url``; StoreError (with libpq's reason) if there is none."""
    try:
        psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        # (libpq's ends in a new line: one line; it quotes the address whole, or its bad
        # part alone, which may be the password: hidden, as in every message)
        reason = without_password(" ".join(str(exc).split()), url)
        raise StoreError(f"not a PostgreSQL address: {reason}") from None
    try:
        return psycopg.connect(url, connect_timeout=max(1, int(timeout_s)))
    except psycopg.OperationalError as exc:
        reason = without_password(" ".join(str(exc).split()), url) or "refused"  # as one
        raise StoreError(f"cannot connect to PostgreSQL at {redacted(url)}: {reason}") from None


def _looks_like(conn: psycopg.Connection[Any], name: str) -> str | None:
    """A registered name ``name`` (not registered) looks like, or None."""
    rows = conn.execute(LOOKS_LIKE.format(p="%s"), (latin_look(name),)).fetchall()
    return look_alike(name, (str(r[0]) for r in rows))


def migrate(
    conn: psycopg.Connection[Any], migrations: Sequence[Migration] = MIGRATIONS
) -> Migrated | None:
    """Apply the migrations the database lacks, in the connection's transaction (the
    caller commits, and tells what was applied: None, nothing): PostgreSQL's DDL is
    transactional. The advisory lock makes processes starting at once take turns."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
    conn.execute(POSTGRES_VERSIONS)
    before = _version(conn)
    missing = pending(before, migrations)
    for migration in missing:
        conn.execute(migration.postgres.encode())  # several statements: no parameters
        conn.execute(
            "INSERT INTO schema_migrations (number, description) VALUES (%s, %s)",
            (migration.number, migration.description),
        )
    # (a PostgreSQL store was numbered from its first migration: at 0, it was empty)
    return Migrated(before, missing[-1].number, new=before == 0) if missing else None


def _version(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute("SELECT coalesce(max(number), 0) FROM schema_migrations").fetchone()
    return int(row[0]) if row else 0


def redacted(url: str) -> str:
    """``url`` with any password replaced, fit for a log line or an error."""
    try:
        parts = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "(unparsable address)"
    secret = ":***" if parts.get("password") else ""
    user = f"{parts.get('user', '')}{secret}@" if parts.get("user") or secret else ""
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{parts.get('host', '')}{port}/{parts.get('dbname', '')}"
