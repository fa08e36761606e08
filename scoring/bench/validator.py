"""`validator`: deals validated per second on already-parsed sheets, against `json.loads` of the same sheets.

Both are timed over the event's sheets (every deal with every hand), each run with the garbage collector
paused (as `timeit` does). The floor is the cost of only decoding the sheets' JSON text, timed separately
from the validation of the parsed sheets.
"""

from __future__ import annotations

import json
import time
from typing import Any

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
        with gc_paused():
            start, cpu = time.perf_counter(), time.process_time()
            found = [validate(sheet) for sheet in parsed]
            validate_times.append(time.perf_counter() - start)
            validate_cpu.append(time.process_time() - cpu)
        findings = sum(len(items) for items in found)
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
    }
