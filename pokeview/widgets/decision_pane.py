"""What one side decided at a frame: the model's messages, reasoning and answer, or a bot's pick."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text
from textual.widgets import Static

from pokeview.store.store import DecisionRow
from pokeview.widgets.render import t


def _tokens(usage: dict | None) -> str:
    if not usage:
        return "tokens not reported"
    parts = [f"{usage.get('input', 0):,} in"]
    if usage.get("cached_input"):
        parts[-1] += f" ({usage['cached_input']:,} cached)"
    parts.append(f"{usage.get('output', 0):,} out")
    if usage.get("reasoning"):
        parts[-1] += f" ({usage['reasoning']:,} reasoning)"
    return " / ".join(parts) + " tokens"


class DecisionPane(Static):
    DEFAULT_CSS = """
    DecisionPane { height: auto; padding: 0 1; }
    """

    def show_thinking(self, player: str, seconds: float, reasoning: str) -> None:
        """A live decision still being made: the thinking time and the reasoning so far."""
        head = Text()
        head.append_text(t(player, "bold"))
        head.append(f" is thinking… {seconds:.0f} s", style="bold yellow")
        parts: list[RenderableType] = [head, Rule("reasoning so far", style="dim")]
        parts.append(t(reasoning or "(nothing streamed yet)", "italic"))
        self.update(Group(*parts))

    def show(
        self,
        decision: DecisionRow | None,
        player: str,
        whole: bool,
        conversation: list | None = None,
        note: str | None = None,
    ) -> None:
        """`note` is said instead when there is no decision (an imported replay has none)."""
        if decision is None and note:
            self.update(Text(note, style="dim"))
            return
        self.update(Group(*self._parts(decision, player, whole, conversation)))

    def _parts(
        self, d: DecisionRow | None, player: str, whole: bool, conversation: list | None
    ) -> list[RenderableType]:
        if d is None:
            return [Text("The game is over." if player else "No decision here.", style="dim")]
        head = Text()
        head.append_text(t(player, "bold"))
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
            info.append_text(t(detail.get("model")))
            parts.append(info)
            if detail.get("reasks"):
                parts.append(Text(f"re-asked {detail['reasks']} time(s)", style="yellow"))
            if detail.get("autopilot"):
                parts.append(Text.assemble(("autopilot: ", "red"), t(detail["autopilot"])))
        for refusal in d.refusals:
            parts.append(
                Text.assemble(
                    ("refused: ", "red"),
                    t(refusal.get("label", "")),
                    " — ",
                    t(refusal.get("error", "")),
                )
            )
        if detail.get("model"):
            messages = (
                conversation if whole and conversation is not None else detail.get("messages", [])
            )
            title = "whole conversation" if whole else "messages of this decision"
            parts.append(Rule(title, style="dim"))
            for message in messages:
                role = message["role"] if isinstance(message, dict) else message.role
                content = message["content"] if isinstance(message, dict) else message.content
                if role == "assistant":
                    continue
                parts.append(Text(role, style="bold underline"))
                parts.append(t(content))
            parts.append(Rule("reasoning", style="dim"))
            parts.append(t(detail.get("reasoning") or "(no reasoning reported)", "italic"))
            parts.append(Rule("answer", style="dim"))
            parts.append(t(detail.get("answer") or "(no answer)", "bold"))
        else:
            parts.append(Rule("legal actions", style="dim"))
            for number, label in enumerate(d.actions, start=1):
                chosen = number - 1 == d.action
                line = Text("▶ " if chosen else "  ", style="bold green")
                line.append_text(t(f"{number}. {label}", "bold green" if chosen else ""))
                parts.append(line)
            if isinstance(detail.get("search"), dict):
                parts += _considered(detail["search"])
        return parts


def _considered(search: dict) -> list[RenderableType]:
    """What the search player weighed: its budget, the nodes it played, its best actions."""
    head = f"budget {search.get('budget', '?')} · {search.get('nodes', 0)} nodes"
    if search.get("samples") is not None:
        head += f" · {search['samples']} sample(s) · depth {search.get('depth', 1)}"
    if search.get("elapsed_ms") is not None:
        head += f" · {search['elapsed_ms']} ms"
    parts: list[RenderableType] = [Rule("considered", style="dim"), t(head, "dim")]
    for row in search.get("considered") or []:
        value, weight = row.get("value"), row.get("weight")
        line = Text(f"{value:+8.3f}" if isinstance(value, int | float) else f"{'?':>8}")
        if isinstance(weight, int | float):
            line.append(f"  {100 * weight:3.0f}%", style="dim")
        line.append("  ")
        line.append_text(t(row.get("action", "")))
        parts.append(line)
    return parts
