"""A scratch copy of a commit with the modules on a call's path compiled by mypyc.

    .venv/bin/python bench/mypyc_tree.py DEST [--commit HEAD] [--no-build]

An experiment, not a build of the package (docs/performance.md, "mypyc on a call's
path"): ``git archive`` of ``--commit`` into DEST (which must not exist), the source
edits mypyc needs there (each listed below, each failing loudly if its text is not
found: a later commit may need them redone), then ``mypyc`` on ``modules()`` (the game,
the protocol and the server's top-level modules but a few), the ``.so`` files left next
to their ``.py``. Run a server or the tests on it with ``PYTHONPATH=DEST`` from
another directory (from DEST itself for the tests: a worktree's rootdir on
``sys.path`` would import its own uncompiled package). ``--no-build``: the edits only.

The edits (none changes what the code does):

- ``attrs.field``/``attrs.Factory`` in the compiled modules go through a wrapper typed
  ``Any`` (``deberc_net/mypyc_attrs.py``): mypyc builds an ``attrs.define`` class as a
  non-native class and checks a class-body value against its annotation, which the
  field's marker is not (``TypeError: ... Phase object expected``);
- class attributes of ``attrs.define`` classes moved to plain Python base classes
  (uncompiled modules made here): mypyc writes a non-native class's class attributes,
  annotated or not, into its ``__annotations__`` as their bare types, and attrs takes
  them for fields (``Deal``'s ``talk_calls`` and ``_own_*`` flags, ``Session``'s and
  ``Table``'s ``remote``); ``Deal.pending`` and ``Session``'s ``log`` and ``style``
  (properties with setters: none in a non-native class) go there too;
- ``Deal.shared_legal_calls`` a method, not an alias of ``_legal`` (absent from the
  class's namespace while its body runs);
- no closures in methods of non-native classes (mypyc's internal error):
  ``Deal._do_konets``'s and ``Match``'s ``max(key=lambda)``, ``Inbox._park``'s abort,
  ``View._checked``'s ``num``, ``Usage.text``'s ``lambda``;
- every annotation in a decorated class's body quoted: mypyc loads a non-native
  class's annotations at import, and a name imported under ``TYPE_CHECKING`` is not
  there (``KeyError: 'Store'``, or a segmentation fault at import);
- ``functools.singledispatch``'s ``register`` given each function's type (render.py,
  render_ru.py): it reads a compiled function's annotations as absent;
- ``LineTooLong(ConnectionError)``: ``mypyc_attr(native_class=False)``;
- ``StoreWriter._thread`` renamed (its C field ``__thread`` is a C keyword);
- the ``pyproject.toml`` moved aside while mypyc runs (setuptools rejects its
  ``project.license``), the strict mypy settings in a ``mypy.ini``.

Left uncompiled: the packages' ``__init__`` (a module ``__getattr__`` under ``if not
TYPE_CHECKING``: mypyc takes it for unreachable), ``protocol/lang.py`` (an attrs class
that is a ``Mapping``: a metaclass conflict), ``server/accounts.py`` and
``fair_turns.py`` (async generators), ``server/club.py`` and ``help.py`` (closures in
methods; off a call's path), ``server/run_order.py`` (a native subclass of
``random.Random``: a segmentation fault in its ``seed`` at the server's start),
``server/logs.py`` (structlog takes a weak reference to its stderr stand-in: a native
class has none), and the subpackages (store, web, cluster) and plugins.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

MYPYC = Path(sys.executable).with_name("mypyc")
LEFT_OUT = {
    "deberc_net/protocol/lang.py",
    "deberc_net/server/accounts.py",
    "deberc_net/server/fair_turns.py",
    "deberc_net/server/club.py",
    "deberc_net/server/help.py",
    "deberc_net/server/run_order.py",
    "deberc_net/server/logs.py",
}
WRAPPER = '''"""Scratch (bench/mypyc_tree.py): attrs.field and attrs.Factory typed Any for mypyc."""

from typing import Any

import attrs


def field(**kw: Any) -> Any:
    return attrs.field(**kw)


def Factory(*args: Any, **kw: Any) -> Any:  # noqa: N802
    return attrs.Factory(*args, **kw)
'''
SESSION_PROPERTIES = '''"""Scratch (bench/mypyc_tree.py): Session's properties with setters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from deberc_net.server.session import Session


