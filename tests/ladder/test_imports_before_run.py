"""A ladder's run imports nothing in its main thread once the run is stored (deberc_net/
cli.py, _import_before_the_run): CPython drops a Ctrl-C that lands in importlib's
module-lock callback, and the run would go on as if nothing was pressed. The race itself
cannot be made to happen at will; its room can be seen: each import an audit hook sees."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import HEUR, RAND

ROOT = Path(__file__).resolve().parent.parent.parent

# `deberc-net ladder run`, its main thread's imports after the run is stored listed
WATCHED = """
import sys, threading
from deberc_net.ladder import store

stored = []
for cls in list(vars(store).values()):
    if isinstance(cls, type) and "start_run" in vars(cls):
        def start_run(self, settings, _start=cls.start_run):
            run_id = _start(self, settings)
            stored.append(run_id)
            return run_id
        cls.start_run = start_run
late = []

def audit(event, args):
    if event == "import" and stored and threading.current_thread() is threading.main_thread():
        late.append(args[0])

sys.addaudithook(audit)
from deberc_net.cli import main
status = main(sys.argv[1:])
print("late imports:", sorted(set(late)), file=sys.stderr)
sys.exit(status)
"""


@pytest.mark.parametrize("processes", ["1", "2"])
def test_a_stored_run_imports_nothing_in_its_main_thread(tmp_path: Path, processes: str) -> None:
    (tmp_path / "watched.py").write_text(WATCHED)
    db = tmp_path / "ladder.sqlite3"
    argv = ["ladder", "run", "--db", str(db), "--bot", HEUR, "--bot", RAND, "--deals", "4"]
    done = subprocess.run(
        [sys.executable, str(tmp_path / "watched.py"), *argv, "--processes", processes, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=50,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "late imports: []", done.stderr
