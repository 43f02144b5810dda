"""A game's page: its battle log in Showdown's words, turn by turn, each side's decisions beside
it (the exact messages the model was sent at that decision, its reasoning, its answer, tokens,
cost, latency), and downloads of the record. Read with the replay viewer's own `Replay`.

Everything is on the page as escaped HTML, one `<section id="tN">` per turn: without the script
it reads top to bottom; with it, one turn at a time, by the terminal viewer's keys, above it the
board as the chosen side knew it at that turn (the terminal board's own drawing, `site/board.py`).
What repeats is written once: a paragraph the prompts repeat and the log's lines they quote
(`site/prompt_text.py`), a list of legal actions seen before (a link to where it is), each
line of the boards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokeview.battle.endings import of_game
from pokeview.battle.replay import Replay
from pokeview.board.layout import Drawn, draw, of_replay
from pokeview.game.decision import ModelDetail, TokenUsage
from pokeview.site.board import Boards
from pokeview.site.html import esc, esc_text, json_script, page, player_link
from pokeview.site.prompt_text import PageLog, PromptText
from pokeview.store.store import DecisionRow, GameRow
from pokeview.text import decision_time

# The terminal viewer's keys (screens/watch.py BINDINGS) that the page's script follows.
KEYS = "← → turn · s switch side (p1, p2, both) · digits then Enter: go to that turn"
# The page's views (its `s` key) and the replay's views they show.
VIEWS = {"both": "spectator", "p1": "p1", "p2": "p2"}

DOWNLOADS = (
    ("json.gz", "the game's record (pokeview JSON, gzip)"),
    ("inputlog.txt", "input log"),
    ("log.txt.gz", "Showdown log (gzip)"),
)


def download_file(game_id: int, kind: str) -> str:
    return f"data/game-{game_id}.{kind}"


def outcome(game: GameRow) -> str:
    """How the game ended, in words (escaped): the winner, a void game's reason, an error."""
    names = {"p1": game.p1, "p2": game.p2}
    if game.status == "finished" and not game.exclude_from_ratings:
        how = of_game(game.ending, game.winner, names, game.turns)  # "" for a last faint
        won = f"{names[game.winner]} ({game.winner}) won" if game.winner in names else "a tie"
        return esc(f"{won}: {how}" if how else f"{won} after {game.turns or 0} turns")
    if game.status == "void" or (game.status == "finished" and game.exclude_from_ratings):
        why = game.error or "left out of the ratings"
        return f'<span class="void">void: {esc(why)}</span>'
    if game.status == "error":
        return f'<span class="error">ended in an error: {esc(game.error or "not recorded")}</span>'
    return esc(game.status)


def _tokens(usage: TokenUsage | None) -> str:
    if usage is None:
        return "tokens not reported"
    text = f"{usage.input:,} in"
    if usage.cached_input:
        text += f" ({usage.cached_input:,} cached)"
    text += f" / {usage.output:,} out"
    if usage.reasoning:
        text += f" ({usage.reasoning:,} reasoning)"
    return text + " tokens"


def _pre(kind: str, content: str | None, empty: str) -> str:
    return f'<pre class="{kind}">{esc_text(content) if content else f"<i>{esc(empty)}</i>"}</pre>'


@dataclass
class Written:
    """What the page has written once, for the decisions after to refer to."""

    prompts: PromptText
    lists: dict[tuple[str, ...], DecisionRow] = field(default_factory=dict)  # legal actions
    models: dict[str, str] = field(default_factory=dict)  # per side, the model named last


def anchor(d: DecisionRow) -> str:
    return f"{d.side}-d{d.idx}"


def decision_html(d: DecisionRow, written: Written) -> str:
    """One decision as the decision pane shows it, plus the messages it was sent."""
    detail = d.detail if isinstance(d.detail, ModelDetail) else None
    taken = d.actions[d.action] if 0 <= d.action < len(d.actions) else d.choice
    parts = [
        f'<div class="decision" id="{anchor(d)}"><h4>{d.side} · decision {d.idx + 1} · '
        f"{esc(d.how)}: {esc(taken)}</h4>"
    ]
    if detail is not None:
        parts.append(model_html(detail, d.side, written))
    for refusal in d.refusals:
        parts.append(
            f'<p class="warn">refused: {esc(refusal.get("label", ""))} — '
            f"{esc(refusal.get('error', ''))}</p>"
        )
    if detail is None or not detail.messages:  # a model's prompt lists them already
        took = (
            [f"{d.latency_ms / 1000:.3f} s"] if detail is None and d.latency_ms is not None else []
        )
        parts.append(legal_actions(d, written, took))
    return "".join(parts) + "</div>"


