"""The search page in a real browser: Debian's headless Chromium driven by Selenium.

The page is served by uvicorn over real HTTP, in front of the session's coordinator. The browser
loads the page, searches with the keyboard, follows a result to the file view, and the test
checks the highlighted line and a saved screenshot. Chromium is part of ``make system-tools``
(CI runs it as root), so a missing browser fails the test there; it is skipped only for a user
who cannot install it.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def _browser_available() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not (os.path.exists(p) or shutil.which(Path(p).name))]
    if missing and os.geteuid() != 0:
        pytest.skip(f"{', '.join(missing)} not installed and not root to install them: run `make system-tools` as root")
    assert not missing, f"{', '.join(missing)} missing: `make system-tools` installs chromium and chromium-driver"


@pytest.fixture(scope="module")
def page_url(cluster: Any) -> Iterator[str]:
    from fourfold.web.server import uvicorn_server

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn_server(cluster.address, f"127.0.0.1:{port}")
    thread = threading.Thread(target=server.run, name="web", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:  # uvicorn sets it once the socket listens
        assert thread.is_alive() and time.monotonic() < deadline, "the web server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _browser_available()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(arg)
    # The driver's path is given, so Selenium Manager never looks for (or downloads) one.
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(check: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "the page did not get there in time"
        time.sleep(0.05)


def test_search_follow_a_result_and_see_the_highlighted_line(
    browser: Any, page_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(page_url + "/")
    assert browser.title == "fourfold"
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("/")  # keyboard first: / focuses the search box
    box = browser.switch_to.active_element
    assert box.get_attribute("id") == "q"
    box.send_keys("def parse_config", Keys.ENTER)
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "article.hit"))
    # the URL holds the query (htmx pushes it), so the page can be shared
    wait_for(lambda: browser.current_url.endswith("/?q=def%20parse_config"))
    chip = browser.find_element(By.CSS_SELECTOR, ".chip").text
    assert chip.startswith("definition"), chip
    first = browser.find_element(By.CSS_SELECTOR, "article.hit")
    assert "app/config.py" in first.find_element(By.XPATH, "./ancestor::section").text
    marked = first.find_elements(By.CSS_SELECTOR, "tr.hl td.src")
    assert any("def parse_config(path):" in td.text for td in marked)
    why = first.find_element(By.CSS_SELECTOR, "details.why")
    why.find_element(By.TAG_NAME, "summary").click()
    assert "modality" in why.text and "contribution" in why.text
    # j selects the first hit, Enter opens it in the file view
    browser.find_element(By.TAG_NAME, "body").send_keys("j")
    assert "selected" in (first.get_attribute("class") or "")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)
    wait_for(lambda: "/file/sample/app/config.py" in browser.current_url)
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "table.full tr.hl"))
    rows = browser.find_elements(By.CSS_SELECTOR, "table.full tr.hl")
    numbers = [int(r.get_attribute("id")[1:]) for r in rows]
    assert numbers[0] == 8 and numbers == list(range(8, 8 + len(numbers)))
    assert rows[0].find_element(By.CSS_SELECTOR, "td.src").text == "def parse_config(path):"
    assert rows[0].find_elements(By.CSS_SELECTOR, "td.src span.nf")  # Pygments marked the function name
    # a line anchor range from the URL: #L13-L15
    browser.get(browser.current_url.split("?")[0] + "#L13-L15")
    wait_for(
        lambda: (
            [r.get_attribute("id") for r in browser.find_elements(By.CSS_SELECTOR, "table.full tr.hl")]
            == ["L13", "L14", "L15"]
        )
    )
    shot = tmp_path / "file-view.png"
    assert browser.save_screenshot(str(shot))
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
    assert "def load_lines(text):" in browser.find_element(By.TAG_NAME, "body").text
    # an identifier opens definition / references / impact
    token = next(
        s for s in browser.find_elements(By.CSS_SELECTOR, "table.full td.src span.n") if s.text == "load_lines"
    )
    token.click()
    pop = browser.find_element(By.ID, "popover")
    wait_for(pop.is_displayed)
    links = {a.text: a.get_attribute("href") for a in pop.find_elements(By.TAG_NAME, "a")}
    assert {"definition", "references", "impact"} <= set(links)
    assert "intent=references" in links["references"] and "q=load_lines" in links["references"]
    browser.get(links["references"])
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".chip"))
    assert browser.find_element(By.CSS_SELECTOR, ".chip").text.startswith("references")
    shot = tmp_path / "results.png"
    browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000


def test_the_page_works_on_a_phone_and_without_javascript(browser: Any, page_url: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.set_window_size(390, 844)
    try:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        browser.get(page_url + "/?q=ECONNREFUSED&intent=exact")
        hits = browser.find_elements(By.CSS_SELECTOR, "article.hit")
        assert hits and "ECONNREFUSED" in hits[0].text
        width = browser.execute_cdp_cmd("Runtime.evaluate", {"expression": "document.documentElement.scrollWidth"})
        assert width["result"]["value"] <= 400  # no sideways scrolling of the page itself
        link = hits[0].find_element(By.CSS_SELECTOR, "a.open")
        link.click()
        wait_for(lambda: "/file/sample/app/session.py" in browser.current_url)
        assert browser.find_elements(By.CSS_SELECTOR, "table.full tr.hl")  # marked by the server (?hl=)
        shot = tmp_path / "phone.png"
        browser.save_screenshot(str(shot))
        assert shot.stat().st_size > 5_000
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
        browser.set_window_size(1280, 900)
