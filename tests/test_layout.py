"""No test module imports another (issue #8): what two test modules share lives in a
helper module beside them, never named ``test_*.py`` (tests/store/records.py,
tests/ladder/helpers.py, tests/web/live.py, ...). A test module then runs only as itself:
importing one imports none of the others' tests, fixtures or set-up.

Nor does a test reach into deberc_net's private names (issue #8): a test of a seam worth
testing alone uses its public name, anything else the public API; a private name may
change with no test of behaviour having to."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = "deberc_net"  # the package whose private names the tests leave alone


def _is_test_module(name: str) -> bool:
    return name.rsplit(".", 1)[-1].startswith("test_")


def imported_test_modules(source: str) -> list[tuple[int, str]]:
    """Each import in ``source`` of a test module (a module whose last dotted part starts
    with ``test_``), in line order: its line and the module, as the import names it."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
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
        for line, module in imported_test_modules(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "move what they share to a helper module:\n" + "\n".join(found)


def _private(name: str) -> bool:
    """A private name: a leading underscore (a dunder such as ``__version__`` is not)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _ours(dotted: str) -> bool:
    return dotted.split(".")[0] == OURS


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (base := _dotted(node.value)) is not None:
        return f"{base}.{node.attr}"
    return None


def _imported_from_ours(tree: ast.AST) -> tuple[dict[str, str], list[tuple[int, str]]]:
    """The local names ``tree`` binds to deberc_net's modules and objects (each to its
    dotted name), and each private name among those imports (its line, its name)."""
    bound: dict[str, str] = {}
    private: list[tuple[int, str]] = []
    for node in ast.walk(tree):
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


def private_names_used(source: str) -> list[tuple[int, str]]:
    """Each private name of deberc_net ``source`` reaches, in line order: its line and
    the name, dotted from the package. Reached: imported (``from deberc_net.x import
    _y``, a private module in the path), or read, set or patched as the attribute of a
    name imported from deberc_net (``accounts._hash``, ``Bus._payloads``,
    ``monkeypatch.setattr(accounts, "_hash", ...)``). An attribute of an object the test
    made (``store._db``) is not seen here."""
    tree = ast.parse(source)
    bound, found = _imported_from_ours(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            owner = _ours_named(node.value, bound)
            if owner is not None:
                found.append((node.lineno, f"{owner}.{node.attr}"))
        elif isinstance(node, ast.Call) and (named := _attribute_by_name(node, bound)):
            found.append((node.lineno, named))
    return sorted(set(found))  # (a patch's name is an attribute read too: once)


def test_private_names_of_ours_are_found_in_each_form() -> None:
    source = (
        "import os\n"  # 1
        "from deberc_net.ladder.distributed import _count_and_finish, spec_of\n"
        "from deberc_net.server.cluster.node import (\n    Node,\n    _described,\n)\n"
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
    )
    assert private_names_used(source) == [
        (2, "deberc_net.ladder.distributed._count_and_finish"),
        (3, "deberc_net.server.cluster.node._described"),
        (9, "deberc_net.server._hidden"),
        (12, "deberc_net.server.accounts._hash"),
        (13, "deberc_net.server.logs._lifecycle_passes"),
        (14, "deberc_net.server.running._peer"),
        (15, "deberc_net.server.cluster.bus.Bus._payloads"),
        (16, "deberc_net.server.accounts._hash"),
        (18, "deberc_net.testing._x"),
        (19, "deberc_net.server.accounts._hash"),
    ]


def test_no_test_reaches_a_private_name_of_ours() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in _test_sources()
        for line, name in private_names_used(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "test through the public API (or make the seam public):\n" + "\n".join(
        found
    )
