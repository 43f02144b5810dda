"""Many games: `run`, `runs`, `spectate`, `ratings`, `report` and `site`."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from pokeview.cli.common import (
    PLAYERS_HELP,
    Commands,
    ProgressBar,
    Stopped,
    add_ray_options,
    add_server_options,
    bridge_and_ray,
    database_file,
    in_range,
    open_store,
    played_again_note,
    run_stoppable,
    server_options,
)


def add_run(commands: Commands) -> None:
    p = commands.add("run", cmd_run, "play every game of a run config; start it again to resume")
    p.add_argument("config", help="a run config, TOML or JSON (see examples/)")
    p.add_argument(
        "--concurrency", type=int, metavar="N", help="games at once (default: the config's, or 8)"
    )
    p.add_argument("--players", metavar="PATH", help=PLAYERS_HELP)
    add_server_options(p)
    add_ray_options(p)


def cmd_run(args: argparse.Namespace) -> int:
    from pokeview.tournament.config import CONCURRENCY, load_run_config
    from pokeview.tournament.display import ProgressView
    from pokeview.tournament.runner import first_game, run_tournament

    server = server_options(args)
    in_range("--concurrency", args.concurrency, CONCURRENCY)
    config = load_run_config(args.config)
    store = open_store(args)

    remote: Any = None
    seen: list[Any] = []  # the last progress shown: what a stop leaves recorded

    async def run() -> Any:
        nonlocal remote
        async with bridge_and_ray(args, first_game(config)) as (bridge, remote):
            with ProgressView() as view:

                def shown(progress: Any) -> None:
                    seen[:] = [progress]
                    view.update(progress)

                return await run_tournament(
                    config,
                    store=store,
                    bridge=bridge,
                    concurrency=args.concurrency,
                    players_file=args.players,
                    on_progress=shown,
                    server=server,
                    remote=remote,
                )

    try:
        progress = run_stoppable(run())
    except Stopped as stopped:
        if seen:
            stopped.then = (
                f"run {config.name}: {seen[0].recorded}/{seen[0].planned} games recorded; "
                "start it again to play the rest"
            )
        raise
    store.close()
    print(
        f"run {config.name}: {progress.recorded}/{progress.planned} games recorded "
        f"({progress.done} now, {progress.failed} ended in errors"
        + (f", {progress.void} void" if progress.void else "")
        + (f", {progress.interrupted} interrupted" if progress.interrupted else "")
        + (
            ": to be played again when the run is started again"
            if progress.void or progress.interrupted
            else ""
        )
        + f"); see `pokeview ratings {config.name}`"
        + played_again_note(remote)
    )
    return 0 if progress.failed == 0 and progress.void == 0 and progress.interrupted == 0 else 1


def add_runs(commands: Commands) -> None:
    p = commands.add("runs", cmd_runs, "list runs and their progress")
    p.add_argument(
        "--delete",
        metavar="RUN",
        help="delete a run (name or id) none of whose games has finished, so that its name "
        "can be used again",
    )


def cmd_runs(args: argparse.Namespace) -> int:
    from pokeview.text import strip_control

    store = open_store(args, existing=True)
    if args.delete:
        from pokeview.tournament.runner import delete_run

        name, gone = delete_run(store, args.delete)
        store.close()
        print(strip_control(f"run {name} deleted, with its {gone} unfinished games"))
        return 0
    rows = store.runs()
    if not rows:
        print(f"no runs in {store.path}")
        return 0
    for run, counts in rows:
        done = counts.get("finished", 0) + counts.get("error", 0)
        void = f", {counts['void']} void" if counts.get("void") else ""
        print(
            strip_control(
                f"{run.id:>4}  {run.name:<28} {run.state:<9} {done}/{run.planned or '?'} games"
                f"  ({counts.get('error', 0)} errors{void}, {counts.get('running', 0)} running)"
                f"  started {run.created_at[:16].replace('T', ' ')}"
            )
        )
    return 0


def add_ratings(commands: Commands) -> None:
    p = commands.add(
        "ratings", cmd_ratings, "Bradley–Terry ratings with bootstrap intervals, and head to head"
    )
    p.add_argument("run", nargs="?", help="a run name or id (default: all games)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def cmd_ratings(args: argparse.Namespace) -> int:
    from pokeview.ratings.summary import build_report

    store = open_store(args, existing=True)
    report = build_report(store, args.run)
    if args.json:
        import orjson

        sys.stdout.write(orjson.dumps(report.to_json(), option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    from pokeview.terminal_tables import print_fitted
    from pokeview.tournament.display import report_renderable

    print_fitted(lambda console, width: report_renderable(report, console, width))
    return 0


def add_report(commands: Commands) -> None:
    p = commands.add(
        "report", cmd_report, "write a run's or ladder's findings as one offline HTML page"
    )
    p.add_argument("run", help="a run or ladder name or id")
    p.add_argument(
        "-o", "--output", metavar="FILE", help="the HTML file to write (default: report-RUN.html)"
    )
    p.add_argument("--players", metavar="PATH", help=PLAYERS_HELP)


def cmd_report(args: argparse.Namespace) -> int:
    from pokeview.ratings.report import write_report
    from pokeview.safe_write import check_target

    store = open_store(args, existing=True)
    try:
        output = Path(args.output or f"report-{_file_name(store, args.run)}.html")
        check_target(output, folder_made=True)  # before the work, as well as at the write
        out = write_report(store, args.run, output, players_file=args.players)
    finally:
        store.close()
    print(f"report on {args.run} written to {out}")
    return 0


def _file_name(store: Any, run: str) -> str:
    """The run's name kept to characters safe in a file name, for a default output's name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", store.run(run).name).strip("._") or "run"


def add_site(commands: Commands) -> None:
    p = commands.add(
        "site",
        cmd_site,
        "write a run's or ladder's static site: findings, players, games and every decision",
    )
    p.add_argument("run", help="a run or ladder name or id")
    p.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        help="the folder to write (default: site-RUN); again later, only changed games rewritten",
    )
    p.add_argument("--players", metavar="PATH", help=PLAYERS_HELP)


def cmd_site(args: argparse.Namespace) -> int:
    from pokeview.site.build import build_site

    store = open_store(args, existing=True)
    try:
        folder = Path(args.output or f"site-{_file_name(store, args.run)}")
        with ProgressBar("writing game pages") as progress:
            built = build_site(store, args.run, folder, players_file=args.players, on_page=progress)
    finally:
        store.close()
    print(
        f"site of {args.run} written to {built.folder}/index.html: {built.games} games, "
        f"{built.written} game pages written"
        + (f" by {built.workers} processes" if built.workers else "")
        + f" ({built.seconds:.1f} s)"
    )
    return 0


def add_spectate(commands: Commands) -> None:
    p = commands.add(
        "spectate", cmd_spectate, "watch a running tournament live, from another terminal"
    )
    p.add_argument("run", nargs="?", help="a run name or id (default: every run being played)")


def cmd_spectate(args: argparse.Namespace) -> int:
    from pokeview.app import make_app
    from pokeview.screens.spectate import SpectateScreen

    path = database_file(args, existing=bool(args.run))  # a run named is in one that exists
    if args.run:
        store = open_store(args)
        store.run(args.run)  # an unknown run is one clear line, before any screen
        store.close()
    make_app(path, lambda: SpectateScreen(path, args.run)).run()
    return 0
