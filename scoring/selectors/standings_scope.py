"""What a standings view counts and how it says so (SCORESHEET.md "Standings as data").

Three views: **official, all rounds** — rounds 1…N, where every seated round up to N has closed (its
last seated table verified; `scoring.services.closing`); **official, one round** — that round's
verified sets, closed or not; **provisional** — every set with a scored deal, "if every table
stopped now". A round, once closed, stays closed: a set of it reopened for a correction keeps
counting with its entries as they stand and is "being corrected" on every view until verified again.

`standings_scope` reads the event's tables once (one query) and says which rounds count, how far each
open round is and which sets are being corrected; pages, PDFs, the projector, the exports and the
`standings` command print its words.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Case, Count, F, IntegerField, Q, QuerySet, When
from django.utils import timezone

from ..models import Event, GameSet, Table
from .publication import public_rounds

OFFICIAL = "official"
ROUND = "round"
PROVISIONAL = "provisional"


def clock_words(moment: datetime, now: datetime) -> str:
    """'21:30', or '7 Dec, 21:30' when it is not today (local time)."""
    local = timezone.localtime(moment)
    if local.date() == timezone.localtime(now).date():
        return f"{local:%H:%M}"
    return f"{local.day} {local:%b}, {local:%H:%M}"


@dataclass(frozen=True)
class RoundProgress:
    """A seated round: its tables, how many are verified, whether it has closed; when a closed round
    becomes final (`final_at`; None while an appeal or a correction holds it) and whether it was
    corrected after that."""

    number: int
    tables: int
    verified: int
    closed: bool
    final_at: datetime | None = None
    corrected_after_final: bool = False

    def is_final(self, now: datetime) -> bool:
        return self.closed and self.final_at is not None and self.final_at <= now

    def finality(self, now: datetime) -> str:
        """'final', 'provisional until 21:30', 'provisional until an appeal is decided or a correction
        verified'; '' for a round not closed."""
        if not self.closed:
            return ""
        if self.final_at is None:
            return "provisional until its appeal is decided or its correction verified"
        if self.final_at <= now:
            return "final"
        return f"provisional until {clock_words(self.final_at, now)}"

    @property
    def words(self) -> str:
        """'round 3: 2 of 4 tables verified', or 'round 3 closed'."""
        if self.closed:
            return f"round {self.number} closed"
        tables = "table" if self.tables == 1 else "tables"
        return f"round {self.number}: {self.verified} of {self.tables} {tables} verified"


@dataclass(frozen=True)
class CorrectedSet:
    """A set of a closed round reopened for a correction: it counts as it stands."""

    round: int
    table: int

    @property
    def words(self) -> str:
        return f"round {self.round}, table {self.table}: being corrected"


