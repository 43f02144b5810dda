"""Helpers shared by test modules (no test module imports another): paths, the `pokeview`
command, games on the bridge, model players on loopback, databases for the app, Pilot waits.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pokeview.store import open_store
from pokeview.store.rows import DecisionRow, GameRow

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
BAD = DATA / "bad"
POKEBENCH = DATA / "pokebench"
POKEVAL_CASES = DATA / "pokeval" / "example-case.jsonl"
POKEVAL_PRINTED = DATA / "pokeval" / "example-printed-log.jsonl"


# -- a request's parts, as Showdown sends them (a Carbink with a bench) --------------------------

MOVES = [
    {"move": "Body Press", "id": "bodypress", "pp": 16, "maxpp": 16, "disabled": False},
    {"move": "Iron Defense", "id": "irondefense", "pp": 24, "maxpp": 24, "disabled": False},
    {"move": "Moonblast", "id": "moonblast", "pp": 0, "maxpp": 24, "disabled": False},
    {"move": "Rest", "id": "rest", "pp": 8, "maxpp": 8, "disabled": True},
]
TEAM = [
    {"ident": "p1: Carbink", "details": "Carbink, L90", "condition": "236/236", "active": True},
    {
        "ident": "p1: Palkia",
        "details": "Palkia-Origin, L72",
        "condition": "249/249",
        "active": False,
    },
    {"ident": "p1: Granbull", "details": "Granbull, L88, F", "condition": "0 fnt", "active": False},
    {
        "ident": "p1: Weavile",
        "details": "Weavile, L79, M",
        "condition": "100/239 par",
        "active": False,
    },
]


# -- reading a database file through the Store, as users do ------------------------------------


@contextlib.contextmanager
def sqlite_file(path: str | Path, **options: Any) -> Iterator[sqlite3.Connection]:
    """`with sqlite3.connect(path) as conn` that also closes it: sqlite3's own `with` only
    commits, and a connection left to the garbage collector keeps its file descriptors (a
    poller of a running game's file left hundreds open, past what select() takes)."""
    conn = sqlite3.connect(path, **options)
    try:
        with conn:
            yield conn
    finally:
        conn.close()


def read_game(db: str | Path, game_id: int) -> GameRow:
    store = open_store(db)
    try:
        return store.game(game_id)
    finally:
        store.close()


def read_decisions(db: str | Path, game_id: int, side: str | None = None) -> list[DecisionRow]:
    store = open_store(db)
    try:
        return store.decisions(game_id, side)
    finally:
        store.close()


# -- the `pokeview` command as a person runs it ---------------------------------------------------


def pokeview(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pokeview", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def on_a_pty(
    argv: list[str],
    env: dict[str, str],
    *,
    size: tuple[int, int] = (120, 40),
    keys: Callable[[], bytes | None] | None = None,
    timeout: float = 120,
) -> tuple[int, str]:
    """`pokeview ARGV` on a pseudo-terminal of `size` (columns, lines), as a person runs it:
    its exit code and what the terminal was sent. `keys`, asked every 0.2 s until it gives
    something, gives what to type."""
    import fcntl
    import pty
    import selectors
    import struct
    import termios
    import time

    parent, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "pokeview", *argv],
        stdin=child,
        stdout=child,
        stderr=child,
        env={**os.environ, **env},
        start_new_session=True,
    )
    os.close(child)
    chunks, deadline = [], time.monotonic() + timeout
    ready = selectors.DefaultSelector()  # not select(): a descriptor past 1024 is refused there
    ready.register(parent, selectors.EVENT_READ)
    while time.monotonic() < deadline:
        if keys is not None and (typed := keys()):
            os.write(parent, typed)
            keys = None
        if not ready.select(0.2):
            continue
        try:
            chunk = os.read(parent, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    ready.close()
    os.close(parent)
    return proc.wait(timeout=60), b"".join(chunks).decode("utf-8", "replace")


def one_clear_line(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode != 0
    assert "Traceback" not in run.stderr + run.stdout
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("pokeview: error: ")
    return lines[0]


def play_one(db: str, p1: str, p2: str, seed: str, *more: str) -> None:
    """Record one headless game with `pokeview battle` (game 1 in a new database)."""
    played = pokeview("battle", "--p1", p1, "--p2", p2, "--seed", seed, *more, "--db", db)
    assert played.returncode == 0, played.stderr


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_players(path: Path, base_url: str, **models: dict) -> Path:
    """A players file with one [players.NAME] table per keyword argument."""
    lines = []
    for name, table in models.items():
        lines.append(f"[players.{name}]")
        table = {"base_url": base_url, **table}
        for key, value in table.items():
            if isinstance(value, dict):
                inner = ", ".join(f"{k} = {v!r}" for k, v in value.items())
                lines.append(f"{key} = {{ {inner} }}")
            elif isinstance(value, str):
                lines.append(f'{key} = "{value}"')
            elif isinstance(value, bool):
                lines.append(f"{key} = {str(value).lower()}")
            else:
                lines.append(f"{key} = {value!r}")
        lines.append("")
    path.write_text("\n".join(lines).replace("'", '"'))
    return path


# -- bad input: one clear line, exit status 2, nothing written --------------------------------


def row_counts(db: Path) -> dict[str, int]:

    with sqlite_file(db) as conn:
        tables = [r[0] for r in conn.execute("select name from sqlite_master where type='table'")]
        return {t: conn.execute(f"select count(*) from {t}").fetchone()[0] for t in tables}


def bad_input_gives_one_clear_line(
    tmp_path: Path, capsys, argv: str, message: str, exact: bool = False
) -> None:
    """`pokeview ARGV` run in-process: exit 2, one `pokeview: error:` line (holding `message`,
    or being it when `exact`), nothing written."""
    from pokeview.cli import main

    db = tmp_path / "x.db"
    open_store(db).close()
    before = row_counts(db)
    fill = {"bad": str(BAD), "tmp": str(tmp_path)}
    args = [part.format(**fill) for part in argv.split()]
    assert main(["--db", str(db), *args]) == 2
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("pokeview: error: ") and message.format(**fill) in lines[0]
    if exact:
        assert lines[0] == "pokeview: error: " + message.format(**fill)
    assert "Traceback" not in err + out
    assert row_counts(db) == before
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("x.db")) == []


# -- records and runs ------------------------------------------------------------------------------


def unpack_v2(data_dir: Path, into: Path) -> Path:
    """The version-2 fixture database and its games as version 2 exported them."""
    import io
    import tarfile

    import zstandard

    raw = zstandard.ZstdDecompressor().decompress((data_dir / "record-v2.tar.zst").read_bytes())
    with tarfile.open(fileobj=io.BytesIO(raw)) as tar:
        tar.extractall(into, filter="data")
    return into / "v2.db"


# A small run of the three bots, for a runner to be killed and started again.
BOTS_RUN = """
name = "kill-test"
seed = "kill-test"
pairs = 3
players = ["random", "max-damage", "heuristic"]
concurrency = 4
"""


# -- games on the shared bridge, model players on the loopback provider ----------------------------

FORMAT = "gen9randombattle"
# A format whose games of bots are played step by step, each side asked in Python or at each
# step in the bridge: in generation 9 a game of poke-env's bots is played whole in the bridge,
# with no step to see, follow or cut into.
STEP_BY_STEP = "gen8randombattle"
PRICES = {"input": 3.0, "cached_input": 0.3, "output": 15.0}
FAST = {"connect": 2, "first_token": 0.5, "total": 5}


async def game(bridge, store, p1="heuristic", p2="max-damage", text="t", pair=0, **kw):
    from pokeview.battle.play import OnBridge, play
    from pokeview.battle.spec import GameSpec
    from pokeview.players import make_player

    spec = GameSpec.new(
        kw.pop("format", FORMAT),
        text,
        make_player(p1) if isinstance(p1, str) else p1,
        make_player(p2) if isinstance(p2, str) else p2,
        pair=pair,
        **kw,
    )
    return await play(spec, venue=OnBridge(bridge), store=store)


def spec(loopback, model="loopback", **kw):
    from pokeview.players.llm.config import ModelSpec

    return ModelSpec(
        name=model,
        base_url=loopback.base_url,
        model=model,
        prices=kw.pop("prices", PRICES),
        timeouts=kw.pop("timeouts", FAST),
        max_retries=kw.pop("max_retries", 2),
        retry_backoff=0.01,
        **kw,
    )


def llm(loopback, model="loopback", **kw):
    from pokeview.players.llm.player import LLMPlayer

    return LLMPlayer(spec(loopback, model, **kw))


# -- the seeds' examples: PokéBench's prompt, Pokéval's case ---------------------------------------


def pokebench_example(name: str) -> str:
    return (POKEBENCH / name).read_text(encoding="utf-8")


def pokeval_example() -> tuple[dict, list[str]]:
    import json

    case = json.loads(POKEVAL_CASES.read_text())
    printed = json.loads(POKEVAL_PRINTED.read_text())["log"]
    return case, printed


SHAPES = [
    ("heading", r"^(BATTLE LOG|NEW EVENTS|YOUR LEGAL ACTIONS|YOUR ACTIVE POKÉMON:)$"),
    ("state", r"^(CURRENT STATE|STATE NOW) \((turn \d+)\)$"),
    ("team", r"^YOUR TEAM \(Player [12]\):$"),
    ("foe-team", r"^OPPONENT'S TEAM \(Player [12]\), as far as you have seen it:$"),
    ("foe", r"^OPPONENT \(Player [12]\):$"),
    (
        "mon",
        r"^- [^\[\]]+ \[(ACTIVE|bench)\], [A-Za-z]+(/[A-Za-z]+)?, L\d+, "
        r"(HP \d+/\d+ \(\d+%\)|HP \d+%|fainted)$",
    ),
    ("ability", r"^  Ability: [^,]+, Item: [^,]+, Tera type: [A-Za-z]+$"),
    ("stats", r"^  Stats: Atk \d+, Def \d+, SpA \d+, SpD \d+, Spe \d+$"),
    (
        "active-moves",
        r"^  Moves: ([^;]+ \([A-Za-z]+, (Physical|Special|Status)(, \d+ BP)?, "
        r"(\d+% accuracy|never misses)(: [^)]*)?\)(; )?)+$",
    ),
    ("moves", r"^  Moves: [^;()]+(; [^;()]+)*$"),
    ("foe-ability", r"^  Ability: [^,]+$"),
    ("seen", r"^  Moves seen: .+$"),
    ("unseen", r"^- \d Pokémon not seen yet$"),
    ("bench", r"^YOUR BENCH: .+$"),
    ("also", r"^ALSO SEEN: .+$"),
    ("action", r"^\d+\. (move|switch) .+$"),
    ("closing", r"^Choose one action\. Answer with only the ACTION line and the REASON line\.$"),
    ("blank", r"^$"),
]


def shapes(message: str) -> list[str]:
    """Each line's shape; log lines fold into one 'log' item, repeated shapes into one."""
    out: list[str] = []
    for line in message.split("\n"):
        shape = next((name for name, rx in SHAPES if re.match(rx, line)), "log")
        if shape in ("foe-ability",):
            continue  # seen or not depending on the game
        if not out or out[-1] != shape:
            out.append(shape)
    return out


# -- the app: databases built from the shipped recordings, waits under Pilot ----------------------

RECORDINGS = [
    "heuristic-vs-max-damage.json",
    "random-vs-heuristic.json",
    "loopback-test-model-vs-heuristic.json",
]


def build_db(path: Path, mutate=None) -> Path:
    import orjson

    from pokeview import paths
    from pokeview.exchange import import_game

    if path.exists():
        path.unlink()
    store = open_store(path)
    for name in RECORDINGS:
        doc = orjson.loads((paths.recordings_dir() / name).read_bytes())
        if mutate:
            mutate(doc)
        import_game(store, doc, rated=True)  # the screens' tests rate them
    store.close()
    return path


def text_of(widget) -> str:
    """What a widget shows: its border title (the board's turn) and its content."""
    import io

    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO())
    console.print(widget.content)
    return (f"{widget.border_title}\n" if widget.border_title else "") + console.export_text()


