"""One benchmark run: a fresh database, the synthetic event, each measurement in turn, one report."""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any

from . import entry, growth, imports, load, pdf_round, ratings, record_deal, rush, standings, validator
from .config import SECTIONS, Scale
from .context import BenchContext
from .database import fresh_database
from .fixture import BenchEvent, build_event
from .loadgen import wrk_available
from .report import failed, machine, run_section, skipped
from .timing import Progress

# The order matters: record_deal changes the event (and puts it back), so the pages are measured first;
# ratings adds a federation's history beside the event, so it comes last.
MEASURES = {
    "validator": validator.measure,
    "standings": standings.measure,
    "load": load.measure,
    "record_deal": record_deal.measure,
    "pdf_round": pdf_round.measure,
    # Its own two small events, typed through a browser: after the measurements of the big one.
    "entry": entry.measure,
    "imports": imports.measure,
    "ratings": ratings.measure,
    # Its own event of 2,048 players and two servers (PostgreSQL + Redis only): after the ratings count
    # every event's sets, before `growth`'s big event.
    "rush": rush.measure,
    # `--large` only: a second event of 16,384 players beside the others, so it comes last of all.
    "growth": growth.measure,
}


def run_benchmark(
    scale: Scale,
    *,
    only: Collection[str] = SECTIONS,
    db_name: str | None = None,
    keep_db: bool = False,
    load_tool: str = "auto",
    load_seconds: float | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The report: exactly the keys of SECTIONS and machine (`growth` is skipped unless the scale has
    `growth_players`: `--large`)."""
    progress = progress or Progress()
    started = time.perf_counter()
    tool = ("wrk" if wrk_available() else "python") if load_tool == "auto" else load_tool
    report: dict[str, Any] = {}
    with fresh_database(name=db_name, keep=keep_db, progress=progress) as database:
        info = machine(mode=scale.name, load_tool=tool)
        progress(
            f"building the event: {scale.players} players, {scale.rounds} rounds of {scale.tables} tables"
        )
        try:
            built = build_event(
                slug="bench",
                name="Benchmark open",
                players=scale.players,
                rounds=scale.rounds,
                seed=scale.seed,
                progress=progress,
            )
        except Exception as exc:
            # Without the event nothing can be measured: every measurement says why.
            progress(f"building the event FAILED: {type(exc).__name__}: {exc}")
            report = {name: failed(name, exc, what="building the event") for name in SECTIONS}
        else:
            info["event"] = _event_figures(scale, built)
            context = BenchContext(
                scale=scale,
                event=built,
                database=database,
                progress=progress,
                load_tool=load_tool,
                load_seconds=load_seconds,
            )
            with context.held:
                for name, measure in MEASURES.items():
                    if name in only and (name != "growth" or scale.growth_players):
                        report[name] = run_section(name, lambda measure=measure: measure(context), progress)
                    else:
                        report[name] = skipped(name)
    info["run_s"] = round(time.perf_counter() - started, 1)
    report["machine"] = info
    progress(f"finished in {info['run_s']} s")
    return {key: report[key] for key in (*SECTIONS, "machine")}


def _event_figures(scale: Scale, built: BenchEvent) -> dict[str, Any]:
    return {
        "players": scale.players,
        "rounds": scale.rounds,
        "tables_per_round": scale.tables,
        "sets": len(built.sheets),
        "deals": built.deals,
        "void_deals": built.void_deals,
        "results": built.results,
        "build_s": {key: round(value, 2) for key, value in built.seconds.items()},
        "seating": "bulk, after round_seat failed" if built.seating_failures else "round_seat",
        "round_seat_failures": built.seating_failures,
    }
