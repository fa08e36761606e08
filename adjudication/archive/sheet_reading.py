"""A table's score sheet inside an archive: read by the engine, its players and rules checked
against the event's.

The engine's `parse_sheet` checks the sheet (a sheet it refuses stops the import, naming the place);
`scoring.services.sheet_import` then stores the deals the engine read, through `scoring.deal_input`
— the one way in for a deal. Fields neither knows are ignored (SCORESHEET.md).
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from typing import Any

from adjudication.engine.rules import RuleSet
from adjudication.engine.sheet import SHEET_KEYS as ENGINE_SHEET_KEYS
from adjudication.engine.sheet import SheetError, got, parse_sheet

from .values import ArchiveError, list_at, object_at

# What the importer reads of a sheet besides the engine's fields: who played a seat mid-set.
SHEET_KEYS = (*sorted(ENGINE_SHEET_KEYS), "substitutes")


def read_sheet(raw: Any, path: str, event_rules: RuleSet, players: Container[str]) -> dict[str, Any]:
    """The sheet as the importer writes it: readable, its players (names) entered, its rules the event's."""
    try:
        sheet = parse_sheet(raw)
    except SheetError as exc:
        raise ArchiveError(f"{path}.{exc.path}" if exc.path else path, exc.problem) from None
    if sheet.rules != event_rules:
        raise ArchiveError(
            f"{path}.rules" if raw.get("rules") else f"{path}.ruleset",
            "the sheet's rules differ from the event's",
        )
    for seat, name in enumerate(sheet.players):
        if name not in players:
            raise ArchiveError(f"{path}.players[{seat}]", f"{got(name)} is not among the event's players")
    data = known(raw, SHEET_KEYS)
    data["ruleset"], data["rules"] = sheet.rules.name, sheet.rules.overrides()
    substitutes = data.get("substitutes")
    if substitutes is not None:
        for index, item in enumerate(list_at(substitutes, f"{path}.substitutes")):
            item = object_at(item, f"{path}.substitutes[{index}]")
            if not isinstance(item.get("player"), str) or item["player"] not in players:
                raise ArchiveError(
                    f"{path}.substitutes[{index}].player",
                    f"{got(item.get('player'))} is not among the event's players",
                )
    return data


def known(raw: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: raw[key] for key in keys if key in raw}
