"""Model players against a real HTTP server on loopback that speaks OpenAI's streaming format."""

from __future__ import annotations

import msgspec
import pytest
from msgspec import UNSET

from pokeview.battle.actions import Action
from pokeview.game.decision import Message
from pokeview.players.base import Decision, Player
from pokeview.players.llm import prompt
from pokeview.players.llm.record import side_updates
from pokeview.players.llm.usage import Usage, cost
from tests.helpers import FAST, PRICES, game, llm


async def test_a_model_game_is_recorded_and_re_renders_byte_for_byte(bridge, store, loopback):
    result = await game(bridge, store, llm(loopback), "max-damage", text="model-game")
    assert result.status == "finished"
    decisions = store.decisions(result.game_id, "p1")
    updates = side_updates(store, result.game_id, "p1")
    assert decisions[0].detail.messages[0] == Message(role="system", content=prompt.system_prompt())
    for d in decisions:
        stored = [m for m in d.detail.messages if m.role == "user"][0].content
        assert stored == prompt.decision_message(updates, d.idx)
        assert d.how == "answer" and d.detail.reasoning and d.detail.answer.startswith("ACTION:")
        assert d.detail.usage.output > 0 and d.detail.model == "loopback"
        expected = cost(Usage(**msgspec.to_builtins(d.detail.usage)), PRICES)
        assert d.detail.cost == pytest.approx(expected)
    # The conversation keeps the model's own answers, and nothing earlier changes.
    sent = [r for r in loopback.requests if r["model"] == "loopback"][-1]["messages"]
    kept = [msgspec.to_builtins(m) for d in decisions for m in d.detail.messages]
    assert sent == kept[: len(sent)]
    assert any(e.kind == "reasoning" for e in store.events(result.game_id))


async def test_a_malformed_answer_is_asked_again(bridge, store, loopback):
    result = await game(
        bridge,
        store,
        llm(loopback, "loopback-malformed-once"),
        "random",
        text="reask",
        turn_limit=3,
    )
    first = store.decisions(result.game_id, "p1")[0]
    assert first.how == "re-ask" and first.detail.reasks == 1
    roles = [m.role for m in first.detail.messages]
    assert roles == ["system", "user", "assistant", "user", "assistant"]
    assert first.detail.messages[3].content.startswith("Your answer did not name a legal action")


async def test_three_malformed_answers_give_a_random_pick(bridge, store, loopback):
    result = await game(
        bridge,
        store,
        llm(loopback, "loopback-malformed"),
        "random",
        text="randompick",
        turn_limit=2,
    )
    first = store.decisions(result.game_id, "p1")[0]
    assert first.how == "random pick" and len(first.detail.attempts) == 3


async def test_an_illegal_action_is_asked_again(bridge, store, loopback):
    result = await game(
        bridge, store, llm(loopback, "loopback-illegal"), "random", text="illegal", turn_limit=2
    )
    first = store.decisions(result.game_id, "p1")[0]
    assert first.how == "re-ask"
    assert "99 is not the number of a legal action" in first.detail.messages[3].content


async def test_a_429_is_retried_then_answered(bridge, store, loopback):
    result = await game(
        bridge, store, llm(loopback, "loopback-429-once"), "random", text="ratelimit", turn_limit=2
    )
    first = store.decisions(result.game_id, "p1")[0]
    assert first.how == "answer"
    statuses = [a.status for a in first.detail.attempts]
    assert statuses == ["error", "ok"] and "rate-limit" in first.detail.attempts[0].error


@pytest.mark.parametrize(
    "model,kind", [("loopback-stall", "timeout"), ("loopback-drop", "connection")]
)
async def test_provider_failures_fall_back_to_autopilot(bridge, store, loopback, model, kind):
    result = await game(
        bridge, store, llm(loopback, model, max_retries=1), "random", text=model, turn_limit=2
    )
    first = store.decisions(result.game_id, "p1")[0]
    assert first.how == "autopilot" and kind in first.detail.autopilot
    assert len(first.detail.attempts) == 2  # the first try and one retry, each recorded
    assert first.detail.cost is None


async def test_a_refused_choice_goes_back_to_the_model_with_showdowns_message(
    bridge, store, loopback
):
    model = llm(loopback)

    class RefusedFirst(Player):
        kind, name = "llm", model.name

        def describe(self):
            return model.describe()

        async def decide(self, ctx):
            if ctx.index == 0 and ctx.refusal is None:
                ctx.actions.append(Action("switch Nobody", "switch 9", "switch", slot=9))
                return Decision(len(ctx.actions) - 1)
            return await model.decide(ctx)

    before = len(loopback.requests)
    result = await game(bridge, store, RefusedFirst(), "random", text="refused", turn_limit=2)
    asked = loopback.requests[before]["messages"][-1]["content"]
    assert asked.startswith("Showdown refused that choice: [Invalid choice] Can't switch")
    assert "YOUR LEGAL ACTIONS" in asked
    assert store.decisions(result.game_id, "p1")[0].refusals[0]["choice"] == "switch 9"


