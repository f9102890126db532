"""Browser tests: the real app served on loopback, driven by Debian's Chromium through Playwright.

Without /usr/bin/chromium (or `CHROMIUM` pointing at a Chromium) these tests skip, saying how to get it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app_server import AppServer

from .chromium import CHROMIUM, CHROMIUM_ARGS, HOW_TO, PHONE


@pytest.fixture(scope="session")
def playwright():
    """Playwright's sync API, once for the session: it keeps an event loop running in this thread, and a
    second one started while the first is there is refused."""
    if not Path(CHROMIUM).exists():
        pytest.skip(HOW_TO)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser tests need Playwright: `make test` installs it into .venv")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright):
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture(scope="session")
def site():
    """The browser build's site (dist-pwa/), built once for every browser test that opens it."""
    if not Path(CHROMIUM).exists():
        pytest.skip(HOW_TO)
    from .site import build_site

    return build_site()


@pytest.fixture
def server(tmp_path):
    srv = AppServer(tmp_path / "data").start()
    yield srv
    srv.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture
def phones(request, browser, server, tmp_path):
    """`phones(locale="en-US", **context)`: a phone-sized page (or `viewport={...}`) with the app loaded and Flutter's
    accessibility tree on, its browser set to `locale` (what it asks the app to speak).

    When the test fails, a screenshot of each page and the server's log are kept beside the test's temp folder.
    """
    from .driver import Driver

    opened = []
    log_from = server.log.stat().st_size if server.log.exists() else 0

    def open_phone(locale: str = "en-US", before_open=None, **options) -> Driver:
        context = browser.new_context(viewport=options.pop("viewport", PHONE), locale=locale, **options)
        page = context.new_page()
        if before_open is not None:
            before_open(page)
        driver = Driver(page, server.url)
        opened.append((context, page))
        driver.open()
        return driver

    yield open_phone
    report = getattr(request.node, "rep_call", None)
    for n, (context, page) in enumerate(opened):
        if report is not None and report.failed:
            shot = tmp_path / f"failure-{n}.png"
            page.screenshot(path=str(shot))
            print(f"\nscreenshot of the failure: {shot}\nserver log: {server.log}")
        context.close()
    # A bug the page survives still fails the test: a screen that could not be drawn is logged with its
    # traceback (`ui.app.draw`), and so is an intent that failed in the writer's thread.
    with server.log.open("rb") as log:
        log.seek(log_from if server.log.stat().st_size >= log_from else 0)
        logged = log.read().decode("utf-8", "replace")
    if "Traceback (most recent call last)" in logged:
        pytest.fail(f"the app logged a traceback during the test ({server.log}):\n{logged[-4000:]}")


@pytest.fixture
def app(phones):
    """A phone-sized page with the app loaded, its browser in English."""
    return phones()
