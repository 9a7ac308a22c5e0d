"""Where a plugin's code failed, in the plugin's own code.

An exception's message alone (``NameError: name 'helpr' is not defined``) does not say
which of the plugin's files and lines raised it, and the server refuses to start
without a traceback. The line to name is the innermost one inside the plugin's package:
past it the traceback is in the modules it called (the standard library, ours). When a
table's rules are built from several plugins, the one to blame for an exception is the
one whose code raised it (``raised_in``); when a table fails, the rule whose hook the
exception passed through (``hook_raised``), for its log line.
"""

from __future__ import annotations

import traceback
import types
from collections.abc import Mapping, Sequence


def failed_at(exc: BaseException, module: str) -> str | None:
    """``file:line`` of the innermost frame of ``exc``'s traceback that runs code of
    ``module``'s top-level package; None if none does. A SyntaxError's own file and
    line: the file that could not be compiled (its traceback is the importer's)."""
    if isinstance(exc, SyntaxError):
        return f"{exc.filename}:{exc.lineno}" if exc.filename else None
    package = module.partition(".")[0]
    found = None
    for frame, line in traceback.walk_tb(exc.__traceback__):
        name = frame.f_globals.get("__name__")
        if isinstance(name, str) and (name == package or name.startswith(package + ".")):
            found = f"{frame.f_code.co_filename}:{line}"
    return found


def told(exc: BaseException, module: str) -> str:
    """``Type: message (at file:line)``, the line ``failed_at`` finds in ``module``'s
    package; a SyntaxError's message without its own ``(file.py, line N)``, which
    names the file by its base name only."""
    text = exc.msg if isinstance(exc, SyntaxError) and exc.filename else str(exc)
    at = failed_at(exc, module)
    return f"{type(exc).__name__}: {text}" + (f" (at {at})" if at else "")


def raised_in(exc: BaseException, homes: Sequence[tuple[str, str]]) -> int | None:
    """Which of ``homes`` (each plugin's module and the package holding it) raised
    ``exc``: the innermost frame of its traceback that runs a plugin's own module, or
    a module of exactly one plugin's package (the longest that holds it: a helper
    beside the plugin); the last of several plugins in one module. None if none."""
    found = None
    for frame, _ in traceback.walk_tb(exc.__traceback__):
        name = frame.f_globals.get("__name__")
        if not isinstance(name, str):
            continue
        own = [i for i, (module, _) in enumerate(homes) if module == name]
        if own:
            found = own[-1]
            continue
        inside = [
            (len(package), i)
            for i, (_, package) in enumerate(homes)
            if name == package or name.startswith(package + ".")
        ]
        longest = max((length for length, _ in inside), default=0)
        holders = [i for length, i in inside if length == longest]
        if len(holders) == 1:
            found = holders[0]
    return found


# each hook implementation's code: the plugins running it, each with its rule's name
# (several when one class serves several rules: short, short-bide and dave)
HookCodes = Mapping[types.CodeType, Sequence[tuple[object, str]]]


def hook_raised(exc: BaseException, hooks: HookCodes) -> str | None:
    """The rule whose hook ``exc`` passed through: the innermost frame of its traceback
    running a hook implementation's code (``hooks``); of plugins sharing that code, the
    one the frame's first argument (its ``self``) is (none of them: a static or class
    method, a decorator's wrapper taking ``*args``; an outer hook's rule stands). None if no
    frame runs code of ``hooks`` (the engine's own; a game's own deal class's, unless
    ``hooks`` holds it: RuleBook.failed_hook)."""
    found = None
    for frame, _ in traceback.walk_tb(exc.__traceback__):
        owners = hooks.get(frame.f_code)
        if not owners:
            continue
        if len(owners) == 1:
            found = owners[0][1]
            continue
        code = frame.f_code
        first = frame.f_locals.get(code.co_varnames[0]) if code.co_argcount else None
        found = next((name for plugin, name in owners if plugin is first), found)
    return found
