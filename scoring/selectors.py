"""Every read a screen, a PDF or a command needs (HOUSE-STYLE rule 5).

Each function runs a fixed number of queries whatever the event size (aggregates in SQL, then a small
Python pass) and returns plain rows (dicts) that tables2, templates, PDFs and commands share.
Official results count verified sets only; `provisional=True` adds the sets still in play.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Count, F, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from adjudication.engine.rules import DEALS_PER_SET
from adjudication.engine.sheet import SheetError
from adjudication.models import AuditEntry, Ruling

from .deal_input import clean_deal, computed_penalty
from .models import TIEBREAKS, Deal, DealResult, Entry, Event, GameSet, Player, Round, Seat, Table
from .sheets import deals_of, findings_for_set, next_deal_number, seats_of, sheet_from_rows

STANDINGS_FIELDS = (
    "place",
    "shared",
    "player",
    "club",
    "total",
    "sets",
    "sets_won",
    "deals_won",
    "doubled_outs",
    "worst_deal",
)
KNOCKOUT_FIELDS = (*STANDINGS_FIELDS, "round_reached", "round_total")


# --- standings ----------------------------------------------------------------------------------


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


def _standings_sql(*, round_number: int | None, provisional: bool, knockout: bool) -> tuple[str, list[Any]]:
    """One statement giving each player's standings figures over the counted sets (its first
    parameter: the event's id). Columns: player_id, name, club, entry_id, `_STATS` over every counted
    set and, for a knock-out event, the last round reached and `_STATS` over that round's sets alone.

    `scored` is the only pass over the results (one row per counted result); `per_set` sums them per
    (set, player), grouped by two integer columns. `sets` finds each set's lowest total and whether
    the set is complete — R20: won after its nine scored deals (a verified set is complete by
    decision), equal lowest totals share the win. The rest adds the sets up per player and joins the
    names onto one row per player.
    """
    quote = connection.ops.quote_name

    def table(model) -> str:
        return quote(model._meta.db_table)

    def col(alias: str, model, name: str) -> str:
        return f"{alias}.{quote(model._meta.get_field(name).column)}"

    where = [f"{col('ro', Round, 'event')} = %s", f"NOT {col('d', Deal, 'void')}"]
    params: list[Any] = []
    if not provisional:
        where.append(f"{col('g', GameSet, 'status')} = %s")
        params.append(GameSet.Status.VERIFIED)
    if round_number is not None:
        where.append(f"{col('ro', Round, 'number')} = %s")
        params.append(round_number)
    went_out = f"{col('d', Deal, 'out')} = {col('r', DealResult, 'entry')}"
    # PostgreSQL guesses nearly one (set, player) group per result and then sorts them all on disk;
    # behind this fence it guesses a few thousand and aggregates in memory (SQLite needs no fence).
    fence = " OFFSET 0" if connection.vendor == "postgresql" else ""

    def figures(only_last: bool = False) -> str:
        def of(value: str) -> str:
            return f"CASE WHEN j.round = x.reached THEN {value} ELSE 0 END" if only_last else value

        return (
            f"SUM({of('j.total')}), SUM({of('1')}), SUM({of('j.set_won')}), SUM({of('j.won')}), "
            f"SUM({of('j.doubled')}), MAX({of('j.worst')})"
        )

    if knockout:
        players = f"""
        reached AS (SELECT entry_id, MAX(round) AS reached FROM judged GROUP BY entry_id),
        players AS (
            SELECT j.entry_id, {figures()}, MAX(x.reached), {figures(only_last=True)}
            FROM judged j JOIN reached x ON x.entry_id = j.entry_id
            GROUP BY j.entry_id
        )"""
    else:
        players = f"""
        players AS (SELECT j.entry_id, {figures()} FROM judged j GROUP BY j.entry_id)"""
    sql = f"""
        WITH per_set AS (
            SELECT set_id, entry_id, SUM(penalty) AS total, MAX(penalty) AS worst, COUNT(*) AS deals,
                   SUM(won) AS won, SUM(doubled) AS doubled
            FROM (
                SELECT {col("d", Deal, "game_set")} AS set_id, {col("r", DealResult, "entry")} AS entry_id,
                       {col("r", DealResult, "penalty")} AS penalty,
                       CASE WHEN {went_out} THEN 1 ELSE 0 END AS won,
                       CASE WHEN {went_out} AND {col("d", Deal, "doubled")} THEN 1 ELSE 0 END AS doubled
                FROM {table(DealResult)} r
                JOIN {table(Deal)} d ON d.id = {col("r", DealResult, "deal")}
                JOIN {table(GameSet)} g ON g.id = {col("d", Deal, "game_set")}
                JOIN {table(Table)} t ON t.id = {col("g", GameSet, "table")}
                JOIN {table(Round)} ro ON ro.id = {col("t", Table, "round")}
                WHERE {" AND ".join(where)}{fence}
            ) scored
            GROUP BY set_id, entry_id
        ),
        sets AS (
            SELECT s.set_id, {col("ro", Round, "number")} AS round, MIN(s.total) AS lowest,
                   CASE WHEN {col("g", GameSet, "status")} = %s OR MAX(s.deals) >= %s
                        THEN 1 ELSE 0 END AS complete
            FROM per_set s
            JOIN {table(GameSet)} g ON g.id = s.set_id
            JOIN {table(Table)} t ON t.id = {col("g", GameSet, "table")}
            JOIN {table(Round)} ro ON ro.id = {col("t", Table, "round")}
            GROUP BY s.set_id, {col("g", GameSet, "status")}, {col("ro", Round, "number")}
        ),
        judged AS (
            SELECT s.entry_id, s.total, s.worst, s.won, s.doubled, x.round,
                   CASE WHEN x.complete = 1 AND s.total = x.lowest THEN 1 ELSE 0 END AS set_won
            FROM per_set s JOIN sets x ON x.set_id = s.set_id
        ),{players}
        SELECT {col("e", Entry, "player")}, {col("p", Player, "name")}, {col("p", Player, "club")}, a.*
        FROM players a
        JOIN {table(Entry)} e ON e.id = a.entry_id
        JOIN {table(Player)} p ON p.id = {col("e", Entry, "player")}
    """
    return sql, [*params, GameSet.Status.VERIFIED, DEALS_PER_SET]


_STATS = ("total", "sets", "sets_won", "deals_won", "doubled_outs", "worst_deal")


def standings_for_event(
    event: Event,
    *,
    round_number: int | None = None,
    provisional: bool = False,
    with_ids: bool = False,
) -> list[dict[str, Any]]:
    """The standings, best first, as in SCORESHEET.md "Standings as data". One query.

    Rows: place, shared, player, club, total, sets, sets_won, deals_won, doubled_outs, worst_deal
    (keys in that order). Official = verified sets; `provisional` adds sets in play; `round_number`
    counts that round alone. Players with no counted set are left out. Order: the event's tie-break
    chain; players it cannot separate share the place (1, 1, 3) and are listed by name.

    Knock-out events add `round_reached` (the last round with a counted set) and `round_total` (the
    total in that round) and rank by round reached first, then by the chain applied to that round's
    sets alone — so the final table decides the champion. `with_ids` adds entry_id and player_id.

    Everything is summed in the database (`_standings_sql`); Python only ranks one row per player.
    """
    knockout = event.is_knockout
    sql, params = _standings_sql(round_number=round_number, provisional=provisional, knockout=knockout)
    with connection.cursor() as cursor:
        cursor.execute(sql, [event.pk, *params])
        fetched = cursor.fetchall()
    # Each tie-break's column among the figures, negated when more is better (smaller sorts first).
    picks = [(_STATS.index(name), 1 if TIEBREAKS[name] else -1) for name in event.tiebreaks or TIEBREAKS]
    ranked = []
    for player_id, name, club, entry_id, *figures in fetched:
        numbers = [int(value) for value in figures]  # PostgreSQL sums bigints as numeric
        if knockout:
            last = numbers[7:]
            key = (-numbers[6], *(sign * last[column] for column, sign in picks))
        else:
            key = tuple(sign * numbers[column] for column, sign in picks)
        ranked.append(((key, name.casefold(), name), club, numbers, entry_id, player_id))
    # Ties on the whole chain are listed by name (each sort key is unique: names are, per event).
    ranked.sort(key=itemgetter(0))
    rows = []
    for ((_, _, name), club, numbers, entry_id, player_id), (place, shared) in zip(
        ranked, _places([item[0][0] for item in ranked]), strict=True
    ):
        row = {"place": place, "shared": shared, "player": name, "club": club}
        row.update(zip(_STATS, numbers, strict=False))
        if knockout:
            row["round_reached"], row["round_total"] = numbers[6], numbers[7]
        if with_ids:
            row["entry_id"], row["player_id"] = entry_id, player_id
        rows.append(row)
    return rows


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


# --- one set ------------------------------------------------------------------------------------


def _expected_dealers(deals: Sequence[Deal], first: int, seats: int, void_redeal: str) -> list[int]:
    """R21 / V13: the dealer's seat for each deal in playing order (a void deal is redealt)."""
    position = first
    dealers = []
    for deal in deals:
        dealers.append(position)
        if not deal.void or void_redeal == "next":
            position = position % seats + 1
    dealers.append(position)
    return dealers


