"""Move actions show type, category, base power, accuracy, PP left and effectiveness against
the foe's active Pokémon as known (issue 31), when playing and in the viewer's legal actions."""

from __future__ import annotations

from functools import partial

from poke_env.data import GenData
from textual.widgets import OptionList

from pokeview.app import make_app
from pokeview.screens.play import PlayScreen
from pokeview.screens.watch import WatchScreen
from pokeview.widgets.decision_pane import DecisionPane
from tests.helpers import ready, text_of
from tests.tui.test_play import press_number, until

CATEGORY = {"Physical": "Phys", "Special": "Spec", "Status": "Status"}


def expected(move_id: str, pp: int, maxpp: int, foe_types: list[str]) -> str:
    """What the action should say, from poke-env's own move data and type chart."""
    data = GenData.from_gen(9)
    move = data.moves[move_id]
    words = [move["type"], CATEGORY[move["category"]]]
    if move["category"] != "Status" and move["basePower"]:
        words.append(str(move["basePower"]))
    words.append("—" if move["accuracy"] is True else f"{move['accuracy']}%")
    words.append(f"{pp}/{maxpp}")
    if move["category"] != "Status":
        times = 1.0
        for t in foe_types:
            times *= data.type_chart[t.upper()][move["type"].upper()]
        words.append({0.0: "0×", 0.25: "¼×", 0.5: "½×", 1.0: "1×", 2.0: "2×", 4.0: "4×"}[times])
    return " ".join(words)


async def test_each_move_action_shows_its_details_when_playing(tmp_path, bridge):
    db = tmp_path / "play.db"
    app = make_app(db, partial(PlayScreen, db, opponent="random", seed_text="details-1"))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        checked = 0
        for _ in range(4):  # a few decisions: PP goes down as moves are used
            await until(pilot, lambda: screen.ctx is not None, "a decision")
            ctx = screen.ctx
            options = screen.query_one("#actions", OptionList)
            foe = ctx.view.opponent_active_pokemon
            foe_types = [t.name.title() for t in foe.types if t is not None]
            if foe.tera_type is not None and foe.is_terastallized:
                foe_types = [foe.tera_type.name.title()]
            moves = (
                {m.id: m for m in (ctx.request.active or [None])[0].moves}
                if ctx.request.active
                else {}
            )
            for n, action in enumerate(ctx.actions):
                shown = text_of_option(options, n)
                assert shown.startswith(f"{n + 1}. {action.label}")
                if action.kind == "move" and action.gimmick is None and action.move_id in moves:
                    m = moves[action.move_id]
                    assert shown.endswith(expected(m.id, m.pp, m.maxpp, foe_types)), shown
                    checked += 1
            await press_number(pilot, 1, len(ctx.actions))
            await until(pilot, lambda asked=ctx: screen.ctx is not asked, "the choice")
        assert checked >= 8


def text_of_option(options: OptionList, index: int) -> str:
    prompt = options.get_option_at_index(index).prompt
    return prompt.plain.rstrip() if hasattr(prompt, "plain") else str(prompt)


async def test_the_viewers_legal_actions_show_the_same_details(recorded_db):
    """Turn 9 of the loopback game: Revavroom against a Psychic/Flying Lugia."""
    app = make_app(recorded_db, partial(WatchScreen, recorded_db, 3, "p1"))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        screen.position = screen.replay.position_of_turn("p1", 9)
        await pilot.pause()
        pane = text_of(screen.query_one(DecisionPane))
        assert "2. move Gunk Shot  Poison Phys 120 80% 8/8 1×" in pane
        assert "4. move High Horsepower  Ground Phys 95 95% 16/16 0×" in pane
        assert "1. move Shift Gear  Steel Status — 16/16" in pane
