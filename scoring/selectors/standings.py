"""The standings as data (SCORESHEET.md "Standings as data"): each player's figures summed in SQL over
the counted sets, ranked by more counted sets first, then the event's tie-break chain; the knock-out
qualifiers of a round.

Rows are plain dicts in the spec's JSON shape: the pages (django-tables2), the exports, the PDFs, the
projector and the `standings` command share them, with the view's scope (`standings_scope`: which
rounds count, how far each open round is, which sets are being corrected). Three views: official, all
rounds (the closed rounds 1…N); official, one round (its verified sets, and a reopened set when the
round has closed); provisional (every set with a scored deal).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from django.db import connection
from django.db.models import Count, F, Max, Q, Sum

from adjudication.engine.rules import DEALS_PER_SET

from ..games import game_of
from ..models import TIEBREAKS, DealResult, Entry, Event, GameSet, Player, Round, SetSums, Table
from .british_standings import (
    BRITISH_KNOCKOUT_FIELDS,
    COLLECTED_KNOCKOUT_FIELDS,
    COLLECTED_PLACEMENT_FIELDS,
    PLACEMENT_FIELDS,
    british_standings,
)
from .set_sums import current_sums, stored_sums_sql, sums_sql
from .sql import sql_column, sql_table
from .standings_scope import StandingsScope, standings_scope

STANDINGS_FIELDS = (
    "place",
    "shared",
    "player",
    "club",
    "total",
    "sets",
    "deals",
    "sets_won",
    "deals_won",
    "doubled_outs",
    "worst_deal",
)
KNOCKOUT_FIELDS = (*STANDINGS_FIELDS, "round_reached", "round_total")


def _set_rows(
    event: Event, *, round_number: int | None = None, provisional: bool = False
) -> list[dict[str, Any]]:
    """One aggregated row per (counted set, player): one query.

    Keys: set_id, verified, round, entry_id, player_id, player, club, total, worst, deals, won, doubled.
    """
    results = DealResult.objects.filter(deal__game_set__table__round__event=event, deal__void=False)
    if not provisional:
        results = results.filter(deal__game_set__status=GameSet.Status.VERIFIED)
    if round_number is not None:
        results = results.filter(deal__game_set__table__round__number=round_number)
    went_out = Q(deal__out_id=F("entry_id"))
    return list(
        results.order_by()
        .values(
            "entry_id",
            set_id=F("deal__game_set_id"),
            status=F("deal__game_set__status"),
            round=F("deal__game_set__table__round__number"),
            player_id=F("entry__player_id"),
            player=F("entry__player__name"),
            club=F("entry__player__club"),
        )
        .annotate(
            total=Sum("penalty"),
            worst=Max("penalty"),
            deals=Count("pk"),
            won=Count("pk", filter=went_out),
            doubled=Count("pk", filter=went_out & Q(deal__doubled=True)),
        )
    )


def _set_winners(rows: Iterable[Mapping[str, Any]]) -> set[tuple[int, int]]:
    """(set_id, entry_id) of each complete set's lowest totals, shared wins included (R20)."""
    by_set: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        by_set[row["set_id"]].append(row)
    winners = set()
    for set_id, players in by_set.items():
        verified = players[0]["status"] == GameSet.Status.VERIFIED
        # R20: a set is won after its nine scored deals (a verified set is complete by decision).
        if not verified and max(p["deals"] for p in players) < DEALS_PER_SET:
            continue
        lowest = min(p["total"] for p in players)
        winners |= {(set_id, p["entry_id"]) for p in players if p["total"] == lowest}
    return winners


def _new_stats() -> dict[str, Any]:
    return {
        "total": 0,
        "sets": 0,
        "sets_won": 0,
        "deals_won": 0,
        "doubled_outs": 0,
        "worst_deal": 0,
    }


def _add(stats: dict[str, Any], row: Mapping[str, Any], won: bool) -> None:
    stats["total"] += row["total"]
    stats["sets"] += 1
    stats["sets_won"] += int(won)
    stats["deals_won"] += row["won"]
    stats["doubled_outs"] += row["doubled"]
    stats["worst_deal"] = max(stats["worst_deal"], row["worst"])


def chain_key(stats: Mapping[str, Any], chain: Sequence[str]) -> tuple[int, ...]:
    """Sort key for a tie-break chain: smaller is better (higher-is-better keys are negated)."""
    return tuple(stats[key] if TIEBREAKS[key] else -stats[key] for key in chain)