def _findings_index(findings: Sequence[Any], deals: Sequence[Deal]):
    """Findings by (row index, player), by row index, and those about the whole set."""
    row_of: dict[int, int] = {}
    for index, deal in enumerate(deals):
        # A finding names a deal number: the scored row of that number, else its void row.
        if not deal.void or deal.number not in row_of:
            row_of[deal.number] = index
    void_rows = {deal.number: index for index, deal in enumerate(deals) if deal.void}
    cells: dict[tuple[int, str], list[Any]] = defaultdict(list)
    rows: dict[int, list[Any]] = defaultdict(list)
    whole: list[Any] = []
    for finding in findings:
        index = row_of.get(finding.deal) if finding.deal is not None else None
        if finding.code == "VOID_SCORED" and finding.deal in void_rows:
            index = void_rows[finding.deal]
        if index is None:
            whole.append(finding)
        elif finding.player:
            cells[(index, finding.player)].append(finding)
        else:
            rows[index].append(finding)
    return cells, rows, whole


def set_grid(game_set: GameSet) -> dict[str, Any]:
    """Everything the table page shows for one set. Five queries whatever the event size.

    Keys: game_set, table, round, event, rules, players (position, entry_id, player, club,
    substitute, substitute_from), rows (one per deal in playing order, then placeholders up to deal 9:
    deal, sequence, number, void, placeholder, contract, contract_text, deal_size, dealer,
    dealer_expected, out, doubled, version, findings, cells), totals, winners, complete,
    scored_deals, next_number, findings, set_findings, errors, warnings, can_verify, rulings, sheet.

    Each cell: entry_id, player, played_by (a substitute's name from their deal on), result
    (DealResult or None), calls, hand, penalty, total (running, computed), total_written, opened,
    overcall, contract_error, other_points, other_reason, out, findings, rulings.
    """
    game_set = GameSet.objects.select_related("table__round__event", "verified_by", "updated_by").get(
        pk=game_set.pk
    )
    table = game_set.table
    event = table.round.event
    rules = event.ruleset()
    seats = seats_of(game_set)
    deals = deals_of(game_set)
    rulings = list(
        Ruling.objects.filter(deal__game_set=game_set)
        .select_related("entry__player", "issued_by", "decided_by")
        .order_by("issued_at", "pk")
    )
    sheet = sheet_from_rows(game_set, seats, deals)
    findings = findings_for_set(game_set, sheet=sheet)
    cell_findings, row_findings, set_findings = _findings_index(findings, deals)
    rulings_by = defaultdict(list)
    deal_of = {deal.pk: deal for deal in deals}
    for ruling in rulings:
        # Pages show each ruling's deal number: the deal already read, not a query a ruling.
        if ruling.deal_id in deal_of:
            ruling.deal = deal_of[ruling.deal_id]
        rulings_by[(ruling.deal_id, ruling.entry_id)].append(ruling)
    names = {seat.position: seat.entry.player.name for seat in seats}
    dealers = _expected_dealers(deals, table.first_dealer, len(seats) or 1, rules.void_redeal)
    running = {seat.entry_id: 0 for seat in seats}
    rows = []
    for index, deal in enumerate(deals):
        results = {result.entry_id: result for result in deal.results.all()}
        cells = []
        for seat in seats:
            result = results.get(seat.entry_id)
            if result is not None and not deal.void:
                running[seat.entry_id] += result.penalty
            cells.append(
                _cell(seat, deal, result, running[seat.entry_id], names)
                | {
                    "findings": cell_findings.get((index, seat.entry.player.name), []),
                    "rulings": rulings_by.get((deal.pk, seat.entry_id), []),
                }
            )
        rows.append(
            _row(deal.number, rules, names, dealers[index])
            | {
                "deal": deal,
                "sequence": deal.sequence,
                "void": deal.void,
                "placeholder": False,
                "dealer": names.get(deal.dealer) if deal.dealer else names.get(dealers[index]),
                "out": deal.out.player.name if deal.out_id else None,
                "doubled": deal.doubled,
                "version": deal.version,
                "findings": row_findings.get(index, []),
                "cells": cells,
            }
        )
    scored = [deal for deal in deals if not deal.void]
    next_number = None
    if len(scored) < DEALS_PER_SET:
        next_number = deals[-1].number if deals and deals[-1].void else len(scored) + 1
        next_number = min(next_number, DEALS_PER_SET)
        sequence = len(deals) + 1
        position = dealers[len(deals)]
        for number in range(next_number, DEALS_PER_SET + 1):
            rows.append(_placeholder(number, sequence, rules, names, position, seats))
            sequence += 1
            position = position % (len(seats) or 1) + 1
    totals = [
        {"entry_id": seat.entry_id, "player": seat.entry.player.name, "total": running[seat.entry_id]}
        for seat in seats
    ]
    complete = len(scored) >= DEALS_PER_SET
    lowest = min((row["total"] for row in totals), default=None)
    errors = [finding for finding in findings if finding.severity == "error"]
    return {
        "game_set": game_set,
        "table": table,
        "round": table.round,
        "event": event,
        "rules": rules,
        "players": [
            {
                "position": seat.position,
                "entry_id": seat.entry_id,
                "player": seat.entry.player.name,
                "club": seat.entry.player.club,
                "substitute": seat.substitute.player.name if seat.substitute_id else None,
                "substitute_from": seat.substitute_from,
                "first_dealer": seat.position == table.first_dealer,
            }
            for seat in seats
        ],
        "rows": rows,
        "totals": totals,
        "winners": [row["player"] for row in totals if complete and row["total"] == lowest],
        "complete": complete,
        "scored_deals": len(scored),
        "next_number": next_number,
        "findings": findings,
        "set_findings": set_findings,
        "errors": len(errors),
        "warnings": len(findings) - len(errors),
        "can_verify": complete and not errors and not game_set.is_verified,
        "rulings": rulings,
        "sheet": sheet,
    }


