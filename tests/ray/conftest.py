"""One real Ray cluster on loopback for the Ray tests: a head and a second node, each its own
processes (GCS, raylets, workers), as `ray.cluster_utils.Cluster` starts them; stopped, every
process of it, when the tests end.

Skipped, with the reason, where Ray is not installed (`pip install 'pokeview[ray]'`; `make test`
installs it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.ray.cluster import local_cluster

# Ray rewrites 127.0.0.1 to the machine's own address, where a loopback cluster does not listen;
# this keeps the tests' own process (and what it starts) on loopback. Set before Ray is imported.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/ray/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.ray)


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'pokeview[ray]'")
    made = local_cluster(tmp_path_factory.mktemp("ray"))
    try:
        yield made
    finally:
        made.shutdown()  # type: ignore[attr-defined]


@pytest.fixture
def address(cluster: object) -> str:
    return cluster.address  # type: ignore[attr-defined]
