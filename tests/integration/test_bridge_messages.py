"""The bridge's language as `pokeview/game/bridge.py` declares it: every command struct, encoded,
is taken by the real bridge (no `crash` answers it), and every line the bridge sends decodes
strictly into one of the reply structs (an unknown or missing field fails)."""

from __future__ import annotations

import os
import subprocess
import typing
from collections.abc import Iterator

import msgspec
import pytest

from pokeview import paths
from pokeview.battle import seeds
from pokeview.battle.loop import start_spec
from pokeview.game import bridge as wire
from pokeview.sim import install

TEAM = "Pikachu||lightball|static|thunderbolt,quickattack|Timid|,,,252,,252||||50|]Mew||leftovers|synchronize|psychic|Timid|,,,252,,252||||50|"  # noqa: E501


class RawBridge:
    """The bridge process spoken to line by line, as bytes: what Python sends and what it gets."""

    def __init__(self, switches: str = "") -> None:
        env = {**os.environ, "NODE_OPTIONS": "", "POKEVIEW_TEST_SWITCHES": switches}
        self.proc = subprocess.Popen(
            [install.node_executable(), str(paths.bridge_script()), str(paths.showdown_dir())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self.sent: set[type] = set()
        self.replies: set[type] = set()

    def read(self) -> wire.Reply:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the bridge closed its output"
        reply = msgspec.json.decode(line, type=wire.Reply)  # strict: forbid_unknown_fields
        self.replies.add(type(reply))
        return reply

    def send(self, command: wire.Command) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(msgspec.json.encode(command) + b"\n")
        self.proc.stdin.flush()
        self.sent.add(type(command))

    def ask(self, command: wire.Command) -> wire.Reply:
        self.send(command)
        return self.read()

    def step(self, command: wire.Command) -> wire.Step:
        reply = self.ask(command)
        assert isinstance(reply, wire.Step), reply
        return reply

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


@pytest.fixture
def raw() -> Iterator[RawBridge]:
    bridge = RawBridge("debug-crash")
    ready = bridge.read()
    assert isinstance(ready, wire.Ready) and ready.pid == bridge.proc.pid
    yield bridge
    bridge.close()


def play_a_turn(raw: RawBridge, battle: str) -> wire.Step:
    """Both sides' first move, answered by the step that follows them."""
    raw.send(wire.Choose(battle, "p1", "move 1"))
    return raw.step(wire.Choose(battle, "p2", "move 1"))


def test_every_command_is_taken_and_every_reply_decodes_strictly(raw: RawBridge) -> None:
    info = raw.ask(wire.Info())
    assert isinstance(info, wire.InfoReply) and info.battles == 0

    start = msgspec.structs.replace(start_spec("gen9randombattle", "messages"), battle="a")
    first = raw.step(start)
    assert set(first.sides) == {"p1", "p2"} and first.input[0].startswith(">start ")
    assert first.sides["p1"].state != wire.NULL_JSON and first.end is None
    second = play_a_turn(raw, "a")
    assert second.sides["p1"].state_delta != wire.NULL_JSON  # sent as differences
    # Words and state for p1 only: p2 (a bot that reads its request) gets lines and requests.
    one_side = msgspec.structs.replace(start, battle="w", words=["p1"])
    first_w = raw.step(one_side)
    assert first_w.sides["p1"].state != wire.NULL_JSON and first_w.sides["p1"].text
    p2 = first_w.sides["p2"]
    assert p2.lines and p2.request_json != wire.NULL_JSON
    assert p2.text == [] and p2.state == wire.NULL_JSON and p2.state_delta == wire.NULL_JSON
    assert play_a_turn(raw, "w").sides["p2"].state_delta == wire.NULL_JSON
    raw.send(wire.Close("w"))
    tie = raw.step(wire.Tie("a"))
    assert tie.end == wire.Ending(None, 2)  # a tie in turn 2, after one turn played

    # A team of its own, not validated, ended as an input log ends: p2 forfeits.
    teams = wire.Start(
        battle="b",
        format="gen9customgame",
        seed=[1, 2, 3, 4],
        validate=False,
        players={"p1": wire.PlayerSpec("Ann", team=TEAM), "p2": wire.PlayerSpec(team=TEAM)},
    )
    raw.step(teams)
    ended = raw.step(wire.End("b", ">forcelose p2"))
    assert ended.end is not None and ended.end.winner == "p1"

    # The same game again from its input log: quiet, then omniscient with a refused choice.
    log = first.input + second.input
    quiet = raw.step(wire.Start(battle="c", inputlog=log, quiet=True))
    assert quiet.sides == {} and quiet.spectator
    refused = raw.step(
        wire.Start(battle="d", inputlog=[*log, ">p1 move 9"], quiet=True, omniscient=True)
    )
    assert refused.stopped is not None
    assert (refused.stopped.line, refused.stopped.input) == (len(log) + 1, ">p1 move 9")
    whole = raw.step(wire.Start(battle="e", inputlog=log, whole=True))
    assert whole.sides

    followed = raw.ask(wire.Follow("f", quiet.spectator))
    assert isinstance(followed, wire.Followed) and followed.pieces
    assert set(followed.pieces[-1].text) == {"p1", "p2"}

    # A game of two random bots the bridge plays through: one reply, at its end.
    autoplay = wire.Autoplay("messages", ["p1", "p2"], 1000, whole=True)
    played = raw.ask(msgspec.structs.replace(start, battle="h", autoplay=autoplay))
    assert isinstance(played, wire.Played) and played.battle == "h" and played.end is not None
    assert played.input[0].startswith(">start ") and played.spectator[0] == "|gametype|singles"
    assert {side for side, _ in played.decisions} == {"p1", "p2"}
    stopped = raw.ask(
        msgspec.structs.replace(
            start, battle="i", autoplay=wire.Autoplay("x", ["p1", "p2"], 2, whole=True)
        )
    )
    assert isinstance(stopped, wire.Played) and stopped.end is None
    assert stopped.stopped == "the turn limit" and not stopped.input

    for battle in "abcde":
        raw.send(wire.Close(battle))
    info = raw.ask(wire.Info())
    assert isinstance(info, wire.InfoReply) and info.battles == 0

    # The test-only op: the battle's next choice throws inside the simulator.
    raw.step(msgspec.structs.replace(start, battle="g"))
    raw.send(wire.DebugCrash("g"))
    crash = raw.ask(wire.Choose("g", "p1", "move 1"))
    assert isinstance(crash, wire.Crash) and crash.battle == "g" and "test crash" in crash.message

    assert raw.sent == set(typing.get_args(wire.Command))
    assert raw.replies == set(typing.get_args(wire.Reply))


def test_a_command_the_bridge_refuses_is_a_crash_naming_the_battle(raw: RawBridge) -> None:
    crash = raw.ask(wire.Choose("nobody", "p1", "move 1"))
    assert crash == wire.Crash("nobody", "no battle nobody")
    unknown = raw.ask(
        wire.Start(battle="x", format="gen9nosuchformat", seed=seeds.battle_seed("x"))
    )
    assert isinstance(unknown, wire.Crash) and "unknown format" in unknown.message


def test_a_reply_with_a_field_not_declared_does_not_decode() -> None:
    line = b'{"type":"info","showdown":"0.11.11","battles":0,"extra":1}'
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(line, type=wire.Reply)
