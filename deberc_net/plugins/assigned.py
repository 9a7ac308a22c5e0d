"""What an option's ``deberc_configure`` assigns: every setting it writes, with the
value it leaves there.

The book refuses two options that set one setting to different values. Comparing an
option's settings with those it was handed would miss an option that sets a setting to
the value it already had (``auto_claim = True`` under Moscow): it says something about
that setting all the same, and another option saying the opposite must be refused, not
quietly win. So the option configures a copy that notes each assignment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from deberc_net.game.rules import Settings


class _Noting(Settings):
    """``Settings`` that note the name of each field assigned (still a ``Settings``
    to the plugin: its methods and fields are the same)."""

    __slots__ = ("assigned",)
    assigned: set[str]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Settings' own arguments: a hook that copies what it is handed (attrs.evolve)
        # makes one as it would make a Settings
        object.__setattr__(self, "assigned", set())
        super().__init__(*args, **kwargs)
        self.assigned.clear()  # the fields set at the start are not the option's doing

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)  # (refuses a name that is no setting)
        self.assigned.add(name)


def assignments(configure: Callable[..., object], start: Settings) -> dict[str, Any]:
    """The settings ``configure(settings=...)`` (a ``deberc_configure`` hook caller)
    assigns on a copy of ``start``, each with the value it leaves (``start`` itself is
    not changed)."""
    noting = _Noting(**attrs.asdict(start, recurse=False))
    configure(settings=noting)
    return {name: getattr(noting, name) for name in sorted(noting.assigned)}
