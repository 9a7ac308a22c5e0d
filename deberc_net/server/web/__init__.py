"""The web face (docs/web.md): pages and JSON over HTTP, served next to the game server."""

from .serve import serve_http

__all__ = ["serve_http"]
