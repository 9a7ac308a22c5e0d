"""An audit of docs/scaling.md's `serve --workers N` section, promise by promise (the
rest of the page: test_scaling_doc_audit.py). Each promise, and (→) the tests that pin
it: a module under tests/ and its tests, "here" for this module's.

The opening (`--workers`, the code's files)
    `--workers` 1 by default, nothing of the cluster started; above 1 an SQLite `--db`
    refused, status 2, before anything is opened (a settings file's db too)
    → store/test_workers.py test_workers_above_one_need_postgresql,
      test_workers_on_a_settings_files_sqlite_db_say_to_change_the_file;
      server/test_config.py test_serve_refuses_workers_out_of_range
    the modules `launch.py`, `worker.py`, `bus.py`, `node.py`, `payloads.py`,
    `remote.py` → store/test_scaling_doc_audit.py
      test_every_file_and_test_the_document_cites_is_there (each path there)

Processes
    the parent binds the port (SO_REUSEPORT; port 0 a free one) and keeps it bound
    while a worker restarts → store/test_workers_stopping.py
      test_a_rolling_restart_of_one_worker_keeps_its_players_seats_elsewhere (a login
      on the port during and after the restart); store/test_workers_restart.py
    workers forked from the parent (its command line, its children; no settings in
    their environment) → here:
      test_one_cluster_for_the_lobby_copy_seeks_logs_processes_and_nohup; the server
    imported once, after the parent's checks (a refused one imports none)
    → store/test_workers_parent_imports.py; each worker its own pipes only (a
    restarted one too), the signals a fresh interpreter's, the parent refusing to fork
    with a thread running → store/test_workers_forked.py; a broken rule plugin said by
    the parent in two lines, status 2 → store/test_workers_broken_plugin.py; once a
    worker is stopped as asked, it and every later start a fresh interpreter of the
    code installed then, its settings on a descriptor, not in its environment (nor its
    password) → store/test_workers_rolling_upgrade.py; settings it cannot read stop it,
    said as its failure; a parent of an earlier version's environment read and dropped
    → server/test_worker_settings_fd.py; a worker's stdout read
    all along, a plugin's print passed on to the parent's stdout
    → store/test_workers_plugin_print.py
    a port another process listens on, another `serve --workers` too, refused in one
    line, status 2 → store/test_workers.py
      test_workers_refuse_a_port_another_serve_workers_listens_on
    `listening` once every worker listens → store/test_scaling_doc_audit.py
      test_the_howto_to_try_it_on_serves_workers_that_number_house_bots_apart
    the parent's lines at info level whatever `log_level` says; the workers use
    `log_level` → here:
      test_one_cluster_for_the_lobby_copy_seeks_logs_processes_and_nohup
    a dead worker started again after `worker_restart_ms`, `worker_died` at warning
    → store/test_workers_drain.py test_a_worker_killed_during_a_drain_is_logged_dead_not_drained
      (warning), store/test_workers.py
      test_two_workers_privacy_web_face_play_resume_and_a_worker_killed,
      store/test_workers_restart.py; the 1 s: store/test_scaling_doc_audit.py
    one stopped as asked `worker_stopped` at info and started again, even before it
    served (status -15) → store/test_workers_stopping.py (the test it cites)
    one failed for a reason it knew: `reason`, one line, status 2 → store/test_workers.py
      test_a_worker_whose_database_fails_after_it_listened_says_why_in_one_line
    one dead before every worker listens: the others stopped, `worker_failed_to_start`,
    `deberc-net serve: REASON` status 2 (the web port, the database)
    → store/test_workers.py test_workers_that_cannot_start_stop_their_parent,
      test_workers_whose_web_port_is_in_use_say_so_in_one_line;
    status 1 if the worker died without a reason
    → here: test_a_worker_that_dies_without_a_reason_before_serving_ends_the_parent_with_1
    SIGTERM, SIGINT, SIGHUP passed on as SIGTERM, each worker stopping as one server
    does → store/test_workers.py test_help_rematch_games_and_a_clean_stop_across_workers
      (SIGTERM), store/test_workers_page.py (SIGINT, Ctrl-C),
      store/test_workers_stopping.py
      test_a_terminals_hangup_stops_the_parent_and_every_worker_cleanly;
    (unless ignored: `nohup`) → here:
      test_one_cluster_for_the_lobby_copy_seeks_logs_processes_and_nohup
      (a hangup of the whole job under nohup stops nothing: the page cited
      store/test_workers_stopping.py, which has no nohup case: a slip, the page now
      cites this test); server/test_shutdown.py
      test_a_server_started_under_nohup_plays_on_through_a_hangup (one server's)
    SIGUSR1 to the parent drains them all; an admin's `drain` on any worker too, his
    worker signalling the parent; `drain` with `signal=SIGUSR1`, `moderation`
    `action=drain` → store/test_workers_drain.py (the tests it cites)
    a worker whose parent is gone does not signal it: it answers `shutting-down`
    → here: test_an_admins_drain_on_a_worker_whose_parent_is_gone_is_refused_shutting_down;
      (it stops: store/test_workers_orphans.py)
    the signal passed on with the word `drain` on stdin; an admin's `drain` then
    `already=1`, a worker dead too → store/test_workers_drain.py
      test_an_admins_drain_finds_the_parents_drain_begun_a_worker_dead
    each closes its waiting tables, refuses new ones, stops once its own matches and
    its players' at other workers' tables are over (a match started a moment before
    counts) → store/test_workers_drain.py test_sigusr1_to_the_parent_drains_every_worker,
      test_a_seat_at_a_match_just_started_elsewhere_is_one_its_worker_waits_for
    or at `drain_limit_ms`, each worker's from its own drain's start
    → server/test_drain.py (one server's limit; each worker runs it: not run under
      --workers, for its length)
    `info server=stopping text=The server is shutting down: this worker's matches are over.`
    → store/test_workers_drain.py
      test_a_worker_drained_while_another_plays_says_its_own_matches_are_over
    `worker_drained` status 0; killed meanwhile `worker_died` with `draining: true`;
    `drained`, `stopped`, exit 0 → store/test_workers_drain.py
      test_a_worker_killed_during_a_drain_is_logged_dead_not_drained,
      test_sigusr1_to_the_parent_drains_every_worker
    one killed meanwhile: status 0 → store/test_workers_drain.py
      test_a_worker_killed_during_a_drain_is_logged_dead_not_drained;
    one failed meanwhile with a status of its own (2): that status → not pinned (a
      worker failing of itself during a drain is brought about only by its database;
      launch.py's one line `status or (code if code > 0 else 0)`, read)
    `/api/health` 503 `draining`; worker 0 stops last, waiting for its siblings, not
    another host's → store/test_workers_drain.py
      test_the_web_face_says_draining_till_the_last_worker_has_drained,
      test_worker_0_drained_alone_stops_though_the_others_play_on;
      server/test_node_identities.py
      test_the_web_face_waits_for_its_own_servers_drain_not_another_hosts
    SIGTERM during the drain stops the workers still up at once (the page cited
    store/test_workers_drain.py, which sends none: the page now cites this) → here:
      test_one_cluster_for_the_lobby_copy_seeks_logs_processes_and_nohup;
    a second SIGUSR1 `drain_ignored` → store/test_workers_drain.py
      test_an_admins_drain_finds_the_parents_drain_begun_a_worker_dead
    Ctrl-C: a worker stops once, cleanly → store/test_workers_page.py (the test it cites)
    each worker's own loopback port for its house bots (`port`, `shared_port`); house
    bots numbered in each worker's stride → store/test_scaling_doc_audit.py
      test_the_howto_to_try_it_on_serves_workers_that_number_house_bots_apart;
      store/test_workers_limits.py; a name online on another worker (another
      host's) skipped → here: test_a_house_bots_name_online_at_another_worker_is_skipped
    the web face on worker 0 only, listing every worker's tables with deal, score,
    hand sizes and away players, live pages of another worker's table forwarded
    → store/test_scaling_doc_audit.py (one `http_listening`);
      server/test_bus_tables.py
      test_another_workers_running_table_is_listed_with_its_deal_and_score,
      test_the_match_is_told_for_the_web_face_only_of_a_table_it_shows,
      test_a_private_tables_players_away_are_told_to_the_other_workers;
      store/test_workers_page.py, store/test_workers_feed.py

Who owns what
    each worker its own store connection, server id, heartbeat, sessions, tables;
    a table lives where it was opened; a session where it was accepted
    → store/test_workers.py (both tests: a table of worker 0 played from worker 1)
    table ids from the store 32 at a time, no two workers sharing one
    → server/test_table_numbers.py; AHEAD: store/test_scaling_doc_audit.py

The shared lobby
    every worker's copy of the others' players (a guest's token), tables and seeks;
    `who`, `tables`, `sit N`, `observe N`, `finger` read it → store/test_workers.py
      test_two_workers_privacy_web_face_play_resume_and_a_worker_killed,
      test_help_rematch_games_and_a_clean_stop_across_workers
    `rules N` and the welcome's counts read it
    → here: test_one_cluster_for_the_lobby_copy_seeks_logs_processes_and_nohup
    a look every 0.25 s; a table over between two looks told gone too; presence at once
    → store/test_workers_ghosts.py; 0.25: store/test_scaling_doc_audit.py
    `hello`, answered with everything held, and asked back of one taken for dead
    → store/test_workers_unanswered.py
      test_a_worker_back_from_the_dead_is_asked_what_it_holds_when_it_says_hello;
      store/test_workers_start_up.py
    a copy 0.25 s behind: a price, no promise to pin

A worker's start-up order
    LISTEN, the peers noted (not `plain`, younger than `server_dead_ms`, not of an
    ended process of its host), `hello` as starting, listening only once each told
    its tables whole; a returning player back at his seat at once; `peers_awaited`,
    `peers_unheard`, a heartbeat at most; a plain server not waited for; a starting
    sibling not waited for → store/test_workers_start_up.py (both tests)

The bus
    two connections per worker → here:
      test_the_bus_delivers_identical_messages_of_one_send_each_to_whom_it_is_addressed;
    the listener read by trio, the publisher one transaction per send, in order
    → store/test_workers_order.py (order); here (one send: `sends == 1`);
      store/test_workers_bus.py
      test_a_worker_with_more_than_1024_descriptors_open_still_hears_the_bus
    messages JSON with their sender and a serial number, so identical ones of one
    transaction are not folded into one; `lobby` heard by every worker, `w<id>` by
    its worker alone
    → here: test_the_bus_delivers_identical_messages_of_one_send_each_to_whom_it_is_addressed
    `hello`, `in`/`left`, `tables` (a beat at least every `heartbeat_ms`; as many as
    fit; a private table's invitations in parts), `seeks` (in parts, whole again each
    heartbeat), `say`, `gone`, `bye`, `announce`, `mute`, `unmute`
    → server/test_bus_tables.py (every test), store/test_workers_seeks.py,
      store/test_workers_moderation.py, server/test_node_identities.py
      test_a_worker_that_says_bye_is_forgotten_with_its_name;
      store/test_mutes_across_servers.py (a mute told and read is one, told once)
    `invited`, `kick` on `w<id>`; a ban the store's → store/test_workers_moderation.py,
      store/test_workers.py (an invitation across); server/test_bus_payloads.py
      test_an_invitation_crosses_the_bus_whole
    a burst of lines to one player one `text` while it fits, counted in bytes as sent
    → store/test_workers_bus.py (every test but the first)

Playing across workers
    each posted message forwarded with the session's id and what the owner needs;
    `ign` as 12-hex-digit digests; `ignores` at once; a lobby `say` and an `invite`
    filtered by the player's own worker → server/test_bus_payloads.py,
      store/test_workers_ignore.py, store/test_scaling_doc_audit.py
      test_an_ignore_list_crosses_the_bus_as_12_hex_digits_a_name
    the `RemoteSession` renders in the player's style and language
    → store/test_workers.py (tell=asks across), store/test_workers_rated_news.py
    `placed`, `watch`, `rematch_asked`, the offer named on `off=server-lost`, a match
    without an offer → store/test_workers_rematch_lost.py (every test)
    `page_offer`, `page_offer_end`: another worker's page follows the rematch, its
    owner's loss an offer not taken → store/test_workers_page_rematch.py
    `seat_spent` → store/test_workers_seat_spent.py
    `ended` (the kibitzer's `sheet`), `own_over` → store/test_workers_watched_match.py
    each line answered before the next (`r`, `done`), `answer_late` past
    `server_dead_ms`, a late answer naming its own request
    → store/test_workers_order.py, store/test_workers_unanswered.py,
      store/test_workers_owner_ids.py; store/test_scaling_doc_audit.py
      test_a_line_not_answered_within_server_dead_ms_is_logged_answer_late
    the owner's quotas on the stand-in; a bus `ask` credits the real connection's
    flood allowance → not pinned: no test plays a flood across workers (node.py's
    `_out` credits `answer_credit` as session.py does for a local ask); left

Seeks across workers
    own seekers first; after `seek_patience_ms` to a worker with a smaller id (one
    way) → store/test_workers.py (two seekers meet);
      here: test_one_cluster_for_the_lobby_copy_seeks_logs_processes_and_nohup
      (the match's table is the smaller id's worker's; that two workers never swap
      their seekers is a race the test cannot force: not pinned)
    a waiting `new` table of that game on another worker sat at directly → here:
      test_one_cluster_for_the_lobby_copy_seeks_logs_processes_and_nohup;
      server/test_bus_tables.py (the `seeks` message says which tables wait)
    a seek gone to another worker withdrawn there by `unseek`, `leave`, sitting
    elsewhere, a drop → here: test_a_seek_gone_to_another_worker_is_withdrawn_there
    address and kept-apart players carried; `left_by`, the seek back first in line
    → store/test_workers_seek_apart.py

Reconnect-by-login on another worker
    `in`, the old connection closed (`logged in elsewhere`), `Back` to the owner, a
    guest's token travelling with his presence → store/test_workers.py (dan's
    token), store/test_workers_login_race.py
      test_a_login_taking_over_another_workers_connection_keeps_its_spelling
    an `away` naming its connection; the older version's by name
    → store/test_workers_away_after_login.py (every test); server/test_away_told.py

Two logins of one name at once → store/test_workers_limits.py,
    store/test_workers_login_race.py (the tests the section cites)

A worker's death
    the parent starts a new worker; the others forget the dead one at its
    replacement's `hello` or after `server_dead_ms`; a late word ignored
    → server/test_node_identities.py; store/test_workers.py (a worker killed)
    `table N closes: its server was lost`; seats away, taken back with password or
    token on any worker → store/test_workers.py, store/test_workers_dead_guest.py
    a login on a living sibling, the dead pid seen → store/test_workers_login_after_kill.py,
      server/test_node_dead_process.py
    one back before the forgetting not marked away → store/test_workers_back_before_lost.py,
      server/test_away_told.py
    its running matches ended `server-lost` by the first live heartbeat, stored deals
    kept and exportable, no rating moved → store/test_workers.py (its stored deal
    exported); store/test_store.py (the ending, both backends)
    `--workers` takes 1000 and 5000 unless given; the tests' 500 and 3000
    → server/test_config.py test_workers_on_one_host_take_a_dead_worker_for_dead_in_seconds;
      here: test_the_timings_the_section_states_are_the_codes_and_the_tests
    a clean stop: `bye`, forgotten at once, its matches `shutdown`; a board's withheld
    → store/test_workers.py test_help_rematch_games_and_a_clean_stop_across_workers;
      store/test_store.py (a board's)

Hosts on different machines
    `server_dead_ms` each worker's judgement of every other, given in `--config`
    → server/test_config.py (the file's values kept); store/test_workers_two_hosts_stop.py
      (two hosts on one database); the example's 1000 and 15000 kept under --workers
      → here: test_hosts_apart_given_the_sections_timings_in_their_settings_keep_them
    a killed worker's tables kept that long: the same judgement (server/test_node_identities.py)

One worker restarted
    SIGTERM to one worker: its players told, its tables closed, `bye`, `worker_stopped`
    status 0 at info, started again; its players' seats elsewhere kept
    → store/test_workers_stopping.py
      test_a_rolling_restart_of_one_worker_keeps_its_players_seats_elsewhere
    an upgrade with a migration not worker by worker: advice (migrations: the page's
    own section, store/test_store.py)
    a connection during its grace `error code=busy text=the server is shutting down`
    → server/test_shutdown.py (one server's stop, the same code),
      store/test_workers_bus_lost.py (a worker's)
    a rematch offer off as its stop begins (`off=server-stopped`), `shutting-down` to
    one asked meanwhile → store/test_workers_rematch_lost.py
      test_a_rematch_kept_by_a_stopping_worker_is_told_off_with_why,
      store/test_workers_stopping.py test_a_rematch_asked_of_a_stopping_worker_is_refused
    SIGHUP to a worker as SIGTERM; a terminal's hangup → store/test_workers_stopping.py
      (its tests); under `nohup` SIGHUP stays ignored → here (the cluster test, above)
    SIGUSR1 to one worker's pid: that worker alone, `worker_stopped`, started again
    → store/test_workers_drain.py test_worker_0_drained_alone_stops_though_the_others_play_on

A parent killed outright → store/test_workers_orphans.py

PostgreSQL going away → store/test_workers_database_away.py,
    store/test_workers_bus_lost.py, store/test_store_close.py (the tests it cites)

Why LISTEN/NOTIFY: 9264 messages/s, 3.5 ms (bench/bus.py): a bench figure, not
    pinned by its nature; the 8000-byte limit: store/test_scaling_doc_audit.py

`help`, `rematch`, `games` across workers
    → store/test_workers.py test_help_rematch_games_and_a_clean_stop_across_workers;
      store/test_workers_rematch_order.py

What differs from one worker
    the stall, its seats and its messages → store/test_workers_order.py,
      store/test_workers_stall_seat.py, server/test_seat_again_after_stall.py (every
      test); matchmaking's table cap (`max_tables`, `new`'s too) counts every
      worker's tables → here: test_the_table_cap_counts_every_workers_tables; limits per
      worker → docs/security.md's own audit
      (server/test_security_doc_audit.py), store/test_workers_limits.py
    "Not covered": limits stated, not promises, but one: the web page and
    `/api/tables/N` of another worker's table were said to have no match, score, deal
    or hand sizes (the copy holding none), when the copy holds them as its owner told
    them, and the page shows them (as "Processes" says): a slip, corrected
    → store/test_workers.py test_two_workers_privacy_web_face_play_resume_and_a_worker_killed
      (its web face part: deal, score, match, hand sizes of worker 1's table);
      here: test_the_page_says_another_workers_table_page_shows_its_match

Tests (the section's list) → store/test_workers.py: its names there
    (store/test_scaling_doc_audit.py test_every_file_and_test_the_document_cites_is_there);
    store/test_workers_two_hosts_stop.py

Measured (`--workers 2` against `--workers 1`): bench figures, not pinned by tests
    by their nature; `bus_closed`: store/test_scaling_doc_audit.py

Ratings under `--workers` (§Several servers on one database): two workers ending
    rated matches of one name at once could lose one update, documented as "Not fixed
    yet": a bug a server's user would not accept (a rated house bot plays at every
    worker's tables), fixed (the ratings read, computed and written in one transaction
    holding them, PostgreSQL's advisory lock per name) and the page corrected
    → store/test_player_ratings.py
      test_two_servers_ending_rated_matches_of_one_name_at_once_lose_neither_update
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
import trio

from deberc_net.cli import build_parser, serve_config
from deberc_net.server.accounts import set_password
from deberc_net.server.app import serve
from deberc_net.server.cluster import WorkerPlace
from deberc_net.server.cluster.bus import LOBBY, Bus, channel
from deberc_net.server.cluster.launch import WORKERS_DEAD_MS, WORKERS_HEARTBEAT_MS
from deberc_net.server.cluster.payloads import seeks_messages, settings_for_bus
from deberc_net.server.matchmaking import GameSettings
from deberc_net.server.store import open_store
from tests.server.client import LineClient, close_all, log_in_machine
from tests.server.conftest import make_config

from .workers import (
    OTHER,
    SETTINGS,
    START_LIMIT_S,
    heard_one,
    quick_death,
    served_workers,
    settings_file,
    told_table,
    until_listed,
    worker_and_bus,
)

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "scaling.md").read_text()
WORKERS_DOC = " ".join(DOC[DOC.index("\n## `serve --workers N`") :].split())


def said(text: str) -> bool:
    """Whether the section says ``text`` (its line breaks as spaces)."""
    return " ".join(text.split()) in WORKERS_DOC


def test_the_timings_the_section_states_are_the_codes_and_the_tests() -> None:
    """ "A worker's death": `--workers` above 1 takes `heartbeat_ms = 1000` and
    `server_dead_ms = 5000` unless the settings file gives either (which
    server/test_config.py pins), and "the tests give 500 and 10000, and 300 and 1500
    where one waits for a death": the settings the worker tests serve, and those
    quick_death makes of them (tests/store/workers.py)."""
    assert said("takes `heartbeat_ms = 1000` and `server_dead_ms = 5000` unless")
    assert (WORKERS_HEARTBEAT_MS, WORKERS_DEAD_MS) == (1000, 5000)
    assert said("the tests give 500 and 10000, and 300 and 1500 where one waits for a death")
    assert "heartbeat_ms = 500\n" in SETTINGS and "server_dead_ms = 10000\n" in SETTINGS
    quick = quick_death(SETTINGS)
    assert "heartbeat_ms = 300\n" in quick and "server_dead_ms = 1500\n" in quick


DRAINING = (
    "info server=draining text=The server restarts once the running matches are over: no new"
    " game starts until then."
)


def _drains(events: list[dict[str, Any]]) -> list[str]:
    """Which processes have logged their drain (the workers' indexes, None: the parent)."""
    return sorted(str(e.get("worker")) for e in events if e.get("event") == "drain")


def _block(table: str) -> int:
    """Which of the store's blocks of 32 table ids ``table`` is of."""
    return (int(table) - 1) // 32


def test_hosts_apart_given_the_sections_timings_in_their_settings_keep_them(
    tmp_path: Path,
) -> None:
    """ "Hosts on different machines": `heartbeat_ms = 1000`, `server_dead_ms = 15000`
    in `--config` are what `serve --workers` then runs with (not the 1 s and 5 s it
    takes on one host)."""
    assert said("(`heartbeat_ms = 1000`, `server_dead_ms = 15000` rides out a 15-s stall")
    toml = settings_file(tmp_path, "[server]\nheartbeat_ms = 1000\nserver_dead_ms = 15000\n")
    argv = ["serve", "--workers", "2", "--db", "postgresql://nobody@127.0.0.1/none"]
    config = serve_config(build_parser().parse_args([*argv, "--config", str(toml)]))
    assert (config.heartbeat_ms, config.server_dead_ms) == (1000, 15000)


async def _welcomed(client: LineClient, name: str) -> str:
    """``client`` logged in as ``name`` (machine style): its welcome's text."""
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    await client.send(f"login {name}")
    return (await client.expect("ok", cmd="login", name=name))["text"]


async def _rules(client: LineClient, table: str) -> list[str]:
    """The lines ``rules TABLE`` answers (a block with no end: a ping after it; the
    table's own events, which may come meanwhile, left out)."""
    await client.send(f"rules {table}")
    await client.send("ping")
    lines = []
    while not (line := await client.read_until(lambda _: True)).startswith("ok cmd=ping"):
        lines.append(line)
    return [x for x in lines if x.startswith("rules ")]


@pytest.mark.timeout(90)  # its fail_after(60), then the workers' stop
async def test_one_cluster_for_the_lobby_copy_seeks_logs_processes_and_nohup(
    postgres_url: str, tmp_path: Path
) -> None:
    """One `serve --workers 2`, `log_level = "warning"`, for the promises that need a
    cluster only as it serves:
    - "The shared lobby": `rules N` of another worker's table answers from the copy
      what its owner answers, and the welcome's counts read it (every worker's tables
      and players);
    - "Processes": the parent's own lines are at info level whatever `log_level` says
      (`worker_started`), the workers use `log_level` (no `connect` nor `login`, info
      lines of theirs), their lifecycle lines written whatever it says
      (`worker_listening`, as docs/settings.md's Logs has it);
    - "Seeks across workers": the match of two seekers on the two workers is at the
      worker with the smaller server id; a seeker sits at a waiting `new` table of his
      game on another worker;
    - "Processes": a worker is forked from the parent (its command line, its child),
      not a new interpreter (no settings in its environment);
    - "Processes" and "One worker restarted": started as under `nohup`, a hangup of
      the whole job (SIGHUP to its process group, then SIGTERM) stops it by SIGTERM
      alone, in every process's `shutdown` and to every player: SIGHUP, delivered
      first, "stays ignored" (the page cited store/test_workers_stopping.py for it,
      which starts every server as from a terminal); begun during a drain (SIGUSR1 to
      the parent, every worker's `drain`), the stop takes the workers still up at once,
      a match still running, nothing logged drained."""
    settings = settings_file(tmp_path, SETTINGS + 'log_level = "warning"\n')
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings, own_group=True, nohup=True) as workers:
            try:
                amy = await workers.connect(0, "amy")
                cal = await workers.connect(1, "cal")
                opened += [amy, cal]
                await amy.send("new 3")
                table = (await amy.expect("ok", cmd="sit"))["table"]
                await until_listed(cal, "tables", f"id={table} ")
                await until_listed(cal, "who", "amy")
                owners = await _rules(amy, table)
                assert owners[0].startswith(f"rules text=Table {table}: moscow for 3 players")
                assert await _rules(cal, table) == owners
                bob = await workers.reach(1, "bob")
                opened.append(bob)
                welcome = await _welcomed(bob, "bob")
                assert "1 table, 3 players here." in welcome, welcome
                # "Seeks across workers": they flow one way, to the worker whose server
                # id is smaller: its seeker waits first, the other's goes there (each
                # worker's table ids are its own block of 32, drawn from the store)
                await cal.send("new 2")
                waiting = (await cal.expect("ok", cmd="sit"))["table"]
                blocks = {0: _block(table), 1: _block(waiting)}
                ids = {
                    e["worker"]: e["server"]
                    for e in workers.events
                    if e.get("event") == "worker_listening"
                }
                smaller = min(ids, key=ids.__getitem__)
                first = await workers.connect(smaller, "dan")
                second = await workers.connect(1 - smaller, "eve")
                opened += [first, second]
                await first.send("seek 2 kharkov")
                await first.expect("ok", cmd="seek")
                await second.send("seek 2 kharkov")
                met = (await second.expect("ok", cmd="sit", timeout=30))["table"]
                assert (await first.expect("ok", cmd="sit", timeout=30))["table"] == met
                assert _block(met) == blocks[smaller] != blocks[1 - smaller], (met, blocks)
                # and a seeker's wait (seek_patience_ms) ends at a waiting `new` table
                # of his game on another worker, sat at directly
                fay = await workers.connect(0, "fay")
                opened.append(fay)
                await until_listed(fay, "tables", f"id={waiting} ")
                await fay.send("seek 2")
                await fay.expect("ok", cmd="seek")
                assert (await fay.expect("ok", cmd="sit", timeout=30))["table"] == waiting
                # "Processes": a worker is forked from the parent: the parent's command
                # line, the parent's child, no exec (its settings not in its environment)
                its_argv = Path(f"/proc/{workers.process.pid}/cmdline").read_bytes()
                for pid in workers.pids.values():
                    assert Path(f"/proc/{pid}/cmdline").read_bytes() == its_argv
                    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                    assert int(fields[1]) == workers.process.pid
                    assert b"DEBERC_NET_WORKER=" not in Path(f"/proc/{pid}/environ").read_bytes()
                # SIGUSR1 to the parent drains every worker (dan's and eve's match runs)
                workers.process.send_signal(signal.SIGUSR1)
                with trio.fail_after(20):
                    while _drains(workers.events) != ["0", "1", "None"]:
                        await trio.sleep(0.05)
                # then a hangup under nohup, then SIGTERM: the stop is SIGTERM's, and the
                # drain's workers still up stop at once, their match not over
                os.killpg(workers.process.pid, signal.SIGHUP)  # (pending: delivered first)
                os.killpg(workers.process.pid, signal.SIGTERM)
                for player in (amy, cal, first, second):
                    await player.wait_closed(20)
                    told = [x for x in player.lines if x.startswith("info server=")]
                    assert told == [
                        DRAINING,
                        "info server=stopping text=The server is shutting down: SIGTERM received.",
                    ], (player.label, told)
                await workers.process.wait()
            finally:
                await close_all(opened)
            events = list(workers.events)
    assert workers.process.returncode == 0
    stops = [e for e in events if e.get("event") == "shutdown"]
    assert sorted(str(e.get("worker")) for e in stops) == ["0", "1", "None"], stops
    assert {e["signal"] for e in stops} == {"SIGTERM"}, stops
    assert not [e for e in events if e.get("event") in ("drained", "worker_drained")]
    parents = [e for e in events if e.get("event") == "worker_started"]
    assert sorted(e["worker"] for e in parents) == [0, 1]
    assert all(e["level"] == "info" for e in parents)
    listening = [e for e in events if e.get("event") == "worker_listening"]
    assert sorted(e["worker"] for e in listening) == [0, 1]
    chatty = [e for e in events if e.get("event") in ("connect", "login", "disconnect")]
    assert not chatty, chatty[:3]


