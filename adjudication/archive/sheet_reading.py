"""A table's score sheet inside an archive: read by the engine, then cut to what the importer writes.

This is where the archive reads a deal. The engine's `parse_sheet` checks the sheet (a sheet it
refuses stops the import, naming the place); the deals then go on, as the archive wrote them, to
`scoring.services.sheet_import`, which reads them with `scoring.deal_input`. `known_deal` bridges the
two readers' differences (a null count, a null result).
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from typing import Any

from adjudication.engine.rules import RuleSet
from adjudication.engine.sheet import SheetError, got, parse_sheet
from scoring import deal_input

from .values import ArchiveError, list_at, object_at

# What the importer reads of a sheet; anything else is ignored (SCORESHEET.md: unknown fields).
SHEET_KEYS = ("format", "ruleset", "rules", "players", "first_dealer", "deals", "substitutes")
DEAL_KEYS = ("deal", "dealer", "void", "out", "doubled", "results")
RESULT_KEYS = deal_input.RESULT_KEYS


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
    data["deals"] = [known_deal(deal) for deal in raw["deals"]]
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


def known_deal(raw: Any) -> Any:
    deal = known(raw, DEAL_KEYS)
    results = deal.get("results")
    if isinstance(results, dict):
        deal["results"] = {
            name: {
                key: value
                for key, value in row.items()
                # The sheet reads a missing and a null count alike; the services want a number or nothing.
                if key in RESULT_KEYS and not (value is None and key in ("calls", "other_points"))
            }
            for name, row in results.items()
            # A null result is no result (the validator reports it missing).
            if row is not None
        }
    return deal
