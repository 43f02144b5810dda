"""pokeview's throughput beside baselines measured in the same run (`make bench`).

Reports games and decisions per second for bot games with full recording, at 1 and 16
concurrent games, and two baselines: Showdown alone replaying the same games' input logs in
pure Node on both cores (each game once, then the same games three times more, as before), and
poke-env's own players over a local Showdown server websocket, 10 battles at a time. Node's CPU
per game is set beside the replay's, both counted on every thread. Ratios, not wall-clock
limits: nothing here passes or fails.

Each is timed warm, as a long run plays: every Node process has played as many of the run's
games first (`--warm-up` a matchup: a bridge host, a replay process and poke-env's server about
200 each), past the first few hundred games in which V8 and Showdown's caches make a game
cheaper by a third. Then `--rounds` rounds, each of pokeview's 16 at a time, the replay of the
same games and poke-env, one right after the other (poke-env first every other round, each
once the machine is quiet): this machine's speed drifts by a third in minutes, so each ratio is
taken within a round, and the median of the rounds' is reported (docs/benchmarks.md, "Timed
warm, in rounds").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import asynccontextmanager, nullcontext
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
TARGET_NODE_CPU = 1.3
REPEATS = 3  # the replay's passes over the same games after the first


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


def _ended(proc: subprocess.Popen) -> RuntimeError:
    return RuntimeError(f"a replay process ended (exit code {proc.wait()})")


class Replays:
    """Showdown alone on both cores: two Node processes (benchmarks/replay.js), kept up for the
    whole run as the bridge's hosts are, each replaying half of what it is given."""

    def __init__(self, node_dir: Path, workdir: Path) -> None:
        self.workdir = workdir
        self.command = ["node", str(ROOT / "benchmarks" / "replay.js"), str(node_dir)]
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> Replays:
        for _ in range(2):
            self.procs.append(
                subprocess.Popen(
                    self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
                )
            )
        return self

    def __exit__(self, *exc: object) -> None:
        for proc in self.procs:
            try:
                proc.stdin.close()
                proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()

    def _ask(self, kind: str, logs: list[str], **more: int) -> list[dict]:
        for n, proc in enumerate(self.procs):
            path = self.workdir / f"{kind}{n}.json"
            path.write_text(json.dumps(logs[n::2]))
            try:
                proc.stdin.write(json.dumps({kind: str(path), **more}) + "\n")
                proc.stdin.flush()
            except BrokenPipeError:
                raise _ended(proc) from None
        answers = []
        for proc in self.procs:
            if not (line := proc.stdout.readline()):
                raise _ended(proc)
            answers.append(json.loads(line))
        return answers

    def warm(self, logs: list[str]) -> None:
        """Each process replays half of `logs` once: what a bridge host played before."""
        self._ask("warm", logs)

    def time(self, logs: list[str]) -> tuple[Rate, Rate]:
        """`first`: each game replayed once by the warm processes, as pokeview plays each game
        once on warm hosts; `repeat`: the same games replayed REPEATS more times (what this
        baseline was until 2026-12: the later passes find Showdown's caches filled by the
        first). CPU is counted on every thread, as the bridge's is."""
        outs = self._ask("time", logs, repeats=REPEATS)
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


@asynccontextmanager
async def poke_env_players(server, p1: str, p2: str, warm_up: int):
    """poke-env's players over the local Showdown server's websocket, 10 battles at a time,
    warmed on `warm_up` battles (the server's one simulator process, kept up for the whole
    run, warms as a bridge host does); yields a coroutine function timing `games` more."""
    from poke_env import AccountConfiguration, ServerConfiguration

    from pokeview.players.bots import ENGINES
    from pokeview.players.kinds import BOTS

    config = ServerConfiguration(
        server.websocket_url, "https://play.pokemonshowdown.com/action.php?"
    )
    tag = f"{os.getpid() % 10000}{p1[:3]}"  # (each matchup logs in its own two players)
    a, b = (
        ENGINES[BOTS[bot]](
            account_configuration=AccountConfiguration(f"bench{side}{tag}", None),
            server_configuration=config,
            max_concurrent_battles=10,
        )
        for side, bot in (("a", p1), ("b", p2))
    )
    await a.battle_against(b, n_battles=warm_up)

    async def rate(games: int) -> Rate:
        for player in (a, b):
            player.reset_battles()  # (what a player keeps of its finished battles)
        start = time.perf_counter()
        await a.battle_against(b, n_battles=games)
        seconds = time.perf_counter() - start
        turns = sum(bt.turn for bt in a.battles.values())
        # poke-env does not count decisions; two per turn is close (forced switches on top).
        return Rate(a.n_finished_battles, 2 * turns, seconds)

    yield rate