@pytest.mark.timeout(60)  # its fail_after(START_LIMIT_S), then its clean-up
async def test_a_worker_that_dies_without_a_reason_before_serving_ends_the_parent_with_1(
    postgres_url: str, tmp_path: Path
) -> None:
    """ "Processes": a worker that dies before every worker listens, not stopped as
    asked (SIGKILL, as it starts), says no reason: the parent stops the others, logs
    `worker_failed_to_start` and ends with status 1, no traceback (with a reason it is
    status 2 and `deberc-net serve: REASON`: store/test_workers.py)."""
    settings = settings_file(tmp_path)
    command = [
        sys.executable, "-m", "deberc_net", "serve", "--workers", "2", "--db", postgres_url,
        "--port", "0", "--http-port", "off", "--config", str(settings),
    ]  # fmt: skip
    events: list[dict[str, Any]] = []
    rest: list[str] = []
    process = await trio.lowlevel.open_process(command, stderr=subprocess.PIPE)
    try:
        assert process.stderr is not None
        with trio.fail_after(START_LIMIT_S):
            buffered = b""
            while chunk := await process.stderr.receive_some():
                buffered += chunk
                *lines, buffered = buffered.split(b"\n")
                for line in lines:
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        rest.append(line.decode(errors="replace"))
                        continue
                    events.append(entry)
                    if entry.get("event") == "worker_started" and entry.get("worker") == 1:
                        os.kill(int(entry["pid"]), signal.SIGKILL)
            status = await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert status == 1, (status, events[-5:], rest)
    assert not any("Traceback" in x for x in rest), rest
    [failed] = [e for e in events if e.get("event") == "worker_failed_to_start"]
    assert failed["worker"] == 1 and failed["status"] == -signal.SIGKILL
    assert failed["reason"] is None
    assert not [e for e in events if e.get("event") in ("listening", "worker_died")]
    assert re.search(r"\bstatus 1 if the worker died without a reason\b", WORKERS_DOC)
    assert [e for e in events if e.get("event") == "stopped"]  # the parent's own end


