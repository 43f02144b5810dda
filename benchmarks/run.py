"""pokeview's throughput beside baselines measured in the same run (`make bench`).

Reports games and decisions per second for bot games with full recording, at 1 and 16
concurrent games, and two baselines: Showdown alone replaying the same games' input logs in
pure Node on both cores (each game once, by processes warmed on the matchup's other games, and
the same games three times more, as before), and poke-env's own players over a local Showdown
server websocket, 10 battles at a time. Node's CPU per game is set beside the replay's, both
counted on every thread. Ratios, not wall-clock limits: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pokeview.battle import later, seeds  # noqa: E402
from pokeview.battle.loop import play_game  # noqa: E402
from pokeview.battle.spec import GameSpec  # noqa: E402
from pokeview.players import make_player  # noqa: E402
from pokeview.sim import install  # noqa: E402
from pokeview.sim.client import Bridge  # noqa: E402
from pokeview.store import open_store  # noqa: E402

MATCHUPS = [("random", "random"), ("heuristic", "max-damage")]
TARGET_VS_REPLAY = 0.55
TARGET_VS_POKE_ENV = 2.5


@dataclass
class Rate:
    games: int
    decisions: int
    seconds: float
    cpu_per_game: dict[str, float] | None = None  # CPU seconds per game: node, python

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds


async def pokeview_rate(bridge, store, p1, p2, games, concurrency, text) -> tuple[Rate, list[int]]:
    semaphore = asyncio.Semaphore(concurrency)

    async def one(pair: int):
        async with semaphore:
            return await play_game(
                GameSpec(
                    format="gen9randombattle",
                    seed=seeds.game_seed(text, pair),
                    p1=make_player(p1),
                    p2=make_player(p2),
                    seed_text=text,
                    pair=pair,
                ),
                bridge=bridge,
                store=store,
            )

    start, node_before, python_before = time.perf_counter(), node_cpu(bridge), time.process_time()
    results = await asyncio.gather(*[one(i) for i in range(games)])
    seconds = time.perf_counter() - start
    cpu = {"node": node_cpu(bridge) - node_before, "python": time.process_time() - python_before}
    store.commit()
    ids = [r.game_id for r in results]
    # (A game played whole in the bridge counts its decisions' times, not derived for this.)
    decisions = sum(len(store.played_times(i) or store.decisions(i)) for i in ids)
    return Rate(len(ids), decisions, seconds, {k: v / len(ids) for k, v in cpu.items()}), ids


def first_read_s(store, ids: list[int], at_most: int = 16) -> tuple[float, int]:
    """Seconds a game played whole in the bridge (`body.PLAYED`) takes to read the first time
    (its steps derived in Node, then kept), over up to `at_most` of them; and how many of the
    games were played so. Nothing else costs this: a game played step by step is read as kept."""
    played = [i for i in ids if store.played_times(i) is not None]
    start = time.perf_counter()
    for i in played[:at_most]:
        store.events(i)
    taken = played[:at_most]
    return ((time.perf_counter() - start) / len(taken) if taken else 0.0), len(played)


def node_cpu(bridge) -> float:
    """CPU seconds the bridge's Node hosts have used (Linux /proc); 0 where unknown."""
    total = 0.0
    for pid in bridge.pids():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def replay_rate(
    store, ids: list[int], warm_ids: list[int], node_dir: Path, workdir: Path
) -> tuple[Rate, Rate]:
    """Showdown alone on both cores: two Node processes, each replaying half the input logs.

    Two figures: `first`, each game replayed once by a process warmed on other games (the
    matchup's warm-up games, `warm_ids`), as pokeview plays each game once on warm hosts; and
    `repeat`, the same games replayed three more times (what this baseline was until 2026-12:
    the later passes find Showdown's caches filled by the first). CPU is counted on every
    thread, as the bridge's is."""
    logs = [store.game(i).input_log for i in ids]
    warm = workdir / "warm.json"
    warm.write_text(json.dumps([store.game(i).input_log for i in warm_ids]))
    procs = []
    for n, half in enumerate([logs[0::2], logs[1::2]]):
        path = workdir / f"logs{n}.json"
        path.write_text(json.dumps(half))
        command = ["node", str(ROOT / "benchmarks" / "replay.js"), str(node_dir), str(path)]
        procs.append(
            subprocess.Popen([*command, "3", str(warm)], stdout=subprocess.PIPE, text=True)
        )
    outs = [json.loads(p.communicate()[0]) for p in procs]
    decisions = sum(
        len([x for x in log.split("\n") if x.startswith((">p1 ", ">p2 "))]) for log in logs
    )

    def rate(which: str) -> Rate:
        games = sum(o[which]["games"] for o in outs)
        games_per_s = sum(o[which]["games"] / o[which]["seconds"] for o in outs)
        cpu = sum(o[which]["cpu_seconds"] for o in outs) / games
        # A Rate over one second of the two processes' combined throughput.
        return Rate(len(logs), decisions, len(logs) / games_per_s, {"node": cpu})

    return rate("first"), rate("repeat")