def _row(number: int, rules, names: Mapping[int, str], expected: int) -> dict[str, Any]:
    return {
        "number": number,
        "contract": rules.contract(number),
        "contract_text": rules.describe_contract(number),
        "deal_size": rules.deal_size(number),
        "dealer_expected": names.get(expected),
    }


def _placeholder(number, sequence, rules, names, position, seats) -> dict[str, Any]:
    return _row(number, rules, names, position) | {
        "deal": None,
        "sequence": sequence,
        "void": False,
        "placeholder": True,
        "dealer": names.get(position),
        "out": None,
        "doubled": False,
        "version": None,
        "findings": [],
        "cells": [
            {"entry_id": seat.entry_id, "player": seat.entry.player.name, "result": None} for seat in seats
        ],
    }


def _cell(seat: Seat, deal: Deal, result, running: int, names) -> dict[str, Any]:
    substitute = (
        seat.substitute.player.name
        if seat.substitute_id and deal.number >= (seat.substitute_from or 10)
        else None
    )
    cell = {
        "entry_id": seat.entry_id,
        "player": seat.entry.player.name,
        "played_by": substitute or seat.entry.player.name,
        "result": result,
        "out": deal.out_id == seat.entry_id,
        "total": running if result is not None else None,
    }
    for name in ("calls", "hand", "penalty", "total_written", "opened", "overcall"):
        cell[name] = getattr(result, name) if result is not None else None
    for name in ("contract_error", "other_points", "other_reason"):
        cell[name] = getattr(result, name) if result is not None else None
    return cell


