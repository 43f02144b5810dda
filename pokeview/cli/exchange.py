"""Games in and out, and checked against Showdown: `import`, `export`, `verify` and `diff`."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from typing import Any

from pokeview.cli.common import (
    Commands,
    database_file,
    open_store,
    run_stoppable,
    with_bridge,
)
from pokeview.errors import PokeviewError
from pokeview.safe_write import check_target, write_whole
from pokeview.text import games_count


def add_import(commands: Commands) -> None:
    p = commands.add(
        "import",
        cmd_import,
        "import a game: pokeview JSON, an input log (re-simulated), a Showdown replay, "
        "or Pokéval cases (.jsonl)",
    )
    p.add_argument(
        "file",
        help="a file written by `pokeview export`, a Showdown input log, a replay page (.html), "
        "its .log or .json, a Showdown server's battle log (.log.json), or Pokéval battle "
        "cases (.jsonl)",
    )
    p.add_argument(
        "--again",
        action="store_true",
        help="import it even if the database has that game already (a second copy)",
    )
    p.add_argument(
        "--rated",
        action="store_true",
        help="count an imported pokeview game file in the ratings (by default imported games "
        "are left out: who played them cannot be checked)",
    )


def cmd_import(args: argparse.Namespace) -> int:
    from pokeview.exchange import (
        ImportKind,
        import_game_file,
        import_input_log,
        import_kind,
        import_pokeval_cases,
        read_file,
    )

    path = Path(args.file)
    try:
        text = read_file(path).decode("utf-8")
    except UnicodeDecodeError:
        raise PokeviewError(f"{path} is not text (UTF-8)") from None
    store = open_store(args)
    kind = import_kind(path, text)
    if args.rated and kind is not ImportKind.GAME_FILE:
        raise PokeviewError(f"--rated is for pokeview game files; {path} is a {kind}")
    if kind is ImportKind.POKEVAL_CASES:
        imported = run_stoppable(
            with_bridge(lambda bridge: import_pokeval_cases(store, path, bridge))
        )
        for case in imported:
            print(f"case {case.case_id}: {case.error or f'game {case.game_id}'}")
        return 0
    if kind is ImportKind.GAME_FILE:
        game_id = import_game_file(store, path, text, rated=args.rated)
    elif kind in (ImportKind.INPUT_LOG, ImportKind.SERVER_LOG):
        if kind is ImportKind.SERVER_LOG:  # its input log replays exactly; its log does not
            from pokeview.showdown_replay import server_input_log

            text = "\n".join(server_input_log(text) or [])
        game_id = run_stoppable(
            with_bridge(lambda bridge: import_input_log(store, text, path.name, bridge))
        )
    else:
        from pokeview.showdown_replay import import_replay

        game_id = run_stoppable(
            with_bridge(lambda bridge: import_replay(store, text, path.name, bridge))
        )
    earlier = store.same_game(game_id)
    if earlier is not None and not args.again:
        store.delete_game(game_id)
        raise PokeviewError(
            f"{path.name} is game {earlier} already (imported before); nothing was added "
            "(--again imports a second copy)"
        )
    print(f"imported {path.name} as game {game_id}")
    return 0


def add_diff(commands: Commands) -> None:
    p = commands.add(
        "diff", cmd_diff, "score an engine's Pokéval logs against the pinned Showdown's"
    )
    p.add_argument("cases", help="Pokéval battle cases, JSON lines (seed, teams, choices)")
    p.add_argument(
        "engine_output",
        help="the engine's output, JSON lines ({id, log}, log a list of protocol lines); a "
        "battle is scored by the turns matched before its first wrong line, so a line after "
        "|win| (which Showdown's log does not have) costs the last turn",
    )
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.add_argument(
        "--print",
        action="store_true",
        help="print the comparison as text (the default when not on a terminal) "
        "instead of opening the side-by-side view",
    )


def cmd_diff(args: argparse.Namespace) -> int:
    from pokeview import pokeval

    cases = pokeval.load_cases(Path(args.cases))
    engine = pokeval.load_engine_output(Path(args.engine_output))
    score = run_stoppable(with_bridge(lambda bridge: pokeval.score_engine(cases, engine, bridge)))
    if args.json:
        import orjson

        sys.stdout.write(orjson.dumps(score.to_json(), option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    if not args.print and sys.stdout.isatty():
        from pokeview.app import make_app
        from pokeview.screens.diff import DiffScreen

        make_app(database_file(args), lambda: DiffScreen(score.results, score.stops)).run()
        return 0
    from pokeview.text import strip_control

    for r in score.results:
        print(strip_control(pokeval.side_by_side(r)))
        if r.id in score.stops:
            print(strip_control(score.stops[r.id]))
        print()
    print(score.summary())
    return 0


def add_export(commands: Commands) -> None:
    p = commands.add(
        "export",
        cmd_export,
        "write one game: pokeview JSON, spectator log, input log or replay HTML",
    )
    p.add_argument("game", help="a game id")
    p.add_argument(
        "--format",
        choices=["json", "log", "inputlog", "html"],
        default="json",
        help="json (all decisions; default), log, inputlog, or html (a Showdown replay). The "
        "log has no |t:| lines (the wall-clock times simulate-battle prints each turn): "
        "pokeview's logs are the battle alone, so that a game replayed gives the same bytes",
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE instead of standard output"
    )


def cmd_export(args: argparse.Namespace) -> int:
    from pokeview.exchange import export_as
    from pokeview.terminal import unfiltered

    target = Path(args.output) if args.output else None
    if target is not None:
        check_target(target)  # before the work, as well as at the write
    store = open_store(args, existing=True)
    if args.format != "json":
        whole_game_only(store.game(args.game), args.format)
    text = export_as(store, args.game, args.format)
    if target is not None:
        write_whole(target, text)
        print(f"game {args.game} written to {args.output}")
    else:
        # Exact bytes into a pipe or a file; on a terminal, they are shown: control characters go.
        (sys.stdout if sys.stdout.isatty() else unfiltered(sys.stdout)).write(text)
    return 0


def whole_game_only(game: Any, fmt: str) -> None:
    """A log, an input log or a replay page is a whole game's, written when it ends. For a game
    still being played, or cut short, there is none: it is refused in one line rather than
    written empty, or partial (a partial log reads as a whole, shorter game to Showdown's replay
    page and to `pokeview import`). The JSON export carries what is recorded so far, with the
    game's status."""
    from pokeview.store.games import UNFINISHED

    text = game.input_log if fmt == "inputlog" else game.spectator_log
    if game.status not in UNFINISHED or text:
        return
    state = "still being played" if game.status == "running" else f"{game.status}, cut short"
    raise PokeviewError(
        f"game {game.id} is {state}: a {fmt} export is written from a game's end, so there "
        f"is none yet; `pokeview export {game.id}` (JSON) has what is recorded so far, "
        f"`pokeview watch {game.id}` shows it"
    )


