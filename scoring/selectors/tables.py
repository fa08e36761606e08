"""Rounds and their tables: how far each table is (director's dashboard, round page, projector),
each round's counts (event page), and "where do I sit" (seating rows)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, OuterRef, QuerySet, Subquery, TextField
from django.db.models.functions import Cast, Coalesce

from adjudication.engine.rules import DEALS_PER_SET

from ..games import Game, game_of_preset
from ..models import Deal, Entry, Event, GameSet, Round, Seat, Table
from .publication import public_rounds


@dataclass(frozen=True)
class TableStatus:
    """One table and its set: deals scored, verified, findings at the last change, who sits there."""

    table_id: int
    number: int
    game_set_id: int | None
    status: str | None
    scored: int
    finished: bool
    verified: bool
    errors: int
    warnings: int
    corrected: bool
    overridden: bool
    updated_at: datetime | None
    players: list[str] = field(default_factory=list)
    # The deals a set is due (9); None for a British game, which runs until one player is left.
    deals_due: int | None = DEALS_PER_SET


@dataclass(frozen=True)
class RoundStatus:
    round: Round
    number: int
    seated: bool
    tables: list[TableStatus]
    finished: int
    verified: int


@dataclass(frozen=True)
class RoundSummary:
    """A round's table counts (9 scored deals = finished)."""

    round: Round
    number: int
    seated: bool
    table_count: int
    finished: int
    verified: int


def _round_rows(event: Event) -> list[tuple[int, bool, bool]]:
    """(number, seated, a set still to verify) for each round, in order; one query, remembered on the
    instance (the navigation, the page's round links and its live refresh ask the same)."""
    rows = getattr(event, "_nav_rounds", None)
    if rows is None:
        # Public: seated and published (a round seated but not published is its directors' alone).
        has_tables = Exists(Table.objects.filter(public_rounds("round__"), round=OuterRef("pk")))
        in_play = Exists(
            GameSet.objects.filter(table__round=OuterRef("pk")).exclude(status=GameSet.Status.VERIFIED)
        )
        rows = list(event.rounds.order_by("number").values_list("number", has_tables, in_play))
        event._nav_rounds = rows
    return rows


def event_rounds(event: Event) -> list[tuple[int, bool]]:
    """(number, public: seated and published) for each round of the event, in order (the navigation's
    one query)."""
    return [(number, seated) for number, seated, _ in _round_rows(event)]


def event_in_play(event: Event) -> bool:
    """Whether a seated table of the event is still to verify (its public pages then refresh
    themselves); the navigation's query, no other."""
    return any(in_play for _, _, in_play in _round_rows(event))


def event_round_numbers(event: Event) -> list[int]:
    """The numbers of the event's rounds the public sees, in order: the seated ones (a round added
    but not seated yet is the director's alone). Shares the navigation's query."""
    return [number for number, seated in event_rounds(event) if seated]


def round_seating(round: Round) -> list[dict[str, Any]]:
    """ "Where do I sit": every seated player's table and seat, sorted by name. One query.

    Rows (plain dicts: the page's name filter marks them): player, club, entry_id, table, seat,
    first_dealer (bool), substitute, substitute_from, withdrawn (bool).
    """
    seats = (
        Seat.objects.filter(round=round)
        .select_related("table", "entry__player", "substitute__player")
        .order_by()
    )
    rows = [
        {
            "player": seat.entry.player.name,
            "club": seat.entry.player.club,
            "entry_id": seat.entry_id,
            "table": seat.table.number,
            "seat": seat.position,
            "first_dealer": seat.position == seat.table.first_dealer,
            "substitute": seat.substitute.player.name if seat.substitute_id else None,
            "substitute_from": seat.substitute_from,
            "withdrawn": seat.entry.status == Entry.Status.WITHDRAWN,
        }
        for seat in seats
    ]
    rows.sort(key=lambda row: (row["player"].casefold(), row["player"]))
    return rows


