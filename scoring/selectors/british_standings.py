"""British Kalooki standings: placement points and knock-out rows (SCORESHEET.md, "A British Kalooki game
sheet"), in the same three views as the Jamaican standings (official = closed rounds; one round's
verified games; provisional = every game with a scored hand).

A British table's result is its finishing order (BV8, the engine's `finishing_order`; a game the
director ended: `ended_game_order`). Four queries whatever the event's size — the counted games, their
seats, their hands and the hands' results — then one pass in Python per game.

- **placement**: each game gives points by place (`event.placement_points`, first place first; absent,
  a table of n gives n − 1, n − 2 … 0; shared places share the points of the places they cover). Rows:
  place, shared, player, club, points, games, games_won, penalty (every hand's penalty as scored, before
  resets); order: more points, more games won, lower penalty, then shared (listed by name).
- **knockout**: rows add round_reached and game_place (the place in the game of the round reached) and
  rank by round reached (higher first), then that game's place, then that game's penalties (lower first).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from ..games import Placing, game_of
from ..models import Deal, DealResult, Event, GameSet, Round, Seat
from .british_games import british_sheet_of, game_of_set

__all__ = [
    "BRITISH_KNOCKOUT_FIELDS",
    "COLLECTED_KNOCKOUT_FIELDS",
    "COLLECTED_PLACEMENT_FIELDS",
    "PLACEMENT_FIELDS",
    "GameResult",
    "KnockoutCut",
    "british_game_results",
    "british_knockout_cuts",
    "british_places",
    "british_standings",
    "games_with_orders",
    "placement_points",
]

PLACEMENT_FIELDS = ("place", "shared", "player", "club", "points", "games", "games_won", "penalty")
BRITISH_KNOCKOUT_FIELDS = (*PLACEMENT_FIELDS, "round_reached", "game_place")
# A North American game's rows: what each player collected in place of the penalty paid (NA6).
COLLECTED_PLACEMENT_FIELDS = (*PLACEMENT_FIELDS[:-1], "collected")
COLLECTED_KNOCKOUT_FIELDS = (*COLLECTED_PLACEMENT_FIELDS, "round_reached", "game_place")


@dataclass(frozen=True, slots=True)
class GameResult:
    """One counted game: where it was played and its finishing order (entry ids by player name)."""

    game_set_id: int
    round_number: int
    table_number: int
    over: bool
    finished: bool  # over, or verified (a game the director ended): its first place has won
    order: tuple[Placing, ...]
    entries: dict[str, int]


def placement_points(points: Sequence[float], place: int, shared: int, players: int) -> float:
    """The points of `place` shared by `shared` players at a table of `players` (SCORESHEET.md).

    >>> placement_points([], 1, 1, 4), placement_points([], 2, 2, 4), placement_points([5, 3, 1], 4, 1, 4)
    (3, 1.5, 0)
    """
    table = list(points) if points else list(range(players - 1, -1, -1))
    covered = [
        Fraction(table[index]) if index < len(table) else Fraction(0)
        for index in range(place - 1, place - 1 + shared)
    ]
    value = sum(covered, Fraction(0)) / shared
    return int(value) if value.denominator == 1 else round(float(value), 2)


def _counted(
    event: Event, *, round_number: int | None, provisional: bool, final_only: bool = False
) -> QuerySet[GameSet]:
    games = GameSet.objects.filter(table__round__event=event)
    if round_number is not None:
        games = games.filter(table__round__number=round_number)
    if provisional:
        return games.filter(deals__void=False).distinct()
    if round_number is None:
        # Rounds 1…N, every one closed (as recorded when its last game was verified); a closed round's
        # game reopened for a correction keeps counting as it stands, as in the Jamaican standings.
        not_counted = Q(closed_at__isnull=True)
        if final_only:
            # A season counts final results only (issue 21): a round in its correction period waits.
            not_counted |= Q(final_at__isnull=True) | Q(final_at__gt=timezone.now())
        open_so_far = Round.objects.filter(
            not_counted,
            event=event,
            number__lte=OuterRef("table__round__number"),
            tables__isnull=False,
        )
        return games.filter(~Exists(open_so_far))
    return games.filter(Q(status=GameSet.Status.VERIFIED) | Q(table__round__closed_at__isnull=False))


def british_game_results(
    event: Event, *, round_number: int | None = None, provisional: bool = False, final_only: bool = False
) -> list[GameResult]:
    """The counted games of `event` with their finishing orders. Four queries (five with the closed
    rounds' check); `final_only`: the official view over final rounds alone."""
    return games_with_orders(
        _counted(event, round_number=round_number, provisional=provisional, final_only=final_only)
    )


def games_with_orders(games_read: QuerySet[GameSet]) -> list[GameResult]:
    """Each game of `games_read` with a scored hand, with its finishing order, in round and table order
    (any number of events). Three queries and the games'."""
    games = list(
        games_read.select_related("table__round__event").order_by("table__round__number", "table__number")
    )
    table_ids = [game.table_id for game in games]
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table_id__in=table_ids)
        .select_related("entry__player", "substitute__player")
        .order_by("position")
    ):
        seats[seat.table_id].append(seat)
    deals: dict[int, list[Deal]] = defaultdict(list)
    for deal in (
        Deal.objects.filter(game_set__in=[game.pk for game in games])
        .select_related("out__player")
        .prefetch_related(Prefetch("results", queryset=DealResult.objects.select_related("entry__player")))
        .order_by("sequence")
    ):
        deals[deal.game_set_id].append(deal)
    results = []
    for game in games:
        kind = game_of_set(game)
        sheet = british_sheet_of(game, seats[game.table_id], deals[game.pk])
        state = kind.engine_state(sheet)
        if not state.hands:
            continue
        results.append(
            GameResult(
                game_set_id=game.pk,
                round_number=game.table.round.number,
                table_number=game.table.number,
                over=state.over,
                finished=state.over or game.is_verified,
                order=kind.order(sheet, verified=game.is_verified),
                entries={seat.entry.player.name: seat.entry_id for seat in seats[game.table_id]},
            )
        )
    return results