def _connections(db: psycopg.Connection[Any]) -> int:
    """How many connections the database has now (this one's among them)."""
    row = db.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
    ).fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.timeout(30)  # its fail_after(20), then its clean-up
async def test_the_bus_delivers_identical_messages_of_one_send_each_to_whom_it_is_addressed(
    postgres_url: str,
) -> None:
    """ "The bus": two identical messages queued together leave in one transaction and
    both arrive, in order, each with its sender (`w`) and serial number (`n`): PostgreSQL
    would fold two identical notifications of one transaction into one. On `lobby`
    every worker hears them; what is sent on `w<id>` only that worker hears."""
    heard: dict[int, list[dict[str, Any]]] = {900021: [], 900022: []}
    buses = [Bus(postgres_url, 900020, lambda _: None)]
    buses += [Bus(postgres_url, w, told.append) for w, told in heard.items()]
    with psycopg.connect(postgres_url, autocommit=True) as db:
        before = _connections(db)
        for bus in buses:
            bus.open()
        assert _connections(db) == before + 2 * len(buses)  # "Two connections per worker"
    try:
        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                for bus in buses:
                    nursery.start_soon(bus.run)
                sender = buses[0]
                for _ in range(2):  # queued at once: one send
                    sender.publish(LOBBY, {"k": "say", "name": "amy", "text": "hello"})
                sender.publish(channel(900021), {"k": "kick", "name": "bob"})
                sender.publish(LOBBY, {"k": "say", "name": "amy", "text": "last"})
                for told in heard.values():
                    await heard_one(told, k="say", text="last")
                await heard_one(heard[900021], k="kick")
                nursery.cancel_scope.cancel()
    finally:
        for bus in buses:
            bus.close()
    assert sender.sends == 1
    for worker, told in heard.items():
        said = [(m["k"], m.get("text"), m["w"]) for m in told]
        kick = [("kick", None, 900020)] if worker == 900021 else []
        assert said == [("say", "hello", 900020)] * 2 + kick + [("say", "last", 900020)]
        assert [m["n"] for m in told] == sorted({m["n"] for m in told})


