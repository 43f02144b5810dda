"""The players file's `api` and the settings only some APIs take: a wrong one is one line naming
the player and the key; what each API's request holds."""

from __future__ import annotations

import pytest

from pokeview.errors import PokeviewError
from pokeview.players.llm.config import ModelSpec, load_players


def _load(tmp_path, table: str):
    path = tmp_path / "players.toml"
    path.write_text('[players.sonnet]\nmodel = "m"\n' + table)
    return load_players(path)


@pytest.mark.parametrize(
    "table,said",
    [
        (
            'api = "bedrock"\n',
            'players.sonnet.api: expected "anthropic" or "chat" or "gemini" or "responses", got "bedrock"',
        ),
        (
            'base_url = "http://h/v1"\ncache_control = true\n',
            'players.sonnet.cache_control: not a setting of api = "chat" '
            '(only api = "anthropic" takes it)',
        ),
        (
            'api = "anthropic"\nthinking_budget = 500\n',
            "players.sonnet.thinking_budget: expected at least 1024 (Anthropic's minimum "
            "budget_tokens), got 500",
        ),
        (
            'api = "anthropic"\nthinking_budget = 4000\nmax_tokens = 2000\n',
            "players.sonnet.max_tokens: expected more than thinking_budget (4000), got 2000",
        ),
        (
            'api = "gemini"\nreasoning_summary = "auto"\n',
            'players.sonnet.reasoning_summary: not a setting of api = "gemini"',
        ),
        ("", 'players.sonnet.base_url: required with api = "chat"'),
    ],
)
def test_a_setting_the_api_does_not_take_is_one_line_naming_player_and_key(tmp_path, table, said):
    with pytest.raises(PokeviewError) as caught:
        _load(tmp_path, table)
    message = str(caught.value)
    assert "\n" not in message and said in message, message
    assert message.startswith(str(tmp_path / "players.toml"))


def test_native_apis_have_their_providers_address_and_chat_files_stay_as_they_were(tmp_path):
    (spec,) = _load(tmp_path, 'api = "anthropic"\nreasoning_effort = "high"\n').values()
    assert spec.base_url == "https://api.anthropic.com" and spec.api == "anthropic"
    assert spec.describe()["api"] == "anthropic"
    (chat,) = _load(tmp_path, 'base_url = "http://h/v1"\n').values()
    assert chat.api == "chat" and "api" not in chat.describe()  # the same player as before


def _messages():
    return [
        {"role": "system", "content": "SYSTEM"},
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "ACTION: 1"},
        {"role": "user", "content": "second"},
    ]


def test_each_api_sends_the_same_text_in_its_own_envelope():
    from pokeview.players.llm.providers import make_provider

    def body(api, **kw):
        return make_provider(ModelSpec("p", "http://h", "m", api=api, **kw)).request(_messages())

    chat = body("chat")
    assert chat["messages"] == _messages()
    responses = body("responses", reasoning_effort="high")
    assert responses["instructions"] == "SYSTEM" and responses["store"] is False
    assert responses["input"] == _messages()[1:]
    assert responses["reasoning"] == {"effort": "high", "summary": "auto"}
    gemini = body("gemini", reasoning_effort="high")
    assert gemini["config"]["system_instruction"] == "SYSTEM"
    assert [c["role"] for c in gemini["contents"]] == ["user", "model", "user"]
    assert [c["parts"][0]["text"] for c in gemini["contents"]] == ["first", "ACTION: 1", "second"]
    assert gemini["config"]["thinking_config"] == {
        "include_thoughts": True,
        "thinking_level": "HIGH",
    }
    anthropic = body("anthropic", thinking_budget=2048)
    assert anthropic["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert anthropic["system"][0]["cache_control"] == {"type": "ephemeral"}
    marked = [m for m in anthropic["messages"] if isinstance(m["content"], list)]
    assert [m["content"][0]["text"] for m in marked] == ["second"]  # the newest user message
    unmarked = body("anthropic", cache_control=False)
    assert "cache_control" not in str(unmarked)


def test_the_stand_ins_under_every_api_cost_nothing_in_a_ladders_budget(tmp_path):
    from pokeview.tournament.ladder_budget import is_free

    nowhere = str(tmp_path / "none.toml")
    for name in ("loopback", "loopback-anthropic", "loopback-responses", "loopback-gemini"):
        assert is_free(f"llm:{name}", nowhere) is True
    assert is_free("llm:unknown", nowhere) is None


@pytest.mark.parametrize(
    "table,said",
    [
        (
            'api = "anthropic"\nreasoning_effort = "xhigh"\n',
            'reasoning_effort: expected one of "minimal", "low", "medium", "high" with api = "anthropic" (or a thinking_budget), got "xhigh"',
        ),
        (
            'api = "gemini"\nreasoning_effort = "max"\n',
            'players.sonnet.reasoning_effort: expected one of "minimal"',
        ),
    ],
)
def test_an_effort_the_api_cannot_express_is_one_line(tmp_path, table, said):
    with pytest.raises(PokeviewError, match=None) as caught:
        _load(tmp_path, table)
    assert said in str(caught.value)
    assert _load(tmp_path, table + "thinking_budget = 4096\n")  # an explicit budget instead
