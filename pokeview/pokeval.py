"""Pokéval battle cases: seed, packed teams and choices (see the Pokéval write-up in the seeds).

A case is played through the pinned Showdown as an input log; its graded log is the omniscient
log (exact HP on both sides) kept to the graded line types, consecutive duplicates collapsed.
An engine's score is the number of turns it matches before its first wrong line, summed over
battles, over all turns.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from pokeview.errors import PokeviewError
from pokeview.game.bridge import Start

GRADED = {
    "move",
    "-damage",
    "turn",
    "switch",
    "faint",
    "-resisted",
    "-crit",
    "-miss",
    "-supereffective",
    "-prepare",
    "-hitcount",
    "-immune",
    "cant",
    "-boost",
    "-unboost",
    "-heal",
    "-start",
    "-activate",
    "win",
    "-status",
    "-message",
    "-fail",
    "-fieldactivate",
    "-end",
    "-mustrecharge",
    "-ohko",
    "-curestatus",
    "-transform",
    "-clearallboost",
    "-nothing",
    "tie",
}
FORMAT = "gen1customgame"
SIDES = ("p1", "p2")


def load_jsonl(path: Path, what: str) -> list[dict[str, Any]]:
    out = []
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PokeviewError(f"cannot read {what} {path}: {exc.strerror}") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            # orjson, not json: json reads "\ud800" as a lone surrogate, which no text written
            # or shown can hold (a traceback at the first print or insert).
            item = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise PokeviewError(f"{path}, line {number}: not JSON ({exc.msg})") from None
        if not isinstance(item, dict):
            raise PokeviewError(f"{path}, line {number}: expected a JSON object")
        out.append(item)
    return out


def load_cases(path: Path) -> list[dict[str, Any]]:
    cases = load_jsonl(path, "the cases file")
    for n, case in enumerate(cases, start=1):
        missing = [k for k in ("seed", "teams", "choices") if k not in case]
        teams = case.get("teams")
        if (
            missing
            or not isinstance(teams, dict)
            or not all(isinstance(teams.get(side), str) for side in ("p1", "p2"))
        ):
            raise PokeviewError(f"{path}: case {n} lacks {', '.join(missing) or 'teams.p1/p2'}")
        case.setdefault("id", f"case-{n}")
        choices = case["choices"]
        if not isinstance(choices, list) or not all(
            isinstance(c, dict) and all(isinstance(c.get(s, ""), str | None) for s in SIDES)
            for c in choices
        ):
            raise PokeviewError(
                f"{path}: case {n} ({case['id']}): its choices should be a list of objects "
                'such as {"p1": "move 1", "p2": "switch 2"}'
            )
        for side in ("p1", "p2"):
            problem = gen1_team_problem(teams[side])
            if problem:
                raise PokeviewError(f"{path}: case {n} ({case['id']}), {side}: {problem}")
    return cases


# A packed member: NICKNAME|SPECIES|ITEM|ABILITY|MOVES|NATURE|EVS|GENDER|IVS|SHINY|LEVEL|HAPPINESS.
# Pokéval fills only the first (the species, as a nickname) and the fifth (the moves); all else
# takes Showdown's defaults: level 100, no stat experience, full DVs.
FIELDS = (
    "species",
    "species",
    "item",
    "ability",
    "moves",
    "nature",
    "EVs",
    "gender",
    "IVs",
    "shiny",
    "level",
    "happiness",
)
NO_ABILITY = "No Ability"


def gen1_team_problem(packed: str) -> str | None:
    """Why a packed team is not a Pokéval Gen 1 team (a filled field the format leaves empty)."""
    members = packed.split("]")
    if not 1 <= len(members) <= 6:
        return f"a team has 1 to 6 members, not {len(members)}"
    for number, member in enumerate(members, start=1):
        fields = member.split("|")
        if len(fields) != len(FIELDS):
            return f"member {number} has {len(fields)} fields, not {len(FIELDS)}"
        if not fields[0] or not fields[4]:
            return f"member {number} needs a species (field 1) and moves (field 5)"
        for i, value in enumerate(fields):
            if i in (0, 1, 4) or not value or (i == 3 and value == NO_ABILITY):
                continue
            # Gen 1 has no items, abilities or natures, and Pokéval's stats are the defaults.
            return f"member {number} ({fields[0]}) sets its {FIELDS[i]} ({value!r}); Gen 1 has none"
    return None


def without_abilities(packed: str) -> str:
    """The team with `No Ability` on every member: the pinned Showdown otherwise gives each
    species its default ability, and in gen1customgame those abilities act (Blaze, Volt Absorb,
    Synchronize), so the game would not be a Gen 1 game (see NOTES, Pokéval's example)."""
    out = []
    for member in packed.split("]"):
        fields = member.split("|")
        if len(fields) > 3:
            fields[3] = NO_ABILITY
        out.append("|".join(fields))
    return "]".join(out)


def input_log(case: dict[str, Any]) -> list[str]:
    """The case as a Showdown input log; the players are P1 and P2, as in Pokéval's logs."""

    def player(side: str) -> str:
        team = without_abilities(case["teams"][side])
        name = side.upper()
        return f">player {side} " + json.dumps({"name": name, "team": team}, separators=(",", ":"))

    lines = [
        ">start " + json.dumps({"formatid": FORMAT, "seed": case["seed"]}, separators=(",", ":")),
        player("p1"),
        player("p2"),
    ]
    for choice in case["choices"]:
        for side in ("p1", "p2"):
            if choice.get(side):
                lines.append(f">{side} {choice[side]}")
    return lines


def graded(omniscient: list[str]) -> list[str]:
    out: list[str] = []
    for line in omniscient:
        kind = line.split("|")[1] if line.startswith("|") and line.count("|") >= 1 else ""
        if kind in GRADED and (not out or out[-1] != line):
            out.append(line)
    return out


@dataclass
class Comparison:
    id: str
    turns: int  # turns in Showdown's log
    matched: int  # turns matched before the first wrong line
    first_wrong: int | None  # 0-based index of the first differing line, None when all agree
    reference: list[str]
    engine: list[str]


def compare(case_id: str, reference: list[str], engine: list[str]) -> Comparison:
    turns = sum(1 for line in reference if line.startswith("|turn|"))
    first = next(
        (i for i, (a, b) in enumerate(zip(reference, engine, strict=False)) if a != b), None
    )
    if first is None and len(reference) != len(engine):
        first = min(len(reference), len(engine))
    if first is None:
        matched = turns
    else:
        # A turn counts only when every line through its end agrees: the turn in which the
        # first wrong line falls does not count.
        matched = max(0, sum(1 for line in reference[:first] if line.startswith("|turn|")) - 1)
    return Comparison(case_id, turns, matched, first, reference, engine)


def side_by_side(c: Comparison, context: int = 3, width: int = 58) -> str:
    if c.first_wrong is None:
        return f"{c.id}: all {len(c.reference)} lines agree ({c.turns} turns)"
    lo = max(0, c.first_wrong - context)
    hi = c.first_wrong + context + 1
    rows = [
        f"{c.id}: first wrong line {c.first_wrong + 1}; {c.matched} of {c.turns} turns matched",
        f"{'':6}{'Showdown':{width}}  engine",
    ]
    for i in range(lo, hi):
        a = c.reference[i] if i < len(c.reference) else "(end)"
        b = c.engine[i] if i < len(c.engine) else "(end)"
        mark = ">>" if i == c.first_wrong else "  "
        rows.append(f"{mark}{i + 1:>4} {a[:width]:{width}}  {b[:width]}")
    return "\n".join(rows)


def load_engine_output(path: Path) -> dict[str, list[str]]:
    """An engine's output, JSON lines of {id, log}: each battle's graded log by case id. A
    log that is not a list of lines, or an id given twice, is one line: scoring it anyway
    would compare characters, or keep whichever came last."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    numbers = [n for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    out: dict[str, list[str]] = {}
    seen: dict[str, int] = {}
    for number, item in zip(numbers, load_jsonl(path, "the engine output"), strict=False):
        cid = str(item.get("id"))
        log = item.get("log", [])
        if not isinstance(log, list) or not all(isinstance(line, str) for line in log):
            raise PokeviewError(
                f"{path}, line {number} (id {cid}): its log should be a list of lines "
                f"(strings), not {type(log).__name__ if not isinstance(log, list) else 'that'}"
            )
        if cid in seen:
            raise PokeviewError(f"{path}: id {cid} is on lines {seen[cid]} and {number}")
        seen[cid] = number
        out[cid] = log
    return out


@dataclass
class Score:
    """An engine's score over battles: turns matched before the first wrong line, over all of
    Showdown's turns."""

    results: list[Comparison]
    stops: dict[str, str]  # where Showdown stopped, for cases whose choices stop fitting
    missing: list[str] = field(default_factory=list)  # cases the engine gave no log for
    unknown: list[str] = field(default_factory=list)  # output ids that name no case

    @property
    def matched(self) -> int:
        return sum(r.matched for r in self.results)

    @property
    def turns(self) -> int:
        return sum(r.turns for r in self.results) or 1  # no turns at all: 0 of 1, not 0 of 0

    @property
    def percent(self) -> float:
        return 100 * self.matched / self.turns

    def summary(self) -> str:
        said = (
            f"score {self.percent:.1f}: {self.matched} of {self.turns} turns matched "
            f"before the first wrong line, over {len(self.results)} battles"
        )
        if self.missing:
            n = len(self.missing)
            said += (
                f"; {n} battle{'s' if n > 1 else ''} missing from the engine output "
                f"(scored 0): {', '.join(self.missing)}"
            )
        if self.unknown:
            n = len(self.unknown)
            said += (
                f"; {n} output id{'s match' if n > 1 else ' matches'} no case (ignored): "
                f"{', '.join(self.unknown)}"
            )
        return said

    def to_json(self) -> dict[str, Any]:
        def at(log: list[str], i: int | None) -> str | None:
            return None if i is None or i >= len(log) else log[i]

        battles = [
            {
                "id": r.id,
                "turns": r.turns,
                "matched": r.matched,
                "first_wrong_line": None if r.first_wrong is None else r.first_wrong + 1,
                "showdown": at(r.reference, r.first_wrong),
                "engine": at(r.engine, r.first_wrong),
                "showdown_stopped": self.stops.get(r.id),
            }
            for r in self.results
        ]
        return {
            "score": self.percent,
            "turns_matched": self.matched,
            "turns": self.turns,
            "battles": battles,
            "missing_ids": self.missing,
            "unknown_ids": self.unknown,
        }


def score(
    reference: dict[str, list[str]], stops: dict[str, str], engine: dict[str, list[str]]
) -> Score:
    """Each case's engine log against Showdown's; a case the engine left out matches nothing."""
    results = [compare(cid, ref, engine.get(cid, [])) for cid, ref in reference.items()]
    missing = [cid for cid in reference if cid not in engine]
    unknown = [cid for cid in engine if cid not in reference]
    return Score(results, stops, missing, unknown)


async def score_engine(
    cases: list[dict[str, Any]], engine: dict[str, list[str]], bridge: Any
) -> Score:
    """The engine's logs scored against the pinned Showdown's logs of the same cases."""
    return score(*await showdown_graded_logs(cases, bridge), engine)


async def showdown_graded_logs(
    cases: list[dict[str, Any]], bridge: Any
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Each case's graded log from the pinned Showdown (omniscient, as Pokéval's oracle), and
    where Showdown stopped for cases whose recorded choices stop fitting the battle."""
    logs, stops = {}, {}
    for case in cases:
        channel = await bridge.open(Start(inputlog=input_log(case), quiet=True, omniscient=True))
        try:
            step = await channel.next()
        finally:
            channel.close()
        logs[str(case["id"])] = graded(step.spectator)
        if step.stopped:
            stops[str(case["id"])] = (
                f"Showdown stopped at choice line {step.stopped.line} "
                f"({step.stopped.input}): {step.stopped.error}"
            )
    return logs, stops
