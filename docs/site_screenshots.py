"""Screenshots of each page type of `pokeview site`, and of `pokeview report`'s page, from
headless Chromium: `python docs/site_screenshots.py FOLDER` writes index.png, player.png,
game.png (a turn with a model's decision, its prompt and reasoning open), games.png and
report.png there.

The site is built by the command line from a small run of the demo's players (the bots and the
loopback stand-in model) played into a temporary database; Chromium is driven over its DevTools
protocol on loopback (tests/cdp.py), as the site's browser tests drive it.
"""

from __future__ import annotations

import argparse
import base64
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pokeview.site.html import player_file  # noqa: E402
from tests.cdp import Browser  # noqa: E402

RUN = """
name = "screenshots"
seed = "screenshots"
format = "gen9randombattle"
pairs = 1
turn_limit = 40
players = ["random", "max-damage", "heuristic", "loopback"]
matchups = [["random", "max-damage"], ["heuristic", "loopback"], ["loopback", "random"],
            ["max-damage", "heuristic"]]
"""
WIDTH = 1280
TALLEST = 2400  # pixels of a long page shown: its top, where a reader starts


def pokeview(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pokeview", *args], capture_output=True, text=True, cwd=ROOT
    )
    if done.returncode != 0:
        sys.exit(f"pokeview {args[0]} failed: {done.stderr.strip()}")


def shoot(browser: Browser, url: str, out: Path, setup: str = "0") -> None:
    """The page at `url`, after `setup` (JavaScript returning the y to start from), as a PNG of
    its width and up to TALLEST pixels of its height."""
    browser.call("Page.navigate", url=url)
    browser.wait_for("document.readyState === 'complete'")
    top = browser.value(setup) or 0
    height = browser.value("document.documentElement.scrollHeight")
    clip = {"x": 0, "y": top, "width": WIDTH, "height": min(height - top, TALLEST), "scale": 1}
    shot = browser.call(
        "Page.captureScreenshot", format="png", clip=clip, captureBeyondViewport=True
    )
    out.write_bytes(base64.b64decode(shot["data"]))
    print(f"{out} ({out.stat().st_size / 1000:.0f} KB)")


# The game page: the first turn after 2 where the model decided, its decision's prompt opened
# (the script puts the repeated text back), the page from the controls down.
GAME_SETUP = """(() => {
  const decision = Array.from(document.querySelectorAll('.decision'))
    .find(d => d.querySelector('pre.reasoning') && Number(d.closest('section').id.slice(1)) > 2);
  location.hash = '#' + decision.closest('section').id;
  decision.querySelector('details').open = true;
  return document.getElementById('controls').getBoundingClientRect().top + window.scrollY;
})()"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", help="where to write the PNGs")
    args = parser.parse_args()
    out = Path(args.folder)
    out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("chromium is not installed (make browser)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        db = str(work / "games.db")
        (work / "run.toml").write_text(RUN)
        pokeview("run", str(work / "run.toml"), "--db", db)
        pokeview("site", "screenshots", "-o", str(work / "site"), "--db", db)
        pokeview("report", "screenshots", "-o", str(work / "report.html"), "--db", db)
        site = work / "site"
        game = next(
            p for p in sorted(site.glob("game-*.html")) if 'class="reasoning"' in p.read_text()
        )
        browser = Browser(chromium, "about:blank", work / "profile")
        try:
            browser.call(
                "Emulation.setDeviceMetricsOverride",
                width=WIDTH,
                height=900,
                deviceScaleFactor=1,
                mobile=False,
            )
            shoot(browser, (site / "index.html").as_uri(), out / "index.png")
            shoot(browser, (site / player_file("llm:loopback")).as_uri(), out / "player.png")
            shoot(browser, game.as_uri(), out / "game.png", GAME_SETUP)
            shoot(browser, (site / "games.html").as_uri(), out / "games.png")
            shoot(browser, (work / "report.html").as_uri(), out / "report.png")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
