"""One game at a time: `battle`, `games`, `watch`, `play`, `prompt`, and the app itself."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any

from pokeview.cli.common import (
    DEFAULT_FORMAT,
    KINDS,
    PLAYERS_HELP,
    Commands,
    Stopped,
    add_server_options,
    database_file,
    in_range,
    open_store,
    read_team,
    run_stoppable,
    server_options,
    with_bridge,
)
from pokeview.errors import PokeviewError

# -- battle -------------------------------------------------------------------------------------

BATTLE_TURN_LIMIT = 300  # --turn-limit's default


def add_battle(commands: Commands) -> None:
    p = commands.add(
        "battle", cmd_battle, "play one headless game, record it and print its id, winner and turns"
    )
    p.add_argument("--p1", required=True, metavar="PLAYER", help=KINDS)
    p.add_argument("--p2", required=True, metavar="PLAYER", help=KINDS)
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
        default=BATTLE_TURN_LIMIT,
        metavar="N",
        help=f"the game is a tie at turn N (default {BATTLE_TURN_LIMIT})",
    )
    p.add_argument("--players", metavar="PATH", help=PLAYERS_HELP)
    add_server_options(p)


def cmd_battle(args: argparse.Namespace) -> int:
    from pokeview.battle.endings import TURN_LIMIT, describe
    from pokeview.battle.play import play
    from pokeview.battle.spec import GameSpec
    from pokeview.exchange.server_game import LocalServer
    from pokeview.players import make_player
    from pokeview.players.kinds import PlayerKind
    from pokeview.players.server import ServerPlayer
    from pokeview.tournament.config import TURN_LIMITS

    server = server_options(args)
    in_range("--turn-limit", args.turn_limit, TURN_LIMITS)
    p1 = make_player(args.p1, args.players, server=server)
    p2 = make_player(args.p2, args.players, server=server)
    if PlayerKind.HUMAN in (p1.kind, p2.kind):  # no screen here: nobody could ever choose
        raise PokeviewError(
            "battle plays headless; to play a side yourself: pokeview play --vs PLAYER"
        )
    for player in (p1, p2):
        if isinstance(player, ServerPlayer):
            print(
                f"waiting for '{player.user}' on ws://127.0.0.1:{player.server.port}"
                f"/showdown/websocket to accept a {args.format} challenge",
                file=sys.stderr,
                flush=True,
            )
    teams = None
    if args.team1 or args.team2:
        teams = {
            "p1": read_team(args.team1 or args.team2) or "",
            "p2": read_team(args.team2 or args.team1) or "",
        }
    seed_text = args.seed if args.seed is not None else secrets.token_hex(4)
    store = open_store(args)

    spec = GameSpec.new(args.format, seed_text, p1, p2, turn_limit=args.turn_limit, teams=teams)

    async def on(bridge: Any) -> Any:
        return await play(spec, venue=LocalServer(bridge), store=store)

    try:
        result = run_stoppable(with_bridge(on))
    except Stopped as stopped:
        if store.last_created is not None:  # its row was written: kept, as interrupted
            stopped.then = _kept_when_stopped(args, store.game(store.last_created), seed_text)
        raise
    store.close()
    if result.status not in ("finished", "void"):
        print(
            f"game {result.game_id}: error after {result.turns} turns: {result.error}",
            file=sys.stderr,
        )
        return 1
    server_game = PlayerKind.SERVER in (p1.kind, p2.kind)
    # A server game is the bridge game of its seed too (pokeview chose seed, teams and seats).
    where = f"seed {seed_text!r}" + (" on the local server" if server_game else "")
    how = (
        f"winner {result.winner_name}"
        f"{'' if result.winner == 'tie' else f' ({result.winner})'} after {result.turns} turns"
        + _ending_said(result.ending, result.winner, result.players, result.turns)
    )
    if result.ending == TURN_LIMIT:  # "a tie declared at the turn limit (N turns)", said once
        how = describe(TURN_LIMIT, "", result.turns)
    print(
        f"game {result.game_id}: {result.players['p1']} (p1) vs {result.players['p2']} (p2), "
        f"{where}: {how}"
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


def _kept_when_stopped(args: argparse.Namespace, game: Any, seed_text: str) -> str:
    """What a stopped `battle` kept, and how to go on: a bots' game is not resumed, it is
    played again from its seed (the same seed and players give the same game)."""
    import shlex

    from pokeview.text import strip_control

    def also(*pairs: tuple[str, Any]) -> list[str]:
        return [w for flag, value in pairs if value is not None for w in (flag, str(value))]

    again = ["pokeview", "battle", "--p1", args.p1, "--p2", args.p2]
    if args.format != DEFAULT_FORMAT:
        again += ["--format", args.format]
    again += ["--seed", seed_text]
    if args.turn_limit != BATTLE_TURN_LIMIT:
        again += ["--turn-limit", str(args.turn_limit)]
    again += also(
        ("--team1", args.team1),
        ("--team2", args.team2),
        ("--players", args.players),
        ("--server-port", args.server_port),
        ("--server-wait", args.server_wait),
        ("--db", args.db),
    )
    watch = shlex.join(["pokeview", "watch", str(game.id), *also(("--db", args.db))])
    names = strip_control(f"{game.p1} vs {game.p2}")
    return (
        f"game {game.id} ({names}) is kept as interrupted: `{watch}` shows it; "
        f"`{shlex.join(again)}` plays it again"
    )


def _ending_said(ending: str | None, winner: str | None, names: dict[str, str], turns: Any) -> str:
    from pokeview.battle.endings import of_game
    from pokeview.text import strip_control

    said = of_game(ending, winner, names, turns)
    return f" ({strip_control(said)})" if said else ""


# -- games --------------------------------------------------------------------------------------


GAMES_LISTED = (1, 1_000_000)  # SQLite reads a negative limit as none


def add_games(commands: Commands) -> None:
    p = commands.add("games", cmd_games, "list recorded games, newest first")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--limit", type=int, default=50, metavar="N", help="at most N games (default 50)"
    )
    p.add_argument(
        "--status",
        choices=["running", "finished", "void", "error", "interrupted"],
        help="only games in this state",
    )


def cmd_games(args: argparse.Namespace) -> int:
    from pokeview.text import games_count, safe

    in_range("--limit", args.limit, GAMES_LISTED)
    store = open_store(args, existing=True)
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
                "ending": g.ending,
            }
            for g in games
        ]
        sys.stdout.write(orjson.dumps(rows, option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    from rich.text import Text

    from pokeview.terminal_tables import Column, fitted_table, print_fitted
    from pokeview.text import strip_control

    # On a narrow terminal the format goes first, then the start time and the turns: who
    # played, who won and how each game stands are what the list is read for.
    columns = (
        Column("id", "right"),
        Column("started", drop=2),
        Column("format", drop=3),
        Column("p1"),
        Column("p2"),
        Column("winner"),
        Column("turns", "right", drop=1),
        Column("status"),
    )

    count = store.count_games()
    title = Text(strip_control(f"{games_count(count)} in {store.path}"), "table.title")

    def table_rows(winner_side: bool) -> list[list[str]]:
        return [
            [
                str(g.id),
                safe(g.started_at[:19].replace("T", " ")),
                safe(g.format),
                safe(g.p1),
                safe(g.p2),
                (safe(g.winner or "-") if winner_side else safe(g.winner_name))
                + (f" ({safe(g.ending)})" if g.ending else ""),  # the word fits
                str(g.turns or "-"),
                safe(g.status)
                if g.status not in ("error", "void")
                else f"{g.status}: {safe((g.error or '')[:40])}",
            ]
            for g in games
        ]

    def fitted(console: Any, width: int | None) -> Any:
        # Where the winner's name costs the players' whole names, the winner is given by side.
        by_name = fitted_table(console, width, columns, table_rows(False), title)
        return (
            by_name
            if by_name.fits
            else fitted_table(console, width, columns, table_rows(True), title)
        ).renderable

    print_fitted(fitted)
    return 0


# -- the app: home, watch, play -------------------------------------------------------------------


def cmd_app(args: argparse.Namespace) -> int:
    """`pokeview` alone: the app on the database, at the home screen."""
    from pokeview.app import make_app

    make_app(database_file(args)).run()
    return 0


def add_watch(commands: Commands) -> None:
    p = commands.add(
        "watch", cmd_watch, "step through a recorded game turn by turn (the replay viewer)"
    )
    p.add_argument("game", help="a game id, or a game file written by `pokeview export`")
    p.add_argument(
        "--side",
        choices=["p1", "p2", "spectator"],
        help="whose view (s switches; default p1, or for a running game the model's side)",
    )


def cmd_watch(args: argparse.Namespace) -> int:
    from pokeview.app import make_app
    from pokeview.screens.watch import WatchScreen

    game = args.game
    if game.endswith(".json") or Path(game).is_file():
        from pokeview.exchange import game_file_in_scratch

        with game_file_in_scratch(Path(game)) as (scratch, game_id):
            make_app(
                scratch, lambda: WatchScreen(scratch, game_id, args.side, from_file=Path(game))
            ).run()
        return 0
    path = database_file(args, existing=True)
    store = open_store(args)
    game_id = store.game(game).id  # an unknown id is one clear line, before any screen
    store.close()
    make_app(path, lambda: WatchScreen(path, game_id, args.side)).run()
    return 0


def add_play(commands: Commands) -> None:
    p = commands.add("play", cmd_play, "play one side yourself against a bot or a model")
    p.add_argument(
        "--vs",
        default="heuristic",
        metavar="PLAYER",
        help=f"the opponent: {KINDS} (default heuristic)",
    )
    p.add_argument("--side", choices=["p1", "p2"], default="p1", help="your side (default p1)")
    p.add_argument(
        "--format", default=DEFAULT_FORMAT, help=f"a Showdown format (default {DEFAULT_FORMAT})"
    )
    p.add_argument("--seed", metavar="TEXT", help="seed text (default: a new one)")
    p.add_argument(
        "--team", metavar="FILE", help="both sides' team, for formats without random teams"
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const=NEWEST,
        metavar="GAME",
        help="continue an unfinished game of yours: GAME's id, or the newest when none is given",
    )
    p.add_argument("--players", metavar="PATH", help=PLAYERS_HELP)


def cmd_play(args: argparse.Namespace) -> int:
    from pokeview.app import make_app
    from pokeview.players import make_player
    from pokeview.screens.play import PlayScreen
    from pokeview.store.games import UNFINISHED

    resuming = args.resume is not None
    path = database_file(args, existing=resuming)  # a game to resume is in one that exists
    options: dict[str, Any] = {"players_file": args.players}
    if resuming:
        store = open_store(args)
        try:
            options["resume"] = game_to_resume(store, args.resume)
        finally:
            store.close()
    else:
        # An unknown opponent, or one that cannot play the format, is one clear line first.
        opponent = make_player(args.vs, args.players)
        opponent.check_format(args.format)
        teams = None
        if args.team:
            team = read_team(args.team)
            teams = {"p1": team, "p2": team}
        if args.format != DEFAULT_FORMAT or teams:  # what Showdown may refuse: asked now
            run_stoppable(with_bridge(lambda bridge: showdown_takes(bridge, args.format, teams)))
        options.update(
            opponent=args.vs, side=args.side, format=args.format, seed_text=args.seed, teams=teams
        )
    screens: list[PlayScreen] = []

    def play_screen() -> PlayScreen:
        screens.append(PlayScreen(path, **options))
        return screens[-1]

    make_app(path, play_screen).run()
    game_id = (screens[0].game_id if screens else None) or options.get("resume")
    if game_id is not None:
        store = open_store(args)
        try:
            kept = store.game(game_id).status in UNFINISHED
        finally:
            store.close()
        if kept:
            print(f"game {game_id} is kept, unfinished; to go on: {resume_command(args, game_id)}")
    return 0


async def showdown_takes(bridge: Any, format_id: str, teams: dict[str, str | None] | None) -> None:
    """Start (and drop) a game of this format and teams: a format or team Showdown refuses is
    one clear line, not an error on a play screen that has opened."""
    from pokeview.battle import seeds
    from pokeview.game.bridge import PlayerSpec, Start

    seed = seeds.game_seed("check", 0)
    players = {
        side: PlayerSpec(side, team=team)
        if teams and (team := teams.get(side))
        else PlayerSpec(side, seed=seeds.team_seed(seed, side))
        for side in ("p1", "p2")
    }
    channel = await bridge.open(
        Start(format=format_id, seed=seeds.battle_seed(seed), players=players)
    )
    try:
        await channel.next()
    finally:
        channel.close()


NEWEST = "newest"  # `--resume` given no game


def game_to_resume(store: Any, which: str) -> int:
    """The id of the person's unfinished game named (or the newest), or one clear line saying
    why that game cannot be resumed."""
    if which == NEWEST:
        newest = store.latest_human_game()
        if newest is None:
            raise PokeviewError("there is no unfinished game of yours to resume")
        return int(newest.id)
    game = store.game(which)  # an unknown id is one clear line
    if "human" not in (game.p1_config.get("kind"), game.p2_config.get("kind")):
        raise PokeviewError(
            f"game {game.id} ({game.p1} vs {game.p2}) was not played by a person: only your own "
            "games from `pokeview play` can be resumed (`pokeview battle` plays bots' games again)"
        )
    from pokeview.store.games import UNFINISHED

    if game.status not in UNFINISHED:
        raise PokeviewError(
            f"game {game.id} is {game.status}, not left mid-way: nothing to resume "
            f"(`pokeview watch {game.id}` replays it)"
        )
    return int(game.id)


def resume_command(args: argparse.Namespace, game_id: int) -> str:
    """The exact command that continues the game, with the options it was played under."""
    import shlex

    words = ["pokeview", "play", "--resume", str(game_id)]
    if args.db:
        words += ["--db", args.db]
    if args.players:
        words += ["--players", args.players]
    return shlex.join(words)


# -- prompt -------------------------------------------------------------------------------------


def add_prompt(commands: Commands) -> None:
    p = commands.add("prompt", cmd_prompt, "print exactly what the model on one side saw at turn N")
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


def cmd_prompt(args: argparse.Namespace) -> int:
    import orjson

    from pokeview.players.llm.conversation import (
        conversation,
        decision_for_turn,
        format_conversation,
    )
    from pokeview.text import strip_control

    store = open_store(args, existing=True)
    game = store.game(args.game)
    decisions = store.decisions(game.id, args.side)
    if not decisions:  # an imported replay or log keeps no decisions
        raise PokeviewError(
            f"{args.side} made no decisions in game {game.id}: there is no prompt to show"
        )
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
