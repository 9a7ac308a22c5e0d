"""A small line client for the end-to-end tests, and players that answer the server.

Every read has a hard deadline (``trio.fail_after``): a test that waits for a line
that never comes fails instead of hanging. The deadline is a hang guard, not a race: a
passing run never comes near it, however long the machine stalls (docs/performance.md,
"Test suite").
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from typing import TypedDict

import trio

from deberc_net.protocol.render import BANNER_RU as BANNER_RU  # the tests' one import
from deberc_net.protocol.wire import EventKind, LineBuffer, fields_of, parse_line

# a read's limit: a line that comes is read at once, so it costs nothing in a passing
# run, and a whole-machine stall of seconds in a loaded CI run (ci49c: 1.4-2.7 s, every
# process at once) is well within it. 5 s was: a stall met a read that waited already.
DEFAULT_TIMEOUT = 30.0
# how long to wait for a house bot's first move: its process imports the project
# before it connects (2 busy cores)
BOT_START_S = 20.0
CARD = re.compile(r"(?:10|[789JQKA])[♠♥♦♣]")  # as the human style shows cards
PROMPT = re.compile(r"^Your call(?: \[\d+ s\])?: (.+)$")


# a line's from= field, a Python keyword: expect("say", text="hi", **sent_by("ann"))
From = TypedDict("From", {"from": str})


def sent_by(name: str) -> From:
    return {"from": name}


class Closed(AssertionError):
    """The server closed the connection while the test waited for a line."""


def fields(line: str) -> tuple[str, dict[str, str]]:
    """A machine line's tag and ``key=value`` fields (``text=`` takes the rest): the
    wire module's parser, the one every reader uses."""
    return fields_of(line)


def is_event(line: str, kind: EventKind | str) -> bool:
    parsed = parse_line(line)
    return parsed.tag == "event" and parsed.kind == kind


# 4-player options that go together: a seek or a table may name any of them (a list of
# different games, as a flood of seeks does)
FOUR_PLAYER_OPTIONS = (
    "bella-after-trick", "bide-penalty", "combos-need-trick", "commitment",
    "dealer-clockwise", "deberts", "hanging-separate", "manual-claim", "pair-combinations",
    "partner-exemption", "perezdacha", "player-leads", "sequence-by-strength",
    "show-combination", "ski-penalty", "table-penalties",
)  # fmt: skip


async def dial_from(source: str, port: int) -> trio.SocketStream:
    """A connection to the server on loopback ``port`` from the address ``source`` (any
    127.x.y.z is this machine's: another player's address, or a listed proxy's)."""
    sock = trio.socket.socket()
    try:
        await sock.bind((source, 0))
        await sock.connect(("127.0.0.1", port))
    except BaseException:
        sock.close()
        raise
    return trio.SocketStream(sock)


_REFUSAL = re.compile(rb"\xff[\xfc\xfe][\x00-\xff]")


def _telnet_out(data: bytes, telnet: bytearray) -> tuple[bytes, bytes]:
    """``data`` without the server's telnet refusals (added to ``telnet``), and the
    start of one cut by the read's end (no UTF-8 holds a 255), kept for the next."""
    kept = bytearray()
    pos = 0
    for refusal in _REFUSAL.finditer(data):
        kept += data[pos : refusal.start()]
        telnet += refusal.group()
        pos = refusal.end()
    rest = data[pos:]
    cut = rest.find(b"\xff")
    if cut < 0:
        return bytes(kept + rest), b""
    return bytes(kept + rest[:cut]), rest[cut:]


