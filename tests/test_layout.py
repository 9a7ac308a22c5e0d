"""No test module imports another (issue #8): what two test modules share lives in a
helper module beside them, never named ``test_*.py`` (tests/store/records.py,
tests/ladder/helpers.py, tests/web/live.py, ...). A test module then runs only as itself:
importing one imports none of the others' tests, fixtures or set-up.

Nor does a test reach into the private names of deberc_net or clients (issue #8): a test
of a seam worth testing alone uses its public name, anything else the public API; a
private name may change with no test of behaviour having to."""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

from deberc_net.game.deal import Deal

ROOT = Path(__file__).resolve().parent.parent
# the packages whose private names the tests leave alone: the server and the client
# library (its bots and the terminal client)
OURS = ("deberc_net", "clients")
# a named tuple's own methods and fields: public (the standard library's documentation),
# the underscore only keeps them apart from the fields' names
NAMED_TUPLE_API = frozenset({"_asdict", "_field_defaults", "_fields", "_make", "_replace"})
# the private members of a class of ours that docs/plugins.md ("What the subclass
# overrides") has a game's own deal class define: extension points, underscored as the
# engine's own methods are. A test's subclass may define them (and call them through
# super()) as a plugin author would; no other private name of the class
DOCUMENTED_HOOKS = {
    "deberc_net.game.deal.Deal": frozenset(
        {"_compute_legal", "_do_play", "_finish_trick", "_show", "_trick_points"}
    ),
}


def _is_test_module(name: str) -> bool:
    return name.rsplit(".", 1)[-1].startswith("test_")


def imported_test_modules(source: str) -> list[tuple[int, str]]:
    """Each import in ``source`` of a test module (a module whose last dotted part starts
    with ``test_``), in line order: its line and the module, as the import names it."""
    return _imported_in(_walk(ast.parse(source)))


