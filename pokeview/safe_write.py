"""Writing a user's output file: whole or not at all, and never through someone else's name.

The text goes to a temporary file created exclusively (O_CREAT|O_EXCL, a random name, no link
followed) beside the target, then replaces it. In a shared folder a predictable `x.part` could be
planted as a symbolic link to any file; a random exclusive name cannot. A target that exists and is
not a regular file (a device, a fifo, a folder, a socket) is refused: replacing `/dev/full` with a
regular file, as root, is never what was meant. A symbolic link as the target is replaced by the
file, as `mv` would (the file it pointed to is left alone)."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from pokeview.errors import PokeviewError


def check_target(target: Path, *, folder_made: bool = False) -> None:
    """One clear line for a target that cannot be written as a regular file (`folder_made`: its
    missing folder will be made before the write)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise PokeviewError(f"cannot write {target}: {exc.strerror}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise PokeviewError(f"{target} is a folder; give a file name inside it")
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise PokeviewError(
            f"{target} is not a regular file (a device, fifo or socket): give a file name"
        )
    if not folder_made and not target.parent.is_dir():
        raise PokeviewError(f"cannot write {target}: the folder {target.parent} does not exist")


def write_whole(target: Path, text: str | bytes) -> None:
    """Write `target` completely or not at all: a stopped or failed write leaves no half file."""
    check_target(target)
    data = text.encode("utf-8") if isinstance(text, str) else text
    scratch: str | None = None
    try:
        fd, scratch = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(scratch, target)
    except OSError as exc:
        if scratch is not None:
            Path(scratch).unlink(missing_ok=True)
        raise PokeviewError(f"cannot write {target}: {exc.strerror or exc}") from None
