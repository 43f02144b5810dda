"""`pokeview ray-pool`: pokeview's Ray workers kept warm on a cluster between runs.

A run with --ray starts its own workers (each a Python process with Ray, pokeview and a Node
host) and they end with it: about 1.5 s of every run's start on a cluster at hand, more on a
cold one. A pool keeps them: detached actors named `worker-N` in pokeview's namespace, which
every run on the cluster finds and plays on (`ray_games.pooled`) and leaves running. Each holds a
CPU of the cluster while no run plays, until `pokeview ray-pool stop`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from pokeview.errors import PokeviewError
from pokeview.tournament.ray_games import (
    POOL_PREFIX,
    ask_ready,
    join,
    placed,
    pooled,
    worker_actor,
)

CLOSE_SECONDS = 30.0  # for a pool's workers to stop their Node hosts before they are killed


@contextlib.contextmanager
def _on_cluster(address: str | None) -> Iterator[tuple[Any, list[Any]]]:
    """Ray joined to the running cluster at `address` (default: the one Ray finds; never a new
    one, which would end with the command, and its pool with it), and the pool's workers."""
    ray = join(address or "auto")
    try:
        yield ray, pooled(ray)
    finally:
        ray.shutdown()


async def start_pool(address: str | None, workers: int | None) -> str:
    """Start `workers` kept workers (default: one per free CPU of the cluster) and wait until
    each can play; what is ready, in one line."""
    with _on_cluster(address) as (ray, kept):
        if kept:
            raise PokeviewError(
                f"the cluster keeps {len(kept)} pokeview workers already: "
                "`pokeview ray-pool stop` first"
            )
        free = int(ray.available_resources().get("CPU", 0))
        count = workers or free
        if not count or count > free:
            raise PokeviewError(
                f"the cluster has {free} free CPUs for {count or 1} workers: a run may be "
                "playing there, or ask for fewer (--workers)"
            )
        actors: list[Any] = []
        try:
            try:
                for n in range(count):
                    actors.append(
                        worker_actor(ray)
                        .options(
                            name=f"{POOL_PREFIX}{n}",
                            lifetime="detached",
                            scheduling_strategy="SPREAD",
                        )
                        .remote()
                    )
            except ValueError:  # (Ray's: the name was taken since it was looked up)
                raise PokeviewError(
                    "another `pokeview ray-pool start` is starting a pool on this cluster"
                ) from None
            said = await ask_ready(ray, actors, None)
        except BaseException:
            for actor in actors:
                ray.kill(actor)
            raise
        where = placed([r.host for r in said])
        return (
            f"{_workers(count)} kept on the cluster ({where}): every run with --ray there plays "
            "on them, until `pokeview ray-pool stop`"
        )


async def pool_status(address: str | None) -> str:
    """How many workers the cluster keeps and on which machines, or that it keeps none."""
    with _on_cluster(address) as (ray, kept):
        if not kept:
            return "the cluster keeps no pokeview workers (`pokeview ray-pool start` keeps some)"
        where = placed([r.host for r in await ask_ready(ray, kept, None, kept=len(kept))])
        return f"the cluster keeps {_workers(len(kept))}, ready ({where})"


async def stop_pool(address: str | None) -> str:
    """Stop the kept workers: each closes its Node host and scratch folder, then goes."""
    with _on_cluster(address) as (ray, kept):
        if not kept:
            return "the cluster keeps no pokeview workers"
        closing = asyncio.gather(*(a.close.remote() for a in kept), return_exceptions=True)
        with contextlib.suppress(TimeoutError):  # (a worker busy or gone: killed all the same)
            await asyncio.wait_for(closing, CLOSE_SECONDS)
        for actor in kept:
            ray.kill(actor)
        return f"stopped {_workers(len(kept))}"


def _workers(count: int) -> str:
    return f"{count} pokeview worker{'s' if count != 1 else ''}"
