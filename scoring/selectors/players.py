"""A player's night: every set and deal they played in an event, their rulings, running totals.

`player_history` is a set of nine deals' page (a total per set); `player_games` a game of hands' page
(each game's hands as the game had them: buy-ins and their reset values, when the player went out, the
finishing order and its points). The view chooses by `event.game.of_hands`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db.models import F, Max, Prefetch, Sum

from adjudication.engine.findings import Finding
from adjudication.engine.rules import DEALS_PER_SET
from adjudication.models import Ruling

from ..models import Deal, DealResult, Entry, Event, GameSet, Player, Seat
from .british_games import GameCell, GamePage, GameRow, game_page_from_rows
from .british_standings import placement_points
from .door import EVERY_NAME, ShownNames, shown_ruling
from .publication import public_rounds


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


def _played_deal(result: DealResult, *, running: int, went_out: bool, shown: ShownNames) -> PlayedDeal:
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
        other_reason=shown.text(result.other_reason),  # a ruling's reason may name a player (issue 26)
    )


def _entry_of(event: Event, player: Player | Entry) -> Entry:
    entry_filter = {"pk": player.pk} if isinstance(player, Entry) else {"event": event, "player": player}
    return Entry.objects.select_related("player").get(**entry_filter)


def _rulings_of(entry: Entry, shown: ShownNames) -> list[Ruling]:
    """The rulings on `entry`, oldest first, each with the words its page prints (`shown_ruling`). One
    query."""
    return [
        shown_ruling(ruling, shown)
        for ruling in Ruling.objects.filter(entry=entry)
        .select_related("entry__player", "deal__game_set__table__round", "issued_by", "decided_by")
        .order_by("issued_at", "pk")
    ]


def player_history(event: Event, player: Player | Entry, shown: ShownNames = EVERY_NAME) -> PlayerHistory:
    """Every set and deal a player played in an event, their rulings and running totals. 5 queries.
    `shown`: the names a public page shows instead (issue 26), in the rulings' texts."""
    entry = _entry_of(event, player)
    seats = list(
        # A round seated but not published is its directors' alone: not on the player's page yet.
        Seat.objects.filter(public_rounds("round__"), entry=entry)
        .select_related("table__round", "table__game_set")
        .order_by("table__round__number", "table__number")
    )
    results = list(
        DealResult.objects.filter(entry=entry)
        .select_related("deal")
        .order_by("deal__game_set_id", "deal__sequence")
    )
    rulings = _rulings_of(entry, shown)
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
            deals.append(_played_deal(result, running=running, went_out=deal.out_id == entry.pk, shown=shown))
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


# --- a game of hands ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedHand:
    """One hand of a game as the player had it. `total` is the running total the game had after it (a
    buy-in's reset value, B7); `before_reset` the total the hand made, over the limit, before that reset
    (as stored: the paper's, or the one the service filled in); `went_out` says the player left the game
    in this hand (over the limit without a buy-in, BV6), `won` that they went out first (won the hand)."""

    number: int
    sequence: int
    void: bool
    won: bool
    kalookie: bool
    hand: str | None
    penalty: int | None
    total: int | None
    before_reset: int | None
    buy_in: bool
    buy_in_number: int  # the player's first, second … buy-in of the game; 0 without one
    reset_to: int | None
    went_out: bool
    findings: tuple[Finding, ...]


@dataclass(frozen=True)
class GamePlace:
    """One row of a game's finishing order (BV8) with the placement points it gives."""

    place: int
    shared: bool
    player: str
    total: int
    out_in: int | None
    buy_ins: int
    points: float
    me: bool


@dataclass(frozen=True)
class PlayedGame:
    """One game the player sat in, with their hands (up to the one they went out in), where they
    finished and the points that place gives (so far, while the game runs)."""

    round: int
    table: int
    seat: int
    game_set: GameSet
    status: str
    verified: bool
    corrected: bool
    overridden: bool
    ended: bool  # verified while still running: ended by the director
    over: bool
    finished: bool  # over, or verified: the places stand
    game_hands: int  # the game's scored hands, the player's or not
    hands: list[PlayedHand]
    cards_shown: bool  # a hand of the player's has its cards left written
    total: int
    limit: int | None  # over it a player is out unless they buy in (B7); None for a game without one
    buy_ins_allowed: int
    buy_ins: int
    buy_ins_left: int
    out_in: int | None
    place: int | None
    shared: bool
    points: float | None
    winner: str | None
    order: list[GamePlace]


@dataclass(frozen=True)
class PlayerGames:
    entry: Entry
    player: Player
    games: list[PlayedGame]
    rulings: list[Ruling]
    chart: list[ChartPoint]
    points: float  # placement points over every game with a scored hand (verified or not)


def _row_findings(page: GamePage, number: int, name: str) -> tuple[Finding, ...]:
    return tuple(f for f in page.findings if f.deal == number and f.player in (name, None))


