"""Files written for a person (exports, the report): whole or not at all, and only where asked.

The text goes to a scratch file that `mkstemp` creates exclusively, with a random name, beside the
target, and is then renamed over it. Nothing already beside the target is opened, so a link
another user of a shared folder planted there is never followed. A target that exists and is not
a regular file (a device, a pipe, a folder, a symbolic link) is refused: renaming over it would
replace it, and /dev/full, as root, became a regular file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from pokeview.errors import PokeviewError


def write_whole(target: Path, text: str) -> None:
    _refuse_unless_regular(target)
    scratch: str | None = None
    try:
        fd, scratch = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        _refuse_unless_regular(target)  # it may have been made in the meantime
        os.replace(scratch, target)
    except OSError as exc:
        if scratch is not None:
            Path(scratch).unlink(missing_ok=True)
        raise PokeviewError(f"cannot write {target}: {exc.strerror or exc}") from None
    except BaseException:
        if scratch is not None:
            Path(scratch).unlink(missing_ok=True)
        raise


def _refuse_unless_regular(target: Path) -> None:
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise PokeviewError(f"cannot write {target}: {exc.strerror}") from None
    if stat.S_ISREG(mode):
        return
    what = (
        "a symbolic link (give the path it points to)"
        if stat.S_ISLNK(mode)
        else "a folder (give a file name inside it)"
        if stat.S_ISDIR(mode)
        else "not a regular file (a device or a pipe)"
    )
    raise PokeviewError(f"cannot write {target}: it is {what}; nothing was written")
