"""Every page type of `pokeview site` (index, player, game, games list) and `pokeview report`'s
page, checked as a publisher would before putting them online: valid HTML5 (html-validate, the
repository's `.htmlvalidate.json`), WCAG 2 A/AA by axe-core in headless Chromium with colour
contrast in the light and the dark colour scheme, and a reader with a keyboard only.

html-validate runs its `recommended` rules but three, which judge style, not validity: unquoted
attribute values (`attr-quotes`; valid HTML5, and a long game's page is smaller without quotes),
a lowercase doctype (`doctype-style`; valid, as the HTML standard writes it) and rows outside a
`<tbody>` (`prefer-tbody`; the parser puts them in one, as the standard says). Beside it, the
code points HTML forbids are looked for (vnu, the W3C's checker, refused a C1 control in a
page's JSON, which html-validate let through). The tools are pinned in package.json; `make test`
installs them.

The site is built by the command line from a real run: the demo's bots and the loopback
stand-in model (reasoning on every decision), one game then recorded void and one as an error,
as the game loop records them; and the hostile game (tests/hostile.py) in a site of its own.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest

from pokeview.site.html import player_file
from tests import hostile
from tests.cdp import Browser
from tests.helpers import pokeview
from tests.integration.test_site import chromium

ROOT = Path(__file__).resolve().parents[2]
HTML_VALIDATE = ROOT / "node_modules" / ".bin" / "html-validate"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FOCUSABLE = "a[href], button, input, select, summary"
# Code points HTML forbids anywhere in a page, inside a script too: controls other than ASCII
# whitespace, and noncharacters (the hostile game's names hold a C1 CSI).
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")

RUN = """
name = "checks"
seed = "checks"
format = "gen9randombattle"
pairs = 1
turn_limit = 25
players = ["random", "max-damage", "heuristic", "loopback"]
matchups = [["random", "max-damage"], ["heuristic", "loopback"], ["loopback", "random"]]
"""


def tools() -> None:
    if not (HTML_VALIDATE.exists() and AXE.exists()):
        pytest.skip("html-validate and axe-core are not installed (make test runs npm ci)")


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """Each page type, by name: a run's site, its report, and the hostile game's site."""
    tools()
    work = tmp_path_factory.mktemp("checks")
    db = str(work / "games.db")
    (work / "run.toml").write_text(RUN)
    played = pokeview("run", str(work / "run.toml"), "--db", db)
    assert played.returncode == 0, played.stderr
    # As the game loop records a void game and a failed one (a connection closed after).
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(
            "update games set status = 'void', exclude_from_ratings = 1, error = ? where id = 1",
            ("llm:loopback was on autopilot (p1)",),
        )
        conn.execute(
            "update games set status = 'error', error = ? where id = 2",
            ("the bridge died: <b>exit 1</b>",),
        )
    site = work / "site"
    for args in (
        ("site", "checks", "-o", str(site)),
        ("report", "checks", "-o", str(work / "r.html")),
    ):
        done = pokeview(*args, "--db", db)
        assert done.returncode == 0, done.stderr
    model_game = next(
        int(p.stem.split("-")[1])
        for p in sorted(site.glob("game-*.html"))
        if 'pre class="reasoning"' in p.read_text()
    )
    game_id = hostile.hostile_db(work / "h.db")
    with closing(sqlite3.connect(work / "h.db")) as conn:
        run_id = conn.execute("select run_id from games").fetchone()[0]
    done = pokeview("site", str(run_id), "-o", str(work / "hostile"), "--db", str(work / "h.db"))
    assert done.returncode == 0, done.stderr
    return {
        "index": site / "index.html",
        "player": site / player_file("llm:loopback"),
        "game": site / f"game-{model_game}.html",
        "void game": site / "game-1.html",
        "games list": site / "games.html",
        "report": work / "r.html",
        "hostile index": work / "hostile" / "index.html",
        "hostile game": work / "hostile" / f"game-{game_id}.html",
        "hostile games list": work / "hostile" / "games.html",
        "hostile player": next((work / "hostile").glob("player-*.html")),
    }


def validate(*files: Path) -> list[str]:
    """html-validate's findings on the files, one line each (none for valid pages). Its report
    goes to a file: Node exits before a long one is all written to a pipe."""
    report = files[0].parent / "html-validate.json"
    done = subprocess.run(
        [
            HTML_VALIDATE,
            "--config",
            str(ROOT / ".htmlvalidate.json"),
            "--formatter",
            f"json={report}",
            *map(str, files),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = [
        f"{Path(r['filePath']).name}:{m['line']}: {m['ruleId']}: {m['message']}"
        for r in json.loads(report.read_text() or "[]")
        for m in r["messages"]
    ]
    report.unlink()
    assert (done.returncode != 0) == bool(found), done.stderr
    return found


def test_every_page_type_is_valid_html5(pages, tmp_path):
    assert validate(*pages.values()) == []
    for page in pages.values():  # what html-validate does not look for and vnu refuses
        assert not FORBIDDEN.search(page.read_text()), page.name
    broken = tmp_path / "broken.html"  # the check can fail: a page the parser must repair
    broken.write_text(
        '<!doctype html><html lang="en"><head><title>x</title></head>'
        "<body><p><div>x</div></p><a href=x id=a id=b>y</a></body></html>"
    )
    assert len(validate(broken)) >= 2


def axe_violations(browser: Browser, url: str, scheme: str, opened: bool) -> list[str]:
    browser.call(
        "Emulation.setEmulatedMedia",
        features=[{"name": "prefers-color-scheme", "value": scheme}],
    )
    browser.call("Page.navigate", url=url)
    browser.wait_for("document.readyState === 'complete'")
    if opened:  # a game page: every decision's prompt open, as a reader opens them
        browser.value(
            "for (const d of document.querySelectorAll('section.turn.shown details')) d.open = true"
        )
    browser.value(AXE.read_text())
    run = browser.call(
        "Runtime.evaluate",
        expression=(
            f"axe.run(document, {{runOnly: {{type: 'tag', values: {json.dumps(WCAG)}}}}})"
            ".then(r => r.violations.map(v => v.id + ' (' + v.impact + '): ' +"
            " v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')))"
        ),
        awaitPromise=True,
        returnByValue=True,
    )
    return run["result"]["value"]


def test_every_page_type_passes_axe_in_light_and_dark(pages, tmp_path):
    browser = Browser(chromium(), "about:blank", tmp_path / "profile")
    try:
        backgrounds = {}
        for scheme in ("light", "dark"):
            for name, page in pages.items():
                url = page.as_uri() + ("#t3" if name == "game" else "")
                found = axe_violations(browser, url, scheme, opened="game" in name)
                assert found == [], (scheme, name, found)
                if name == "index":
                    backgrounds[scheme] = browser.value(
                        "getComputedStyle(document.body).backgroundColor"
                    )
        assert backgrounds == {"light": "rgb(255, 255, 255)", "dark": "rgb(13, 17, 23)"}
        # The check can fail: grey on white, as a careless dark scheme would leave it.
        low = tmp_path / "low.html"
        low.write_text(
            '<!doctype html><html lang="en"><head><title>x</title></head>'
            '<body><main><p style="color:#aaa">faint</p></main></body></html>'
        )
        found = axe_violations(browser, low.as_uri(), "light", opened=False)
        assert [v.split(" ")[0] for v in found] == ["color-contrast"]
    finally:
        browser.close()


def tab_through(browser: Browser, most: int) -> list[dict]:
    """Tab `most` times from the top: each element focused, and the outline it shows."""
    browser.value("document.activeElement.blur(); window.scrollTo(0, 0)")
    seen = []
    for _ in range(most):
        browser.press("Tab")
        seen.append(
            browser.value(
                "(() => { const e = document.activeElement, s = getComputedStyle(e);"
                " return {index: Array.from(document.querySelectorAll("
                f"{json.dumps(FOCUSABLE)})).indexOf(e), tag: e.tagName,"
                " outline: s.outlineStyle, width: parseFloat(s.outlineWidth)}; })()"
            )
        )
    return seen


def reachable(browser: Browser) -> list[int]:
    """The indexes, among the page's focusable elements, of the ones a reader can see."""
    return browser.value(
        f"Array.from(document.querySelectorAll({json.dumps(FOCUSABLE)}))"
        ".map((e, n) => [e, n]).filter(([e]) => e.getClientRects().length && !e.disabled)"
        ".map(([, n]) => n)"
    )


