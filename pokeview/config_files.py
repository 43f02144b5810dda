"""Config files a person writes (run configs, the players file, themes, settings): read as TOML or
JSON, checked against one msgspec declaration each, and every mistake said as one line that names
the file and the key: `runs/x.toml: pairs: expected a whole number from 1 to 10000, got 0`.

A declaration can say what it expects in words with `msgspec.Meta(extra={"expected": ...})`;
otherwise the words come from its type and constraints.
"""

from __future__ import annotations

import json
import re
import tomllib
import types
from pathlib import Path
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

import msgspec
import msgspec.inspect as mi

from pokeview.errors import PokeviewError
from pokeview.text import is_utf8

T = TypeVar("T")
AT = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
DICT_KEY = "[...]"  # msgspec's stand-in for a key it does not name


def read_config(where: Path, what: str) -> Any:
    """The file's data: JSON if it ends in .json, TOML otherwise; unreadable is one line."""
    try:
        text = where.read_text(encoding="utf-8")
    except OSError as exc:
        raise PokeviewError(f"cannot read the {what} {where}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PokeviewError(f"the {what} {where} is not text (UTF-8)") from None
    try:
        data = json.loads(text) if where.suffix == ".json" else tomllib.loads(text)
    except RecursionError:  # the parsers recurse once per level of nesting
        raise PokeviewError(_too_deep(where, what)) from None
    except json.JSONDecodeError as exc:
        raise PokeviewError(f"{where}: not valid JSON: {_lower(str(exc))}") from None
    except tomllib.TOMLDecodeError as exc:  # its message names the line and column
        raise PokeviewError(f"{where}: not valid TOML: {_lower(str(exc))}") from None
    if _depth(data) > MAX_DEPTH:  # parsed, but what reads it (and its errors) recurses too
        raise PokeviewError(_too_deep(where, what))
    if where.suffix == ".json" and not is_utf8(json.dumps(data, ensure_ascii=False)):
        raise PokeviewError(
            f"{where}: not valid JSON: a string holds a lone surrogate (\\ud800 to \\udfff), "
            "which is not text"
        )
    return data


# No config of pokeview's nests half as deep; past this, the file is not one of them.
MAX_DEPTH = 32


def _too_deep(where: Path, what: str) -> str:
    return f"{where}: nested too deeply to be a {what} (no {what} needs more than a few levels)"


def _depth(data: Any) -> int:
    """How deep tables and lists nest in `data` (walked without recursion)."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            values = item.values() if isinstance(item, dict) else item
            todo.extend((v, depth + 1) for v in values)
    return deepest


def convert(data: Any, kind: type[T], where: Path | str) -> T:
    """`data` as the declared `kind`, or a PokeviewError of one line naming `where` and the key."""
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError:
        raise PokeviewError(f"{where}: {problem(data, kind)}") from None


def problem(data: Any, kind: Any) -> str:
    """The first thing wrong with `data` as `kind`, the key first: `players.a.timeouts.connect:
    expected a number above 0 and at most 86400, got "soon"`."""
    found = _first_error(data, kind)
    if found is None:
        return "not valid"
    keys, message = found
    at = _key_text(keys)
    unknown = re.fullmatch(r"Object contains unknown field `(.*)`", message, re.DOTALL)
    missing = re.fullmatch(r"Object missing required field `(.*)`", message, re.DOTALL)
    field = unknown or missing
    if field:
        at = f"{at}.{_key(field[1])}" if at else _key(field[1])
        if unknown:
            fields = _field_names(_type_at(kind, keys))
            what = "unknown field" + (f" (fields: {', '.join(fields)})" if fields else "")
        else:
            what = "required, but missing"
    else:
        target = _type_at(kind, keys)
        expected = describe(target) if target is not None else _lower(message)
        what = f"expected {expected}, got {shown(_value_at(data, keys))}"
    return f"{at}: {what}" if at else what


def schema(kind: Any) -> dict[str, Any]:
    """The JSON schema of a declaration, for editors."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **msgspec.json.schema(kind)}


# -- finding the key --------------------------------------------------------------------------


def _first_error(data: Any, kind: Any) -> tuple[list[str | int], str] | None:
    """(keys, msgspec's message) of the first error, with every table key named: msgspec writes
    `[...]` for a key of a dict, so such a dict's entries are tried one at a time."""
    try:
        msgspec.convert(data, kind)
        return None
    except msgspec.ValidationError as exc:
        message, _, at = str(exc).partition(" - at `$")
    keys: list[str | int] = []
    for name, index in AT.findall(at.rstrip("`")):
        keys.append(name if name else (DICT_KEY if index == "..." else int(index)))
    if DICT_KEY in keys:
        head = keys[: keys.index(DICT_KEY)]
        table, table_type = _value_at(data, head), _type_at(kind, head)
        value_type = _dict_values(table_type)
        if isinstance(table, dict) and value_type is not None:
            for key, value in table.items():
                found = _first_error(value, value_type)
                if found is not None:
                    return [*head, str(key), *found[0]], found[1]
    return keys, message


def _bare(kind: Any) -> Any:
    """The type without its Annotated metadata."""
    while get_origin(kind) is Annotated:
        kind = get_args(kind)[0]
    return kind


def _members(kind: Any) -> list[Any]:
    kind = _bare(kind)
    if get_origin(kind) in (Union, types.UnionType):
        return [m for m in get_args(kind) if m is not type(None)]
    return [kind]


def _dict_values(kind: Any) -> Any:
    for member in _members(kind):
        if get_origin(_bare(member)) is dict:
            return get_args(_bare(member))[1]
    return None


def _child(kind: Any, key: str | int) -> Any:
    for member in _members(kind):
        bare = _bare(member)
        origin = get_origin(bare)
        if isinstance(key, str):
            if isinstance(bare, type) and issubclass(bare, msgspec.Struct):
                for field in msgspec.structs.fields(bare):
                    if field.encode_name == key:
                        return field.type
            elif origin is dict:
                return get_args(bare)[1]
        elif origin is list:
            return get_args(bare)[0]
        elif origin is tuple:
            args = get_args(bare)
            if len(args) == 2 and args[1] is Ellipsis:
                return args[0]
            return args[key] if key < len(args) else None
    return None


def _type_at(kind: Any, keys: list[str | int]) -> Any:
    for key in keys:
        if kind is None:
            return None
        kind = _child(kind, key)
    return kind


def _value_at(data: Any, keys: list[str | int]) -> Any:
    for key in keys:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _field_names(kind: Any) -> list[str]:
    for member in _members(kind):
        bare = _bare(member)
        if isinstance(bare, type) and issubclass(bare, msgspec.Struct):
            names = (f.encode_name for f in msgspec.structs.fields(bare))
            return sorted(n for n in names if n != "$schema")
    return []


def _key_text(keys: list[str | int]) -> str:
    out = ""
    for key in keys:
        out += f"[{key}]" if isinstance(key, int) else (f".{_key(key)}" if out else _key(key))
    return out


def _key(name: str) -> str:
    """A key as TOML spells it: bare, or quoted with escapes (so that a key holding a newline or
    a terminal's control sequence cannot break the one line or reach the terminal)."""
    return name if re.fullmatch(r"[A-Za-z0-9_$-]+", name) else json.dumps(name)


# -- words --------------------------------------------------------------------------------------


def describe(kind: Any) -> str:
    """What a declared type accepts, in words: 'a whole number from 1 to 10000'."""
    return _words(mi.type_info(kind))


def _words(t: mi.Type) -> str:
    if isinstance(t, mi.Metadata):
        expected = (t.extra or {}).get("expected")
        return str(expected) if expected else _words(t.type)
    if isinstance(t, mi.IntType):
        return "a whole number" + _range(t)
    if isinstance(t, mi.FloatType):
        return "a number" + _range(t)
    if isinstance(t, mi.StrType):
        return "text" + (f" of at least {t.min_length} characters" if t.min_length else "")
    if isinstance(t, mi.BoolType):
        return "true or false"
    if isinstance(t, mi.LiteralType):
        return " or ".join(json.dumps(v) for v in t.values)
    if isinstance(t, mi.ListType):
        least = f" of at least {t.min_length}" if t.min_length else ""
        return f"a list{least} of {_plural(_words(t.item_type))}"
    if isinstance(t, mi.TupleType):
        return f"a list of {len(t.item_types)} items"
    if isinstance(t, mi.DictType | mi.StructType):
        return "a table"
    if isinstance(t, mi.UnionType):
        return " or ".join(_words(m) for m in t.types if not isinstance(m, mi.NoneType))
    if isinstance(t, mi.NoneType):
        return "nothing"
    return "something else"


def _plural(words: str) -> str:
    return {"text": "texts", "a whole number": "whole numbers", "a number": "numbers"}.get(
        words, "items"
    )


def _range(t: mi.IntType | mi.FloatType) -> str:
    if t.ge is not None and t.le is not None:
        return f" from {_num(t.ge)} to {_num(t.le)}"
    parts = [
        f"{words} {_num(bound)}"
        for words, bound in (
            ("above", t.gt),
            ("at least", t.ge),
            ("below", t.lt),
            ("at most", t.le),
        )
        if bound is not None
    ]
    if not parts:
        return ""
    return (" of " if parts[0].startswith("at ") else " ") + " and ".join(parts)


def _num(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def shown(value: Any) -> str:
    """The value found, as the file would spell it (a long text cut short)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return (
            f"a list of {len(value)} item{'s' if len(value) > 1 else ''}"
            if value
            else "an empty list"
        )
    if value is None:
        return "nothing"
    return f"a {type(value).__name__}"  # a TOML date or time


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]