async def test_a_refused_answer_and_the_answer_after_it_are_one_decision_kept_whole(
    bridge, store, loopback
):
    model = llm(loopback)

    class AnswerRefused(
        Player
    ):  # the model answers; its choice is swapped for one Showdown refuses
        kind, name = "llm", model.name

        def describe(self):
            return model.describe()

        async def decide(self, ctx):
            decision = await model.decide(ctx)
            if ctx.index == 0 and ctx.refusal is None:
                ctx.actions.append(Action("switch Nobody", "switch 9", "switch", slot=9))
                return Decision(len(ctx.actions) - 1, how=decision.how, detail=decision.detail)
            return decision

    result = await game(bridge, store, AnswerRefused(), "random", text="refused2", turn_limit=2)
    first = store.decisions(result.game_id, "p1")[0]
    roles = [m.role for m in first.detail.messages]
    assert roles == ["system", "user", "assistant", "user", "assistant"]
    assert first.detail.messages[3].content.startswith("Showdown refused that choice")
    attempts = first.detail.attempts
    assert [a.status for a in attempts] == ["ok", "ok"] and all(a.reasoning for a in attempts)
    assert "Can't switch" in attempts[0].refused and attempts[1].refused is UNSET
    both = Usage(**msgspec.to_builtins(attempts[0].usage)) + Usage(
        **msgspec.to_builtins(attempts[1].usage)
    )
    assert msgspec.to_builtins(first.detail.usage) == both.to_json()
    assert first.detail.cost == pytest.approx(attempts[0].cost + attempts[1].cost)
    # What was sent is what is kept: the record re-renders the conversation.
    sent = [r for r in loopback.requests if r["model"] == "loopback"][-1]["messages"]
    kept = [
        msgspec.to_builtins(m)
        for d in store.decisions(result.game_id, "p1")
        for m in d.detail.messages
    ]
    assert sent == kept[: len(sent)]


async def test_time_per_decision_counts_failed_attempts_and_retries(bridge, store, loopback):
    from pokeview.ratings.summary import build_report

    stalls = llm(loopback, "loopback-stall", timeouts={**FAST, "first_token": 1}, max_retries=1)
    result = await game(bridge, store, stalls, "random", text="stall", turn_limit=2, void_share=1.0)
    first = store.decisions(result.game_id, "p1")[0]
    assert first.how == "autopilot" and len(first.detail.attempts) == 2
    assert all(a.latency_ms >= 900 for a in first.detail.attempts)
    assert first.detail.model_latency_ms >= 1800 and first.detail.decision_ms >= 1800
    line = next(p for p in build_report(store).players if p.name == stalls.name)
    assert line.ms_per_decision >= 1800  # about 2 s a decision, not 0.00


async def test_team_preview_asks_for_the_lead_in_the_same_style(bridge, store, loopback, data_dir):
    team = (data_dir / "gen9ou-team.txt").read_text()
    result = await game(
        bridge,
        store,
        llm(loopback),
        "random",
        format="gen9ou",
        teams={"p1": team, "p2": team},
        text="lead",
        turn_limit=3,
    )
    first = store.decisions(result.game_id, "p1")[0]
    assert first.turn == 0 and first.choice.startswith("team ")
    message = first.detail.messages[1].content
    assert message.startswith(
        f"BATTLE LOG\n{prompt.TEAM_PREVIEW_LOG}\n\nCURRENT STATE (team preview)\n"
    )
    assert "- Great Tusk [bench], Ground/Fighting, L100, HP 100%\n" in message
    assert "1. lead Great Tusk\n" in message and message.endswith(prompt.CLOSING)
    assert first.detail.messages[0].content.startswith(
        "You are a player in a Pokémon battle on Pokémon Showdown. The format is [Gen 9] OU, singles."
    )


async def test_a_retry_after_past_the_decisions_timeout_gives_autopilot_at_once(
    bridge, store, loopback
):
    import time

    started = time.monotonic()
    result = await game(
        bridge, store, llm(loopback, "loopback-429-long"), "random", text="hour", turn_limit=2
    )
    assert time.monotonic() - started < 30  # not an hour, nor the retries' backoff
    first = store.decisions(result.game_id, "p1")[0]
    assert first.how == "autopilot" and len(first.detail.attempts) == 1
    reason = first.detail.autopilot
    assert "rate-limit" in reason and "3600 s" in reason and "total timeout of 5 s" in reason


async def test_a_model_whose_every_request_is_rejected_plays_a_void_game(bridge, store, loopback):
    from pokeview.battle.verify import verify_game

    result = await game(
        bridge, store, llm(loopback, "loopback-401"), "random", text="void", turn_limit=3
    )
    assert result.status == "void" and result.winner  # played to its end, and kept
    assert result.error.startswith("llm:loopback-401 (p1) was on autopilot for 2 of its 2 ")
    assert "first failure: client: HTTP 401: " in result.error
    assert "Incorrect API key provided" in result.error
    row = store.game(result.game_id)
    assert row.status == "void" and row.exclude_from_ratings and row.error == result.error
    assert not store.rating_games()
    assert (await verify_game(bridge, store, result.game_id)).ok  # a real game all the same
    # At a share of 1 no game is void: every decision would have to be more than all of them.
    kept = await game(
        bridge,
        store,
        llm(loopback, "loopback-401"),
        "random",
        text="void",
        turn_limit=3,
        void_share=1.0,
    )
    assert kept.status == "finished" and kept.error is None
