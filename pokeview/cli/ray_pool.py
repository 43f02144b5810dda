"""`ray-pool start | status | stop`: pokeview's Ray workers kept warm on a cluster."""

from __future__ import annotations

import argparse
import asyncio

from pokeview.cli.common import Commands, in_range
from pokeview.terminal import console

ADDRESS_HELP = (
    "the Ray cluster (HOST:PORT; default: RAY_ADDRESS, or the cluster started here with "
    "`ray start`): it must outlive the pool"
)


def add_ray_pool(commands: Commands) -> None:
    p = commands.add(
        "ray-pool",
        cmd_ray_pool,
        "keep pokeview's Ray workers warm on a cluster, so that runs with --ray start at once",
    )
    common = commands.common
    sub = p.add_subparsers(dest="pool_command", metavar="ACTION", required=True)
    sp = sub.add_parser(
        "start",
        parents=[common],
        help="keep workers on a Ray cluster, which every run with --ray there plays on (each "
        "holds a CPU until stopped)",
    )
    sp.add_argument("address", nargs="?", metavar="ADDRESS", help=ADDRESS_HELP)
    sp.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="workers to keep (default: one per free CPU of the cluster)",
    )
    for action, help in (
        ("status", "how many workers the cluster keeps, and where"),
        ("stop", "stop the kept workers (a run playing on them stops with them)"),
    ):
        sp = sub.add_parser(action, parents=[common], help=help)
        sp.add_argument("address", nargs="?", metavar="ADDRESS", help=ADDRESS_HELP)


DOING = {"start": "starting", "status": "asking", "stop": "stopping"}


def cmd_ray_pool(args: argparse.Namespace) -> int:
    from rich.text import Text

    from pokeview.tournament import ray_pool

    if args.pool_command == "start":
        in_range("--workers", args.workers, (1, 10_000))
        doing = ray_pool.start_pool(args.address, args.workers)
    elif args.pool_command == "status":
        doing = ray_pool.pool_status(args.address)
    else:
        doing = ray_pool.stop_pool(args.address)
    # Seconds here, up to minutes on a cold cluster: a terminal shows what is waited on.
    where = f"at {args.address}" if args.address else "Ray finds"
    what = f"{DOING[args.pool_command]} the kept workers on the cluster {where}…"
    with console(stderr=True).status(Text(what), refresh_per_second=4):
        said = asyncio.run(doing)
    print(said)
    return 0
