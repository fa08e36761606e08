"""A British game's rows as a `kalooki-sheet/1` sheet with a British ruleset (reads only).

`scoring.sheets.sheet_from_rows` hands a British event's hands here, so validation, the game page,
exports, archives and PDFs read a British game through the same door as a Jamaican set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudication.engine.british_sheet import british_result_as_dict

from .models import Deal, DealResult


def british_result_data(result: DealResult) -> dict[str, Any]:
    """One player's line as written: penalty, total, hand, opened, and a buy-in with its reset value."""
    return british_result_as_dict(
        penalty=result.penalty,
        total=result.total_written,
        hand=result.hand,
        opened=result.opened,
        buy_in=result.buy_in,
        reset_to=result.reset_to,
    )


def british_hand_as_data(deal: Deal, names_by_position: Mapping[int, str]) -> dict[str, Any]:
    """One hand in the `deals[]` shape of a British game sheet (results keyed by player name)."""
    data: dict[str, Any] = {"deal": deal.number}
    if deal.dealer is not None and deal.dealer in names_by_position:
        data["dealer"] = names_by_position[deal.dealer]
    if deal.void:
        data["void"] = True
    data["out"] = deal.out.player.name if deal.out_id else None
    data["kalookie"] = deal.kalookie
    results = sorted(deal.results.all(), key=lambda result: result.entry.player.name)
    data["results"] = {result.entry.player.name: british_result_data(result) for result in results}
    if deal.void and not data["results"] and data["out"] is None and not deal.kalookie:
        data = {key: value for key, value in data.items() if key in ("deal", "dealer", "void")}
    return data
