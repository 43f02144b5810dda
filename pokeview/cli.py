"""The `pokeview` command: parses arguments, then hands over to the parts that do the work."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pokeview import __version__
from pokeview.errors import PokeviewError

DEFAULT_FORMAT = "gen9randombattle"


class Stopped(Exception):
    """The process was asked to stop (SIGTERM)."""


def _run_stoppable(coro: Any) -> Any:
    """asyncio.run, where SIGTERM stops the work as Ctrl-C does: the running task is cancelled,
    so games in flight are kept as interrupted (and played again or resumed later)."""

    async def main() -> Any:
        import signal

        task, stopped = asyncio.current_task(), []
        loop = asyncio.get_running_loop()

        def stop() -> None:
            stopped.append(True)
            if task is not None:
                task.cancel()

        loop.add_signal_handler(signal.SIGTERM, stop)
        try:
            return await coro
        except asyncio.CancelledError:
            if stopped:
                raise Stopped from None
            raise
        finally:
            loop.remove_signal_handler(signal.SIGTERM)

    return asyncio.run(main())


def _store(args: argparse.Namespace) -> Any:
    from pokeview.store import open_store

    with _MigrationProgress() as progress:
        return open_store(args.db, on_migrate=progress)


class _MigrationProgress:
    """A progress bar on stderr while an older database is migrated (shown only if it is)."""

    def __init__(self) -> None:
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(stderr=True), transient=False)
            self.bar.start()
            self.task = self.bar.add_task(
                "migrating the record (compacting finished games)", total=total
            )
        self.bar.update(self.task, completed=done)

    def __enter__(self) -> _MigrationProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _read_team(path: str | None) -> str | None:
    if not path:
        return None
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PokeviewError(f"cannot read the team file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PokeviewError(
            f"the team file {path} is not text (UTF-8); give a team in packed or export format"
        ) from None


PORTS = (1, 65535)


def _in_range(flag: str, value: int | None, allowed: tuple[int, int]) -> None:
    if value is not None and not allowed[0] <= value <= allowed[1]:
        raise PokeviewError(f"{flag} {value} is out of range: give {allowed[0]} to {allowed[1]}")


# -- commands -----------------------------------------------------------------------------------


def cmd_setup(args: argparse.Namespace) -> int:
    from pokeview.sim import install

    target = install.install(force=args.force)
    print(f"Showdown is ready in {target}")
    return 0


def _use_server_port(args: argparse.Namespace) -> None:
    _in_range("--server-port", getattr(args, "server_port", None), PORTS)
    if getattr(args, "server_port", None):
        os.environ["POKEVIEW_SERVER_PORT"] = str(args.server_port)


def cmd_battle(args: argparse.Namespace) -> int:
    from pokeview.battle import seeds
    from pokeview.battle.spec import GameSpec
    from pokeview.exchange.server_game import play as play_any
    from pokeview.players import make_player
    from pokeview.sim.client import Bridge

    _use_server_port(args)
    from pokeview.tournament.config import TURN_LIMITS

    _in_range("--turn-limit", args.turn_limit, TURN_LIMITS)
    p1, p2 = make_player(args.p1, args.players), make_player(args.p2, args.players)
    for player in (p1, p2):
        if player.kind == "server":
            from pokeview.players.server import server_port

            print(
                f"waiting for '{player.user}' on ws://127.0.0.1:{server_port()}"  # type: ignore[attr-defined]
                f"/showdown/websocket to accept a {args.format} challenge",
                file=sys.stderr,
                flush=True,
            )
    teams = None
    if args.team1 or args.team2:
        teams = {
            "p1": _read_team(args.team1 or args.team2) or "",
            "p2": _read_team(args.team2 or args.team1) or "",
        }
    seed_text = args.seed if args.seed is not None else secrets.token_hex(4)
    store = _store(args)

    async def run() -> Any:
        async with Bridge() as bridge:
            spec = GameSpec(
                format=args.format,
                seed=seeds.game_seed(seed_text),
                p1=p1,
                p2=p2,
                turn_limit=args.turn_limit,
                teams=teams,
                seed_text=seed_text,
            )
            return await play_any(spec, bridge=bridge, store=store)

    result = _run_stoppable(run())
    store.close()
    if result.status not in ("finished", "void"):
        print(
            f"game {result.game_id}: error after {result.turns} turns: {result.error}",
            file=sys.stderr,
        )
        return 1
    server_game = "server" in (p1.kind, p2.kind)
    # A server game is the bridge game of its seed too (pokeview chose seed, teams and seats).
    where = f"seed {seed_text!r}" + (" on the local server" if server_game else "")
    print(
        f"game {result.game_id}: {result.players['p1']} (p1) vs {result.players['p2']} (p2), "
        f"{where}: winner {result.winner_name}"
        f"{'' if result.winner == 'tie' else f' ({result.winner})'} after {result.turns} turns"
    )
    if result.status == "void":
        from pokeview.text import strip_control

        print(
            f"game {result.game_id} is void, left out of the ratings: "
            f"{strip_control(result.error or '')}",
            file=sys.stderr,
        )
        return 1
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from pokeview.text import safe

    store = _store(args)
    games = store.games(limit=args.limit, status=args.status)
    if args.json:
        import orjson

        rows = [
            {
                "id": g.id,
                "format": g.format,
                "p1": g.p1,
                "p2": g.p2,
                "status": g.status,
                "winner": g.winner,
                "turns": g.turns,
                "seed_text": g.seed_text,
                "seed": g.seed,
                "run_id": g.run_id,
                "started_at": g.started_at,
                "ended_at": g.ended_at,
                "error": g.error,
            }
            for g in games
        ]
        sys.stdout.write(orjson.dumps(rows, option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from pokeview.text import strip_control

    title = Text(strip_control(f"{store.count_games()} games in {store.path}"), "table.title")
    table = Table(title=title, title_justify="left")
    for column in ("id", "started", "format", "p1", "p2", "winner", "turns", "status"):
        table.add_column(column, justify="right" if column in ("id", "turns") else "left")
    for g in games:
        table.add_row(
            str(g.id),
            g.started_at[:19].replace("T", " "),
            safe(g.format),
            safe(g.p1),
            safe(g.p2),
            safe(g.winner_name),
            str(g.turns or "-"),
            g.status
            if g.status not in ("error", "void")
            else f"{g.status}: {safe(g.error or '')[:40]}",
        )
    Console(width=max(Console().width, 120)).print(table)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from pokeview.battle.verify import verify_game
    from pokeview.sim.client import Bridge

    store = _store(args)
    if args.all:
        ids = [g.id for g in store.games(limit=1_000_000, status="finished")]
    elif args.game:
        ids = [store.game(g).id for g in args.game]
    else:
        raise PokeviewError("name a game id to verify, or pass --all")

    async def run() -> list[Any]:
        async with Bridge() as bridge:
            return [await verify_game(bridge, store, gid) for gid in ids]

    verdicts = _run_stoppable(run())
    bad = [v for v in verdicts if not v.ok]
    for v in verdicts:
        if not v.ok or not args.quiet:
            print(("ok    " if v.ok else "FAIL  ") + v.message)
    if len(verdicts) > 1 or args.all:
        print(f"{len(verdicts) - len(bad)} of {len(verdicts)} games verified")
    return 1 if bad else 0


def cmd_players(args: argparse.Namespace) -> int:
    from pokeview.players.llm.config import load_players, players_path, players_schema
    from pokeview.text import strip_control

    if args.schema:
        print(json.dumps(players_schema(), indent=2))
        return 0
    where = players_path(args.players)
    models = load_players(args.players)
    if not models:
        print(f"no model players in {where} (see the README, 'Model players')")
        return 0
    print(f"model players in {where}:")
    for spec in models.values():
        key = "no key"
        if spec.api_key_env:
            state = "set" if os.environ.get(spec.api_key_env) else "NOT SET"
            key = f"${spec.api_key_env} {state}"
        # Every price a cost is made of; one missing makes the cost of tokens of its kind unknown.
        prices = ", ".join(
            f"{what} {spec.prices[k]:g}" if k in spec.prices else f"{what} ? (unknown)"
            for k, what in (
                ("input", "input"),
                ("cached_input", "cached input"),
                ("cache_write", "cache write"),
                ("output", "output"),
            )
        )
        line = (
            f"  llm:{spec.name}  model {spec.model}  at {spec.base_url}  {key}  "
            f"effort {spec.reasoning_effort or '-'}  USD per million tokens: {prices}"
        )
        print(strip_control(line))
    return 0


def cmd_prompt(args: argparse.Namespace) -> int:
    import orjson

    from pokeview.players.llm.conversation import (
        conversation,
        decision_for_turn,
        format_conversation,
    )
    from pokeview.text import strip_control

    store = _store(args)
    game = store.game(args.game)
    decisions = store.decisions(game.id, args.side)
    if args.decision is not None:
        if not 1 <= args.decision <= len(decisions):
            raise PokeviewError(
                f"{args.side} made {len(decisions)} decisions in game {game.id}; "
                f"--decision takes 1 to {len(decisions)}"
            )
        decision = decisions[args.decision - 1]
    else:
        decision = decision_for_turn(decisions, args.turn, game.turns or 0)
    messages = conversation(store, game.id, args.side, decision.idx)
    if args.json:
        out = orjson.dumps([m.to_json() for m in messages], option=orjson.OPT_INDENT_2).decode()
        sys.stdout.write(out + "\n")
    else:
        sys.stdout.write(strip_control(format_conversation(messages)))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from pokeview.sim.client import Bridge
    from pokeview.tournament.config import load_run_config
    from pokeview.tournament.display import ProgressView
    from pokeview.tournament.runner import run_tournament

    _use_server_port(args)
    from pokeview.tournament.config import CONCURRENCY

    _in_range("--concurrency", args.concurrency, CONCURRENCY)
    config = load_run_config(args.config)
    store = _store(args)

    async def run() -> Any:
        with ProgressView() as view:
            async with Bridge() as bridge:
                return await run_tournament(
                    config,
                    store=store,
                    bridge=bridge,
                    concurrency=args.concurrency,
                    players_file=args.players,
                    on_progress=view.update,
                )

    progress = _run_stoppable(run())
    store.close()
    done = progress.done_before + progress.done - progress.void
    print(
        f"run {config.name}: {done}/{progress.planned} games recorded "
        f"({progress.done} now, {progress.failed} ended in errors"
        + (
            f", {progress.void} void: to be played again when the run is started again"
            if progress.void
            else ""
        )
        + f"); see `pokeview ratings {config.name}`"
    )
    return 0 if progress.failed == 0 and progress.void == 0 else 1


def cmd_runs(args: argparse.Namespace) -> int:
    from pokeview.text import strip_control

    store = _store(args)
    if args.delete:
        from pokeview.tournament.runner import _alive

        run = store.run(args.delete)
        if run.state == "running" and _alive(run.pid):
            raise PokeviewError(f"run '{run.name}' is being played by process {run.pid}")
        try:
            gone = store.delete_unplayed_run(run.id)
        except PokeviewError as exc:
            raise PokeviewError(f"run '{run.name}' is not deleted: {exc}") from None
        store.close()
        print(strip_control(f"run {run.name} deleted, with its {gone} unfinished games"))
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


def cmd_ratings(args: argparse.Namespace) -> int:
    from pokeview.ratings.summary import build_report

    store = _store(args)
    report = build_report(store, args.run)
    if args.json:
        import orjson

        sys.stdout.write(orjson.dumps(report.to_json(), option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    from rich.console import Console

    from pokeview.tournament.display import report_renderable

    Console(width=max(Console().width, 140)).print(report_renderable(report))
    return 0


def _database_file(args: argparse.Namespace) -> Path:
    store = _store(args)  # opens (and creates or migrates) it, with a clear error if it cannot
    path = store.path
    store.close()
    return path


def cmd_app(args: argparse.Namespace) -> int:
    from pokeview.app import make_app

    make_app(_database_file(args)).run()
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    from pokeview.app import make_app

    game = args.game
    if game.endswith(".json") or Path(game).is_file():
        import shutil

        from pokeview.exchange import import_json_into_scratch

        path, game_id = import_json_into_scratch(Path(game))
        try:
            make_app(path, ("watch", game_id, args.side)).run()
        finally:
            shutil.rmtree(path.parent, ignore_errors=True)  # the scratch database, and its WAL
        return 0
    path = _database_file(args)
    store = _store(args)
    game_id = store.game(game).id  # an unknown id is one clear line, before any screen
    store.close()
    make_app(path, ("watch", game_id, args.side)).run()
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from pokeview.app import make_app
    from pokeview.players import make_player

    path = _database_file(args)
    options: dict[str, Any] = {"players_file": args.players}
    if args.resume:
        store = _store(args)
        game = store.latest_human_game()
        store.close()
        if game is None:
            raise PokeviewError("there is no unfinished game of yours to resume")
        options["resume"] = game.id
    else:
        # An unknown opponent, or one that cannot play the format, is one clear line first.
        opponent = make_player(args.vs, args.players)
        if hasattr(opponent, "check_format"):
            opponent.check_format(args.format)
        teams = None
        if args.team:
            team = _read_team(args.team)
            teams = {"p1": team, "p2": team}
        options.update(
            opponent=args.vs, side=args.side, format=args.format, seed_text=args.seed, teams=teams
        )
    make_app(path, ("play", options)).run()
    return 0


def cmd_server(args: argparse.Namespace) -> int:
    import signal
    import time

    from pokeview.sim.server import LocalServer

    _in_range("--port", args.port, PORTS)
    stop: list[bool] = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))  # before anything can be orphaned
    server = LocalServer(args.port)
    server.start()
    print(f"Showdown is listening on {server.websocket_url}; Ctrl-C stops it", flush=True)
    print(
        "Outside programs log in there under any name (no password); play one with "
        f"`pokeview battle --p1 heuristic --p2 server:NAME --server-port {args.port}`",
        flush=True,
    )
    try:
        while not stop and server.proc is not None and server.proc.poll() is None:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    print("Showdown stopped", flush=True)
    return 0


def cmd_spectate(args: argparse.Namespace) -> int:
    from pokeview.app import make_app

    path = _database_file(args)
    if args.run:
        store = _store(args)
        store.run(args.run)  # an unknown run is one clear line, before any screen
        store.close()
    make_app(path, ("spectate", args.run)).run()
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    import orjson

    from pokeview.exchange import import_game, import_input_log
    from pokeview.sim.client import Bridge

    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PokeviewError(f"cannot read {path}: {exc}") from None
    store = _store(args)
    stripped = text.lstrip()
    if stripped.startswith("{") and path.suffix == ".jsonl":  # Pokéval battle cases

        async def cases() -> list[str]:
            from pokeview import pokeval

            said = []
            async with Bridge() as bridge:
                for case in pokeval.load_cases(path):
                    lines = "\n".join(pokeval.input_log(case))
                    try:
                        gid = await import_input_log(
                            store, lines, f"{path.name} {case['id']}", bridge, stop_on_refusal=True
                        )
                        said.append(f"case {case['id']}: game {gid}")
                    except PokeviewError as exc:
                        said.append(f"case {case['id']}: {exc}")
            return said

        for line in _run_stoppable(cases()):
            print(line)
        return 0
    from pokeview.showdown_replay import import_replay, looks_like_replay

    if stripped.startswith("{") and '"pokeview-game/' in stripped[:200]:
        try:
            doc = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            raise PokeviewError(f"{path} is not valid JSON ({exc}); is it truncated?") from None
        game_id = import_game(store, doc)
    elif not stripped and path.suffix == ".jsonl":
        raise PokeviewError(f"{path} is empty")
    elif stripped.startswith(">"):

        async def run() -> int:
            async with Bridge() as bridge:
                return await import_input_log(store, text, path.name, bridge)

        game_id = _run_stoppable(run())
    elif looks_like_replay(text):

        async def run() -> int:
            async with Bridge() as bridge:
                return await import_replay(store, text, path.name, bridge)

        game_id = _run_stoppable(run())
    elif stripped.startswith("{"):
        try:
            doc = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            raise PokeviewError(f"{path} is not valid JSON ({exc}); is it truncated?") from None
        game_id = import_game(store, doc)  # says what it expected
    else:
        raise PokeviewError(
            f"{path} is none of: a pokeview game file (JSON), a Showdown input log (>start …), "
            "a Showdown replay (HTML, .log or .json)"
        )
    print(f"imported {path.name} as game {game_id}")
    return 0


async def _showdown_graded_logs(
    cases: list[dict[str, Any]],
) -> tuple[dict[str, list[str]], dict[str, str]]:
    from pokeview import pokeval
    from pokeview.sim.client import Bridge

    async with Bridge() as bridge:
        return await pokeval.showdown_graded_logs(cases, bridge)


def cmd_diff(args: argparse.Namespace) -> int:
    from pokeview import pokeval

    cases = pokeval.load_cases(Path(args.cases))
    outputs = {
        str(o.get("id")): o.get("log") or []
        for o in pokeval.load_jsonl(Path(args.engine_output), "the engine output")
    }
    reference, stops = _run_stoppable(_showdown_graded_logs(cases))
    results = [pokeval.compare(cid, ref, outputs.get(cid, [])) for cid, ref in reference.items()]
    matched = sum(r.matched for r in results)
    total = sum(r.turns for r in results) or 1
    if args.json:
        import orjson

        def at(log: list[str], i: int | None) -> str | None:
            return None if i is None or i >= len(log) else log[i]

        battles = [
            {
                "id": r.id,
                "turns": r.turns,
                "matched": r.matched,
                "first_wrong_line": None if r.first_wrong is None else r.first_wrong + 1,
                "showdown": at(r.reference, r.first_wrong),
                "engine": at(r.engine, r.first_wrong),
                "showdown_stopped": stops.get(r.id),
            }
            for r in results
        ]
        doc = {
            "score": 100 * matched / total,
            "turns_matched": matched,
            "turns": total,
            "battles": battles,
        }
        sys.stdout.write(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    if not args.print and sys.stdout.isatty():
        from pokeview.app import make_app

        make_app(_database_file(args), ("diff", results, stops)).run()
        return 0
    from pokeview.text import strip_control

    for r in results:
        print(strip_control(pokeval.side_by_side(r)))
        if r.id in stops:
            print(strip_control(stops[r.id]))
        print()
    print(
        f"score {100 * matched / total:.1f}: {matched} of {total} turns matched "
        f"before the first wrong line, over {len(results)} battles"
    )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from pokeview.exchange import export_as

    target = Path(args.output) if args.output else None
    if target is not None and target.is_dir():
        raise PokeviewError(f"{target} is a folder; give -o a file name inside it")
    if target is not None and not target.parent.is_dir():
        raise PokeviewError(f"cannot write {target}: the folder {target.parent} does not exist")
    store = _store(args)
    text = export_as(store, args.game, args.format)
    if target is not None:
        _write_whole(target, text)
        print(f"game {args.game} written to {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_ladder(args: argparse.Namespace) -> int:
    from pokeview.tournament import ladder

    store = _store(args)
    try:
        return _ladder(args, store, ladder)
    finally:
        store.close()


def _ladder(args: argparse.Namespace, store: Any, ladder: Any) -> int:
    if args.ladder_command == "create":
        made = ladder.create_ladder(
            store,
            args.name,
            anchors=args.anchor or ["max-damage=1000"],
            sparring=args.sparring,
            players=args.player or [],
            seed=args.seed,
            format=args.format,
            turn_limit=args.turn_limit,
            set_pairs=args.set_pairs,
            screen_pairs=args.screen_pairs,
            players_file=args.players,
        )
        print(
            f"ladder {made.name}: {', '.join(made.members)}; add players with "
            f"`pokeview ladder add {made.name} PLAYER`, then `pokeview ladder play {made.name} "
            "--budget-games N`"
        )
        return 0
    if args.ladder_command == "add":
        added = [ladder.add_player(store, args.name, spec, args.players) for spec in args.player]
        print(f"ladder {args.name}: added {', '.join(added)}; it is placed by the next play")
        return 0
    if args.ladder_command == "play":
        return _ladder_play(args, store)
    return _ladder_show(args, store)


def _ladder_play(args: argparse.Namespace, store: Any) -> int:
    from pokeview.sim.client import Bridge
    from pokeview.text import strip_control
    from pokeview.tournament import ladder_play

    def say(line: str) -> None:
        print(line, flush=True)

    async def run() -> Any:
        async with Bridge() as bridge:
            return await ladder_play.play_ladder(
                store,
                bridge,
                args.name,
                budget_games=args.budget_games,
                budget_usd=args.budget_usd,
                concurrency=args.concurrency,
                players_file=args.players,
                say=say,
            )

    _use_server_port(args)
    outcome = asyncio.run(run())
    print(
        strip_control(
            f"ladder {args.name}: {outcome.played} games played now ({outcome.failed} ended in "
            f"errors); this budget spent {outcome.spent.text()}; stopped: {outcome.why_stopped}; "
            f"see `pokeview ladder show {args.name}`"
        )
    )
    return 1 if outcome.failed or outcome.stopped else 0


def _ladder_show(args: argparse.Namespace, store: Any) -> int:
    from rich.console import Console

    from pokeview.ratings.summary import build_report
    from pokeview.tournament import ladder, ladder_play
    from pokeview.tournament.display import report_renderable

    the_ladder = ladder.load_ladder(store, args.name)
    Console(width=max(Console().width, 140)).print(
        report_renderable(build_report(store, args.name))
    )
    for line in ladder_play.status_lines(store, the_ladder, args.players):
        print(line)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from pokeview.ratings.report import write_report

    store = _store(args)
    try:
        out = write_report(store, args.run, Path(args.output), players_file=args.players)
    finally:
        store.close()
    print(f"report on {args.run} written to {out}")
    return 0


def _write_whole(target: Path, text: str) -> None:
    """Write a file completely or not at all: a stopped or failed write leaves no half file."""
    import tempfile

    try:
        fd, scratch = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(scratch, target)
    except OSError as exc:
        if "scratch" in locals():
            Path(scratch).unlink(missing_ok=True)
        raise PokeviewError(f"cannot write {target}: {exc.strerror}") from None


# -- parser -------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pokeview",
        description="Run, record, replay and play Pokémon Showdown games "
        "between models, bots and people.",
    )
    parser.add_argument("--version", action="version", version=f"pokeview {__version__}")
    db_help = "the SQLite database (default: POKEVIEW_DB or the user data directory)"
    parser.add_argument("--db", metavar="PATH", help=db_help)
    common = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: `pokeview --db X games` and `pokeview games --db X` both work.
    common.add_argument("--db", metavar="PATH", help=db_help, default=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(
        name: str, func: Callable[[argparse.Namespace], int], help: str
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=help, description=help)
        p.set_defaults(func=func)
        return p

    p = add("setup", cmd_setup, "install the pinned Showdown simulator (Node.js packages)")
    p.add_argument("--force", action="store_true", help="reinstall even if it is installed")

    players_help = (
        "the players file naming model players "
        "(default: POKEVIEW_PLAYERS or players.toml in the user config directory)"
    )
    kinds = (
        "random, max-damage, heuristic, search (search:ms=N, cpu=N or nodes=N, depth=N, "
        "samples=N), llm:NAME (a model in the players file), module:Class (a poke-env "
        "Player), or server:USER (a program on the local server)"
    )
    server_port_help = (
        "the local Showdown server's port for server:USER players; pokeview starts one there "
        "unless one listens already (default: POKEVIEW_SERVER_PORT or 8000)"
    )
    p = add(
        "battle", cmd_battle, "play one headless game, record it and print its id, winner and turns"
    )
    p.add_argument("--p1", required=True, metavar="PLAYER", help=kinds)
    p.add_argument("--p2", required=True, metavar="PLAYER", help=kinds)
    p.add_argument(
        "--format", default=DEFAULT_FORMAT, help=f"a Showdown format (default {DEFAULT_FORMAT})"
    )
    p.add_argument(
        "--seed",
        metavar="TEXT",
        help="seed text; the same text gives the same game (default: random)",
    )
    p.add_argument(
        "--team1",
        metavar="FILE",
        help="p1's team, packed or export format (formats without random teams)",
    )
    p.add_argument("--team2", metavar="FILE", help="p2's team (default: the same as --team1)")
    p.add_argument(
        "--turn-limit",
        type=int,
        default=300,
        metavar="N",
        help="the game is a tie at turn N (default 300)",
    )
    p.add_argument("--players", metavar="PATH", help=players_help)
    p.add_argument("--server-port", type=int, metavar="PORT", help=server_port_help)

    p = add("games", cmd_games, "list recorded games, newest first")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--limit", type=int, default=50, metavar="N", help="at most N games (default 50)"
    )
    p.add_argument(
        "--status",
        choices=["running", "finished", "void", "error", "interrupted"],
        help="only games in this state",
    )

    p = add("run", cmd_run, "play every game of a run config; start it again to resume")
    p.add_argument("config", help="a run config, TOML or JSON (see examples/)")
    p.add_argument(
        "--concurrency", type=int, metavar="N", help="games at once (default: the config's, or 8)"
    )
    p.add_argument("--players", metavar="PATH", help=players_help)
    p.add_argument("--server-port", type=int, metavar="PORT", help=server_port_help)

    p = add("runs", cmd_runs, "list runs and their progress")
    p.add_argument(
        "--delete",
        metavar="RUN",
        help="delete a run (name or id) none of whose games has finished, so that its name "
        "can be used again",
    )

    p = add(
        "ratings", cmd_ratings, "Bradley–Terry ratings with bootstrap intervals, and head to head"
    )
    p.add_argument("run", nargs="?", help="a run name or id (default: all games)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")

    p = add(
        "ladder",
        cmd_ladder,
        "a ladder: a growing set of rated players; newcomers are placed with few games",
    )
    lsub = p.add_subparsers(dest="ladder_command", metavar="ACTION", required=True)
    lp = lsub.add_parser(
        "create", parents=[common], help="create a ladder: its anchors, sparring partner, format"
    )
    lp.add_argument("name", help="the ladder's name (a run of that name must not exist)")
    lp.add_argument(
        "--anchor",
        action="append",
        metavar="PLAYER=RATING",
        help="a player whose rating is fixed (repeatable; default max-damage=1000)",
    )
    lp.add_argument(
        "--sparring",
        default="random",
        metavar="PLAYER",
        help="the sparring partner every newcomer plays a set against: an anchor, random, or a "
        "--player (default random)",
    )
    lp.add_argument(
        "--player", action="append", metavar="PLAYER", help=f"a first member (repeatable): {kinds}"
    )
    lp.add_argument("--seed", metavar="TEXT", help="seed text (default: the ladder's name)")
    lp.add_argument(
        "--format", default=DEFAULT_FORMAT, help=f"a random-team format (default {DEFAULT_FORMAT})"
    )
    lp.add_argument("--turn-limit", default="300", metavar="N", help="a tie at turn N (300)")
    lp.add_argument(
        "--set-pairs", default="1", metavar="N", help="mirror pairs in a set (default 1: 2 games)"
    )
    lp.add_argument(
        "--screen-pairs",
        default="1",
        metavar="N",
        help="mirror pairs against random before anything else (default 1: 2 games); a player "
        "that wins none of them stops there",
    )
    lp.add_argument("--players", metavar="PATH", help=players_help)
    lp.set_defaults(func=cmd_ladder)
    lp = lsub.add_parser("add", parents=[common], help="add players; the next play places them")
    lp.add_argument("name", help="the ladder")
    lp.add_argument("player", nargs="+", help=kinds)
    lp.add_argument("--players", metavar="PATH", help=players_help)
    lp.set_defaults(func=cmd_ladder)
    lp = lsub.add_parser(
        "play",
        parents=[common],
        help="place new players, then play the most informative sets until the budget is spent",
    )
    lp.add_argument("name", help="the ladder")
    lp.add_argument("--budget-games", metavar="N", help="play at most N games")
    lp.add_argument(
        "--budget-usd", metavar="DOLLARS", help="spend at most this, at the players file's prices"
    )
    lp.add_argument("--concurrency", type=int, default=4, metavar="N", help="games at once (4)")
    lp.add_argument("--players", metavar="PATH", help=players_help)
    lp.add_argument("--server-port", type=int, metavar="PORT", help=server_port_help)
    lp.set_defaults(func=cmd_ladder)
    lp = lsub.add_parser("show", parents=[common], help="ratings, members, spend, what comes next")
    lp.add_argument("name", help="the ladder")
    lp.add_argument("--players", metavar="PATH", help=players_help)
    lp.set_defaults(func=cmd_ladder)

    p = add("report", cmd_report, "write a run's or ladder's findings as one offline HTML page")
    p.add_argument("run", help="a run or ladder name or id")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("--players", metavar="PATH", help=players_help)

    p = add("watch", cmd_watch, "step through a recorded game turn by turn (the replay viewer)")
    p.add_argument("game", help="a game id, or a game file written by `pokeview export`")
    p.add_argument(
        "--side", choices=["p1", "p2", "spectator"], default="p1", help="whose view (s switches)"
    )

    p = add("play", cmd_play, "play one side yourself against a bot or a model")
    p.add_argument(
        "--vs",
        default="heuristic",
        metavar="PLAYER",
        help=f"the opponent: {kinds} (default heuristic)",
    )
    p.add_argument("--side", choices=["p1", "p2"], default="p1", help="your side (default p1)")
    p.add_argument(
        "--format", default=DEFAULT_FORMAT, help=f"a Showdown format (default {DEFAULT_FORMAT})"
    )
    p.add_argument("--seed", metavar="TEXT", help="seed text (default: a new one)")
    p.add_argument(
        "--team", metavar="FILE", help="both sides' team, for formats without random teams"
    )
    p.add_argument("--resume", action="store_true", help="continue your last unfinished game")
    p.add_argument("--players", metavar="PATH", help=players_help)

    p = add(
        "import",
        cmd_import,
        "import a game: pokeview JSON, an input log (re-simulated), a Showdown replay, "
        "or Pokéval cases (.jsonl)",
    )
    p.add_argument(
        "file",
        help="a file written by `pokeview export`, a Showdown input log, a replay page (.html), "
        "its .log or .json, or Pokéval battle cases (.jsonl)",
    )

    p = add("diff", cmd_diff, "score an engine's Pokéval logs against the pinned Showdown's")
    p.add_argument("cases", help="Pokéval battle cases, JSON lines (seed, teams, choices)")
    p.add_argument("engine_output", help="the engine's output, JSON lines ({id, log})")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.add_argument(
        "--print",
        action="store_true",
        help="print the comparison as text (the default when not on a terminal) "
        "instead of opening the side-by-side view",
    )

    p = add("server", cmd_server, "run the pinned Showdown as a local server on loopback")
    p.add_argument("--port", type=int, default=8000, help="the port on 127.0.0.1 (default 8000)")

    p = add("spectate", cmd_spectate, "watch a running tournament live, from another terminal")
    p.add_argument("run", nargs="?", help="a run name or id (default: every run being played)")

    p = add(
        "export",
        cmd_export,
        "write one game: pokeview JSON, spectator log, input log or replay HTML",
    )
    p.add_argument("game", help="a game id")
    p.add_argument(
        "--format",
        choices=["json", "log", "inputlog", "html"],
        default="json",
        help="json (all decisions; default), log, inputlog, or html (a Showdown replay)",
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE instead of standard output"
    )

    p = add("players", cmd_players, "list the model players in the players file")
    p.add_argument("--players", metavar="PATH", help=players_help)
    p.add_argument(
        "--schema", action="store_true", help="print the players file's JSON schema (for editors)"
    )

    p = add("prompt", cmd_prompt, "print exactly what the model on one side saw at turn N")
    p.add_argument("game", help="a game id")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--turn", type=int, metavar="N", help="the turn of the decision (its first, if several)"
    )
    which.add_argument(
        "--decision",
        type=int,
        metavar="N",
        help="the side's Nth decision (a forced switch is a second decision in its turn)",
    )
    p.add_argument("--side", choices=["p1", "p2"], default="p1", help="whose view (default p1)")
    p.add_argument("--json", action="store_true", help="print the messages as JSON")

    p = add(
        "verify", cmd_verify, "re-run games' input logs in Showdown and compare the spectator logs"
    )
    p.add_argument("game", nargs="*", help="game ids")
    p.add_argument("--all", action="store_true", help="every finished game in the database")
    p.add_argument("--quiet", action="store_true", help="print only failures and the count")
    return parser


def tune_gc() -> None:
    """Games allocate many short-lived objects (poke-env's views, JSON steps) over a large, stable
    heap; Python's default thresholds then spend a third of the time in full collections."""
    import gc

    gc.freeze()  # what is loaded by now lives for the whole process
    gc.set_threshold(50_000, 20, 100)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args.func = cmd_app  # `pokeview` alone opens the app on the database
    if args.db:
        os.environ["POKEVIEW_DB"] = args.db
    tune_gc()
    try:
        return args.func(args)
    except PokeviewError as exc:
        print(f"pokeview: error: {exc}", file=sys.stderr)
        return 2
    except sqlite3.OperationalError as exc:  # the file went read-only, the disk filled up...
        where = os.environ.get("POKEVIEW_DB") or "the database"
        print(f"pokeview: error: {where}: {exc}; nothing more was written", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pokeview: interrupted", file=sys.stderr)
        return 130
    except Stopped:
        print("pokeview: stopped (SIGTERM)", file=sys.stderr)
        return 143


if __name__ == "__main__":
    sys.exit(main())
