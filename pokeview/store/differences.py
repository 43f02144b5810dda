"""A side event's request and snapshot stored as differences from the side's previous ones
(record format 4), and rebuilt here for every reader.

The bridge computes the differences (`pokeview/sim/bridge/differences.js`, which describes the
operations); the record keeps them, so a running game writes, and a finished one compresses,
a few hundred bytes a step instead of ~7 KB. Readers never see them: the Store rebuilds each
side event whole (`Rebuilder`) before decoding it, so the viewer, `prompt`, export and forks
read what they read before.
"""

from __future__ import annotations

from typing import Any

import msgspec

_ENCODE = msgspec.json.Encoder().encode
_DECODE = msgspec.json.Decoder().decode


class BadDifferences(ValueError):
    """Differences that do not apply to the value they are said to follow."""


def apply(base: Any, ops: list[Any]) -> Any:
    """The value the operations turn `base` into. `base` is left as it was: what changes is
    copied along its path, and the rest is shared with it."""
    holder = [base]
    fresh = {id(holder)}  # containers copied by this call, safe to change in place
    try:
        for op in ops:
            path = op[0]
            node: Any = holder
            key: Any = 0
            for step in path:
                child = node[key]
                if id(child) not in fresh:
                    child = child.copy()
                    node[key] = child
                    fresh.add(id(child))
                node, key = child, step
            if len(op) == 1:
                del node[key]
            elif len(op) == 2:
                node[key] = op[1]
            elif op[1] == "keys":
                old = node[key]
                node[key] = {k: old.get(k) for k in op[2]}
                fresh.add(id(node[key]))
            elif op[1] == "order":
                old = node[key]
                node[key] = [None if i is None else old[i] for i in op[2]]
                fresh.add(id(node[key]))
            else:
                raise BadDifferences(f"unknown operation {op[1]!r}")
    except (LookupError, TypeError, AttributeError) as exc:
        raise BadDifferences(f"an operation does not fit the value before it: {exc!r}") from None
    return holder[0]


class Rebuilder:
    """Follows one game's side events in order and gives each one whole: its request and
    snapshot rebuilt from the side's last ones where the event has differences."""

    def __init__(self) -> None:
        self.last: dict[tuple[str | None, str], Any] = {}  # (side, "request"/"state") -> value
        # The whole events since a side's last differences, not decoded: most are never needed
        # (a game of an older format has no differences at all).
        self.unread: dict[str | None, list[str | bytes]] = {}

    def whole(self, side: str | None, data: str, keep_only: bool = False) -> str:
        """The event's stored data with its request and snapshot whole (the data itself when it
        has no differences). Raises BadDifferences when they have nothing to apply to. With
        `keep_only`, the event is only followed (its data is not written whole)."""
        if '"request_delta"' not in data and '"state_delta"' not in data:
            self.unread.setdefault(side, []).append(data)
            return data
        event = self._rebuild(side, _DECODE(data))
        return data if keep_only else _ENCODE(event).decode()

    def values(
        self, side: str, request: Any, state: Any, request_ops: Any, state_ops: Any
    ) -> tuple[Any, Any]:
        """A running game's side event (each part the bridge's JSON, a decoded value or None),
        decoded and whole: (request, state), each a copy its reader may keep and change."""
        event = {"request": _decoded(request), "state": _decoded(state)}
        if request_ops is not None:
            event["request_delta"] = _decoded(request_ops)
        if state_ops is not None:
            event["state_delta"] = _decoded(state_ops)
        event = self._rebuild(side, event)
        return _copy(event["request"]), _copy(event["state"])

    def _rebuild(self, side: str | None, event: dict[str, Any]) -> dict[str, Any]:
        self._catch_up(side)
        for name in ("request", "state"):
            ops = event.pop(f"{name}_delta", None)
            if ops is not None:
                before = self.last.get((side, name))
                if before is None:
                    raise BadDifferences(f"its {name} differs from one that was never recorded")
                event[name] = apply(before, ops)
            if event.get(name) is not None:
                self.last[side, name] = event[name]
        return event

    def _catch_up(self, side: str | None) -> None:
        unread = self.unread.pop(side, None)
        if not unread:
            return
        found: set[str] = set()
        for data in reversed(unread):  # the latest whole request and snapshot
            event = _DECODE(data)
            for name in ("request", "state"):
                if name not in found and event.get(name) is not None:
                    self.last[side, name] = event[name]
                    found.add(name)
            if len(found) == 2:
                break


def _decoded(value: Any) -> Any:
    return _DECODE(value) if isinstance(value, msgspec.Raw | bytes | str) else value


def _copy(value: Any) -> Any:
    # A rebuilt value shares its unchanged parts with the one before it; a reader gets its own.
    return None if value is None else _DECODE(_ENCODE(value))
