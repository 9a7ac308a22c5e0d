"""The schema, as numbered migrations applied in order, for each backend.

A database records the migrations applied to it in ``schema_migrations``; opening a
store applies the missing ones, each in one transaction with its row, so a crash leaves
a database at one version or the next, never between. A database that has a migration
this code does not know is refused (an older server must not write a newer schema).
Never edit a migration once released: add the next one.

Migrations 1 (the server's tables) and 2 (the ladder's) are the schema SQLite files had
before migrations were numbered: written with ``IF NOT EXISTS``, they adopt such a file
as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import structlog

from .base import LATIN_OF_KEY_SQL, LOOK_OF_KEY, LOOK_OF_KEY_PAIRS, StoreError

log = structlog.get_logger("deberc.store")


@attrs.frozen
class Migration:
    number: int
    description: str
    sqlite: str
    postgres: str


SQLITE_VERSIONS = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    number INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied TEXT NOT NULL DEFAULT (datetime('now'))
)
"""

POSTGRES_VERSIONS = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    number INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""

# the matches with deals, neither listed nor running (the same in both dialects); NOT
# EXISTS, not NOT IN: PostgreSQL plans NOT IN (subquery) as a scan of it per deal once
# the ids outgrow work_mem (hours on a store of 300,000 matches, servers kept waiting)
_OLD_STOPS = """
INSERT INTO old_stops (match_id)
    SELECT DISTINCT d.match_id FROM deals d
    WHERE NOT EXISTS (SELECT 1 FROM matches m WHERE m.id = d.match_id)
      AND NOT EXISTS (SELECT 1 FROM running r WHERE r.match_id = d.match_id);
"""

