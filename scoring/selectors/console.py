"""The director's console: one round's tables at a glance, each in one state, and how many results wait
for the director. Four queries whatever the round's size (the tables, their players, the tables' entries
from phones, the next round)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef

from ..models import Round, SelfEntryDeal, Table
from .tables import TableStatus, round_tables_status

# A table's state on the console, in the order the director deals with them.
SETTLE = "settle"
CONFIRM = "confirm"
VERIFY = "verify"
PLAYING = "playing"
VERIFIED = "verified"

STATE_WORDS: dict[str, str] = {
    SETTLE: "Findings to settle",
    CONFIRM: "Waiting for confirmation",
    VERIFY: "Ready to verify",
    PLAYING: "Playing",
    VERIFIED: "Verified",
}
STATES = tuple(STATE_WORDS)


@dataclass(frozen=True)
class ConsoleTable:
    """One table as the console shows it: its state, how far it is, and what waits at it."""

    status: TableStatus
    state: str
    # Deals entered on a phone waiting for another seat, and those waiting for the director.
    at_table: int
    for_director: int

    @property
    def number(self) -> int:
        return self.status.number

    @property
    def state_text(self) -> str:
        return STATE_WORDS[self.state]

    @property
    def waiting(self) -> int:
        """Results at this table waiting for the director: its queued phone entries, and the set itself
        when it is to settle or to verify."""
        return self.for_director + (1 if self.state in (SETTLE, VERIFY) else 0)


@dataclass(frozen=True)
class NextRound:
    number: int
    exists: bool
    seated: bool
    published: bool


@dataclass(frozen=True)
class Console:
    round: Round
    tables: list[ConsoleTable]
    counts: dict[str, int]
    waiting: int
    complete: bool
    next_round: NextRound

    @property
    def states(self) -> list[tuple[str, str, int]]:
        """(state, words, tables in it) in the console's order."""
        return [(state, STATE_WORDS[state], self.counts.get(state, 0)) for state in STATES]


def table_state(status: TableStatus, *, at_table: int, for_director: int) -> str:
    """The one state a table shows: a verified set is done; findings to settle (errors, or a set
    reopened) come first, then a deal entered at the table that waits for a seat or the director, then
    a set played to its end (ready to verify); otherwise it is still playing."""
    if status.verified:
        return VERIFIED
    if status.errors or status.corrected:
        return SETTLE
    if at_table or for_director:
        return CONFIRM
    if status.finished:
        return VERIFY
    return PLAYING


def round_console(round: Round) -> Console:
    """The console of `round` (seated or not: a round not seated has no table)."""
    status = round_tables_status(round)
    pending = Counter()
    entries = (
        SelfEntryDeal.objects.filter(
            game_set__table__round=round,
            status__in=(SelfEntryDeal.Status.WAITING, SelfEntryDeal.Status.QUEUED),
        )
        .order_by()
        .values("game_set_id", "status")
        .annotate(n=Count("pk"))
        .values_list("game_set_id", "status", "n")
    )
    for game_set_id, entry_status, n in entries:
        pending[(game_set_id, entry_status)] = n
    tables = []
    for row in status.tables:
        at_table = pending[(row.game_set_id, SelfEntryDeal.Status.WAITING)]
        for_director = pending[(row.game_set_id, SelfEntryDeal.Status.QUEUED)]
        state = table_state(row, at_table=at_table, for_director=for_director)
        tables.append(ConsoleTable(status=row, state=state, at_table=at_table, for_director=for_director))
    counts = Counter(table.state for table in tables)
    following = (
        Round.objects.filter(event_id=round.event_id, number=round.number + 1)
        .annotate(seated=Exists(Table.objects.filter(round=OuterRef("pk"))))
        .values_list("seated", "published_at")
        .first()
    )
    return Console(
        round=round,
        tables=tables,
        counts=dict(counts),
        waiting=sum(table.waiting for table in tables),
        complete=bool(tables) and counts[VERIFIED] == len(tables),
        next_round=NextRound(
            number=round.number + 1,
            exists=following is not None,
            seated=bool(following and following[0]),
            published=bool(following and following[0] and following[1]),
        ),
    )
