"""`manage.py bench --small` runs in the suite so the benchmark cannot rot.

It runs as its own process (it makes and drops its own database, and starts a gunicorn), and the test
checks the report's shape and that every measurement produced numbers — never the timing targets.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from scoring.bench.config import SECTIONS, figure
from tests.browser.conftest import CHROMIUM as BROWSER_TESTS_CHROMIUM

ROOT = Path(settings.BASE_DIR)
pytestmark = pytest.mark.slow

# Each measurement's figures that must be numbers in any run, however small.
FIGURES = {
    "validator": (
        "deals",
        "deals_per_second",
        "validate_median_s",
        "json_loads_median_s",
        "ratio_to_json_loads",
    ),
    "standings": (
        "players",
        "sql_floor_median_ms",
        "selector_median_ms",
        "cold_median_ms",
        "cold_queries",
        "cold_ratio_to_sql",
        "warm_median_ms",
        "warm_queries",
        "not_modified_median_ms",
    ),
    "record_deal": ("median_ms", "queries", "queries_without_transaction_control"),
    "pdf_round": (
        "pages",
        "render_median_s",
        "bare_weasyprint_median_s",
        "seconds_per_page",
        "ratio_to_bare_weasyprint",
        "task_seconds_per_page",
        "task.pages",
        "task.seconds",
    ),
    "imports": ("rows", "added", "import_s", "saves", "max_save_wait_s", "save_failures"),
    "growth": (
        "standings_per_player_ratio",
        "record_deal_ratio",
        "standings_query_growth",
        "record_deal_query_growth",
        "base.players",
        "large.players",
    ),
    "load": (
        "requests",
        "requests_per_second",
        "p50_ms",
        "p99_ms",
        "errors",
        "static_requests_per_second",
        "ratio_to_static",
    ),
    "ratings": (
        "sets",
        "recompute_s",
        "sets_per_second",
        "sets_per_cpu_second",
        "after_one_change_sets_per_second",
        "read_s",
        "rate_s",
        "openskill_s",
        "ratio_to_openskill",
        "places_s",
        "read_queries",
        "recompute_queries",
    ),
}


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "report.json"
    command = [sys.executable, "manage.py", "bench", "--small", "--json-only", "--out", str(out)]
    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("postgresql"):
        # Its own database on the server, so two test runs never share one.
        command += ["--db-name", f"{database['NAME']}_bench_{os.getpid()}"]
    # The entry section types into the headless shell, as the suite's browser tests do (`make bench`
    # keeps the full browser unless KALOOKI_CHROMIUM says otherwise): the same pages at less CPU.
    environment = {"KALOOKI_CHROMIUM": str(BROWSER_TESTS_CHROMIUM), **os.environ}
    done = subprocess.run(
        command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600, check=False
    )
    return done, out


def test_small_bench_exits_cleanly_and_prints_one_json_object(small_run):
    done, out = small_run
    assert done.returncode == 0, done.stderr[-3000:]
    printed = json.loads(done.stdout)
    assert printed == json.loads(out.read_text(encoding="utf-8"))
    assert list(printed) == [*SECTIONS, "machine"]
    assert "[bench" in done.stderr  # progress goes to stderr, not into the JSON


def test_every_measurement_gives_numbers_and_a_verdict(small_run):
    _, out = small_run
    report = json.loads(out.read_text(encoding="utf-8"))
    for name, keys in FIGURES.items():
        section = report[name]
        assert "error" not in section, f"{name}: {section.get('error')}\n{section.get('traceback')}"
        assert section["target"], name
        assert isinstance(section["target_met"], bool), name
        missing = [key for key in keys if not _number(figure(section, key))]
        assert not missing, f"{name} has no numbers for {missing}"


def test_the_small_event_is_whole_and_checks_out(small_run):
    _, out = small_run
    report = json.loads(out.read_text(encoding="utf-8"))
    event = report["machine"]["event"]
    assert (event["players"], event["rounds"], event["sets"], event["deals"]) == (16, 1, 4, 36)
    assert event["results"] == 4 * 36  # void deals carry no results
    assert report["validator"]["deals"] == 36
    assert report["validator"]["findings"] == 0
    # Issue 14: simulated British games, every hand written, beside the Jamaican sets.
    british = report["validator"]["british"]
    assert british["findings"] == 0 and british["deals"] > british["games"] > 0
    assert _number(british["deals_per_second"]) and _number(british["validate_median_s"])
    assert report["standings"]["totals_match_sql"] is True
    assert report["standings"]["players"] == 16
    assert report["record_deal"]["findings"] == 0
    assert report["pdf_round"]["pages"] == report["pdf_round"]["bare_pages"] == 2
    # Issue 12: the pack made by the worker has a page a table; the import entered every row while the
    # other director's saves went through; growth measured both events with the same query counts.
    assert report["pdf_round"]["task"]["pages"] == 2
    assert report["imports"]["added"] == 200 and report["imports"]["save_failures"] == 0
    growth = report["growth"]
    assert (growth["base"]["players"], growth["large"]["players"]) == (16, 64)
    # Every answer under load was the page (timeouts on a busy machine are timing, not asserted here).
    assert report["load"]["non_2xx_3xx"] == 0
    # Issue 11: one deal typed in each mode, entered as the sheet says (timing is not asserted here).
    entry = report["entry"]
    for mode in ("fast", "totals"):
        assert entry[mode]["deals"] == 1
        assert entry[mode]["totals_match_sheet"] is True and entry[mode]["findings"] == 0
    # Issue 15: every set is rated — the small league's, the benchmark event's and the PDF packs' events'
    # (the one printed at once and the one printed in the background) — read in three queries.
    ratings = report["ratings"]
    assert ratings["league"]["sets"] == 96
    pdf_round = report["pdf_round"]
    assert ratings["sets"] == 96 + event["sets"] + pdf_round["pages"] + pdf_round["task"]["pages"]
    assert ratings["read_queries"] == 3


def test_the_rush_runs_on_postgresql_with_redis_and_says_so_elsewhere(small_run):
    """Issue 24: the rush needs two app servers sharing Redis and PostgreSQL; elsewhere it says so."""
    _, out = small_run
    rush = json.loads(out.read_text(encoding="utf-8"))["rush"]
    assert "error" not in rush, f"{rush.get('error')}\n{rush.get('traceback')}"
    database = settings.DATABASES["default"]["ENGINE"]
    if not (database.endswith("postgresql") and settings.REDIS_URL):
        assert rush["skipped"] is True and rush["reason"].startswith("needs PostgreSQL + Redis")
        return
    keys = (
        "requests",
        "requests_per_second",
        "p99_ms",
        "ratio_to_static",
        "save_quiet_median_ms",
        "save_p99_ms",
    )
    assert all(_number(rush[key]) for key in keys), {key: rush.get(key) for key in keys}
    assert rush["servers"] == 2 and rush["addresses"] == 16 * 2 + 2  # every player's two pages, the list
    assert rush["save_failures"] == 0


def test_the_machine_is_described(small_run):
    _, out = small_run
    info = json.loads(out.read_text(encoding="utf-8"))["machine"]
    assert info["mode"] == "small"
    assert _number(info["cores"]) and info["cores"] >= 1
    assert info["python"] == sys.version.split()[0]
    assert info["django"].startswith("5.2")
    assert info["database"]["vendor"] in {"sqlite", "postgresql"}
    assert info["database"]["version"]
    assert info["weasyprint"]
    assert isinstance(info["harfbuzz_subset"], bool)
    assert info["load_tool"] in {"wrk", "python"}


@pytest.mark.django_db
def test_a_count_of_queries_is_right_after_django_kept_its_most_statements():
    from django.db import connection

    from scoring.bench.queries import counted
    from scoring.models import Event

    log = connection.queries_log
    log.extend({"sql": "SELECT 1", "time": "0.000"} for _ in range(log.maxlen))
    count, _ = counted(lambda: list(Event.objects.all()))
    assert count.total == 1
