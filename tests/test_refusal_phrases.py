"""Every refusal the server builds says its sentence as a catalogue phrase (English and
Russian: deberc_net/protocol/messages.py), so a 'lang ru' reader is told what an English
one is. An ``ev.Error(code, "English text")`` without its phrase is told in Russian only
by its code's gist (RU_ERRORS): a tryout found those refusals thinner than the English.

So the server's sources are scanned: an ``ev.Error`` built without ``said`` is allowed
only where ALLOWED says why (its file and its text argument as written), one line each.
A new refusal is made with ``ev.error(code, phrase(Msg.X, ...))`` instead."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "deberc_net" / "server"

# (file under deberc_net/server, the text argument as written): why it may stay English
ALLOWED: dict[tuple[str, str], str] = {
    ("running.py", '"the server could not do that; sorry"'): (
        "RU_ERRORS['internal'] says it all, and more (nothing changed)"
    ),
    ("cluster/looks.py", '"the server could not do that; sorry"'): (
        "RU_ERRORS['internal'] says it all, and more (nothing changed): running.py's"
    ),
    ("lobby.py", '"the server is shutting down"'): (
        "RU_ERRORS['shutting-down'] is the same sentence"
    ),
    ("table.py", 'f"table {self.id} did not ask for {name}"'): (
        "only a house bot (the server's own process, a house- name) can meet it"
    ),
    ("matchmaking.py", 'f"seats= names {settings.players} different players"'): (
        "'reserve' is an admin's, sent by a ladder's program in the machine style"
    ),
    ("matchmaking.py", '"deals=N takes a whole number from 1"'): (
        "'reserve' is an admin's, sent by a ladder's program in the machine style"
    ),
    ("matchmaking.py", "\"board=KEY takes 1-64 letters, digits, '_', '-', '.' or '/'\""): (
        "'reserve' is an admin's, sent by a ladder's program in the machine style"
    ),
    (
        "reserve_words.py",
        "f\"reserve takes {', '.join(k + '=' for k in RESERVE_KEYS)}: not {key}={guess}\"",
    ): ("'reserve' is an admin's, sent by a ladder's program in the machine style"),
    ("reserve_words.py", 'f"{key}= is given twice: give it once"'): (
        "'reserve' is an admin's, sent by a ladder's program in the machine style"
    ),
    ("reserve_words.py", 'f"{key}= is given no value"'): (
        "'reserve' is an admin's, sent by a ladder's program in the machine style"
    ),
    ("reserve_words.py", 'f"{USAGE}: seats= names the players, seat by seat"'): (
        "'reserve' is an admin's, sent by a ladder's program in the machine style"
    ),
    ("reserve_words.py", "f\"seats= names {shown}: a name is 2-20 letters, digits, '_' or '-'\""): (
        "'reserve' is an admin's, sent by a ladder's program in the machine style"
    ),
    ("matchmaking.py", '"watch= takes all or ends"'): (
        "'reserve' is an admin's, sent by a ladder's program in the machine style"
    ),
}


def phraseless_errors(source: str) -> list[tuple[int, str]]:
    """Each ``ev.Error(...)`` (or a bare ``Error(...)``) in ``source`` built without its
    phrase, neither ``said=`` nor a fourth argument (Error's own order: code, text,
    human, said): its line and its text argument as written (the first argument if it
    has no second), in line order."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        named = (
            isinstance(func, ast.Attribute)
            and func.attr == "Error"
            and isinstance(func.value, ast.Name)
            and func.value.id == "ev"
        ) or (isinstance(func, ast.Name) and func.id == "Error")
        if not named or any(k.arg == "said" for k in node.keywords) or len(node.args) >= 4:
            continue
        text = node.args[1] if len(node.args) > 1 else node.args[0] if node.args else node
        found.append((node.lineno, ast.get_source_segment(source, text) or ""))
    return sorted(found)


def test_phraseless_errors_are_found_in_each_form() -> None:
    source = (
        "from deberc_net.protocol import events as ev\n"
        'a = ev.Error("busy", "too many tables")\n'  # 2
        'b = ev.Error("busy", f"table {t} is full")\n'  # 3
        "c = ev.Error(\n"  # 4
        '    "slow-down",\n'
        '    "wait a little",\n'
        ")\n"
        'd = ev.Error("bad-rules", said.text(), said=said)\n'  # 8: its phrase
        "e = ev.Error(exc.code, exc.message, human, detail, hint=ten)\n"  # 9: said, 4th
        'f = ev.error("busy", phrase(Msg.BUSY))\n'  # 10: the phrase's own maker
        'g = Error("flood", TEXT)\n'  # 11
        "h = ev.Error(code, text, human)\n"  # 12: a human text is no phrase
        'i = ev.Errors("x", "y")\n'  # 13: another name
    )
    assert phraseless_errors(source) == [
        (2, '"too many tables"'),
        (3, 'f"table {t} is full"'),
        (4, '"wait a little"'),
        (11, "TEXT"),
        (12, "text"),
    ]


def _found() -> dict[tuple[str, str], list[int]]:
    """Each phraseless refusal of the server's sources: its file and text, and lines."""
    found: dict[tuple[str, str], list[int]] = {}
    sources = sorted(SERVER.rglob("*.py"))
    assert len(sources) > 30  # the walk found the server
    for path in sources:
        name = path.relative_to(SERVER).as_posix()
        for line, text in phraseless_errors(path.read_text(encoding="utf-8")):
            found.setdefault((name, text), []).append(line)
    return found


def test_every_refusal_of_the_server_has_its_phrase_or_a_reason() -> None:
    new = [
        f"deberc_net/server/{name}:{lines[0]}: ev.Error(…, {text}) has no phrase"
        for (name, text), lines in _found().items()
        if (name, text) not in ALLOWED
    ]
    assert new == [], (
        "build it with ev.error(code, phrase(Msg.X, ...)) (a Msg with its English and"
        " Russian in deberc_net/protocol/messages.py), or say in ALLOWED why a person"
        " never needs it in Russian:\n" + "\n".join(new)
    )


def test_the_allowed_english_refusals_are_still_there_each_with_one_reason() -> None:
    found = _found()
    gone = [key for key in ALLOWED if key not in found]
    assert gone == [], f"no longer in the sources: drop them from ALLOWED: {gone}"
    for key, why in ALLOWED.items():
        assert why.strip() and "\n" not in why, key
