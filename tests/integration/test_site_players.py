"""`pokeview site`'s player pages, games list and index: ratings as games were added, the most
telling decisions linked to where they were made, the list's filters in the browser, a ladder as
well as a run, and hostile text on the new parts."""

from __future__ import annotations

import html
import re
from pathlib import Path

from pokeview.game.decision import ModelDetail
from pokeview.ratings.history import rating_history
from pokeview.ratings.summary import build_report
from pokeview.ratings.telling import EXCERPT
from pokeview.site.build import build_site
from pokeview.site.games import matchup_key
from pokeview.site.html import game_file, player_file, player_key
from pokeview.tournament import ladder, ladder_play
from pokeview.tournament.config import parse_run_config
from pokeview.tournament.runner import run_tournament
from tests import hostile
from tests.helpers import pokeview, write_players
from tests.integration.test_site import RUNS, chromium, could_run, dom_of, links_resolve

MODELS = {  # name in the players file: the loopback's behaviour
    "illegal": {"model": "loopback-illegal"},  # names action 99 first: asked again
    "malformed": {"model": "loopback-malformed"},  # never an ACTION line: random picks
    "broken": {"model": "loopback-401", "max_retries": 0},  # rejected: autopilot, void games
}


async def telling_run(store, bridge, loopback, tmp_path: Path) -> str:
    players = write_players(tmp_path / "players.toml", loopback.base_url, **MODELS)
    config = parse_run_config(
        {
            "name": "telling",
            "seed": "telling",
            "pairs": 1,
            "turn_limit": 30,
            "players": ["llm:illegal", "llm:malformed", "llm:broken", "random", "max-damage"],
            "matchups": [
                ["llm:illegal", "random"],
                ["llm:illegal", "max-damage"],
                ["llm:malformed", "random"],
                ["llm:broken", "random"],
                ["max-damage", "random"],
            ],
        },
        tmp_path / "run.toml",
    )
    progress = await run_tournament(config, store=store, bridge=bridge, players_file=players)
    assert progress.failed == 0 and progress.done == 10
    return "telling"


def page_of(folder: Path, name: str) -> str:
    return (folder / player_file(name)).read_text()


def telling_items(page: str, kind: str) -> list[tuple[int, int, str]]:
    """(game, turn, note) of each telling decision of a kind listed on a player's page."""
    listed = page.split(f'id="telling-{kind}"', 1)[1].split("</ol>", 1)[0]
    return [
        (int(g), int(t), html.unescape(note))
        for g, t, note in re.findall(
            r'<a href="game-(\d+)\.html#t(\d+)">.*?<blockquote[^>]*>(.*?)</blockquote>',
            listed,
            re.S,
        )
    ]