def _places(keys: Sequence[Any]) -> list[tuple[int, bool]]:
    """(place, shared) for sorted keys: competition ranking, 1, 1, 3; equal keys share the place."""
    places = []
    place = 1
    for index, key in enumerate(keys):
        if index and keys[index - 1] != key:
            place = index + 1
        shared = (index > 0 and keys[index - 1] == key) or (index + 1 < len(keys) and keys[index + 1] == key)
        places.append((place, shared))
    return places


def rank(rows: list[dict[str, Any]], key) -> list[dict[str, Any]]:
    """Sort best first and number places 1, 1, 3 (competition ranking); ties listed by name.

    Sets `place` and `shared` on each row (in place) and returns the sorted list.
    """
    keyed = sorted(((key(row), row["player"].casefold(), row["player"]), row) for row in rows)
    rows[:] = [row for _, row in keyed]
    for row, (place, shared) in zip(rows, _places([sort_key[0] for sort_key, _ in keyed]), strict=True):
        row["place"], row["shared"] = place, shared
    return rows


def _standings_sql(
    *,
    event_id: int | None,
    after_round: int | None,
    round_number: int | None,
    provisional: bool,
    knockout: bool,
    round_ids: Sequence[int] | None = None,
) -> tuple[str, list[Any]]:
    """One statement (and its parameters) giving each player's standings figures over the counted
    sets of the event. Columns: player_id, name, club, entry_id, `_STATS` over every counted
    set, whether one of them is being corrected and, for a knock-out event, the last round reached and
    `_STATS` over that round's sets alone.

    Counted: official, all rounds — the sets of rounds 1…`after_round` (all closed) that are verified
    or reopened for a correction; official, one round — that round's verified sets, and a reopened
    one when the round has closed; provisional — every set with a scored deal.

    `per_set` is each (set, player)'s figures, as stored when the set last changed (`SetSums`, six
    thousand rows for a 1,024-player event of six rounds, against 55,000 results) while they are of
    the set's version, else summed from the set's results (`set_sums.sums_sql`). `sets` finds
    each set's lowest total, whether the set is complete — R20: won after its nine scored deals (a
    verified set is complete by decision), equal lowest totals share the win — and whether it is
    being corrected. The rest adds the sets up per player and joins the
    names onto one row per player.
    """
    table, col = sql_table, sql_column
    verified = f"{col('g', GameSet, 'status')} = %s"
    closed = f"{col('ro', Round, 'closed_at')} IS NOT NULL"
    reopened = f"{closed} AND {col('g', GameSet, 'corrected_after_verification')}"
    if round_ids is not None:
        # Several events' official standings at once: the rounds each one counts (rounds 1…N, closed).
        where = [f"ro.id IN ({', '.join(['%s'] * len(round_ids)) or 'NULL'})"]
        params: list[Any] = list(round_ids)
    else:
        where = [f"{col('ro', Round, 'event')} = %s"]
        params = [event_id]
    if not provisional:
        # A closed round stays closed: its reopened set counts with its entries as they stand.
        where.append(f"({verified} OR ({reopened}))")
        params.append(GameSet.Status.VERIFIED)
        if round_number is None and round_ids is None:
            where.append(f"{col('ro', Round, 'number')} <= %s")
            params.append(after_round or 0)
    if round_number is not None:
        where.append(f"{col('ro', Round, 'number')} = %s")
        params.append(round_number)
    # The counted sets: their figures as stored when each last changed (`SetSums`, of the set's current
    # version), and summed from the results for any set without them (written around the services).
    sets_of_rounds = f"""
        FROM {table(GameSet)} g
        JOIN {table(Table)} t ON t.id = {col("g", GameSet, "table")}
        JOIN {table(Round)} ro ON ro.id = {col("t", Table, "round")}
    """
    counted = " AND ".join(where)
    current = current_sums("f", "g")
    unsummed = f"""
        SELECT g.id {sets_of_rounds}
        WHERE {counted} AND NOT EXISTS (SELECT 1 FROM {table(SetSums)} f WHERE {current})
    """

    def figures(only_last: bool = False) -> str:
        def of(value: str) -> str:
            return f"CASE WHEN j.round = x.reached THEN {value} ELSE 0 END" if only_last else value

        return (
            f"SUM({of('j.total')}), SUM({of('1')}), SUM({of('j.deals')}), SUM({of('j.set_won')}), "
            f"SUM({of('j.won')}), SUM({of('j.doubled')}), MAX({of('j.worst')})"
        )

    if knockout:
        players = f"""
        reached AS (SELECT entry_id, MAX(round) AS reached FROM judged GROUP BY entry_id),
        players AS (
            SELECT j.entry_id, {figures()}, MAX(j.correcting), MAX(x.reached), {figures(only_last=True)}
            FROM judged j JOIN reached x ON x.entry_id = j.entry_id
            GROUP BY j.entry_id
        )"""
    else:
        players = f"""
        players AS (SELECT j.entry_id, {figures()}, MAX(j.correcting) FROM judged j GROUP BY j.entry_id)"""
    sql = f"""
        WITH per_set AS (
            SELECT {stored_sums_sql("f")} {sets_of_rounds}
            JOIN {table(SetSums)} f ON {current} WHERE {counted}
            UNION ALL {sums_sql(unsummed)}
        ),
        sets AS (
            SELECT s.set_id, {col("ro", Round, "number")} AS round, MIN(s.total) AS lowest,
                   CASE WHEN {col("g", GameSet, "status")} = %s OR MAX(s.deals) >= %s
                        THEN 1 ELSE 0 END AS complete,
                   MAX(CASE WHEN {reopened} AND NOT {verified} THEN 1 ELSE 0 END) AS correcting
            FROM per_set s
            JOIN {table(GameSet)} g ON g.id = s.set_id
            JOIN {table(Table)} t ON t.id = {col("g", GameSet, "table")}
            JOIN {table(Round)} ro ON ro.id = {col("t", Table, "round")}
            GROUP BY s.set_id, {col("g", GameSet, "status")}, {col("ro", Round, "number")}
        ),
        judged AS (
            SELECT s.entry_id, s.total, s.worst, s.deals, s.won, s.doubled, x.correcting, x.round,
                   CASE WHEN x.complete = 1 AND s.total = x.lowest THEN 1 ELSE 0 END AS set_won
            FROM per_set s JOIN sets x ON x.set_id = s.set_id
        ),{players}
        SELECT {col("e", Entry, "event")}, {col("e", Entry, "player")}, {col("p", Player, "name")},
               {col("p", Player, "club")}, a.*
        FROM players a
        JOIN {table(Entry)} e ON e.id = a.entry_id
        JOIN {table(Player)} p ON p.id = {col("e", Entry, "player")}
    """
    return sql, [*params, *params, GameSet.Status.VERIFIED, DEALS_PER_SET, GameSet.Status.VERIFIED]