class LineClient:
    """One connection (TCP, or any stream): send lines, read lines until a predicate
    holds."""

    def __init__(self, stream: trio.abc.Stream, label: str = "") -> None:
        self.stream = stream
        self.label = label
        self.raw = bytearray()  # every byte received, for the secrecy checks
        self.lines: list[str] = []  # every line received
        self.pos = 0  # the next line read_until looks at
        self.eof = False
        self.token: str | None = None  # a guest's resume token, from 'ok cmd=login'
        self._buffer = LineBuffer()  # the server only ever sends UTF-8, and
        # refuses a telnet's options (IAC WONT x, IAC DONT x), which no UTF-8 holds: kept
        # here, as a telnet client takes them, and out of the lines
        self.telnet = bytearray()
        self._cut = b""  # a refusal cut by a read's end

    @classmethod
    async def connect(cls, port: int, label: str = "", source: str | None = None) -> LineClient:
        """``source``: the address to connect from (any 127.x.y.z is this machine's), to
        stand for another player's address in the tests of limits per address."""
        if source is None:
            return await cls.over(await trio.open_tcp_stream("127.0.0.1", port), label)
        return await cls.over(await dial_from(source, port), label)

    @classmethod
    async def over(cls, stream: trio.abc.Stream, label: str = "") -> LineClient:
        """A client on a stream already connected to a server (after its banner)."""
        client = cls(stream, label)
        await client.read_until(lambda line: "deberc-net" in line)  # the banner,
        await client.read_until(lambda line: line == BANNER_RU)  # and its Russian line
        return client

    async def aclose(self) -> None:
        await self.stream.aclose()

    async def send(self, text: str) -> None:
        await self.stream.send_all(text.encode("utf-8") + b"\n")

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def _fill(self) -> None:
        try:
            data = await self.stream.receive_some(65536)
        except trio.BrokenResourceError:
            data = b""
        if not data:
            self.eof = True
            return
        self.raw += data
        if self._cut or b"\xff" in data:
            data, self._cut = _telnet_out(self._cut + data, self.telnet)
        self.lines += self._buffer.feed(data)

    async def read_until(
        self, pred: Callable[[str], bool], timeout: float = DEFAULT_TIMEOUT
    ) -> str:
        """The next unread line that satisfies ``pred`` (lines before it are consumed)."""
        try:
            with trio.fail_after(timeout):
                while True:
                    while self.pos < len(self.lines):
                        line = self.lines[self.pos]
                        self.pos += 1
                        if pred(line):
                            return line
                    if self.eof:
                        raise Closed(f"{self.label}: closed; last lines: {self.lines[-5:]}")
                    await self._fill()
        except trio.TooSlowError:
            raise AssertionError(
                f"{self.label}: no matching line in {timeout} s; last lines: {self.lines[-5:]}"
            ) from None

    async def take(self, pred: Callable[[str], bool], timeout: float = DEFAULT_TIMEOUT) -> str:
        """Like ``read_until``, but the lines before the match stay unread."""
        mark = self.pos
        line = await self.read_until(pred, timeout)
        del self.lines[self.pos - 1]
        self.pos = mark
        return line

    async def expect(
        self, tag: str, timeout: float = DEFAULT_TIMEOUT, **want: str
    ) -> dict[str, str]:
        """The next line with this tag and these field values; its fields."""

        def match(line: str) -> bool:
            t, f = fields(line)
            return t == tag and all(f.get(k) == v for k, v in want.items())

        return fields(await self.read_until(match, timeout))[1]

    async def reply(self, text: str, tag: str = "", timeout: float = DEFAULT_TIMEOUT) -> str:
        """Send a line and return the next line (with ``tag`` if given)."""
        await self.send(text)
        return await self.read_until(lambda line: not tag or fields(line)[0] == tag, timeout)

    async def drain(self, seconds: float) -> list[str]:
        """Every line that arrives within ``seconds`` (consumed)."""
        with trio.move_on_after(seconds):
            while not self.eof:
                await self._fill()
        new = self.lines[self.pos :]
        self.pos = len(self.lines)
        return new

    async def caught_up(self, timeout: float = DEFAULT_TIMEOUT) -> list[str]:
        """Every line the server sent this (machine-style) client before now, unread till
        here (consumed): those before the answer to a 'ping' sent now, as replies keep the
        order of the lines (docs/protocol.md §2.3). What a check that nothing came needs,
        not a wait a loaded machine may outlast."""
        await self.send("ping")
        start = self.pos
        await self.read_until(lambda line: line == "ok cmd=ping text=pong", timeout)
        return self.lines[start : self.pos - 1]

    async def seen(self, pred: Callable[[str], bool], timeout: float = DEFAULT_TIMEOUT) -> str:
        """Wait (without reading: another task reads this client) for a received line."""
        with trio.fail_after(timeout):
            while True:
                for line in self.lines:
                    if pred(line):
                        return line
                await trio.sleep(0.01)

    async def wait_closed(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        with trio.fail_after(timeout):
            while not self.eof:
                await self._fill()


async def close_all(clients: Iterable[LineClient]) -> None:
    """Close each client at a test's end, waiting at most a second on any."""
    for client in clients:
        with trio.move_on_after(1):
            await client.aclose()


async def machine_client(
    port: int,
    name: str,
    password: str | None = None,
    token: str | None = None,
    source: str | None = None,
) -> LineClient:
    """Logged in: with a password, a guest's resume ``token``, or as a new guest
    (``source``: the address it connects from, as ``LineClient.connect``)."""
    client = await LineClient.connect(port, name, source)
    return await log_in_machine(client, name, password, token)


async def log_in_machine(
    client: LineClient, name: str, password: str | None = None, token: str | None = None
) -> LineClient:
    """``client`` in the machine style, logged in as ``name``."""
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    secret = password or (f"token={token}" if token else None)
    await client.send(f"login {name}" + (f" {secret}" if secret else ""))
    client.token = (await client.expect("ok", cmd="login", name=name)).get("token")
    return client


async def human_client(port: int, name: str) -> LineClient:
    client = await LineClient.connect(port, name)
    await client.send(f"login {name}")
    await client.read_until(lambda line: line.startswith(f"Hello, {name}"))
    return client


async def infos_so_far(client: LineClient) -> list[str]:
    """The texts of every ``info`` line ``client`` got (its login's, say) up to a round
    trip made now: none of them still on its way."""
    await client.send("ping")
    await client.expect("ok", cmd="ping")
    return [fields(x)[1]["text"] for x in client.lines[: client.pos] if x.startswith("info ")]


async def block(client: LineClient, command: str) -> list[str]:
    """The lines that answer a command the table answers ('sheet', also the table's,
    marks the end: the table answers in order)."""
    await client.send(command)
    await client.send("sheet")
    lines: list[str] = []
    while True:
        line = await client.read_until(lambda _: True)
        if line.startswith(("sheet ", "Score sheet")):
            return lines
        lines.append(line)


async def help_texts(client: LineClient, command: str) -> list[str]:
    """The texts of the ``help`` lines answering ``command`` (a ping marks the end)."""
    await client.send(command)
    await client.send("ping")
    out: list[str] = []
    while True:
        tag, f = fields(await client.read_until(lambda _: True))
        if tag == "ok" and f.get("cmd") == "ping":
            return out
        if tag == "help":
            out.append(f["text"])


async def help_commands(client: LineClient) -> set[str]:
    """The commands ``help`` lists to ``client`` (a ping marks the end)."""
    await client.send("help")
    await client.send("ping")
    out: set[str] = set()
    while True:
        tag, said = fields(await client.read_until(lambda _: True))
        if tag == "ok":
            return out
        if said.get("text", "").startswith("  "):
            out.add(said["text"].split()[0])


async def person_told(person: LineClient, command: str) -> list[str]:
    """The lines a person (the human style) is told in answer to ``command``."""
    await person.send(command)
    await person.send("ping")
    out = []
    while (line := await person.read_until(lambda _: True)) != "pong":
        out.append(line)
    return out


def random_legal(ask: dict[str, str], rng: random.Random) -> str:
    legal = ask["legal"].split(",")
    assert legal and legal != [""], ask
    return rng.choice(legal)


async def play_machine(
    client: LineClient,
    rng: random.Random,
    stop: Callable[[str], bool] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> str:
    """Answer every ``ask`` with a random legal call (echoing its seq) until the match
    ends (or ``stop`` holds); the last line read. Any error line fails the test."""
    stop = stop or (lambda line: is_event(line, "match-end"))
    while True:
        line = await client.read_until(lambda _: True, timeout)
        tag, f = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if stop(line):
            return line
        if tag == "ask":
            await client.send(f"{random_legal(f, rng)} seq={f['seq']}")


def second_deal_first_trick() -> Callable[[str], bool]:
    """A stop for play_machine: the first trick of deal 2 has been taken."""
    seen = {"deal2": False}

    def stop(line: str) -> bool:
        if is_event(line, "deal") and fields(line)[1]["deal"] == "2":
            seen["deal2"] = True
        return seen["deal2"] and is_event(line, "trick")

    return stop


def human_choice(options: str) -> str:
    """What a person picks from a prompt's options: the first card, else igrayu, else
    the first call offered (typed as people type: spaces, not hyphens)."""
    groups = [g.strip() for g in options.split(" | ")]
    tokens = [t.strip() for g in groups for t in g.split(", ")]
    cards = [t for t in tokens if CARD.fullmatch(t)]
    if cards:
        return cards[0]
    if "igrayu" in tokens:
        return "играю"  # Cyrillic works as well as Latin
    return tokens[0].replace("-", " ")


async def play_human(client: LineClient, timeout: float = DEFAULT_TIMEOUT) -> str:
    """Answer every "Your call ...:" prompt until "Game over"; the last line."""
    while True:
        line = await client.read_until(lambda _: True, timeout)
        assert not line.startswith("Error"), f"{client.label}: {line}"
        if line.startswith("Game over:"):
            return line
        prompt = PROMPT.match(line)
        if prompt:
            await client.send(human_choice(prompt.group(1)))


async def seat_pair(a: LineClient, b: LineClient, settings: str = "2") -> tuple[int, int, int]:
    """Both clients ``seek``; the table id and the seats of ``a`` and ``b``."""
    await a.send(f"seek {settings}")
    await a.expect("ok", cmd="seek")
    await b.send(f"seek {settings}")
    sit_a = await a.expect("ok", cmd="sit")
    sit_b = await b.expect("ok", cmd="sit")
    assert sit_a["table"] == sit_b["table"]
    return int(sit_a["table"]), int(sit_a["seat"]), int(sit_b["seat"])


async def a_short_match_after_asking(ann: LineClient, bob: LineClient, command: str) -> str:
    """``command`` (history, sheet) asked by ann before any match is refused; then ann
    and bob play a whole short match, both told every line; the table it was played at."""
    await ann.send(command)  # no table, no match yet
    assert await ann.expect("error") == {
        "code": "not-seated",
        "text": "you sit at no table, observe none, and have no match",
    }
    return await a_whole_match(ann, bob, "2 short")


async def a_whole_match(ann: LineClient, bob: LineClient, settings: str) -> str:
    """ann opens a table of ``settings`` ('new SETTINGS'), bob sits, and both play the
    whole match at random, told every line; the table it was played at."""
    await ann.send(f"new {settings}")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, ann, random.Random(6))
            nursery.start_soon(play_machine, bob, random.Random(7))
    return table


async def next_ask(a: LineClient, b: LineClient) -> tuple[dict[str, str], LineClient] | None:
    """The next request to act, whichever of the two seats gets it (None: match over)."""
    result: list[tuple[dict[str, str], LineClient] | None] = []

    async def watch(client: LineClient, cancel: trio.CancelScope) -> None:
        line = await client.read_until(lambda x: x.startswith("ask ") or is_event(x, "match-end"))
        result.append((fields(line)[1], client) if line.startswith("ask ") else None)
        cancel.cancel()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch, a, nursery.cancel_scope)
        nursery.start_soon(watch, b, nursery.cancel_scope)
    return result[0]


async def forfeited_at_once(
    first: LineClient, second: LineClient, private: bool = False
) -> tuple[str, str]:
    """``first`` opens a two-seat table (``private``: and invites ``second``), ``second``
    sits and forfeits before any call (``leave!``): the table, closing now
    (docs/protocol.md §11.3), and its match. Both are logged in, machine style, each
    labelled with his name (as ``machine_client`` labels him)."""
    await first.send("new 2 private" if private else "new 2")
    table = (await first.expect("ok", cmd="sit"))["table"]
    if private:
        await first.send(f"invite {second.label}")
        await first.expect("ok", cmd="invite")
    await second.send(f"sit {table}")
    await second.expect("ok", cmd="sit")
    await second.send("leave!")
    match = (await first.expect("event", kind="match-end"))["match"]
    return table, match
