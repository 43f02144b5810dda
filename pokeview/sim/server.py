"""The pinned Showdown as a local server on loopback, for programs that speak its websocket.

Showdown's server writes into its own package folder: it needs a few log folders and a
config/config.js. pokeview writes that config from the shipped example plus its own overrides
(loopback only, the chosen port, no console backdoor or REPL sockets) and pokeview's plugin
(server_plugin.js: the host user, the battle command, no requests from web pages).

pokeview's own client logs in there as HOST_USER, which only the secret made at the server's
start unlocks: the server process gets it in its environment, pokeview's other processes from a
file only the user can read (paths.server_secret_file).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from pokeview import paths
from pokeview.errors import PokeviewError
from pokeview.sim import install

HOST_USER = "pokeviewhost"  # pokeview's own user on its local server (reserved there)
SECRET_VARIABLE = "POKEVIEW_HOST_SECRET"  # how the server process gets it (server_plugin.js)

# What differs between starts comes in the environment, so that the file (shared by every server
# started from this Showdown install) reads the same for all: one starting while another reads it
# cannot give it another's port.
OVERRIDES = """
// pokeview: loopback only, and nothing that opens a console to the outside.
exports.port = Number(process.env.POKEVIEW_SERVER_PORT);
exports.bindaddress = '127.0.0.1';
exports.backdoor = false;
exports.repl = false;
exports.noguestsecurity = true;
// Every finished battle's log, with its input log, goes to logs/ (pokeview records from it).
exports.logchallenges = process.env.POKEVIEW_LOG_BATTLES === '1';
// Bots choose fast; Showdown would hold each message of an ordinary user for 600 ms.
exports.nothrottle = true;
// A running server keeps what it read of this file.
exports.watchconfig = false;
// pokeview's host user (with this start's secret only), its battle command, no web pages.
Object.assign(exports, require({plugin})({host: {host}}));
"""


def package_dir(node_dir: Path | None = None) -> Path:
    return (node_dir or install.ensure_installed()) / "node_modules" / "pokemon-showdown"


def prepare(node_dir: Path | None = None) -> Path:
    root = package_dir(node_dir)
    for folder in ("logs/repl", "logs/chat", "logs/modlog", "config/chat-plugins"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    example = (root / "config" / "config-example.js").read_text()
    overrides = OVERRIDES.replace("{plugin}", json.dumps(str(paths.server_plugin_script())))
    overrides = overrides.replace("{host}", json.dumps(HOST_USER))
    config = root / "config" / "config.js"
    with contextlib.suppress(OSError):
        if config.read_text() == example + overrides:
            return root  # as it is: not rewritten under a server that may be reading it
    part = config.with_name(f".config.js.{secrets.token_hex(8)}.part")
    part.write_text(example + overrides)
    os.replace(part, config)  # whole: a server starting now reads the old file or this one
    return root


def _die_with_parent() -> None:
    """Linux: the server gets SIGTERM if pokeview dies first, so it is never left behind."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


class LocalServer:
    """`with LocalServer(8123) as server:` starts Showdown, waits until it listens, stops it."""

    def __init__(
        self, port: int = 8000, node_dir: Path | None = None, log_battles: bool = True
    ) -> None:
        self.port = port
        self.node_dir = node_dir
        self.log_battles = log_battles  # server:USER games need it; a benchmark does not
        self.proc: subprocess.Popen[bytes] | None = None
        self.secret_file: Path | None = None  # this start's host secret, for other processes

    @property
    def websocket_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/showdown/websocket"

    def start(self, timeout: float = 60) -> None:
        if port_open(self.port):
            raise PokeviewError(
                f"port {self.port} on 127.0.0.1 is in use; choose another with --port"
            )
        root = prepare(self.node_dir)
        secret = secrets.token_urlsafe(32)
        self.secret_file = _write_secret(self.port, secret)
        _secrets[self.port] = secret
        self.proc = subprocess.Popen(
            [
                install.node_executable(),
                "pokemon-showdown",
                "start",
                "--skip-build",
                "--no-security",
            ],
            cwd=root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={
                **os.environ,
                "POKEVIEW_SERVER_PORT": str(int(self.port)),
                "POKEVIEW_LOG_BATTLES": "1" if self.log_battles else "0",
                SECRET_VARIABLE: secret,
            },
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + timeout
        while not port_open(self.port):
            if self.proc.poll() is not None:
                self._forget_secret()
                err = (self.proc.stderr.read() if self.proc.stderr else b"").decode(
                    errors="replace"
                )
                raise PokeviewError(f"Showdown's server stopped at start: {err.strip()[-300:]}")
            if time.monotonic() > deadline:
                self.stop()
                raise PokeviewError(f"Showdown's server did not listen on port {self.port} in time")
            time.sleep(0.2)

    def stop(self) -> None:
        self._forget_secret()
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _forget_secret(self) -> None:
        secret = _secrets.pop(self.port, None)
        file, self.secret_file = self.secret_file, None
        if file is not None and secret is not None:
            with contextlib.suppress(OSError):
                if file.read_text() == secret:  # not a later start's, on the same port
                    file.unlink()

    def __enter__(self) -> LocalServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


_secrets: dict[int, str] = {}  # the host secret of each server this process started, by port


def _write_secret(port: int, secret: str) -> Path:
    """The secret in a file only the user can read (created so, never a moment readable), put
    in place whole: a reader sees the last start's secret or this one."""
    target = paths.server_secret_file(port)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    part = target.with_name(f".{target.name}.{secrets.token_hex(8)}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(secret)
        os.replace(part, target)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return target


def host_secret(port: int) -> str:
    """The secret pokeview's host user logs in with on the local server of this port: known
    here if this process started it, else in the file `pokeview server` wrote at its start."""
    if port in _secrets:
        return _secrets[port]
    file = paths.server_secret_file(port)
    try:
        secret = file.read_text().strip()
    except OSError:
        secret = ""
    if not secret:
        raise PokeviewError(
            f"the server on port {port} is not one pokeview started for this user (no host "
            f"secret in {file}); start it with `pokeview server --port {port}`"
        )
    return secret


_server: Any = None  # a LocalServer this process started, kept for the process's life


def ensure_server(port: int) -> int:
    """The local server's port: one already listening there (`pokeview server`), or one started
    now for the rest of this process."""
    global _server
    if _server is not None and _server.proc is not None and _server.proc.poll() is not None:
        _server.stop()  # it died: forget its secret, and start another
        _server = None
    if _server is not None and _server.port != port:
        _server.stop()  # another port is asked for now (one server game at a time anyway)
        _server = None
    if _server is None and not port_open(port):
        import atexit

        _server = LocalServer(port)
        _server.start()
        atexit.register(_server.stop)
    return port
