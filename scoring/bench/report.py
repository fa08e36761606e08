"""The benchmark's report: each section's figures with its target and verdict, the machine, a text table.

A measurement that fails is reported as such — its error and the last lines of its traceback — with
`target_met: null`, and the run goes on with the others.
"""

from __future__ import annotations

import os
import platform
import sys
import traceback
from collections.abc import Callable
from typing import Any

from .config import SECTIONS, TARGETS, Stack, figure


def judged(name: str, figures: dict[str, Any], stack: Stack | None = None) -> dict[str, Any]:
    """The section's figures with `target` (the issue's bounds), per-bound `checks` and `target_met`.

    A bound for another database or cache than this run's (`stack`, by default the run's own) is listed
    under `not_judged` beside this run's stack (`this_run`), and counts neither way.
    """
    stack = stack or current_stack()
    bounds = TARGETS[name]
    checks = {bound.describe(): bound.met(figures) for bound in bounds if bound.applies(stack)}
    verdicts = list(checks.values())
    met = None if None in verdicts else all(verdicts)
    targets = [bound.describe() for bound in bounds]
    section: dict[str, Any] = {"target": targets, "target_met": met, "checks": checks}
    not_judged = [bound.describe() for bound in bounds if not bound.applies(stack)]
    if not_judged:
        section["not_judged"] = {"bounds": not_judged, "this_run": stack.describe()}
    return {**section, **figures}


def current_stack() -> Stack:
    from django.conf import settings
    from django.db import connection

    return Stack(database=connection.vendor, shared_cache=bool(settings.REDIS_URL))


def failed(name: str, exc: BaseException, *, what: str = "") -> dict[str, Any]:
    # The frames of the project's own code say where it broke; the library's frames below them rarely do.
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__) if _own(frame.filename)]
    lines = traceback.format_list(frames[-4:]) + traceback.format_exception_only(type(exc), exc)
    return {
        "target": [bound.describe() for bound in TARGETS[name]],
        "target_met": None,
        "error": f"{what + ' failed: ' if what else ''}{type(exc).__name__}: {exc}",
        "traceback": "".join(lines),
    }


def _own(filename: str) -> bool:
    from django.conf import settings

    return filename.startswith(str(settings.BASE_DIR)) and "site-packages" not in filename


def skipped(name: str) -> dict[str, Any]:
    return {"target": [bound.describe() for bound in TARGETS[name]], "target_met": None, "skipped": True}


def run_section(name: str, measure: Callable[[], dict[str, Any]], progress: Callable[[str], None]) -> dict:
    progress(f"{name}: measuring")
    before = _load_average()
    try:
        section = judged(name, measure())
    except Exception as exc:
        # A failed measurement is reported, never hidden; the run goes on with the others.
        progress(f"{name}: FAILED {type(exc).__name__}: {exc}")
        return failed(name, exc)
    # Other work on the machine slows every figure: the one-minute load before and after says how busy.
    section["machine_load_before_after"] = [before, _load_average()]
    progress(f"{name}: done, target met: {section['target_met']}")
    return section


def _load_average() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


# --- the machine ----------------------------------------------------------------------------------


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or ""


def _database() -> dict[str, Any]:
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SHOW server_version")
        else:
            cursor.execute("SELECT sqlite_version()")
        version = cursor.fetchone()[0]
    return {"vendor": connection.vendor, "version": version, "name": str(connection.settings_dict["NAME"])}


def _weasyprint() -> dict[str, Any]:
    try:
        import weasyprint
        from weasyprint.text import ffi as text_ffi
    except Exception as exc:
        # A missing or broken PDF library is a fact about the machine: report it.
        return {"weasyprint": None, "weasyprint_error": str(exc)}
    harfbuzz = text_ffi.harfbuzz
    # WeasyPrint subsets fonts with HarfBuzz when libharfbuzz-subset is present and HarfBuzz ≥ 4.1.
    subset = text_ffi.harfbuzz_subset is not None and bool(harfbuzz.hb_version_atleast(4, 1, 0))
    pango = int(text_ffi.pango.pango_version())
    return {
        "weasyprint": weasyprint.__version__,
        "pango": f"{pango // 10000}.{pango // 100 % 100}.{pango % 100}",
        "harfbuzz_subset": subset,
    }


