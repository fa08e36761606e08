"""The benchmark's sizes (full and small) and its targets (issue 6, and the issues that came after it)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

SECTIONS = (
    "validator",
    "standings",
    "record_deal",
    "pdf_round",
    "load",
    "entry",
    "ratings",
    "imports",
    "rush",
    "growth",
)


@dataclass(frozen=True)
class Scale:
    """How big the synthetic event is and how often each measurement is repeated."""

    name: str
    players: int
    rounds: int
    pdf_tables: int
    validator_runs: int
    standings_runs: int
    record_deal_runs: int
    pdf_runs: int
    load_seconds: float
    load_connections: int
    # Issue 15: the rating list computed again over a federation's history of this many sets.
    ratings_sets: int
    ratings_players: int
    # Issue 11: deals of the simulator's sheet typed into the entry page in each mode.
    entry_deals: int = 9
    seed: int = 2024
    # Issue 12: a round pack of this many tables run as a background task, end to end.
    pdf_task_tables: int = 256
    # Issue 12: a CSV of this many players imported while another director saves.
    import_rows: int = 20_000
    # Issue 12, `--large` only: the standings and a recorded deal again at this many players.
    growth_players: int = 0
    # Issue 24: the round-end rush (PostgreSQL + Redis): players, wrk's connections and seconds.
    rush_players: int = 2048
    rush_connections: int = 64
    rush_seconds: float = 20.0

    @property
    def tables(self) -> int:
        return self.players // 4


# Issue 6: 1,024 players, 6 rounds of 256 tables, every set's nine deals with hands; a 64-table pack.
FULL = Scale(
    name="full",
    players=1024,
    rounds=6,
    pdf_tables=64,
    validator_runs=7,
    standings_runs=7,
    record_deal_runs=15,
    pdf_runs=3,
    load_seconds=12.0,
    load_connections=16,
    ratings_sets=100_000,
    ratings_players=4_000,
)

# Runs in the test suite so the benchmark cannot rot: same code, tiny sizes.
SMALL = Scale(
    name="small",
    players=16,
    rounds=1,
    pdf_tables=2,
    validator_runs=2,
    standings_runs=2,
    record_deal_runs=2,
    pdf_runs=1,
    load_seconds=1.0,
    load_connections=4,
    entry_deals=1,
    ratings_sets=96,
    ratings_players=32,
    pdf_task_tables=2,
    import_rows=200,
    growth_players=64,
    rush_players=16,
    rush_connections=4,
    rush_seconds=2.0,
)

# `--large`: the full benchmark, and `growth` at 16,384 players × 6 rounds on the same machine.
LARGE = dataclasses.replace(FULL, name="large", growth_players=16_384)


def figure(figures: dict, key: str):
    """A section's figure by key; a dotted key (`british.deals_per_second`) reads a nested figure."""
    value = figures
    for part in key.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


@dataclass(frozen=True)
class Stack:
    """What a run stands on: its database (Django's vendor name) and whether its cache is shared (Redis)."""

    database: str
    shared_cache: bool

    def describe(self) -> str:
        return f"{DATABASE_NAMES.get(self.database, self.database)}{' + Redis' if self.shared_cache else ''}"


DATABASE_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


@dataclass(frozen=True)
class Bound:
    """One target: `key` of the section's figures must be at least / at most `limit`.

    A bound with a `database` is judged only on that database, one with `shared_cache` only when the
    run's cache is Redis: issue 24 holds a recorded deal to 12 ms on SQLite and 30 ms on PostgreSQL, and
    a cached page's rate to a file's only where the cache is shared by every app server.
    """

    key: str
    limit: float
    at_least: bool = False
    database: str | None = None
    shared_cache: bool = False

    def applies(self, stack: Stack) -> bool:
        if self.database is not None and stack.database != self.database:
            return False
        return stack.shared_cache or not self.shared_cache

    def met(self, figures: dict) -> bool | None:
        value = figure(figures, self.key)
        if not isinstance(value, int | float) or isinstance(value, bool):
            return None
        return value >= self.limit if self.at_least else value <= self.limit

    def describe(self) -> str:
        where = ""
        if self.database is not None or self.shared_cache:
            where = f" on {Stack(self.database or 'any database', self.shared_cache).describe()}"
        return f"{self.key} {'≥' if self.at_least else '≤'} {self.limit:g}{where}"


