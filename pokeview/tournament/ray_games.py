"""`--ray`: a run's or ladder's games played on a Ray cluster, recorded here.

The driver (this process) keeps the one SQLite record. Each Ray worker is a `GameWorker` actor
with its own bridge; it plays whole games and sends each back as rows, which are stored here in
one transaction. So the record never holds half of a game played elsewhere, and a run stopped
or killed resumes exactly as a local one: what is recorded is done, the rest is played again.
A worker that dies mid-game (its process killed, its machine gone) is restarted by Ray, and the
game is played again from its seed on another worker: the same seed gives the same game.

Bot games go to the cluster; model games only when asked (`models`), and games of people or
programs on the local server never.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import dataclasses
import ipaddress
import logging
import os
import signal
import socket
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokeview import __version__
from pokeview.battle.loop import GameResult
from pokeview.battle.spec import GameSpec
from pokeview.errors import PokeviewError
from pokeview.game.bridge import Start
from pokeview.players.kinds import PlayerKind
from pokeview.sim import install
from pokeview.store.store import Store
from pokeview.tournament.engine import kinds_of
from pokeview.tournament.order import GameOrder
from pokeview.tournament.ray_worker import Failed, GameWorker, Readiness, Shipped, first_line

ATTEMPTS = 5  # workers a game is tried on before the run stops on it
CONNECT_SECONDS = 5.0  # for a cluster's address to answer at all
READY_SECONDS = 120.0  # for every worker to start (a cold node imports pokeview and starts Node)
INSTALL = "pip install 'pokeview[ray]'"
# Bot games sent to a worker in one call at most. Ray's cost is by call: 4 a call took the CPU
# of the driver and a worker beside Node's from 6 to 3.5 ms a game (600 games, Ray's start left
# out); more would hold a game's answer back longer for the longest game beside it.
BATCH = 4
SHOWN_HOSTS = 3  # machines named when the workers are ready
NAMESPACE = "pokeview"  # Ray's namespace of pokeview's drivers, and of the pool's named workers
POOL_PREFIX = "worker-"  # a pool's workers are worker-0, worker-1, ...


_Waiting = tuple[GameOrder, tuple[str, str] | None, "asyncio.Future[Shipped | Failed]"]


@dataclass(slots=True)
class _Worker:
    actor: Any
    host: str
    showdown: str | None = None
    playing: int = 0
    waiting: list[_Waiting] = field(default_factory=list)  # bot games to go in the next call


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise PokeviewError(f"--ray needs Ray, which is not installed: {INSTALL}") from None
    return ray


def _no_reset_at_exit() -> None:
    """Ray's bundled colorama, imported when Ray starts a cluster here, writes a colour reset
    to the terminal as the process exits: through pokeview's control-free output, its letters
    ("[0m") would follow the run's last line."""
    colorama = sys.modules.get("colorama.initialise")
    if colorama is not None:
        atexit.unregister(colorama.reset_all)


def join(address: str | None) -> Any:
    """Ray, joined to the cluster at `address` (None: Ray's own choice) in pokeview's
    namespace, or one line saying why not."""
    named = address if address and address != "auto" else os.environ.get("RAY_ADDRESS")
    # (Ray checks a ray:// address, Ray Client's, and its own words "auto" and "local")
    if named and "://" not in named and named not in ("auto", "local"):
        _answers(named)
        if _on_loopback(named):
            # Ray rewrites a loopback address to this machine's own, where a cluster
            # started on 127.0.0.1 does not listen; this switch keeps the driver on loopback.
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    ray = _ray()
    stop = signal.getsignal(signal.SIGTERM)
    said: list[str] = []
    try:
        # (not where Ray may start a cluster here: its daemons would inherit the file)
        with _native_stderr_kept(said) if address else contextlib.nullcontext():
            ray.init(
                address=address,
                namespace=NAMESPACE,
                logging_level=logging.ERROR,
                log_to_driver=False,
                include_dashboard=False,
                configure_logging=True,
            )
    except (OSError, RuntimeError, ValueError) as exc:  # (a socket path too long, say)
        if "InvalidAuthToken" in "".join(said):
            raise PokeviewError(
                f"the Ray cluster at {address or 'auto'} wants its token (Ray's token "
                "authentication), and this machine sent none or another: set RAY_AUTH_MODE=token "
                "and the cluster's token in RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or "
                "~/.ray/auth_token"
            ) from None
        raise PokeviewError(
            f"cannot start or join the Ray cluster at {address or 'auto'}: {first_line(exc)}"
        ) from None
    finally:
        if stop is not None:  # Ray's own would exit at once: a run stops as pokeview's does
            signal.signal(signal.SIGTERM, stop)
        _no_reset_at_exit()
    return ray