# --- seating, players, tables -------------------------------------------------------------------


def round_seating(round: Round) -> list[dict[str, Any]]:
    """ "Where do I sit": every seated player's table and seat, sorted by name. One query.

    Rows: player, club, entry_id, table, seat, first_dealer (bool), substitute, substitute_from,
    withdrawn (bool).
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


def player_history(event: Event, player: Player | Entry) -> dict[str, Any]:
    """Every set and deal a player played in an event, their rulings and running totals. 5 queries.

    Keys: entry, player, sets (round, table, game_set, status, verified, corrected, overridden,
    total, won, deals: number, sequence, void, calls, hand, penalty, total, total_written, out,
    doubled, overcall, contract_error, other_points, other_reason), rulings, chart (label, total:
    the running total over all the player's deals in the event, in order), total.
    """
    entry_filter = {"pk": player.pk} if isinstance(player, Entry) else {"event": event, "player": player}
    entry = Entry.objects.select_related("player").get(**entry_filter)
    seats = list(
        Seat.objects.filter(entry=entry)
        .select_related("table__round", "table__game_set")
        .order_by("table__round__number", "table__number")
    )
    results = list(
        DealResult.objects.filter(entry=entry)
        .select_related("deal")
        .order_by("deal__game_set_id", "deal__sequence")
    )
    rulings = list(
        Ruling.objects.filter(entry=entry)
        .select_related("deal__game_set__table__round", "issued_by", "decided_by")
        .order_by("issued_at", "pk")
    )
    set_ids = [seat.table.game_set.pk for seat in seats]
    totals = (
        DealResult.objects.filter(deal__game_set_id__in=set_ids, deal__void=False)
        .order_by()
        .values("entry_id", set_id=F("deal__game_set_id"))
        .annotate(total=Sum("penalty"), deals=Max("deal__number"))
    )
    lowest: dict[int, int] = {}
    complete: dict[int, bool] = defaultdict(bool)
    for row in totals:
        lowest[row["set_id"]] = min(lowest.get(row["set_id"], row["total"]), row["total"])
    by_set: dict[int, list[DealResult]] = defaultdict(list)
    for result in results:
        by_set[result.deal.game_set_id].append(result)
    sets = []
    chart = []
    overall = 0
    for seat in seats:
        game_set = seat.table.game_set
        running = 0
        deals = []
        for result in by_set.get(game_set.pk, []):
            deal = result.deal
            if not deal.void:
                running += result.penalty
                overall += result.penalty
                chart.append(
                    {
                        "label": f"R{seat.table.round.number} D{deal.number}",
                        "round": seat.table.round.number,
                        "deal": deal.number,
                        "total": overall,
                    }
                )
            deals.append(
                {
                    "number": deal.number,
                    "sequence": deal.sequence,
                    "void": deal.void,
                    "calls": result.calls,
                    "hand": result.hand,
                    "penalty": result.penalty,
                    "total": running,
                    "total_written": result.total_written,
                    "out": deal.out_id == entry.pk,
                    "doubled": deal.doubled,
                    "overcall": result.overcall,
                    "contract_error": result.contract_error,
                    "other_points": result.other_points,
                    "other_reason": result.other_reason,
                }
            )
        scored = sum(1 for row in deals if not row["void"])
        complete[game_set.pk] = game_set.is_verified or scored >= DEALS_PER_SET
        sets.append(
            {
                "round": seat.table.round.number,
                "table": seat.table.number,
                "seat": seat.position,
                "game_set": game_set,
                "status": game_set.status,
                "verified": game_set.is_verified,
                "corrected": game_set.corrected_after_verification,
                "overridden": bool(game_set.override_reason),
                "total": running,
                "won": bool(deals) and complete[game_set.pk] and running == lowest.get(game_set.pk),
                "deals": deals,
            }
        )
    return {
        "entry": entry,
        "player": entry.player,
        "sets": sets,
        "rulings": rulings,
        "chart": chart,
        "total": overall,
    }


def _scoreddeals_of(table_ref: str = "pk") -> Subquery:
    """The number of scored (not void) deals in the set of the outer query's table."""
    deals = (
        Deal.objects.filter(game_set__table=OuterRef(table_ref), void=False)
        .order_by()
        .values("game_set")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(deals), 0)


def _table_rows(tables: QuerySet[Table], seats: QuerySet[Seat] | None) -> dict[int, list[dict[str, Any]]]:
    """Status rows of `tables` by round id, in table order: one query, a second for the players'
    names (clockwise) unless `seats` is None. Plain values, no model instances: a round has 256."""
    rows: dict[int, list[dict[str, Any]]] = defaultdict(list)
    by_table: dict[int, dict[str, Any]] = {}
    fetched = (
        tables.order_by("round_id", "number")
        .annotate(scored=_scoreddeals_of())
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
        )
    )
    for table_id, round_id, number, scored, *game_set in fetched:
        set_id, status, errors, warnings, corrected, override, updated = game_set
        row = {
            "table_id": table_id,
            "number": number,
            "game_set_id": set_id,
            "status": status,
            "scored": scored,
            "finished": scored >= DEALS_PER_SET,
            "verified": status == GameSet.Status.VERIFIED,
            "errors": errors or 0,
            "warnings": warnings or 0,
            "corrected": bool(corrected),
            "overridden": bool(override),
            "players": [],
            "updated_at": updated,
        }
        rows[round_id].append(row)
        by_table[table_id] = row
    if seats is not None:
        for table_id, name in seats.order_by("table_id", "position").values_list(
            "table_id", "entry__player__name"
        ):
            if table_id in by_table:
                by_table[table_id]["players"].append(name)
    return rows


