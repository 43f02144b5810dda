"""Showdown itself: `setup` installs the pinned simulator, `server` runs it on loopback."""

from __future__ import annotations

import argparse

from pokeview.cli.common import PORTS, Commands, in_range


def add_setup(commands: Commands) -> None:
    p = commands.add("setup", cmd_setup, "install the pinned Showdown simulator (Node.js packages)")
    p.add_argument("--force", action="store_true", help="reinstall even if it is installed")


def cmd_setup(args: argparse.Namespace) -> int:
    from pokeview.sim import install

    target = install.install(force=args.force)
    print(f"Showdown is ready in {target}")
    return 0


def add_server(commands: Commands) -> None:
    p = commands.add("server", cmd_server, "run the pinned Showdown as a local server on loopback")
    p.add_argument("--port", type=int, default=8000, help="the port on 127.0.0.1 (default 8000)")


def cmd_server(args: argparse.Namespace) -> int:
    import signal
    import time

    from pokeview.sim.server import LocalServer

    in_range("--port", args.port, PORTS)
    stop: list[bool] = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))  # before anything can be orphaned
    server = LocalServer(args.port)
    server.start()
    print(f"Showdown is listening on {server.websocket_url}; Ctrl-C stops it", flush=True)
    print(
        "Outside programs log in there under any name (no password); play one with "
        f"`pokeview battle --p1 heuristic --p2 server:NAME --server-port {args.port}`",
        flush=True,
    )
    try:
        while not stop and server.proc is not None and server.proc.poll() is None:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    print("Showdown stopped", flush=True)
    return 0
