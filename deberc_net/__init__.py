"""deberc-net: a Deberts server for people and bots."""

from importlib.metadata import version

# The one version string lives in pyproject.toml; the package reads it from its metadata.
__version__ = version("deberc-net")
