"""The game page's pieces that write things once: the board's Rich text as runs of classes, rows
written as changes to earlier ones, prompts that refer to repeated text and to the log."""

from __future__ import annotations

from rich.text import Text

from pokeview.site.board import changes, runs
from pokeview.site.prompt_text import PageLog, PromptText, paragraphs


def test_runs_take_the_texts_style_then_its_spans_in_order():
    text = Text("▶ Lugia 50%", style="bold")
    text.stylize("dim", 2, 7)
    text.stylize("red", 2, 4)
    text.stylize("green", 2, 4)  # drawn later: it wins, as in the terminal
    assert runs(text) == [("b", "▶ "), ("b d c-green", "Lu"), ("b d", "gia"), ("b", " 50%")]
    assert runs(Text("")) == [] and runs(Text("plain")) == [("", "plain")]


def whole(rows: list[list[int]]) -> list[list[int]]:
    """What site.js's `whole` makes of `changes` (read the same way)."""
    out: list[list[int]] = []
    for row in rows:
        if row[0] >= 0:
            out.append(row)
            continue
        made = list(out[-1 - row[0]])
        for k in range(1, len(row), 2):
            made[row[k]] = row[k + 1]
        out.append(made)
    return out


def test_rows_written_as_changes_read_back_whole_and_shorter():
    rows = [(0, 1, 2, 3, 4, 5), (0, 1, 2, 3, 4, 6), (7, 8), (0, 9, 2, 3, 4, 6), (2, 1, 2, 3)]
    written = changes(rows)
    assert whole(written) == [list(r) for r in rows]
    assert written[1] == [-1, 5, 6] and written[2] == [7, 8]  # a change; no like row: whole
    assert sum(map(len, written)) < sum(map(len, rows))


def test_prompts_refer_to_repeated_text_and_the_logs_lines():
    assert "".join(paragraphs("a\n\nb\n\n\nc\n\n")) == "a\n\nb\n\n\nc\n\n"
    legal = "YOUR LEGAL ACTIONS\n1. move Tackle\n2. move Growl\n3. switch Pikachu, the mouse\n\n"
    log = [
        "The opposing Pikachu used Thunderbolt!",
        "It's super effective! Squirtle lost 60% of its health.",
    ]
    first = "NEW EVENTS\n" + "\n".join(log) + "\n\n" + legal + "Answer."
    second = "STATE NOW <b>\n\n" + legal + "Answer."
    logs = {"p1": PageLog([(0, ["Battle started!"]), (1, ["== Turn 1 ==", *log])])}
    prompts = PromptText([first, second], logs)
    shown = prompts.html(first, "p1")
    assert '<a href="#q0">[repeated 0]</a>' in shown and "move Tackle" not in shown
    assert '<a href="#t1" data-w="p1 2 2">' in shown and "Thunderbolt" not in shown
    assert prompts.html(second, "p1").startswith("STATE NOW &lt;b&gt;\n\n<a href")
    assert '<pre id="q0">YOUR LEGAL ACTIONS\n1. move Tackle' in prompts.section()
    assert logs["p1"].lines[2:4] == log  # where data-w points: the page's lines, numbered


def test_a_forged_log_of_equal_lines_costs_bounded_work_and_links_only_its_own_lines():
    """Finding the log's runs in a prompt compares lines: a forged game whose log and prompt
    are thousands of equal lines would compare their number squared (minutes for a page).
    The work is bounded, and every run linked is still the log's own lines."""
    import re

    from pokeview.site.prompt_text import COMPARISONS

    class Counted(list):
        reads = 0

        def __getitem__(self, at):
            Counted.reads += 1
            return super().__getitem__(at)

    line = "The opposing Pikachu used Thunderbolt! It's super effective!"
    log = PageLog([(1, [line] * 2000)])
    log.lines = Counted(log.lines)
    prompt = "\n".join([line] * 2000)
    shown = PromptText([], {"p1": log}).html(prompt, "p1")
    assert Counted.reads <= COMPARISONS + 2000 < 2000 * 1999 // 2
    linked = re.sub(
        r'<a href="#t\d+" data-w="p1 (\d+) (\d+)">[^<]*</a>',
        lambda m: "\n".join(log.lines[int(m[1]) : int(m[1]) + int(m[2])]),
        shown,
    )
    assert "data-w" in shown and linked == prompt