def _round_status(rnd: Round, tables: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "round": rnd,
        "number": rnd.number,
        "seated": bool(tables),
        "tables": tables,
        "finished": sum(1 for row in tables if row["finished"]),
        "verified": sum(1 for row in tables if row["verified"]),
    }


def event_tables_status(event: Event) -> list[dict[str, Any]]:
    """Each round's tables and how far they are (the director's overview). Three queries.

    Returns rounds: round, number, seated, tables, finished, verified; each table: table_id, number,
    game_set_id, status, scored (deals), finished (9 scored), verified, errors, warnings (at the last
    change), corrected, overridden, players (names clockwise), updated_at. Public pages read one
    round (`round_tables_status`) or the counts alone (`round_summaries`).
    """
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    by_round = _table_rows(Table.objects.filter(round__event=event), Seat.objects.filter(round__event=event))
    return [_round_status(rnd, by_round.get(rnd.pk, [])) for rnd in rounds]


def round_tables_status(round: Round, *, players: bool = True) -> dict[str, Any]:
    """One round's tables and how far they are (round page, projector): keys as one round of
    `event_tables_status`. Two queries, one with `players=False` (then every `players` is empty)."""
    seats = Seat.objects.filter(round=round) if players else None
    return _round_status(round, _table_rows(Table.objects.filter(round=round), seats).get(round.pk, []))


