"""Ratings and seasons' standings, computed from the stored results and kept until those change.

A rating list is never updated in place: `ratings_recompute` reads every counted set of its events
(`scoring.selectors.ratings`; each event's official places come from the same read), rates them from
the start with openskill's arithmetic (`scoring.ratings`), and replaces the stored list.
`ratings_current` returns the stored list while its fingerprint still matches the results (and
recomputes it when it does not), so a reopened and corrected set, a player merged or renamed, or an
event added to a season changes the list the next time it is read. The computation is derived data,
not a change anyone made: it writes no audit entry.

Each game has its own list (`game`, the Jamaican list by default): a list rates its game's events alone.
A season's lists carry the season's standings too, from all of its events. Whom a list ranks (enough
rated sets) and counts active (a rated set lately) is the game's `RatingRule`, read when the list is
shown, so a changed rule or a day gone by needs no computation; `rating_rule_update` changes it, audited.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from operator import attrgetter
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from adjudication.audit import audit_record

from ..collector import collector_paused
from ..games import JAMAICAN, Game, game_of_preset
from ..models import Event, PlayerRating, RatingList, RatingRule, Season
from ..ratings import EventPlace, Match, Rating, rate_table, season_table, starting_rating
from ..selectors.ratings import (
    HISTORY_STEP,
    EventPlaces,
    RatedSets,
    event_places,
    events_in,
    rated_sets,
    ratings_fingerprint,
    scope_of,
    stored_list,
)
from .guards import check_version

BATCH = 2000


def ratings_current(*, season: Season | None = None, game: Game = JAMAICAN) -> RatingList:
    """The game's stored list for every event (or the season) when it still matches the results, else
    a new one computed now."""
    stored = stored_list(season, game)
    if stored is not None and stored.fingerprint == ratings_fingerprint(season, game):
        return stored
    return ratings_recompute(season=season, game=game, force=False)


def ratings_recompute(
    *, season: Season | None = None, game: Game = JAMAICAN, force: bool = True
) -> RatingList:
    """Rate every counted set of the game in the scope from the start and store the list (and the
    season's standings). With `force=False` a list that is already current (someone else computed it
    while this call waited for the lock) is returned as it is."""
    with collector_paused():
        return _recompute(season=season, game=game, force=force)


@transaction.atomic
def _recompute(*, season: Season | None, game: Game, force: bool) -> RatingList:
    started = time.perf_counter()
    scope = scope_of(season, game)
    rating_list, _ = RatingList.objects.select_for_update().get_or_create(
        scope=scope,
        defaults={"season": season, "game": game.family, "fingerprint": "", "computed_at": timezone.now()},
    )
    fingerprint = ratings_fingerprint(season, game)
    if not force and rating_list.fingerprint == fingerprint:
        return rating_list
    events = list(events_in(season))
    played = [event for event in events if game_of_preset(event.ruleset_preset) is game]
    rated = rated_sets(events_in(season), game=game)
    rated_run = _rated(rated.matches)
    # A season's standings count every event of it; the players' places, their game's events alone.
    places = event_places(events if season is not None else played, read=rated.standings)
    ids = {event.pk for event in played}
    rows = _rating_rows(rating_list, rated_run, [item for item in places if item.event_id in ids], rated)
    rating_list.rows.all().delete()
    _insert(rows)
    rating_list.season = season
    rating_list.game = game.family
    rating_list.fingerprint = fingerprint
    rating_list.computed_at = timezone.now()
    rating_list.sets = len(rated.matches)
    rating_list.players = len(rows)
    rating_list.season_table = _season_rows(season, events, places, rated.identities) if season else []
    rating_list.seconds = round(time.perf_counter() - started, 3)
    rating_list.save()
    return rating_list


# The columns whose Python values the database drivers do not take as they are: written as the fields
# write them (JSON text or a jsonb value, a day as text on SQLite).
_PREPARED = ("JSONField", "DateField")


def _insert(rows: list[PlayerRating]) -> None:
    """Insert the list's rows: on PostgreSQL streamed in one COPY (5,000 rows carry 9 MB of histories:
    row by row, 0.5 s; copied, 0.25 s), elsewhere one statement run for each row by the driver
    (`executemany`). Django's `bulk_create` writes thousands of values into each statement, which
    PostgreSQL's driver quotes one by one and the server parses again: a tenth of the recompute there."""
    fields = [field for field in PlayerRating._meta.concrete_fields if not field.primary_key]
    prepare = [field.get_internal_type() in _PREPARED for field in fields]
    quote = connection.ops.quote_name
    into = f"{quote(PlayerRating._meta.db_table)} ({', '.join(quote(field.column) for field in fields)})"
    values = [
        tuple(
            field.get_db_prep_save(getattr(row, field.attname), connection)
            if prepared
            else getattr(row, field.attname)
            for field, prepared in zip(fields, prepare, strict=True)
        )
        for row in rows
    ]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            _copy(cursor, f"COPY {into} FROM STDIN", values)
        else:
            cursor.executemany(f"INSERT INTO {into} VALUES ({', '.join(['%s'] * len(fields))})", values)


def _copy(cursor, sql: str, values: list[tuple[Any, ...]]) -> None:
    """Stream `values` into PostgreSQL with `sql` (a COPY … FROM STDIN; psycopg's `Cursor.copy`, which
    Django's debug cursor logs as one statement)."""
    with cursor.copy(sql) as copy:
        for row in values:
            copy.write_row(row)


