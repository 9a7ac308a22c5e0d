"""No test module imports another (issue #8): what two test modules share lives in a
helper module beside them, never named ``test_*.py`` (tests/store/records.py,
tests/ladder/helpers.py, tests/web/live.py, ...). A test module then runs only as itself:
importing one imports none of the others' tests, fixtures or set-up."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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


def test_no_test_module_imports_another() -> None:
    sources = sorted([*(ROOT / "tests").rglob("*.py"), *ROOT.glob("examples/*/tests/**/*.py")])
    assert len(sources) > 100  # the walk found the tests
    found = [
        f"{path.relative_to(ROOT)}:{line}: imports {module}"
        for path in sources
        for line, module in imported_test_modules(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "move what they share to a helper module:\n" + "\n".join(found)