@dataclass
class Round:
    """One round of a matchup: pokeview 16 at a time, the replay of the same games and
    poke-env, one right after the other."""

    many: Rate
    first: Rate
    repeat: Rate
    poke_env: Rate | None

    def ratios(self) -> dict[str, float]:
        node = self.many.cpu_per_game["node"]
        return {
            "ratio_vs_replay_first": self.many.games_per_s / self.first.games_per_s,
            "ratio_vs_replay": self.many.games_per_s / self.repeat.games_per_s,
            "ratio_vs_poke_env": (
                self.many.games_per_s / self.poke_env.games_per_s if self.poke_env else float("nan")
            ),
            "node_cpu_vs_replay_first": node / self.first.cpu_per_game["node"],
            "node_cpu_vs_replay": node / self.repeat.cpu_per_game["node"],
        }


def cpu_busy_idle() -> tuple[int, int]:
    """The machine's busy and idle clock ticks so far, over every core (Linux /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return sum(fields) - idle, idle


async def settle(at_most_s: float = 10.0) -> None:
    """Waits until the machine is quiet (under a tenth of its CPU busy over a quarter second),
    at most `at_most_s`: what the last measurement left running (poke-env's server ending its
    battles, a collector) then lands in no other measurement's time."""
    try:
        before = cpu_busy_idle()
    except OSError:
        return
    end = time.monotonic() + at_most_s
    while time.monotonic() < end:
        await asyncio.sleep(0.25)
        after = cpu_busy_idle()
        busy, idle = after[0] - before[0], after[1] - before[1]
        if busy + idle and busy / (busy + idle) < 0.1:
            return
        before = after


def median(values) -> float:
    values = [v for v in values if v == v]  # (NaN where poke-env was skipped)
    return statistics.median(values) if values else float("nan")


