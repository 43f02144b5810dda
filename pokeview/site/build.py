"""Build (or bring up to date) a run's site in a directory.

The index, the players' pages and the games list are small and are written every time; a
game's page and downloads are written only when the game changed since the last build, as told
by `data/manifest.json` (a digest of each game's status, end and result, and the site's layout
version). The record is read with the report's `gather` and the replay viewer's `Replay`.
Game pages are written by worker processes where there are several (`GamePages`), while
this process writes the rest.
"""

from __future__ import annotations

import gzip
import hashlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import orjson

from pokeview.battle import later
from pokeview.battle.replay import Replay
from pokeview.errors import PokeviewError
from pokeview.exchange.files import export_as
from pokeview.ratings.decisions import decision_facts
from pokeview.ratings.history import rating_history
from pokeview.ratings.report import gather
from pokeview.ratings.telling import TellingDecisions
from pokeview.safe_write import write_whole
from pokeview.site import game as game_page
from pokeview.site import games as games_page
from pokeview.site import index as index_page
from pokeview.site import player as player_page
from pokeview.site.html import CSS, JS, game_file, player_file
from pokeview.store.store import GameRow, Store, open_store

LAYOUT = 5  # raise when a game page's layout changes: every game page is then written again
MANIFEST = "data/manifest.json"


@dataclass
class Built:
    folder: Path
    games: int
    written: int  # game pages written this time (the others had not changed)
    seconds: float
    workers: int = 0  # processes that wrote them (0: the building process itself)


def digest(game: GameRow) -> str:
    """What a game page depends on that can change after it is first written."""
    facts = [
        LAYOUT,
        game.status,
        game.ended_at,
        game.winner,
        game.turns,
        game.error,
        game.exclude_from_ratings,
        game.ending,
        game.p1,
        game.p2,
    ]
    return hashlib.sha256(orjson.dumps(facts)).hexdigest()[:16]


def _write(path: Path, data: str | bytes) -> None:
    write_whole(path, data)
    os.chmod(path, 0o644)  # a static host's server reads it as another user


def _manifest(folder: Path) -> dict[str, str]:
    try:
        saved = orjson.loads((folder / MANIFEST).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}  # none yet, or unreadable: every game page is written
    return saved.get("games", {}) if isinstance(saved, dict) else {}


# Game pages are written by worker processes when there are this many or more to write: a
# forked worker costs little, and each derives its games' bot words in a Node of its own.
WORKERS_FROM = 4
_worker: tuple[Store, Path] | Exception | None = None  # a worker's store and folder, or why not


def worker_count(pages: int) -> int:
    """Processes to write `pages` game pages: one per CPU this process may use, or none."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(cpus or 1, pages // 2) if pages >= WORKERS_FROM else 0


def _start_worker(db: Path, folder: Path) -> None:
    """A worker's start: the deriver installed for this process (a bot game's words left for
    later are derived in its own Node: a spawned worker has none, a forked one only the
    parent's) and a connection of its own."""
    global _worker
    later.install()
    try:
        _worker = (open_store(db), folder)
    except Exception as exc:  # raised with its first page (a failed initializer: a broken pool)
        _worker = exc


def _write_in_worker(game_id: int) -> int:
    if isinstance(_worker, Exception):
        raise _worker
    assert _worker is not None
    store, folder = _worker
    write_game(store, store.game(game_id), folder)
    return game_id


class GamePages:
    """Game pages and downloads written by `workers` processes, started on entering, while this
    process writes the rest of the site; `finish` waits for them and says how many wrote them
    (with fewer than 2 workers, this process writes every page in `finish`: 0). `method`: how
    they start, "fork" by default where this process runs one thread (nothing another thread
    holds is copied half-way), else "spawn"."""

    def __init__(
        self,
        store: Store,
        todo: list[GameRow],
        folder: Path,
        workers: int,
        method: str | None = None,
        on_page: Callable[[int, int], None] | None = None,
    ) -> None:
        self.store, self.todo, self.folder = store, todo, folder
        self.on_page = on_page or (lambda done, total: None)
        self.workers = workers if workers >= 2 and store.path.is_file() else 0
        self.method = method or ("fork" if threading.active_count() == 1 else "spawn")
        self.pool: Any = None
        self.pending: Any = None

    def __enter__(self) -> GamePages:
        if self.workers:
            self.store.commit()  # the workers read the record as it is now
            # An executor, not a Pool: a Pool's worker killed part way (the OOM killer) takes
            # the pages it held with it and the Pool waits for them for ever; here the pages
            # not written fail, and the build with them.
            self.pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context(self.method),
                initializer=_start_worker,
                initargs=(self.store.path, self.folder),
            )
            self.pending = [self.pool.submit(_write_in_worker, g.id) for g in self.todo]
        return self

    def finish(self) -> int:
        total = len(self.todo)
        if self.pool is None:
            for done, game in enumerate(self.todo, 1):
                write_game(self.store, game, self.folder)
                self.on_page(done, total)
            return 0
        try:
            for done, page in enumerate(as_completed(self.pending), 1):
                page.result()  # a worker's error is raised here
                self.on_page(done, total)
        except BrokenProcessPool:
            raise PokeviewError(
                "a process writing the site's game pages ended before they were written "
                "(killed, or out of memory?)"
            ) from None
        return self.workers

    def __exit__(self, kind: object, *_: object) -> None:
        if self.pool is not None:
            # Done, or given up: then the pages not begun are dropped (those being written end).
            self.pool.shutdown(wait=True, cancel_futures=kind is not None)


