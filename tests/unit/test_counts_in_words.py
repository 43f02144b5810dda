"""One game is "1 game": `pokeview games` and `pokeview ratings` said "1 games" after a
newcomer's first `pokeview battle`."""

from __future__ import annotations

from pokeview.cli import main
from tests.helpers import ROOT


def test_one_game_is_one_game_not_one_games(tmp_path, capsys):
    db = str(tmp_path / "x.db")
    game = ROOT / "recordings" / "heuristic-vs-max-damage.json"
    assert main(["--db", db, "import", str(game), "--rated"]) == 0
    capsys.readouterr()
    for command in (["games"], ["ratings"]):
        assert main(["--db", db, *command]) == 0
        out = capsys.readouterr().out
        assert "1 games" not in out, out
        assert "1 game" in out