def facts(detail: ModelDetail, side: str, written: Written) -> str:
    """Tokens, cost, latency; the model when it is not the one named before on this side;
    estimates (a stand-in's counts) marked as such."""
    cost = detail.cost
    text = (
        f"{_tokens(detail.usage)} · {'cost unknown' if cost is None else f'${cost:.4f}'} · "
        f"{decision_time(detail.model_latency_ms or 0, detail.decision_ms)}"
    )
    if written.models.get(side) != detail.model:
        written.models[side] = detail.model
        text += f" · model {esc(detail.model)}"
    if detail.usage is not None and detail.usage.estimated:
        text += ' · <abbr title="estimated">est.</abbr>'
    return f'<p class="facts">{text}</p>'


def model_html(detail: ModelDetail, side: str, written: Written) -> str:
    """A model's decision: its facts, the messages it was sent, its reasoning and answer (each
    attempt's, when it was asked again)."""
    parts = [facts(detail, side, written)]
    if detail.reasks:
        parts.append(f'<p class="warn">re-asked {int(detail.reasks)} time(s)</p>')
    if detail.autopilot:
        parts.append(f'<p class="warn">autopilot: {esc(detail.autopilot)}</p>')
    messages = "".join(
        f'<b>{esc(m.role)}</b><pre class="prompt">'
        f"{written.prompts.html(m.content, side) or '<i>(empty)</i>'}</pre>"
        for m in detail.messages
        if m.role != "assistant"
    )
    if messages:
        parts.append(f"<details><summary>prompt</summary>{messages}</details>")
    attempts = detail.attempts
    if len(attempts) > 1:
        for n, a in enumerate(attempts, start=1):
            parts.append(f"<h5>attempt {n} of {len(attempts)}</h5>")
            if a.status != "ok":
                error = a.error if isinstance(a.error, str) else ""
                parts.append(f'<p class="warn">provider error: {esc(error)}</p>')
                continue
            reasoning = a.reasoning if isinstance(a.reasoning, str) else None
            content = a.content if isinstance(a.content, str) else None
            parts.append(_pre("reasoning", reasoning, "(no reasoning reported)"))
            parts.append(_pre("answer", content, "(no answer)"))
            if isinstance(a.problem, str):
                parts.append(f'<p class="warn">asked again: {esc(a.problem)}</p>')
    else:
        parts.append("<h5>reasoning</h5>")
        parts.append(_pre("reasoning", detail.reasoning, "(no reasoning reported)"))
        parts.append("<h5>answer</h5>")
        parts.append(_pre("answer", detail.answer, "(no answer)"))
    return "".join(parts)


def legal_actions(d: DecisionRow, written: Written, facts: list[str]) -> str:
    """The decision's legal actions after its `facts`, or where the page listed the same
    ones before (on the facts' line: a bot decides often, each line counts)."""
    holder = written.lists.setdefault(tuple(d.actions), d)
    if holder is not d:
        where = f"decision {holder.idx + 1}"
        where = where if holder.side == d.side else f"{holder.side}, {where}"
        facts = [*facts, f'legal actions as at <a href="#{anchor(holder)}">{where}</a>']
        return f'<p class="facts">{" · ".join(facts)}</p>'
    actions = "".join(
        f"<li{' class=chosen' if n == d.action else ''}>{esc(label)}</li>"
        for n, label in enumerate(d.actions)
    )
    listed = f"<details><summary>legal actions</summary><ol>{actions}</ol></details>"
    return (f'<p class="facts">{" · ".join(facts)}</p>' if facts else "") + listed


def turns_of(replay: Replay) -> list[int]:
    seen = {t for side in ("p1", "p2") for t, _ in replay.words[side]}
    seen |= {f.turn for side in ("p1", "p2") for f in replay.frames[side]}
    return sorted(seen) or [0]


def words_by_turn(replay: Replay, side: str) -> dict[int, list[str]]:
    """The side's battle log, turn by turn."""
    out: dict[int, list[str]] = {}
    for turn, line in replay.words[side]:
        out.setdefault(turn, []).append(line)
    return out


