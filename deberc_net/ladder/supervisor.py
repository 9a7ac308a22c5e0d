"""The bots of a ladder as processes: start each copy, restart it when it exits, and
give up (with its last words) on one that cannot run at all."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from collections import Counter

import attrs
import trio

from .schedule import ScheduleError

MAX_RESTARTS = 20
LIVED_S = 2.0  # a copy that ran this long did start: its exits are crashes, not a bad command


@attrs.frozen
class BotSpec:
    name: str
    command: str

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        name, sep, command = text.partition("=")
        if not sep or not name or not command.strip():
            raise ScheduleError(f"--bot takes NAME=COMMAND, got {text!r}")
        if not all(ch.isalnum() or ch in "_-" for ch in name) or len(name) > 16:
            raise ScheduleError(f"bot name {name!r}: up to 16 letters, digits, '_' or '-'")
        return cls(name, command)

    def argv(self, host: str, port: int, instance: str) -> list[str]:
        if "{port}" in self.command or "{name}" in self.command:
            text = self.command.format(host=host, port=port, name=instance)
            return shlex.split(text)
        return [
            *shlex.split(self.command),
            "--host",
            host,
            "--port",
            str(port),
            "--name",
            instance,
            "--seek",
            "reserved",
        ]


@attrs.define
class Supervisor:
    """Keeps every copy of every bot running until ``stop``; counts the crashes."""

    host: str
    port: int
    crashes: Counter[str] = attrs.Factory(Counter)
    stopping: bool = False
    # where the copies keep their guest tokens, so a restarted copy resumes its seat
    # (clients/client.py reads DEBERC_TOKEN_DIR)
    token_dir: str = attrs.Factory(lambda: tempfile.mkdtemp(prefix="deberc-tokens-"))

    def stop(self) -> None:
        self.stopping = True

    def close(self) -> None:
        """After every copy has exited: the tokens are of no use any more."""
        shutil.rmtree(self.token_dir, ignore_errors=True)

    def _env(self) -> dict[str, str]:
        return {**os.environ, "DEBERC_TOKEN_DIR": self.token_dir}

    async def keep_running(self, bot: BotSpec, instance: str) -> None:
        restarts = 0
        started_once = False
        while not self.stopping:
            argv = bot.argv(self.host, self.port, instance)
            with tempfile.TemporaryFile() as errors:
                try:
                    proc = await trio.lowlevel.open_process(
                        argv,
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=errors,
                        env=self._env(),
                    )
                except OSError as exc:
                    raise ScheduleError(f"cannot start bot {bot.name!r}: {exc}") from exc
                began = trio.current_time()
                try:
                    await proc.wait()
                finally:
                    if proc.returncode is None:
                        proc.terminate()
                        with trio.CancelScope(shield=True), trio.move_on_after(2):
                            await proc.wait()
                        if proc.returncode is None:
                            proc.kill()
                if self.stopping:
                    return
                errors.seek(0)
                tail = errors.read()[-600:].decode("utf-8", "replace").strip()
            started_once = started_once or trio.current_time() - began > LIVED_S
            self.crashes[bot.name] += 1
            restarts += 1
            if restarts > MAX_RESTARTS or (not started_once and restarts >= 3):
                # it cannot run at all: a ladder without it would wait for it forever
                raise ScheduleError(
                    f"bot {bot.name!r} keeps exiting (code {proc.returncode}); "
                    f"command: {shlex.join(argv)}; its last words: {tail or '(none)'}"
                )
            await trio.sleep(min(1.0, 0.05 * restarts))