_STATS = ("total", "sets", "deals", "sets_won", "deals_won", "doubled_outs", "worst_deal")
_SETS = _STATS.index("sets")
# After the figures: whether a counted set is being corrected; knock-out: the round reached, then
# the figures of that round alone.
_CORRECTING = len(_STATS)
_REACHED = _CORRECTING + 1


@dataclass(frozen=True)
class Standings:
    """A standings view: what it counts and says (`scope`) and its rows, best first."""

    scope: StandingsScope
    rows: list[dict[str, Any]]


def standings(
    event: Event,
    *,
    round_number: int | None = None,
    provisional: bool = False,
    with_ids: bool = False,
    final_only: bool = False,
) -> Standings:
    """A standings view of the event, as in SCORESHEET.md "Standings as data". Two queries (the
    scope's, the figures'), whatever the event's size or state.

    Rows: place, shared, player, club, total, sets, deals, sets_won, deals_won, doubled_outs,
    worst_deal (keys in that order). Official, all rounds (the default): the sets of rounds 1…N, every
    one of them closed; `round_number`: that round's verified sets (a closed round's reopened set too);
    `provisional`: every set with a scored deal, of the round when `round_number` is given. Players
    with no counted set are left out. Order: more counted sets first (a late entrant, a withdrawn or
    absent player ranks after everyone with more), then the event's tie-break chain; players neither
    can separate share the place (1, 1, 3) and are listed by name.

    Knock-out events add `round_reached` (the last round with a counted set) and `round_total` (the
    total in that round) and rank by round reached first, then by that round's sets alone — so the
    final table decides the champion. `with_ids` adds entry_id, player_id and `being_corrected` (a
    counted set of the player's is a closed round's set reopened for a correction).

    Everything is summed in the database (`_standings_sql`); Python only ranks one row per player.
    """
    scope = standings_scope(event, round_number=round_number, provisional=provisional, final_only=final_only)
    knockout = event.is_knockout
    sql, params = _standings_sql(
        event_id=event.pk,
        after_round=scope.after_round,
        round_number=round_number,
        provisional=provisional,
        knockout=knockout,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    rows = _ranked(event, [row[1:] for row in fetched], with_ids=with_ids)
    return Standings(scope=scope, rows=rows)


def _ranked(event: Event, fetched: Sequence[Sequence[Any]], *, with_ids: bool) -> list[dict[str, Any]]:
    """The standings rows of `event`, best first, from its players' figures as `_standings_sql` gives
    them (without the event's column)."""
    knockout = event.is_knockout
    # Each tie-break's column among the figures, negated when more is better (smaller sorts first).
    picks = [(_STATS.index(name), 1 if TIEBREAKS[name] else -1) for name in event.tiebreaks or TIEBREAKS]
    ranked = []
    for player_id, name, club, entry_id, *figures in fetched:
        numbers = [int(value) for value in figures]  # PostgreSQL sums bigints as numeric
        if knockout:
            last = numbers[_REACHED + 1 :]
            key = (-numbers[_REACHED], -last[_SETS], *(sign * last[column] for column, sign in picks))
        else:
            key = (-numbers[_SETS], *(sign * numbers[column] for column, sign in picks))
        ranked.append(((key, name.casefold(), name), club, numbers, entry_id, player_id))
    # Ties on the whole key are listed by name (each sort key is unique: names are, per event).
    ranked.sort(key=itemgetter(0))
    rows = []
    for ((_, _, name), club, numbers, entry_id, player_id), (place, shared) in zip(
        ranked, _places([item[0][0] for item in ranked]), strict=True
    ):
        row = {"place": place, "shared": shared, "player": name, "club": club}
        row.update(zip(_STATS, numbers, strict=False))
        if knockout:
            row["round_reached"], row["round_total"] = numbers[_REACHED], numbers[_REACHED + 1]
        if with_ids:
            row["entry_id"], row["player_id"] = entry_id, player_id
            row["being_corrected"] = bool(numbers[_CORRECTING])
        rows.append(row)
    return rows


def official_places(
    events: Sequence[Event], rounds: Mapping[int, Sequence[int]]
) -> dict[int, list[dict[str, Any]]]:
    """The official standings rows (with ids) of several events of set totals at once, by event id: the
    same rows as `standings(event, with_ids=True)` for each, from one query over the rounds each event
    counts (`rounds`: event id → its rounds 1…N, every one closed), two when knock-out events are among
    them. Events with no counted set have no rows."""
    found: dict[int, list[dict[str, Any]]] = {event.pk: [] for event in events}
    for knockout in (False, True):
        group = {event.pk: event for event in events if bool(event.is_knockout) == knockout}
        round_ids = [pk for event_id in group for pk in rounds.get(event_id, ())]
        if not round_ids:
            continue
        sql, params = _standings_sql(
            event_id=None, after_round=None, round_number=None, provisional=False, knockout=knockout,
            round_ids=round_ids,
        )  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
        grouped: dict[int, list[Sequence[Any]]] = defaultdict(list)
        for row in fetched:
            grouped[row[0]].append(row[1:])
        for event_id, rows in grouped.items():
            found[event_id] = _ranked(group[event_id], rows, with_ids=True)
    return found


# One counted set as `places_of_sets` takes it: its round number, whether it is verified, whether it is
# being corrected (a closed round's set reopened), and each player's figures in it as `_standings_sql`'s
# `per_set` sums them: (entry id, total, worst deal, deals, deals won, doubled outs).
CountedSet = tuple[int, bool, bool, Sequence[tuple[int, int, int, int, int, int]]]


def places_of_sets(
    event: Event, sets: Iterable[CountedSet], players: Mapping[int, tuple[int, str, str]]
) -> list[dict[str, Any]]:
    """The official standings rows (with ids) of an event of set totals from its counted sets' figures
    per player, already summed per set (the ratings read them so, with each set's totals): the rows
    `standings(event, with_ids=True)` gives, added up as `_standings_sql` adds them — a set won by its
    lowest totals once complete (R20: verified, or nine scored deals) — and ranked by the same code
    (`_ranked`). `players`: entry id → (player id, name, club). No query."""
    knockout = event.is_knockout
    # Per entry: the _STATS figures in their order, then whether a set of theirs is being corrected.
    figures: dict[int, list[int]] = {}
    # Knock-out: per entry, the last round with a counted set, then the _STATS figures of that round.
    last: dict[int, list[int]] = {}
    for number, verified, correcting, rows in sets:
        lowest = min([row[1] for row in rows])
        complete = verified or max([row[3] for row in rows]) >= DEALS_PER_SET
        for entry_id, total, worst, deals, won, doubled in rows:
            won_set = 1 if complete and total == lowest else 0
            found = figures.get(entry_id)
            if found is None:
                figures[entry_id] = [total, 1, deals, won_set, won, doubled, worst, int(correcting)]
            else:
                # `_add_set`, written out: 400,000 calls when the ratings read 100,000 sets.
                found[0] += total
                found[1] += 1
                found[2] += deals
                found[3] += won_set
                found[4] += won
                found[5] += doubled
                if worst > found[6]:
                    found[6] = worst
                if correcting:
                    found[_CORRECTING] = 1
            if knockout:
                reached = last.get(entry_id)
                if reached is None or number > reached[0]:
                    last[entry_id] = [number, total, 1, deals, won_set, won, doubled, worst]
                elif number == reached[0]:
                    _add_set(reached, total, deals, won_set, won, doubled, worst, at=1)
    fetched = [
        (*players[entry_id], entry_id, *numbers, *last.get(entry_id, ()))
        for entry_id, numbers in figures.items()
    ]
    return _ranked(event, fetched, with_ids=True)


def _add_set(
    into: list[int], total: int, deals: int, won_set: int, won: int, doubled: int, worst: int, *, at: int = 0
) -> None:
    """Add one set's figures to a player's `_STATS` figures starting at `into[at]` (sums; the worst
    deal is the larger)."""
    into[at] += total
    into[at + 1] += 1
    into[at + 2] += deals
    into[at + 3] += won_set
    into[at + 4] += won
    into[at + 5] += doubled
    into[at + 6] = max(into[at + 6], worst)


def standings_for_event(
    event: Event,
    *,
    round_number: int | None = None,
    provisional: bool = False,
    with_ids: bool = False,
    final_only: bool = False,
) -> list[dict[str, Any]]:
    """The rows of `standings(...)` alone (two queries)."""
    return standings(
        event, round_number=round_number, provisional=provisional, with_ids=with_ids, final_only=final_only
    ).rows


def standings_view(
    event: Event,
    *,
    round_number: int | None = None,
    provisional: bool = False,
    with_ids: bool = False,
    final_only: bool = False,
) -> Standings:
    """Any game's standings view: what it counts (`scope`) and its rows, best first (`standings`, or a
    game of hands' placement or knock-out rows). `final_only`: the official view over final rounds
    alone (the scope's `after_round` is the last of them)."""
    options = {"round_number": round_number, "provisional": provisional, "final_only": final_only}
    if game_of(event).of_hands:
        return Standings(
            scope=standings_scope(event, **options),
            rows=british_standings(event, with_ids=with_ids, **options),
        )
    return standings(event, with_ids=with_ids, **options)


def standings_fields(event: Event) -> tuple[str, ...]:
    """The columns of the event's standings rows, in order (exports, the command)."""
    if game_of(event).of_hands:
        if game_of(event).collects:
            return COLLECTED_KNOCKOUT_FIELDS if event.is_knockout else COLLECTED_PLACEMENT_FIELDS
        return BRITISH_KNOCKOUT_FIELDS if event.is_knockout else PLACEMENT_FIELDS
    return KNOCKOUT_FIELDS if event.is_knockout else STANDINGS_FIELDS


def event_standings(
    event: Event,
    *,
    round_number: int | None = None,
    provisional: bool = False,
    with_ids: bool = False,
    final_only: bool = False,
) -> list[dict[str, Any]]:
    """Any game's standings rows, best first: a set total's (`standings`) or, for a game ranked by its
    finishing order, placement or knock-out rows (`british_standings`). The one door for callers that
    only need the rows (seating by standings, ratings' places; `final_only`: final rounds alone)."""
    read = british_standings if game_of(event).of_hands else standings_for_event
    return read(
        event, round_number=round_number, provisional=provisional, with_ids=with_ids, final_only=final_only
    )


def knockout_qualifiers(event: Event, *, round_number: int) -> list[int]:
    """Entry ids who went through from `round_number` of a knock-out event, best first. One query.

    At each table (verified sets only) the best `event.advance` by the tie-break chain go through;
    players the chain cannot separate at the cut all go through.
    """
    rows = _set_rows(event, round_number=round_number)
    winners = _set_winners(rows)
    chain = list(event.tiebreaks or TIEBREAKS)
    by_set: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        stats = _new_stats()
        _add(stats, row, (row["set_id"], row["entry_id"]) in winners)
        by_set[row["set_id"]].append({**stats, "player": row["player"], "entry_id": row["entry_id"]})
    through = []
    for players in by_set.values():
        rank(players, key=lambda row: chain_key(row, chain))
        through += [row for row in players if row["place"] <= (event.advance or 1)]
    through.sort(key=lambda row: (row["place"], chain_key(row, chain), row["player"].casefold()))
    return [row["entry_id"] for row in through]
