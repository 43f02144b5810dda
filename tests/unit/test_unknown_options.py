"""A mistyped option of a command is refused by that command, with its own usage: it was
refused with the usage of `pokeview` itself ("usage: pokeview [-h] [--version] [--db PATH]
COMMAND ..."), which does not show the options the command takes."""

from __future__ import annotations

import pytest

from pokeview.cli import main


@pytest.mark.parametrize(
    "argv,command",
    [
        (["run", "x.toml", "--concurency", "3"], "run"),
        (["watch", "1", "--sdie", "p2"], "watch"),
        (["ladder", "show", "x", "--bogus"], "ladder show"),
    ],
)
def test_a_mistyped_option_is_refused_with_the_commands_own_usage(capsys, argv, command):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith(f"usage: pokeview {command} ")
    extra = " ".join(argv[argv.index(next(a for a in argv if a.startswith("--"))) :])
    assert lines[-1] == f"pokeview {command}: error: unrecognized arguments: {extra}"
