"""The games list: every game of the run, filterable by player, result and status (the page's
script hides rows; without it the whole list shows). Void games say why they do not count."""

from __future__ import annotations

from pokeview.site.game import outcome
from pokeview.site.html import esc, game_link, page, player_link
from pokeview.store.store import GameRow


def status_of(game: GameRow) -> str:
    """finished, void (left out of the ratings), error, running or interrupted."""
    if game.status == "void" or (game.exclude_from_ratings and game.status == "finished"):
        return "void"
    return game.status


def result_of(game: GameRow) -> str:
    if game.winner in ("p1", "p2"):
        return f"{game.winner} won"
    return "tie" if game.status == "finished" else "no result"


def _select(name: str, label: str, values: list[str]) -> str:
    options = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
    return (
        f'<label>{esc(label)} <select data-filter="{name}"><option value="">any</option>'
        f"{options}</select></label>"
    )


def render(run_name: str, games: list[GameRow]) -> str:
    players = sorted({g.p1 for g in games} | {g.p2 for g in games})
    rows = "".join(
        f'<tr data-p1="{esc(g.p1)}" data-p2="{esc(g.p2)}" data-result="{esc(result_of(g))}" '
        f'data-status="{esc(status_of(g))}"><td class=n>{game_link(g.id, str(g.id))}</td>'
        f"<td>{player_link(g.p1)}</td><td>{player_link(g.p2)}</td>"
        f"<td>{esc(result_of(g))}</td><td>{esc(status_of(g))}</td>"
        f"<td class=n>{g.turns or 0}</td><td>{outcome(g)}</td></tr>"
        for g in games
    )
    filters = (
        '<form class="filters" id="filters" hidden>'
        + _select("player", "player", players)
        + _select("result", "result", ["p1 won", "p2 won", "tie", "no result"])
        + _select("status", "status", sorted({status_of(g) for g in games}))
        + '<span id="shown-count" aria-live="polite"></span></form>'
    )
    body = (
        f"<h1>Games of {esc(run_name)}</h1>{filters}"
        '<table id="games"><thead><tr><th>game</th><th>p1</th><th>p2</th><th>result</th>'
        f"<th>status</th><th>turns</th><th>ending</th></tr></thead><tbody>{rows}</tbody></table>"
    )
    return page(f"games of {run_name}", body, "games")
