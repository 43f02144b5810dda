"""`pokeview report`: one offline HTML page of findings, checked in a real headless browser."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pokeview.cli import main
from pokeview.ratings.report import gather, write_report
from pokeview.tournament.config import parse_run_config
from pokeview.tournament.runner import run_tournament
from tests.helpers import one_clear_line, pokeview

HOSTILE = "<script>alert(1)</script>[red]"  # a model's name, as a players file may give it


def players_file(path: Path, base_url: str, priced: bool) -> Path:
    """Three loopback models: one naming action 99 first, one reporting no usage, one hostile
    name. Without `priced`, the first has no price: its games are costed later, at report time."""
    prices = "prices = { input = 3.0, cached_input = 0.3, output = 15.0 }\n"
    path.write_text(
        f'[players.illegal]\nbase_url = "{base_url}"\nmodel = "loopback-illegal"\n'
        + (prices if priced else "")
        + f'\n[players.silent]\nbase_url = "{base_url}"\nmodel = "loopback-nousage"\n{prices}'
        + f'\n[players."{HOSTILE}"]\nbase_url = "{base_url}"\nmodel = "loopback"\n{prices}'
    )
    return path


async def test_report_page_renders_in_a_browser_with_its_figures(bridge, store, loopback, tmp_path):
    unpriced = players_file(tmp_path / "unpriced.toml", loopback.base_url, priced=False)
    config = parse_run_config(
        {
            "name": "report-test",
            "seed": "report-test",
            "pairs": 1,
            "turn_limit": 40,
            "players": ["llm:illegal", "llm:silent", f"llm:{HOSTILE}", "random"],
            "matchups": [
                ["llm:illegal", "random"],
                ["llm:silent", "random"],
                [f"llm:{HOSTILE}", "llm:illegal"],
            ],
        },
        tmp_path / "run.toml",
    )
    progress = await run_tournament(config, store=store, bridge=bridge, players_file=unpriced)
    assert progress.failed == 0 and progress.cost_unknown  # llm:illegal had no price

    # Costed later: the price is known now, in the players file the report reads.
    priced = players_file(tmp_path / "priced.toml", loopback.base_url, priced=True)
    page = write_report(store, "report-test", tmp_path / "out" / "report.html", str(priced))
    text = page.read_text()
    assert "<script" not in text and "[red]" in text  # escaped for HTML, shown literally
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert not re.search(r"""(src|href)\s*=|@import|url\(""", text)  # nothing from elsewhere
    assert "costed at today" in text  # the unpriced model's past games, costed now
    assert "<th scope=row>Showdown</th><td>0.11.11</td>" in text  # the provenance table
    assert "report-test" in text and "{'" not in text  # no Python dict printed
    assert "<code>99</code>" in text  # loopback-illegal's answer naming an action not listed
    findings = gather(store, "report-test", str(priced))
    silent_wins = [
        g.id
        for g in store.games(run_id=store.run("report-test").id)
        if g.winner and g.winner_name == "llm:silent"
    ]
    assert silent_wins and [z["game"] for z in findings.zero_token_wins] == sorted(silent_wins)

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium) to render the page")
    dom = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    for figure in ("fig-ratings", "fig-head-to-head", "fig-tokens", "fig-rates"):
        assert f'id="{figure}"' in dom, figure
    assert dom.count('class="interval"') == 4  # one interval per player
    assert dom.count('class="cell"') == 6  # three matchups, each seen from both sides
    assert dom.count('class="point"') == 2  # the two models reporting tokens
    assert dom.count('class="bar"') == 9  # three rates for each of three models
    assert "<script" not in dom
    shot = tmp_path / "shot.png"
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--screenshot={shot}",
            "--window-size=1000,2000",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
    )
    assert shot.exists() and shot.stat().st_size > 20_000  # it drew something, not a blank page


def test_report_of_an_unknown_run_is_one_clear_line(tmp_path):
    from pokeview.store import open_store

    open_store(tmp_path / "x.db").close()
    line = one_clear_line(
        pokeview(
            "report", "nothing", "-o", str(tmp_path / "x.html"), "--db", str(tmp_path / "x.db")
        )
    )
    assert "no run 'nothing'" in line and not (tmp_path / "x.html").exists()


async def test_the_report_says_how_many_games_ended_other_than_by_a_last_faint(
    bridge, store, tmp_path, monkeypatch
):
    run = {
        "name": "short",
        "seed": "s",
        "pairs": 1,
        "turn_limit": 2,
        "players": ["random", "max-damage"],
    }
    config = parse_run_config(run, tmp_path / "r.toml")
    assert (await run_tournament(config, store=store, bridge=bridge)).done == 2
    page = write_report(store, "short", tmp_path / "report.html").read_text()
    assert "did not end by a last faint: 2 by turn limit." in page

    # Without -o the page is named after the run, in the current folder, as `site`'s folder is.
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert main(["report", "short", "--db", str(store.path)]) == 0
    assert "did not end by a last faint" in (here / "report-short.html").read_text()
