"""``deberc-net play``: a terminal client for people (docs/play.md).

``state`` folds the server's machine-style lines into what the table shows (pure, no
terminal), ``draw`` turns that into text, ``link`` carries the lines over the client
library's ``Connection``, and ``app`` is the Textual application.
"""
