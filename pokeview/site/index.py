"""The site's front page: the report's findings, with names and games linked to their pages,
the games behind each pair (linked, and as a filtered games list), and a ladder's sets with why."""

from __future__ import annotations

from typing import Any

from pokeview.ratings.report import Findings, sections
from pokeview.site.games import matchup_href, matchup_link, status_of
from pokeview.site.html import esc, game_link, page, player_link
from pokeview.store.store import GameRow


def pairs_table(games: list[GameRow]) -> str:
    """Each pair of players that met: the first's score (a tie counts half) in counted games,
    and links to every game between them, void and unfinished ones marked."""
    met: dict[tuple[str, str], list[GameRow]] = {}
    for g in games:
        met.setdefault((min(g.p1, g.p2), max(g.p1, g.p2)), []).append(g)
    rows = []
    for (a, b), played in sorted(met.items()):
        counted = [g for g in played if status_of(g) == "finished"]
        score = sum(
            1.0 if g.winner_name == a else 0.5 if g.winner not in ("p1", "p2") else 0.0
            for g in counted
        )
        links = " ".join(
            game_link(g.id, str(g.id) if status_of(g) == "finished" else f"{g.id} ({status_of(g)})")
            for g in played
        )
        rows.append(
            f"<tr><td>{player_link(a)}</td><td>{player_link(b)}</td>"
            f"<td class=n>{score:g} of {len(counted)}</td><td>{links}</td>"
            f"<td>{matchup_link(a, b, 'filter the list')}</td></tr>"
        )
    return (
        '<table id="pairs"><tr><th>player</th><th>against</th><th>score</th><th>games</th>'
        f"<th>games list</th></tr>{''.join(rows)}</table>"
    )


def sets_table(sets: list[dict[str, Any]], games: list[GameRow]) -> str:
    """A ladder's sets in the order its schedule chose them, each with why and its games."""
    rows = []
    for n, chosen in enumerate(sets, start=1):
        a, b, pairs = str(chosen.get("a")), str(chosen.get("b")), chosen.get("pairs") or []
        played = [g for g in games if {g.p1, g.p2} == {a, b} and g.pair in pairs]
        links = " ".join(game_link(g.id, str(g.id)) for g in played) or "not played yet"
        rows.append(
            f"<tr><td class=n>{n}</td><td>{player_link(a)} vs {player_link(b)}</td>"
            f"<td class=n>{len(pairs)}</td><td>{esc(chosen.get('why', ''))}</td>"
            f"<td>{links}</td></tr>"
        )
    return (
        "<h2>How the ladder chose its games</h2>"
        '<table id="sets"><tr><th>#</th><th>set</th><th>mirror pairs</th><th>why</th>'
        f"<th>games</th></tr>{''.join(rows)}</table>"
    )


def render(
    f: Findings, players: list[str], games: list[GameRow], sets: list[dict[str, Any]]
) -> str:
    body = [
        f"<h1>Findings: {esc(f.run_name)}</h1>",
        f'<p><a href="games.html">all {len(games)} games</a> · players: '
        + ", ".join(player_link(name) for name in players)
        + "</p>",
        *sections(f, name=player_link, game=game_link, pair=matchup_href),
        "<h2>The games behind each pair</h2>",
        pairs_table(games),
        sets_table(sets, games) if sets else "",
    ]
    return page(f"pokeview: {f.run_name}", "\n".join(body), "index")
