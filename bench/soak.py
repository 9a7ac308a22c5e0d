"""Soak: the attacks of docs/security.md, all at once, against a server with bots playing.

    .venv/bin/python bench/soak.py [--minutes 1] [--pairs 4] [--at-least-deals 0]
                                   [--at-least-takeovers 0]

Starts ``deberc-net``'s server in a subprocess (fresh SQLite file; every client here
but the ``help`` prober comes from 127.0.0.1, so the per-address connection limit is
off — every other limit is at its default) and runs, for ``--minutes``:

- ``--pairs`` pairs of honest bots that seek and play match after match, answering
  every ``ask`` at once, resuming with their guest token if dropped;
- an honest client that sends ``help`` four times a second (under ``lists_per_s``,
  which 'help' spends as 'who' does) from 127.0.0.2, an address of its own (the
  attackers' ``who`` spend 127.0.0.1's ``lists_per_address_*``), and times each
  answer (a refusal is counted, ``help refused``, not timed);
- takeover attempts: ``login`` with a playing bot's name, with no token or a wrong one;
- 50 logged-in clients that never read, a sayer flooding the lobby with 1 KB lines,
  and the non-readers asking ``who`` without end;
- up to 300 sockets that never log in, and 20 that trickle an empty line every 5 s;
- ``new`` and vanish, in a loop;
- password guessing against a registered name, and registration spam.

At the end it prints the server's RSS (now and peak), the p99 latency of ``help``,
the matches finished, the bots dropped or forfeited, successful takeovers (must be 0),
and the deals stored against the deals the bots saw finish (none fewer: a deal the
server ended as the bots were stopped may be one more). ``--at-least-deals N`` goes on
past ``--minutes`` until the bots have seen N deals end (for at most a minute more): a
short soak on a busy machine (the test suite's few seconds) may otherwise end before the
bots are seated, and prove nothing of the deals. ``--at-least-takeovers N`` likewise
until N takeover attempts are answered: they come from 127.0.0.1, whose logins wait
behind its own flood of them (docs/security.md §1), and on a loaded machine a short
soak ended with its first still waiting (``0 of 0 attempts``).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import attrs
import trio
from lines import Lines, status_kib  # bench/lines.py

from deberc_net.protocol.wire import fields_of

ROOT = Path(__file__).resolve().parent.parent
HONEST_ADDRESS = "127.0.0.2"  # the help prober's: every other client is 127.0.0.1's


@attrs.define
class Tally:
    matches: int = 0
    deals: set[tuple[str, str]] = attrs.Factory(set)  # (table, deal) seen ending
    drops: int = 0
    forfeits: int = 0
    takeovers: int = 0
    takeover_tries: int = 0
    help_ms: list[float] = attrs.Factory(list)
    attacks: dict[str, int] = attrs.Factory(dict)
    playing: set[str] = attrs.Factory(set)  # bot names, for the takeover attempts

    def count(self, what: str) -> None:
        self.attacks[what] = self.attacks.get(what, 0) + 1


ERRORS = (OSError, EOFError, trio.BrokenResourceError, trio.ClosedResourceError)


async def honest_bot(port: int, name: str, tally: Tally, rng: random.Random) -> None:
    token: str | None = None
    while True:
        try:
            lines = await Lines.open(port)
            await lines.send("style machine")
            await lines.send(f"login {name}" + (f" token={token}" if token else ""))
            await lines.send("seek 2 moscow to-301")
            while True:
                tag, f = fields_of(await lines.line())
                if tag == "ok" and f.get("cmd") == "login":
                    token = f.get("token", token)
                    # a takeover's target once the name is its: a loaded machine's
                    # first attempt, on a name not yet logged in, took a free name
                    tally.playing.add(name)
                elif tag == "ask":
                    await lines.send(f"{rng.choice(f['legal'].split(','))} seq={f['seq']}")
                elif tag == "event" and f.get("kind") == "deal-end":
                    tally.deals.add((f["table"], f["deal"]))
                elif tag == "event" and f.get("kind") == "match-end":
                    tally.matches += 1  # counted by both seats: halved at the end
                    if f.get("forfeit") not in (None, "-"):
                        tally.forfeits += 1
                    await lines.send("seek 2 moscow to-301")
                elif tag == "ok" and f.get("cmd") == "sit":
                    pass
                elif tag == "error" and f.get("code") in ("flood", "idle-timeout"):
                    raise EOFError(f["code"])
        except ERRORS:
            tally.drops += 1
            await trio.sleep(0.2)


async def help_prober(port: int, tally: Tally) -> None:
    # from an address of its own, as an honest player is: the attackers' 'who' spend
    # 127.0.0.1's allowance of long texts (lists_per_address_*), which it would share
    lines = await Lines.open(port, source=HONEST_ADDRESS)
    await lines.send("style machine")
    await lines.send("login prober")
    await lines.login_reply()
    while True:
        began = time.perf_counter()
        await lines.send("help")
        await lines.send("ping")  # the end of the help block
        answered = True
        while (await lines.until(lambda t, f: t in ("ok", "error")))[0] == "error":
            answered = False  # a slow-down: no answer to time, and a limit to see
        if answered:
            tally.help_ms.append((time.perf_counter() - began) * 1000)
        else:
            tally.count("help refused")
        await trio.sleep(0.25)  # under lists_per_s (5): every 'help' is answered


async def takeover(port: int, tally: Tally) -> None:
    while True:
        # once a second, the first as soon as a bot plays (a short soak tries too)
        await trio.sleep(1 if tally.takeover_tries else 0.1)
        if not tally.playing:
            continue
        name = random.choice(sorted(tally.playing))
        for secret in ("", " token=guessed", " password"):
            try:
                lines = await Lines.open(port)
                await lines.send("style machine")
                await lines.send(f"login {name}{secret}")
                tag, f = await lines.login_reply()
                tally.takeover_tries += 1
                if tag == "ok" and f.get("cmd") == "login":
                    tally.takeovers += 1
                await lines.aclose()
            except ERRORS:
                pass


async def non_reader(port: int, index: int, tally: Tally) -> None:
    while True:
        try:
            lines = await Lines.open(port)
            await lines.send("style machine")
            await lines.send(f"login quiet{index}")
            while True:  # asks for lists, never reads an answer
                await lines.send("who")
                tally.count("who")
                await trio.sleep(0.05)
        except ERRORS:
            tally.count("non-reader dropped")
            await trio.sleep(0.5)


async def sayer(port: int, tally: Tally) -> None:
    text = "x" * 1000
    while True:
        try:
            lines = await Lines.open(port)
            await lines.send("style machine")
            await lines.send("login sayer")
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_drain, lines)
                while True:
                    await lines.send(f"say {text}")
                    tally.count("say")
                    await trio.sleep(0.01)
        except ERRORS:
            await trio.sleep(0.5)


async def _drain(lines: Lines) -> None:
    while True:
        await lines.line()


async def unauthenticated(port: int, tally: Tally, trickle: bool) -> None:
    while True:
        try:
            lines = await Lines.open(port)
            tally.count("trickler" if trickle else "idle socket")
            while True:
                await trio.sleep(5 if trickle else 3600)
                await lines.send("")
        except ERRORS:
            await trio.sleep(0.2)
        # the server closes it (login-timeout): a new one takes its place


async def idle_sockets(port: int, tally: Tally, count: int, trickle: bool) -> None:
    async with trio.open_nursery() as nursery:
        for _ in range(count):
            nursery.start_soon(unauthenticated, port, tally, trickle)
            await trio.sleep(0.01)


async def new_and_vanish(port: int, tally: Tally) -> None:
    for i in itertools.count():
        try:
            lines = await Lines.open(port)
            await lines.send(f"login vanish{i % 1000}\nnew 2")
            await trio.sleep(0.05)
            await lines.aclose()
            tally.count("new and vanish")
        except ERRORS:
            pass
        await trio.sleep(0.05)


async def guesser(port: int, tally: Tally) -> None:
    owner = await Lines.open(port)
    await owner.send("style machine")
    await owner.send("login victim right-one")
    tag, f = await owner.login_reply()
    assert tag == "ok", f
    await owner.aclose()
    for i in itertools.count():
        try:
            lines = await Lines.open(port)
            await lines.send("style machine")
            await lines.send(f"login victim guess{i}")
            _, f = await lines.login_reply()
            tally.count(f"guess: {f.get('code', 'accepted!')}")
            await lines.aclose()
        except ERRORS:
            pass


async def registrar(port: int, tally: Tally) -> None:
    for i in itertools.count():
        try:
            lines = await Lines.open(port)
            await lines.send("style machine")
            await lines.send(f"login spam{i} pw-spam")  # (6 at least: so it is hashed)
            _, f = await lines.login_reply()
            tally.count(f"registration: {f.get('code', 'ok')}")
            await lines.aclose()
        except ERRORS:
            pass


# how long a soak goes on past its --minutes for its --at-least-deals and
# --at-least-takeovers, at the most
MORE_FOR_COUNTS_S = 60.0


async def soak(port: int, args: argparse.Namespace, tally: Tally) -> None:
    async with trio.open_nursery() as nursery:
        for pair in range(args.pairs):
            for side in range(2):
                name = f"bot{pair}x{side}"
                nursery.start_soon(honest_bot, port, name, tally, random.Random(f"{pair}/{side}"))
        nursery.start_soon(help_prober, port, tally)
        nursery.start_soon(takeover, port, tally)
        for i in range(50):
            nursery.start_soon(non_reader, port, i, tally)
        nursery.start_soon(sayer, port, tally)
        nursery.start_soon(idle_sockets, port, tally, 300, False)
        nursery.start_soon(idle_sockets, port, tally, 20, True)
        nursery.start_soon(new_and_vanish, port, tally)
        nursery.start_soon(guesser, port, tally)
        nursery.start_soon(registrar, port, tally)
        await trio.sleep(args.minutes * 60)
        with trio.move_on_after(MORE_FOR_COUNTS_S):
            while (
                len(tally.deals) < args.at_least_deals
                or tally.takeover_tries < args.at_least_takeovers
            ):
                await trio.sleep(0.05)
        nursery.cancel_scope.cancel()


FLUSH_WAIT_S = 5.0  # at most, for the store to write the deals just finished


def bot_deals_stored(db: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(
            conn.execute(
                'SELECT COUNT(*) FROM deals WHERE record LIKE \'%"players":["bot%\''
            ).fetchone()[0]
        )


def start_server(db: str) -> tuple[subprocess.Popen[str], int]:
    code = (
        "import trio\n"
        "from deberc_net.server.app import serve\n"
        "from deberc_net.server.config import Config\n"
        "from deberc_net.server.logs import configure_logging\n"
        "configure_logging('error')\n"
        "async def main():\n"
        "    async with trio.open_nursery() as n:\n"
        f"        config = Config(port=0, db={db!r}, max_connections_per_address=0)\n"
        "        print(await n.start(serve, config), flush=True)\n"
        "trio.run(main)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument(
        "--at-least-deals",
        type=int,
        default=0,
        help="go on past --minutes (a minute at most) until the bots saw this many deals end",
    )
    parser.add_argument(
        "--at-least-takeovers",
        type=int,
        default=0,
        help="go on past --minutes (a minute at most) until this many takeovers were tried",
    )
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "soak.sqlite3")
        server, port = start_server(db)
        try:
            started_kib = status_kib(server.pid, "VmRSS")
            trio.run(soak, port, args, tally)
            rss, peak = status_kib(server.pid, "VmRSS"), status_kib(server.pid, "VmHWM")
            # the store writes a deal after its end is told (off the table's path): the
            # last ones are waited for a little, not lost to the kill below
            deadline = time.monotonic() + FLUSH_WAIT_S
            while (stored := bot_deals_stored(db)) < len(tally.deals):
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)
        finally:
            server.kill()
            server.wait()
    times = sorted(tally.help_ms) or [float("nan")]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"soak:              {args.minutes:g} min, {args.pairs} pairs of bots")
    print(
        f"server RSS:        {rss / 1024:.1f} MiB now, {peak / 1024:.1f} MiB peak "
        f"({started_kib / 1024:.1f} MiB at the start)"
    )
    print(
        f"help latency p99:  {p99:.1f} ms ({len(tally.help_ms)} requests, median "
        f"{times[len(times) // 2]:.1f} ms)"
    )
    print(
        f"matches finished:  {tally.matches // 2} ({tally.forfeits // 2} forfeited, "
        f"bots dropped {tally.drops} times)"
    )
    print(
        f"records stored:    {stored} of {len(tally.deals)} deals finished"
        + ("  <-- LOST" if stored < len(tally.deals) else "")
        # (a deal the server ended as the bots were stopped, its end unread by them)
        + (
            f" (+{stored - len(tally.deals)} ended as the bots stopped)"
            if stored > len(tally.deals)
            else ""
        )
    )
    print(f"takeovers:         {tally.takeovers} of {tally.takeover_tries} attempts")
    for what, n in sorted(tally.attacks.items()):
        print(f"  {what:<30} {n}")


if __name__ == "__main__":
    main()