async def test_player_pages_link_telling_decisions_to_where_they_were_made(
    bridge, store, loopback, tmp_path
):
    run = await telling_run(store, bridge, loopback, tmp_path)
    folder = tmp_path / "site"
    build_site(store, run, folder)
    assert links_resolve(folder) > 60
    games = {g.id: g for g in store.games(run_id=store.run(run).id, limit=-1)}
    names = {g.id: {"p1": g.p1, "p2": g.p2} for g in games.values()}
    decisions = {(d.game_id, d.side, d.idx): d for gid in games for d in store.decisions(gid)}

    def made(game_id: int, turn: int, player: str) -> list:
        return [
            d
            for (g, side, _), d in decisions.items()
            if g == game_id and d.turn == turn and names[g][side] == player
        ]

    # Re-asks: each listed one was asked again, in the game and turn it links to, and its game
    # page has that turn's section holding the decision.
    illegal = page_of(folder, "llm:illegal")
    reasks = telling_items(illegal, "reask")
    assert reasks and all("99" in note for _, _, note in reasks)
    for game_id, turn, _ in reasks:
        found = [d for d in made(game_id, turn, "llm:illegal") if d.detail.reasks]
        assert found, (game_id, turn)
        section = (folder / game_file(game_id)).read_text().split(f'id="t{turn}"', 1)[1]
        section = section.split('<section class="turn"', 1)[0]
        assert f'id="{found[0].side}-d{found[0].idx}"' in section
    total = sum(1 for d in decisions.values() if names[d.game_id][d.side] == "llm:illegal"
                and isinstance(d.detail, ModelDetail) and d.detail.reasks)  # fmt: skip
    assert f"asked again (an answer named no legal action): {total} decisions" in illegal
    # Its longest reasoning, longest first, each an excerpt of that decision's own reasoning.
    longest = telling_items(illegal, "reasoning")
    sizes = [int(n.replace(",", "")) for n in re.findall(r"· ([\d,]+) characters", illegal)]
    assert len(longest) == 5 and sizes == sorted(sizes, reverse=True)
    for game_id, turn, note in longest:
        texts = [" ".join(d.detail.reasoning.split()) for d in made(game_id, turn, "llm:illegal")]
        assert any(t[: EXCERPT - 1] == note.removesuffix("…") for t in texts)

    # Random picks and autopilot: counted as the record has them; a void game says why.
    malformed = page_of(folder, "llm:malformed")
    assert telling_items(malformed, "random")
    assert "no answer named a legal action" in malformed
    broken = page_of(folder, "llm:broken")
    autopilot = [
        d for d in decisions.values()
        if names[d.game_id][d.side] == "llm:broken" and d.how == "autopilot"
    ]  # fmt: skip
    assert autopilot and f"autopilot (the provider failed): {len(autopilot)} decisions" in broken
    assert "HTTP 401" in telling_items(broken, "autopilot")[0][2]
    assert "Not rated" in broken  # every game of it was void
    decided = sum(names[d.game_id][d.side] == "llm:broken" for d in decisions.values())
    assert (
        f"In all 2 of its games (void ones included), {decided:,} decisions: 0 asked again, "
        f"0 refused by Showdown, 0 random picks, {len(autopilot):,} on autopilot." in broken
    )
    assert broken.count(" void</a>") == 2  # its games, marked void against its opponent
    listed = (folder / "games.html").read_text()
    assert listed.count("void: llm:broken (p") == 2 and "was on autopilot for" in listed

    # Settings as a reader looks for them, defaults said in words.
    assert "<th scope=row>API</th><td>chat completions (OpenAI-compatible)</td>" in illegal
    assert "<th scope=row>reasoning setting</th><td>none sent" in illegal
    assert "<th scope=row>model</th><td>loopback-illegal</td>" in illegal
    assert "<th scope=row>tokens in its rated games</th>" in illegal

    # Rating history: one point per step after its first game; the last is the index's rating.
    history = rating_history(store, run)
    report = {p.name: p for p in build_report(store, run).players}
    for name, line in report.items():
        page = page_of(folder, name)
        points = [s for s in history if name in s.players]
        assert page.count('class="step"') == len(points) > 0
        rows = re.findall(
            r"<tr><td class=n>(\d+)</td><td class=n>(\d+)</td><td class=n>(-?\d+)</td>", page
        )
        assert rows[-1] == (str(history[-1].games), str(line.games), f"{line.rating:.0f}")
        assert f"{line.rating:.0f} (95% interval {line.low:.0f}–{line.high:.0f})" in page
    assert 'id="fig-history"' not in broken and "No rating yet" in broken

    # Each cell of the index's head to head opens the list of that pair's games.
    index = (folder / "index.html").read_text()
    figure = index.split('id="fig-head-to-head"', 1)[1].split("</svg>", 1)[0]
    cells = re.findall(r'<a href="games\.html#player=(\w+)&amp;matchup=([\w-]+)"', figure)
    assert len(cells) == figure.count('class="cell"') > 0
    assert all(player in matchup.split("-") for player, matchup in cells)

    games_list_filters_in_the_browser(folder, list(games.values()), tmp_path / "profile")


