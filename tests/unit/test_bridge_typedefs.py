"""The bridge's commands and replies are declared for Python (pokeview/game/bridge.py) and, as
JSDoc typedefs, for the JS (pokeview/sim/bridge/messages.js): both name the same messages, tags
and fields, so a change to one that misses the other fails here."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import msgspec

from pokeview.game import bridge as wire

MESSAGES_JS = Path(wire.__file__).parents[1] / "sim" / "bridge" / "messages.js"
TAGGED = re.compile(r"@typedef \{\{(.*?)\}\} (\w+)", re.S)


def top_level_keys(body: str) -> dict[str, str]:
    """`key: type` pairs of a JSDoc object type's own level (nested braces skipped)."""
    body = re.sub(r"\n\s*\*", " ", body)
    keys, depth, start = {}, 0, 0
    for i, char in enumerate(body + ","):
        if char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
        elif char == "," and depth == 0:
            part = body[start:i].strip()
            start = i + 1
            if part:
                name, _, kind = part.partition(":")
                keys[name.strip().rstrip("?")] = kind.strip()
    return keys


def js_messages() -> dict[tuple[str, str], set[str]]:
    """(tag field, tag) -> the other fields, for each typedef tagged by `op` or `type`."""
    found = {}
    for body, _name in TAGGED.findall(MESSAGES_JS.read_text()):
        keys = top_level_keys(body)
        for tag_field in ("op", "type"):
            if tag_field in keys:
                tag = keys.pop(tag_field).strip("'")
                found[(tag_field, tag)] = set(keys)
    return found


def py_messages() -> dict[tuple[str, str], set[str]]:
    found = {}
    for union in (wire.Command, wire.Reply):
        for struct in typing.get_args(union):
            info = msgspec.inspect.type_info(struct)
            assert isinstance(info, msgspec.inspect.StructType)
            assert info.tag_field is not None and isinstance(info.tag, str)
            found[(info.tag_field, info.tag)] = {f.encode_name for f in info.fields}
    return found


def test_the_js_typedefs_and_the_structs_name_the_same_messages_and_fields():
    js, py = js_messages(), py_messages()
    assert sorted(js) == sorted(py)
    for key, fields in py.items():
        assert js[key] == fields, key


def test_the_reader_of_the_typedefs_sees_nested_types_as_one_field():
    keys = top_level_keys("op: 'start', players?: {[side: string]: PlayerSpec}, seed?: string")
    assert keys == {"op": "'start'", "players": "{[side: string]: PlayerSpec}", "seed": "string"}
