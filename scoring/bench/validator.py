"""`validator`: deals validated per second on already-parsed sheets, against `json.loads` of the same sheets.

Both are timed over the event's sheets (every deal with every hand), each run with the garbage collector
paused (as `timeit` does). The floor is the cost of only decoding the sheets' JSON text, timed separately
from the validation of the parsed sheets.

`british` (issue 14): simulated British Kalooki games, every hand written, validated the same way — as
many as the event has sets, and never fewer than a few hundred so that a small run still times something;
its `deals_per_second` counts scored hands. `north_american`: simulated North American Kaluki games (the
simulator's eight hands a game at tables of four), timed the same way.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from adjudication.engine.british_simulator import simulate_british_many
from adjudication.engine.north_american_simulator import simulate_north_american_many
from adjudication.engine.sheet import parse_sheet
from adjudication.engine.validator import validate

from .context import BenchContext
from .timing import gc_paused, median, ratio, rounded


def measure(context: BenchContext) -> dict[str, Any]:
    sheets = list(context.event.sheets.values())
    texts = [json.dumps(sheet) for sheet in sheets]
    parsed = [parse_sheet(sheet) for sheet in sheets]
    deals = sum(1 for sheet in parsed for deal in sheet.deals if not deal.void)
    voids = sum(1 for sheet in parsed for deal in sheet.deals if deal.void)
    hands = sum(
        1
        for sheet in parsed
        for deal in sheet.deals
        if not deal.void and all(result.hand is not None for result in deal.results.values())
    )
    loads_times: list[float] = []
    validate_times: list[float] = []
    validate_cpu: list[float] = []
    findings = 0
    for _ in range(context.scale.validator_runs):
        with gc_paused():
            start = time.perf_counter()
            decoded = [json.loads(text) for text in texts]
            loads_times.append(time.perf_counter() - start)
        del decoded
        seconds, cpu_seconds, findings = _validated(parsed)
        validate_times.append(seconds)
        validate_cpu.append(cpu_seconds)
    validate_s = median(validate_times)
    loads_s = median(loads_times)
    return {
        "sheets": len(sheets),
        "deals": deals,
        "deals_with_every_hand": hands,
        "void_deals": voids,
        "json_megabytes": round(sum(len(text.encode()) for text in texts) / 1e6, 2),
        "runs": len(validate_times),
        "validate_median_s": rounded(validate_s),
        "json_loads_median_s": rounded(loads_s),
        "validate_runs_s": [rounded(value) for value in validate_times],
        "json_loads_runs_s": [rounded(value) for value in loads_times],
        "deals_per_second": round(deals / validate_s) if validate_s else None,
        "ratio_to_json_loads": rounded(ratio(validate_s, loads_s), 2),
        # Per second of this process's CPU: what the wall clock would give on an otherwise idle machine.
        "deals_per_cpu_second": round(deals / median(validate_cpu)) if median(validate_cpu) else None,
        # The simulator's sheets are valid: any finding here is a validator (or simulator) bug.
        "findings": findings,
        "british": _games(context, simulate_british_many),
        "north_american": _games(context, simulate_north_american_many),
    }


# A British game runs to about eight hands at the 150 limit; a simulated North American game is eight.
BRITISH_GAMES_AT_LEAST = 250


def _games(context: BenchContext, simulate_many: Callable[..., list[dict[str, Any]]]) -> dict[str, Any]:
    """One game family's simulated games, every hand written, validated as the event's sheets are."""
    count = max(len(context.event.sheets), BRITISH_GAMES_AT_LEAST)
    games = simulate_many(context.scale.seed, count, with_hands=True)
    parsed = [parse_sheet(game) for game in games]
    hands = sum(1 for sheet in parsed for hand in sheet.deals if not hand.void)
    runs = [_validated(parsed) for _ in range(context.scale.validator_runs)]
    times = [seconds for seconds, _, _ in runs]
    median_s, cpu_s = median(times), median([cpu_seconds for _, cpu_seconds, _ in runs])
    findings = runs[-1][2] if runs else 0
    return {
        "games": len(parsed),
        "deals": hands,
        "void_deals": sum(1 for sheet in parsed for hand in sheet.deals if hand.void),
        "runs": len(times),
        "validate_median_s": rounded(median_s),
        "validate_runs_s": [rounded(value) for value in times],
        "deals_per_second": round(hands / median_s) if median_s else None,
        "deals_per_cpu_second": round(hands / cpu_s) if cpu_s else None,
        "findings": findings,
    }


def _validated(parsed: list[Any]) -> tuple[float, float, int]:
    """One run over the parsed sheets with the garbage collector paused: wall and CPU seconds, findings."""
    with gc_paused():
        start, cpu = time.perf_counter(), time.process_time()
        found = [validate(sheet) for sheet in parsed]
        seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    return seconds, cpu_seconds, sum(len(items) for items in found)