@dataclass(frozen=True)
class _RatedRun:
    """Each rated player's rating after every counted set, their history as stored (a packed step a
    set), how many events they were rated in and the day of their last rated set."""

    ratings: dict[Any, Rating]
    history: dict[Any, bytes]
    events: dict[Any, int]
    last_day: dict[Any, str]


def _rated(matches: list[Match]) -> _RatedRun:
    """Rate `matches` in key order from the start with the rating kernel (`scoring.ratings.rate_table`,
    as `RatingRun` applies it), each player's history packed as it goes: one pass, no object a step but
    the packed bytes, and each player's running figures in one list (one lookup a player a set)."""
    start = starting_rating()
    # Each player's μ, σ, latest event, its day, how many events, and their packed steps.
    trails: dict[Any, list[Any]] = {}
    pack = HISTORY_STEP.pack
    for match in sorted(matches, key=MATCH_KEY):
        day, event = match.key[0], match.key[1]  # the event's day and id: matches come in date order
        set_id, size = match.context["set"], len(match.players)
        seated = []
        for player in match.players:
            trail = trails.get(player)
            if trail is None:
                trail = trails[player] = [start.mu, start.sigma, event, day, 1, []]
            elif trail[2] != event:
                trail[2], trail[3], trail[4] = event, day, trail[4] + 1
            seated.append(trail)
        mus, sigmas = rate_table([trail[0] for trail in seated], [trail[1] for trail in seated], match.ranks)
        for trail, rank, mu, sigma in zip(seated, match.ranks, mus, sigmas, strict=True):
            trail[0], trail[1] = mu, sigma
            trail[5].append(pack(set_id, rank, size, mu, sigma))
    return _RatedRun(
        ratings={who: Rating(trail[0], trail[1], len(trail[5])) for who, trail in trails.items()},
        history={player: b"".join(trail[5]) for player, trail in trails.items()},
        events={player: trail[4] for player, trail in trails.items()},
        last_day={player: trail[3] for player, trail in trails.items()},
    )


# The order matches are rated in.
MATCH_KEY = attrgetter("key")


def _rating_rows(
    rating_list: RatingList, run: _RatedRun, places: list[EventPlaces], rated: RatedSets
) -> list[PlayerRating]:
    who = rated.identities
    placed: dict[str, list[list[Any]]] = defaultdict(list)
    for event in places:
        for player_id, entry_id, place, shared in event.rows:
            placed[who[player_id]].append([event.event_id, entry_id, place, shared, event.ranked])
    ratings = run.ratings
    # Best first by μ − 3σ; equal ordinals by μ, then by who they are, so the order is always the same.
    order = sorted(ratings, key=lambda person: (-ratings[person].ordinal, -ratings[person].mu, person))
    return [
        PlayerRating(
            rating_list=rating_list,
            identity=person,
            player_id=rated.latest_record[person],
            position=position,
            mu=ratings[person].mu,
            sigma=ratings[person].sigma,
            ordinal=ratings[person].ordinal,
            sets=ratings[person].sets,
            events=run.events[person],
            history=run.history[person],
            places=placed.get(person, []),
            last_played=date.fromisoformat(run.last_day[person]),
        )
        for position, person in enumerate(order, start=1)
    ]


def _season_rows(
    season: Season, events: list[Event], places: list[EventPlaces], who: dict[int, str]
) -> list[dict[str, Any]]:
    """The season's standings as stored rows: identity, the player record of their latest event, the
    figures of `scoring.ratings.season_table` and (event id, points, counted) for each of their events."""
    day = {event.pk: (event.date_start, event.pk) for event in events}
    latest: dict[str, tuple[Any, int]] = {}
    items = []
    for event in sorted(places, key=lambda item: day[item.event_id]):
        for player_id, _, place, shared in event.rows:
            person = who[player_id]
            latest[person] = (day[event.event_id], player_id)
            items.append(EventPlace(event.event_id, person, place, shared, event.ranked))
    table = season_table(items, scheme=season.points or None, best_of=season.best_of)
    return [
        {
            "place": row.place,
            "shared": row.shared,
            "identity": row.player,
            "player_id": latest[row.player][1],
            "points": row.points,
            "events": row.events,
            "counted": row.counted,
            "wins": row.wins,
            "best_place": row.best_place,
            "results": [[event_id, points, counted] for event_id, points, counted in row.results],
        }
        for row in table
    ]


RULE_FIELDS = ("min_sets", "inactive_months")


@transaction.atomic
def rating_rule_update(
    *,
    game: Game,
    user,
    min_sets: int,
    inactive_months: int,
    expected_version: int | None = None,
    reason: str = "",
) -> RatingRule:
    """Change whom the game's list ranks (at least `min_sets` rated sets) and counts active (a rated set
    within `inactive_months` months). One audit entry; the lists show it when next read."""
    rule, _ = RatingRule.objects.select_for_update().get_or_create(game=game.family)
    check_version(rule, expected_version, what=f"the {game.title} list's rule")
    before = {key: getattr(rule, key) for key in RULE_FIELDS}
    after = {"min_sets": min_sets, "inactive_months": inactive_months}
    if after == before:
        return rule
    for key, value in after.items():
        setattr(rule, key, value)
    rule.full_clean()
    rule.version += 1
    rule.save(update_fields=[*RULE_FIELDS, "version"])
    changed = [key for key in RULE_FIELDS if after[key] != before[key]]
    audit_record(
        event=None,
        action="kalooki.rating_rule.changed",
        user=user,
        obj=rule,
        before={"game": game.family} | {key: before[key] for key in changed},
        after={"game": game.family} | {key: after[key] for key in changed},
        reason=reason,
    )
    return rule
