"""Reading docs/protocol.md's examples, for the audit modules that hold them to a real
server line for line."""

from __future__ import annotations

import re
from pathlib import Path

from tests.server.client import LineClient

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
COMMENT = re.compile(r"\s{2,}\(.*\)$")  # a transcript's comment after a line


def example(heading: str) -> list[str]:
    """The lines of the first code block after ``heading`` in docs/protocol.md."""
    text = PROTOCOL.read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1]
    return text.split("```\n", 1)[1].split("\n```", 1)[0].splitlines()


def examples(heading: str) -> list[list[str]]:
    """The lines of every code block of the section under ``heading``, in order."""
    text = PROTOCOL.read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1]
    section = re.split(r"\n##+ ", text, maxsplit=1)[0]
    return [block.splitlines() for block in section.split("```\n")[1::2]]


def sent(line: str) -> str:
    """A transcript's ``> `` line as the client sends it (its comment dropped)."""
    assert line.startswith("> "), line
    return COMMENT.sub("", line[2:])


def only_crlf(raw: bytes) -> bool:
    return raw.count(b"\n") == raw.count(b"\r\n")


async def lines_until_pong(client: LineClient, line: str) -> list[str]:
    """Every line the answer to ``line`` is: what comes before a ``ping``'s, sent
    after it (§2.3: replies come in the order of the lines)."""
    await client.send(line)
    await client.send("ping")
    said: list[str] = []
    while (got := await client.read_until(lambda _: True)) not in (
        "pong",
        "ok cmd=ping text=pong",
    ):
        said.append(got)
    return said
