"""benchmarks/record_cpu.py's instruction counts: a run that fails says why in its own words."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers import script


def record_cpu():
    return script("benchmarks/record_cpu.py")


@pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind is not installed")
def test_a_child_failing_under_callgrind_is_named_by_its_own_error(tmp_path):
    # Code that cannot be imported: the child fails at once, under callgrind, whose own
    # closing lines must not hide the child's error.
    (tmp_path / "pokeview").mkdir()
    (tmp_path / "pokeview" / "__init__.py").write_text("raise RuntimeError('broken code')\n")
    with pytest.raises(SystemExit) as failed:
        record_cpu().instructions(tmp_path, tune=False, at_once=1)
    assert str(failed.value) == f"the {tmp_path} run failed: RuntimeError: broken code"