# migration 21's fill of the accounts' look: LATIN_OF_KEY_SQL's expressions, in order
_LATIN_FILL = "\n".join(f"UPDATE accounts SET look = {sql};" for sql in LATIN_OF_KEY_SQL)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "accounts, matches, deals, match players, running matches",
        sqlite="""
CREATE TABLE IF NOT EXISTS accounts (
    key TEXT PRIMARY KEY,  -- name_key(name): one account however a name is written
    name TEXT NOT NULL,
    salt BLOB NOT NULL,
    hash BLOB NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    table_id INTEGER NOT NULL,
    players TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    winner TEXT,
    reason TEXT NOT NULL,
    totals TEXT NOT NULL,
    finished TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS deals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id TEXT NOT NULL,
    deal_no INTEGER NOT NULL,
    record TEXT NOT NULL,
    UNIQUE (match_id, deal_no)
);
CREATE TABLE IF NOT EXISTS match_players (
    match_id TEXT NOT NULL,
    key TEXT NOT NULL  -- name_key(the player's name)
);
CREATE INDEX IF NOT EXISTS match_players_key ON match_players (key);
CREATE TABLE IF NOT EXISTS running (  -- matches whose records are withheld (and seedless)
    match_id TEXT PRIMARY KEY
);
""",
        # records stay TEXT, not jsonb: an export gives back the very text stored
        postgres="""
CREATE TABLE accounts (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    salt BYTEA NOT NULL,
    hash BYTEA NOT NULL,
    created TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE matches (
    seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,  -- the order stored, as SQLite's rowid
    id TEXT PRIMARY KEY,
    table_id INTEGER NOT NULL,
    players TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    winner TEXT,
    reason TEXT NOT NULL,
    totals TEXT NOT NULL,
    finished TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE deals (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    match_id TEXT NOT NULL,
    deal_no INTEGER NOT NULL,
    record TEXT NOT NULL,
    UNIQUE (match_id, deal_no)
);
CREATE TABLE match_players (
    match_id TEXT NOT NULL,
    key TEXT NOT NULL
);
CREATE INDEX match_players_key ON match_players (key);
CREATE TABLE running (
    match_id TEXT PRIMARY KEY
);
""",
    ),
    Migration(
        2,
        "ladder runs, games and ratings",
        # the tables deberc_net/ladder/store.py made itself before: adopted as they are
        sqlite="""
CREATE TABLE IF NOT EXISTS ladder_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started TEXT NOT NULL DEFAULT (datetime('now')),
    settings TEXT NOT NULL,
    summary TEXT
);
CREATE TABLE IF NOT EXISTS ladder_games (
    run_id INTEGER NOT NULL,
    board INTEGER NOT NULL,
    seating TEXT NOT NULL,
    match_id TEXT,
    written TEXT NOT NULL,
    reason TEXT NOT NULL,
    forfeit TEXT
);
CREATE TABLE IF NOT EXISTS ladder_ratings (
    bot TEXT PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    rating REAL NOT NULL,
    games INTEGER NOT NULL,
    updated TEXT NOT NULL DEFAULT (datetime('now'))
);
""",
        postgres="""
CREATE TABLE ladder_runs (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    started TIMESTAMPTZ NOT NULL DEFAULT now(),
    settings TEXT NOT NULL,
    summary TEXT
);
CREATE TABLE ladder_games (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- the order stored
    run_id BIGINT NOT NULL,
    board INTEGER NOT NULL,
    seating TEXT NOT NULL,
    match_id TEXT,
    written TEXT NOT NULL,
    reason TEXT NOT NULL,
    forfeit TEXT
);
CREATE TABLE ladder_ratings (
    bot TEXT PRIMARY KEY,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated TIMESTAMPTZ NOT NULL DEFAULT now()
);
""",
    ),
    Migration(
        3,
        "people's ratings per variant and player count, and their history",
        sqlite="""
CREATE TABLE player_ratings (
    key TEXT NOT NULL,  -- name_key(name)
    name TEXT NOT NULL,  -- as last written
    variant TEXT NOT NULL,
    players INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    rating REAL NOT NULL,  -- mu - 3 sigma: what the standings sort by
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    PRIMARY KEY (key, variant, players)
);
CREATE INDEX player_ratings_standings ON player_ratings (variant, players, rating);
CREATE TABLE rating_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    variant TEXT NOT NULL,
    players INTEGER NOT NULL,
    match_id TEXT NOT NULL,
    rating REAL NOT NULL,
    at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX rating_history_key ON rating_history (key, id);
""",
        postgres="""
CREATE TABLE player_ratings (
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    players INTEGER NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    PRIMARY KEY (key, variant, players)
);
CREATE INDEX player_ratings_standings ON player_ratings (variant, players, rating);
CREATE TABLE rating_history (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key TEXT NOT NULL,
    variant TEXT NOT NULL,
    players INTEGER NOT NULL,
    match_id TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX rating_history_key ON rating_history (key, id);
""",
    ),
    Migration(
        4,
        "servers with heartbeats, running matches by owner, match numbers from the store",
        # match numbers go on after the highest 'm<N>' stored so far; a running match
        # without an owner (written before this migration) is ended by the next server
        sqlite="""
CREATE TABLE servers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started TEXT NOT NULL DEFAULT (datetime('now')),
    heartbeat REAL NOT NULL  -- julianday('now') of its last beat: the database's clock
);
ALTER TABLE running ADD COLUMN server INTEGER;
CREATE TABLE match_numbers (  -- AUTOINCREMENT: a number is never handed out twice
    number INTEGER PRIMARY KEY AUTOINCREMENT
);
INSERT INTO match_numbers (number)
    SELECT n FROM (SELECT max(CAST(substr(id, 2) AS INTEGER)) AS n
                   FROM (SELECT match_id AS id FROM deals UNION SELECT id FROM matches)
                   WHERE id GLOB 'm[0-9]*' AND NOT substr(id, 2) GLOB '*[^0-9]*')
    WHERE n IS NOT NULL;
""",
        postgres="""
CREATE TABLE servers (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat TIMESTAMPTZ NOT NULL DEFAULT now()
);
ALTER TABLE running ADD COLUMN server BIGINT;
CREATE SEQUENCE match_numbers;
SELECT setval('match_numbers', n)
    FROM (SELECT max(substr(id, 2)::bigint) AS n
          FROM (SELECT match_id AS id FROM deals UNION SELECT id FROM matches) AS ids
          WHERE id ~ '^m[0-9]+$') AS top
    WHERE n IS NOT NULL;
""",
    ),
    Migration(
        5,
        "the boards of distributed ladders, claimed by workers under a lease",
        sqlite="""
CREATE TABLE ladder_boards (
    run_id INTEGER NOT NULL,
    board INTEGER NOT NULL,
    spec TEXT NOT NULL,  -- the board's games: seating and seed of each, as JSON
    done INTEGER NOT NULL DEFAULT 0,
    claimed_by TEXT,
    lease_until REAL,  -- julianday
    claims INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, board)
);
""",
        postgres="""
CREATE TABLE ladder_boards (
    run_id BIGINT NOT NULL,
    board INTEGER NOT NULL,
    spec TEXT NOT NULL,
    done BOOLEAN NOT NULL DEFAULT false,
    claimed_by TEXT,
    lease_until TIMESTAMPTZ,
    claims INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, board)
);
CREATE INDEX ladder_boards_open ON ladder_boards (run_id, board) WHERE NOT done;
""",
    ),
    Migration(
        6,
        "table numbers from the store, for the workers of serve --workers on one database",
        sqlite="""
CREATE TABLE table_numbers (  -- AUTOINCREMENT: a number is never handed out twice
    number INTEGER PRIMARY KEY AUTOINCREMENT
);
""",
        postgres="""
CREATE SEQUENCE table_numbers;
""",
    ),
    Migration(
        7,
        "ladder boards' running matches: the board's key, and a result kept until release",
        # a board's match stays withheld through any stop until its board is released
        # (docs/protocol.md §5.5a): 'result' holds what finish_match will write then
        sqlite="""
ALTER TABLE running ADD COLUMN board TEXT;
ALTER TABLE running ADD COLUMN result TEXT;
CREATE INDEX running_board ON running (board) WHERE board IS NOT NULL;
""",
        postgres="""
ALTER TABLE running ADD COLUMN board TEXT;
ALTER TABLE running ADD COLUMN result TEXT;
CREATE INDEX running_board ON running (board) WHERE board IS NOT NULL;
""",
    ),
    Migration(
        8,
        "the matches an old clean stop left unlisted, to be listed by the next server",
        # 0.1.0's clean stop dropped the running row of a match it cut off and listed
        # nothing: its deals alone are left. The first server to open the database lists
        # them as a clean stop's (base.OLD_STOPS), then empties this table.
        sqlite=f"""
CREATE TABLE old_stops (match_id TEXT PRIMARY KEY);
{_OLD_STOPS}
""",
        postgres=f"""
CREATE TABLE old_stops (match_id TEXT PRIMARY KEY);
{_OLD_STOPS}
""",
    ),
    Migration(
        9,
        "distributed ladder runs stopped before their count: failed, or cancelled",
        # 'stopped' is a RunStop's kind ('failed', 'cancelled'; NULL: not stopped), and
        # 'stop_reason' what stopped it (deberc_net/ladder/run_stop.py)
        sqlite="""
ALTER TABLE ladder_runs ADD COLUMN stopped TEXT;
ALTER TABLE ladder_runs ADD COLUMN stop_reason TEXT;
""",
        postgres="""
ALTER TABLE ladder_runs ADD COLUMN stopped TEXT;
ALTER TABLE ladder_runs ADD COLUMN stop_reason TEXT;
""",
    ),
    Migration(
        10,
        "ladder runs' stored command lines without the admin's password",
        # what ladder/stored_argv.py now stores (written out here: a migration never
        # changes): '--admin-password P' kept as '--admin-password ***', and
        # '--admin-password=P' as '--admin-password=***'; each argument in its place
        sqlite="""
UPDATE ladder_runs SET settings = json_set(settings, '$.argv', json((
    SELECT json_group_array(hidden) FROM (
        SELECT CASE
            WHEN before.value = '--admin-password' THEN '***'
            WHEN arg.value LIKE '--admin-password=%' THEN '--admin-password=***'
            ELSE arg.value END AS hidden
        FROM json_each(ladder_runs.settings, '$.argv') AS arg
        LEFT JOIN json_each(ladder_runs.settings, '$.argv') AS before
            ON before.key = arg.key - 1
        ORDER BY arg.key))))
WHERE settings LIKE '%--admin-password%' AND json_type(settings, '$.argv') = 'array';
""",
        postgres="""
UPDATE ladder_runs SET settings = jsonb_set(settings::jsonb, '{argv}', (
    SELECT coalesce(jsonb_agg(CASE
            WHEN before = '--admin-password' THEN '***'
            WHEN arg LIKE '--admin-password=%' THEN '--admin-password=***'
            ELSE arg END ORDER BY place), '[]'::jsonb)
    FROM (
        SELECT arg, place, lag(arg) OVER (ORDER BY place) AS before
        FROM jsonb_array_elements_text(settings::jsonb -> 'argv') WITH ORDINALITY
            AS args(arg, place)
    ) AS placed))::text
WHERE settings LIKE '%--admin-password%'
    AND jsonb_typeof(settings::jsonb -> 'argv') = 'array';
""",
    ),
    Migration(
        11,
        "the seat whose forfeit ended a match",
        # 'forfeit' is MatchEnded.forfeit (NULL: not a forfeit, or finished before this
        # migration): a match forfeited between deals has no record to keep it in
        # (docs/records.md match_over), and three or four players' winners do not say
        sqlite="""
ALTER TABLE matches ADD COLUMN forfeit INTEGER;
""",
        postgres="""
ALTER TABLE matches ADD COLUMN forfeit INTEGER;
""",
    ),
    Migration(
        12,
        "names banned by an admin, kept from logging in",
        # one row a name (its name_key), whoever wrote it how: the name as banned, the
        # admin who banned it, his reason ('' if none) and when (docs/protocol.md §5.19)
        sqlite="""
CREATE TABLE bans (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    admin TEXT NOT NULL,
    reason TEXT NOT NULL,
    since TEXT NOT NULL DEFAULT (datetime('now'))
);
""",
        postgres="""
CREATE TABLE bans (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    admin TEXT NOT NULL,
    reason TEXT NOT NULL,
    since TIMESTAMPTZ NOT NULL DEFAULT now()
);
""",
    ),
    Migration(
        13,
        "names muted by an admin, till when",
        # one row a name (its name_key), as bans: the name as muted, the admin, his
        # reason ('' if none) and the mute's end in seconds since the epoch (a server
        # started anew takes those still running: docs/protocol.md §5.19); a row whose
        # end has passed means nothing and goes at the next mute
        sqlite="""
CREATE TABLE mutes (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    admin TEXT NOT NULL,
    reason TEXT NOT NULL,
    until_s REAL NOT NULL
);
""",
        postgres="""
CREATE TABLE mutes (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    admin TEXT NOT NULL,
    reason TEXT NOT NULL,
    until_s DOUBLE PRECISION NOT NULL
);
""",
    ),
    Migration(
        14,
        "cut-off matches their players were told of",
        # one row a (name_key, match) told (server/cut_off.py): once, whichever server
        # or worker his login reaches, after any number of restarts; when (seconds since
        # the epoch): rows older than the notice's day go at the next one told
        sqlite="""
CREATE TABLE cut_offs_told (
    key TEXT NOT NULL,
    match TEXT NOT NULL,
    told_s REAL NOT NULL,
    PRIMARY KEY (key, match)
);
""",
        postgres="""
CREATE TABLE cut_offs_told (
    key TEXT NOT NULL,
    match TEXT NOT NULL,
    told_s DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (key, match)
);
""",
    ),
    Migration(
        15,
        "a player's matches by when they finished, a ladder run's games by run",
        # a match's players' rows carry its 'finished' and its place in the order stored
        # (SQLite's matches.rowid, PostgreSQL's matches.seq), kept by every write of the
        # match's row (base.PLAYERS_FOLLOW): 'his last N matches' is a range of the
        # (key, finished, seq) index, not a sort of all his rows (10,000 matches: 26 ms
        # a 'games'); (match_id) finds a match's rows to follow it. A run's games by
        # their run: a ladder page read every run's games to find one's (docs/web.md)
        sqlite="""
ALTER TABLE match_players ADD COLUMN finished TEXT;
ALTER TABLE match_players ADD COLUMN seq INTEGER;
UPDATE match_players SET (finished, seq) =
    (SELECT m.finished, m.rowid FROM matches m WHERE m.id = match_players.match_id);
DROP INDEX IF EXISTS match_players_key;
CREATE INDEX match_players_recent ON match_players (key, finished, seq);
CREATE INDEX match_players_match ON match_players (match_id);
CREATE INDEX ladder_games_run ON ladder_games (run_id);
""",
        postgres="""
ALTER TABLE match_players ADD COLUMN finished TIMESTAMPTZ, ADD COLUMN seq BIGINT;
UPDATE match_players p SET finished = m.finished, seq = m.seq
    FROM matches m WHERE m.id = p.match_id;
DROP INDEX IF EXISTS match_players_key;
CREATE INDEX match_players_recent ON match_players (key, finished, seq);
CREATE INDEX match_players_match ON match_players (match_id);
CREATE INDEX ladder_games_run ON ladder_games (run_id, seq);
""",
    ),
    Migration(
        16,
        "who lifted a mute",
        # a mute's row stays when an admin's 'unmute' lifts it, naming him (NULL: still
        # running), till the next mute clears the rows run out: the other servers on the
        # database, which learn the lift at their look, tell its player who lifted it
        sqlite="""
ALTER TABLE mutes ADD COLUMN lifted_by TEXT;
""",
        postgres="""
ALTER TABLE mutes ADD COLUMN lifted_by TEXT;
""",
    ),
    Migration(
        17,
        "the names each registered player ignores",
        # one row a player (his name_key) and a name he ignores (its name_key): the name
        # as listed, and when it was added (seconds since the epoch: the list's order);
        # read at his login (server/ignoring.py, docs/protocol.md §5.21)
        sqlite="""
CREATE TABLE ignores (
    key TEXT NOT NULL,
    ignored TEXT NOT NULL,
    name TEXT NOT NULL,
    added_s REAL NOT NULL,
    PRIMARY KEY (key, ignored)
);
""",
        postgres="""
CREATE TABLE ignores (
    key TEXT NOT NULL,
    ignored TEXT NOT NULL,
    name TEXT NOT NULL,
    added_s DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (key, ignored)
);
""",
    ),
    Migration(
        18,
        "accounts found by what their names look like",
        # an index on key_look(name) (LOOK_OF_KEY: the key with i/l/1 and o/0 made
        # one, coarser than look_key, which needs the case the key has lost), so the
        # registered names a new one may look like are read in one look-up and
        # look_alike keeps the one that does (server/login.py, docs/security.md §1);
        # nothing stored
        sqlite=f"CREATE INDEX accounts_look ON accounts ({LOOK_OF_KEY});",
        postgres=f"CREATE INDEX accounts_look ON accounts (({LOOK_OF_KEY}));",
    ),
    Migration(
        19,
        "servers without a bus",
        # a plain server (no --workers: no bus) says so in its row: a worker starting
        # does not wait for its tables, which it never tells (server/cluster/node.py);
        # a row of an older deberc-net, which says nothing, is waited for, as before
        sqlite="""
ALTER TABLE servers ADD COLUMN plain INTEGER NOT NULL DEFAULT 0;
""",
        postgres="""
ALTER TABLE servers ADD COLUMN plain BOOLEAN NOT NULL DEFAULT false;
""",
    ),
    Migration(
        20,
        "accounts found by what their names look like, rn as m, cl as d, vv as w too",
        # migration 18's index with the pairs drawn as one letter, and the Cyrillic
        # letters drawn as one Latin letter made one (LOOK_OF_KEY_PAIRS, still coarser
        # than look_key; a look-up asks for a name's spellings: key_looks), in place of
        # it; nothing stored
        sqlite=f"""
DROP INDEX accounts_look;
CREATE INDEX accounts_look_pairs ON accounts ({LOOK_OF_KEY_PAIRS});
""",
        postgres=f"""
DROP INDEX accounts_look;
CREATE INDEX accounts_look_pairs ON accounts (({LOOK_OF_KEY_PAIRS}));
""",
    ),
    Migration(
        21,
        "accounts found by their names read as Latin, mixed alphabets too",
        # each account's key read as Latin (latin_look: LATIN_OF_KEY, the Cyrillic and
        # Greek letters only roughly Latin among them), stored and indexed in place of
        # migration 20's index: a name registered before mixing alphabets was refused
        # ('аnna') is found by the Latin one it looks like, and a look-up asks for one
        # look, not four spellings (docs/security.md §1); new rows get it from the code
        sqlite=f"""
ALTER TABLE accounts ADD COLUMN look TEXT NOT NULL DEFAULT '';
{_LATIN_FILL}
DROP INDEX accounts_look_pairs;
CREATE INDEX accounts_look ON accounts (look);
""",
        postgres=f"""
ALTER TABLE accounts ADD COLUMN look TEXT NOT NULL DEFAULT '';
{_LATIN_FILL}
DROP INDEX accounts_look_pairs;
CREATE INDEX accounts_look ON accounts (look);
""",
    ),
    Migration(
        22,
        "ladder ratings per game: variant and number of players",
        # a bot's ladder rating was one row per name, which a two-player and a
        # three-player ladder took in turn; each row is now a game's (as people's are,
        # player_ratings). A row stored before goes to the game of the last counted run
        # that had the bot, whose rating it carries (moscow, 2 players without one)
        sqlite="""
CREATE TABLE ladder_ratings_by_game (
    variant TEXT NOT NULL,
    players INTEGER NOT NULL,
    bot TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    rating REAL NOT NULL,
    games INTEGER NOT NULL,
    updated TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (variant, players, bot)
);
INSERT INTO ladder_ratings_by_game
    SELECT coalesce(json_extract(last.summary, '$.variant'), 'moscow'),
           coalesce(json_extract(last.summary, '$.players'), 2),
           o.bot, o.mu, o.sigma, o.rating, o.games, o.updated
    FROM ladder_ratings o LEFT JOIN ladder_runs last ON last.id = (
        SELECT max(r.id) FROM ladder_runs r, json_each(r.summary, '$.bots') b
        WHERE r.summary IS NOT NULL AND b.value = o.bot);
DROP TABLE ladder_ratings;
ALTER TABLE ladder_ratings_by_game RENAME TO ladder_ratings;
""",
        postgres="""
CREATE TABLE ladder_ratings_by_game (
    variant TEXT NOT NULL,
    players INTEGER NOT NULL,
    bot TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (variant, players, bot)
);
INSERT INTO ladder_ratings_by_game
    SELECT coalesce(last.summary::jsonb ->> 'variant', 'moscow'),
           coalesce((last.summary::jsonb ->> 'players')::integer, 2),
           o.bot, o.mu, o.sigma, o.rating, o.games, o.updated
    FROM ladder_ratings o LEFT JOIN ladder_runs last ON last.id = (
        SELECT max(r.id) FROM ladder_runs r
        WHERE r.summary IS NOT NULL AND r.summary::jsonb -> 'bots' ? o.bot);
DROP TABLE ladder_ratings;
ALTER TABLE ladder_ratings_by_game RENAME TO ladder_ratings;
""",
    ),
    Migration(
        23,
        "matches: whether each was a public table's, found by table",
        # a closed table's web page links the match last played at its number, read from
        # the store (any worker or server, after a restart); a private table's or a
        # board's number must still say nothing (docs/security.md §1), so each match says
        # whether its table was public. NULL, for those stored before: not known, so not
        # linked. The index makes that look-up one probe on a big club's store
        sqlite="""
ALTER TABLE matches ADD COLUMN public_table INTEGER;
CREATE INDEX matches_table ON matches (table_id);
""",
        postgres="""
ALTER TABLE matches ADD COLUMN public_table BOOLEAN;
CREATE INDEX matches_table ON matches (table_id, seq);
""",
    ),
    Migration(
        24,
        "servers: the boot and start of each server's process",
        # a server's process named whatever the clock does (store/gone.py): this host's
        # boot (its kernel's boot_id) and the process's start in clock ticks after it,
        # so that a restarted SQLite server tells a pid reused from its writer, still
        # running, after a step of the clock (NTP, a VM restored). NULL: not Linux, or a
        # row an older deberc-net wrote (its 'started' is compared, as before)
        sqlite="""
ALTER TABLE servers ADD COLUMN boot TEXT;
ALTER TABLE servers ADD COLUMN start_ticks INTEGER;
""",
        postgres="""
ALTER TABLE servers ADD COLUMN boot TEXT, ADD COLUMN start_ticks BIGINT;
""",
    ),
    Migration(
        25,
        "addresses and networks banned by an admin, till when",
        # one row a network as listed ('203.0.113.0/24', an IPv4 address bare: server/
        # banned_addresses.py), whose guests and new names may not log in: the admin,
        # his reason ('' if none), when, and its end in seconds since the epoch
        # (docs/protocol.md §5.19); a row whose end has passed goes at the next ban
        sqlite="""
CREATE TABLE address_bans (
    network TEXT PRIMARY KEY,
    admin TEXT NOT NULL,
    reason TEXT NOT NULL,
    since TEXT NOT NULL DEFAULT (datetime('now')),
    until_s REAL NOT NULL
);
""",
        postgres="""
CREATE TABLE address_bans (
    network TEXT PRIMARY KEY,
    admin TEXT NOT NULL,
    reason TEXT NOT NULL,
    since TIMESTAMPTZ NOT NULL DEFAULT now(),
    until_s DOUBLE PRECISION NOT NULL
);
""",
    ),
)


@attrs.frozen
class Migrated:
    """The schema versions a store's open took its database from and to; ``new``: the
    database was empty (its schema made, nothing upgraded)."""

    before: int
    after: int
    new: bool

    def tell(self, db: str) -> None:
        """The log's line for an upgrade: at warning, so that a server whose log_level is
        "warning" says it too (it cannot be undone: docs/security.md, "Upgrading");
        none for a new database. ``db``: fit for a log line (``describe``)."""
        if not self.new:
            log.warning("migrated", db=db, **{"from": self.before, "to": self.after})


def pending(current: int, migrations: Sequence[Migration]) -> list[Migration]:
    """The migrations a database at ``current`` still needs, in order; StoreError if it
    is newer than the newest one known."""
    numbers = [m.number for m in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError(f"migrations must be numbered 1, 2, 3 … in order, not {numbers}")
    if current > len(numbers):
        raise StoreError(
            f"the database's schema is at version {current}, newer than this "
            f"deberc-net knows ({len(numbers)}): upgrade deberc-net"
        )
    return [m for m in migrations if m.number > current]
