"""A qualifier series as the series page and the services read it (issue 25, item 5; docs/RULES.md
"Qualifier series"): each leg's state and who goes through from it, the series standings' places, the
lots drawn, and the final's field so far.

A leg counts from its **final** results only — every round seated in it closed and past its correction
period, as seasons, ratings and prize lists count them (`StandingsScope.all_final`) — with each player's
place from the event's own standings, whatever its game (`scoring.selectors.ratings.event_places`, the
places a season gives points for). Who goes through is `scoring.qualifiers`. A fixed number of queries
for a season of L legs, whatever their fields: 4 + L (the legs, each leg's scope, the legs' entries, the
final's, the public names), and the places of the final legs the cache does not hold (`event_places`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..models import Entry, Event, Season
from ..prizes import ordinal
from ..qualifiers import (
    DECIDED,
    LOT,
    NOT_FINAL,
    STANDINGS,
    Lot,
    Placed,
    SeriesOutcome,
    Source,
    Through,
    lot_from_data,
    qualify_series,
)
from .door import public_names_of
from .ratings import event_places, identity
from .seasons import season_events
from .standings_scope import standings_scope

STANDINGS_NAME = "Series standings"


def leg_key(event: Event) -> str:
    return f"event:{event.pk}"


def place_words(place: int, shared: bool) -> str:
    """'2nd', or 'shared 2nd'."""
    return f"{'shared ' if shared else ''}{ordinal(place)}"


@dataclass(frozen=True)
class Person:
    """Who a player is across the series: the record entered for them (their qualifying leg's, or the
    latest for the series standings), their name, and the name public pages show."""

    player_id: int
    name: str
    shown: str


@dataclass(frozen=True)
class Qualifier:
    person: str
    player_id: int
    name: str
    shown: str
    source: str  # the leg's name, or "Series standings"
    place: str
    by_lot: bool
    entered: bool


@dataclass(frozen=True)
class Named:
    name: str
    place: str


@dataclass(frozen=True)
class LegView:
    """One leg (or the series standings) as the page shows it."""

    key: str
    name: str
    event: Event | None
    status: str
    words: str
    through: list[Qualifier] = field(default_factory=list)
    passed_over: list[Named] = field(default_factory=list)
    next_in_line: list[Named] = field(default_factory=list)
    tie: list[str] = field(default_factory=list)  # names sharing the place at the cut, waiting for a lot
    tie_places: int = 0
    tie_place: str = ""
    lot: dict[str, Any] | None = None  # {"seed", "tied": names, "through": names}


@dataclass(frozen=True)
class Series:
    season: Season
    final: Event | None
    per_leg: int
    from_standings: int
    legs: list[LegView]
    standings: LegView | None
    qualifiers: list[Qualifier]
    also_entered: list[str]
    outcome: SeriesOutcome
    people: dict[str, Person]
    events: dict[str, Event]

    @property
    def complete(self) -> bool:
        return self.outcome.complete

    @property
    def waiting_lot(self) -> bool:
        return bool(self.outcome.ties)

    @property
    def to_enter(self) -> list[Qualifier]:
        return [item for item in self.qualifiers if not item.entered]


def stored_lots(season: Season) -> list[Lot]:
    return [lot_from_data(data) for data in season.qualifier_lots or []]


def _leg_words(scope) -> str:
    """Why a leg does not count yet, in the standings' words."""
    if not scope.rounds:
        return "Not final yet: no round played."
    waiting = [*scope.not_final_words(), *scope.progress()]
    return "Not final yet: " + "; ".join(waiting) + "."


