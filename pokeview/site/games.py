"""The games list: every game of the run, filterable by player, matchup (the pair, in either
order), result and status; void games say why they do not count. The page's script hides rows
and keeps the filters in the address (`games.html#player=KEY&matchup=KEY-KEY`), so other pages
link to a filtered list; without the script the whole list shows."""

from __future__ import annotations

from pokeview.site.game import outcome
from pokeview.site.html import esc, game_link, page, player_key, player_link
from pokeview.store.store import GameRow

# The result filter's choices: (value, label); the last two read the player filter.
RESULTS = (
    ("p1 won", "p1 won"),
    ("p2 won", "p2 won"),
    ("tie", "tie"),
    ("no result", "no result"),
    ("player won", "won by the player chosen"),
    ("player lost", "lost by the player chosen"),
)


def status_of(game: GameRow) -> str:
    """finished, void (left out of the ratings), error, running or interrupted."""
    if game.status == "void" or (game.exclude_from_ratings and game.status == "finished"):
        return "void"
    return game.status


def result_of(game: GameRow) -> str:
    if game.winner in ("p1", "p2"):
        return f"{game.winner} won"
    return "tie" if game.status == "finished" else "no result"


def matchup_key(a: str, b: str) -> str:
    """The pair, whichever side each played."""
    return "-".join(sorted((player_key(a), player_key(b))))


def matchup_href(a: str, b: str) -> str:
    """The games list filtered to the games between a and b, seen as a's (its wins, losses)."""
    return f"games.html#player={player_key(a)}&matchup={matchup_key(a, b)}"


def matchup_link(a: str, b: str, text: str) -> str:
    return f'<a href="{esc(matchup_href(a, b))}">{esc(text)}</a>'


def _select(name: str, label: str, options: list[tuple[str, str]]) -> str:
    shown = "".join(f'<option value="{esc(v)}">{esc(text)}</option>' for v, text in options)
    return (
        f'<label>{esc(label)} <select data-filter="{name}"><option value="">any</option>'
        f"{shown}</select></label>"
    )


def ending_of(game: GameRow) -> str:
    """How the game ended (the game page's words), and for an interrupted game why."""
    if game.status == "interrupted" and game.error:
        return f'<span class="error">interrupted: {esc(game.error)}</span>'
    return outcome(game)


def _row(g: GameRow) -> str:
    winner = player_key(g.winner_name) if g.winner in ("p1", "p2") else ""
    return (
        f'<tr data-p1="{esc(g.p1)}" data-p2="{esc(g.p2)}" '
        f'data-player="{player_key(g.p1)} {player_key(g.p2)}" '
        f'data-matchup="{matchup_key(g.p1, g.p2)}" data-winner="{winner}" '
        f'data-result="{esc(result_of(g))}" data-status="{esc(status_of(g))}">'
        f"<td class=n>{game_link(g.id, str(g.id))}</td>"
        f"<td>{player_link(g.p1)}</td><td>{player_link(g.p2)}</td>"
        f"<td>{esc(result_of(g))}</td><td>{esc(status_of(g))}</td>"
        f"<td class=n>{esc(g.turns or 0)}</td><td>{ending_of(g)}</td></tr>"
    )


def render(run_name: str, games: list[GameRow]) -> str:
    players = sorted({g.p1 for g in games} | {g.p2 for g in games})
    pairs = sorted({tuple(sorted((g.p1, g.p2))) for g in games})
    filters = (
        '<div class="filters" id="filters" hidden>'
        + _select("player", "player", [(player_key(p), p) for p in players])
        + _select("matchup", "matchup", [(matchup_key(a, b), f"{a} vs {b}") for a, b in pairs])
        + _select("result", "result", list(RESULTS))
        + _select("status", "status", [(s, s) for s in sorted({status_of(g) for g in games})])
        + '<span id="shown-count" aria-live="polite"></span></div>'
    )
    void_note = (
        '<p class="note">A void game was played but is left out of the ratings; its ending '
        "says why.</p>"
        if any(status_of(g) == "void" for g in games)
        else ""
    )
    body = (
        f"<h1>Games of {esc(run_name)}</h1>{filters}{void_note}"
        '<table id="games"><thead><tr><th>game</th><th>p1</th><th>p2</th><th>result</th>'
        f"<th>status</th><th>turns</th><th>ending</th></tr></thead>"
        f"<tbody>{''.join(_row(g) for g in games)}</tbody></table>"
    )
    return page(f"games of {run_name}", body, "games")
