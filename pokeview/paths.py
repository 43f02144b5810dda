"""Every path pokeview uses, in one place. Tests redirect them with environment variables.

POKEVIEW_HOME moves everything (data, config) under one folder; POKEVIEW_DB moves the database;
POKEVIEW_SHOWDOWN_DIR moves the Node install (tests share one across temporary homes).
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

APP = "pokeview"
PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent


def data_dir() -> Path:
    home = os.environ.get("POKEVIEW_HOME")
    return Path(home) / "data" if home else Path(user_data_dir(APP))


def config_dir() -> Path:
    home = os.environ.get("POKEVIEW_HOME")
    return Path(home) / "config" if home else Path(user_config_dir(APP))


def database_path() -> Path:
    env = os.environ.get("POKEVIEW_DB")
    return Path(env) if env else data_dir() / "pokeview.db"


def showdown_dir() -> Path:
    """Where the pinned Node packages are installed (node_modules lives inside)."""
    env = os.environ.get("POKEVIEW_SHOWDOWN_DIR")
    return Path(env) if env else data_dir() / "showdown"


def node_project_dir() -> Path:
    """The package.json and lock file shipped with pokeview."""
    return PACKAGE_DIR / "sim" / "node"


def bridge_script() -> Path:
    return PACKAGE_DIR / "sim" / "bridge.js"


def search_script() -> Path:
    return PACKAGE_DIR / "sim" / "search.js"


def server_plugin_script() -> Path:
    return PACKAGE_DIR / "sim" / "server_plugin.js"


def server_secret_file(port: int) -> Path:
    """The host secret of the local server on this port (pokeview's processes read it)."""
    return data_dir() / "server" / f"host-{int(port)}.secret"


def recordings_dir() -> Path:
    return REPO_DIR / "recordings"
