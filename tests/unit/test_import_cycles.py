"""The house has no circle: no module of pokeview imports, through any chain, a module that
imports it (type-only imports count: they are what a reader follows too)."""

from __future__ import annotations

import grimp
import pytest


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("pokeview")


def test_no_module_imports_itself_back(graph):
    circles = sorted(
        f"{module} -> {imported} -> … -> {module}"
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if graph.chain_exists(importer=imported, imported=module)
    )
    assert circles == []


def test_the_app_and_its_screens_import_one_way(graph):
    """The app opens screens; a screen never reaches back into the app (app.py ↔
    screens/navigation.py was such a circle)."""
    screens = [m for m in graph.modules if m.startswith("pokeview.screens")]
    back = [s for s in screens if graph.chain_exists(importer=s, imported="pokeview.app")]
    assert back == []


def _part(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def test_the_top_level_parts_import_one_way_but_for_the_legal_actions(graph):
    """Between the top-level parts (battle, players, sim, …) imports go one way, with one known
    exception: players take the legal actions (`battle/actions.py`, the game's vocabulary, typed
    from a request of `sim/`) from battle's part, while battle's game loop calls players. It is
    named here so that no other two-way pair grows unseen."""
    edges: dict[tuple[str, str], set[str]] = {}
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            a, b = _part(module), _part(imported)
            if imported.startswith("pokeview.") and a != b:
                edges.setdefault((a, b), set()).add(imported)
    two_way = sorted((a, b) for a, b in edges if a < b and (b, a) in edges)
    assert two_way == [("battle", "players")]
    assert edges[("players", "battle")] == {"pokeview.battle.actions"}
