"""The wheel as a user gets it: built from the repository, installed into a fresh venv, and the app
opened headless there with its own theme (themes are package data, not files of the repository)."""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from pokeview import paths

# Run by the fresh venv's python, from a folder outside the repository: only the wheel's pokeview
# can be imported. The dependencies come from the current venv's site-packages, appended after the
# fresh venv's own (a .pth line), so the editable install there is never processed.
OPEN_THE_APP = """
import asyncio, sys
from pathlib import Path
import pokeview
from textual.screen import Screen
from pokeview.app import make_app

assert Path(pokeview.__file__).is_relative_to(Path(sys.prefix)), pokeview.__file__

async def main():
    app = make_app(Path("unused.db"), first_screen=Screen)
    async with app.run_test() as pilot:
        await pilot.pause()
        print(app.theme)
        print(sorted(n.removeprefix("pokeview-") for n in app.available_themes if n.startswith("pokeview-")))

asyncio.run(main())
"""


def test_the_installed_wheel_opens_the_app_in_its_own_theme(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", dist, paths.REPO_DIR],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("pokeview-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert [n for n, count in collections.Counter(names).items() if count > 1] == []
    for shipped in (
        "pokeview/theme_files/pokeview-dark.json",
        "pokeview/site_files/site.js",  # the static site's script and style: package data
        "pokeview/site_files/site.css",
        "pokeview/sim/bridge.js",
        "pokeview/sim/search.js",
        "pokeview/sim/search/decide.js",
        "pokeview/sim/server_plugin.js",
        "pokeview/sim/node/package-lock.json",
    ):
        assert shipped in names

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    fresh_site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(fresh_site) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", wheel],
        check=True,
        capture_output=True,
    )

    # The search's entry point finds its parts from where it is installed.
    search_js = Path(fresh_site) / "pokeview" / "sim" / "search.js"
    loaded = subprocess.run(
        ["node", "-e", "console.log(typeof require(process.argv[1]).search)", search_js],
        capture_output=True,
        text=True,
    )
    assert loaded.stdout.strip() == "function", loaded.stderr

    home = tmp_path / "home"
    env = {**os.environ, "POKEVIEW_HOME": str(home), "PYTHONPATH": ""}
    opened = subprocess.run(
        [python, "-c", OPEN_THE_APP],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert opened.returncode == 0, opened.stderr
    theme, shipped_themes = opened.stdout.splitlines()
    assert theme == "pokeview-dark"
    assert shipped_themes == "['dark', 'light']"
