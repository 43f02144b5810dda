"""Bad config files, one file a case: the exact line each gives, naming the file and the key.

A case is a file in tests/data/bad-configs; adding a case is adding a file. Its name says what
reads it: `run-*` is given to `pokeview run`, `players-*` to `pokeview players --players` (both
must exit with status 2, one line on stderr and nothing written to the database), `theme-*` is
put in a themes folder (skipped, with the line as the app's warning), `settings-*` is the user's
settings file (ignored, with the line as the app's warning). The expected line is the file's
first line, `# error: ...`, or for JSON (which has no comments) the file NAME.error beside it;
`{file}` stands for the file as given and `{dir}` for the fixtures' folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import DATA, bad_input_gives_one_clear_line

BAD_CONFIGS = DATA / "bad-configs"
CASES = sorted(p for p in BAD_CONFIGS.iterdir() if p.suffix in (".toml", ".json") and "-" in p.name)


def expected(case: Path) -> str:
    first = case.read_text(encoding="utf-8").partition("\n")[0]
    if first.startswith("# error: "):
        return first.removeprefix("# error: ")
    return case.with_name(case.name + ".error").read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_config_is_one_line_naming_the_file_and_the_key(tmp_path, capsys, case):
    from pokeview import paths, settings
    from pokeview.themes import load_themes

    message = expected(case)
    kind = case.name.split("-")[0]
    if kind in ("run", "players"):
        argv = f"run {case}" if kind == "run" else f"players --players {case}"
        line = message.format(file=case, dir=BAD_CONFIGS)
        bad_input_gives_one_clear_line(tmp_path, capsys, argv, line, exact=True)
    elif kind == "theme":
        folder = tmp_path / "themes"
        folder.mkdir()
        copy = Path(shutil.copy(case, folder))
        themes, problems = load_themes(folder)
        assert themes == []
        assert problems == ["a theme was skipped: " + message.format(file=copy)]
    elif kind == "settings":
        copy = paths.config_dir() / "settings.json"
        copy.parent.mkdir(parents=True)
        shutil.copy(case, copy)
        saved, ignored = settings.read()
        assert saved == settings.Settings()  # nothing of a broken file is used
        assert ignored == "the settings were ignored: " + message.format(file=copy)
    else:
        raise AssertionError(f"{case.name}: name it run-, players-, theme- or settings-")
