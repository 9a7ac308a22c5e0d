"""Run a ladder: a server (ours or a given one), every bot as its own process over TCP,
duplicate boards reserved seat by seat, results gathered as an observer.

The runner speaks the protocol like any client: it logs in as an admin, ``reserve``s a
table per game (seed, seats, one deal) and observes it; the bots only ``seek
reserved`` and play. A bot process that dies is restarted (logging in again resumes
its seat); one that hangs or talks nonsense loses on the clock, as the rules say.
"""

from __future__ import annotations

import functools
import json
import math
import os
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import trio

from deberc_net.plugins import RuleBook
from deberc_net.server.accounts import set_password
from deberc_net.server.config import Config
from deberc_net.server.store import Store

from .ratings import Ratings
from .schedule import Game, ScheduleError, schedule, seatings
from .stats import PairStats, Sprt

ADMIN = "ladder-admin"
MAX_RESTARTS = 20
STARTUP_S = 30.0  # every bot instance must have logged in by then


@attrs.frozen
class BotSpec:
    name: str
    command: str

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        name, sep, command = text.partition("=")
        if not sep or not name or not command.strip():
            raise ScheduleError(f"--bot takes NAME=COMMAND, got {text!r}")
        if not all(ch.isalnum() or ch in "_-" for ch in name) or len(name) > 16:
            raise ScheduleError(f"bot name {name!r}: up to 16 letters, digits, '_' or '-'")
        return cls(name, command)

    def argv(self, host: str, port: int, instance: str) -> list[str]:
        if "{port}" in self.command or "{name}" in self.command:
            text = self.command.format(host=host, port=port, name=instance)
            return shlex.split(text)
        return [*shlex.split(self.command), "--host", host, "--port", str(port),
                "--name", instance, "--seek", "reserved"]


@attrs.define
class LadderOptions:
    bots: list[BotSpec]
    players: int = 2
    deals: int = 10  # boards
    seed: str = "ladder"
    variant: str = "moscow"
    options: list[str] = attrs.Factory(list)
    mode: str = "round-robin"
    server: tuple[str, int] | None = None
    admin_password: str | None = None
    db: str = "ladder.sqlite3"
    concurrency: int = 2  # instances of each bot, so boards run side by side
    clock_ms: int = 3000
    away_limit_ms: int = 5000
    sprt: Sprt | None = None
    progress: bool = True
    rules: RuleBook | None = None  # the rule plugins our own server uses (loaded if None)


@attrs.define
class Running:
    game: Game
    instances: list[str]
    record: dict[str, Any] | None = None


@attrs.define
class Summary:
    options: LadderOptions
    games: int = 0
    deals: int = 0
    seconds: float = 0.0
    pairs: dict[tuple[str, str], PairStats] = attrs.Factory(dict)
    ratings: Ratings | None = None
    crashes: Counter[str] = attrs.Factory(Counter)
    forfeits: Counter[str] = attrs.Factory(Counter)
    sprt_verdict: str | None = None
    games_by_bot: Counter[str] = attrs.Factory(Counter)
    # (game, written by side, reason, match id, the bot that forfeited)
    results: list[tuple[Game, list[int], str, str | None, str | None]] = attrs.Factory(list)

    def as_dict(self) -> dict[str, Any]:
        o = self.options
        return {
            "bots": [b.name for b in o.bots],
            "players": o.players, "variant": o.variant, "options": sorted(o.options),
            "seed": o.seed, "boards": o.deals, "schedule": o.mode,
            "games": self.games, "deals": self.deals, "seconds": round(self.seconds, 2),
            "deals_per_second": round(self.deals / self.seconds, 2) if self.seconds else 0.0,
            "ratings": self.ratings.table() if self.ratings else [],
            "pairs": [p.as_dict() for _, p in sorted(self.pairs.items())],
            "crashes": dict(self.crashes), "forfeits": dict(self.forfeits),
            "sprt": None if o.sprt is None else {
                "elo0": o.sprt.elo0, "elo1": o.sprt.elo1, "alpha": o.sprt.alpha,
                "beta": o.sprt.beta, "pairs": len(o.sprt.scores),
                "llr": round(o.sprt.llr(), 3),
                "bounds": [round(b, 3) for b in o.sprt.bounds],
                "verdict": self.sprt_verdict,
            },
        }


