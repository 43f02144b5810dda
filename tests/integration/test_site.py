"""`pokeview site`: a small real run's static site, its links, its game pages against the
record, incremental rebuilds, and hostile text that must not run, checked in headless Chromium."""

from __future__ import annotations

import gzip
import html
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pokeview.battle.replay import Replay
from pokeview.errors import PokeviewError
from pokeview.exchange.files import export_as
from pokeview.game.decision import ModelDetail, messages_of
from pokeview.site.build import build_site
from pokeview.site.html import game_file, player_key
from pokeview.tournament.config import parse_run_config
from pokeview.tournament.runner import run_tournament
from tests import hostile
from tests.helpers import one_clear_line, pokeview

LINK = re.compile(r"""(?:href|src)\s*=\s*"([^"]*)\"""")


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("chromium is not installed (make browser) to open the pages")
    return found


def dom_of(page: Path, fragment: str = "") -> str:
    """The page's DOM after its own script ran, as headless Chromium serialises it."""
    return subprocess.run(
        [
            chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--dump-dom",
            page.as_uri() + fragment,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout


def links_resolve(folder: Path) -> int:
    """Every href and src of every page is a file of the folder; the number of links."""
    count = 0
    for page in folder.glob("*.html"):
        for target in LINK.findall(page.read_text()):
            path = html.unescape(target).split("#", 1)[0]
            assert "//" not in path and not path.startswith("/"), (page.name, target)
            assert path == "" or (folder / path).is_file(), (page.name, target)
            count += 1
    return count


async def small_run(store, bridge, tmp_path: Path) -> str:
    config = parse_run_config(
        {
            "name": "site-test",
            "seed": "site-test",
            "pairs": 1,
            "turn_limit": 30,
            "players": ["loopback", "random", "max-damage"],
            "matchups": [["loopback", "random"], ["max-damage", "random"]],
        },
        tmp_path / "run.toml",
    )
    progress = await run_tournament(config, store=store, bridge=bridge)
    assert progress.failed == 0 and progress.done == 4
    return "site-test"


async def test_a_run_makes_a_site_whose_links_resolve_and_game_pages_hold_the_record(
    bridge, store, tmp_path
):
    run = await small_run(store, bridge, tmp_path)
    folder = tmp_path / "site"
    built = build_site(store, run, folder)
    assert (built.games, built.written) == (4, 4)
    assert links_resolve(folder) > 40
    for page in [*folder.glob("*.html"), folder / "site.css"]:  # nothing fetched from elsewhere
        assert not re.search(r"@import|url\(", page.read_text()), page.name
    index = (folder / "index.html").read_text()
    assert 'href="games.html"' in index and "llm:loopback" in index and "est." in index
    assert index.count('<a href="game-') >= 4  # every game behind the head to head, linked
    (tmp_path / "a-file").write_text("")
    with pytest.raises(PokeviewError, match="cannot write the site to"):
        build_site(store, run, tmp_path / "a-file")  # a file, not a folder: one clear line

    # A model's game page: each decision's reasoning and answer are the record's, exactly (its
    # prompt refers to text written once: read back whole in the browser, test_site_game.py).
    game = next(g for g in store.games(limit=10) if "loopback" in g.p1 + g.p2)
    replay = Replay.load(store, game.id)
    side = "p1" if "loopback" in game.p1 else "p2"
    decisions = sorted(
        (d for (s, _), d in replay.decisions.items() if s == side), key=lambda d: d.idx
    )
    assert decisions and all(isinstance(d.detail, ModelDetail) for d in decisions)
    assert all(d.detail.reasoning for d in decisions)
    dom = dom_of(folder / game_file(game.id), "#t2")
    shown = re.findall(r'<section class="turn shown" id="t(\d+)"', dom)
    assert shown == ["2"]  # the script ran and followed the deep link
    for d in decisions:
        block = dom.split(f'id="{side}-d{d.idx}"', 1)[1].split('class="decision"', 1)[0]
        reasoning = re.search(r'<pre class="reasoning">(.*?)</pre>', block, re.S)
        assert reasoning and html.unescape(reasoning.group(1)) == d.detail.reasoning
        answer = re.search(r'<pre class="answer">(.*?)</pre>', block, re.S)
        assert answer and html.unescape(answer.group(1)) == d.detail.answer
    downloads = [
        folder / f"data/game-{game.id}.{k}" for k in ("json.gz", "inputlog.txt", "log.txt.gz")
    ]
    assert all(p.is_file() and p.stat().st_size for p in downloads)
    assert gzip.decompress(downloads[2].read_bytes()).decode() == export_as(store, game.id, "log")

    # Incremental: nothing changed, nothing written; a game made void is written again.
    # What an earlier build wrote and this one does not (an older layout's download, a game
    # page of a game gone from the run) is removed; files that are not the site's are left.
    stale = [folder / f"data/game-{game.id}.log.txt", folder / "game-99999.html"]
    foreign = [folder / "notes.txt", folder / "data/mine.json"]
    for path in stale + foreign:
        path.write_text("x")
    assert build_site(store, run, folder).written == 0
    assert [p.exists() for p in stale + foreign] == [False, False, True, True]
    with store.conn:  # as the game loop records a void game: its status, why, left out
        store.conn.execute(
            "update games set status = 'void', exclude_from_ratings = 1, error = ? where id = ?",
            ("llm:loopback was on autopilot (p1)", game.id),
        )
    again = build_site(store, run, folder)
    assert again.written == 1
    listed = (folder / "games.html").read_text()
    assert 'data-status="void"' in listed and "void: llm:loopback was on autopilot" in listed


def test_site_is_listed_and_an_unknown_run_is_one_clear_line(tmp_path):
    from pokeview.store import open_store

    assert " site " in pokeview("--help").stdout
    open_store(tmp_path / "x.db").close()
    line = one_clear_line(
        pokeview("site", "nothing", "-o", str(tmp_path / "s"), "--db", str(tmp_path / "x.db"))
    )
    assert "no run 'nothing'" in line and not (tmp_path / "s").exists()


# Markup that would run if any page let it through: each sets a mark the DOM would show.
RUNS = (
    '<script>document.title="RAN";document.body.setAttribute("data-pwned","1")</script>'
    "</script><!-- \"><img src=x onerror=\"document.body.setAttribute('data-pwned','2')\">"
    "<svg onload=\"document.body.setAttribute('data-pwned','3')\"><b>bold</b>"
)


class Elements(HTMLParser):
    """What of a DOM could run or fetch: images, event-handler attributes, scripts not the
    site's own (its file, or inert JSON)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag in ("img", "iframe", "object", "embed") or (tag == "svg" and "onload" in named):
            self.found.append(tag)
        self.found += [f"{tag} {name}" for name in named if name.startswith("on")]
        ours = named.get("src") == "site.js" or named.get("type") == "application/json"
        if tag == "script" and not ours:
            self.found.append("script")


def could_run(dom: str) -> list[str]:
    parser = Elements()
    parser.feed(dom)
    return parser.found


def test_hostile_text_does_not_run_on_any_page(tmp_path, monkeypatch):
    monkeypatch.setattr(hostile, "EVIL", hostile.EVIL + RUNS)
    game_id = hostile.hostile_db(tmp_path / "h.db")
    from pokeview.store import open_store

    store = open_store(tmp_path / "h.db")
    run_id = store.game(game_id).run_id
    folder = tmp_path / "site"
    build_site(store, str(run_id), folder)
    store.close()
    pages = sorted(folder.glob("*.html"))
    assert len(pages) >= 5 and links_resolve(folder)
    game_page = (folder / game_file(game_id)).read_text()
    data = game_page.split('id="game-data">', 1)[1].split("</script>", 1)[0]
    assert "</" not in data and "<!--" not in data  # the embedded JSON cannot end its element
    assert "&lt;script&gt;document.title" in game_page  # shown, as text
    for page in pages:
        dom = dom_of(page)
        assert "<main>" in dom and "</main>" in dom, page.name  # it rendered, whole
        assert not re.search(r"<body[^>]*data-pwned", dom), page.name  # no planted code ran
        assert re.search(r"<title>(.*?)</title>", dom, re.S).group(1) != "RAN", page.name
        assert could_run(dom) == [], page.name
        assert "<b>bold</b>" not in dom, page.name  # markup stayed text


async def test_a_game_page_steps_by_key_and_by_click_and_shows_the_prompt(bridge, store, tmp_path):
    from tests.cdp import Browser

    run = await small_run(store, bridge, tmp_path)
    folder = tmp_path / "site"
    build_site(store, run, folder)
    game = next(g for g in store.games(limit=10) if "loopback" in g.p1 + g.p2)
    side = "p1" if "loopback" in game.p1 else "p2"
    browser = Browser(chromium(), (folder / game_file(game.id)).as_uri(), tmp_path / "profile")
    try:
        browser.wait_for("document.body.classList.contains('js')")
        shown = "document.querySelector('section.turn.shown').id"
        assert browser.value(shown) == "t0"
        for turn in range(1, 6):  # five turns by key
            browser.press("ArrowRight")
            assert browser.value(shown) == f"t{turn}"
        assert browser.value("location.hash") == "#t5"
        browser.click('[data-go="-1"]')  # and back by click
        assert browser.value(shown) == "t4"
        browser.press("s")  # p1 only: p2's column hidden
        assert (
            browser.value("getComputedStyle(document.querySelector('#t4 .side-p2')).display")
            == "none"
        )
        for key in ("1", "2", "Enter"):  # go to turn 12
            browser.press(key)
        assert browser.value(shown) == "t12"
        # The prompt and reasoning of a decision, read back from the page as a reader sees them.
        decision = min(
            (d for (s, _), d in Replay.load(store, game.id).decisions.items() if s == side),
            key=lambda d: d.idx,
        )
        assert isinstance(decision.detail, ModelDetail)
        block = f"document.getElementById('{side}-d{decision.idx}')"
        browser.click(f"#{side}-d{decision.idx} summary")  # opened: its text put back whole
        prompts = browser.value(
            f"Array.from({block}.querySelectorAll('pre.prompt'), p => p.textContent)"
        )
        assert prompts == [m.content for m in messages_of(decision.detail) if m.role != "assistant"]
        assert (
            browser.value(f"{block}.querySelector('pre.reasoning').textContent")
            == decision.detail.reasoning
        )
        # The games list, filtered by player as a reader would.
        browser.call("Page.navigate", url=(folder / "games.html").as_uri())
        browser.wait_for("document.getElementById('shown-count')?.textContent === '4 of 4 games'")
        browser.value(
            "const s = document.querySelector('select[data-filter=player]');"
            f"s.value = '{player_key('llm:loopback')}'; s.dispatchEvent(new Event('change'))"
        )
        assert browser.value("document.getElementById('shown-count').textContent") == "2 of 4 games"
        visible = "Array.from(document.querySelectorAll('#games tbody tr:not([hidden])'), r => r.dataset.p1 + ' ' + r.dataset.p2)"
        assert all("llm:loopback" in row for row in browser.value(visible))
    finally:
        browser.close()
