"""`pokeview server` lets nobody else act as its host: a hostile websocket client on loopback
tries each way in (the host's name, the host's command, lines the simulator would run, a web
page's Origin) and is refused, and no line it sends reaches the simulator but a choice."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from pokeview.sim.server import HOST_USER, LocalServer, host_secret
from tests.helpers import free_port


@pytest.fixture
def server() -> Iterator[LocalServer]:
    with LocalServer(free_port()) as server:
        yield server


class Client:
    """A raw websocket client, as any local program (or a page in the browser) can open."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[str] = []

    async def send(self, message: str) -> None:
        await self.ws.send(message)

    async def until(self, found: Callable[[str], bool], timeout: float = 10) -> str | None:
        """The first message (from now on) that `found` accepts, or None after `timeout`."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    message = str(await self.ws.recv())
                    self.seen.append(message)
                    if found(message):
                        return message
        except TimeoutError:
            return None

    async def rename(self, name: str, token: str = "") -> str | None:
        """`/trn`; the |updateuser| line naming the new name, or None if the server refused."""
        await self.send(f"|/trn {name},0,{token}")
        reply = await self.until(lambda m: f"|updateuser| {name}|" in m or "|nametaken|" in m)
        return reply if reply and "|updateuser|" in reply else None


async def connect(port: int) -> Client:
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/showdown/websocket")
    client = Client(ws)
    assert await client.until(lambda m: "|challstr|" in m)
    return client


def eval_line(marker: Path) -> str:
    return f">eval require('fs').writeFileSync({json.dumps(str(marker))}, 'ran')"


def old_spec(user: str, marker: Path) -> dict:
    """What /pokeviewbattle took before: input-log lines, written into the battle as they came."""
    seed = "sodium," + "0" * 32
    return {
        "format": "gen9randombattle",
        "user": user,
        "host": "p1",
        "inputlog": [
            ">start " + json.dumps({"formatid": "gen9randombattle", "seed": seed}),
            ">player p1 " + json.dumps({"name": HOST_USER, "seed": seed}),
            ">player p2 " + json.dumps({"name": user, "seed": seed}),
            eval_line(marker),
        ],
    }


def battle_spec(user: str, **changes: object) -> dict:
    """/pokeviewbattle's fields: the battle's format and seed, each seat's team or team seed."""
    seed = "sodium," + "1" * 32
    spec: dict = {
        "format": "gen9randombattle",
        "seed": seed,
        "user": user,
        "host": "p1",
        "seats": {"p1": {"seed": seed}, "p2": {"seed": seed}},
    }
    spec.update(changes)
    return spec


async def challenged(victim: Client, timeout: float = 5) -> bool:
    return await victim.until(lambda m: "|/challenge" in m, timeout) is not None


async def accept_and_wait(victim: Client, marker: Path) -> None:
    """The victim takes the challenge as any bot would; then time for the simulator to act."""
    await victim.send(f"|/pokeviewaccept {HOST_USER}")
    await victim.until(lambda m: m.startswith(">battle-") and "|player|" in m, 10)
    for _ in range(30):
        if marker.exists():
            return
        await asyncio.sleep(0.1)


async def test_a_guest_cannot_take_the_host_name(server):
    port = server.port
    for name in (HOST_USER, "PokeView Host", "pokeview-host"):
        attacker = await connect(port)
        assert await attacker.rename(name) is None, f"a guest logged in as {name}"
        assert await attacker.rename(name, "not-the-secret") is None
        await attacker.ws.close()
    # With the secret, the host's own client logs in; while it is there, still nobody else.
    host = await connect(port)
    assert await host.rename(HOST_USER, host_secret(port))
    attacker = await connect(port)
    assert await attacker.rename(HOST_USER) is None
    await host.ws.close()
    # Gone (its user left to be merged into by the next login from its IP): still nobody.
    await asyncio.sleep(0.5)
    assert await attacker.rename(HOST_USER) is None


async def test_a_guest_that_calls_the_host_command_runs_no_code(server, tmp_path):
    marker = tmp_path / "ran"
    attacker, victim = await connect(server.port), await connect(server.port)
    await attacker.rename(HOST_USER)  # refused now; on main it succeeded
    assert await victim.rename("victim")
    await attacker.send("|/pokeviewbattle " + json.dumps(old_spec("victim", marker)))
    refused = await attacker.until(lambda m: "pokeview's host only" in m, 5)
    if await challenged(victim):
        await accept_and_wait(victim, marker)
    assert not marker.exists(), "the simulator ran a guest's >eval line"
    assert refused, attacker.seen[-5:]
    # A secret given as the command's argument by a guest is refused the same way.
    await attacker.send("|/pokeviewbattle " + json.dumps(battle_spec("victim", secret="guess")))
    assert await attacker.until(lambda m: "pokeview's host only" in m, 5)
    assert not await challenged(victim, 1)