def round_summaries(event: Event) -> list[dict[str, Any]]:
    """Each round's table counts, summed in the database (event page, projector). One query.

    Rows: round, number, seated, table_count, finished (tables with 9 scored deals), verified.
    """
    tables = Table.objects.filter(round=OuterRef("pk")).order_by()

    def count(of: QuerySet[Table]) -> Coalesce:
        return Coalesce(Subquery(of.values("round").annotate(n=Count("pk")).values("n")), 0)

    rounds = (
        Round.objects.filter(event=event)
        .annotate(
            table_count=count(tables),
            finished=count(tables.annotate(scored=_scoreddeals_of()).filter(scored__gte=DEALS_PER_SET)),
            verified=count(tables.filter(game_set__status=GameSet.Status.VERIFIED)),
        )
        .order_by("number")
    )
    return [
        {
            "round": rnd,
            "number": rnd.number,
            "seated": rnd.table_count > 0,
            "table_count": rnd.table_count,
            "finished": rnd.finished,
            "verified": rnd.verified,
        }
        for rnd in rounds
    ]


def audit_for_event(
    event: Event, *, action: str = "", object_type: str = "", username: str = ""
) -> QuerySet[AuditEntry]:
    """The event's audit log, newest first; filters match an action prefix, type or user."""
    entries = AuditEntry.objects.filter(event=event)
    if action:
        entries = entries.filter(action__startswith=action)
    if object_type:
        entries = entries.filter(object_type=object_type)
    if username:
        entries = entries.filter(username=username)
    return entries.select_related("user")