@pytest.mark.timeout(30)  # its fail_after(20), then its clean-up
async def test_an_admins_drain_on_a_worker_whose_parent_is_gone_is_refused_shutting_down(
    postgres_url: str,
) -> None:
    """ "Processes": an admin's `drain` on a worker sends its parent SIGUSR1 only once it
    has checked that its parent is still the `serve` that started it; one whose parent
    is gone answers `shutting-down` (and stops, as its stdin's end closes:
    store/test_workers_orphans.py). A worker in this process, its parent's pid
    another process's; nothing drains."""
    store = open_store(postgres_url)
    try:
        set_password(store, "boss", "boss-secret-1")
    finally:
        store.close()
    # its parent's pid now another process's (as a pid is reused): not signalled
    other = await trio.lowlevel.open_process(["sleep", "60"])
    place = WorkerPlace(0, 2, parent="gone", parent_pid=other.pid)
    config = make_config(postgres_url, admins=["boss"], shutdown_grace_ms=0)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                lambda task_status: serve(config, worker=place, task_status=task_status)
            )
            amy = await log_in_machine(await LineClient.connect(port), "amy")
            boss = await log_in_machine(await LineClient.connect(port), "boss", "boss-secret-1")
            try:
                await amy.send("new 2")
                await amy.expect("ok", cmd="sit")
                await boss.send("drain")
                refused = await boss.expect("error", code="shutting-down")
                assert refused["text"] == (
                    "the server is shutting down already: there is nothing to drain"
                )
                await amy.send("ping")  # her table is still open: nothing drained
                await amy.expect("ok", cmd="ping")
                assert not [x for x in amy.lines if x.startswith("info ")], amy.lines
                await boss.send("new 2")  # and a new table still opens
                await boss.expect("ok", cmd="sit")
                assert other.poll() is None  # SIGUSR1 would have ended it
            finally:
                await close_all([amy, boss])
                other.kill()
                await other.wait()
            nursery.cancel_scope.cancel()


