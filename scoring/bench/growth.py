"""`growth` (`--large` only): how the standings and a recorded deal grow from 1,024 to 16,384 players.

A second event of `growth_players` players and the same rounds is built beside the benchmark's event
(untimed), and the `standings` and `record_deal` measurements run on both with the same code. The figures
are the cold standings page's cost per player and a recorded deal's cost, large over base: 1.0 means a
page costs the same per player at 16 times the size and a deal costs the same whatever the event's size.
The query counts of both must not change with the size (the selectors' fixed query counts).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db import connection

from . import record_deal, standings
from .context import BenchContext
from .fixture import build_event
from .timing import ratio, rounded


def _measured(context: BenchContext) -> dict[str, Any]:
    page = standings.measure(context)
    deal = record_deal.measure(context)
    players = page["players"] or 1
    return {
        "players": page["players"],
        "standings_cold_median_ms": page["cold_median_ms"],
        "standings_cold_ms_per_player": rounded(page["cold_median_ms"] / players, 5),
        "standings_cold_queries": page["cold_queries"],
        "standings_sql_floor_median_ms": page["sql_floor_median_ms"],
        "standings_selector_median_ms": page["selector_median_ms"],
        "record_deal_median_ms": deal["median_ms"],
        "record_deal_queries": deal["queries"],
    }


def measure(context: BenchContext) -> dict[str, Any]:
    scale = context.scale
    if not scale.growth_players:
        raise RuntimeError("growth runs with --large only")
    context.progress(f"growth: the base event ({scale.players} players)")
    base = _measured(context)
    context.progress(f"growth: building {scale.growth_players} players × {scale.rounds} rounds (untimed)")
    large_event = build_event(
        slug=f"{context.event.event.slug}-large",
        name="Benchmark federation open",
        players=scale.growth_players,
        rounds=scale.rounds,
        seed=scale.seed + 7,
        progress=context.progress,
    )
    context.progress("growth: the large event")
    large = _measured(dataclasses.replace(context, event=large_event))
    per_player = ratio(large["standings_cold_ms_per_player"], base["standings_cold_ms_per_player"])
    return {
        "database": connection.vendor,
        "base": base,
        "large": large,
        "large_build_s": {key: round(value, 1) for key, value in large_event.seconds.items()},
        "standings_per_player_ratio": rounded(per_player, 3),
        "record_deal_ratio": rounded(ratio(large["record_deal_median_ms"], base["record_deal_median_ms"]), 3),
        "standings_queries": [base["standings_cold_queries"], large["standings_cold_queries"]],
        "record_deal_queries": [base["record_deal_queries"], large["record_deal_queries"]],
        "standings_query_growth": large["standings_cold_queries"] - base["standings_cold_queries"],
        "record_deal_query_growth": large["record_deal_queries"] - base["record_deal_queries"],
    }
