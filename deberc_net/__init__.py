"""deberc-net: a Deberts server for people and bots."""

__version__ = "0.1.0"