@pytest.mark.timeout(60)  # its fail_after(40), then its clean-up
async def test_a_house_bots_name_online_at_another_worker_is_skipped(postgres_url: str) -> None:
    """ "Processes": each worker numbers its house bots in its own stride (worker 0 of
    2: `house-random-1`, `-3` …) and skips a name online on another worker (another
    host's, whose worker 0 counts alike), so no two bots share a name. A worker 0 of 2
    in this process; another host's worker played on the real bus, its bot
    `house-random-1` online there: this worker's first is `house-random-3`."""
    assert said("skips a name online on another worker (another host's), so no two bots")
    heard: list[dict[str, Any]] = []
    opened: list[LineClient] = []
    with trio.fail_after(40):
        async with worker_and_bus(postgres_url, heard, OTHER, house_bots=True) as (port, other):
            try:
                amy = await log_in_machine(await LineClient.connect(port, "amy"), "amy")
                opened.append(amy)
                bot = {"k": "in", "name": "house-random-1", "guest": True, "token": "tok1"}
                other.publish(LOBBY, bot | {"fresh": True, "at": time.time(), "s": 1})
                await until_listed(amy, "who", "house-random-1")
                await amy.send("new 2")
                await amy.expect("ok", cmd="sit")
                await amy.send("bot random")
                assert (await amy.expect("ok", cmd="bot"))["name"] == "house-random-3"
                await amy.send("leave!")
            finally:
                await close_all(opened)


