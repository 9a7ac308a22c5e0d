"""Where the lobby and its parts start the tasks they need (a table's, a house bot's, the
one calling rematch offers off, a web feed's): the lobby owns no nursery, it is handed this."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVarTuple, Unpack

Args = TypeVarTuple("Args")


class Spawner(Protocol):
    """Starts a task beside the caller and returns at once. The server passes its
    nursery (a ``trio.Nursery`` is one); a test may pass anything that keeps the tasks
    it is given, to drive the lobby without running them."""

    def start_soon(
        self,
        async_fn: Callable[[Unpack[Args]], Awaitable[object]],
        *args: *Args,
        name: object = None,
    ) -> None: ...
