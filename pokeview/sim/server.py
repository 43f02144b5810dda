"""The pinned Showdown as a local server on loopback, for programs that speak its websocket.

Showdown's server writes into its own package folder: it needs a few log folders and a
config/config.js. pokeview writes that config from the shipped example plus its own overrides
(loopback only, the chosen port, no console backdoor or REPL sockets).
"""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from pokeview.errors import PokeviewError
from pokeview.sim import install

HOST_USER = "pokeviewhost"  # pokeview's own user on its local server

OVERRIDES = """
// pokeview: loopback only, and nothing that opens a console to the outside.
exports.port = {port};
exports.bindaddress = '127.0.0.1';
exports.backdoor = false;
exports.repl = false;
exports.noguestsecurity = true;
// Every finished battle's log, with its input log, goes to logs/ (pokeview records from it).
exports.logchallenges = {log_battles};
// Bots choose fast; Showdown would hold each message of an ordinary user for 600 ms.
exports.nothrottle = true;
// This file is rewritten whenever pokeview starts a server: a running one keeps what it read.
exports.watchconfig = false;

// pokeview: a battle whose seed, teams and seats pokeview chose, against a program that joins it
// as any bot joins a challenge. /pokeviewbattle (pokeview's host user only) sends the outside
// user an ordinary challenge (`/challenge FORMAT|FORMAT|||`); when it accepts (/accept), the
// battle starts from the input-log header pokeview sent (>start with the battle seed, >player
// with each seat's user and team or team seed: the header of the bridge game of that seed).
// As in a challenge's battle, each >player line is its own write and both users are in the
// room before the battle's first line: bots tell their side from the first |player| line.
const pokeviewPending = new Map();
exports.commands = {
  pokeviewbattle(target, room, user, connection) {
    if (user.id !== '{host}') throw new Chat.ErrorMessage('/pokeviewbattle is for pokeview only');
    const spec = JSON.parse(target);
    const other = Users.get(spec.user);
    if (!other || !other.connected) {
      return connection.popup(`pokeview: the user '${spec.user}' was not found`);
    }
    for (const roomid of user.games) { // accepted already: the battle is on its way
      const game = Rooms.get(roomid)?.battle;
      if (game && !game.ended && game.playerTable[other.id]) return;
    }
    const old = Ladders.challenges.search(user.id, other.id);
    if (old) Ladders.challenges.remove(old, false);
    pokeviewPending.set(other.id, spec);
    const ready = new Ladders.BattleReady(user.id, spec.format, user.battleSettings);
    Ladders.challenges.add(new Ladders.BattleInvite(user.id, other.id, ready, {
      acceptCommand: `/pokeviewaccept ${user.id}`,
    }));
  },
  pokeviewaccept(target, room, user, connection) {
    const host = Ladders.challenges.accept(this);
    const spec = pokeviewPending.get(user.id);
    pokeviewPending.delete(user.id);
    if (!spec || host.id !== '{host}') throw new Chat.ErrorMessage('this pokeview battle is gone');
    const [start, ...seats] = spec.inputlog;
    const battleRoom = Rooms.createBattle({format: spec.format, players: [], inputLog: start});
    if (!battleRoom) throw new Chat.ErrorMessage('the server would not start the battle');
    const battle = battleRoom.battle;
    const users = {p1: user, p2: user};
    users[spec.host] = host;
    for (const line of seats) void battle.stream.write(line);
    for (const slot of ['p1', 'p2']) {
      battle[slot].name = users[slot].name;
      battle[slot].hasTeam = true;
    }
    battleRoom.title = `${users.p1.name} vs. ${users.p2.name}`;
    // pokeview's host first: a bot reading the first |player| line naming its opponent then
    // finds the opponent's seat in it, whichever seat that is.
    const theirs = spec.host === 'p1' ? 'p2' : 'p1';
    for (const slot of [spec.host, theirs]) {
      battle[slot].invite = users[slot].id;
      battle.joinGame(users[slot], slot);
    }
    for (const slot of [spec.host, theirs]) users[slot].joinRoom(battleRoom);
    battleRoom.update(); // the seats' |player| lines now, on their own, before anything else
  },
};
"""


def package_dir(node_dir: Path | None = None) -> Path:
    return (node_dir or install.ensure_installed()) / "node_modules" / "pokemon-showdown"


def prepare(port: int, node_dir: Path | None = None, log_battles: bool = True) -> Path:
    root = package_dir(node_dir)
    for folder in ("logs/repl", "logs/chat", "logs/modlog", "config/chat-plugins"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    example = (root / "config" / "config-example.js").read_text()
    overrides = OVERRIDES.replace("{port}", str(int(port))).replace(
        "{log_battles}", "true" if log_battles else "false"
    )
    overrides = overrides.replace("{host}", HOST_USER)
    (root / "config" / "config.js").write_text(example + overrides)
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

    @property
    def websocket_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/showdown/websocket"

    def start(self, timeout: float = 60) -> None:
        if port_open(self.port):
            raise PokeviewError(
                f"port {self.port} on 127.0.0.1 is in use; choose another with --port"
            )
        root = prepare(self.port, self.node_dir, self.log_battles)
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
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + timeout
        while not port_open(self.port):
            if self.proc.poll() is not None:
                err = (self.proc.stderr.read() if self.proc.stderr else b"").decode(
                    errors="replace"
                )
                raise PokeviewError(f"Showdown's server stopped at start: {err.strip()[-300:]}")
            if time.monotonic() > deadline:
                self.stop()
                raise PokeviewError(f"Showdown's server did not listen on port {self.port} in time")
            time.sleep(0.2)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __enter__(self) -> LocalServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


_server: Any = None  # a LocalServer this process started, kept for the process's life


def ensure_server(port: int) -> int:
    """The local server's port: one already listening there (`pokeview server`), or one started
    now for the rest of this process."""
    global _server
    if _server is not None and _server.proc is not None and _server.proc.poll() is not None:
        _server = None  # it died: start another
    if _server is not None and _server.port != port:
        _server.stop()  # another port is asked for now (one server game at a time anyway)
        _server = None
    if _server is None and not port_open(port):
        import atexit

        _server = LocalServer(port)
        _server.start()
        atexit.register(_server.stop)
    return port