def british_places(games: QuerySet[GameSet]) -> dict[tuple[int, int], int]:
    """(game id, entry id) → the entry's place in that game's finishing order (the ratings' ranks)."""
    return {
        (game.game_set_id, game.entries[item.player]): item.place
        for game in games_with_orders(games)
        for item in game.order
    }


def british_standings(
    event: Event,
    *,
    round_number: int | None = None,
    provisional: bool = False,
    with_ids: bool = False,
    final_only: bool = False,
) -> list[dict[str, Any]]:
    """The standings of an event of games of hands, best first (placement or knock-out rows, see the
    module). A North American game's rows add up what each player `collected` (more being better, NA6)
    where a British game's add up the `penalty` paid."""
    knockout = event.is_knockout
    collects = game_of(event).collects
    # The figure the rows add up, and its sign in the ordering (lower penalty, higher collected first).
    figure, sign = ("collected", -1) if collects else ("penalty", 1)
    games = british_game_results(
        event, round_number=round_number, provisional=provisional, final_only=final_only
    )
    who = {
        pk: (club, player_id)
        for pk, club, player_id in event.entries.values_list("pk", "player__club", "player_id")
    }
    stats: dict[int, dict[str, Any]] = {}
    for game in games:
        sharing = Counter(item.place for item in game.order)
        for item in game.order:
            entry_id = game.entries[item.player]
            row = stats.setdefault(
                entry_id,
                {"player": item.player, "points": 0, "games": 0, "games_won": 0, figure: 0,
                 "round_reached": 0, "game_place": 0, "game_figure": 0},
            )  # fmt: skip
            row["points"] += placement_points(
                event.placement_points, item.place, sharing[item.place], len(game.order)
            )
            row["games"] += 1
            row["games_won"] += int(item.place == 1 and game.finished)
            amount = item.total if collects else item.penalty
            row[figure] += amount
            if game.round_number >= row["round_reached"]:
                row["round_reached"], row["game_place"], row["game_figure"] = (
                    game.round_number,
                    item.place,
                    amount,
                )

    def key(entry_id: int) -> tuple[Any, ...]:
        row = stats[entry_id]
        if knockout:
            return (-row["round_reached"], row["game_place"], sign * row["game_figure"])
        return (-row["points"], -row["games_won"], sign * row[figure])

    ordered = sorted(stats, key=lambda entry_id: (key(entry_id), stats[entry_id]["player"].casefold()))
    rows: list[dict[str, Any]] = []
    for index, entry_id in enumerate(ordered):
        row = stats[entry_id]
        previous = ordered[index - 1] if index else None
        place = rows[-1]["place"] if previous is not None and key(previous) == key(entry_id) else index + 1
        out: dict[str, Any] = {
            "place": place,
            "shared": False,
            "player": row["player"],
            "club": who[entry_id][0],
        }
        out.update({name: row[name] for name in ("points", "games", "games_won", figure)})
        if knockout:
            out.update(round_reached=row["round_reached"], game_place=row["game_place"])
        if with_ids:
            out.update(entry_id=entry_id, player_id=who[entry_id][1])
        rows.append(out)
    at_place = Counter(row["place"] for row in rows)
    for row in rows:
        row["shared"] = at_place[row["place"]] > 1
    return rows


@dataclass(frozen=True, slots=True)
class KnockoutCut:
    """Who goes through from one British game of a knock-out round: `through` for sure (best first),
    and, when players the finishing order and the game's penalties cannot separate straddle the cut,
    `tied` of whom `places` more go through — by a lot the service draws and records."""

    game_set_id: int
    table_number: int
    through: tuple[int, ...]
    tied: tuple[int, ...] = ()
    places: int = 0


def british_knockout_cuts(event: Event, *, round_number: int) -> list[KnockoutCut]:
    """Each verified game of `round_number`: the first `event.advance` of its finishing order go through;
    a tie at the cut is broken by the lower sum of that game's penalties, then by lot (SCORESHEET.md)."""
    games = games_with_orders(
        GameSet.objects.filter(
            table__round__event=event, table__round__number=round_number, status=GameSet.Status.VERIFIED
        )
    )
    advance = event.advance or 1
    cuts = []
    for game in games:
        ranked = sorted(game.order, key=lambda item: (item.place, item.penalty, item.player.casefold()))
        key = {item.player: (item.place, item.penalty) for item in ranked}
        if len(ranked) <= advance:
            cuts.append(
                KnockoutCut(
                    game.game_set_id, game.table_number, tuple(game.entries[i.player] for i in ranked)
                )
            )
            continue
        edge = key[ranked[advance - 1].player]
        sure = [item for item in ranked if key[item.player] < edge]
        tied = [item for item in ranked if key[item.player] == edge]
        ids = [game.entries[item.player] for item in (*sure, *tied)]
        if len(ids) == advance:
            cuts.append(KnockoutCut(game.game_set_id, game.table_number, tuple(ids)))
        else:
            cuts.append(
                KnockoutCut(
                    game.game_set_id,
                    game.table_number,
                    through=tuple(ids[: len(sure)]),
                    tied=tuple(ids[len(sure) :]),
                    places=advance - len(sure),
                )
            )
    return cuts
