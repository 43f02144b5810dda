"""Fixtures for the app: databases built from the shipped recordings, cursor blink off."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import build_db


@pytest.fixture
def recorded_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # The home screen shows the file as ~/games.db: the same in every run's snapshot, with each
    # test's own folder (two suites at once never share a file).
    monkeypatch.setenv("HOME", str(tmp_path))
    return build_db(tmp_path / "games.db")


@pytest.fixture(autouse=True)
def _no_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.widgets import Input, TextArea

    monkeypatch.setattr(Input, "cursor_blink", False, raising=False)
    monkeypatch.setattr(TextArea, "cursor_blink", False, raising=False)
