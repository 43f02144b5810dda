"""What one side decided at a frame: first the decision (reasoning, answer, re-asks, tokens, cost,
latency, the action taken), then the legal actions; the prompt itself is in the inspector (p)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from pokeview.game.side import SideState
from pokeview.store.store import DecisionRow, GameRow
from pokeview.widgets.lines import Lines
from pokeview.widgets.move_details import action_line
from pokeview.widgets.render import literal


def _tokens(usage: dict | None) -> str:
    if not usage:
        return "tokens not reported"
    parts = [f"{usage.get('input', 0):,} in"]
    if usage.get("cached_input"):
        parts[-1] += f" ({usage['cached_input']:,} cached)"
    parts.append(f"{usage.get('output', 0):,} out")
    if usage.get("reasoning"):
        parts[-1] += f" ({usage['reasoning']:,} reasoning)"
    # The loopback test model's counts are characters ÷ 4, not a tokenizer's: say so.
    return " / ".join(parts) + (" tokens, estimated" if usage.get("estimated") else " tokens")


def _attempt_parts(attempts: list[dict]) -> list[RenderableType]:
    """Every attempt of a decision: re-asks, refused answers and provider failures included."""
    parts: list[RenderableType] = []
    for number, a in enumerate(attempts, start=1):
        title = f"attempt {number} of {len(attempts)}"
        if a.get("status") != "ok":
            parts.append(Rule(f"{title}: failed", style="dim"))
            seconds = f" after {a['latency_ms'] / 1000:.1f} s" if a.get("latency_ms") else ""
            error = literal(a.get("error") or "")
            parts.append(Text.assemble(("provider error", "red"), seconds, ": ", error))
            continue
        parts.append(Rule(f"{title}: reasoning", style="dim"))
        parts.append(literal(a.get("reasoning") or "(no reasoning reported)", "italic"))
        parts.append(Rule(f"{title}: answer", style="dim"))
        parts.append(literal(a.get("content") or "(no answer)", "bold"))
        if a.get("problem"):
            parts.append(Text.assemble(("asked again: ", "yellow"), literal(a["problem"])))
        if a.get("refused"):
            parts.append(Text.assemble(("Showdown refused it: ", "red"), literal(a["refused"])))
    return parts


def ending(game: GameRow) -> Text:
    """How a game ended, in one or two lines: the winner, or the error that stopped it."""
    turns = f" after {game.turns} turns" if game.turns else ""
    if game.status == "error":
        out = Text(f"The game ended in an error{turns}:", style="bold red")
        out.append("\n")
        out.append_text(literal(game.error or "(no error text was recorded)"))
        return out
    if game.status == "finished":
        from pokeview.battle.endings import of_game

        how = of_game(game.ending, game.winner, {"p1": game.p1, "p2": game.p2}, game.turns)
        if game.winner == "tie":
            out = Text(f"The game ended in a tie{turns}", style="bold")
        else:
            out = Text("The game is over: ", style="bold")
            out.append_text(literal(game.winner_name, "bold green"))
            out.append(f" won{turns}", style="bold")
        if how:
            out.append(": ", style="bold")
            out.append_text(literal(how, "bold"))
        out.append(".", style="bold")
        return out
    if game.status == "running":
        return Text("The game is still being played.", style="bold yellow")
    return Text(f"The game stopped here ({game.status}).", style="bold yellow")


class DecisionPane(Lines):
    DEFAULT_CSS = """
    DecisionPane { height: auto; padding: 0 1; }
    """

    def show_thinking(self, player: str, seconds: float, reasoning: str) -> None:
        """A live decision still being made: the thinking time and the reasoning so far."""
        head = Text()
        head.append_text(literal(player, "bold"))
        head.append(f" is thinking… {seconds:.0f} s", style="bold yellow")
        parts: list[RenderableType] = [head, Rule("reasoning so far", style="dim")]
        parts.append(literal(reasoning or "(nothing streamed yet)", "italic"))
        self.update(Group(*parts))

    def show(
        self,
        decision: DecisionRow | None,
        player: str,
        conversation: list | None = None,
        note: str | None = None,
    ) -> None:
        """`conversation`: messages to show below the decision (c); `note` is said instead when
        there is no decision (an imported replay has none)."""
        self.update(self.content_of(decision, player, conversation, note))

    def content_of(
        self,
        decision: DecisionRow | None,
        player: str,
        conversation: list | None = None,
        note: str | None = None,
        state: SideState | None = None,
    ) -> RenderableType:
        """What `show` shows (to draw it ahead, or once per decision with `show_drawn`).
        `state`: what the deciding side knew, for its moves' details."""
        if decision is None:
            return Text(note or "No decision here.", style="dim")
        return Group(*self._parts(decision, player, conversation, state))

    def _parts(
        self,
        d: DecisionRow,
        player: str,
        conversation: list | None,
        state: SideState | None = None,
    ) -> list[RenderableType]:
        head = Text()
        head.append_text(literal(player, "bold"))
        head.append(f" · decision {d.idx + 1} · turn {d.turn} · ", style="dim")
        head.append(
            d.how, style="bold yellow" if d.how not in ("answer", "chosen") else "bold green"
        )
        parts: list[RenderableType] = [head]
        detail = d.detail or {}
        if detail.get("model"):
            info = Text(_tokens(detail.get("usage")), style="dim")
            cost = detail.get("cost")
            info.append(f" · {'cost unknown' if cost is None else f'${cost:.4f}'}")
            info.append(f" · {detail.get('model_latency_ms', 0) / 1000:.1f} s")
            info.append(" · model ")
            info.append_text(literal(detail.get("model")))
            parts.append(info)
            if detail.get("reasks"):
                parts.append(Text(f"re-asked {detail['reasks']} time(s)", style="yellow"))
            if detail.get("autopilot"):
                parts.append(Text.assemble(("autopilot: ", "red"), literal(detail["autopilot"])))
        for refusal in d.refusals:
            parts.append(
                Text.assemble(
                    ("refused: ", "red"),
                    literal(refusal.get("label", "")),
                    " — ",
                    literal(refusal.get("error", "")),
                )
            )
        if detail.get("model"):
            attempts = detail.get("attempts") or []
            if len(attempts) > 1:  # every attempt's reasoning and answer, in order
                parts += _attempt_parts(attempts)
            else:
                parts.append(Rule("reasoning", style="dim"))
                parts.append(
                    literal(detail.get("reasoning") or "(no reasoning reported)", "italic")
                )
                parts.append(Rule("answer", style="dim"))
                parts.append(literal(detail.get("answer") or "(no answer)", "bold"))
        parts.append(Rule("legal actions", style="dim"))
        for number, label in enumerate(d.actions, start=1):
            chosen = number - 1 == d.action
            line = Text("▶ " if chosen else "  ", style="bold green")
            line.append_text(action_line(number, label, state, chosen))
            parts.append(line)
        if isinstance(detail.get("search"), dict):  # what the search player considered
            parts += _considered(detail["search"])
        if detail.get("model"):
            if conversation:
                parts.append(Rule("the whole conversation up to here (c hides it)", style="dim"))
                for message in conversation:
                    role = message["role"] if isinstance(message, dict) else message.role
                    content = message["content"] if isinstance(message, dict) else message.content
                    parts.append(Text(role, style="bold underline"))
                    parts.append(literal(content))
            else:
                parts.append(Text("p: the prompt it was given · c: the whole conversation", "dim"))
        return parts


def _considered(search: dict) -> list[RenderableType]:
    """What the search player weighed: its budget, the nodes it played, its best actions."""
    head = f"budget {search.get('budget', '?')} · {search.get('nodes', 0)} nodes"
    if search.get("samples") is not None:
        head += f" · {search['samples']} sample(s) · depth {search.get('depth', 1)}"
    if search.get("elapsed_ms") is not None:
        head += f" · {search['elapsed_ms']} ms"
    parts: list[RenderableType] = [Rule("considered", style="dim"), literal(head, "dim")]
    for row in search.get("considered") or []:
        value, weight = row.get("value"), row.get("weight")
        line = Text(f"{value:+8.3f}" if isinstance(value, int | float) else f"{'?':>8}")
        if isinstance(weight, int | float):
            line.append(f"  {100 * weight:3.0f}%", style="dim")
        line.append("  ")
        line.append_text(literal(row.get("action", "")))
        parts.append(line)
    return parts