# Issue 6, "Targets (on this 2-core machine)". Standings are judged on the cold page (nothing cached);
# the warm and 304 figures are reported beside them.
TARGETS: dict[str, tuple[Bound, ...]] = {
    "validator": (
        Bound("deals_per_second", 50_000, at_least=True),
        Bound("ratio_to_json_loads", 3.0),
        # Issue 14: British games (hands included) at the same rate.
        Bound("british.deals_per_second", 50_000, at_least=True),
        # North American Kaluki games (hands included), the same rate again.
        Bound("north_american.deals_per_second", 50_000, at_least=True),
    ),
    # Issue 24 tightened issue 6's 3× and 25 queries / 30 ms: the cold standings within 2.5× the SQL
    # floor, a recorded deal in 21 queries and 12 ms on SQLite, 30 ms on PostgreSQL.
    "standings": (
        Bound("cold_ratio_to_sql", 2.5),
        Bound("cold_queries", 10),
    ),
    "record_deal": (
        Bound("queries", 21),
        Bound("median_ms", 12.0, database="sqlite"),
        Bound("median_ms", 30.0, database="postgresql"),
    ),
    "pdf_round": (
        Bound("ratio_to_bare_weasyprint", 1.3),
        Bound("seconds_per_page", 0.1),
        # Issue 12: a 256-table pack as a background task, enqueued to file ready, per page.
        Bound("task_seconds_per_page", 0.1),
    ),
    "load": (
        Bound("requests_per_second", 500, at_least=True),
        Bound("p99_ms", 100.0),
        Bound("errors", 0),
        # Issue 12: a cached page should cost little more than a file, on PostgreSQL with Redis (with a
        # cache of its own in every process, each worker makes the page once more: reported, not judged).
        Bound("ratio_to_static", 0.8, at_least=True, database="postgresql", shared_cache=True),
    ),
    # Issue 11: a set typed by keyboard alone at the speed of reading the paper.
    "entry": (
        Bound("fast.keystrokes_per_deal", 30),
        Bound("totals.keystrokes_per_deal", 45),
        Bound("fast.round_trips_per_deal", 1),
        Bound("totals.round_trips_per_deal", 1),
    ),
    # Issue 15, then issue 25: the whole rating list computed again from the stored results. Cold (every
    # event's places read too) at 12,000 sets a second or more, after one event's change at 15,000; and
    # the whole cold recompute within 1/0.6 of the time openskill alone takes to rate the same matches
    # (`ratio_to_openskill`: openskill's `rate` called on them, over the recompute's wall time).
    "ratings": (
        Bound("sets_per_second", 12_000, at_least=True),
        Bound("after_one_change_sets_per_second", 15_000, at_least=True),
        Bound("ratio_to_openskill", 0.6, at_least=True),
        Bound("read_queries", 4),
    ),
    # Issue 12: 20,000 players imported while another director saves: no save waits 5 s or fails.
    "imports": (
        Bound("max_save_wait_s", 5.0),
        Bound("save_failures", 0),
    ),
    # Issue 24: the round-end rush on PostgreSQL + Redis, two app servers, 64 connections for 20 s while
    # a director records deals: pages near a static file's rate, none slow, none failed; the director's
    # saves no slower than three times their quiet median or 150 ms (`save_p99_ratio_to_limit` ≤ 1).
    "rush": (
        Bound("ratio_to_static", 0.8, at_least=True),
        Bound("p99_ms", 100.0),
        Bound("errors", 0),
        Bound("saves", 100, at_least=True),
        Bound("save_p99_ratio_to_limit", 1.0),
        Bound("save_failures", 0),
    ),
    # Issue 12 (`--large`): 16,384 players × 6 rounds over 1,024, on PostgreSQL, queries unchanged.
    "growth": (
        Bound("standings_per_player_ratio", 1.5),
        Bound("record_deal_ratio", 1.5),
        Bound("standings_query_growth", 0),
        Bound("record_deal_query_growth", 0),
    ),
}
