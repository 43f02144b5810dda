"""Installs the pinned Showdown and @pkmn packages into pokeview's data directory.

The lock file shipped in pokeview/sim/node is copied next to an `npm ci` with optional
dependencies and install scripts off: the simulator's dist/ modules need no build.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from pokeview import paths
from pokeview.errors import NodeMissing, PokeviewError

MIN_NODE_MAJOR = 18
MARKER = ".pokeview-lock-sha256"


def node_executable() -> str:
    node = shutil.which("node")
    if not node:
        raise NodeMissing(
            f"Node.js was not found on PATH; install Node.js {MIN_NODE_MAJOR} or newer "
            "(https://nodejs.org or your package manager) and try again"
        )
    try:
        version = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise NodeMissing(f"Node.js at {node} does not run ({exc}); reinstall Node.js") from exc
    match = re.match(r"v(\d+)\.", version)
    if not match or int(match.group(1)) < MIN_NODE_MAJOR:
        raise NodeMissing(
            f"Node.js {version or '(unknown version)'} at {node} is too old; "
            f"pokeview needs Node.js {MIN_NODE_MAJOR} or newer"
        )
    return node


def _lock_digest() -> str:
    lock = paths.node_project_dir() / "package-lock.json"
    return hashlib.sha256(lock.read_bytes()).hexdigest()


def pinned_showdown() -> str:
    """The Showdown version this pokeview pins (its shipped lock file), known without Node:
    what a Ray run's workers must have when this machine plays none of its games."""
    lock = json.loads((paths.node_project_dir() / "package-lock.json").read_text())
    return str(lock["packages"]["node_modules/pokemon-showdown"]["version"])


def is_installed(target: Path | None = None) -> bool:
    target = target or paths.showdown_dir()
    marker = target / MARKER
    return marker.exists() and marker.read_text().strip() == _lock_digest()


def install(
    target: Path | None = None, *, force: bool = False, say: Callable[[str], None] | None = None
) -> Path:
    """Install (or confirm) the pinned packages; returns the folder holding node_modules."""
    target = target or paths.showdown_dir()
    say = say or (lambda line: print(line, file=sys.stderr))
    node_executable()
    if is_installed(target) and not force:
        return target
    npm = shutil.which("npm")
    if not npm:
        raise NodeMissing("npm was not found on PATH; install npm (it comes with Node.js)")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PokeviewError(f"cannot create {target}: {exc.strerror}") from exc
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(paths.node_project_dir() / name, target / name)
    say(f"Installing the pinned Showdown simulator (pokemon-showdown 0.11.11) into {target} ...")
    cmd = [npm, "ci", "--omit=optional", "--ignore-scripts", "--no-audit", "--no-fund"]
    proc = subprocess.Popen(
        cmd, cwd=target, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    output: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        output.append(line.rstrip())
        if line.strip():
            say(f"  npm: {line.rstrip()}")
    if proc.wait() != 0:
        tail = " | ".join(x for x in output[-3:] if x)
        raise PokeviewError(f"npm ci failed in {target}: {tail or 'no output'}")
    (target / MARKER).write_text(_lock_digest() + "\n")
    say("Showdown is installed.")
    return target


def ensure_installed(say: Callable[[str], None] | None = None) -> Path:
    target = paths.showdown_dir()
    if is_installed(target):
        node_executable()
        return target
    return install(target, say=say)
