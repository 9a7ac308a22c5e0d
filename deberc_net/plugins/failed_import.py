"""Where a plugin's import failed, in the plugin's own code.

An exception's message alone (``NameError: name 'helpr' is not defined``) does not say
which of the plugin's files and lines raised it, and the server refuses to start
without a traceback. The line to name is the innermost one inside the plugin's package:
past it the traceback is in the modules it called (the standard library, ours).
"""

from __future__ import annotations

import traceback


def failed_at(exc: BaseException, module: str) -> str | None:
    """``file:line`` of the innermost frame of ``exc``'s traceback that runs code of
    ``module``'s top-level package; None if none does, or for a SyntaxError, whose
    message names its file and line already."""
    if isinstance(exc, SyntaxError):
        return None
    package = module.partition(".")[0]
    found = None
    for frame, line in traceback.walk_tb(exc.__traceback__):
        name = frame.f_globals.get("__name__")
        if isinstance(name, str) and (name == package or name.startswith(package + ".")):
            found = f"{frame.f_code.co_filename}:{line}"
    return found
