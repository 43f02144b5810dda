"""The config files' JSON schemas, for editors: the committed files are what the declarations
give (`make schemas` writes them again), so they never drift from what pokeview reads."""

from __future__ import annotations

import json

import pytest

from pokeview.config_schemas import FOLDER, SCHEMAS, file_name, schema_text


@pytest.mark.parametrize("kind", SCHEMAS)
def test_the_committed_schema_is_what_the_declaration_gives(kind):
    committed = (FOLDER / file_name(kind)).read_text(encoding="utf-8")
    assert committed == schema_text(kind), f"run `make schemas` and commit {file_name(kind)}"


def test_every_committed_schema_has_a_declaration():
    assert sorted(p.name for p in FOLDER.iterdir()) == sorted(file_name(k) for k in SCHEMAS)


def test_a_schema_refuses_unknown_keys_as_loading_does():
    run = json.loads(schema_text("run"))["$defs"]
    assert run["RunFile"]["additionalProperties"] is False
    assert run["RunFile"]["required"] == ["name", "seed", "players"]
    assert run["RunFile"]["properties"]["pairs"]["minimum"] == 1
    assert run["Teams"]["additionalProperties"] is False
    theme = json.loads(schema_text("theme"))["$defs"]["ThemeFile"]
    assert theme["additionalProperties"] is False and theme["required"] == ["name", "primary"]


def test_the_shipped_configs_and_themes_load():
    from pokeview import paths
    from pokeview.themes import built_in_themes, load_themes
    from pokeview.tournament.config import load_run_config

    with built_in_themes() as folder:
        themes, problems = load_themes(folder)
    assert problems == [] and {t.name for t in themes} == {"pokeview-dark", "pokeview-light"}
    for example in sorted((paths.REPO_DIR / "examples").glob("*.toml")):
        assert load_run_config(example).players