def test_tab_reaches_links_and_controls_in_order_and_the_game_plays_by_keyboard(pages, tmp_path):
    browser = Browser(chromium(), "about:blank", tmp_path / "profile")
    try:
        for name in ("index", "player", "games list", "game"):
            browser.call("Page.navigate", url=pages[name].as_uri())
            browser.wait_for("document.readyState === 'complete'")
            browser.wait_for(
                "document.body.classList.contains('js') || !document.getElementById('game-data')"
            )
            order = reachable(browser)
            assert len(order) > 3, name
            seen = tab_through(browser, min(len(order), 25))
            assert [s["index"] for s in seen] == order[: len(seen)], name  # in the page's order
            for s in seen:  # each focused element drawn with an outline a reader can see
                assert s["outline"] != "none" and s["width"] >= 2, (name, s)

        # The game page without a mouse: the next-turn button, the side button, go to turn.
        shown = "document.querySelector('section.turn.shown').id"
        assert browser.value(shown) == "t0"
        browser.value("document.activeElement.blur()")
        while browser.value("document.activeElement.dataset.go") != "1":
            browser.press("Tab")
        browser.press("Enter")
        browser.press(" ")
        assert browser.value(shown) == "t2"
        browser.press("Tab")  # the side button
        browser.press("Enter")
        assert browser.value("document.body.classList.contains('view-p1')")
        browser.press("Tab")  # go to turn: typed into the field
        assert browser.value("document.activeElement.id") == "goto"
        for key in ("7", "Enter"):
            browser.press(key)
        assert browser.value(shown) == "t7"

        # The games list's filters by keyboard: a player chosen with the arrow key.
        browser.call("Page.navigate", url=pages["games list"].as_uri())
        browser.wait_for("document.getElementById('shown-count')?.textContent.includes(' of ')")
        total = browser.value("document.getElementById('shown-count').textContent")
        while browser.value("document.activeElement.dataset.filter") != "player":
            browser.press("Tab")
        browser.press("ArrowDown")
        assert browser.value("document.activeElement.value") != ""
        assert browser.value("document.getElementById('shown-count').textContent") != total
    finally:
        browser.close()
