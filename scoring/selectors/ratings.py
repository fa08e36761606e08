"""What the ratings read: the counted sets as matches, who is who across events, each event's places,
the stored rating lists, the rule each game's list ranks by, and a player's rating page.

Each game has its own list (`scoring.games.GAMES`): a Jamaican list rates Jamaican sets alone, a British
list British games alone, and a player who plays several games is on several lists.

Counted sets are the sets the official standings count (SCORESHEET.md "Standings as data"): the sets of
closed rounds. `closed_rounds` is the one place that says what a closed round is. `rated_sets` turns
them into `scoring.ratings.Match` values in three queries whatever the number of sets (each player's
figures in a set as stored when the set last changed, `SetSums`), and from the same read each event's
official places, ranked by
the standings' own code; `event_places` reads the places of other events through the standings
selector (two queries an event whose places the cache does not hold for its results stamp). The rating
lists themselves are computed and stored by `scoring.services.ratings`; the pages read them here, a
fixed number of queries each.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from operator import itemgetter
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from ..games import GAMES, JAMAICAN, Game, game_of_preset
from ..models import (
    Entry,
    Event,
    GameSet,
    Player,
    PlayerRating,
    RatingList,
    RatingRule,
    Round,
    Season,
    Seat,
    SetSums,
    Table,
)
from ..page_cache import finals_passed
from ..ratings import INACTIVE_AFTER_MONTHS, PROVISIONAL_BELOW, Match, competition_ranks, is_active, is_ranked
from .british_standings import british_places
from .set_sums import SUMS_COLUMNS, current_sums, stored_sums_sql, sums_sql
from .sql import sql_column, sql_table
from .standings import event_standings, official_places, places_of_sets

# Part of every fingerprint: a change to how ratings are computed makes every stored list out of date.
RATING_METHOD = "openskill 6.2 BradleyTerryFull defaults; counted sets in date, round, table order; v2 a game"
ALL_EVENTS = "all"


def game_named(family: str | None) -> Game:
    """The game of a list asked for by its family's name (`?game=`, `--game`); the Jamaican list when
    none or an unknown one is named."""
    return GAMES.get(family or "", JAMAICAN)


def scope_of(season: Season | None, game: Game = JAMAICAN) -> str:
    """The stored list's key: every event, or one season's, then the game (the Jamaican list keeps the
    key it had when there was one list)."""
    scope = ALL_EVENTS if season is None else f"season:{season.pk}"
    return scope if game is JAMAICAN else f"{scope}:{game.family}"


def events_in(season: Season | None) -> QuerySet[Event]:
    return Event.objects.all() if season is None else season.events.all()


def presets_of(game: Game, presets: Iterable[str]) -> list[str]:
    """Those of `presets` that play `game`."""
    return sorted({preset for preset in presets if game_of_preset(preset) is game})


def identity(name: str, membership_id: str) -> str:
    """Who a player record is across events: the same person when the membership id matches; without
    one, when the name matches exactly (two records of one name with different clubs are one person;
    a director merges the records the rule cannot join).

    >>> identity("Ann Reid", "JKA-0007"), identity("Ann Reid", "")
    ('member:JKA-0007', 'name:Ann Reid')
    """
    return f"member:{membership_id}" if membership_id else f"name:{name}"


def _player_rows() -> list[tuple[int, str, str]]:
    return list(Player.objects.order_by("pk").values_list("pk", "name", "membership_id"))


def closed_rounds(events: QuerySet[Event] | None = None) -> QuerySet[Round]:
    """The rounds ratings count: closed as recorded (`scoring.services.closing`: the last seated table
    verified, an override counting) and **final** — their correction period over, no appeal or
    correction holding them (issue 21) — with every earlier seated round of the event final too
    (rounds 1…N). A round stays closed, and final, when a set of it is reopened for a correction."""
    now = timezone.now()
    not_final = Q(closed_at__isnull=True) | Q(final_at__isnull=True) | Q(final_at__gt=now)
    earlier_open = Round.objects.filter(
        not_final,
        event=OuterRef("event"),
        number__lt=OuterRef("number"),
        tables__isnull=False,
    )
    rounds = Round.objects.filter(closed_at__isnull=False, final_at__lte=now).exclude(Exists(earlier_open))
    return rounds if events is None else rounds.filter(event__in=events)


def counted_sets(events: QuerySet[Event] | None = None) -> QuerySet[GameSet]:
    """The sets the official standings count: those of closed rounds 1…N, verified or reopened for a
    correction (counted with their entries as they stand)."""
    return GameSet.objects.filter(table__round__in=closed_rounds(events)).filter(
        Q(status=GameSet.Status.VERIFIED) | Q(corrected_after_verification=True)
    )


@dataclass(frozen=True)
class RatedSets:
    """The counted sets as matches (in the order they are rated), for each identity the player record
    of their latest rated set, every player record's identity (by record id), and the official
    standings rows (with ids) of each event of set totals whose sets were read from the database,
    derived from the same read (`event_places` takes them)."""

    matches: list[Match]
    latest_record: dict[str, int]
    identities: dict[int, str]
    standings: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


def _kept_key(kind: str, event: Event) -> str:
    """The cache key of what is kept of one event (its counted sets, its places): by its results stamp
    and version, and how many of its rounds have become final — ratings and seasons count final results
    only, and a round becomes final as time passes, with no save to change the stamp."""
    finals = finals_passed(event.final_times)[0]
    return f"kalooki:{kind}:{event.pk}:{event.results_stamp}:{event.version}:{finals}"


# PostgreSQL's settings for a cold read of every counted set (`_rows`): the results joined to their
# deals and the sums a (set, player) are hashed (at 100,000 sets, about 60 MB and 100 MB), which at the
# default 4 MB of work_mem spill to disk, a quarter of the read's time; and compiling the statement
# (JIT) takes longer than it saves.
BIG_READ = (("work_mem", "64MB"), ("jit", "off"))

# One event's counted sets as rated: (set id, round number, table number, ((seat, player record, total
# or place), …)) — kept in the cache as its places are (`_kept_key`).
EventTables = list[tuple[int, int, int, tuple[tuple[int, int, int], ...]]]


def _fetched(query: QuerySet) -> list[tuple[Any, ...]]:
    """A `values_list` query's rows as the database driver gives them, without Django's row-by-row
    iteration (hundreds of thousands of rows here; every column read is an integer, a string or a
    boolean, which the drivers give as Python values already — SQLite's booleans as 0 or 1)."""
    sql, params = query.query.get_compiler(using=query.db).as_sql()
    return _rows(sql, params)


def _rows(sql: str, params: Sequence[Any], *, big: bool = False) -> list[tuple[Any, ...]]:
    """The rows of one statement. `big`: on PostgreSQL, a statement over millions of rows, planned and
    run with `BIG_READ` for the rest of the transaction it runs in (its own, outside one)."""
    with connection.cursor() as cursor:
        if big and connection.vendor == "postgresql":
            # One round trip: the settings, then the statement, whose rows are the second result.
            settings = ", ".join(f"set_config('{name}', '{value}', true)" for name, value in BIG_READ)
            cursor.execute(f"SELECT {settings}; {sql}", params)
            cursor.nextset()
        else:
            cursor.execute(sql, params)
        return cursor.fetchall()


def _player_sets_sql(events: list[Event]) -> tuple[str, list[Any]]:
    """One statement giving, for each counted set of `events` (closed rounds 1…N; verified or reopened),
    each player's stored figures in it: set, event, round number, table number, whether the set is
    verified (1; 0: reopened for a correction), the player record, the seat position (NULL: results
    without a seat there, which the app never writes), then the player's figures in the set as the
    standings sum them (their `per_set`): entry, total, worst deal, deals, deals went out in, of those
    doubled.

    The figures are the set's stored sums (`SetSums`, 400,000 rows for 100,000 sets) of the set's
    current version. A counted set without them (written around the services: a bulk load, a test
    writing rows itself) comes once with NULL figures (entry NULL); `_summed_sql` sums its results.
    The rows come set by set: rows gathered in no order (PostgreSQL's hashes give them so) leave each
    set's pieces scattered in memory, which made everything done with them a third slower."""
    table, col = sql_table, sql_column
    sql = f"""
        SELECT g.id, {col("ro", Round, "event")}, {col("ro", Round, "number")}, {col("t", Table, "number")},
               CASE WHEN {col("g", GameSet, "status")} = %s THEN 1 ELSE 0 END,
               {col("e", Entry, "player")}, {col("s", Seat, "position")},
               {stored_sums_sql("f", SUMS_COLUMNS[1:])}
        FROM {table(GameSet)} g
        JOIN {table(Table)} t ON t.id = {col("g", GameSet, "table")}
        JOIN {table(Round)} ro ON ro.id = {col("t", Table, "round")}
        LEFT JOIN {table(SetSums)} f ON {current_sums("f", "g")}
        LEFT JOIN {table(Entry)} e ON e.id = {col("f", SetSums, "entry")}
        LEFT JOIN {table(Seat)} s ON {_seat_of("s", "e", "g")}
        WHERE g.id IN ({{counted}})
        ORDER BY g.id
    """
    return _with_counted(sql, events, before=[GameSet.Status.VERIFIED])


def _summed_sql(events: list[Event]) -> tuple[str, list[Any]]:
    """For the counted sets of `events` without stored sums of their current version: set id, the
    player record, the seat position, then the figures of `_player_sets_sql`, summed from the results
    (`set_sums.sums_sql`)."""
    table, col = sql_table, sql_column
    without_current = f"""
        SELECT c.id FROM {table(GameSet)} c
        WHERE c.id IN ({{counted}})
          AND NOT EXISTS (SELECT 1 FROM {table(SetSums)} f WHERE {current_sums("f", "c")})
    """
    # The columns of `_player_sets_sql`'s rows; what is the same for the whole set is read there.
    sql = f"""
        SELECT a.set_id, NULL, NULL, NULL, NULL, {col("e", Entry, "player")}, {col("s", Seat, "position")},
               a.entry_id, a.total, a.worst, a.deals, a.won, a.doubled
        FROM ({sums_sql(without_current)}) a
        JOIN {table(GameSet)} g ON g.id = a.set_id
        JOIN {table(Entry)} e ON e.id = a.entry_id
        LEFT JOIN {table(Seat)} s ON {_seat_of("s", "e", "g")}
        ORDER BY a.set_id
    """
    return _with_counted(sql, events)


def _seat_of(seat: str, entry: str, game_set: str) -> str:
    """The condition joining an entry (alias `entry`) to its seat (`seat`) at a set's (`game_set`) table."""
    return (
        f"{sql_column(seat, Seat, 'table')} = {sql_column(game_set, GameSet, 'table')}"
        f" AND {sql_column(seat, Seat, 'entry')} = {entry}.id"
    )


def _with_counted(sql: str, events: list[Event], *, before: Sequence[Any] = ()) -> tuple[str, list[Any]]:
    """`sql` with its `{counted}` placeholder the subquery of the counted sets of `events`; `before`:
    the parameters of `sql` before the placeholder (none after it)."""
    counted = (
        counted_sets(Event.objects.filter(pk__in=[event.pk for event in events])).order_by().values("pk")
    )
    counted_sql, params = counted.query.get_compiler(using=counted.db).as_sql()
    return sql.replace("{counted}", counted_sql), [*before, *params]


def _read_tables(
    events: list[Event], by_order: set[int], people: dict[int, tuple[str, str]]
) -> tuple[dict[int, EventTables], dict[int, list[dict[str, Any]]]]:
    """The counted sets of `events` read from the database, and the official standings rows of those of
    set totals (all but `by_order`) from the same read: one query gives each (set, player)'s stored
    figures with the set and the seat (`_player_sets_sql`; one more sums the results of any set without
    them, `_summed_sql`) — the set totals the matches rank by, and the figures the standings rank by
    (`standings.places_of_sets`). The games of
    hands (`by_order`) are ranked by each game's finishing order: their seats and orders in two more
    queries. `people`: player record id → (name, club)."""
    tables: dict[int, EventTables] = {event.pk: [] for event in events}
    by_totals = [event for event in events if event.pk not in by_order]
    standings: dict[int, list[dict[str, Any]]] = {}
    if by_totals:
        # Set → (event, round number, table number, verified, being corrected, each player's figures,
        # the seated players' (seat, player record, total)).
        sets: dict[int, tuple[int, int, int, bool, bool, list[Any], list[tuple[int, int, int]]]] = {}
        players: dict[int, tuple[int, str, str]] = {}
        # PostgreSQL hashes the 400,000 sums (and any results summed): at its default 4 MB they spill to
        # disk, a quarter of the read's time.
        unsummed = _gather(_rows(*_player_sets_sql(by_totals), big=True), sets, players, people)
        if unsummed:
            _gather(_rows(*_summed_sql(by_totals), big=True), sets, players, people)
        counted: dict[int, list[Any]] = {event.pk: [] for event in by_totals}
        for set_id, (event_id, number, table, verified, correcting, figures, seated) in sets.items():
            if not figures:
                continue  # no results in it
            tables[event_id].append((set_id, number, table, tuple(sorted(seated))))
            counted[event_id].append((number, verified, correcting, figures))
        standings = {event.pk: places_of_sets(event, counted[event.pk], players) for event in by_totals}
    if by_order:
        games = counted_sets(Event.objects.filter(pk__in=by_order))
        # A game's ranks are its finishing order (BV8), not set totals.
        places = british_places(games)
        rated: dict[int, tuple[int, int, int, list[tuple[int, int, int]]]] = {}
        for set_id, position, player_id, entry_id, event_id, number, table in _fetched(
            Seat.objects.filter(table__game_set__in=games).values_list(
                "table__game_set__id", "position", "entry__player_id", "entry_id",
                "round__event_id", "round__number", "table__number",
            )
        ):  # fmt: skip
            found = rated.setdefault(set_id, (event_id, number, table, []))
            place = places.get((set_id, entry_id))
            if place is not None:  # seated, but no place of theirs in the game
                found[3].append((position, player_id, place))
        for set_id, (event_id, number, table, seated) in rated.items():
            tables[event_id].append((set_id, number, table, tuple(sorted(seated))))
    return tables, standings


def _gather(
    rows: Iterable[tuple[Any, ...]],
    sets: dict[int, tuple[int, int, int, bool, bool, list[Any], list[tuple[int, int, int]]]],
    players: dict[int, tuple[int, str, str]],
    people: dict[int, tuple[str, str]],
) -> bool:
    """Add rows of `_player_sets_sql` (or `_summed_sql`, for sets already met) to `sets` and `players`
    (entry id → player record, name, club); True when a set came without stored sums."""
    unsummed = False
    for row in rows:
        found = sets.get(row[0])
        if found is None:
            if row[1] is None:
                continue  # a set counted only since the first statement read them
            # Counted sets are of closed rounds: one not verified is reopened for a correction.
            verified = row[4] == 1
            found = sets[row[0]] = (row[1], row[2], row[3], verified, not verified, [], [])
        entry_id = row[7]
        if entry_id is None:
            unsummed = True
            continue
        found[5].append(row[7:])
        if row[6] is not None:
            found[6].append((row[6], row[5], row[8]))
        if entry_id not in players:
            players[entry_id] = (row[5], *people[row[5]])
    return unsummed


def _people() -> list[tuple[int, str, str, str]]:
    return list(Player.objects.order_by().values_list("pk", "name", "membership_id", "club"))


# A kept set's round number and table number: the order its event's sets are rated in.
ROUND_AND_TABLE = itemgetter(1, 2)


def rated_sets(events: QuerySet[Event] | None = None, *, game: Game | None = None) -> RatedSets:
    """Every counted set of `events` (all events when None) as a match: the table's players in seat
    order, ranked by their set totals (lower is better, equal totals share), keyed by event date, event,
    round number and table number; with `game`, that game's events alone.

    Each event's sets are kept in the cache by its results stamp, version and final rounds
    (`_kept_key`), so after one event's change that event alone is read again. The official standings
    of the events of set totals read come from the same read (`standings`). Three queries whatever the
    number of sets (five with games of hands among the events read): the events, the players, then the
    sets of the events not kept (one more when some set has no stored sums of its version)."""
    events = events if events is not None else Event.objects.all()
    found = list(
        events.order_by().only(
            "pk", "date_start", "ruleset_preset", "results_stamp", "version", "final_times", "format",
            "tiebreaks",
        )
    )  # fmt: skip
    if game is not None:
        found = [event for event in found if game_of_preset(event.ruleset_preset) is game]
    people = {pk: (name, membership, club) for pk, name, membership, club in _people()}
    who = {pk: identity(name, membership) for pk, (name, membership, _) in people.items()}
    keys = {event.pk: _kept_key("rated", event) for event in found}
    kept = cache.get_many(list(keys.values())) if found else {}
    missing = [event for event in found if keys[event.pk] not in kept]
    tables: dict[int, EventTables] = {pk: kept[key] for pk, key in keys.items() if key in kept}
    standings: dict[int, list[dict[str, Any]]] = {}
    if missing:
        by_order = {event.pk for event in missing if game_of_preset(event.ruleset_preset).of_hands}
        read, standings = _read_tables(
            missing, by_order, {pk: (name, club) for pk, (name, _, club) in people.items()}
        )
        cache.set_many({keys[pk]: rows for pk, rows in read.items()}, PLACES_CACHE_SECONDS)
        tables.update(read)
    matches = []
    latest: dict[str, int] = {}
    for event in sorted(found, key=lambda event: (event.date_start, event.pk)):
        day = event.date_start.isoformat()
        for set_id, number, table, seated in sorted(tables[event.pk], key=ROUND_AND_TABLE):
            if len(seated) < 2:
                continue  # one player alone has no one to be ranked against
            _, records, totals = zip(*seated, strict=True)  # in seat order: player records, set totals
            players = tuple(map(who.__getitem__, records))
            ranks = tuple(competition_ranks(totals, lower_is_better=True))
            # The key says the event, round and table; the history keeps the set's id.
            matches.append(
                Match(
                    key=(day, event.pk, number, table), players=players, ranks=ranks, context={"set": set_id}
                )
            )
            latest.update(zip(players, records, strict=True))
    return RatedSets(matches=matches, latest_record=latest, identities=who, standings=standings)


@dataclass(frozen=True)
class EventPlaces:
    """One event's official places: rows of (player record id, entry id, place, shared)."""

    event_id: int
    rows: list[tuple[int, int, int, bool]]

    @property
    def ranked(self) -> int:
        return len(self.rows)


# A player's rating after one rated set: the set's id, their rank and the players at the table, μ, σ.
HISTORY_STEP = struct.Struct("<iBBdd")


def pack_history(steps: Iterable[tuple[int, int, int, float, float]]) -> bytes:
    """A player's history as stored: each step (set id, rank, players, μ, σ) in 22 bytes, the floats
    exactly as computed.

    >>> unpack_history(pack_history([(7, 1, 4, 27.5, 8.0)]))
    [(7, 1, 4, 27.5, 8.0)]
    """
    pack = HISTORY_STEP.pack
    return b"".join(pack(*step) for step in steps)


def unpack_history(data: bytes) -> list[tuple[int, int, int, float, float]]:
    return list(HISTORY_STEP.iter_unpack(bytes(data)))


PLACES_CACHE_SECONDS = 7 * 24 * 3600


def event_places(
    events: Iterable[Event], *, read: Mapping[int, list[dict[str, Any]]] | None = None
) -> list[EventPlaces]:
    """Each event's official standings, as places. They are kept in the cache by the event's results
    stamp, version and final rounds (`_kept_key`), so a list computed again after one event changed
    reads that event alone. `read`: standings rows already read, by event id (`rated_sets` derives
    them from its own read), kept as those read here are. The others not kept are read together: the
    events of set totals in one query (two with knock-out events among them) after one for their
    counted rounds; a game of hands' event through its own standings (two queries an event)."""
    events = list(events)
    standings = dict(read or {})
    keys = {event.pk: _kept_key("places", event) for event in events}
    kept = cache.get_many([keys[event.pk] for event in events if event.pk not in standings])
    missing = [event for event in events if keys[event.pk] not in kept]
    by_totals = [
        event
        for event in missing
        if event.pk not in standings and not game_of_preset(event.ruleset_preset).of_hands
    ]
    if by_totals:
        rounds: dict[int, list[int]] = {}
        for pk, event_id in closed_rounds(
            Event.objects.filter(pk__in=[event.pk for event in by_totals])
        ).values_list("pk", "event_id"):
            rounds.setdefault(event_id, []).append(pk)
        standings.update(official_places(by_totals, rounds))
    for event in missing:
        rows = standings.get(event.pk)
        if rows is None:
            rows = event_standings(event, with_ids=True, final_only=True)
        kept[keys[event.pk]] = [
            (row["player_id"], row["entry_id"], row["place"], row["shared"]) for row in rows
        ]
    if missing:
        cache.set_many({keys[event.pk]: kept[keys[event.pk]] for event in missing}, PLACES_CACHE_SECONDS)
    return [EventPlaces(event.pk, kept[keys[event.pk]]) for event in events]


def ratings_fingerprint(season: Season | None, game: Game = JAMAICAN) -> str:
    """Which results a rating list reads: each event's results stamp and version (the game's events; a
    season's standings read all of its events), every player record's name and membership id, the
    season's settings. Two queries."""
    parts: list[Any] = [RATING_METHOD, game.family]
    if season is not None:
        parts.append(("season", season.pk, season.version, season.best_of, season.points))
    rows = (
        events_in(season)
        .order_by("pk")
        .values_list("pk", "results_stamp", "version", "ruleset_preset", "final_times")
    )
    # Ratings count final results: a round becoming final changes what they read.
    parts.append(
        [
            (pk, stamp, version, preset, finals_passed(final_times)[0])
            for pk, stamp, version, preset, final_times in rows
            if season is not None or game_of_preset(preset) is game
        ]
    )
    parts.append(_player_rows())
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def stored_list(season: Season | None, game: Game = JAMAICAN) -> RatingList | None:
    """The last computation of the game's list for every event or the season, if any. One query."""
    return RatingList.objects.filter(scope=scope_of(season, game)).first()


def game_of_player(player: Player) -> Game:
    """The game of the player's latest event: the list their page shows when none is asked for (the
    Jamaican list for a player entered nowhere). One query."""
    preset = (
        Event.objects.filter(entries__player=player)
        .order_by("-date_start", "-pk")
        .values_list("ruleset_preset", flat=True)
        .first()
    )
    return game_of_preset(preset) if preset is not None else JAMAICAN


def rating_rule(game: Game) -> RatingRule:
    """Whom the game's list ranks: the rule organisers set, else the defaults (not stored). One query."""
    found = RatingRule.objects.filter(game=game.family).first()
    return found or RatingRule(
        game=game.family, min_sets=PROVISIONAL_BELOW, inactive_months=INACTIVE_AFTER_MONTHS
    )


# --- the pages ----------------------------------------------------------------------------------

RATING_FIELDS = ("player", "membership", "club", "mu", "sigma", "ordinal", "sets", "events")
# What each row says besides (the command's JSON and CSV, after RATING_FIELDS).
STANDING_FIELDS = ("game", "ranked", "active", "last_played")


def listed_name(
    name: str, membership: str, consent: bool | None, label: int | str, *, public: bool
) -> dict[str, str]:
    """A row's `player` and `membership` as a list across events prints them: on a public list a player
    whose record does not consent to public lists (issue 26; no details: consent) is "Player <label>" —
    their place on the whole list, or their row's number — without their membership id."""
    if public and consent is False:
        return {"player": f"Player {label}", "membership": ""}
    return {"player": name, "membership": membership}


def rating_rows(
    rating_list: RatingList,
    *,
    rule: RatingRule | None = None,
    today: date | None = None,
    public: bool = False,
) -> list[dict[str, Any]]:
    """The list best first: position, identity, player_id, RATING_FIELDS, the game, the day last played,
    whether they are ranked (enough rated sets; else provisional) and active (a rated set within the rule's
    months of `today`). One query, and one more for the rule when it is not given. `public`: players who
    do not consent to public lists as "Player <position>" (`listed_name`)."""
    if rule is None:
        rule = rating_rule(game_named(rating_list.game))
    today = today or timezone.localdate()
    rows = (
        PlayerRating.objects.filter(rating_list=rating_list)
        .order_by("position")
        .values_list(
            "position",
            "identity",
            "player_id",
            "player__name",
            "player__membership_id",
            "player__club",
            "mu",
            "sigma",
            "ordinal",
            "sets",
            "events",
            "last_played",
            "player__details__consent_public",
        )
    )
    return [
        {
            "position": position,
            "identity": person,
            "player_id": player_id,
            **listed_name(name, membership, consent, position, public=public),
            "club": club,
            "mu": mu,
            "sigma": sigma,
            "ordinal": ordinal,
            "sets": sets,
            "events": events,
            "game": rating_list.game,
            "last_played": last_played,
            "ranked": is_ranked(sets, min_sets=rule.min_sets),
            "active": is_active(last_played, today=today, months=rule.inactive_months),
            "provisional": not is_ranked(sets, min_sets=rule.min_sets),
        }
        for (
            position,
            person,
            player_id,
            name,
            membership,
            club,
            mu,
            sigma,
            ordinal,
            sets,
            events,
            last_played,
            consent,
        ) in rows
    ]


def club_rows(rows: list[dict[str, Any]], club: str) -> list[dict[str, Any]]:
    """The rows of one club's players (by the club of their latest rated set; case and spaces aside),
    keeping their positions in the whole list."""
    wanted = " ".join(club.split()).casefold()
    return [row for row in rows if " ".join(row["club"].split()).casefold() == wanted]


def official_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The official list: active, ranked players alone, numbered again from 1 (equal ordinals keep the
    list's order)."""
    kept = [row for row in rows if row["ranked"] and row["active"]]
    return [row | {"position": position} for position, row in enumerate(kept, start=1)]


def clubs_of(rows: list[dict[str, Any]]) -> list[str]:
    """The clubs on the list, for the filter."""
    return sorted({row["club"] for row in rows if row["club"]}, key=str.casefold)


@dataclass(frozen=True)
class RatingStepRow:
    """A player's rating after one rated set."""

    event: str
    event_slug: str
    day: date
    round: int
    table: int
    rank: int
    players: int
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class EventPlaceRow:
    event: str
    event_slug: str
    day: date
    entry_id: int
    place: int
    shared: bool
    ranked: int


@dataclass(frozen=True)
class PlayerRatingPage:
    """A player's rating across events, its history, their events and their place in each."""

    player: Player
    identity: str
    records: list[Player]
    rating: PlayerRating | None
    rated: int
    history: list[RatingStepRow]
    places: list[EventPlaceRow]
    computed_at: datetime | None
    game: Game = JAMAICAN
    rule: RatingRule | None = None
    today: date | None = None
    name: str = ""  # as the page prints it (`listed_name`)
    membership: str = ""
    hidden: bool = False  # shown as "Player <place>": a record of the person does not consent (issue 26)

    @property
    def min_sets(self) -> int:
        return self.rule.min_sets if self.rule is not None else PROVISIONAL_BELOW

    @property
    def provisional(self) -> bool:
        return self.rating is None or not is_ranked(self.rating.sets, min_sets=self.min_sets)

    @property
    def active(self) -> bool:
        months = self.rule.inactive_months if self.rule is not None else INACTIVE_AFTER_MONTHS
        last = self.rating.last_played if self.rating is not None else None
        return is_active(last, today=self.today or timezone.localdate(), months=months)


def player_rating_page(player: Player, rating_list: RatingList, *, public: bool = False) -> PlayerRatingPage:
    """Everything the player's rating page shows in the list's game. Five queries. `public`: a person
    one of whose records does not consent to public lists (issue 26) is "Player <place on the list>"."""
    person = identity(player.name, player.membership_id)
    same = Player.objects.filter(membership_id=player.membership_id) if player.membership_id else None
    if same is None:
        same = Player.objects.filter(name=player.name, membership_id="")
    records = list(same.select_related("details").order_by("pk"))
    # No details row: consent (the row is read with the records, no query of its own).
    refused = any(
        getattr(getattr(record, "details", None), "consent_public", True) is False for record in records
    )
    row = PlayerRating.objects.filter(rating_list=rating_list, identity=person).first()
    shown = listed_name(
        player.name, player.membership_id, not refused, row.position if row else "unrated", public=public
    )
    steps = unpack_history(row.history) if row else []
    place_data = row.places if row else []
    tables = {
        pk: (event_id, number, table)
        for pk, event_id, number, table in GameSet.objects.filter(
            pk__in=[step[0] for step in steps]
        ).values_list("pk", "table__round__event_id", "table__round__number", "table__number")
    }
    wanted = {event_id for event_id, _, _ in tables.values()} | {item[0] for item in place_data}
    events = {
        pk: (name, slug, day)
        for pk, name, slug, day in Event.objects.filter(pk__in=wanted).values_list(
            "pk", "name", "slug", "date_start"
        )
    }
    history = []
    for set_id, rank, players, mu, sigma in steps:
        found = tables.get(set_id)
        if found is not None:  # a set deleted since the computation (the next read computes again)
            event_id, number, table = found
            history.append(RatingStepRow(*events[event_id], number, table, rank, players, mu, sigma))
    places = sorted(
        (
            EventPlaceRow(*events[event_id], entry_id, place, shared, ranked)
            for event_id, entry_id, place, shared, ranked in place_data
            if event_id in events
        ),
        key=lambda item: (item.day, item.event),
        reverse=True,
    )
    return PlayerRatingPage(
        player=player,
        identity=person,
        records=records,
        rating=row,
        rated=rating_list.players,
        history=history,
        places=places,
        computed_at=rating_list.computed_at,
        game=game_named(rating_list.game),
        rule=rating_rule(game_named(rating_list.game)),
        today=timezone.localdate(),
        name=shown["player"],
        membership=shown["membership"],
        hidden=public and refused,
    )
