"""`ratings`: the whole rating list computed again from the stored results, in counted sets per second.

A federation's history is built beside the benchmark event: `ratings_sets` verified sets in events of
64 tables (256 players drawn from a pool, six rounds), every set's nine deals with each player's score.
Events, entries, rounds, tables, sets and seats are written in bulk; the deals and results by two
INSERT … SELECT statements (millions of rows would take minutes one by one, and the results' values do
not matter to the measurement, only their number). The computation then runs as the pages run it —
`services.ratings_recompute`: read the counted sets, rate them all from the start, read every event's
places, store the list — cold (nothing kept) and again after one event's results changed (the other
events' places kept by their results stamps), and its parts are timed on their own beside it.
"""

from __future__ import annotations

import random
import time
from datetime import date, timedelta
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone
from openskill.models import BradleyTerryFull

from scoring import services
from scoring.collector import collector_paused
from scoring.models import Deal, DealResult, Entry, Event, GameSet, Player, Round, Seat, Table
from scoring.names import name_key
from scoring.ratings import rate_matches
from scoring.selectors.ratings import event_places, rated_sets
from scoring.services.guards import store_sums_of_sets, touch_results

from .context import BenchContext
from .fixture import BATCH, CLUBS, player_names
from .queries import counted, production_like
from .timing import Progress, rounded

TABLES_PER_ROUND = 64
ROUNDS_PER_EVENT = 6
SEATS = 4
DEALS = 9


def _quote(model, name: str | None = None) -> str:
    quote = connection.ops.quote_name
    return quote(model._meta.db_table if name is None else model._meta.get_field(name).column)


def build_league(*, sets: int, players: int, seed: int, progress: Progress) -> dict[str, Any]:
    """`sets` verified sets (a whole number of rounds of up to 64 tables) by `players` people."""
    started = time.perf_counter()
    with transaction.atomic():
        figures = _league(sets=sets, pool=players, seed=seed)
        # Each set's sums, as recording its deals would have stored them (what the ratings read).
        store_sums_of_sets(GameSet.objects.filter(table__round__event__slug__startswith="league-"))
    _analyze()
    figures["build_s"] = round(time.perf_counter() - started, 1)
    progress(f"ratings: {figures['sets']} sets in {figures['events']} events built in {figures['build_s']} s")
    return figures


