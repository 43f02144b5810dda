"""Model players without a game: answers, costs, and the provider on a real loopback server that
speaks OpenAI's streaming format (games with model players are in tests/integration)."""

from __future__ import annotations

import pytest

from pokeview.battle.actions import Action
from pokeview.errors import PokeviewError
from pokeview.players import make_player
from pokeview.players.llm.answer import parse_answer
from pokeview.players.llm.config import load_players
from pokeview.players.llm.provider import ChatClient, ProviderError
from pokeview.players.llm.usage import Usage, cost
from tests.helpers import PRICES, spec, write_players

ACTIONS = [Action("move Tackle", "move 1", "move"), Action("switch Pikachu", "switch 2", "switch")]


def test_answers_read_the_last_action_and_reason_lines():
    assert parse_answer("ACTION: 1\nREASON: a\nACTION: 2\nREASON: b", ACTIONS).index == 1
    assert parse_answer("ACTION: switch Pikachu\nREASON: safe", ACTIONS).reason == "safe"
    assert parse_answer("ACTION: 3", ACTIONS).problem.startswith("3 is not the number")
    assert parse_answer("ACTION: Switch pikachu", ACTIONS).index is None
    assert parse_answer("I attack", ACTIONS).problem == "there is no line starting with ACTION:"


@pytest.mark.parametrize("said", ["²", "①", "1²"])
def test_a_number_int_cannot_read_is_an_answer_to_ask_again(said):
    """str.isdigit() holds for "²" and "①", which int() refuses: the ValueError ended the
    model's game as an error instead of asking the model again."""
    answer = parse_answer(f"ACTION: {said}\nREASON: r", ACTIONS)
    assert answer.index is None and answer.problem == f"'{said}' is not one of the listed actions"


def test_an_answer_of_blank_lines_or_long_spaces_is_read_at_once():
    """An answer up to its cap (64 KB) is read on the game's event loop: 64 KB of newlines
    took 7.6 s of it (the regexes backtracked across lines), spaces inside a line 10 s."""
    import time

    from pokeview.players.llm.provider import ANSWER_CAP

    started = time.process_time()
    for text in (
        "\n" * ANSWER_CAP,
        " \n" * (ANSWER_CAP // 2),
        "ACTION: x" + " " * ANSWER_CAP + "y",
        "REASON: x" + " " * ANSWER_CAP + "y\nACTION: 2",
    ):
        parse_answer(text, ACTIONS)
    assert time.process_time() - started < 1
    # Lines as before: blanks around the value, a value on the line after, CRLF endings.
    assert parse_answer("  ACTION:\t2 \r\nREASON: \n  safe  ", ACTIONS).index == 1
    assert parse_answer("ACTION:\n\n 1\r\nREASON:  ok\r\n", ACTIONS).reason == "ok"


def test_cost_is_unknown_when_a_needed_price_is_missing_never_zero():
    usage = Usage(input=1000, cached_input=400, output=200)
    assert cost(usage, PRICES) == pytest.approx((600 * 3 + 400 * 0.3 + 200 * 15) / 1e6)
    assert cost(usage, {"input": 3.0, "output": 15.0}) is None
    assert cost(None, PRICES) is None
    assert cost(Usage(input=10, output=5), {}) is None


@pytest.mark.parametrize("model", ["loopback", "loopback-reasoning", "loopback-think"])
async def test_reasoning_streams_from_each_field(loopback, model):
    streamed: list[str] = []
    client = ChatClient(spec(loopback, model))
    messages = [{"role": "user", "content": "YOUR LEGAL ACTIONS\n1. move Tackle\n2. move Growl"}]
    done = await client.complete(messages, on_reasoning=streamed.append)
    await client.aclose()
    assert done.reasoning.startswith("I have 2 legal actions.") and len(streamed) >= 2
    assert "".join(streamed) == done.reasoning
    assert done.content.startswith("ACTION: ") and "<think>" not in done.content
    assert "think>" not in done.reasoning


async def test_usage_with_cache_figures_and_without_usage(loopback):
    client = ChatClient(spec(loopback))
    first = [{"role": "user", "content": "YOUR LEGAL ACTIONS\n1. move Tackle"}]
    a = await client.complete(first)
    b = await client.complete(
        [
            *first,
            {"role": "assistant", "content": a.content},
            {"role": "user", "content": "YOUR LEGAL ACTIONS\n1. move Growl"},
        ]
    )
    assert a.usage.cached_input == 0 and b.usage.cached_input > 0
    assert b.usage.reasoning > 0 and b.usage.output > b.usage.reasoning
    bare = await ChatClient(spec(loopback, "loopback-nousage")).complete(first)
    assert bare.usage is None and cost(bare.usage, PRICES) is None


async def test_stall_times_out_and_a_drop_is_a_connection_error(loopback):
    with pytest.raises(ProviderError) as stall:
        await ChatClient(spec(loopback, "loopback-stall")).complete(
            [{"role": "user", "content": "x"}]
        )
    assert stall.value.kind == "timeout" and stall.value.retryable
    with pytest.raises(ProviderError) as drop:
        await ChatClient(spec(loopback, "loopback-drop")).complete(
            [{"role": "user", "content": "x"}]
        )
    assert drop.value.kind == "connection" and drop.value.retryable


def test_players_file_errors_name_the_line_and_the_field(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('[players.a]\nbase_url = "http://x"\nmodel = \n')
    with pytest.raises(PokeviewError, match="line 3"):
        load_players(broken)
    unknown = write_players(
        tmp_path / "unknown.toml", "http://x", a={"model": "m", "temprature": 1}
    )
    with pytest.raises(PokeviewError, match="players.a.temprature: unknown field"):
        load_players(unknown)
    with pytest.raises(PokeviewError, match="no model player 'zzz'"):
        make_player("llm:zzz", unknown.with_name("none.toml"))


def test_the_players_file_is_declared_once_and_its_schema_comes_from_it(tmp_path, capsys):
    import json

    from pokeview.cli import main

    assert main(["players", "--schema"]) == 0  # in this process: no Python start-up to pay
    schema = json.loads(capsys.readouterr().out)
    table = schema["$defs"]["PlayerTable"]
    assert table["required"] == ["model"]  # base_url: required by api = "chat" alone
    assert set(table["properties"]["api"]["enum"]) == {"chat", "responses", "anthropic", "gemini"}
    assert table["additionalProperties"] is False  # an unknown key is refused, as when loading
    assert set(schema["$defs"]["Prices"]["properties"]) == {
        "input",
        "cached_input",
        "cache_write",
        "output",
    }