def at_least_one(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # 160: at 64 (four waves of 16) the last wave's tail, one host idle while the other ends
    # its last games, was a large share of the time: random vs random measured 20.1 games/s
    # at 64 and 25.9 at 160, minutes apart.
    parser.add_argument(
        "--games", type=at_least_one, default=160, help="games per measurement at 16 at once"
    )
    parser.add_argument(
        "--warm-up",
        type=at_least_one,
        default=400,
        help="games of each matchup played before it is timed, 16 at a time (about 200 a "
        "bridge host; as many for each replay process, half as many for poke-env's server)",
    )
    parser.add_argument(
        "--rounds",
        type=at_least_one,
        default=4,
        help="rounds timed per matchup, every other one in the other order; each ratio is "
        "taken within a round, and the median of the rounds' is reported",
    )
    parser.add_argument("--port", type=int, default=8123, help="port for the local Showdown server")
    parser.add_argument("--skip-poke-env", action="store_true")
    args = parser.parse_args()
    from pokeview.cli import tune_gc
    from pokeview.sim.server import LocalServer

    tune_gc()  # as the command line does
    later.install()  # ...and its deriver: a game played whole is derived when first read
    node_dir = install.ensure_installed()

    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        store = open_store(workdir / "bench.db")

        def logs(ids: list[int]) -> list[str]:
            return [store.game(i).input_log for i in ids]

        async def matchup(bridge: Bridge, replay: Replays, server, p1: str, p2: str):
            # Both Node hosts warm first, 16 at a time (the second host starts only then), on
            # the matchup's own games: a JIT warmed on random games only ran another matchup's
            # first games cold. The replay's processes and poke-env's server play as many.
            _, warm = await pokeview_rate(bridge, store, p1, p2, args.warm_up, 16, f"warm {p1}")
            one, ones = await pokeview_rate(
                bridge, store, p1, p2, max(8, args.games // 8), 1, "one"
            )
            replay.warm(logs(warm + ones))
            rounds = []
            async with poke_env_or_none(server, p1, p2, args.warm_up // 2) as poke_env:
                for n in range(args.rounds):
                    # Every other round poke-env goes first: a drift of the machine's speed
                    # within rounds then leans neither way.
                    pe = await timed_poke_env(poke_env, args.games) if n % 2 else None
                    await settle()
                    many, ids = await pokeview_rate(
                        bridge, store, p1, p2, args.games, 16, f"many {n}"
                    )
                    await settle()
                    first, repeat = replay.time(logs(ids))
                    if not n % 2:
                        pe = await timed_poke_env(poke_env, args.games)
                    rounds.append((Round(many, first, repeat, pe), ids))
            return one, rounds

        async def measure():
            server = (
                nullcontext() if args.skip_poke_env else LocalServer(args.port, log_battles=False)
            )
            with Replays(node_dir, workdir) as replay, server as running:
                async with Bridge() as bridge:
                    return {m: await matchup(bridge, replay, running, *m) for m in MATCHUPS}

        measured = asyncio.run(measure())
        report: dict[str, dict] = {}
        for (p1, p2), (one, timed) in measured.items():
            rounds, ids = [r for r, _ in timed], timed[0][1]
            read_s, played = first_read_s(store, ids)  # (the first round's games)
            ratios = [r.ratios() for r in rounds]
            entry = {
                "rounds": len(rounds),
                "pokeview_1_games_per_s": one.games_per_s,
                "pokeview_1_decisions_per_s": one.decisions_per_s,
                "pokeview_16_games_per_s": median(r.many.games_per_s for r in rounds),
                "pokeview_16_decisions_per_s": median(r.many.decisions_per_s for r in rounds),
                "replay_2_cores_games_per_s": median(r.repeat.games_per_s for r in rounds),
                "replay_first_2_cores_games_per_s": median(r.first.games_per_s for r in rounds),
                "poke_env_10_games_per_s": median(
                    r.poke_env.games_per_s if r.poke_env else float("nan") for r in rounds
                ),
                "poke_env_10_decisions_per_s": median(
                    r.poke_env.decisions_per_s if r.poke_env else float("nan") for r in rounds
                ),
                **{key: median(x[key] for x in ratios) for key in ratios[0]},
                "cpu_s_per_game": {
                    kind: median(r.many.cpu_per_game[kind] for r in rounds)
                    for kind in ("node", "python")
                },
                "replay_cpu_s_per_game": median(r.repeat.cpu_per_game["node"] for r in rounds),
                "replay_first_cpu_s_per_game": median(r.first.cpu_per_game["node"] for r in rounds),
                "each_round": ratios,
                "played_whole_share": played / len(ids),
                "first_read_s_per_played_game": read_s,
            }
            report[f"{p1} vs {p2}"] = entry
        store.close()

    print_report(report)
    out = ROOT / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "throughput.json").write_text(json.dumps(report, indent=2))
    return 0


async def timed_poke_env(poke_env, games: int) -> Rate | None:
    if poke_env is None:
        return None
    await settle()
    return await poke_env(games)


@asynccontextmanager
async def poke_env_or_none(server, p1: str, p2: str, warm_up: int):
    if server is None:
        yield None
        return
    async with poke_env_players(server, p1, p2, warm_up) as rate:
        yield rate


def print_report(report: dict[str, dict]) -> None:
    print(f"\nBot-game throughput, gen9randombattle, full recording ({os.cpu_count()} cores)")
    print("(each rate the median of the rounds'; each ratio taken within each round)\n")
    print(f"{'matchup':26} {'what':34} {'games/s':>8} {'decisions/s':>12}")

    def line(name: str, what: str, per_s: float, decisions: float | None = None) -> None:
        if per_s != per_s:
            return
        more = f"{decisions:12.0f}" if decisions is not None else ""
        print(f"{name:26} {what:34} {per_s:8.2f} {more}")

    def rounds(r: dict, key: str, target: float) -> str:
        each = ", ".join(f"{v[key]:.2f}" for v in r["each_round"])
        return f"{each} (median {r[key]:.2f}; target {target})"

    for name, r in report.items():
        line(
            name,
            "pokeview, 1 game at a time",
            r["pokeview_1_games_per_s"],
            r["pokeview_1_decisions_per_s"],
        )
        line(
            "",
            "pokeview, 16 at a time",
            r["pokeview_16_games_per_s"],
            r["pokeview_16_decisions_per_s"],
        )
        line("", "baseline: replay in Node, 2 cores", r["replay_first_2_cores_games_per_s"])
        line("", "  the same games again (as before)", r["replay_2_cores_games_per_s"])
        line(
            "",
            "baseline: poke-env websocket, 10",
            r["poke_env_10_games_per_s"],
            r["poke_env_10_decisions_per_s"],
        )
        cpu = r["cpu_s_per_game"]
        print(
            f"{'':26} Node CPU per game {cpu['node']:.3f} s (Python {cpu['python']:.3f} s), "
            f"the replay's {r['replay_first_cpu_s_per_game']:.3f} s "
            f"(the same games again: {r['replay_cpu_s_per_game']:.3f} s)"
        )
        if r["played_whole_share"]:
            print(
                f"{'':26} {r['played_whole_share']:.0%} played whole in the bridge; each one's "
                f"first read derives its steps: {r['first_read_s_per_played_game']:.3f} s"
            )
        print(f"{'':26} in each round:")
        print(f"{'':28} to the replay {rounds(r, 'ratio_vs_replay_first', TARGET_VS_REPLAY)}")
        if r["ratio_vs_poke_env"] == r["ratio_vs_poke_env"]:
            print(f"{'':28} to poke-env {rounds(r, 'ratio_vs_poke_env', TARGET_VS_POKE_ENV)}")
        print(
            f"{'':28} Node CPU to the replay's "
            f"{rounds(r, 'node_cpu_vs_replay_first', TARGET_NODE_CPU)}"
            + ("" if name == "random vs random" else " (the target is for random games)")
        )
        print(
            f"{'':28} (to the same games again: {r['ratio_vs_replay']:.2f}; Node CPU "
            f"{r['node_cpu_vs_replay']:.2f})\n"
        )


if __name__ == "__main__":
    sys.exit(main())
