"""The reads behind a British Kalooki table's printed sheet: blank (players, first dealer, the limit and
buy-in boxes, the card values, hand rows that run on) or completed (every hand, the running totals and
buy-ins, the finishing order, verification). A fixed number of queries whatever the round's size: the
tables, their seats, and for completed sheets their hands and results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Prefetch

from ..games import GameOfHands
from ..models import Deal, DealResult, Seat, Table
from ..printing.pdf_data import EventHeader, SheetPlayer, StandingsSheet, standings_from_rows
from .british_games import GamePage, game_page_from_rows
from .british_standings import british_standings
from .door import masked_rows, public_names
from .printed import event_header
from .standings_scope import standings_scope

__all__ = [
    "BLANK_HANDS",
    "BritishPrintedSheet",
    "british_round_sheets",
    "british_standings_sheet",
    "british_table_sheet",
]

# A blank game sheet's hand rows: two portrait pages; a longer game goes on to a further sheet.
BLANK_HANDS = 40


@dataclass(frozen=True)
class BritishPrintedSheet:
    """A game of hands' printed sheet: a British game's limit and buy-in boxes, or a North American
    game's number of hands and hand size (the event's `game` says which)."""

    event: EventHeader
    ruleset: str
    rules: Any
    game: GameOfHands
    round_number: int
    table_number: int
    players: tuple[SheetPlayer, ...]
    first_dealer: str
    completed: bool = False
    page: GamePage | None = None
    verified: bool = False
    verified_by: str = ""
    verified_at: datetime | None = None
    override_reason: str = ""

    @property
    def title(self) -> str:
        return f"{self.event.name} · Round {self.round_number} · Table {self.table_number}"

    @property
    def blank_rows(self) -> range:
        # A North American game has its hands, and a spare row or two for void hands (B8).
        hands = getattr(self.rules, "hands", None) if self.game.collects else None
        return range(1, (hands + 2 if hands else BLANK_HANDS) + 1)

    @property
    def hand_size(self) -> int | None:
        """The cards each player is dealt at this table (NA1: by the number of players)."""
        size_for = getattr(self.rules, "hand_size_for", None)
        return size_for(len(self.players)) if size_for else None

    @property
    def card_key(self) -> tuple[tuple[str, int], ...]:
        values = self.rules.card_values
        return (("Ace", values.black_ace), ("K Q J 10", values.ten_to_king), ("Joker", values.joker))

    @property
    def buy_in_boxes(self) -> range:
        return range(1, (self.rules.buy_ins if self.game.buy_ins else 0) + 1)


def _username(user) -> str:
    return user.get_full_name() or user.get_username()


def british_round_sheets(
    round_, tables: Sequence[Table] | None = None, *, completed: bool
) -> list[BritishPrintedSheet]:
    """Every British table's sheet of a round in table order: 2 queries blank, 4 completed."""
    event = round_.event
    if not isinstance(event.game, GameOfHands):
        raise TypeError(f"{event} plays sets of deals, not games of hands")
    rules = event.ruleset()
    game = event.game
    if tables is None:
        tables = list(
            Table.objects.filter(round=round_).select_related("game_set__verified_by").order_by("number")
        )
    header = event_header(event)
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table__in=[table.pk for table in tables])
        .select_related("entry__player", "substitute__player")
        .order_by("position")
    ):
        seats[seat.table_id].append(seat)
    deals: dict[int, list[Deal]] = defaultdict(list)
    if completed:
        for deal in (
            Deal.objects.filter(game_set__table__in=[table.pk for table in tables])
            .select_related("out__player")
            .prefetch_related(
                Prefetch("results", queryset=DealResult.objects.select_related("entry__player"))
            )
            .order_by("sequence")
        ):
            deals[deal.game_set_id].append(deal)
    sheets = []
    for table in tables:
        table.round = round_
        at_table = seats[table.pk]
        players = tuple(
            SheetPlayer(
                position=seat.position,
                name=seat.entry.player.name,
                club=seat.entry.player.club,
                substitute=seat.substitute.player.name if seat.substitute_id else "",
                substitute_from=seat.substitute_from,
            )
            for seat in at_table
        )
        first = next((player.name for player in players if player.position == table.first_dealer), "")
        game_set = getattr(table, "game_set", None)
        page = None
        if completed and game_set is not None:
            game_set.table = table
            page = game_page_from_rows(game_set, at_table, deals[game_set.pk])
        sheets.append(
            BritishPrintedSheet(
                event=header,
                ruleset=event.ruleset_preset,
                rules=rules,
                game=game,
                round_number=round_.number,
                table_number=table.number,
                players=players,
                first_dealer=first,
                completed=completed,
                page=page,
                verified=bool(game_set and game_set.is_verified),
                verified_by=_username(game_set.verified_by) if game_set and game_set.verified_by_id else "",
                verified_at=game_set.verified_at if game_set else None,
                override_reason=game_set.override_reason if game_set else "",
            )
        )
    return sheets


def british_table_sheet(table, *, completed: bool) -> BritishPrintedSheet:
    """One British table's sheet (a fixed number of queries)."""
    table = Table.objects.select_related("round__event", "game_set__verified_by").get(pk=table.pk)
    return british_round_sheets(table.round, [table], completed=completed)[0]


def british_standings_sheet(
    event, *, round_number: int | None = None, provisional: bool = False
) -> StandingsSheet:
    """A British event's standings as printed (placement points or knock-out rows)."""
    rows = british_standings(event, round_number=round_number, provisional=provisional, with_ids=True)
    scope = standings_scope(event, round_number=round_number, provisional=provisional)
    return standings_from_rows(
        event=event_header(event),
        # Printed lists are public: a player without consent is "Player <entry number>" (issue 26).
        rows=masked_rows(rows, public_names(event)),
        round_number=round_number,
        provisional=provisional,
        knockout=event.is_knockout,
        heading=scope.heading(),
        notes=scope.notes_with_finality(),
    )