def games_list_filters_in_the_browser(folder: Path, games: list, profile: Path) -> None:
    """The games list's filters, as a reader uses them: by matchup (from the index), the chosen
    player's losses, status, player."""
    from tests.cdp import Browser

    count = "document.getElementById('shown-count').textContent"
    shown = (
        "Array.from(document.querySelectorAll('#games tbody tr:not([hidden])'), "
        "r => Number(r.querySelector('td a').textContent))"
    )
    browser = Browser(chromium(), (folder / "index.html").as_uri(), profile)
    try:
        # From the index, the games behind a pair: the list opens filtered to them.
        browser.wait_for("!!document.getElementById('pairs')")
        pair = sorted(("llm:illegal", "max-damage"))
        browser.click(f'#pairs a[href$="{matchup_key(*pair)}"]')
        browser.wait_for(f"{count}?.startsWith('2 of ')")
        expected = sorted(g.id for g in games if {g.p1, g.p2} == set(pair))
        assert sorted(browser.value(shown)) == expected
        # Either order of the pair is the same matchup; the player's losses within it.
        browser.value(
            "const r = document.querySelector('select[data-filter=result]');"
            "r.value = 'player lost'; r.dispatchEvent(new Event('change'))"
        )
        assert browser.value("document.querySelector('select[data-filter=player]').value") == (
            player_key(pair[0])
        )
        lost_by = {
            g.id
            for g in games
            if {g.p1, g.p2} == set(pair) and g.winner in ("p1", "p2") and g.winner_name != pair[0]
        }
        assert set(browser.value(shown)) == lost_by
        assert browser.value(count) == f"{len(lost_by)} of {len(games)} games"
        assert "result=player+lost" in browser.value("location.hash")
        # With no player chosen, 'lost by the player chosen' is not a choice: the filter clears.
        browser.value(
            "const q = document.querySelector('select[data-filter=player]');"
            "q.value = ''; q.dispatchEvent(new Event('change'))"
        )
        assert browser.value("document.querySelector('select[data-filter=result]').value") == ""
        assert browser.value(count) == f"2 of {len(games)} games"
        # Status: the void games, each saying why.
        void = sorted(g.id for g in games if g.status == "void")
        assert len(void) == 4  # llm:broken's (autopilot) and llm:malformed's (random picks)
        browser.call("Page.navigate", url=(folder / "games.html").as_uri() + "#status=void")
        browser.wait_for(f"{count} === '4 of {len(games)} games'")
        assert sorted(browser.value(shown)) == void
        whys = browser.value(
            "Array.from(document.querySelectorAll('#games tbody tr:not([hidden]) .void'), "
            "e => e.textContent)"
        )
        assert len(whys) == 4 and all("was on autopilot for" in why for why in whys)
        # A player: every game it played, as p1 or p2; clearing the filters shows all.
        browser.value(
            "const s = document.querySelector('select[data-filter=status]');"
            "s.value = ''; s.dispatchEvent(new Event('change'));"
            "const p = document.querySelector('select[data-filter=player]');"
            f"p.value = '{player_key('random')}'; p.dispatchEvent(new Event('change'))"
        )
        played = sorted(g.id for g in games if "random" in (g.p1, g.p2))
        assert sorted(browser.value(shown)) == played
        assert browser.value(count) == f"{len(played)} of {len(games)} games"
    finally:
        browser.close()


async def test_a_ladder_makes_a_site_with_its_anchors_fixed_in_the_history(bridge, store, tmp_path):
    ladder.create_ladder(store, "lad", anchors=["max-damage=1000"], turn_limit=40)
    ladder.add_player(store, "lad", "heuristic")
    await ladder_play.play_ladder(store, bridge, "lad", budget_games=8, say=lambda _: None)
    store.commit()
    folder = tmp_path / "site"
    made = pokeview("site", "lad", "-o", str(folder), "--db", str(store.path))  # RUN_OR_LADDER
    assert made.returncode == 0 and ": 8 games, 8 game pages written" in made.stdout, made.stderr
    assert links_resolve(folder)
    index = (folder / "index.html").read_text()
    assert "<th scope=row>ladder</th><td><b>lad</b></td>" in index
    assert "<th scope=row>anchors</th><td>max-damage at 1000</td>" in index
    sets = index.split('id="sets"', 1)[1].split("</table>", 1)[0]
    assert "screening against random" in sets and "placement: anchor" in sets
    assert len(re.findall(r'href="game-\d+\.html"', sets)) == 8  # every game, under its set
    anchor = page_of(folder, "max-damage")
    assert "1000 (95% interval 1000–1000)" in anchor
    steps = re.findall(r"<td class=n>(-?\d+)</td><td>(-?\d+)–(-?\d+)</td></tr>", anchor)
    assert steps and all(s == ("1000", "1000", "1000") for s in steps)
    newcomer = page_of(folder, "heuristic")
    assert 'id="fig-history"' in newcomer and "Against each opponent" in newcomer


def test_hostile_text_on_a_player_page_is_shown_as_text(tmp_path, monkeypatch):
    monkeypatch.setattr(hostile, "EVIL", hostile.EVIL + RUNS)
    game_id = hostile.hostile_db(tmp_path / "h.db")
    from pokeview.store import open_store

    store = open_store(tmp_path / "h.db")
    with store.conn:  # a status as a foreign or forged database may hold it
        store.conn.execute("update games set status = ? where id = ?", (RUNS, game_id))
    game = store.game(game_id)
    folder = tmp_path / "site"
    build_site(store, str(game.run_id), folder)
    store.close()
    model = game.p1 if game.p1_config.get("kind") == "llm" else game.p2
    page = (folder / player_file(model)).read_text()
    # The reasoning excerpts and the refusals (planted on every decision) carry the markup.
    assert telling_items(page, "reasoning") and telling_items(page, "refused")
    assert "&lt;script&gt;document.title" in page and "<script>document" not in page
    for name in ("games.html", "index.html", player_file(model)):
        dom = dom_of(folder / name)
        assert "<main>" in dom and not re.search(r"<body[^>]*data-pwned", dom), name
        assert could_run(dom) == [] and "<b>bold</b>" not in dom, name
    # The filters' values are digests: a hostile name cannot break out of an attribute.
    listed = (folder / "games.html").read_text()
    assert f'data-player="{player_key(game.p1)} {player_key(game.p2)}"' in listed
