"""``serve --workers N``: several server processes behind one port with one lobby
(docs/scaling.md). ``launch`` starts and watches the workers; ``bus`` is PostgreSQL
LISTEN/NOTIFY between them; ``node`` is a worker's share of the one lobby; ``remote``
the stand-ins for a table or a player that another worker holds."""

from __future__ import annotations

import attrs


@attrs.frozen
class WorkerPlace:
    """Which worker this process is, of how many (``serve --workers``)."""

    index: int  # 0 .. count-1 (worker 0 serves the web face, if any)
    count: int
    parent: str = ""  # the parent's run (launch.py): the same for a worker started again
