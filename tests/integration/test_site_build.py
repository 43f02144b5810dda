"""`pokeview site` writing game pages in worker processes: a bot game's words, left for later
when it was played, are derived in each worker (its own deriver and Node), so a fresh build from
a record never read before shows every bot's battle log in full, forked or spawned."""

from __future__ import annotations

import html
import multiprocessing
import os
import re
import signal
import threading

import pytest

from pokeview.battle.derive import later_events
from pokeview.battle.replay import Replay
from pokeview.errors import PokeviewError
from pokeview.site.build import build_site
from pokeview.site.html import game_file
from pokeview.store import open_store
from pokeview.store.compaction import StoreConnection
from pokeview.text import strip_control
from pokeview.tournament.config import parse_run_config
from pokeview.tournament.runner import run_tournament


def page_log(page: str, side: str) -> str:
    """A side's battle log as the page shows it, its turns' lines joined."""
    logs = re.findall(rf'<div class="side-{side}"><h3>{side}</h3><pre>(.*?)</pre>', page, re.S)
    return "\n".join(html.unescape(text) for text in logs if text)


@pytest.mark.parametrize("method", ["fork", "spawn"])
async def test_workers_derive_the_bots_words_left_for_later(bridge, store, tmp_path, method):
    config = parse_run_config(
        {
            "name": "lazy",
            "seed": "lazy",
            "pairs": 2,
            "turn_limit": 12,
            "players": ["random", "max-damage", "heuristic"],
            "matchups": [["random", "max-damage"], ["heuristic", "random"]],
        },
        tmp_path / "run.toml",
    )
    progress = await run_tournament(config, store=store, bridge=bridge)
    assert progress.done == 8
    store.commit()
    games = store.games(run_id=store.run("lazy").id, limit=-1)
    with pytest.MonkeyPatch.context() as patch:  # the record as played: words left for later
        patch.setattr(StoreConnection, "deriver", None)
        reader = open_store(store.path)
        assert all(len(later_events(reader.events(g.id))) > 4 for g in games)
        reader.close()
    # This process derives a game first (its deriver's thread and Node started): a forked
    # worker must not take them for its own.
    Replay.load(store, games[0].id)

    said: list[tuple[int, int]] = []
    built = build_site(
        store,
        "lazy",
        tmp_path / "site",
        workers=2,
        method=method,
        on_page=lambda *n: said.append(n),
    )
    assert (built.written, built.workers) == (8, 2)
    assert said == [(n, 8) for n in range(1, 9)]  # progress: each page as it is written
    derived = open_store(store.path)  # the words as the workers derived and kept them
    for g in games:
        page = (tmp_path / "site" / game_file(g.id)).read_text()
        replay = Replay.load(derived, g.id)
        for side in ("p1", "p2"):
            words = "\n".join(strip_control(line) for _, line in replay.words[side])
            assert "Go! " in words and page_log(page, side) == words, (g.id, side)
        assert not later_events(derived.events(g.id))  # kept: derived once
    derived.close()


async def test_a_worker_that_dies_ends_the_build_with_a_line_instead_of_hanging(
    bridge, store, tmp_path
):
    """A worker killed part way (the OOM killer, a signal) takes the pages it held with it: a
    pool that only waits for their results would wait for ever."""
    config = parse_run_config(
        {
            "name": "killed",
            "seed": "killed",
            "pairs": 4,
            "turn_limit": 6,
            "players": ["random", "max-damage"],
            "matchups": [["random", "max-damage"], ["max-damage", "random"]],
        },
        tmp_path / "run.toml",
    )
    assert (await run_tournament(config, store=store, bridge=bridge)).done == 16
    store.commit()

    def kill_the_workers(done: int, total: int) -> None:
        if done == 1:  # pages are still to write: at least one worker holds some
            for child in multiprocessing.active_children():
                os.kill(child.pid, signal.SIGKILL)

    failed: list[BaseException] = []

    def build() -> None:
        try:
            build_site(
                store,
                "killed",
                tmp_path / "site",
                workers=2,
                method="fork",
                on_page=kill_the_workers,
            )
        except BaseException as exc:  # noqa: BLE001 (what the build ended with, to assert)
            failed.append(exc)

    building = threading.Thread(target=build, daemon=True)
    building.start()
    building.join(60)
    assert not building.is_alive(), "the build waits for pages no process is writing"
    assert len(failed) == 1 and isinstance(failed[0], PokeviewError), failed
    assert "ended" in str(failed[0]) and "\n" not in str(failed[0]), failed[0]