def machine(*, mode: str, load_tool: str) -> dict[str, Any]:
    import django
    from django.conf import settings

    try:
        import gunicorn

        gunicorn_version = gunicorn.__version__
    except ImportError:
        gunicorn_version = None
    info: dict[str, Any] = {
        "mode": mode,
        "cores": os.cpu_count(),
        "cpu": _cpu_model(),
        "load_average": [round(value, 2) for value in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "django": django.get_version(),
        "debug": settings.DEBUG,
        "gunicorn": gunicorn_version,
        "load_tool": load_tool,
    }
    try:
        info["database"] = _database()
    except Exception as exc:
        # The measurements say what broke; the machine's description must not hide them.
        info["database"] = {"error": str(exc)}
    info.update(_weasyprint())
    return info


# --- the text table -------------------------------------------------------------------------------

SUMMARY_KEYS = {
    "validator": (
        "deals_per_second",
        "british.deals_per_second",
        "ratio_to_json_loads",
        "validate_median_s",
        "json_loads_median_s",
        "deals_per_cpu_second",
    ),
    "standings": (
        "cold_median_ms",
        "cold_queries",
        "sql_floor_median_ms",
        "cold_ratio_to_sql",
        "warm_median_ms",
        "not_modified_median_ms",
        "selector_median_ms",
    ),
    "record_deal": ("median_ms", "queries", "queries_median", "min_ms", "max_ms", "cpu_median_ms"),
    "pdf_round": (
        "pages",
        "seconds_per_page",
        "bare_seconds_per_page",
        "ratio_to_bare_weasyprint",
        "task_seconds_per_page",
        "task.pages",
        "task.seconds",
        "bare_gc_paused_seconds_per_page",
        "cpu_seconds_per_page",
    ),
    "load": (
        "tool",
        "requests_per_second",
        "p50_ms",
        "p99_ms",
        "errors",
        "connections",
        "static_requests_per_second",
        "ratio_to_static",
        "cache",
    ),
    "entry": (
        "seed",
        "fast.keystrokes_per_deal",
        "fast.tabs_per_deal",
        "fast.round_trips_per_deal",
        "fast.seconds_per_set",
        "totals.keystrokes_per_deal",
        "totals.tabs_per_deal",
        "totals.round_trips_per_deal",
        "totals.seconds_per_set",
    ),
    "ratings": (
        "sets",
        "sets_per_second",
        "after_one_change_sets_per_second",
        "ratio_to_openskill",
        "openskill_s",
        "recompute_s",
        "read_s",
        "rate_s",
        "places_s",
        "sets_per_cpu_second",
        "read_queries",
    ),
    "imports": ("rows", "import_s", "saves_during_import", "max_save_wait_s", "save_failures"),
    "rush": (
        "reason",
        "players",
        "requests_per_second",
        "ratio_to_static",
        "p99_ms",
        "errors",
        "saves",
        "save_quiet_median_ms",
        "save_p99_ms",
        "save_limit_ms",
        "rendered_from_database",
        "warm_s",
    ),
    "growth": (
        "database",
        "standings_per_player_ratio",
        "record_deal_ratio",
        "standings_queries",
        "record_deal_queries",
        "base.standings_cold_median_ms",
        "large.standings_cold_median_ms",
        "base.record_deal_median_ms",
        "large.record_deal_median_ms",
    ),
}


def _verdict(section: dict[str, Any]) -> str:
    if section.get("error"):
        return "FAILED"
    if section.get("skipped"):
        return "skipped"
    return {True: "met", False: "MISSED", None: "?"}[section.get("target_met")]


def text_table(report: dict[str, Any]) -> str:
    info = report.get("machine", {})
    database = info.get("database", {})
    lines = [
        f"Kalooki benchmark ({info.get('mode')}): {info.get('cores')} cores, Python {info.get('python')}, "
        f"Django {info.get('django')}, {database.get('vendor')} {database.get('version')}, "
        f"WeasyPrint {info.get('weasyprint')} (HarfBuzz subset: {info.get('harfbuzz_subset')}); "
        f"load average at the start {info.get('load_average')}",
        "",
        f"{'measure':<12} {'target':<10} figures",
    ]
    for name in SECTIONS:
        section = report.get(name, {})
        if section.get("error"):
            figures = section["error"]
        else:
            shown = ((key, figure(section, key)) for key in SUMMARY_KEYS[name])
            figures = ", ".join(f"{key}={value}" for key, value in shown if value is not None)
        lines.append(f"{name:<12} {_verdict(section):<10} {figures}")
        if not section.get("error") and not section.get("skipped"):
            missed = [check for check, ok in section.get("checks", {}).items() if ok is False]
            if missed:
                lines.append(f"{'':<12} {'':<10} missed: {'; '.join(missed)}")
            if section.get("not_judged"):
                bounds, stack = section["not_judged"]["bounds"], section["not_judged"]["this_run"]
                lines.append(f"{'':<12} {'':<10} not judged on {stack}: {'; '.join(bounds)}")
    return "\n".join(lines)