def decisions_at(replay: Replay, side: str, turn: int) -> list[DecisionRow]:
    return [
        d for f in replay.frames[side] if f.turn == turn and (d := replay.decision(f)) is not None
    ]


def side_column(replay: Replay, side: str, turn: int, words: list[str], written: Written) -> str:
    # The battle log: one <pre> of lines, not an element a line (a long game's page stays
    # small), and the column's only <pre> of its own (site.js and site.css find it so).
    lines = "\n".join(esc_text(line) for line in words)
    decisions = "".join(decision_html(d, written) for d in decisions_at(replay, side, turn))
    return f'<div class="side-{side}"><h3>{side}</h3><pre>{lines}</pre>{decisions}</div>'


def prompts(replay: Replay, turns: list[int]) -> list[str]:
    """Every message the page shows as a prompt, in the page's order."""
    return [
        m.content
        for t in turns
        for side in ("p1", "p2")
        for d in decisions_at(replay, side, t)
        if isinstance(d.detail, ModelDetail)
        for m in d.detail.messages
        if m.role != "assistant"
    ]


def boards(replay: Replay, turns: list[int]) -> dict:
    """Each view's board at each turn, as the replay viewer shows it when told to go to that
    turn (its first frame at the turn or after), as data for the page's script."""
    table = Boards()
    drawn: Drawn = {}
    at: dict[str, list[int]] = {}
    for name, view in VIEWS.items():
        if not replay.frames[view]:  # no decision asked for yet (a game that failed at once)
            at[name] = [-1] * len(turns)
            continue
        numbers: dict[int, int] = {}  # board per frame: turns without a frame share one
        for t in turns:
            position = replay.position_of_turn(view, t)
            if position not in numbers:
                shown = of_replay(replay, view, position)
                numbers[position] = table.add(draw(shown, drawn=drawn))
        at[name] = [numbers[replay.position_of_turn(view, t)] for t in turns]
    return table.data(at)


def render(replay: Replay) -> str:
    game = replay.game
    turns = turns_of(replay)
    head = (
        f"<h1>Game {game.id}: {player_link(game.p1)} (p1) against {player_link(game.p2)} (p2)</h1>"
        f'<p class="outcome">{outcome(game)}</p>'
        f'<p class="note">{esc(game.format)} · '
        f"seed text <code>{esc(game.seed_text or '')}</code> · "
        f"{game.turns or 0} turns · started {esc(game.started_at)} · pokeview "
        f"{esc(game.pokeview_version)} · Showdown {esc(game.showdown_version or '?')}</p>"
        '<p class="downloads">download: '
        + " · ".join(
            f'<a href="{download_file(game.id, kind)}" download>{esc(label)}</a>'
            for kind, label in DOWNLOADS
        )
        + "</p>"
    )
    controls = (
        '<div class="controls" id="controls" hidden>'
        '<button type="button" data-go="-1" aria-label="previous turn">◀ turn</button>'
        '<span id="turn-shown" aria-live="polite"></span>'
        '<button type="button" data-go="1" aria-label="next turn">turn ▶</button>'
        '<button type="button" id="switch-side">side: both</button>'
        '<label>go to turn <input type="text" id="goto" inputmode="numeric" size="4"></label>'
        f'<span class="note">{esc(KEYS)}</span></div>'
    )
    # The board as the chosen side knew it, drawn by the script from the data below.
    board = (
        '<section id="board" class="board" aria-label="the board"></section>'
        '<noscript><p class="note">'
        "The board at each turn is drawn by the page's own script; the battle log and the "
        "decisions below read without it.</p></noscript>"
    )
    words = {s: words_by_turn(replay, s) for s in ("p1", "p2")}
    logs = {s: PageLog([(t, words[s].get(t, [])) for t in turns]) for s in words}
    written = Written(PromptText(prompts(replay, turns), logs))
    sections = "".join(
        f'<section class="turn" id="t{t}">'
        f"<h2>{'Before the first turn' if t == 0 else f'Turn {t}'}</h2>"
        + "".join(side_column(replay, s, t, words[s].get(t, []), written) for s in words)
        + "</section>"
        for t in turns
    )
    data = json_script("game-data", {"id": game.id, "turns": turns, "p1": game.p1, "p2": game.p2})
    return page(
        f"game {game.id}: {game.p1} vs {game.p2}",
        head
        + controls
        + board
        + sections
        + written.prompts.section()
        + data
        + json_script("board-data", boards(replay, turns)),
        "game",
    )