def player_seat(event: Event, entry: Entry) -> dict[str, Any]:
    """Where a followed player sits: the newest public round's number and their table and seat in it
    (None when not seated there: a bye, a withdrawal, or no round yet). The navigation's query and one
    more."""
    numbers = event_round_numbers(event)
    number = numbers[-1] if numbers else None
    seat = None
    if number is not None:
        seat = (
            Seat.objects.filter(round__event=event, round__number=number, entry=entry)
            .values("table__number", "position", "table__first_dealer", "substitute__player__name")
            .first()
        )
    return {
        "round": number,
        "table": seat["table__number"] if seat else None,
        "seat": seat["position"] if seat else None,
        "first_dealer": bool(seat) and seat["position"] == seat["table__first_dealer"],
        "substitute": seat["substitute__player__name"] if seat else None,
    }


def _scored_deals(table_ref: str = "pk") -> Subquery:
    """The number of scored (not void) deals in the set of the outer query's table."""
    deals = (
        Deal.objects.filter(game_set__table=OuterRef(table_ref), void=False)
        .order_by()
        .values("game_set")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(deals), 0)


def stored_codes(findings: object) -> set[str]:
    """The finding codes among a set's stored findings (JSON: a list of dicts)."""
    if not isinstance(findings, list):
        return set()
    return {item["code"] for item in findings if isinstance(item, dict) and isinstance(item.get("code"), str)}


def _table_rows(
    tables: QuerySet[Table], seats: QuerySet[Seat] | None, names: dict[int, str] | None = None
) -> dict[int, list[TableStatus]]:
    """Status rows of `tables` by round id, in table order: one query, a second for the players'
    names (clockwise) unless `seats` is None; `names`: {entry id: the name shown instead} (a player
    without consent to public lists). Plain values, no model instances: a round has 256."""
    names = names or {}
    rows: dict[int, list[TableStatus]] = defaultdict(list)
    by_table: dict[int, TableStatus] = {}
    fetched = (
        tables.order_by("round_id", "number")
        .annotate(scored=_scored_deals())
        .values_list(
            "pk",
            "round_id",
            "number",
            "scored",
            "game_set__id",
            "game_set__status",
            "game_set__error_count",
            "game_set__warning_count",
            "game_set__corrected_after_verification",
            "game_set__override_reason",
            "game_set__updated_at",
            "round__event__ruleset_preset",
            "game_set__findings",
        )
    )
    for table_id, round_id, number, scored, *game_set in fetched:
        set_id, status, errors, warnings, corrected, override, updated, preset, findings = game_set
        game = game_of_preset(preset)
        row = TableStatus(
            table_id=table_id,
            number=number,
            game_set_id=set_id,
            status=status,
            scored=scored,
            finished=game.finished(scored=scored, codes=stored_codes(findings)),
            verified=status == GameSet.Status.VERIFIED,
            errors=errors or 0,
            warnings=warnings or 0,
            corrected=bool(corrected),
            overridden=bool(override),
            updated_at=updated,
            deals_due=game.deals_due,
        )
        rows[round_id].append(row)
        by_table[table_id] = row
    if seats is not None:
        for table_id, entry_id, name in seats.order_by("table_id", "position").values_list(
            "table_id", "entry_id", "entry__player__name"
        ):
            if table_id in by_table:
                by_table[table_id].players.append(names.get(entry_id, name))
    return rows


def _round_status(rnd: Round, tables: list[TableStatus]) -> RoundStatus:
    return RoundStatus(
        round=rnd,
        number=rnd.number,
        seated=bool(tables),
        tables=tables,
        finished=sum(1 for row in tables if row.finished),
        verified=sum(1 for row in tables if row.verified),
    )


def event_tables_status(event: Event) -> list[RoundStatus]:
    """Each round's tables and how far they are (the director's overview). Three queries.

    Public pages read one round (`round_tables_status`) or the counts alone (`round_summaries`).
    """
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    by_round = _table_rows(Table.objects.filter(round__event=event), Seat.objects.filter(round__event=event))
    return [_round_status(rnd, by_round.get(rnd.pk, [])) for rnd in rounds]