@pytest.mark.timeout(60)  # its fail_after(40), then its clean-up
async def test_the_table_cap_counts_every_workers_tables(postgres_url: str) -> None:
    """ "What differs from one worker": the table cap (`max_tables`) counts every
    worker's tables, `new`'s and matchmaking's alike (docs/security.md, "Under `serve
    --workers N`"). `max_tables = 1` and one table at the other worker (played on the
    real bus): `new` here is refused `busy`, and so is the seek that would seat two
    seekers here; once that table is gone, they meet."""
    heard: list[dict[str, Any]] = []
    opened: list[LineClient] = []
    table = 5001
    with trio.fail_after(40):
        async with worker_and_bus(postgres_url, heard, OTHER, max_tables=1) as (port, other):
            try:
                amy, bob, cal = [
                    await log_in_machine(await LineClient.connect(port, n), n)
                    for n in ("amy", "bob", "cal")
                ]
                opened += [amy, bob, cal]
                told = {"k": "tables", "open": [told_table(table, ["zed", None])], "gone": []}
                other.publish(LOBBY, told)
                await until_listed(amy, "tables", f"id={table} ")
                await amy.send("new 2")
                assert (await amy.expect("error"))["code"] == "busy"
                await bob.send("seek 2")  # he waits
                await bob.expect("ok", cmd="seek")
                await cal.send("seek 2")  # his would seat them both: no room
                assert (await cal.expect("error"))["code"] == "busy"
                other.publish(LOBBY, {"k": "tables", "open": [], "gone": [table]})
                await until_listed(cal, "tables", f"id={table} ", present=False)
                await cal.send("seek 2")
                met = (await bob.expect("ok", cmd="sit", timeout=30))["table"]
                assert (await cal.expect("ok", cmd="sit", timeout=30))["table"] == met
            finally:
                await close_all(opened)


