"""Fixtures for the web tests: a real server with its web face on free ports, and one
headless Debian Chromium for the whole session (selenium, driver at /usr/bin/chromedriver).

Chromium starts with the flags that keep it off the network (the test machine has none)
and a fresh profile. chromedriver and the browser it starts get a process group of their
own, which a watchdog (tests/watchdog.py) kills, and removes the profile, when the session
ends or the tests' process dies (a run killed mid-way left them running for ever).
Screenshots go to tests/web/screenshots/ (ignored by git) for a person to look at.
"""

from __future__ import annotations

import functools
import http.client
import shutil
import tempfile
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import trio
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from deberc_net.server.app import serve
from deberc_net.testing import rule_book
from tests.server.conftest import connect, db_path, jump_when_idle, make_config, virtual_clock
from tests.watchdog import Watchdog

__all__ = ["connect", "db_path", "jump_when_idle", "virtual_clock"]

SCREENSHOTS = Path(__file__).parent / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
QUIET_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--window-size=1280,800",
)

# Every page keeps its uncaught script errors, for the tests to read (page_errors below)
RECORD_ERRORS = """
window.pageErrors = [];
window.addEventListener("error", (e) => window.pageErrors.push(
  e.message + " at " + e.filename + ":" + e.lineno + ":" + e.colno));
"""


@pytest.fixture(scope="session")
def chromium() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in QUIET_FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="deberc-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    # its own process group: chromedriver, the browser and the browser's processes
    service = Service(CHROMEDRIVER, popen_kw={"start_new_session": True})
    try:
        driver = webdriver.Chrome(options=options, service=service)  # stops itself on failure
    except BaseException:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    group = f"-{driver.service.process.pid}"
    # env: the kill program, which takes a process group; the shell's builtin may not
    watchdog = Watchdog.arm(["env", "kill", "-s", "KILL", "--", group], ["rm", "-rf", profile])
    try:
        driver.set_page_load_timeout(30)
        # the window size counts the (invisible) browser frame: fix the page's own
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False},
        )
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_ERRORS})
        yield driver
    finally:
        try:
            driver.quit()
        finally:
            watchdog.fire()  # its group is gone (or, if quit failed, killed): the profile removed


@pytest.fixture
def browser(chromium: webdriver.Chrome) -> webdriver.Chrome:
    """The session's Chromium, its cookies cleared: a test's language choice (the lang
    cookie, ``?lang=ru``) made every later test's pages on that worker Russian when the
    test did not clear it itself (test_browser_player_title.py did not)."""
    chromium.execute_cdp_cmd("Network.clearBrowserCookies", {})  # every site's, any page
    return chromium


def page_errors(driver: webdriver.Chrome) -> list[str]:
    """The page's uncaught script errors so far (RECORD_ERRORS)."""
    errors: list[str] = driver.execute_script("return window.pageErrors")
    return errors


def screenshot(driver: webdriver.Chrome, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


class WebServer:
    def __init__(self, port: int, http_port: int) -> None:
        self.port = port
        self.http_port = http_port

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.http_port}{path}"

    async def get(
        self,
        path: str,
        headers: dict[str, str] | None = None,
        limiter: trio.CapacityLimiter | None = None,
        timeout: float = 15,
    ) -> tuple[int, bytes]:
        """An HTTP GET in a worker thread (the stdlib client): status and body;
        ``headers`` replace the client's (a ``Host`` of the caller's choosing);
        ``limiter``: the client's threads' own, not those the server's share;
        ``timeout``: the client's limit on each wait for the server (seconds; 15, not
        5: a whole-machine stall of some seconds in a fresh clone's run, ci49c, timed
        out a page the server then served, its test's own limit still far off)."""

        def fetch() -> tuple[int, bytes]:
            request = urllib.request.Request(self.url(path), headers=headers or {})
            try:
                with urllib.request.urlopen(request, timeout=timeout) as reply:
                    return reply.status, reply.read()
            except urllib.error.HTTPError as error:
                return error.code, error.read()

        return await trio.to_thread.run_sync(fetch, limiter=limiter)

    async def answer_to(self, sent: bytes) -> bytes:
        """All the server says to the raw bytes ``sent`` till it closes the connection."""
        stream = await trio.open_tcp_stream("127.0.0.1", self.http_port)
        async with stream:
            await stream.send_all(sent)
            answer = b""
            while data := await stream.receive_some(65536):
                answer += data
        return answer

    async def ask(
        self,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        source: str | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """One request as sent, redirects not followed: status, headers (lower-case
        names) and body; ``source``: the loopback address it comes from (127.0.0.2:
        another client to the server's per-address limits)."""

        def fetch() -> tuple[int, dict[str, str], bytes]:
            connection = http.client.HTTPConnection(
                "127.0.0.1",
                self.http_port,
                timeout=30,
                source_address=None if source is None else (source, 0),
            )
            try:
                connection.request(method, path, headers=headers or {})
                reply = connection.getresponse()
                told = {name.lower(): value for name, value in reply.getheaders()}
                return reply.status, told, reply.read()
            finally:
                connection.close()

        return await trio.to_thread.run_sync(fetch)


@pytest.fixture
def start_web(nursery: trio.Nursery, db_path: Path) -> Callable[..., Any]:
    async def start(**overrides: Any) -> WebServer:
        config = make_config(db_path, http_port=0, **overrides)
        bound: list[int] = []
        port = await nursery.start(
            functools.partial(serve, config, rules=rule_book(), http_bound=bound.append)
        )
        return WebServer(port, bound[0])

    return start
