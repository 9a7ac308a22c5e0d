"""What 'serve --workers'' parent reads on a worker's stdout (cluster/launch.py,
``heard_from``): 'ready DB', the database as a JSON string. The worker's stdout is its
plugins' too (a print in a hook)."""

from __future__ import annotations

import pytest

from deberc_net.server.cluster.forked import Child
from deberc_net.server.cluster.launch import Worker, heard_from


@pytest.mark.timeout(30)
def test_a_line_only_beginning_with_ready_is_not_the_workers_ready() -> None:
    # failed before: json.loads of 'to go' raised in the parent's loop (a bare 'ready
    # …' that is not JSON stopped the whole server), where before e4e86e28 it was
    # passed over
    process = Child(0, None, None)  # (the line is all heard_from reads)
    worker = Worker(0, process)
    heard_from(worker, b"ready to go\n")
    assert not worker.ready and worker.db is None
    heard_from(worker, b'ready "/srv/deberc.db"\n')
    assert worker.ready and worker.db == "/srv/deberc.db"
    bare = Worker(1, process)
    heard_from(bare, b"ready\n")
    assert bare.ready and bare.db is None