@dataclass(frozen=True)
class StandingsScope:
    """Which view the rows are, what they count, and how far each open round is.

    `after_round`: official, all rounds — the N of "after round N" (None: no round complete yet, and
    no one is listed). `rounds`: every seated round in order. `being_corrected`: the sets of closed
    rounds that are reopened now, counted as they stand wherever their round counts.
    """

    view: str
    round_number: int | None
    after_round: int | None
    rounds: tuple[RoundProgress, ...]
    being_corrected: tuple[CorrectedSet, ...]

    @property
    def provisional(self) -> bool:
        return self.view == PROVISIONAL

    @property
    def open_rounds(self) -> tuple[RoundProgress, ...]:
        return tuple(row for row in self.rounds if not row.closed)

    @property
    def lists_no_one(self) -> bool:
        """Official, all rounds, with no round complete: the view lists no one."""
        return self.view == OFFICIAL and self.after_round is None

    def heading(self) -> str:
        """What the view is: 'Official standings after round 2', 'Official standings: no round
        complete yet', 'Round 3 standings: verified sets', 'Provisional standings: if every table
        stopped now'."""
        if self.view == OFFICIAL:
            if self.after_round is None:
                return "Official standings: no round complete yet"
            return f"Official standings after round {self.after_round}"
        if self.view == ROUND:
            return f"Round {self.round_number} standings: verified sets"
        scope = f", round {self.round_number}" if self.round_number else ""
        return f"Provisional standings{scope}: if every table stopped now"

    def label(self) -> str:
        """The view in a few words, for a link or a button: 'official standings after round 2',
        'official standings, round 3', 'provisional standings, all rounds'."""
        if self.view == OFFICIAL:
            if self.after_round is None:
                return "official standings, no round complete yet"
            return f"official standings after round {self.after_round}"
        scope = f"round {self.round_number}" if self.round_number else "all rounds"
        return f"{'provisional' if self.provisional else 'official'} standings, {scope}"

    def sheet_title(self) -> str:
        """A spreadsheet's sheet name (at most 31 characters): 'After round 2', 'Round 3 verified'."""
        if self.view == OFFICIAL:
            return f"After round {self.after_round}" if self.after_round else "No round complete yet"
        if self.view == ROUND:
            return f"Round {self.round_number} verified"
        return f"Provisional round {self.round_number}" if self.round_number else "Provisional"

    def progress(self) -> list[str]:
        """'round M: k of m tables verified' for each open round the view reads (the round view: its
        round, closed or not)."""
        if self.round_number is not None:
            return [row.words for row in self.rounds if row.number == self.round_number]
        return [row.words for row in self.open_rounds]

    def corrections(self) -> list[str]:
        """'round R, table T: being corrected' for each reopened set of a closed round the view counts."""
        return [
            row.words
            for row in self.being_corrected
            if self.round_number is None or row.round == self.round_number
        ]

    def counted_closed_rounds(self) -> list[RoundProgress]:
        """The closed rounds the view's results come from (official: 1…N; one round: that round)."""
        if self.view == OFFICIAL:
            return [row for row in self.rounds if self.after_round and row.number <= self.after_round]
        if self.view == ROUND:
            return [row for row in self.rounds if row.number == self.round_number and row.closed]
        return []

    def results_words(self, now: datetime | None = None) -> str:
        """Whether the results shown are final (issue 21): 'results final', 'results provisional until
        21:30' (round 2), 'results provisional until round 2's appeal is decided …', with 'corrected
        after the results were final' for a round corrected after it; '' when nothing closed is shown
        (the provisional view and an open round's verified sets say so in their heading)."""
        now = now or timezone.now()
        rounds = self.counted_closed_rounds()
        if not rounds:
            return ""
        waiting = [row for row in rounds if not row.is_final(now)]
        if not waiting:
            words = "results final"
        elif len(rounds) == 1:
            words = f"results {waiting[0].finality(now)}"
        else:
            words = "results " + "; ".join(f"round {row.number} {row.finality(now)}" for row in waiting)
            final = [str(row.number) for row in rounds if row.is_final(now)]
            if final:
                words += f"; round{'s' if len(final) > 1 else ''} {', '.join(final)} final"
        corrected = [str(row.number) for row in rounds if row.corrected_after_final]
        if corrected:
            words += f" (round {', '.join(corrected)} corrected after the results were final)"
        return words

    @property
    def finality(self) -> str:
        """`results_words()` now (templates)."""
        return self.results_words()

    def is_final(self, now: datetime | None = None) -> bool:
        """Every closed round the view shows is final (a season or a rating counts it)."""
        now = now or timezone.now()
        rounds = self.counted_closed_rounds()
        return bool(rounds) and all(row.is_final(now) for row in rounds)

    def not_final_words(self, now: datetime | None = None) -> list[str]:
        """'round 2 results provisional until 21:30' for each closed round not final yet."""
        now = now or timezone.now()
        return [
            f"round {row.number} results {row.finality(now)}"
            for row in self.rounds
            if row.closed and not row.is_final(now)
        ]

    def all_final(self, now: datetime | None = None) -> bool:
        """Every seated round closed and final, one at least: the event's results are final (what a
        prize list pays on and a qualifier series' leg counts)."""
        now = now or timezone.now()
        return bool(self.rounds) and all(row.is_final(now) for row in self.rounds)

    def notes(self) -> list[str]:
        """The progress and the corrections, in that order (`results_words` says whether the results
        are final: every surface prints it beside these)."""
        return [*self.progress(), *self.corrections()]

    def notes_with_finality(self) -> list[str]:
        """Whether the results are final, then the notes: what a printed page or the command says."""
        finality = self.results_words()
        return [*([finality] if finality else []), *self.notes()]

    def summary(self) -> str:
        """One line: the heading, then every note ('Official standings after round 2; round 3: 2 of 4
        tables verified')."""
        return "; ".join([self.heading(), *self.notes()])

    def export_tag(self) -> str:
        """A file name's part saying which view it holds: 'after-round-2', 'no-round-complete',
        'round-3', 'provisional', 'provisional-round-3'."""
        if self.view == OFFICIAL:
            return f"after-round-{self.after_round}" if self.after_round else "no-round-complete"
        if self.view == ROUND:
            return f"round-{self.round_number}"
        return f"provisional-round-{self.round_number}" if self.round_number else "provisional"