def test_the_page_says_another_workers_table_page_shows_its_match() -> None:
    """ "Not covered" said the page of another worker's table had "not its match, score,
    deal or hand sizes (the copy holds none of them)": the copy holds them (its owner's
    `match`, once a trick) and the page shows them (store/test_workers.py, its web face
    part); the slip stays corrected."""
    assert not said("but not its match, score, deal or hand sizes")
    assert said(
        "shows its match, deal, score, hanging points, hand sizes and talon (Tertz) as its owner"
    )


@pytest.mark.timeout(60)  # its fail_after(40), then its clean-up
async def test_a_seek_gone_to_another_worker_is_withdrawn_there(postgres_url: str) -> None:
    """ "Seeks across workers": a seek that has waited `seek_patience_ms` goes to a
    worker where a `new` table of its game waits (the other worker, played on the real
    bus, says so in its `seeks`), and `unseek`, `leave`, sitting elsewhere (`new`) or
    dropping withdraws it there (`unseek` on that worker's channel, naming the session)."""
    assert said("`unseek`, `leave`, sitting elsewhere or dropping withdraw it there")
    heard: list[dict[str, Any]] = []
    opened: list[LineClient] = []
    game = settings_for_bus(GameSettings(2, "moscow", ()))
    with trio.fail_after(40):
        async with worker_and_bus(postgres_url, heard, OTHER, seek_patience_ms=50) as (
            port,
            other,
        ):
            try:
                for n, withdraw in enumerate(["unseek", "leave", "new 3", None]):
                    # a table of his game waits there (told anew: a seek sent there
                    # takes it, one seeker for one table, till the next word of it)
                    for told in seeks_messages([[*game, True]]):
                        other.publish(LOBBY, told)
                    name = f"bob{n}"
                    bob = await log_in_machine(await LineClient.connect(port, name), name)
                    opened.append(bob)
                    await bob.send("seek 2")
                    await bob.expect("ok", cmd="seek")
                    gone = [m for m in heard if m["k"] == "seek"]
                    while len(gone) <= n:  # (the worker's look: every 0.25 s)
                        await trio.sleep(0.05)
                        gone = [m for m in heard if m["k"] == "seek"]
                    assert gone[n]["settings"] == game
                    if withdraw is None:
                        await bob.aclose()  # his connection drops
                    else:
                        await bob.send(withdraw)
                    await heard_one(heard, k="unseek", s=gone[n]["s"])
                    await close_all([bob])
            finally:
                await close_all(opened)