def add_verify(commands: Commands) -> None:
    p = commands.add(
        "verify", cmd_verify, "re-run games' input logs in Showdown and compare the spectator logs"
    )
    p.add_argument("game", nargs="*", help="game ids")
    p.add_argument("--all", action="store_true", help="every finished game in the database")
    p.add_argument("--quiet", action="store_true", help="print only failures and the count")


def cmd_verify(args: argparse.Namespace) -> int:
    from pokeview.battle.verify import Verdict, verify_game
    from pokeview.store.store import DamagedGame, damaged_game

    store = open_store(args, existing=True)
    replays = 0
    if args.all:
        finished = store.games(limit=1_000_000, status="finished")
        # An imported Showdown replay has no input log: nothing to verify (named, it is said so).
        ids = [g.id for g in finished if not g.is_imported_replay]
        replays = len(finished) - len(ids)
    elif args.game:
        ids = [store.game(g).id for g in args.game]
    else:
        raise PokeviewError("name a game id to verify, or pass --all")

    async def verify_all(bridge: Any) -> list[Any]:
        verdicts = []
        for gid in ids:  # a damaged game is a failed verdict; the others are still verified
            try:
                verdicts.append(await verify_game(bridge, store, gid))
            except DamagedGame as exc:
                verdicts.append(Verdict(gid, False, 0, str(exc)))
            except sqlite3.DatabaseError as exc:
                verdicts.append(Verdict(gid, False, 0, str(damaged_game(gid, exc))))
        return verdicts

    verdicts = run_stoppable(with_bridge(verify_all))
    bad = [v for v in verdicts if not v.ok]
    for v in verdicts:
        if not v.ok or not args.quiet:
            print(("ok    " if v.ok else "FAIL  ") + v.message)
    if len(verdicts) > 1 or args.all:
        print(f"{len(verdicts) - len(bad)} of {len(verdicts)} games verified")
    if replays:
        said = f"{games_count(replays)} imported from Showdown replays left out"
        print(f"{said}: a replay has no input log")
    return 1 if bad else 0