def poke_env_rate(p1: str, p2: str, games: int, port: int) -> Rate:
    """poke-env's players over a local Showdown server websocket, 10 battles at a time."""
    from poke_env import AccountConfiguration, ServerConfiguration

    from pokeview.players.bots import ENGINES
    from pokeview.players.kinds import BOTS
    from pokeview.sim.server import LocalServer

    async def play(server: LocalServer) -> Rate:
        config = ServerConfiguration(
            server.websocket_url, "https://play.pokemonshowdown.com/action.php?"
        )
        tag = str(os.getpid())[-4:]
        a = ENGINES[BOTS[p1]](
            account_configuration=AccountConfiguration(f"bencha{tag}", None),
            server_configuration=config,
            max_concurrent_battles=10,
        )
        b = ENGINES[BOTS[p2]](
            account_configuration=AccountConfiguration(f"benchb{tag}", None),
            server_configuration=config,
            max_concurrent_battles=10,
        )
        await a.battle_against(b, n_battles=20)  # warm-up: the server's JIT and the sockets
        before = a.n_finished_battles
        turns_before = sum(bt.turn for bt in a.battles.values())
        start = time.perf_counter()
        await a.battle_against(b, n_battles=games)
        seconds = time.perf_counter() - start
        turns = sum(bt.turn for bt in a.battles.values()) - turns_before
        # poke-env does not count decisions; two per turn is close (forced switches come on top).
        return Rate(a.n_finished_battles - before, 2 * turns, seconds)

    with LocalServer(port, log_battles=False) as server:
        return asyncio.run(play(server))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # 160: at 64 (four waves of 16) the last wave's tail, one host idle while the other ends
    # its last games, was a large share of the time: random vs random measured 20.1 games/s
    # at 64 and 25.9 at 160, minutes apart.
    parser.add_argument(
        "--games", type=int, default=160, help="games per measurement at 16 at once"
    )
    parser.add_argument("--port", type=int, default=8123, help="port for the local Showdown server")
    parser.add_argument("--skip-poke-env", action="store_true")
    args = parser.parse_args()
    from pokeview.cli import tune_gc

    tune_gc()  # as the command line does
    later.install()  # ...and its deriver: a game played whole is derived when first read
    node_dir = install.ensure_installed()
    report: dict[str, dict[str, float]] = {}

    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        store = open_store(workdir / "bench.db")

        async def measure():
            out = {}
            async with Bridge() as bridge:
                await pokeview_rate(bridge, store, "random", "random", 48, 16, "warm-up")
                for p1, p2 in MATCHUPS:
                    # Each matchup warms both Node hosts first: the second host starts only at
                    # 16 at a time, and a JIT warmed on random games only ran the other
                    # matchup's first 32 games on it cold, slower than 1 at a time on the first.
                    _, warm = await pokeview_rate(bridge, store, p1, p2, 32, 16, f"warm-up {p1}")
                    one, ones = await pokeview_rate(
                        bridge, store, p1, p2, max(8, args.games // 8), 1, "one"
                    )
                    many, ids = await pokeview_rate(bridge, store, p1, p2, args.games, 16, "many")
                    out[(p1, p2)] = (one, many, ids, warm + ones)
            return out

        measured = asyncio.run(measure())
        rows = []
        for (p1, p2), (one, many, ids, warm_ids) in measured.items():
            first, replay = replay_rate(store, ids, warm_ids, node_dir, workdir)
            read_s, played = first_read_s(store, ids)
            pe = None if args.skip_poke_env else poke_env_rate(p1, p2, args.games, args.port)
            name = f"{p1} vs {p2}"
            report[name] = {
                "pokeview_1_games_per_s": one.games_per_s,
                "pokeview_1_decisions_per_s": one.decisions_per_s,
                "pokeview_16_games_per_s": many.games_per_s,
                "pokeview_16_decisions_per_s": many.decisions_per_s,
                "replay_2_cores_games_per_s": replay.games_per_s,
                "replay_first_2_cores_games_per_s": first.games_per_s,
                "poke_env_10_games_per_s": pe.games_per_s if pe else float("nan"),
                "ratio_vs_replay": many.games_per_s / replay.games_per_s,
                "ratio_vs_replay_first": many.games_per_s / first.games_per_s,
                "ratio_vs_poke_env": many.games_per_s / pe.games_per_s if pe else float("nan"),
                "cpu_s_per_game": many.cpu_per_game,
                "replay_cpu_s_per_game": replay.cpu_per_game["node"],
                "replay_first_cpu_s_per_game": first.cpu_per_game["node"],
                "played_whole_share": played / len(ids),
                "first_read_s_per_played_game": read_s,
            }
            rows.append((name, one, many, first, replay, pe))
        store.close()

    print(f"\nBot-game throughput, gen9randombattle, full recording ({os.cpu_count()} cores)\n")
    print(f"{'matchup':26} {'what':34} {'games/s':>8} {'decisions/s':>12}")

    def line(name: str, what: str, rate: Rate | None, decisions: bool = True) -> None:
        if rate is None:
            return
        per_s = f"{rate.decisions_per_s:12.0f}" if decisions else ""
        print(f"{name:26} {what:34} {rate.games_per_s:8.2f} {per_s}")

    for name, one, many, first, replay, pe in rows:
        line(name, "pokeview, 1 game at a time", one)
        line("", "pokeview, 16 at a time", many)
        line("", "baseline: replay in Node, 2 cores", first, decisions=False)
        line("", "  the same games again (as before)", replay, decisions=False)
        line("", "baseline: poke-env websocket, 10", pe)
        r = report[name]
        if many.cpu_per_game:
            node, python = many.cpu_per_game["node"], many.cpu_per_game["python"]
            print(
                f"{'':26} Node CPU per game {node:.3f} s (Python {python:.3f} s): "
                f"{node / r['replay_first_cpu_s_per_game']:.2f} times the replay's "
                f"{r['replay_first_cpu_s_per_game']:.3f} s, "
                f"{node / r['replay_cpu_s_per_game']:.2f} times its repeat's "
                f"{r['replay_cpu_s_per_game']:.3f} s (target 1.3)"
            )
        if r["played_whole_share"]:
            print(
                f"{'':26} {r['played_whole_share']:.0%} played whole in the bridge; each one's "
                f"first read derives its steps: {r['first_read_s_per_played_game']:.3f} s"
            )
        print(
            f"{'':26} ratio to replay {r['ratio_vs_replay_first']:.2f} "
            f"(the same games again: {r['ratio_vs_replay']:.2f}; target {TARGET_VS_REPLAY}), "
            f"to poke-env {r['ratio_vs_poke_env']:.2f} (target {TARGET_VS_POKE_ENV})\n"
        )
    out = ROOT / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "throughput.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
