"""A game's page: its battle log in Showdown's words, turn by turn, each side's decisions beside
it (the exact messages the model was sent at that decision, its reasoning, its answer, tokens,
cost, latency), and downloads of the record. Read with the replay viewer's own `Replay`.

Everything is on the page as escaped HTML, one `<section id="tN">` per turn: without the script
it reads top to bottom; with it, one turn at a time, by the terminal viewer's keys.
"""

from __future__ import annotations

from pokeview.battle.endings import of_game
from pokeview.battle.replay import Replay
from pokeview.game.decision import ModelDetail, TokenUsage
from pokeview.site.html import esc, json_script, page, player_link
from pokeview.store.store import DecisionRow, GameRow

# The terminal viewer's keys (screens/watch.py BINDINGS) that the page's script follows.
KEYS = "← → turn · s switch side (p1, p2, both) · digits then Enter: go to that turn"

DOWNLOADS = (
    ("json.gz", "the game's record (pokeview JSON, gzip)"),
    ("inputlog.txt", "input log"),
    ("log.txt", "Showdown log"),
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
    return text + (' tokens, <abbr title="estimated">est.</abbr>' if usage.estimated else " tokens")


def _pre(kind: str, text: str | None, empty: str) -> str:
    return f'<pre class="{kind}">{esc(text) if text else f"<i>{esc(empty)}</i>"}</pre>'


def decision_html(d: DecisionRow) -> str:
    """One decision as the decision pane shows it, plus the messages it was sent."""
    detail = d.detail if isinstance(d.detail, ModelDetail) else None
    taken = d.actions[d.action] if 0 <= d.action < len(d.actions) else d.choice
    parts = [
        f'<div class="decision" id="{d.side}-d{d.idx}"><h4>{d.side} · decision {d.idx + 1} · '
        f'<span class="how">{esc(d.how)}</span>: {esc(taken)}</h4>'
    ]
    if detail is not None:
        cost = detail.cost
        estimated = (
            ' <abbr title="estimated">est.</abbr>'
            if detail.usage is not None and detail.usage.estimated and cost is not None
            else ""
        )
        parts.append(
            f'<p class="facts">{_tokens(detail.usage)} · '
            f"{'cost unknown' if cost is None else f'${cost:.4f}'}{estimated} · "
            f"{(detail.model_latency_ms or 0) / 1000:.1f} s · "
            f"model {esc(detail.model)}</p>"
        )
        if detail.reasks:
            parts.append(f'<p class="warn">re-asked {int(detail.reasks)} time(s)</p>')
        if detail.autopilot:
            parts.append(f'<p class="warn">autopilot: {esc(detail.autopilot)}</p>')
        if detail.messages:
            shown = "".join(
                f'<div class="message"><b>{esc(m.role)}</b>'
                f"{_pre('prompt', m.content, '(empty)')}</div>"
                for m in detail.messages
                if m.role != "assistant"
            )
            parts.append(
                f"<details><summary>the prompt: the messages sent at this decision</summary>"
                f"{shown}</details>"
            )
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
    elif d.latency_ms is not None:
        parts.append(f'<p class="facts">{d.latency_ms / 1000:.3f} s</p>')
    for refusal in d.refusals:
        parts.append(
            f'<p class="warn">refused: {esc(refusal.get("label", ""))} — '
            f"{esc(refusal.get('error', ''))}</p>"
        )
    if (
        detail is None or not detail.messages
    ):  # a model's prompt lists them already: not twice a page
        actions = "".join(
            f"<li{' class=chosen' if n == d.action else ''}>{esc(label)}</li>"
            for n, label in enumerate(d.actions)
        )
        parts.append(f"<details><summary>legal actions</summary><ol>{actions}</ol></details>")
    return "".join(parts) + "</div>"


def turns_of(replay: Replay) -> list[int]:
    seen = {t for side in ("p1", "p2") for t, _ in replay.words[side]}
    seen |= {f.turn for side in ("p1", "p2") for f in replay.frames[side]}
    return sorted(seen) or [0]


def side_column(replay: Replay, side: str, turn: int) -> str:
    # One <pre> of lines, not an element a line: a long game's page stays small.
    lines = "\n".join(esc(line) for t, line in replay.words[side] if t == turn)
    decisions = [
        d for f in replay.frames[side] if f.turn == turn and (d := replay.decision(f)) is not None
    ]
    name = replay.game.p1 if side == "p1" else replay.game.p2
    return (
        f'<div class="side side-{side}"><h3>{side}: {esc(name)}</h3>'
        f'<pre class="log">{lines}</pre>{"".join(decision_html(d) for d in decisions)}</div>'
    )


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
        '<label>go to turn <input id="goto" inputmode="numeric" size="4"></label>'
        f'<span class="note">{esc(KEYS)}</span></div>'
    )
    # The board drawn in the browser (issue 31's board, from the typed side state) goes here.
    board = '<div id="board" class="board" data-board="pending"></div>'
    sections = "".join(
        f'<section class="turn" id="t{t}" data-turn="{t}">'
        f"<h2>{'Before the first turn' if t == 0 else f'Turn {t}'}</h2>"
        f'<div class="sides">{side_column(replay, "p1", t)}{side_column(replay, "p2", t)}</div>'
        "</section>"
        for t in turns
    )
    data = json_script("game-data", {"id": game.id, "turns": turns, "p1": game.p1, "p2": game.p2})
    return page(
        f"game {game.id}: {game.p1} vs {game.p2}",
        head + controls + board + sections + data,
        "game",
    )