class SessionProperties:
    @property
    def log(self) -> Any:
        from deberc_net.server.session import _conn_log

        session = cast("Session", self)
        if session.bound_log is not None:
            return session.bound_log
        if session.name is None:
            return _conn_log().bind(conn=session.id, peer=session.peer)
        return _conn_log().bind(conn=session.id, peer=session.peer, name=session.name)

    @log.setter
    def log(self, bound: Any) -> None:
        cast("Session", self).bound_log = bound

    @property
    def style(self) -> str:
        return cast("Session", self).connection.style

    @style.setter
    def style(self, style: str) -> None:
        from deberc_net.server.session import _STYLE_TEXTS

        cast("Session", self).connection.style = _STYLE_TEXTS.get(style, style)
'''
DEAL_CLASS = '''"""Scratch (bench/mypyc_tree.py): Deal's class attributes and ``pending``."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from .talk import TALK, Pending

if TYPE_CHECKING:
    from .deal import Deal


class DealClass:
    talk_calls: ClassVar[frozenset[str]] = TALK
    _own_trick_points: ClassVar[bool] = False
    _own_do_play: ClassVar[bool] = False
    _own_compute_legal: ClassVar[bool] = False
    own_view: ClassVar[bool] = False

    @property
    def pending(self) -> Pending | None:
        return cast("Deal", self).talk.pending

    @pending.setter
    def pending(self, question: Pending | None) -> None:
        cast("Deal", self).talk.pending = question
'''
REMOTE_FLAG = '''"""Scratch (bench/mypyc_tree.py): ``remote``, a class attribute."""

from typing import ClassVar


class RemoteFlag:
    remote: ClassVar[bool] = False
'''
# (file, old text, new text): each old text must be found exactly once
EDITS: list[tuple[str, str, str]] = [
    (
        "deberc_net/game/deal.py",
        "    talk_calls: ClassVar[frozenset[str]] = TALK\n",
        "",
    ),
    (
        "deberc_net/game/deal.py",
        "    _own_trick_points: ClassVar[bool] = False\n"
        "    _own_do_play: ClassVar[bool] = False\n"
        "    _own_compute_legal: ClassVar[bool] = False\n",
        "",
    ),
    ("deberc_net/game/deal.py", "    own_view: ClassVar[bool] = False\n", ""),
    (
        "deberc_net/game/deal.py",
        "    @property\n    def pending(self) -> Pending | None:\n"
        "        return self.talk.pending\n\n"
        "    @pending.setter\n    def pending(self, question: Pending | None) -> None:\n"
        "        self.talk.pending = question\n",
        "",
    ),
    ("deberc_net/game/deal.py", "class Deal:", "class Deal(DealClass):"),
    (
        "deberc_net/game/deal.py",
        "from .talk import SWAP_Q, TALK,",
        "from .deal_class import DealClass\nfrom .talk import SWAP_Q, TALK,",
    ),
    (
        "deberc_net/game/deal.py",
        "    shared_legal_calls = _legal\n",
        "    def shared_legal_calls(self, seat: int) -> list[Call]:\n"
        "        return self._legal(seat)\n",
    ),
    (
        "deberc_net/game/deal.py",
        "        winner = max(others, key=lambda s: self.totals_before[s] + points[s])\n",
        "        before = self.totals_before\n        winner = others[0]\n"
        "        for s in others[1:]:\n"
        "            if before[s] + points[s] > before[winner] + points[winner]:\n"
        "                winner = s\n",
    ),
    (
        "deberc_net/game/match.py",
        "        self.result = MatchEnd(max(others, key=lambda s: self.totals[s]), reason)\n",
        "        best = others[0]\n        for s in others[1:]:\n"
        "            if self.totals[s] > self.totals[best]:\n                best = s\n"
        "        self.result = MatchEnd(best, reason)\n",
    ),
    (
        "deberc_net/protocol/messages.py",
        "        return _PLACEHOLDER.sub(lambda m: RU_PLACEHOLDERS.get(m[0], m[0]), self.form)\n",
        "        return _PLACEHOLDER.sub(_ru_placeholder, self.form)\n\n\n"
        "def _ru_placeholder(m: re.Match[str]) -> str:\n"
        "    return RU_PLACEHOLDERS.get(m[0], m[0])\n",
    ),
    (
        "deberc_net/protocol/wire.py",
        "class LineTooLong(ConnectionError):",
        "@mypyc_attr(native_class=False)\nclass LineTooLong(ConnectionError):",
    ),
    (
        "deberc_net/protocol/wire.py",
        "from __future__ import annotations\n",
        "from __future__ import annotations\n\nfrom mypy_extensions import mypyc_attr\n",
    ),
    (
        "deberc_net/protocol/wire.py",
        "        def num(key: str, default: int) -> int:\n            value = line.get_int(key)\n"
        "            return default if value is None else value\n\n",
        "",
    ),
    (
        "deberc_net/server/inbox.py",
        "        def abort(_: object) -> trio.lowlevel.Abort:\n            self.waiter = None\n"
        "            return trio.lowlevel.Abort.SUCCEEDED\n\n"
        "        await trio.lowlevel.wait_task_rescheduled(abort)\n",
        "        await trio.lowlevel.wait_task_rescheduled(functools.partial(_abort, self))\n",
    ),
    (
        "deberc_net/server/inbox.py",
        "from typing import Generic, TypeVar\n",
        "import functools\nfrom typing import Any, Generic, TypeVar\n",
    ),
    (
        "deberc_net/server/session.py",
        "class Session:",
        "class Session(SessionProperties, RemoteFlag):",
    ),
    (
        "deberc_net/server/session.py",
        "    remote = False  # (a class attribute) a player of another worker: server/cluster/\n",
        "",
    ),
    ("deberc_net/server/table.py", "class Table:", "class Table(RemoteFlag):"),
    (
        "deberc_net/server/table.py",
        "    remote = False  # (a class attribute) another worker's table: server/cluster/\n",
        "",
    ),
]
APPENDED = {
    "deberc_net/protocol/wire.py": "\n\ndef _num(line: Line, key: str, default: int) -> int:\n"
    "    value = line.get_int(key)\n    return default if value is None else value\n",
    "deberc_net/server/inbox.py": "\n\ndef _abort(inbox: Inbox[Any], _: object)"
    " -> trio.lowlevel.Abort:\n"
    "    inbox.waiter = None\n    return trio.lowlevel.Abort.SUCCEEDED\n",
}


# ``@f.register`` over ``def name(e: Type...``: the dispatch's type given, not read
SINGLE_DISPATCH = re.compile(r"^@(\w+)\.register\n(def \w+\(\w+: )([\w.]+)([,)])", re.M)


def quote_annotations(text: str) -> str:
    """Every annotation in a decorated class's body quoted: mypyc loads a non-native
    class's annotations as objects at import, and a name imported only for the type
    checker is not there (a ``KeyError``, or a crash); a quoted one stays a string."""
    spans = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef) and node.decorator_list:
            for statement in node.body:
                if isinstance(statement, ast.AnnAssign) and not isinstance(
                    statement.annotation, ast.Constant
                ):
                    spans.append(statement.annotation)
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    for annotation in sorted(spans, key=lambda a: (a.lineno, a.col_offset), reverse=True):
        assert annotation.end_lineno is not None and annotation.end_col_offset is not None
        begin = starts[annotation.lineno - 1] + annotation.col_offset
        end = starts[annotation.end_lineno - 1] + annotation.end_col_offset
        text = text[:begin] + repr(ast.unparse(annotation)) + text[end:]
    return text


def edit(tree: Path) -> None:
    """The edits of the module's docstring, in ``tree``."""
    for name, old, new in EDITS:
        path = tree / name
        text = path.read_text()
        if text.count(old) != 1:
            raise SystemExit(f"{name}: the text to edit is not there once: {old[:60]!r}")
        path.write_text(text.replace(old, new))
    for name, tail in APPENDED.items():
        path = tree / name
        path.write_text(path.read_text() + tail)
    wire = tree / "deberc_net/protocol/wire.py"
    wire.write_text(re.sub(r'\bnum\("', '_num(line, "', wire.read_text()))
    (tree / "deberc_net/game/deal_class.py").write_text(DEAL_CLASS)
    (tree / "deberc_net/server/remote_flag.py").write_text(REMOTE_FLAG)
    table = tree / "deberc_net/server/table.py"
    table.write_text(
        re.sub(
            r"^import attrs\n",
            "import attrs\n\nfrom deberc_net.server.remote_flag import RemoteFlag\n",
            table.read_text(),
            count=1,
            flags=re.M,
        )
    )
    session = tree / "deberc_net/server/session.py"
    text = session.read_text()
    start = text.index("    @property\n    def log(self) -> Any:")
    end = text.index("    @property\n    def machine(self) -> bool:")
    text = text[:start] + text[end:]
    session.write_text(
        re.sub(
            r"^import attrs\n",
            "import attrs\n\nfrom deberc_net.server.remote_flag import RemoteFlag\n"
            "from deberc_net.server.session_props import SessionProperties\n",
            text,
            count=1,
            flags=re.M,
        )
    )
    (tree / "deberc_net/server/session_props.py").write_text(SESSION_PROPERTIES)
    writer = tree / "deberc_net/server/store_writer.py"
    writer.write_text(re.sub(r"self\._thread\b", "self._drainer", writer.read_text()))
    (tree / "deberc_net/mypyc_attrs.py").write_text(WRAPPER)
    for path in modules(tree):
        path.write_text(quote_annotations(path.read_text()))
    for path in modules(tree):
        text = path.read_text()
        if not re.search(r"attrs\.(field|Factory)\(", text):
            continue
        text = re.sub(r"attrs\.(field|Factory)\(", r"_A.\1(", text)
        text = re.sub(
            r"^import attrs\n",
            "import attrs\n\nfrom deberc_net import mypyc_attrs as _A\n",
            text,
            count=1,
            flags=re.M,
        )
        path.write_text(text)
    for name in ("render.py", "render_ru.py"):  # singledispatch reads no compiled annotation
        path = tree / "deberc_net/protocol" / name
        text = SINGLE_DISPATCH.sub(r"@\1.register(\3)\n\2\3\4", path.read_text())
        text = text.replace(
            "@_human.register\ndef _human_deal_end(",
            "@_human.register(g.DealEnded)\ndef _human_deal_end(",
        )
        path.write_text(text)
    (tree / "mypy.ini").write_text("[mypy]\nstrict = True\npython_version = 3.11\n")


def modules(tree: Path) -> list[Path]:
    """The modules compiled: game/, protocol/ and server/'s own, but ``LEFT_OUT``."""
    found = []
    for package in ("game", "protocol", "server"):
        for path in sorted((tree / "deberc_net" / package).glob("*.py")):
            name = path.relative_to(tree).as_posix()
            if (
                path.name
                not in ("__init__.py", "session_props.py", "deal_class.py", "remote_flag.py")
                and name not in LEFT_OUT
            ):
                found.append(path)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path, help="a new directory for the tree")
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--no-build", action="store_true", help="the edits only")
    args = parser.parse_args()
    if args.dest.exists():
        parser.error(f"{args.dest} exists: give a new directory")
    args.dest.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", args.commit], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(args.dest)], input=archive.stdout, check=True)
    edit(args.dest)
    if args.no_build:
        return
    pyproject = args.dest / "pyproject.toml"
    aside = pyproject.with_suffix(".toml.aside")
    pyproject.rename(aside)
    try:
        names = [path.relative_to(args.dest).as_posix() for path in modules(args.dest)]
        subprocess.run([str(MYPYC), *names], cwd=args.dest, check=True)
    finally:
        aside.rename(pyproject)


if __name__ == "__main__":
    main()
