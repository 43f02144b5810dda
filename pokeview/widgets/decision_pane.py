"""What one side decided at a frame: first the decision (reasoning, answer, re-asks, tokens, cost,
latency, the action taken), then the legal actions; the prompt itself is in the inspector (p)."""

from __future__ import annotations

from msgspec import UNSET
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from pokeview.board.parts import literal
from pokeview.game.decision import Attempt, ModelDetail, SearchDetail, SearchInfo, TokenUsage
from pokeview.game.side import SideState
from pokeview.store.store import DecisionRow, GameRow
from pokeview.text import decision_time
from pokeview.widgets.lines import Lines
from pokeview.widgets.move_details import action_line


def _tokens(usage: TokenUsage | None) -> str:
    if usage is None:
        return "tokens not reported"
    parts = [f"{usage.input:,} in"]
    if usage.cached_input:
        parts[-1] += f" ({usage.cached_input:,} cached)"
    parts.append(f"{usage.output:,} out")
    if usage.reasoning:
        parts[-1] += f" ({usage.reasoning:,} reasoning)"
    # The loopback test model's counts are characters ÷ 4, not a tokenizer's: say so.
    return " / ".join(parts) + (" tokens, estimated" if usage.estimated else " tokens")


def _attempt_parts(attempts: list[Attempt]) -> list[RenderableType]:
    """Every attempt of a decision: re-asks, refused answers and provider failures included."""
    parts: list[RenderableType] = []
    for number, a in enumerate(attempts, start=1):
        title = f"attempt {number} of {len(attempts)}"
        if not a.answered:
            parts.append(Rule(f"{title}: failed", style="dim"))
            seconds = f" after {a.latency_ms / 1000:.1f} s" if a.latency_ms else ""
            error = literal(a.error or "")
            parts.append(Text.assemble(("provider error", "red"), seconds, ": ", error))
            continue
        parts.append(Rule(f"{title}: reasoning", style="dim"))
        parts.append(literal(a.reasoning or "(no reasoning reported)", "italic"))
        parts.append(Rule(f"{title}: answer", style="dim"))
        parts.append(literal(a.content or "(no answer)", "bold"))
        if a.problem:
            parts.append(Text.assemble(("asked again: ", "yellow"), literal(a.problem)))
        if a.refused:
            parts.append(Text.assemble(("Showdown refused it: ", "red"), literal(a.refused)))
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


CONVERSATION_RULE = "the whole conversation up to here (c hides it)"


class DecisionPane(Lines):
    DEFAULT_CSS = """
    DecisionPane { height: auto; padding: 0 1; }
    """

    def conversation_line(self) -> int | None:
        """The line where the whole conversation (c) starts, as drawn; None when not shown.
        (Its rule, found by the start of its title, which a narrow pane cuts.)"""
        return self.line_with("─ " + CONVERSATION_RULE[:14])

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
        # A model's detail with an empty model name reads as no model's (as it always has).
        model = d.detail if isinstance(d.detail, ModelDetail) and d.detail.model else None
        if model:
            info = Text(_tokens(model.usage), style="dim")
            cost = model.cost
            info.append(f" · {'cost unknown' if cost is None else f'${cost:.4f}'}")
            info.append(f" · {decision_time(model.model_latency_ms, model.decision_ms)}")
            info.append(" · model ")
            info.append_text(literal(model.model))
            parts.append(info)
            if model.reasks:
                parts.append(Text(f"re-asked {model.reasks} time(s)", style="yellow"))
            if model.autopilot:
                parts.append(Text.assemble(("autopilot: ", "red"), literal(model.autopilot)))
        for refusal in d.refusals:
            parts.append(
                Text.assemble(
                    ("refused: ", "red"),
                    literal(refusal.get("label", "")),
                    " — ",
                    literal(refusal.get("error", "")),
                )
            )
        if model:
            if len(model.attempts) > 1:  # every attempt's reasoning and answer, in order
                parts += _attempt_parts(model.attempts)
            else:
                parts.append(Rule("reasoning", style="dim"))
                parts.append(literal(model.reasoning or "(no reasoning reported)", "italic"))
                parts.append(Rule("answer", style="dim"))
                parts.append(literal(model.answer or "(no answer)", "bold"))
        parts.append(Rule("legal actions", style="dim"))
        for number, label in enumerate(d.actions, start=1):
            chosen = number - 1 == d.action
            line = Text("▶ " if chosen else "  ", style="bold green")
            line.append_text(action_line(number, label, state, chosen))
            parts.append(line)
        if isinstance(d.detail, SearchDetail):  # what the search player considered
            parts += _considered(d.detail.search)
        if model:
            if conversation:
                parts.append(Rule(CONVERSATION_RULE, style="dim"))
                for message in conversation:
                    role = message["role"] if isinstance(message, dict) else message.role
                    content = message["content"] if isinstance(message, dict) else message.content
                    parts.append(Text(role, style="bold underline"))
                    parts.append(literal(content))
            else:
                parts.append(Text("p: the prompt it was given · c: the whole conversation", "dim"))
        return parts


def _considered(search: SearchInfo) -> list[RenderableType]:
    """What the search player weighed: its budget, the nodes it played, its best actions."""
    head = f"budget {search.budget} · {search.nodes} nodes"
    if search.samples is not UNSET:
        depth = 1 if search.depth is UNSET else search.depth
        head += f" · {search.samples} sample(s) · depth {depth}"
    if search.elapsed_ms is not UNSET:
        head += f" · {search.elapsed_ms} ms"
    parts: list[RenderableType] = [Rule("considered", style="dim"), literal(head, "dim")]
    for row in search.considered or []:
        line = Text(f"{row.value:+8.3f}")
        line.append(f"  {100 * row.weight:3.0f}%", style="dim")
        line.append("  ")
        line.append_text(literal(row.action))
        parts.append(line)
    return parts