async def ready(pilot):
    """The replay screen, once its game has loaded."""
    from pokeview.screens.watch import WatchScreen

    screen = pilot.app.screen
    for _ in range(100):
        await pilot.pause(0.02)
        if isinstance(screen, WatchScreen) and screen.replay is not None:
            return screen
    raise AssertionError("the replay did not load")


async def settle(pilot, until) -> None:
    for _ in range(150):
        await pilot.pause(0.02)
        if until():
            return
    raise AssertionError("the screen did not settle")


def script(path: str):
    """A script of the repository that is not a package module (benchmarks/, docs/), loaded."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(Path(path).stem, ROOT / path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def showdown_spectator_log(inputlog: str) -> list[str]:
    """The spectator's lines Showdown's own simulator (`simulate-battle`) writes for an input
    log: the public side of each split, timestamps and debug lines left out."""
    from pokeview.sim import install

    package = install.ensure_installed() / "node_modules" / "pokemon-showdown"
    sim = subprocess.run(
        ["node", "pokemon-showdown", "simulate-battle", "--skip-build"],
        cwd=package,
        input=inputlog,
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines, out, skip = [], [], 0
    for block in sim.stdout.split("\n\n"):
        if block.startswith("update\n"):
            lines += block.split("\n")[1:]
    for n, line in enumerate(lines):
        if skip:
            skip -= 1
            continue
        if line.startswith("|split|"):
            out.append(lines[n + 2])
            skip = 2
        elif line.startswith("|") and not line.startswith(("|t:|", "|debug|")):
            out.append(line)
    return out