# --- live check of an unsaved deal --------------------------------------------------------------


def deal_preview(
    game_set: GameSet, *, data: Mapping[str, Any], sequence: int | None = None
) -> dict[str, Any]:
    """The set's findings with one unsaved deal in place — nothing is written (director entry, live).

    `data` is the deal as `services.deal_record` takes it; `sequence` the playing position of the deal
    being corrected (None: a new deal after the last). Penalties left blank are computed from the hand
    as `deal_record` would; running totals are summed over the scored deals up to this one. Raises
    ValidationError (keyed like `deal_record`'s) when the deal data cannot be read. Three queries.

    Keys: number, void, findings (all), here (this deal's), deal_findings (this deal, no player),
    player_findings ({name: [...]}), other_findings (other deals and the whole set, SET_INCOMPLETE
    left out), errors, warnings,
    players (player, computed: from the hand or the winner's 0 + infractions, else None; penalty: as it
    will count; total: running; total_written).
    """
    game_set = GameSet.objects.select_related("table__round__event").get(pk=game_set.pk)
    rules = game_set.table.round.event.ruleset()
    seats = seats_of(game_set)
    deals = deals_of(game_set)
    names = [seat.entry.player.name for seat in seats]
    editing = sequence is not None and 1 <= sequence <= len(deals)
    index = sequence - 1 if editing and sequence is not None else len(deals)
    clean = clean_deal(
        data, names, default_number=deals[index].number if editing else next_deal_number(deals)
    )
    row: dict[str, Any] = {"deal": clean.number}
    if clean.dealer:
        row["dealer"] = clean.dealer
    if clean.void:
        row["void"] = True
    row.update(out=clean.out, doubled=clean.doubled, results={})
    computed: dict[str, int | None] = {}
    for name, result in clean.results.items():
        item: dict[str, Any] = {"calls": result.calls}
        for key in ("hand", "total", "opened"):
            if getattr(result, key) is not None:
                item[key] = getattr(result, key)
        for key in ("overcall", "contract_error", "other_points", "other_reason"):
            if getattr(result, key):
                item[key] = getattr(result, key)
        try:
            computed[name] = computed_penalty(rules, clean, name, result, f"results.{name}")
        except ValidationError:
            computed[name] = None
        penalty = result.penalty if result.penalty is not None else computed[name]
        if penalty is not None:
            item["penalty"] = penalty
        row["results"][name] = item
    sheet = sheet_from_rows(game_set, seats, deals)
    sheet["deals"][index : (index + 1 if editing else index)] = [row]
    try:
        findings = findings_for_set(game_set, sheet=sheet)
    except SheetError as exc:
        raise ValidationError({getattr(exc, "path", "") or "deal": [str(exc)]}) from None
    running = dict.fromkeys(names, 0)
    for played in sheet["deals"][: index + 1]:
        if not played.get("void"):
            for name, result in played.get("results", {}).items():
                running[name] += result.get("penalty") or 0
    here = [finding for finding in findings if finding.deal == clean.number]
    errors = sum(1 for finding in findings if finding.severity == "error")
    return {
        "number": clean.number,
        "void": clean.void,
        "findings": findings,
        "here": here,
        "deal_findings": [finding for finding in here if not finding.player],
        "player_findings": {name: [finding for finding in here if finding.player == name] for name in names},
        "other_findings": [
            finding
            for finding in findings
            if finding.deal != clean.number and finding.code != "SET_INCOMPLETE"
        ],
        "errors": errors,
        "warnings": len(findings) - errors,
        "players": [
            {
                "player": name,
                "computed": computed.get(name),
                "penalty": row["results"].get(name, {}).get("penalty"),
                "total": running[name] if name in row["results"] and not clean.void else None,
                "total_written": row["results"].get(name, {}).get("total"),
            }
            for name in names
        ],
    }