def downloads(game: GameRow) -> list[tuple[str, str]]:
    """The files beside a game's page: (suffix, export format)."""
    files = [("json.gz", "json"), ("log.txt.gz", "log")]
    if game.input_log:
        files.append(("inputlog.txt", "inputlog"))
    return files


# What a build writes per game and per player, by name. Those an earlier build wrote and this
# one did not (a layout's old download, a game or player no longer in the run) are removed, in
# a folder that holds a manifest (a site pokeview built: nobody else's files are touched).
PER_GAME_OR_PLAYER = ("game-*.html", "player-*.html", "data/game-*")


def _sweep(folder: Path, games: list[GameRow], names: list[str]) -> None:
    kept = {game_file(g.id) for g in games} | {player_file(n) for n in names}
    kept |= {game_page.download_file(g.id, suffix) for g in games for suffix, _ in downloads(g)}
    for pattern in PER_GAME_OR_PLAYER:
        for path in folder.glob(pattern):
            if path.relative_to(folder).as_posix() not in kept:
                path.unlink(missing_ok=True)


def write_game(store: Store, game: GameRow, folder: Path) -> None:
    replay = Replay.load(store, game.id)
    _write(folder / game_file(game.id), game_page.render(replay))
    # The record and the Showdown log gzipped (a fifth of their size; the page says so); the
    # input log, a few hundred bytes, as text.
    for suffix, fmt in downloads(game):
        text = export_as(store, game.id, fmt).encode()
        data = gzip.compress(text, 6, mtime=0) if suffix.endswith(".gz") else text
        _write(folder / game_page.download_file(game.id, suffix), data)


def build_site(
    store: Store,
    run: str,
    folder: Path,
    players_file: str | None = None,
    workers: int | None = None,
    method: str | None = None,
    on_page: Callable[[int, int], None] | None = None,
) -> Built:
    """`workers`: processes writing the game pages (default: one per CPU where there are many
    pages to write; 0 writes them in this process); `method`: how they start (`GamePages`);
    `on_page(done, total)`: after each game page written (a first build of bot games derives
    their words: minutes for thousands)."""
    started = time.perf_counter()
    run_row = store.run(run)
    games = sorted(store.games(run_id=run_row.id, limit=-1), key=lambda g: g.id)
    try:
        (folder / "data").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PokeviewError(f"cannot write the site to {folder}: {exc.strerror}") from None
    ours = (folder / MANIFEST).exists()
    before = _manifest(folder)
    after = {str(g.id): digest(g) for g in games}
    todo = [
        g
        for g in games
        if before.get(str(g.id)) != after[str(g.id)] or not (folder / game_file(g.id)).exists()
    ]
    count = worker_count(len(todo)) if workers is None else workers
    with GamePages(store, todo, folder, count, method, on_page) as pages:
        # Meanwhile, the rest. Every game's decisions are read once: the rated ones first, in
        # the report's order (its findings read them so), then the others, for the players'
        # telling decisions.
        rated = [r.id for r in store.rating_games(run_row.id)]
        others = sorted({g.id for g in games} - set(rated))
        telling = TellingDecisions()
        facts = decision_facts(store, rated + others, each=telling.add)
        findings = gather(store, run, players_file, decisions=facts)
        history = rating_history(store, run_row.id)
        assets = files("pokeview") / "site_files"
        for name in (CSS, JS):
            _write(folder / name, assets.joinpath(name).read_bytes())
        names = sorted({g.p1 for g in games} | {g.p2 for g in games})
        lines = {p.name: p for p in findings.report.players}
        for name in names:
            page = player_page.render(
                name, lines.get(name), findings.facts.get(name), games, history, telling
            )
            _write(folder / player_file(name), page)
        _write(folder / "games.html", games_page.render(findings.run_name, games))
        sets = run_row.config.get("sets") or []  # a ladder's, as its schedule chose them
        _write(folder / "index.html", index_page.render(findings, names, games, sets))
        used = pages.finish()
    # The reads above may have begun a transaction before the workers wrote the words they
    # derived: ended, so that this connection sees them and can write after them.
    store.commit()
    if ours:
        _sweep(folder, games, names)
    # Last: a build stopped before here leaves the manifest of the build before it.
    manifest: dict[str, Any] = {"layout": LAYOUT, "run": findings.run_name, "games": after}
    _write(folder / MANIFEST, orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
    return Built(folder, len(games), len(todo), time.perf_counter() - started, used)
