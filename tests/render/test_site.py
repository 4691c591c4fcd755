"""pbem html: the campaign viewer, a static site stepping through the game turn by turn.

The structure is checked in Python; the behaviour in a real browser: Debian's Chromium driven
through WebDriver (selenium + chromedriver), stepping through every step of the bundled example
with the arrow keys, following a permalink, and on a phone-sized window. Where the machine has no
Chromium the browser test is skipped, saying so (.ci/run installs it from Debian's packages)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import ROOT
from helpers.protocol import ok, pbem

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    game = root / "game"
    shutil.copytree(EXAMPLE, game)
    out = root / "site"
    res = ok(pbem("html", game, "-o", out, home=root / "home"))
    assert res.out.strip().endswith("index.html")
    return out


def _steps(site: Path) -> list[dict[str, Any]]:
    text = (site / "index.html").read_text(encoding="utf-8")
    m = re.search(r'<script id="steps" type="application/json">(.*?)</script>', text, re.S)
    assert m is not None
    return list(json.loads(m.group(1)))


def test_site_holds_every_step_roll_and_map_and_needs_no_network(site: Path) -> None:
    steps = _steps(site)
    turns = sorted(EXAMPLE.glob("turn-*.json"))
    assert [s["step"] for s in steps] == list(range(len(turns)))
    for s, path in zip(steps, turns, strict=True):
        turn = json.loads(path.read_text())
        assert [(r["i"], r["value"], r["label"]) for r in s["rolls"]] == \
            [(r["i"], r["value"], r["label"]) for r in turn["rolls"]]
        assert s["roll_key"] == turn["roll_key"]
        assert (site / s["map"]).is_file() and s["map"] == f"maps/map-{s['step']:04d}.svg"
    text = (site / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"(src|href)=\"https?:", text)  # no CDN, no network
    assert 'id="score-chart"' in text
    assert all("<image" not in (site / s["map"]).read_text() for s in steps[:2])  # self-contained maps


def test_site_refuses_a_directory_holding_other_files(tmp_path: Path) -> None:
    out = tmp_path / "busy"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    res = pbem("html", EXAMPLE, "-o", out, home=tmp_path / "home")
    assert res.code == 2 and "holds other files" in res.err and (out / "notes.txt").read_text() == "mine"


def _driver() -> Any:
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium (dev dependency) not installed")
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.skip("no Chromium/ChromeDriver on this machine (.ci/run installs Debian's chromium "
                    "and chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1300,1000", "--allow-file-access-from-files"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(driver), options=options)


def test_viewer_in_a_real_browser(site: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    steps = _steps(site)
    browser = _driver()
    try:
        browser.get((site / "index.html").as_uri())
        body = browser.find_element(By.TAG_NAME, "body")
        for s in steps:  # every step, with the right arrow
            assert body.get_attribute("data-step") == str(s["step"])
            assert browser.find_element(By.ID, "heading").text == s["heading"]
            events = browser.find_elements(By.CSS_SELECTOR, "#events li")
            assert [e.text for e in events] == (s["events"] or ["(none)"])
            rows = browser.find_elements(By.CSS_SELECTOR, "#rolls tr")
            assert len(rows) == (len(s["rolls"]) + 1 if s["rolls"] else 0)
            loaded = browser.execute_script(
                "var i = document.querySelector('#map img'); return i && i.complete && i.naturalWidth;")
            assert loaded and loaded > 100, s["step"]
            assert browser.current_url.endswith(f"#step-{s['step']}")  # the permalink follows
            body.send_keys(Keys.ARROW_RIGHT)
        assert body.get_attribute("data-step") == str(steps[-1]["step"])  # stops at the end
        body.send_keys(Keys.ARROW_LEFT)
        assert body.get_attribute("data-step") == str(steps[-2]["step"])
        # a permalink opens its step
        browser.get((site / "index.html").as_uri() + "#step-7")
        assert browser.find_element(By.ID, "heading").text == steps[7]["heading"]
        # zoom (issue 27): + steps 100% -> 150% -> 200% of the box's width, the box scrolls, 0 fits
        # again; the full-size map is the step's own file
        browser.find_element(By.ID, "zoom-in").click()
        browser.find_element(By.ID, "zoom-in").click()
        assert browser.find_element(By.ID, "zoom-level").text == "200%"
        box_width = browser.execute_script("return document.getElementById('mapbox').clientWidth")
        wide = browser.execute_script("return document.getElementById('map').getBoundingClientRect().width")
        assert abs(wide - 2 * box_width) <= 2
        assert browser.execute_script("return document.getElementById('mapbox').scrollWidth") > box_width
        assert browser.find_element(By.ID, "fullmap").get_attribute("href").endswith(steps[7]["map"])
        body.send_keys("0")
        assert browser.find_element(By.ID, "zoom-level").text == "100%"
        # a phone: the map above the text, nothing wider than the screen
        browser.set_window_size(400, 900)
        browser.get((site / "index.html").as_uri() + "#step-3")
        map_box = browser.find_element(By.ID, "map").rect
        text_box = browser.find_element(By.ID, "heading").rect
        assert map_box["y"] + map_box["height"] <= text_box["y"]
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.getElementById('map').scrollWidth") <= width
    finally:
        browser.quit()