def _scope_rows(events) -> QuerySet:
    """Per event, round and set status (and one row of its own for each set being corrected: a closed
    round's reopened set, which names its table): (event id, round number, closed at, final at,
    corrected after final at, set status, corrected table, tables). A few dozen rows an event, not one
    for every table; rounds with no seated table are absent."""
    being_corrected = Q(round__closed_at__isnull=False, game_set__corrected_after_verification=True) & ~Q(
        game_set__status=GameSet.Status.VERIFIED
    )
    return (
        # A round seated but not published is not public: not in any view's words.
        Table.objects.filter(public_rounds("round__"), round__event__in=events)
        .annotate(corrected=Case(When(being_corrected, then=F("number")), output_field=IntegerField()))
        .values_list(
            "round__event_id",
            "round__number",
            "round__closed_at",
            "round__final_at",
            "round__corrected_after_final_at",
            "game_set__status",
            "corrected",
        )
        .annotate(tables=Count("pk"))
        .order_by("round__event_id", "round__number", "corrected")
    )


def _scope_of(rows, *, round_number: int | None, provisional: bool, final_only: bool) -> StandingsScope:
    """The scope of one event's view from its `_scope_rows` (without the event id). No query."""
    counts: dict[int, list[int]] = {}
    closed: dict[int, tuple[bool, datetime | None, bool]] = {}
    corrected = []
    for number, closed_at, final_at, corrected_after_final, status, table, tables in rows:
        tally = counts.setdefault(number, [0, 0])
        tally[0] += tables
        if status == GameSet.Status.VERIFIED:
            tally[1] += tables
        closed[number] = (closed_at is not None, final_at, corrected_after_final is not None)
        if table is not None:
            corrected.append(CorrectedSet(round=number, table=table))
    rounds = tuple(
        RoundProgress(
            number=number,
            tables=tables,
            verified=verified,
            closed=closed[number][0],
            final_at=closed[number][1],
            corrected_after_final=closed[number][2],
        )
        for number, (tables, verified) in counts.items()
    )
    after = None
    now = timezone.now()
    for row in rounds:
        if not row.closed or (final_only and not row.is_final(now)):
            break
        after = row.number
    if provisional:
        view = PROVISIONAL
    elif round_number is not None:
        view = ROUND
    else:
        view = OFFICIAL
    return StandingsScope(
        view=view,
        round_number=round_number,
        after_round=after,
        rounds=rounds,
        being_corrected=tuple(corrected),
    )


def standings_scope(
    event: Event, *, round_number: int | None = None, provisional: bool = False, final_only: bool = False
) -> StandingsScope:
    """The scope of a standings view of `event`. One query (the event's tables; rounds with no seated
    table are ignored). `final_only`: the official view counts rounds 1…N while each is final (what a
    season counts), not merely closed."""
    rows = [row[1:] for row in _scope_rows([event])]
    return _scope_of(rows, round_number=round_number, provisional=provisional, final_only=final_only)


def standings_scopes(events, *, final_only: bool = False) -> dict[int, StandingsScope]:
    """{event id: the official `standings_scope`} of several events. One query, whatever their number."""
    rows: dict[int, list[tuple]] = {event.pk: [] for event in events}
    for row in _scope_rows(events):
        rows[row[0]].append(row[1:])
    return {
        pk: _scope_of(found, round_number=None, provisional=False, final_only=final_only)
        for pk, found in rows.items()
    }
