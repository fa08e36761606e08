"""Real-browser tests: Debian's Chromium driven by Playwright's sync API against pytest-django's
live server (docs/ARCHITECTURE.md, "Libraries: facts we rely on"). Nothing downloads a browser:
`make test` installs the Debian `chromium-headless-shell` package when it is missing — Chromium's own
headless build, the one Playwright itself runs headless: the same engine and pages at two fifths of the
CPU of the full browser run headless (measured: 15 s against 39 s for two of these modules).
KALOOKI_CHROMIUM=/usr/bin/chromium runs them in the full browser.

A missing Chromium fails the run (the browser test is part of the product's promise); set
KALOOKI_SKIP_BROWSER=1 to skip these tests on a machine that cannot have one.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"
WAIT_MS = 20_000
CHROMIUM = Path(os.environ.get("KALOOKI_CHROMIUM", "/usr/bin/chromium-headless-shell"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def skipping() -> bool:
    return os.environ.get("KALOOKI_SKIP_BROWSER", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture(scope="module")
def browser():
    """One Chromium per browser test module. Module scope, not session: Playwright's sync API keeps an
    event loop running in this thread while it is started, which later tests' asyncio.run() refuses."""
    if skipping():
        pytest.skip("KALOOKI_SKIP_BROWSER=1: browser tests skipped")
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install it with `apt-get install -y {CHROMIUM.name}` "
            "(`make test` does), or set KALOOKI_SKIP_BROWSER=1 to skip the browser tests",
            pytrace=False,
        )
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.fail("pip package playwright is missing: `.venv/bin/pip install -e '.[test]'`", pytrace=False)
    # That same loop makes Django refuse database work in this thread unless told it is safe (it is:
    # the loop only drives the browser). Set for the browser tests only, and taken back after them.
    # expect() waits for what the page should show (a finding after the debounced live check); give a
    # busy machine as long as the page's own actions get.
    expect.set_options(timeout=WAIT_MS)
    previous = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop(ASYNC_UNSAFE, None)
        else:
            os.environ[ASYNC_UNSAFE] = previous


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def reader(browser):
    """A second, anonymous browser: what the public sees."""
    context = browser.new_context()
    context.set_default_timeout(WAIT_MS)
    yield context.new_page()
    context.close()


SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def keeping_pictures() -> bool:
    """Whether the tests draw their screenshots and PDF pages for a person to look at: yes, unless
    KALOOKI_SCREENSHOTS=0 (CI, whose clean clone is thrown away with them)."""
    return os.environ.get("KALOOKI_SCREENSHOTS", "1").strip() != "0"


def screenshot(page, name: str, *, full_page: bool = True) -> Path:
    """Write the page's screenshot as build/screenshots/<name>.png (build/ is git-ignored), unless no
    pictures are kept (`keeping_pictures`)."""
    path = SCREENSHOTS / f"{name}.png"
    if not keeping_pictures():
        return path
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)
    return path


def horizontal_overflow(page) -> int:
    """How many CSS pixels the page is wider than its window (0: no sideways scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def log_in(page, base: str, next_url: str, username: str = "director", password: str = "secret-director-pw"):
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.keyboard.press("Enter")


@pytest.fixture
def sized(browser):
    """sized(width, height) -> a new page of that window size (closed after the test)."""
    contexts = []

    def make(width: int, height: int):
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page (axe-playwright-python ships axe-core),
    each as "rule-id: help (the elements)"."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation.get("impact") in {"serious", "critical"}:
            targets = ", ".join(str(node.get("target")) for node in violation.get("nodes", [])[:5])
            found.append(f"{violation['id']}: {violation['help']} ({targets})")
    return found
