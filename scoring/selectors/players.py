"""A player's night: every set and deal they played in an event, their rulings, running totals."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import F, Max, Sum

from adjudication.engine.rules import DEALS_PER_SET
from adjudication.models import Ruling

from ..models import DealResult, Entry, Event, GameSet, Player, Seat


@dataclass(frozen=True)
class PlayedDeal:
    """One of the player's deals; `total` is their running total in the set."""

    number: int
    sequence: int
    void: bool
    calls: int
    hand: str | None
    penalty: int
    total: int
    total_written: int | None
    out: bool
    doubled: bool
    overcall: bool
    contract_error: bool
    other_points: int
    other_reason: str


@dataclass(frozen=True)
class PlayedSet:
    round: int
    table: int
    seat: int
    game_set: GameSet
    status: str
    verified: bool
    corrected: bool
    overridden: bool
    total: int
    won: bool
    deals: list[PlayedDeal]


@dataclass(frozen=True)
class ChartPoint:
    """The running total over all the player's deals in the event, in order."""

    label: str
    round: int
    deal: int
    total: int


@dataclass(frozen=True)
class PlayerHistory:
    entry: Entry
    player: Player
    sets: list[PlayedSet]
    rulings: list[Ruling]
    chart: list[ChartPoint]
    total: int


def _played_deal(result: DealResult, *, running: int, went_out: bool) -> PlayedDeal:
    deal = result.deal
    return PlayedDeal(
        number=deal.number,
        sequence=deal.sequence,
        void=deal.void,
        calls=result.calls,
        hand=result.hand,
        penalty=result.penalty,
        total=running,
        total_written=result.total_written,
        out=went_out,
        doubled=deal.doubled,
        overcall=result.overcall,
        contract_error=result.contract_error,
        other_points=result.other_points,
        other_reason=result.other_reason,
    )


def player_history(event: Event, player: Player | Entry) -> PlayerHistory:
    """Every set and deal a player played in an event, their rulings and running totals. 5 queries."""
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
        number = seat.table.round.number
        running = 0
        deals = []
        for result in by_set.get(game_set.pk, []):
            deal = result.deal
            if not deal.void:
                running += result.penalty
                overall += result.penalty
                chart.append(ChartPoint(f"R{number} D{deal.number}", number, deal.number, overall))
            deals.append(_played_deal(result, running=running, went_out=deal.out_id == entry.pk))
        scored = sum(1 for row in deals if not row.void)
        complete = game_set.is_verified or scored >= DEALS_PER_SET
        sets.append(
            PlayedSet(
                round=number,
                table=seat.table.number,
                seat=seat.position,
                game_set=game_set,
                status=game_set.status,
                verified=game_set.is_verified,
                corrected=game_set.corrected_after_verification,
                overridden=bool(game_set.override_reason),
                total=running,
                won=bool(deals) and complete and running == lowest.get(game_set.pk),
                deals=deals,
            )
        )
    return PlayerHistory(
        entry=entry, player=entry.player, sets=sets, rulings=rulings, chart=chart, total=overall
    )
