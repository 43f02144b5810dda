"""`ladder create | add | play | show`: a growing set of rated players."""

from __future__ import annotations

import argparse
import shlex
from typing import Any

from pokeview.cli.common import (
    DEFAULT_FORMAT,
    KINDS,
    PLAYERS_HELP,
    Commands,
    add_ray_options,
    add_server_options,
    bridge_and_ray,
    open_store,
    played_again_note,
    run_stoppable,
    server_options,
)


def add_ladder(commands: Commands) -> None:
    p = commands.add(
        "ladder",
        cmd_ladder,
        "a ladder: a growing set of rated players; newcomers are placed with few games",
    )
    common = commands.common
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
        "--player", action="append", metavar="PLAYER", help=f"a first member (repeatable): {KINDS}"
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
    lp.add_argument("--players", metavar="PATH", help=PLAYERS_HELP)
    lp.set_defaults(func=cmd_ladder)
    lp = lsub.add_parser("add", parents=[common], help="add players; the next play places them")
    lp.add_argument("name", help="the ladder")
    lp.add_argument("player", nargs="+", help=KINDS)
    lp.add_argument("--players", metavar="PATH", help=PLAYERS_HELP)
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
    lp.add_argument("--players", metavar="PATH", help=PLAYERS_HELP)
    lp.add_argument(
        "--allow-module",
        action="append",
        default=[],
        metavar="MODULE:CLASS",
        help="let this member, a Python module, be imported and play (repeat for each): the "
        "ladder's database alone does not choose code to run",
    )
    add_server_options(lp)
    add_ray_options(lp)
    lp.set_defaults(func=cmd_ladder)
    lp = lsub.add_parser("show", parents=[common], help="ratings, members, spend, what comes next")
    lp.add_argument("name", help="the ladder")
    lp.add_argument("--players", metavar="PATH", help=PLAYERS_HELP)
    lp.set_defaults(func=cmd_ladder)


def cmd_ladder(args: argparse.Namespace) -> int:
    # Only `create` starts a ladder; the others look one up, so its database must exist.
    store = open_store(args, existing=args.ladder_command != "create")
    try:
        if args.ladder_command == "create":
            return _create(args, store)
        if args.ladder_command == "add":
            return _add(args, store)
        if args.ladder_command == "play":
            return _play(args, store)
        return _show(args, store)
    finally:
        store.close()


def _create(args: argparse.Namespace, store: Any) -> int:
    from pokeview.tournament import ladder

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


def _add(args: argparse.Namespace, store: Any) -> int:
    from pokeview.players.registry import imports_code
    from pokeview.tournament import ladder

    added = [ladder.add_player(store, args.name, spec, args.players) for spec in args.player]
    print(f"ladder {args.name}: added {', '.join(added)}; it is placed by the next play")
    for player in filter(imports_code, added):
        print(
            f"  {player} is a Python module: it plays when `ladder play` names it, with "
            f"--allow-module {shlex.quote(player)}"
        )
    return 0


def _play(args: argparse.Namespace, store: Any) -> int:
    from pokeview.text import strip_control
    from pokeview.tournament import ladder_play

    def say(line: str) -> None:
        print(line, flush=True)

    server = server_options(args)

    remote: Any = None

    async def play() -> Any:
        nonlocal remote
        async with bridge_and_ray(args) as (bridge, remote):
            return await ladder_play.play_ladder(
                store,
                bridge,
                args.name,
                budget_games=args.budget_games,
                budget_usd=args.budget_usd,
                concurrency=args.concurrency,
                players_file=args.players,
                say=say,
                server=server,
                remote=remote,
                allow_modules=args.allow_module,
            )

    outcome = run_stoppable(play())
    print(
        strip_control(
            f"ladder {args.name}: {outcome.played} games played now ({outcome.failed} ended in "
            f"errors); this budget spent {outcome.spent.text()}; stopped: {outcome.why_stopped}; "
            f"see `pokeview ladder show {args.name}`" + played_again_note(remote)
        )
    )
    return 1 if outcome.failed or outcome.stopped else 0


def _show(args: argparse.Namespace, store: Any) -> int:
    from pokeview.ratings.summary import build_report
    from pokeview.terminal_tables import print_fitted
    from pokeview.tournament import ladder, ladder_play
    from pokeview.tournament.display import report_renderable

    the_ladder = ladder.load_ladder(store, args.name)
    report = build_report(store, args.name)
    print_fitted(lambda console, width: report_renderable(report, console, width))
    for line in ladder_play.status_lines(store, the_ladder, args.players):
        print(line)
    return 0
