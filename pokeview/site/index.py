"""The site's front page: the report's findings, with names and games linked to their pages."""

from __future__ import annotations

from pokeview.ratings.report import Findings, sections
from pokeview.site.html import esc, game_link, page, player_link


def render(f: Findings, players: list[str], games: int) -> str:
    body = [
        f"<h1>Findings: {esc(f.run_name)}</h1>",
        f'<p><a href="games.html">all {games} games</a> · players: '
        + ", ".join(player_link(name) for name in players)
        + "</p>",
        *sections(f, name=player_link, game=game_link),
    ]
    return page(f"pokeview: {f.run_name}", "\n".join(body), "index")
