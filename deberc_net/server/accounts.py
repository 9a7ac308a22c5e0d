"""Names and passwords: salted scrypt hashes, computed off the event loop."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import unicodedata

import trio

from .store import Store, name_key

NAME_RULE = re.compile(r"^[^\W_][\w-]{1,19}$")
SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
_limiter = trio.CapacityLimiter(2)


def valid_name(name: str) -> bool:
    """2-20 letters, digits, '_' or '-', starting with a letter or digit (any alphabet);
    judged in composed form, so a decomposed é is a letter too."""
    return bool(NAME_RULE.match(unicodedata.normalize("NFC", name)))


def _hash(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, **SCRYPT)


__all__ = ["check_or_register", "is_registered", "name_key", "valid_name"]


async def check_or_register(store: Store, name: str, password: str) -> str | None:
    """None if the password is right (or the name was just registered), else an error."""
    known = await trio.to_thread.run_sync(store.account, name)
    if known is None:
        salt = os.urandom(16)
        digest = await trio.to_thread.run_sync(_hash, password, salt, limiter=_limiter)
        if await trio.to_thread.run_sync(store.add_account, name, salt, digest):
            return None
        known = await trio.to_thread.run_sync(store.account, name)
        assert known is not None
    salt, digest = known
    given = await trio.to_thread.run_sync(_hash, password, salt, limiter=_limiter)
    return None if hmac.compare_digest(given, digest) else "wrong password for that name"


async def is_registered(store: Store, name: str) -> bool:
    return await trio.to_thread.run_sync(store.account, name) is not None