class Lines:
    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buf = b""

    async def send(self, text: str) -> None:
        await self.stream.send_all(text.encode("utf-8") + b"\n")

    async def line(self) -> str:
        while b"\r\n" not in self.buf:
            data = await self.stream.receive_some(65536)
            if not data:  # the ladder cannot go on: an error for the CLI, not a traceback
                raise ScheduleError("the server closed the ladder's connection")
            self.buf += data
        raw, self.buf = self.buf.split(b"\r\n", 1)
        return raw.decode("utf-8")


def fields_of(line: str) -> tuple[str, dict[str, str]]:
    tag, _, rest = line.partition(" ")
    text_at = rest.find("text=")
    text = None
    if text_at >= 0:
        text, rest = rest[text_at + 5:], rest[:text_at]
    out = dict(p.split("=", 1) for p in rest.split() if "=" in p)
    if text is not None:
        out["text"] = text
    return tag, out


class Ladder:
    def __init__(self, options: LadderOptions, ratings: Ratings,
                 on_progress: Callable[[int, int, Summary], None] | None = None) -> None:
        self.o = options
        self.games = list(schedule([b.name for b in options.bots], options.players,
                                   options.deals, options.seed, options.mode))
        self.queue: deque[Game] = deque(self.games)
        self.summary = Summary(options, ratings=ratings)
        self.running: dict[int, Running] = {}
        self.reserving: deque[Running] = deque()
        self.free: dict[str, list[str]] = {}
        self.set_results: dict[tuple[int, tuple[str, ...]], list[float]] = {}
        self.stopping = False
        self.on_progress = on_progress
        self.token_dir: str | None = None

    # ------------------------------------------------------------ the run
    async def run(self) -> Summary:
        try:
            return await self._run()
        except BaseExceptionGroup as group:
            # trio groups what the tasks raise: a bot that cannot run is the ladder's
            # error, reported as such (the CLI exits 2), not a traceback
            matched, _ = group.split(ScheduleError)
            if matched is None:
                raise
            raise _first(matched) from group
        finally:
            if self.token_dir is not None:
                shutil.rmtree(self.token_dir, ignore_errors=True)

    async def _run(self) -> Summary:
        started = time.perf_counter()
        async with trio.open_nursery() as nursery:
            host, port, password = await self._server(nursery)
            for bot in self.o.bots:
                names = [f"{bot.name}-{i}" for i in range(1, self._instances() + 1)]
                self.free[bot.name] = list(names)
                for name in names:
                    nursery.start_soon(self._supervise, bot, host, port, name)
            try:
                stream = await trio.open_tcp_stream(host, port)
            except OSError as exc:
                raise ScheduleError(f"cannot connect to {host}:{port}: {exc}") from exc
            admin = Lines(stream)
            await admin.send("style machine")
            await admin.send(f"login {ADMIN} {password}")
            await self._expect_login(admin)
            await self._await_bots(admin)
            await self._fill(admin)
            while self.running or self.reserving:
                await self._handle(admin, await admin.line())
                await self._fill(admin)
            self.stopping = True
            await stream.aclose()
            nursery.cancel_scope.cancel()
        self.summary.seconds = time.perf_counter() - started
        return self.summary

    def _instances(self) -> int:
        # a pair of copies plays four-handed; two bots three-handed need two of one bot
        needed = max(max(Counter(g.seating).values()) for g in self.games)
        return max(self.o.concurrency, needed)

    async def _server(self, nursery: trio.Nursery) -> tuple[str, int, str]:
        if self.o.server is not None:
            if self.o.admin_password is None:
                raise ScheduleError(f"--server needs --admin-password for {ADMIN!r}, "
                                    f"listed in that server's admins")
            host, port = self.o.server
            return host, port, self.o.admin_password
        from deberc_net.server.app import serve

        password = secrets.token_hex(12)
        config = Config(
            host="127.0.0.1", port=0, db=self.o.db, admins=[ADMIN],
            bot_clock_ms=self.o.clock_ms, human_clock_ms=self.o.clock_ms,
            away_limit_ms=self.o.away_limit_ms, lag_ms=200, log_level="warning",
        )
        port = await nursery.start(functools.partial(serve, config, rules=self.o.rules))
        await self._reset_admin_password(password)
        return "127.0.0.1", port, password

    async def _reset_admin_password(self, password: str) -> None:
        """Our own server's file: the admin account is re-made for each run (an admin's
        name is registered by the server's owner, never by a first-come login)."""

        def reset() -> None:
            store = Store(self.o.db)
            try:
                set_password(store, ADMIN, password)
            finally:
                store.close()

        await trio.to_thread.run_sync(reset)

    async def _expect_login(self, admin: Lines) -> None:
        with trio.fail_after(10):
            while True:
                tag, f = fields_of(await admin.line())
                if tag == "ok" and f.get("cmd") == "login":
                    return
                if tag == "error":
                    raise ScheduleError(f"the ladder could not log in: {f.get('text')}")

    async def _await_bots(self, admin: Lines) -> None:
        """Reserve nothing before every instance is logged in: a reserved seat left
        empty past the away limit is forfeited, and a bot may be slow to start."""
        wanted = {n.casefold() for names in self.free.values() for n in names}
        online: set[str] = set()
        with trio.move_on_after(STARTUP_S):
            while not wanted <= online:
                await admin.send("who")
                while True:
                    tag, f = fields_of(await admin.line())
                    if tag == "who":
                        break
                online = {n.casefold() for n in f.get("names", "").split(",") if n}
                if not wanted <= online:
                    await trio.sleep(0.05)
            return
        missing = ", ".join(sorted(wanted - online))
        raise ScheduleError(f"bot instances did not log in within {STARTUP_S:.0f} s: "
                            f"{missing}")

    # ---------------------------------------------------------- the bots
    def _bot_env(self) -> dict[str, str]:
        """A restarted bot resumes its seat with the guest token its last run saved
        (clients/client.py keeps it in DEBERC_TOKEN_DIR)."""
        if self.token_dir is None:
            self.token_dir = tempfile.mkdtemp(prefix="deberc-tokens-")
        return {**os.environ, "DEBERC_TOKEN_DIR": self.token_dir}

    async def _supervise(self, bot: BotSpec, host: str, port: int, instance: str) -> None:
        restarts = 0
        started_once = False
        while not self.stopping:
            argv = bot.argv(host, port, instance)
            with tempfile.TemporaryFile() as errors:
                try:
                    proc = await trio.lowlevel.open_process(
                        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                        stderr=errors, env=self._bot_env(),
                    )
                except OSError as exc:
                    raise ScheduleError(f"cannot start bot {bot.name!r}: {exc}") from exc
                began = trio.current_time()
                try:
                    await proc.wait()
                finally:
                    if proc.returncode is None:
                        proc.terminate()
                        with trio.CancelScope(shield=True), trio.move_on_after(2):
                            await proc.wait()
                        if proc.returncode is None:
                            proc.kill()
                if self.stopping:
                    return
                errors.seek(0)
                tail = errors.read()[-600:].decode("utf-8", "replace").strip()
            lived = trio.current_time() - began
            started_once = started_once or lived > 2.0
            self.summary.crashes[bot.name] += 1
            restarts += 1
            if restarts > MAX_RESTARTS or (not started_once and restarts >= 3):
                # it cannot run at all: a ladder without it would wait for it forever
                raise ScheduleError(
                    f"bot {bot.name!r} keeps exiting (code {proc.returncode}); "
                    f"command: {shlex.join(argv)}; its last words: {tail or '(none)'}")
            await trio.sleep(min(1.0, 0.05 * restarts))

    # ------------------------------------------------------- scheduling
    async def _fill(self, admin: Lines) -> None:
        while self.queue and not self.stopping:
            game = self.queue[0]
            instances = self._take(game)
            if instances is None:
                return
            self.queue.popleft()
            running = Running(game, instances)
            self.reserving.append(running)
            opts = " ".join(self.o.options)
            await admin.send(
                f"reserve {self.o.players} {self.o.variant} {opts} "
                f"seats={','.join(instances)} seed={game.seed} deals=1"
            )

    def _take(self, game: Game) -> list[str] | None:
        wanted = Counter(game.seating)
        if any(len(self.free[bot]) < n for bot, n in wanted.items()):
            return None
        return [self.free[bot].pop(0) for bot in game.seating]

    def _release(self, running: Running) -> None:
        for bot, instance in zip(running.game.seating, running.instances, strict=True):
            self.free[bot].append(instance)

    async def _handle(self, admin: Lines, line: str) -> None:
        tag, f = fields_of(line)
        if tag == "ok" and f.get("cmd") == "reserve":
            running = self.reserving.popleft()
            self.running[int(f["table"])] = running
        elif tag == "error" and self.reserving:  # e.g. not-allowed: we are no admin there
            raise ScheduleError(f"the server refused the table: {f.get('code')}: "
                                f"{f.get('text')}")
        elif tag == "record":
            table = int(f["table"])
            if table in self.running:
                self.running[table].record = json.loads(f["text"])
        elif tag == "event" and f.get("kind") == "match-end":
            table = int(f["table"])
            running = self.running.pop(table, None)
            if running is not None:
                self._finish(running, f)
                self._release(running)

    # ------------------------------------------------------------ results
    def _finish(self, running: Running, f: dict[str, str]) -> None:
        game = running.game
        players = self.o.players
        sides = [(s, s + 2) for s in range(2)] if players == 4 else [(s,) for s in range(players)]
        bots = [game.seating[side[0]] for side in sides]
        totals = [int(t) for t in f.get("totals", "").split(",") if t]
        forfeit_seat = int(f["forfeit"]) if f.get("forfeit", "-") not in ("-", "") else None
        loser = game.seating[forfeit_seat] if forfeit_seat is not None else None
        self.summary.games += 1
        self.summary.deals += 1
        for bot in set(bots):
            self.summary.games_by_bot[bot] += 1
        self.summary.results.append((game, totals, f.get("reason", "?"),
                             None if running.record is None else running.record.get("match"),
                             loser))
        if loser is not None:
            self.summary.forfeits[loser] += 1
        for i, j in _pairs(len(bots)):
            a, b = bots[i], bots[j]
            if a == b:
                continue
            key = (a, b) if a < b else (b, a)
            pair = self.summary.pairs.setdefault(key, PairStats(*key))
            if loser is not None:
                if loser in key:  # three-handed, the other two bots' pair is untouched
                    pair.forfeits[loser] = pair.forfeits.get(loser, 0) + 1
                if loser == key[0]:
                    pair.losses += 1
                elif loser == key[1]:
                    pair.wins += 1
                continue
            pa, pb = (totals[i], totals[j]) if a == key[0] else (totals[j], totals[i])
            pair.add(game.key, pa, pb)
        if loser is None and self.summary.ratings is not None and len(set(bots)) == len(bots):
            self.summary.ratings.update(bots, totals)
        self._sprt_step(game, bots, totals, loser)
        if self.on_progress is not None:
            self.on_progress(self.summary.games, len(self.games), self.summary)

    def _sprt_step(self, game: Game, bots: list[str], totals: list[int],
                   loser: str | None) -> None:
        sprt = self.o.sprt
        if sprt is None or len(self.o.bots) != 2:
            return
        first = self.o.bots[0].name
        mine = [t for b, t in zip(bots, totals, strict=True) if b == first]
        theirs = [t for b, t in zip(bots, totals, strict=True) if b != first]
        if loser is not None:
            result = 0.0 if loser == first else 1.0
        else:
            diff = sum(mine) - sum(theirs)
            result = 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
        results = self.set_results.setdefault(game.key, [])
        results.append(result)
        if len(results) == len(seatings(game.group, self.o.players)):
            sprt.scores.append(sum(results) / len(results))
            verdict = sprt.verdict()
            if verdict is not None and self.summary.sprt_verdict is None:
                self.summary.sprt_verdict = verdict
                self.queue.clear()  # stop: the games already running still finish


