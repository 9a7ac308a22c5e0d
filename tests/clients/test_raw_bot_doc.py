"""docs/bots.md shows clients/raw_bot.py's loop for other languages to copy: the shown
loop is the file's, line for line (comments aside), so the sample does what the tested
bot does."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _loop(text: str) -> list[str]:
    """The lines from 'for raw in reader:' to its 'else:', comments and indent dropped."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "for raw in reader:")
    end = next(i for i in range(start, len(lines)) if lines[i].strip().startswith("else:"))
    return [re.sub(r"\s+#.*$", "", line).strip() for line in lines[start : end + 1]]


def test_the_docs_sample_bot_reads_its_lines_as_raw_bot_does() -> None:
    doc = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    sample = doc.split("```python", 1)[1].split("```", 1)[0]
    assert _loop(sample) == _loop((ROOT / "clients" / "raw_bot.py").read_text(encoding="utf-8"))