def series(season: Season, *, standings: list[dict[str, Any]] | None = None, public: bool = True) -> Series:
    """The series of `season` (its events are the legs, in date order; `season.final` the final).
    `standings`: the series standings' rows (the season's stored table, `RatingList.season_table`),
    needed when places come from them. `public`: a player who does not consent to public lists is
    "Player <entry number>" of the event shown beside it."""
    final = season.final
    legs = [event for event in season_events(season) if final is None or event.pk != final.pk]
    scopes = {event.pk: standings_scope(event, final_only=True) for event in legs}
    final_legs = [event for event in legs if scopes[event.pk].all_final()]
    places = {item.event_id: item.rows for item in event_places(final_legs)} if final_legs else {}
    records: dict[int, tuple[str, str]] = {}
    entry_of: dict[tuple[int, int], int] = {}
    for event_id, entry_id, player_id, name, membership in (
        Entry.objects.filter(event__in=legs)
        .order_by()
        .values_list("event_id", "pk", "player_id", "player__name", "player__membership_id")
    ):
        records[player_id] = (name, identity(name, membership))
        entry_of[(event_id, player_id)] = entry_id
    final_entries = (
        list(
            Entry.objects.filter(event=final)
            .order_by("pk")
            .values_list("pk", "player_id", "player__name", "player__membership_id")
        )
        if final is not None
        else []
    )
    masks = public_names_of([*legs, *([final] if final else [])]) if public else {}

    people: dict[str, Person] = {}

    def person_of(player_id: int, event: Event | None, entry_id: int | None) -> str:
        name, who = records.get(player_id, ("", f"record:{player_id}"))
        shown = masks.get(entry_id, name) if entry_id is not None else name
        if event is not None and shown != name:
            shown = f"{shown} of {event.name}"
        people.setdefault(who, Person(player_id, name, shown))
        return who

    sources = []
    for event in legs:
        rows = tuple(
            Placed(person_of(player_id, event, entry_id), place, shared)
            for player_id, entry_id, place, shared in places.get(event.pk, ())
        )
        sources.append(Source(leg_key(event), event.pk in places, rows))
    standings_source = None
    if standings is not None:
        order = {event.pk: index for index, event in enumerate(legs)}
        latest: dict[int, tuple[int, int]] = {}  # record -> (its last leg's position, its entry there)
        for (event_id, player_id), entry_id in entry_of.items():
            if player_id not in latest or order[event_id] > latest[player_id][0]:
                latest[player_id] = (order[event_id], entry_id)
        rows = tuple(
            Placed(
                person_of(
                    row["player_id"],
                    legs[latest[row["player_id"]][0]] if row["player_id"] in latest else None,
                    latest[row["player_id"]][1] if row["player_id"] in latest else None,
                ),
                row["place"],
                row["shared"],
            )
            for row in standings
        )
        standings_source = Source(STANDINGS, True, rows)
    outcome = qualify_series(
        sources,
        per_leg=season.qualify_per_leg,
        standings=standings_source,
        from_standings=season.qualify_from_standings,
        lots=stored_lots(season),
    )
    entered = {identity(name, membership) for _, _, name, membership in final_entries}
    events = {leg_key(event): event for event in legs}

    def shown(who: str) -> str:
        return people[who].shown if public else people[who].name

    def qualifier(source_name: str, item: Through) -> Qualifier:
        found = people[item.person]
        return Qualifier(
            person=item.person,
            player_id=found.player_id,
            name=found.name,
            shown=shown(item.person),
            source=source_name,
            place=place_words(item.row.place, item.row.shared),
            by_lot=item.by_lot,
            entered=item.person in entered,
        )

    def view(key: str, name: str, event: Event | None, result, words: str) -> LegView:
        found = result.cut
        tie = found.tie
        lot = found.lot
        return LegView(
            key=key,
            name=name,
            event=event,
            status=result.status,
            words=words,
            through=[qualifier(name, item) for item in found.through],
            passed_over=[
                Named(shown(row.person), place_words(row.place, row.shared)) for row in found.passed_over
            ],
            next_in_line=[
                Named(shown(row.person), place_words(row.place, row.shared)) for row in found.next_in_line
            ],
            tie=[shown(who) for who in tie.tied] if tie else [],
            tie_places=tie.places if tie else 0,
            tie_place=ordinal(tie.place) if tie else "",
            lot=(
                {
                    "seed": lot.seed,
                    "tied": [shown(who) for who in lot.tied],
                    "through": [shown(who) for who in lot.order[: lot.places]],
                }
                if lot
                else None
            ),
        )

    leg_views = []
    blocker = ""  # the first leg not decided: the legs after it wait for it
    for event, result in zip(legs, outcome.legs, strict=True):
        if result.status == NOT_FINAL:
            words = _leg_words(scopes[event.pk])
        elif result.status == LOT:
            words = "Final. A place shared at the cut waits for its lot."
        elif result.status == DECIDED:
            words = "Final."
        elif scopes[event.pk].all_final():
            words = f"Final; waiting for {blocker} to be decided."
        else:
            words = f"{_leg_words(scopes[event.pk])} Then it waits for {blocker} to be decided."
        leg_views.append(view(leg_key(event), event.name, event, result, words))
        if result.status != DECIDED and not blocker:
            blocker = event.name
    standings_view = None
    if outcome.standings is not None:
        result = outcome.standings
        words = {
            DECIDED: "Every leg is final.",
            LOT: "Every leg is final. A place shared at the cut waits for its lot.",
        }.get(result.status, "Waiting for every leg to be decided.")
        standings_view = view(STANDINGS, STANDINGS_NAME, None, result, words)
    names = {leg_key(event): event.name for event in legs} | {STANDINGS: STANDINGS_NAME}
    qualifiers = [qualifier(names[key], item) for key, item in outcome.through]
    through = {item.person for item in qualifiers}
    also = [
        masks.get(pk, name)
        for pk, _, name, membership in final_entries
        if identity(name, membership) not in through
    ]
    return Series(
        season=season,
        final=final,
        per_leg=season.qualify_per_leg,
        from_standings=season.qualify_from_standings,
        legs=leg_views,
        standings=standings_view,
        qualifiers=qualifiers,
        also_entered=also,
        outcome=outcome,
        people=people,
        events=events,
    )