@contextlib.contextmanager
def _native_stderr_kept(said: list[str]) -> Iterator[None]:
    """What Ray's C++ writes to this process's stderr while it joins (a cluster that refuses
    the driver's token: a line a second for 20 s) kept aside in `said`, for the one line that
    says why; what a successful join wrote is dropped with it."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as kept:
        os.dup2(kept.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            kept.seek(0)
            said.append(kept.read(1 << 20).decode(errors="replace"))


def worker_actor(ray: Any) -> Any:
    """`GameWorker` as Ray's actor class: a CPU each, started again by Ray when it dies."""
    return ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=0)(GameWorker)


def pooled(ray: Any) -> list[Any]:
    """The workers `pokeview ray-pool` keeps on the cluster (detached, named in pokeview's
    namespace), in the order of their names."""
    names = [n for n in ray.util.list_named_actors() if n.startswith(POOL_PREFIX)]
    names.sort(key=lambda n: (len(n), n))  # worker-2 before worker-10
    found = []
    for name in names:
        with contextlib.suppress(ValueError):  # (stopped since it was listed)
            found.append(ray.get_actor(name))
    return found


def _answers(address: str) -> None:
    """One clear line when nothing listens at a cluster's address (Ray itself would retry for
    minutes)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise PokeviewError(f"--ray {address}: give a Ray cluster's address as HOST:PORT")
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        raise PokeviewError(
            f"no Ray cluster answers at {address} ({exc.strerror or exc}); start one there with "
            "`ray start --head`, or check the address"
        ) from None


def _on_loopback(address: str) -> bool:
    host = address.rpartition(":")[0].strip("[]")
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def placed(hosts: list[str]) -> str:
    """How many workers are on each machine: '2 on vm, 1 on gpu-3 and 4 more machines'."""
    count = Counter(hosts)
    named = ", ".join(f"{n} on {host}" for host, n in list(count.items())[:SHOWN_HOSTS])
    left = len(count) - SHOWN_HOSTS
    return named + (f" and {left} more machine{'s' if left != 1 else ''}" if left > 0 else "")


class RayGames:
    """The cluster as a remote of the engine (`tournament.engine.Remote`)."""

    def __init__(self, ray: Any, workers: list[_Worker], *, models: bool, kept: int = 0) -> None:
        self.ray = ray
        self.workers = workers
        self.models = models
        self.kept = kept  # of `workers`, the first are the pool's: they outlive the run
        self.players_files: dict[str, tuple[str, str] | None] = {}
        self.played_again = 0  # games started again on another worker (one died under them)
        self.calls: set[asyncio.Task[None]] = set()  # answers awaited from the workers
        self.sent: set[Any] = set()  # their calls (Ray's object refs), to cancel at a stop

    @classmethod
    async def start(
        cls,
        address: str | None,
        *,
        workers: int | None = None,
        models: bool = False,
        worker_env: dict[str, str] | None = None,
        warm: Start | None = None,
    ) -> RayGames:
        """Join the cluster at `address` (None: Ray's own choice: RAY_ADDRESS, a cluster
        started on this machine with `ray start`, or a new one here), take `workers` workers
        (default: the pool's if `pokeview ray-pool` keeps one there, else one per CPU of the
        cluster), the pool's first and actors started for this run for the rest, and ask each
        whether it can play (each warms its simulator with `warm`, the run's first game).
        Anything that stops it is one line, before a game is played."""
        ray = join(address)
        try:
            kept = [] if worker_env else pooled(ray)  # (a pool's workers have their own env)
            count = workers or len(kept) or max(1, int(ray.cluster_resources().get("CPU", 1)))
            kept = kept[:count]
            options: dict[str, Any] = {"scheduling_strategy": "SPREAD"}
            if worker_env:
                options["runtime_env"] = {"env_vars": worker_env}
            more = count - len(kept)
            free = int(ray.available_resources().get("CPU", 0))
            if kept and more > free:  # (the pool holds its CPUs: Ray would wait for ever)
                raise PokeviewError(
                    f"--ray-workers {count}: `pokeview ray-pool` keeps {len(kept)} workers on the "
                    f"cluster and it has {free} free CPUs for the {more} more: ask for "
                    f"{len(kept) + free} or fewer, or stop the pool"
                )
            actors = kept + [worker_actor(ray).options(**options).remote() for _ in range(more)]
            said = await ask_ready(ray, actors, warm, kept=len(kept))
            games = cls(
                ray,
                [_Worker(a, r.host, r.showdown) for a, r in zip(actors, said, strict=True)],
                models=models,
                kept=len(kept),
            )
            games.same_showdown(install.pinned_showdown())
        except BaseException:
            ray.shutdown()
            raise
        return games

    def ready_line(self) -> str:
        """What the person reads once every worker is ready: how many, and on which machines
        (as the workers name them: shown through the control-free console)."""
        count = len(self.workers)
        kept = f" ({self.kept} kept by `pokeview ray-pool`)" if self.kept else ""
        where = placed([worker.host for worker in self.workers])
        return f"{count} Ray worker{'s' if count != 1 else ''} ready{kept}: {where}"

    @property
    def showdown(self) -> str | None:
        return self.workers[0].showdown

    def same_showdown(self, here: str | None) -> None:
        """Every worker's Showdown is the one this machine's pokeview pins, which reads the
        record again (`watch`, `verify`); the record says which played."""
        for worker in self.workers:
            if worker.showdown != here:
                raise PokeviewError(
                    f"the Ray worker on {worker.host} has Showdown {worker.showdown}, this "
                    f"machine {here}: run `pokeview setup` with the same pokeview on every node"
                )

    def takes(self, kinds: set[str]) -> bool:
        return kinds <= ({PlayerKind.BOT, PlayerKind.LLM} if self.models else {PlayerKind.BOT})

    async def play(self, order: GameOrder, store: Store, spec: GameSpec) -> GameResult:
        """Play the game on the least busy worker, again on another when a worker dies under
        it (or its bridge does), and store it here in one transaction."""
        players = self._players_file(order.players_file)
        # A model's game takes minutes: it is not held back for the games sent with it.
        batched = kinds_of(spec.players.values()) == {PlayerKind.BOT}
        tried: set[int] = set()
        why = ""
        for attempt in range(ATTEMPTS):
            worker = self._pick(tried)
            worker.playing += 1
            try:
                sent = await self._send(worker, order, players, batched=batched)
            except self.ray.exceptions.RayTaskError as exc:  # the whole call raised there
                why = f"on {worker.host}: {first_line(exc.cause or exc)}"
            except (
                self.ray.exceptions.RayActorError,
                self.ray.exceptions.ActorUnavailableError,
            ) as exc:
                why = f"the worker on {worker.host} died ({type(exc).__name__})"
            else:
                if isinstance(sent, Failed):
                    if sent.stops:  # what a run here would stop on too
                        raise PokeviewError(f"on the Ray worker on {worker.host}: {sent.message}")
                    why = f"on {worker.host}: {sent.message}"
                elif sent.result.status != "interrupted" or attempt + 1 == ATTEMPTS:
                    return _store(sent, order, store)
                else:  # pokeview's machinery failed there (its bridge died, say): elsewhere
                    why = f"on {sent.host}: {sent.result.error}"
            finally:
                worker.playing -= 1
            tried.add(id(worker))
            self.played_again += 1
        raise PokeviewError(
            f"game {order.p1} vs {order.p2} (pair {order.pair}, seat {order.seat}) could not be "
            f"played on {ATTEMPTS} Ray workers in a row; the last: {why}"
        )

    def _send(
        self, worker: _Worker, order: GameOrder, players: tuple[str, str] | None, *, batched: bool
    ) -> asyncio.Future[Shipped | Failed]:
        """The game's answer, to come. A bot game waits for the games that join it in this turn
        of the event loop (the engine starts the next games as a batch's answers are stored),
        and goes with them in one call of at most `BATCH`."""
        sent: asyncio.Future[Shipped | Failed] = asyncio.get_running_loop().create_future()
        if not batched:
            self._call(worker, [(order, players, sent)])
            return sent
        worker.waiting.append((order, players, sent))
        if len(worker.waiting) >= BATCH:
            self._flush(worker)
        elif len(worker.waiting) == 1:
            asyncio.get_running_loop().call_soon(self._flush, worker)
        return sent

    def _flush(self, worker: _Worker) -> None:
        waiting = [game for game in worker.waiting if not game[2].done()]  # (not the cancelled)
        worker.waiting = []
        if waiting:
            self._call(worker, waiting)

    def _call(self, worker: _Worker, games: list[_Waiting]) -> None:
        task = asyncio.ensure_future(_deliver(worker.actor, games, self.sent))
        self.calls.add(task)
        task.add_done_callback(self.calls.discard)

    def _pick(self, tried: set[int]) -> _Worker:
        fresh = [w for w in self.workers if id(w) not in tried] or self.workers
        return min(fresh, key=lambda w: w.playing)

    def _players_file(self, path: str | None) -> tuple[str, str] | None:
        if path is None:
            return None
        if path not in self.players_files:
            try:
                self.players_files[path] = (Path(path).suffix, Path(path).read_text())
            except OSError as exc:
                raise PokeviewError(
                    f"cannot read the players file {path}: {exc.strerror}"
                ) from None
        return self.players_files[path]

    def close(self) -> None:
        # The run stopped: its games in flight go with it, on the workers too (a pool's
        # would play on for nobody, a model's calling its API for minutes).
        for ref in self.sent:
            with contextlib.suppress(Exception):  # (done, or its worker gone)
                self.ray.cancel(ref)
        for task in self.calls:
            task.cancel()
        self.ray.shutdown()


async def _deliver(actor: Any, games: list[_Waiting], calls: set[Any]) -> None:
    """A call's answers to its games, or what stopped the call (Ray's, sending it or on the
    worker) to each of them; the call is in `calls` while it is awaited."""
    try:
        ref = actor.play_many.remote([(order, players) for order, players, _ in games])
        calls.add(ref)
        try:
            outcomes: list[Shipped | Failed] = await ref
        finally:
            calls.discard(ref)
        if len(outcomes) != len(games):
            raise PokeviewError(f"a Ray worker answered {len(outcomes)} games of {len(games)}")
    except Exception as exc:
        for _, _, sent in games:
            if not sent.done():  # (a game cancelled meanwhile: the run is stopping)
                sent.set_exception(exc)
        return
    for (_, _, sent), outcome in zip(games, outcomes, strict=True):
        if not sent.done():
            sent.set_result(outcome)


async def ask_ready(
    ray: Any, actors: list[Any], warm: Start | None, *, kept: int = 0
) -> list[Readiness]:
    """Each worker's answer to `ready(warm)`, once each has said it runs this pokeview; one
    line for the first that cannot play. The first `kept` are a pool's."""
    versions: list[tuple[str, str]] = await _answered(
        ray, [a.version.remote() for a in actors], kept
    )
    for n, (host, version) in enumerate(versions):
        if version != __version__:
            again = " (the pool's: `pokeview ray-pool stop`, then `start`)" if n < kept else ""
            raise PokeviewError(
                f"the Ray worker on {host} has pokeview {version}, this machine {__version__}: "
                f"install the same version on every node{again}"
            )
    said: list[Readiness] = await _answered(ray, [a.ready.remote(warm) for a in actors], kept)
    for ready in said:
        if ready.problem:
            raise PokeviewError(f"the Ray worker on {ready.host} cannot play: {ready.problem}")
    return said


async def _answered(ray: Any, refs: list[Any], kept: int) -> list[Any]:
    """The workers' answers to one call each, within READY_SECONDS, or one line saying which
    did not answer (the first `kept` refs are a pool's workers') or why not."""
    asking = asyncio.gather(*refs)
    # A start cancelled while it waits (Ctrl-C, SIGTERM) reads the answers' error
    # here: asyncio would print it as never retrieved, a traceback under the one clean line.
    asking.add_done_callback(lambda done: done.cancelled() or done.exception())
    try:
        return await asyncio.wait_for(asking, READY_SECONDS)
    except TimeoutError:
        _, waiting = ray.wait(refs, num_returns=len(refs), timeout=0)
        late = {ref.hex() for ref in waiting}
        late_kept = sum(ref.hex() in late for ref in refs[:kept])
        why = []
        if len(late) > late_kept:
            why.append(
                f"does the cluster have {len(late) - late_kept} free CPUs, and pokeview "
                f"({INSTALL}) on every node?"
            )
        if late_kept:
            why.append(
                f"{late_kept} of them kept by `pokeview ray-pool`: is a machine of theirs gone? "
                "(`pokeview ray-pool stop`, then `start`)"
            )
        raise PokeviewError(
            f"{len(late)} of {len(refs)} Ray workers did not start within "
            f"{READY_SECONDS:.0f} s: {'; '.join(why)}"
        ) from None
    except ray.exceptions.RayError as exc:
        raise PokeviewError(f"a Ray worker could not start: {first_line(exc)}") from None


def _store(shipped: Shipped, order: GameOrder, store: Store) -> GameResult:
    """The game's rows stored here, under the run, in one transaction."""
    row = dict(shipped.row)
    del row["id"]
    row["run_id"] = order.run_id
    items = [(e["side"], e["kind"], e["data"], e["at"]) for e in shipped.events]
    game_id = store.import_game(row, shipped.decisions, items, played=shipped.played)
    return dataclasses.replace(shipped.result, game_id=game_id)