def round_tables_status(
    round: Round, *, players: bool = True, names: dict[int, str] | None = None
) -> RoundStatus:
    """One round's tables and how far they are (round page, projector). Two queries, one with
    `players=False` (then every `players` is empty)."""
    seats = Seat.objects.filter(round=round) if players else None
    return _round_status(
        round, _table_rows(Table.objects.filter(round=round), seats, names).get(round.pk, [])
    )


def _finished_tables(game: Game, tables: QuerySet[Table]) -> QuerySet[Table]:
    """The tables of `tables` whose set or game is played to its end, as `game.finished` says from the
    scored deals and the stored findings' codes, said in SQL: a set of a fixed number of deals at that
    number; a game of hands once it has a scored hand and its findings no longer say it is unfinished
    (BV7). The codes are matched in the findings' JSON text as a whole string value ("GAME_UNFINISHED"),
    which reads the same on SQLite and PostgreSQL (a JSON `contains` lookup is PostgreSQL's alone)."""
    scored = tables.annotate(scored=_scored_deals())
    if game.deals_due is not None:
        return scored.filter(scored__gte=game.deals_due)
    unfinished = f'"{game.unfinished_code}"'
    return (
        scored.filter(scored__gt=0)
        .annotate(codes=Cast("game_set__findings", TextField()))
        .exclude(codes__contains=unfinished)
    )


def round_summaries(event: Event, *, seated_only: bool = False) -> list[RoundSummary]:
    """Each round's table counts, summed in the database (event page, projector). One query.
    `seated_only`: the rounds the public sees (a round not seated yet is left out). A table counts as
    finished by its game's own end (`_finished_tables`)."""
    tables = Table.objects.filter(round=OuterRef("pk")).order_by()

    def count(of: QuerySet[Table]) -> Coalesce:
        return Coalesce(Subquery(of.values("round").annotate(n=Count("pk")).values("n")), 0)

    rounds = (
        Round.objects.filter(event=event)
        .annotate(
            table_count=count(tables),
            finished=count(_finished_tables(event.game, tables)),
            verified=count(tables.filter(game_set__status=GameSet.Status.VERIFIED)),
        )
        .order_by("number")
    )
    if seated_only:
        rounds = rounds.filter(public_rounds(), Exists(Table.objects.filter(round=OuterRef("pk"))))
    return [
        RoundSummary(
            round=rnd,
            number=rnd.number,
            seated=rnd.table_count > 0,
            table_count=rnd.table_count,
            finished=rnd.finished,
            verified=rnd.verified,
        )
        for rnd in rounds
    ]


@dataclass(frozen=True)
class WorkItem:
    round_number: int
    table: TableStatus


@dataclass(frozen=True)
class Worklist:
    """What the director's dashboard puts first: the tables still playing, those whose findings are to be
    settled (errors, or a reopened set), and those ready to verify (nine deals, no error)."""

    playing: list[WorkItem]
    to_settle: list[WorkItem]
    to_verify: list[WorkItem]


def director_worklist(rounds: list[RoundStatus]) -> Worklist:
    """The dashboard's three lists from `event_tables_status` rows (no query of its own)."""
    playing, to_settle, to_verify = [], [], []
    for row in rounds:
        for table in row.tables:
            if table.verified or table.game_set_id is None:
                continue
            item = WorkItem(row.number, table)
            if table.errors:
                to_settle.append(item)
            elif table.finished:
                to_verify.append(item)
            else:
                playing.append(item)
    return Worklist(playing=playing, to_settle=to_settle, to_verify=to_verify)


def tables_in_play(event: Event) -> dict[int, list[TableStatus]]:
    """Every table of every round still to verify, by round id (the projector). One query."""
    tables = Table.objects.filter(
        public_rounds("round__"), round__event=event, game_set__isnull=False
    ).exclude(game_set__status=GameSet.Status.VERIFIED)
    return dict(_table_rows(tables, None))