def _first(group: BaseExceptionGroup[ScheduleError]) -> ScheduleError:
    inner = group.exceptions[0]
    return _first(inner) if isinstance(inner, BaseExceptionGroup) else inner


def _pairs(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def progress_printer(stream: Any = sys.stderr) -> Callable[[int, int, Summary], None]:
    """A progress bar on a terminal; a line every tenth of the way elsewhere."""
    tty = stream.isatty()
    last = [-1]
    started = time.perf_counter()

    def show(done: int, total: int, summary: Summary) -> None:
        rate = done / max(1e-9, time.perf_counter() - started)
        if tty:
            width = 30
            filled = int(width * done / max(1, total))
            stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games "
                         f"{rate:.1f}/s")
            if done >= total:
                stream.write("\n")
            stream.flush()
            return
        tenth = math.floor(10 * done / max(1, total))
        if tenth != last[0]:
            last[0] = tenth
            stream.write(f"ladder: {done}/{total} games ({rate:.1f}/s)\n")
            stream.flush()

    return show


def run(options: LadderOptions, stored: Sequence[dict[str, Any]] = ()) -> Summary:
    """Run the ladder to its end (or the SPRT's verdict) and return the summary."""
    ratings = Ratings([b.name for b in options.bots])
    for row in stored:  # carry on from the ratings of earlier runs
        if row["bot"] in ratings.ratings:
            ratings.ratings[row["bot"]] = ratings.model.rating(
                mu=row["mu"], sigma=row["sigma"], name=row["bot"])
    ladder = Ladder(options, ratings, progress_printer() if options.progress else None)
    return trio.run(ladder.run)