def _league(*, sets: int, pool: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    tables_per_round = max(1, min(TABLES_PER_ROUND, pool // SEATS, sets))
    rounds = max(1, sets // tables_per_round)
    events = -(-rounds // ROUNDS_PER_EVENT)
    people = Player.objects.bulk_create(
        [
            # Half carry a membership id; the others are known by name alone.
            Player(
                name=f"{name} (league)",
                club=CLUBS[index % len(CLUBS)],
                membership_id=f"LG-{index:05d}" if index % 2 else "",
            )
            for index, name in enumerate(player_names(pool))
        ],
        batch_size=BATCH,
    )
    first_day = date(2020, 1, 4)
    leagues = Event.objects.bulk_create(
        [
            Event(
                name=f"League night {number}",
                slug=f"league-{number}",
                date_start=first_day + timedelta(7 * number),
            )
            for number in range(1, events + 1)
        ],
        batch_size=BATCH,
    )
    per_event = tables_per_round * SEATS
    entries: dict[int, list[Entry]] = {}
    for event in leagues:
        entries[event.pk] = [
            Entry(event=event, player=person, normalized_name=name_key(person.name))
            for person in rng.sample(people, per_event)
        ]
    Entry.objects.bulk_create([entry for group in entries.values() for entry in group], batch_size=BATCH)
    left = rounds
    round_rows = []
    for event in leagues:
        for number in range(1, min(ROUNDS_PER_EVENT, left) + 1):
            round_rows.append(Round(event=event, number=number, method=Round.Method.RANDOM))
        left -= ROUNDS_PER_EVENT
    made_rounds = Round.objects.bulk_create(round_rows, batch_size=BATCH)
    tables = Table.objects.bulk_create(
        [Table(round=rnd, number=number) for rnd in made_rounds for number in range(1, tables_per_round + 1)],
        batch_size=BATCH,
    )
    now = timezone.now()
    game_sets = GameSet.objects.bulk_create(
        [
            GameSet(table=table, status=GameSet.Status.VERIFIED, verified_at=now, updated_at=now, version=2)
            for table in tables
        ],
        batch_size=BATCH,
    )
    # Every table verified: the rounds have closed, as `set_verify` closes them, final at once (the
    # league's nights were played long ago: no correction period is running).
    Round.objects.filter(pk__in=[rnd.pk for rnd in made_rounds]).update(closed_at=now, final_at=now)
    seats = []
    by_round: dict[int, list[Table]] = {}
    for table in tables:
        by_round.setdefault(table.round_id, []).append(table)
    for rnd in made_rounds:
        drawn = list(entries[rnd.event_id])
        rng.shuffle(drawn)
        for index, table in enumerate(by_round[rnd.pk]):
            for position in range(1, SEATS + 1):
                entry = drawn[index * SEATS + position - 1]
                seats.append(Seat(table=table, round=rnd, position=position, entry=entry))
    Seat.objects.bulk_create(seats, batch_size=BATCH)
    first_set, last_set = game_sets[0].pk, game_sets[-1].pk
    _insert_deals_and_results(first_set, last_set, now)
    return {
        "sets": len(game_sets),
        "events": len(leagues),
        "players": pool,
        "tables_per_round": tables_per_round,
        "results": len(game_sets) * DEALS * SEATS,
    }


def _insert_deals_and_results(first_set: int, last_set: int, now) -> None:
    """Nine deals a set and each seated player's score in every deal (0 to 120, spread by ids)."""
    deal, result, game_set, seat = (_quote(model) for model in (Deal, DealResult, GameSet, Seat))
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < {DEALS}) "
            f"INSERT INTO {deal} ({_quote(Deal, 'game_set')}, sequence, number, void, doubled, version, "
            f"updated_at) SELECT g.id, n.k, n.k, %s, %s, 1, %s FROM {game_set} g CROSS JOIN n "
            f"WHERE g.id BETWEEN %s AND %s",
            [False, False, now, first_set, last_set],
        )
        cursor.execute(
            f"INSERT INTO {result} ({_quote(DealResult, 'deal')}, {_quote(DealResult, 'entry')}, calls, "
            f"penalty, overcall, contract_error, other_points, other_reason) "
            f"SELECT d.id, s.{_quote(Seat, 'entry')}, 0, "
            f"(d.id * 7919 + s.{_quote(Seat, 'entry')} * 104729 + s.position * 31) %% 121, %s, %s, 0, '' "
            f"FROM {deal} d JOIN {game_set} g ON g.id = d.{_quote(Deal, 'game_set')} "
            f"JOIN {seat} s ON s.{_quote(Seat, 'table')} = g.{_quote(GameSet, 'table')} "
            f"WHERE g.id BETWEEN %s AND %s",
            [False, False, first_set, last_set],
        )


def _analyze() -> None:
    # As the benchmark event does: PostgreSQL plans with statistics autovacuum would have gathered.
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def measure(context: BenchContext) -> dict[str, Any]:
    scale = context.scale
    league = build_league(
        sets=scale.ratings_sets, players=scale.ratings_players, seed=scale.seed, progress=context.progress
    )
    with production_like():
        return _measure(league)


def _timed(function) -> tuple[float, float, Any]:
    """Wall and CPU seconds of one call, the collector paused as the computation itself pauses it."""
    with collector_paused():
        start, cpu = time.perf_counter(), time.process_time()
        result = function()
        return time.perf_counter() - start, time.process_time() - cpu, result


def openskill_alone(matches) -> None:
    """The same matches rated by openskill's own `rate`, as a caller of the library would: the floor
    the recompute is compared with (`ratio_to_openskill`)."""
    model = BradleyTerryFull()
    current: dict[Any, Any] = {}
    for match in matches:
        teams = [[current.get(player) or model.rating(name=str(player))] for player in match.players]
        for player, (after,) in zip(match.players, model.rate(teams, ranks=list(match.ranks)), strict=True):
            current[player] = after


def _measure(league: dict[str, Any]) -> dict[str, Any]:
    events = list(Event.objects.all())
    cache.clear()
    read_s, _, read = _timed(rated_sets)
    rate_s, _, ratings = _timed(lambda: rate_matches(read.matches, history=[]))
    openskill_s, _, _ = _timed(lambda: openskill_alone(read.matches))
    cache.clear()
    places_s, _, _ = _timed(lambda: event_places(events))
    # Cold: nothing kept, every event's places read again (the first computation, or after a restart).
    cache.clear()
    recompute_s, recompute_cpu, rating_list = _timed(services.ratings_recompute)
    # As on a tournament night: one event's results change, and the next reader computes the list again.
    changed = Event.objects.filter(slug__startswith="league-").order_by("-date_start").first()
    touch_results(changed.pk)
    after_s, _, _ = _timed(services.ratings_recompute)
    # Cold, as the first computation reads them: each event's sets are kept after it.
    cache.clear()
    read_count, _ = counted(rated_sets)
    cache.clear()
    recompute_count, _ = counted(services.ratings_recompute)
    sets = rating_list.sets
    return {
        "league": league,
        "sets": sets,
        "events": len(events),
        "players_rated": len(ratings),
        "recompute_s": rounded(recompute_s, 3),
        "sets_per_second": round(sets / recompute_s) if recompute_s else None,
        # Per second of this process's CPU (on SQLite the database's work too): what the wall clock
        # would give on an otherwise idle machine.
        "sets_per_cpu_second": round(sets / recompute_cpu) if recompute_cpu else None,
        "after_one_change_s": rounded(after_s, 3),
        "after_one_change_sets_per_second": round(sets / after_s) if after_s else None,
        "read_s": rounded(read_s, 3),
        "rate_s": rounded(rate_s, 3),
        "openskill_s": rounded(openskill_s, 3),
        # openskill alone on the same matches over the whole cold recompute (1.0: no cost but the library's).
        "ratio_to_openskill": round(openskill_s / recompute_s, 3) if recompute_s else None,
        "places_s": rounded(places_s, 3),
        "read_queries": read_count.total,
        # Fixed reads, one standings query an event, the stored rows' inserts in batches of 2,000.
        "recompute_queries": recompute_count.total,
        "recompute_query_kinds": recompute_count.breakdown(),
        "seconds_for_100k_sets": rounded(100_000 * recompute_s / sets, 1) if sets else None,
    }
