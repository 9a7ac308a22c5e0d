"""Server settings, with defaults that need no configuration file."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import attrs


@attrs.define
class Config:
    host: str = "127.0.0.1"
    port: int = 7501
    db: str = "deberc.sqlite3"
    human_clock_ms: int = 60_000  # per call, a person
    bot_clock_ms: int = 10_000  # per call, a connection in the machine style
    lag_ms: int = 500  # allowance added to every clock
    max_timeouts: int = 3  # consecutive clock timeouts that forfeit the game
    away_limit_ms: int = 120_000  # disconnected this long: the game is forfeited
    max_line: int = 1024  # bytes per input line
    partial_line_ms: int = 30_000  # an unfinished line older than this disconnects
    flood_lines_per_s: float = 200.0  # sustained input lines a connection may send
    flood_burst: float = 1000.0  # ... and at once; beyond that it is disconnected
    outbox_lines: int = 4000  # lines queued for a slow reader before it is dropped
    max_connections: int = 5000
    max_tables: int = 1000  # tables open at once ('tables' lists them all)
    shutdown_grace_ms: int = 2000  # after SIGTERM: time to flush what is queued
    log_level: str = "info"
    admins: list[str] = attrs.Factory(list)  # registered names that may 'reserve' tables

    @classmethod
    def from_toml(cls, path: str | Path, **overrides: Any) -> Config:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        section = data.get("server", data)
        known = {f.name for f in attrs.fields(cls)}
        unknown = sorted(set(section) - known)
        if unknown:
            raise ValueError(f"unknown settings in {path}: {', '.join(unknown)}")
        merged = {**section, **{k: v for k, v in overrides.items() if v is not None}}
        return cls(**merged)
