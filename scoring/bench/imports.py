"""`imports`: a big CSV of players imported while another director keeps saving (issue 12, item 12).

One thread imports `import_rows` players into the benchmark's event through
`scoring.services.players_import_csv` (what the background job runs); another enters late players one
at a time through `services.entry_add` — another director at the desk — every 50 ms until the import
has finished. Every save's wait is clocked: none may take more than 5 s or fail. The suite runs the
same scenario with a few thousand rows (tests/scoring/test_import_concurrency.py).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from scoring import services

from .context import BenchContext

DIRECTOR = "bench-import-director"


def players_csv(rows: int, *, prefix: str = "Imported") -> str:
    """A CSV of `rows` distinct players with clubs and membership ids."""
    lines = ["name,club,membership id"]
    lines += [
        f"{prefix} Player {number:05d},Club {number % 40},{prefix[:3].upper()}{number:06d}"
        for number in range(rows)
    ]
    return "\n".join(lines) + "\n"


def import_while_saving(*, event, user, rows: int, pause: float = 0.05) -> dict[str, Any]:
    """Import `rows` players while another thread saves late entries; the waits and failures seen."""
    data = players_csv(rows)
    finished = threading.Event()
    saving = threading.Event()
    outcome: dict[str, Any] = {}
    waits: list[float] = []
    during: list[float] = []
    failures: list[str] = []

    def importer() -> None:
        try:
            # The other director is at the desk first, so their saves meet the whole import.
            saving.wait(timeout=60)
            started = time.perf_counter()
            report = services.players_import_csv(event=event, user=user, data=data)
            outcome["import_s"] = time.perf_counter() - started
            outcome["added"] = len(report.added)
            outcome["rejected"] = report.lines()[:5]
        except Exception as exc:  # reported, never lost in a thread
            outcome["error"] = f"{type(exc).__name__}: {exc}"
        finally:
            finished.set()
            connection.close()

    def saver() -> None:
        number = 0
        try:
            while number == 0 or not finished.is_set():
                saving.set()
                started = time.perf_counter()
                try:
                    services.entry_add(event=event, user=user, name=f"Walk-in {number:05d}")
                except Exception as exc:  # a failed save is the figure, not a crash
                    failures.append(f"{type(exc).__name__}: {exc}"[:200])
                wait = time.perf_counter() - started
                waits.append(wait)
                if not finished.is_set():
                    during.append(wait)
                number += 1
                time.sleep(pause)
        finally:
            connection.close()

    threads = [threading.Thread(target=importer), threading.Thread(target=saver)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=900)
    if any(thread.is_alive() for thread in threads):
        raise RuntimeError("the import or the saves did not finish in 15 minutes")
    if "error" in outcome:
        raise RuntimeError(f"the import failed: {outcome['error']}")
    return {
        "rows": rows,
        "added": outcome["added"],
        "rejected": outcome["rejected"],
        "import_s": round(outcome["import_s"], 3),
        "saves": len(waits),
        "saves_during_import": len(during),
        "max_save_wait_s": round(max(waits), 3) if waits else None,
        "save_failures": len(failures),
        "failures": failures[:5],
    }


def measure(context: BenchContext) -> dict[str, Any]:
    user, _ = get_user_model().objects.get_or_create(username=DIRECTOR)
    event = services.event_create(
        user=user,
        name="Benchmark import",
        slug=f"{context.event.event.slug}-import",
        date_start=context.event.event.date_start,
        directors=[user],
    )
    context.progress(f"imports: {context.scale.import_rows} players while another director saves")
    return import_while_saving(event=event, user=user, rows=context.scale.import_rows)