def _imported_in(nodes: list[ast.AST]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in nodes:
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if _is_test_module(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if node.module and _is_test_module(node.module):
                found.append((node.lineno, module))
                continue
            # a module of a package (``from . import test_x``, ``from tests.a import
            # test_x``); a name starting test_ would be collected here again in any case
            found += [
                (node.lineno, f"{module}{a.name}" if module.endswith(".") else f"{module}.{a.name}")
                for a in node.names
                if _is_test_module(a.name)
            ]
    return sorted(found)


def test_imports_of_test_modules_are_found_in_each_form() -> None:
    source = (
        "import os\n"
        "from .helpers import deal\n"
        "from .test_store import deal\n"
        "from tests.store.test_store import (\n    opened,\n)\n"
        "import tests.store.test_store\n"
        "def f():\n    from ..test_store import deal\n"
        "from . import test_store\n"
        "from tests.store import records, test_store\n"
        "from tests.test_layout_tools import x\n"
    )
    assert imported_test_modules(source) == [
        (3, ".test_store"),
        (4, "tests.store.test_store"),
        (7, "tests.store.test_store"),
        (9, "..test_store"),
        (10, ".test_store"),
        (11, "tests.store.test_store"),
        (12, "tests.test_layout_tools"),
    ]


@functools.cache
def _found_in(path: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """What both checks below find in a file (imported_test_modules', then
    private_names_used's): parsed and walked once a process for both (every file's
    parse and walk some 2 s of CPU); their findings kept, not the trees (millions of nodes,
    which every later full collection of the process would walk)."""
    with _no_collection():
        nodes = _walk(ast.parse(path.read_text(encoding="utf-8")))
        return _imported_in(nodes), _private_in(nodes)


def _walk(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` in ast.walk's order, bar the Load/Store/Del marks no
    check reads (a third of them), at some half of ast.walk's cost."""
    nodes = [tree]
    for node in nodes:  # (the list grows as it is read: breadth first)
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                nodes += [item for item in value if isinstance(item, ast.AST)]
            elif isinstance(value, ast.AST) and not isinstance(value, ast.expr_context):
                nodes.append(value)
    return nodes


@contextlib.contextmanager
def _no_collection() -> Iterator[None]:
    """The cyclic garbage collector held off: a parse makes some million nodes, and each
    allocation past the threshold set off a collection of all the process's objects (the
    tests' walk 7 s of which 2 s parsing, on a loaded machine). The nodes hold no cycles:
    freed by their counts when a file is done."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _test_sources() -> list[Path]:
    """Every Python file of the tests: tests/ and each example's."""
    sources = sorted([*(ROOT / "tests").rglob("*.py"), *ROOT.glob("examples/*/tests/**/*.py")])
    assert len(sources) > 100  # the walk found the tests
    return sources


def test_no_test_module_imports_another() -> None:
    sources = _test_sources()
    found = [
        f"{path.relative_to(ROOT)}:{line}: imports {module}"
        for path in sources
        for line, module in _found_in(path)[0]
    ]
    assert found == [], "move what they share to a helper module:\n" + "\n".join(found)


def _private(name: str) -> bool:
    """A private name: a leading underscore (a dunder such as ``__version__`` is not, nor
    a named tuple's ``_replace`` and the like)."""
    dunder = name.startswith("__") and name.endswith("__")
    return name.startswith("_") and not dunder and name not in NAMED_TUPLE_API


def _ours(dotted: str) -> bool:
    return dotted.split(".")[0] in OURS


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (base := _dotted(node.value)) is not None:
        return f"{base}.{node.attr}"
    return None


def _imported_from_ours(nodes: list[ast.AST]) -> tuple[dict[str, str], list[tuple[int, str]]]:
    """The local names a module (``nodes``, all of its tree) binds to our modules and
    objects (each to its dotted name), and each private name among those imports (its
    line, its name)."""
    bound: dict[str, str] = {}
    private: list[tuple[int, str]] = []
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in (a for a in node.names if _ours(a.name)):
                if any(map(_private, alias.name.split("."))):
                    private.append((node.lineno, alias.name))
                local = alias.asname or alias.name.split(".")[0]
                bound[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _ours(node.module or ""):
            module = node.module or ""
            if any(map(_private, module.split("."))):
                private.append((node.lineno, module))
            for alias in node.names:
                if _private(alias.name):
                    private.append((node.lineno, f"{module}.{alias.name}"))
                bound[alias.asname or alias.name] = f"{module}.{alias.name}"
    return bound, private


def _ours_named(node: ast.expr, bound: dict[str, str]) -> str | None:
    """The dotted name of ours ``node`` stands for (through an import's local name)."""
    dotted = _dotted(node)
    if dotted is None:
        return None
    first, _, rest = dotted.partition(".")
    return None if first not in bound else ".".join(filter(None, [bound[first], rest]))


def _attribute_by_name(node: ast.Call, bound: dict[str, str]) -> str | None:
    """A private attribute of ours named in a string: ``getattr(accounts, "_hash")``,
    ``monkeypatch.setattr(accounts, "_hash", ...)``, ``monkeypatch.setattr(
    "deberc_net.server.accounts._hash", ...)``."""
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    if name not in {"getattr", "setattr", "hasattr", "delattr"} or not node.args:
        return None
    first, second = node.args[0], node.args[1] if len(node.args) > 1 else None
    if isinstance(first, ast.Constant) and isinstance(first.value, str):  # a dotted target
        dotted = first.value
        return dotted if _ours(dotted) and any(map(_private, dotted.split("."))) else None
    owner = _ours_named(first, bound)
    if owner is None or not isinstance(second, ast.Constant):
        return None
    attr = second.value
    return f"{owner}.{attr}" if isinstance(attr, str) and _private(attr) else None


def _made_by_ours(nodes: list[ast.AST], bound: dict[str, str]) -> dict[str, str]:
    """The local names a module (``nodes``) binds to what a name of ours makes or
    returns (``bot = SearchPlayer(...)``, ``deal = match.deal_copy()``), each to the
    call's dotted name and ``()``. By name through the module: bound so in one
    function, it counts in all."""
    calls: list[tuple[list[ast.expr], ast.Call]] = []
    for node in nodes:
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr) and isinstance(
            node.value, ast.Call
        ):
            targets: list[ast.expr] = (
                node.targets if isinstance(node, ast.Assign) else [node.target]
            )
            calls.append((targets, node.value))
        elif (  # with open_store(...) as store:
            isinstance(node, ast.withitem)
            and isinstance(node.context_expr, ast.Call)
            and node.optional_vars is not None
        ):
            calls.append(([node.optional_vars], node.context_expr))
    made: dict[str, str] = {}
    grew = True
    while grew:  # what a made object's call returns is made too, in any order
        grew = False
        for targets, call in calls:
            owner = _ours_named(call.func, {**bound, **made})
            for target in targets if owner is not None else ():
                name = target.id if isinstance(target, ast.Name) else None
                if name is not None and name not in bound and name not in made:
                    made[name] = f"{owner}()"
                    grew = True
    return made


def _object_of(dotted: str) -> object | None:
    """The module or object of ours ``dotted`` names, or None (not found, or made by a
    call: ``Match()``)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for part in parts[end:]:
            if not hasattr(found, part):
                return None
            found = getattr(found, part)
        return found
    return None


def _subclassed_privately(nodes: list[ast.AST], names: dict[str, str]) -> list[tuple[int, str]]:
    """Each private member of a class of ours that a class of the module (``nodes``)
    derived from it defines over it (a method or attribute the base has; of a base not
    found, any) or reaches through ``super()``: its line, the first base of ours (dotted)
    and the member. Not the hooks the docs give such a subclass (DOCUMENTED_HOOKS)."""
    found: list[tuple[int, str]] = []
    for cls in (node for node in nodes if isinstance(node, ast.ClassDef)):
        bases = [b for b in (_ours_named(base, names) for base in cls.bases) if b is not None]
        if not bases:
            continue
        allowed = frozenset().union(*(DOCUMENTED_HOOKS.get(b, frozenset()) for b in bases))
        known = [_object_of(b) for b in bases]

        def theirs(name: str, known: list[object | None] = known) -> bool:
            return None in known or any(hasattr(base, name) for base in known)

        for item in cls.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                defined = [item.name]
            elif isinstance(item, ast.Assign | ast.AnnAssign):
                targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                defined = [t.id for t in targets if isinstance(t, ast.Name)]
            else:
                continue
            found += [
                (item.lineno, f"{bases[0]}.{name}")
                for name in defined
                if _private(name) and name not in allowed and theirs(name)
            ]
        for node in ast.walk(cls):
            if (
                isinstance(node, ast.Attribute)
                and _private(node.attr)
                and node.attr not in allowed
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "super"
            ):
                found.append((node.lineno, f"{bases[0]}.{node.attr}"))
    return found


def _scripts(nodes: list[ast.AST]) -> Iterator[tuple[int, str]]:
    """Each string of a module (``nodes``) that names a package of ours and is Python (a
    script a test runs in a process of its own, ``python -c``): its first line and its
    text. A script an f-string builds is not seen here."""
    for node in nodes:
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if any(package in node.value for package in OURS):
            try:
                ast.parse(node.value)
            except (SyntaxError, ValueError):
                continue
            yield node.lineno, node.value


def private_names_used(source: str) -> list[tuple[int, str]]:
    """Each private name of ours (deberc_net's, clients') ``source`` reaches, in line
    order: its line and the name, dotted from the package. Reached: imported (``from
    deberc_net.x import _y``, a private module in the path); read, set or patched as the
    attribute of a name imported from ours (``accounts._hash``, ``Bus._payloads``,
    ``monkeypatch.setattr(accounts, "_hash", ...)``) or of an object one of those made
    (``bot = Bot(...)``, ``bot._react``: ``clients.client.Bot()._react``; ``with
    open_store(...) as store``; a class of ours made and read at once,
    ``Bot(...)._react``); defined over
    by a subclass of a class of ours, or reached through its ``super()`` (bar
    DOCUMENTED_HOOKS); or so in a script the source holds as a string. An attribute of
    an object the test got otherwise (``store._db``, a fixture's) is not seen here."""
    return _private_in(_walk(ast.parse(source)))


def _private_in(nodes: list[ast.AST]) -> list[tuple[int, str]]:
    bound, found = _imported_from_ours(nodes)
    names = {**bound, **_made_by_ours(nodes, bound)}
    for node in nodes:
        if isinstance(node, ast.Attribute) and _private(node.attr):
            value = node.value
            if isinstance(value, ast.Call):  # made and read at once: Bot(...)._react
                made = _ours_named(value.func, names)
                # (a class of ours only: build_parser()._actions is argparse's own)
                owner = f"{made}()" if made and isinstance(_object_of(made), type) else None
            else:
                owner = _ours_named(value, names)
            if owner is not None:
                found.append((node.lineno, f"{owner}.{node.attr}"))
        elif isinstance(node, ast.Call) and (named := _attribute_by_name(node, names)):
            found.append((node.lineno, named))
    found += _subclassed_privately(nodes, names)
    for first, script in _scripts(nodes):
        found += [(first + line - 1, name) for line, name in private_names_used(script)]
    return sorted(set(found))  # (a patch's name is an attribute read too: once)


def test_private_names_of_ours_are_found_in_each_form() -> None:
    source = (
        "import os\n"  # 1
        "from deberc_net.ladder.distributed import _count_and_finish, spec_of\n"
        "from deberc_net.server.cluster.payloads import (\n    table_for_bus,\n    _in_parts,\n)\n"
        "from deberc_net.server import accounts, logs\n"  # 7
        "import deberc_net.server.running\n"
        "import deberc_net.server._hidden as hidden\n"  # 9
        "from deberc_net.server.cluster.bus import Bus\n"
        "def f(monkeypatch, store, obj):\n"  # 11
        "    accounts._hash('pw', b'')\n"
        "    monkeypatch.setattr(logs, '_lifecycle_passes', True)\n"
        "    deberc_net.server.running._peer(None)\n"
        "    Bus._payloads([])\n"  # 15
        "    monkeypatch.setattr('deberc_net.server.accounts._hash', None)\n"
        "    store._db, obj._private, os._exit, accounts.__name__, Node.hear\n"  # 17: none
        "    from deberc_net.testing import _x\n"
        "    getattr(accounts, '_hash')\n"
        "from tests.server.client import _helper\n"  # 20: the tests' own
        "from clients import search_bot\n"
        "from clients.client import Bot, _lines\n"  # 22
        "from clients.search.policy import SearchPlayer\n"
        "from deberc_net.game.deal import Deal\n"
        "from deberc_net.game.events import DealEnded\n"  # 25
        "def g(monkeypatch):\n"
        "    search_bot._main()\n"
        "    bot = Bot(print, 'bob')\n"
        "    bot._react('bye', [])\n"  # 29: an object of ours made
        "    player = SearchPlayer(level=1)\n"
        "    player.values_in, player.tracker, player._solver\n"
        "    monkeypatch.setattr(bot, '_pick', None)\n"
        "    end = DealEnded(1, 'made', None, None, (0, 0), 0, {})\n"
        "    end._replace(deal=2), end._fields\n"  # 34: a named tuple's own, none
        "class Mine(Deal):\n"
        "    def _do_play(self, seat, call):\n"  # 36: a documented hook, none
        "        super()._do_play(seat, call)\n"
        "    def _legal_cards(self, seat):\n"  # 38: defined over Deal's own
        "        return super()._changed()\n"
        "    def _mine(self):\n"  # 40: the subclass's own, none
        "        return 0\n"
        "SCRIPT = '''\n"  # 42: a script a test runs
        "import clients.client as c\n"
        "c.Bot._answer = None\n"
        "'''\n"
        "def h():\n"  # 46
        "    Bot(print, 'bob')._greeting()\n"  # 47: made and read at once
        "    with SearchPlayer(level=1) as held:\n"
        "        held._solver\n"  # 49: made by a with
        "    Deal(rules)._settings._private\n"  # 50: only the first step is seen
        "    spec_of(1)._private\n"  # 51: what a function of ours returns, none
    )
    assert private_names_used(source) == [
        (2, "deberc_net.ladder.distributed._count_and_finish"),
        (3, "deberc_net.server.cluster.payloads._in_parts"),
        (9, "deberc_net.server._hidden"),
        (12, "deberc_net.server.accounts._hash"),
        (13, "deberc_net.server.logs._lifecycle_passes"),
        (14, "deberc_net.server.running._peer"),
        (15, "deberc_net.server.cluster.bus.Bus._payloads"),
        (16, "deberc_net.server.accounts._hash"),
        (18, "deberc_net.testing._x"),
        (19, "deberc_net.server.accounts._hash"),
        (22, "clients.client._lines"),
        (27, "clients.search_bot._main"),
        (29, "clients.client.Bot()._react"),
        (31, "clients.search.policy.SearchPlayer()._solver"),
        (32, "clients.client.Bot()._pick"),
        (38, "deberc_net.game.deal.Deal._legal_cards"),
        (39, "deberc_net.game.deal.Deal._changed"),
        (44, "clients.client.Bot._answer"),
        (47, "clients.client.Bot()._greeting"),
        (49, "clients.search.policy.SearchPlayer()._solver"),
        (50, "deberc_net.game.deal.Deal()._settings"),
    ]


def test_the_hooks_a_subclass_may_define_are_the_ones_docs_plugins_md_lists() -> None:
    """DOCUMENTED_HOOKS: the private members of the page's "What the subclass overrides"
    table (its first column), each a member of the engine's Deal."""
    text = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    start = text.index("\n### What the subclass overrides\n")
    table = text[start : text.index("\n#", start + 1)]
    listed = {
        name
        for line in table.splitlines()
        if line.startswith("| `")
        for name in re.findall(r"`(\w+)", line.split("|")[1])
        if _private(name)
    }
    assert listed == DOCUMENTED_HOOKS["deberc_net.game.deal.Deal"]
    assert all(hasattr(Deal, name) for name in listed)


def test_no_test_reaches_a_private_name_of_ours() -> None:
    here = Path(__file__).resolve()  # (its samples above reach private names on purpose)
    found = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in _test_sources()
        if path != here
        for line, name in _found_in(path)[1]
    ]
    assert found == [], "test through the public API (or make the seam public):\n" + "\n".join(
        found
    )