@pytest.mark.parametrize(
    "hostile",
    [
        "input-log lines",
        "a newline in the team",
        "a newline in the seed",
        "a newline in the format",
        "a seat's name",
        "a field of its own",
        "a team that is no team",
    ],
)
async def test_the_host_itself_sends_no_line_but_choices(server, tmp_path, hostile):
    marker = tmp_path / "ran"
    host, victim = await connect(server.port), await connect(server.port)
    assert await host.rename(HOST_USER, host_secret(server.port))
    assert await victim.rename("victim")
    injected = "\n" + eval_line(marker)
    spec = {
        "input-log lines": old_spec("victim", marker),
        "a newline in the team": battle_spec(
            "victim", seats={"p1": {"team": "|||" + injected}, "p2": {}}
        ),
        "a newline in the seed": battle_spec("victim", seed="sodium," + "1" * 32 + injected),
        "a newline in the format": battle_spec("victim", format="gen9randombattle" + injected),
        "a seat's name": battle_spec(
            "victim", seats={"p1": {"seed": "1,2,3,4", "name": injected}, "p2": {}}
        ),
        "a field of its own": battle_spec("victim", inputlog=[eval_line(marker)]),
        "a team that is no team": battle_spec(
            "victim", seats={"p1": {"team": "]]]"}, "p2": {"team": "x"}}
        ),
    }[hostile]
    await host.send("|/pokeviewbattle " + json.dumps(spec))
    refused = await host.until(lambda m: "pokeview battle refused" in m, 5)
    if await challenged(victim, 2):
        await accept_and_wait(victim, marker)
    assert not marker.exists(), "the simulator ran a line the host sent"
    assert refused, host.seen[-5:]
    # The same host, with fields that hold, starts its battle: the refusals were for the lines.
    await host.send("|/pokeviewbattle " + json.dumps(battle_spec("victim")))
    assert await challenged(victim)


async def test_a_web_page_cannot_connect(server):
    url = f"ws://127.0.0.1:{server.port}/showdown/websocket"
    for origin in ("http://evil.example", f"http://127.0.0.1:{server.port}", "null"):
        with pytest.raises(websockets.exceptions.InvalidStatus):
            ws = await websockets.connect(url, origin=origin)  # type: ignore[arg-type]
            await ws.close()
    # Nor through SockJS's fallbacks, which a page reaches with plain requests.
    base = f"http://127.0.0.1:{server.port}/showdown"
    async with httpx.AsyncClient() as http:
        opened = await http.post(
            f"{base}/123/abcdefgh/xhr", headers={"Origin": "http://evil.example"}
        )
        assert opened.status_code == 403
        script = await http.get(
            f"{base}/123/abcdefgh/jsonp?c=f", headers={"Sec-Fetch-Site": "cross-site"}
        )
        assert script.status_code == 403
        # A program (no Origin, as poke-env and Foul Play connect) is let in.
        assert (await http.get(f"{base}/info")).status_code == 200
    client = await connect(server.port)
    await client.ws.close()


def test_the_host_secret_is_made_at_each_start_and_readable_by_the_user_only(tmp_path):
    import stat
    import subprocess
    import sys

    from pokeview import paths

    port = free_port()
    made = []
    for _ in range(2):
        proc = subprocess.Popen(
            [sys.executable, "-m", "pokeview", "server", "--port", str(port)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stdout is not None and "listening" in proc.stdout.readline()
            file = paths.server_secret_file(port)
            assert stat.S_IMODE(file.stat().st_mode) == 0o600
            assert stat.S_IMODE(file.parent.stat().st_mode) == 0o700
            made.append(host_secret(port))  # what another pokeview process reads
            assert len(made[-1]) >= 40
        finally:
            proc.terminate()
            assert proc.wait(timeout=30) == 0
        assert not file.exists()  # gone with the server
    assert made[0] != made[1]
    # Nowhere in the files the server's Showdown install shares (config, logs).
    from pokeview.sim.server import package_dir

    for shared in [package_dir() / "config" / "config.js", *(package_dir() / "logs").rglob("*")]:
        if shared.is_file():
            assert not any(s.encode() in shared.read_bytes() for s in made), shared


def test_a_server_that_is_not_pokeviews_own_is_one_clear_line(tmp_path):
    from pokeview import paths
    from tests.helpers import pokeview

    with LocalServer(free_port()) as server:
        paths.server_secret_file(server.port).unlink()  # as for a server another user started
        run = pokeview(
            "battle", "--p1", "random", "--p2", "server:someone", "--server-port",
            str(server.port), "--db", str(tmp_path / "x.db"),
        )  # fmt: skip
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert "not one pokeview started for this user" in run.stderr.splitlines()[-1]


async def test_a_battle_with_teams_starts_from_the_bridges_packed_teams(server, bridge, data_dir):
    from pokeview.exchange.server_game import _battle_fields, _header

    team = (data_dir / "gen9ou-team.txt").read_text()
    header = await _header(bridge, "gen9ou", "teams", {"p1": team, "p2": team})
    fields = _battle_fields(header)
    assert set(fields["seats"]["p1"]) == {"team"}
    host, victim = await connect(server.port), await connect(server.port)
    assert await host.rename(HOST_USER, host_secret(server.port))
    assert await victim.rename("victim")
    await host.send("|/pokeviewbattle " + json.dumps({**fields, "user": "victim", "host": "p2"}))
    assert await challenged(victim), host.seen[-3:]
    await victim.send(f"|/pokeviewaccept {HOST_USER}")
    request = await victim.until(lambda m: "|request|" in m and '"side"' in m, 15)
    assert request and '"id":"p1"' in request  # the victim's seat: the one the host left it
    assert "Great Tusk" in request  # the team the bridge packed, checked and seated