def _played_hands(page: GamePage, name: str, index: int) -> list[PlayedHand]:
    """The player's hands from the game's rows (the selector's cells, not computed again), up to and with
    the one they went out in; a void hand while they are in shows as void."""
    hands = []
    buy_ins = 0
    for row in page.rows:
        cell: GameCell = row.cells[index]
        if not cell.played and not row.void:
            continue
        buy_ins += int(cell.buy_in)
        hands.append(_played_hand(page, row, cell, name, buy_ins))
        if cell.went_out:
            break
    return hands


def _played_hand(page: GamePage, row: GameRow, cell: GameCell, name: str, buy_ins: int) -> PlayedHand:
    return PlayedHand(
        number=row.number,
        sequence=row.sequence,
        void=row.void,
        won=not row.void and row.out == name,
        kalookie=row.kalookie,
        hand=cell.hand,
        penalty=cell.penalty,
        total=cell.total,
        before_reset=cell.before_reset,
        buy_in=cell.buy_in,
        buy_in_number=buy_ins if cell.buy_in else 0,
        reset_to=cell.reset_to,
        went_out=cell.went_out,
        findings=_row_findings(page, row.number, name) if not row.void else (),
    )


def _played_game(event: Event, seat: Seat, page: GamePage, name: str) -> PlayedGame:
    game_set = page.game_set
    sharing = Counter(item.place for item in page.order)
    order = [
        GamePlace(
            place=item.place,
            shared=item.shared,
            player=item.player,
            total=item.total,
            out_in=item.out_in,
            buy_ins=item.buy_ins,
            points=placement_points(event.placement_points, item.place, sharing[item.place], len(page.order)),
            me=item.player == name,
        )
        for item in page.order
    ]
    mine = next((item for item in order if item.me), None)
    index = next(number for number, seat_row in enumerate(page.seats) if seat_row.player == name)
    seat_row = page.seats[index]
    hands = _played_hands(page, name, index)
    return PlayedGame(
        round=page.round,
        table=page.table,
        seat=seat.position,
        game_set=game_set,
        status=game_set.status,
        verified=game_set.is_verified,
        corrected=game_set.corrected_after_verification,
        overridden=bool(game_set.override_reason),
        ended=page.ended,
        over=page.state.over,
        finished=page.state.over or game_set.is_verified,
        game_hands=page.state.hands,
        hands=hands,
        cards_shown=any(hand.hand is not None for hand in hands),
        total=seat_row.total,
        limit=getattr(page.rules, "limit", None),
        buy_ins_allowed=getattr(page.rules, "buy_ins", 0),
        buy_ins=seat_row.buy_ins,
        buy_ins_left=seat_row.buy_ins_left,
        out_in=seat_row.out_in,
        place=mine.place if mine else None,
        shared=mine.shared if mine else False,
        points=mine.points if mine else None,
        winner=page.state.winner,
        order=order,
    )


def player_games(event: Event, player: Player | Entry, shown: ShownNames = EVERY_NAME) -> PlayerGames:
    """Every game of hands a player sat in, hand by hand as each game had it, their place and points in
    each, and their rulings. Five queries whatever the event's size (four when the game has no rulings):
    the entry, their seats, the seats of those tables, the hands, the hands' results — then each game
    is read by `game_page_from_rows`, which follows the game (buy-ins, who is out, the finishing order).
    `shown`: the players a public page names "Player <entry number>" (issue 26), this one included."""
    entry = _entry_of(event, player)
    name = shown.of(entry.pk, entry.player.name)
    seats = [
        seat
        for seat in Seat.objects.filter(public_rounds("round__"), entry=entry)
        .select_related("table__round__event", "table__game_set")
        .order_by("table__round__number", "table__number")
        if hasattr(seat.table, "game_set")
    ]
    table_ids = [seat.table_id for seat in seats]
    at_table: dict[int, list[Seat]] = defaultdict(list)
    for other in (
        Seat.objects.filter(table_id__in=table_ids)
        .select_related("entry__player", "substitute__player")
        .order_by("position")
    ):
        at_table[other.table_id].append(other)
    hands: dict[int, list[Deal]] = defaultdict(list)
    for deal in (
        Deal.objects.filter(game_set__table_id__in=table_ids)
        .select_related("out__player")
        .prefetch_related(Prefetch("results", queryset=DealResult.objects.select_related("entry__player")))
        .order_by("sequence")
    ):
        hands[deal.game_set_id].append(deal)
    rulings = _rulings_of(entry, shown) if event.game.rulings else []
    games = []
    chart = []
    for seat in seats:
        game_set = seat.table.game_set
        page = game_page_from_rows(game_set, at_table[seat.table_id], hands[game_set.pk], shown)
        played = _played_game(event, seat, page, name)
        games.append(played)
        chart.extend(
            ChartPoint(f"R{played.round} H{hand.number}", played.round, hand.number, hand.total)
            for hand in played.hands
            if not hand.void and hand.total is not None
        )
    points = sum(game.points for game in games if game.points is not None and game.game_hands)
    return PlayerGames(
        entry=entry, player=entry.player, games=games, rulings=rulings, chart=chart, points=points
    )
