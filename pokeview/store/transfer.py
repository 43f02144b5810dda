"""The Store's side of export and import: a game's rows as stored, and a checked game written
through fixed statements."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pokeview.game.decision import SideStats, bot_choices, side_stats
from pokeview.store import body as bodies
from pokeview.store import events as ev
from pokeview.store.compaction import ENDED, GAME_COLUMNS, DamagedGame
from pokeview.store.differences import BadDifferences, Rebuilder
from pokeview.store.journal import DecisionsAndEvents


class ExportAndImport(DecisionsAndEvents):
    # -- export and import -------------------------------------------------------------------

    def export_rows(
        self, game_id: int, *, derive: bool = True
    ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        """A game's row, decisions and events as stored (JSON columns as text), in id order.
        The same for a compacted game as for one kept as rows. `derive=False`: a game the
        bridge played through by itself (`played_times`) gives its row alone, not derived."""
        row = dict(self.conn.execute("select * from games where id = ?", (game_id,)).fetchone())
        row.pop("pid", None)  # where it ran, and how it is stored, are not part of the game
        row.pop("compacted", None)
        if row.get("ending") is None:  # an ordinary end: the file is as before version 6
            row.pop("ending", None)
        if self._is_compacted(game_id):
            body = self._body_with_words(game_id) if derive else self._body(game_id, derive=False)
            row["spectator_log"] = body.spectator_log
            decisions = [dict(zip(bodies.DECISION_COLUMNS, d, strict=True)) for d in body.decisions]
            raw_events = body.events
        else:
            self._flush()
            decisions = [
                dict(r)
                for r in self.conn.execute(
                    "select * from decisions where game_id = ? order by id", (game_id,)
                )
            ]
            raw_events = list(self._raw_events(game_id, 0))
        events = [
            {"id": i, "game_id": game_id, "side": s, "kind": k, "data": d, "at": a}
            for i, s, k, d, a in raw_events
        ]
        return row, sorted(decisions, key=lambda d: d["id"]), events

    def played_times(self, game_id: int) -> list[tuple[str, float]] | None:
        """Each decision's side and time of a game the bridge played through by itself and
        not yet derived (`body.PLAYED`); None for any other game."""
        if not self._is_compacted(game_id):
            return None
        return self._body(game_id, derive=False).played

    def import_game(
        self,
        game: dict[str, Any],
        decisions: list[dict[str, Any]],
        items: list[tuple[str | None, str, str, float]],
        stats: Mapping[str, SideStats] | None = None,
        played: list[tuple[str, float]] | None = None,
    ) -> int:
        """Insert a checked game (from an imported file) under a new id, all or nothing.

        Column names come from this module's fixed sets, never from the file; each event's
        data must decode as its kind's payload (DamagedGame otherwise), and is kept as written.
        `played`: a game a Ray worker's bridge played through by itself, shipped as its row and
        its decisions' times (`played_times`), stored so, to be derived when first read.
        """
        self._writable()
        unknown = set(game) - GAME_COLUMNS
        if unknown:
            raise TypeError(f"a game has no column {sorted(unknown)}")
        checked = []
        rebuilder = Rebuilder()  # side events given as differences must rebuild (format 4)
        for n, (side, kind, data, at) in enumerate(items):
            try:
                ev.decode(kind, data)
                if kind == ev.EventKind.SIDE:
                    rebuilder.whole(side, data, keep_only=True)
            except (ev.BadEvent, BadDifferences) as exc:
                raise DamagedGame(f"events[{n}]: {exc}") from None
            checked.append((side, kind, data, at))
        with self._transaction():
            columns = ", ".join(game)
            cur = self.conn.execute(
                f"insert into games ({columns}) values ({', '.join('?' * len(game))})",
                tuple(game.values()),
            )
            new_id = int(cur.lastrowid or 0)
            for decision in decisions:
                row = {k: decision[k] for k in bodies.DECISION_COLUMNS[2:] if k in decision}
                self.conn.execute(
                    f"insert into decisions (game_id, {', '.join(row)}) "
                    f"values (?, {', '.join('?' * len(row))})",
                    (new_id, *row.values()),
                )
            self.conn.executemany(
                "insert into events (game_id, side, kind, data, at) values (?, ?, ?, ?, ?)",
                [(new_id, side, kind, data, at) for side, kind, data, at in checked],
            )
            if played is not None:
                stats = side_stats(bot_choices(played).values())
            if game.get("status") in ENDED:
                self._compact(new_id, stats=stats, played=played)
        return new_id
