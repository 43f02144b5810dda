"""A run config's `players_file` is found beside the config, as its team files are: it was read
from the directory the command ran in, so `pokeview run runs/x.toml` with `players_file =
"players.toml"` beside it said there was no such player (or used another file of that name)."""

from __future__ import annotations

import os

from pokeview.tournament.config import load_run_config

CONFIG = 'name = "r"\nseed = "r"\npairs = 1\nplayers = ["llm:m", "random"]\n'


def test_a_relative_players_file_is_beside_the_config(tmp_path, monkeypatch):
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "r.toml").write_text(CONFIG + 'players_file = "players.toml"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    config = load_run_config(os.path.join("..", "runs", "r.toml"))
    assert config.players_file is not None
    assert os.path.samefile(os.path.dirname(config.players_file), runs), config.players_file
    assert os.path.basename(config.players_file) == "players.toml"


def test_an_absolute_one_and_none_stay_as_they_are(tmp_path):
    absolute = tmp_path / "p.toml"
    (tmp_path / "a.toml").write_text(CONFIG + f'players_file = "{absolute}"\n')
    assert load_run_config(tmp_path / "a.toml").players_file == str(absolute)
    (tmp_path / "n.toml").write_text(CONFIG)
    assert load_run_config(tmp_path / "n.toml").players_file is None
