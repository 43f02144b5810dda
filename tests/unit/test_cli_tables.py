"""The command line's tables at the terminal's width: at 80 and 120 columns no row wraps and
every name is whole; columns that do not fit are left out, and named."""

from __future__ import annotations

import itertools
import shutil

import orjson
import pytest

from pokeview import paths
from pokeview.cli import main
from pokeview.store import open_store
from tests.helpers import sqlite_file

RECORDING = "loopback-test-model-vs-heuristic.json"
NAMES = ["heuristic", "llm:loopback", "llm:loopback-slow", "llm:claude-haiku-4-5"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A run of 24 games between four players, one of them with a long name."""
    path = tmp_path_factory.mktemp("tables") / "tables.db"
    doc = orjson.loads((paths.recordings_dir() / RECORDING).read_bytes())
    store = open_store(path)
    run_id = store.create_run("widths", {"name": "widths"}, "hash", 24)
    pair = 0
    for (a, b), n in itertools.product(itertools.combinations(NAMES, 2), range(4)):
        game = {k: v for k, v in doc["game"].items() if k != "id"}
        p1, p2 = (a, b) if n % 2 == 0 else (b, a)
        game.update(p1=p1, p2=p2, winner="p1" if n < 3 else "p2", run_id=run_id, pair=pair)
        game.update(seat=n % 2)
        pair += n % 2
        decisions = [
            {k: v for k, v in d.items() if k not in ("id", "game_id")} for d in doc["decisions"]
        ]
        events = [(e["side"], e["kind"], e["data"], e["at"]) for e in doc["events"]]
        store.import_game(game, decisions, events)
    store.close()
    return path


@pytest.fixture
def db(built, tmp_path):
    """A copy of the built run for each test (one writes to it)."""
    path = tmp_path / "tables.db"
    shutil.copyfile(built, path)
    return path


def shown(capsys, monkeypatch, width: int, *argv: str) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(width))
    assert main(list(argv)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= width for line in lines), [line for line in lines if len(line) > width]
    return lines


def rows(lines: list[str], title: str) -> list[str]:
    """The body rows of the table under the title."""
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    rule = next(i for i, line in enumerate(lines) if i > start and line.startswith("┡"))
    body = []
    for line in lines[rule + 1 :]:
        if line.startswith("└"):
            return body
        body.append(line)
    raise AssertionError("no table end")


@pytest.mark.parametrize("width", [80, 120])
def test_ratings_rows_are_one_line_each_with_the_whole_name(db, capsys, monkeypatch, width):
    lines = shown(capsys, monkeypatch, width, "--db", str(db), "ratings", "widths")
    body = rows(lines, "Bradley–Terry ratings")
    text = " ".join(" ".join(lines).split())  # the notes, however they wrap
    assert len(body) == len(NAMES)  # one line a player: nothing wrapped
    assert sorted(next(n for n in NAMES[::-1] if f" {n} " in row) for row in body) == sorted(NAMES)
    # Every player is provisional: said in words, or by a `*` the notes explain.
    if not all("(provisional)" in row for row in body):
        assert all(" * " in row for row in body)
        assert "Provisional (*): fewer than 16 valid games." in text
    head = rows(lines, "head to head")
    assert len(head) == len(NAMES) and all(any(n in row for n in NAMES) for row in head)
    header = next(line for line in lines if "player" in line)
    assert all(word in header for word in ("#", "Elo", "95% interval", "games"))  # always kept
    if width == 80:
        assert "left out at 80 columns:" in text and "re-ask" in text  # named, not silently gone


@pytest.mark.parametrize("width", [80, 120])
def test_the_games_table_keeps_whole_names_and_who_won(db, capsys, monkeypatch, width):
    lines = shown(capsys, monkeypatch, width, "--db", str(db), "games", "--limit", "10")
    body = rows(lines, "24 games in")
    assert len(body) == 10
    for row in body:
        cells = [c.strip() for c in row.strip("│").split("│")]
        at = [i for i, c in enumerate(cells) if c in NAMES]
        assert len(at) >= 2  # p1 and p2, whole
        p1, p2, winner = cells[at[0]], cells[at[1]], cells[at[1] + 1]
        # The winner by name where it fits; at 80 columns by side, so that the names stay whole.
        assert winner in ((p1, p2) if width == 120 else ("p1", "p2"))
        assert "finished" in cells


def test_into_a_pipe_with_no_width_a_table_is_printed_whole(db, capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert main(["--db", str(db), "ratings", "widths"]) == 0
    out = capsys.readouterr().out
    assert "left out" not in out and "autopilot" in out and "out tok/dec" in out


def test_at_80_columns_a_stored_winner_is_shown_literally(db, capsys, monkeypatch):
    """The winner by side comes from the record as it is (another program's database may hold
    anything there): never read as markup."""

    with sqlite_file(db) as conn:
        conn.execute("update games set winner = '[/]x[bold]' where id = 24")
    lines = shown(capsys, monkeypatch, 80, "--db", str(db), "games", "--limit", "10")
    assert any("[/]x[bold]" in row for row in rows(lines, "24 games in")), lines


@pytest.mark.parametrize("column", ["status", "started_at", "ending"])
def test_a_stored_status_start_or_ending_is_shown_literally(db, capsys, monkeypatch, column):
    """Like the winner, every stored text in `games` is another program's to write: a hand-edited
    or foreign database's markup is printed as it is, not read (`[/]` crashed the table)."""

    with sqlite_file(db) as conn:
        conn.execute(f"update games set {column} = '[/]x[bold]y' where id = 24")  # noqa: S608
    lines = shown(capsys, monkeypatch, 120, "--db", str(db), "games", "--limit", "10")
    assert any("[/]x[bold]y" in row for row in rows(lines, "24 games in")), lines


def test_the_players_settings_are_said_in_words_not_as_python_dicts(db, capsys, monkeypatch):
    """Issue 32 saw the report print `prices={'input': 0.0, …}, stand_in=True`; the report was
    fixed, and `pokeview ratings` (and `ladder show`, which prints the same header) still
    printed them so."""
    doc = orjson.loads((paths.recordings_dir() / RECORDING).read_bytes())
    loopback = orjson.loads(doc["game"]["p1_config"])
    loopback["stand_in"] = True  # as a loopback player is stored today
    store = open_store(db)
    run = store.run("widths")
    store.update_run(run.id, header={"seed_text": "widths", "players": {"llm:loopback": loopback}})
    store.close()
    text = "\n".join(shown(capsys, monkeypatch, 120, "--db", str(db), "ratings", "widths"))
    settings = text[: text.index("Bradley–Terry ratings")]
    assert "llm:loopback:" in settings
    assert "{'" not in settings and "True" not in settings, settings
    assert "input $0.00" in settings and "per million tokens" in settings, settings
