"""The app's speed (`make bench`), as a person feels it. Reports; asserts nothing.

- One step forward or back on a 300-turn game: the time from the key to the end of the last
  paint that draws the new content (the board, the log, the decision pane), timed inside the
  app, so not Textual's test harness (`pilot.press` costs tens of milliseconds by itself: it
  is shown less a key that does nothing, with the CPU time it took, idle work included).
  The CPU time this process spent from the key to that paint is shown too: on a loaded
  machine the wall clock also counts other processes' turns. Target: < 16 ms.
- `pokeview watch GAME` as a real process in a pseudo-terminal (120x40), from starting it to
  the board being painted. Target: < 0.8 s.
- The home screen on 10,000 games, from the app starting to the first rows shown. Target:
  < 300 ms.

The 300-turn game is real: six Magikarp that know only Splash on each side, in
gen9customgame, played on Showdown until the turn limit makes it a tie.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pokeview.app import make_app  # noqa: E402
from pokeview.battle import seeds  # noqa: E402
from pokeview.battle.loop import play_game  # noqa: E402
from pokeview.battle.spec import GameSpec  # noqa: E402
from pokeview.players import make_player  # noqa: E402
from pokeview.screens.home import HomeScreen  # noqa: E402
from pokeview.screens.watch import WatchScreen  # noqa: E402
from pokeview.sim.client import Bridge  # noqa: E402
from pokeview.store import open_store  # noqa: E402

SPLASH = "]".join(["Magikarp||||splash|||||||"] * 6)
STEPS = 60


async def long_game(db: Path) -> int:
    store = open_store(db)
    async with Bridge() as bridge:
        result = await play_game(
            GameSpec(
                format="gen9customgame",
                seed=seeds.game_seed("bench-300"),
                p1=make_player("random"),
                p2=make_player("random"),
                teams={"p1": SPLASH, "p2": SPLASH},
            ),
            bridge=bridge,
            store=store,
            whole=False,  # recorded step by step: the viewer's paint, not a first derivation
        )
    store.close()
    return result.game_id


def many_games(db: Path, source: int, n: int = 10_000) -> None:
    import sqlite3

    # Benchmark data only: copies of one game's row, written straight into the file.
    conn = sqlite3.connect(db)
    columns = [row[1] for row in conn.execute("pragma table_info(games)") if row[1] != "id"]
    names = ", ".join(columns)
    with conn:
        for _ in range(n):
            conn.execute(
                f"insert into games ({names}) select {names} from games where id = ?", (source,)
            )
    conn.close()


CONTENT = {"Board", "BattleLog", "DecisionPane"}


def watch_paints(screen) -> list[tuple[float, float, set[str]]]:  # noqa: ANN001 - a Screen
    """Record when each paint of the screen ends (wall clock and this process's CPU time), and
    which widgets it drew."""
    paints: list[tuple[float, float, set[str]]] = []
    real = screen._compositor_refresh

    def refresh() -> None:
        drawn = {w.__class__.__name__ for w in screen._dirty_widgets}
        real()
        paints.append((time.perf_counter(), time.process_time(), drawn))

    screen._compositor_refresh = refresh
    return paints


async def key_to_content(pilot, paints: list, key: str, count: int) -> dict[str, float]:
    """Medians over `count` presses of `key`:
    - "content": from the key to the end of the last paint, within the press, that drew the
      board, the log or the decision pane (all of the new content on screen);
    - "first": the same to the first such paint;
    - "content cpu": this process's CPU time from the key to that last paint (it holds up on a
      loaded machine, where the wall clock also counts other processes' turns);
    - "press", "cpu": the harness's `pilot.press`, and the CPU time it took, idle work after
      the paint included."""
    times: dict[str, list[float]] = {n: [] for n in ("content", "first", "content cpu")}
    times["press"], times["cpu"] = [], []
    for _ in range(count):
        paints.clear()
        started, cpu_started = time.perf_counter(), time.process_time()
        await pilot.press(key)
        times["press"].append(time.perf_counter() - started)
        times["cpu"].append(time.process_time() - cpu_started)
        content = [(end, cpu) for end, cpu, drawn in paints if drawn & CONTENT]
        if content:
            times["first"].append(content[0][0] - started)
            times["content"].append(content[-1][0] - started)
            times["content cpu"].append(content[-1][1] - cpu_started)
    return {n: statistics.median(v) if v else float("nan") for n, v in times.items()}


async def measure_steps(db: Path, game_id: int, steps: int = STEPS) -> dict[str, dict]:
    """Per key: the medians of `key_to_content`, less a key that does nothing where it is the
    harness's (its press and CPU time); a no-op key paints no content."""
    app = make_app(db, lambda: WatchScreen(db, game_id, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        while getattr(app.screen, "replay", None) is None:
            await pilot.pause(0.005)
        screen = app.screen
        paints = watch_paints(screen)
        await pilot.press("end", "home")
        await pilot.pause(0.2)
        await key_to_content(pilot, paints, "x", 10)  # warm up
        noop = await key_to_content(pilot, paints, "x", steps)
        screen.position = len(screen.frames) // 2
        await pilot.pause(0.1)
        out: dict[str, dict] = {"frames": {"count": len(screen.frames)}, "noop": noop}
        for name, key, count in (
            ("forward", "full_stop", steps),
            ("back", "comma", steps),
            ("turn", "right", steps // 2),
            ("side", "s", 9),
        ):
            got = await key_to_content(pilot, paints, key, count)
            got["press"] -= noop["press"]
            got["cpu"] -= noop["cpu"]
            out[name] = got
        return out


def first_paint(db: Path, game_id: int, runs: int = 5) -> list[float]:
    """`pokeview watch GAME` in a pseudo-terminal: seconds until the board is on screen."""
    times = []
    for _ in range(runs):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "pokeview", "watch", str(game_id), "--db", str(db)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        seen = b""
        painted = None
        deadline = started + 20
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
                if b"viewing p1" in seen and b"frame 1/" in seen:  # the board and the status
                    painted = time.perf_counter() - started
                    break
        os.write(master, b"q")
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(master)
        if painted is not None:
            times.append(painted)
    return times


async def measure_home(db: Path) -> float:
    app = make_app(db)
    started = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        while not (isinstance(app.screen, HomeScreen) and app.screen.loaded_rows):
            await pilot.pause(0.005)
        return time.perf_counter() - started


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        game_id = asyncio.run(long_game(db))
        store = open_store(db)
        turns = store.game(game_id).turns
        store.close()
        steps = asyncio.run(measure_steps(db, game_id))
        paints = first_paint(db, game_id)
        many_games(db, game_id)
        # One start swings by half on a loaded machine (seen: 198 ms, then 740 ms, for the same
        # code): the median of 5, as for `watch`.
        home = statistics.median(asyncio.run(measure_home(db)) for _ in range(5))
    ms = 1000
    print("\nThe app: time from a key to the screen's updated content (120x40, headless)\n")
    print(
        f"a {turns}-turn game, {steps['frames']['count']} frames. Medians. First figure: from "
        "the key to the end of the paint that shows the new content (the first such paint in "
        "brackets when earlier); then the CPU time this process spent until then (steady when "
        "the machine is loaded); then Textual's `pilot.press` less a key that does nothing "
        f"({ms * steps['noop']['press']:.1f} ms) and its CPU time less the no-op's, idle work "
        "after the paint included."
    )
    rows = [
        ("one step forward (.)", "forward"),
        ("one step back (,)", "back"),
        ("one turn forward (→)", "turn"),
        ("switch side (s)", "side"),
    ]
    for label, name in rows:
        got = steps[name]
        first = f" (first {ms * got['first']:.1f})" if got["first"] < got["content"] else ""
        print(
            f"  {label:58} {ms * got['content']:8.1f} ms{first}   "
            f"(CPU {ms * got['content cpu']:.1f} ms; press {ms * got['press']:.1f} ms, "
            f"CPU {ms * got['cpu']:.1f} ms; target < 16 ms)"
        )
    if paints:
        paint = statistics.median(paints)
        print(
            f"  {'`pokeview watch GAME` in a terminal, start to first paint':58} "
            f"{ms * paint:8.1f} ms   (target < 800 ms; median of {len(paints)})"
        )
    else:
        print("  `pokeview watch GAME`: the first paint was not seen")
    print(
        f"  {'home screen with 10,001 games, first rows (median of 5)':58} {ms * home:8.1f} ms   "
        "(target < 300 ms)"
    )
    print(f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores while measuring)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
