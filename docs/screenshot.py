"""Makes docs/images/watch.svg, the README's picture: the replay viewer on a recorded game.

The real app, run headless under Textual's Pilot on the recorded game
`recordings/loopback-test-model-vs-heuristic.json` (opened as `pokeview watch FILE` opens it, in a
scratch database), stepped to a turn with a decision to show, then saved with the app's own
`save_screenshot`. The viewer has no blinking cursor, so the picture is the same at every run.
Run it again after a change to the viewer:

    .venv/bin/python docs/screenshot.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "recordings" / "loopback-test-model-vs-heuristic.json"
OUT = ROOT / "docs" / "images" / "watch.svg"
SIZE = (120, 36)
TURN = "6"  # a turn with a move on each side and the model's reasoning in the decision pane


async def shoot(out: Path) -> None:
    from pokeview.app import make_app
    from pokeview.exchange import game_file_in_scratch
    from pokeview.screens.watch import WatchScreen

    with game_file_in_scratch(GAME) as (scratch, game_id):
        app = make_app(scratch, lambda: WatchScreen(scratch, game_id, "p1"))
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(250):
                await pilot.pause(0.02)
                screen = app.screen
                if isinstance(screen, WatchScreen) and screen.replay is not None:
                    break
            else:
                raise SystemExit(f"the replay of {GAME} did not load")
            await pilot.press(*TURN, "enter")  # go to the turn, as a person types it
            await pilot.pause(0.3)
            out.parent.mkdir(parents=True, exist_ok=True)
            app.save_screenshot(filename=out.name, path=str(out.parent))


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    asyncio.run(shoot(out))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
