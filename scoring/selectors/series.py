"""A qualifier series as the series page and the services read it (issue 25, item 5; docs/RULES.md
"Qualifier series"): each leg's state and who goes through from it, the series standings' places, the
lots drawn, and the final's field so far.

A leg counts from its **final** results only — every round seated in it closed and past its correction
period, as seasons, ratings and prize lists count them (`StandingsScope.all_final`) — with each player's
place from the event's own standings, whatever its game (`scoring.selectors.ratings.event_places`, the
places a season gives points for). Who goes through is `scoring.qualifiers`. A fixed number of queries
for a season, whatever its legs and their fields: 5 (the legs, their scopes, the legs' entries, the
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
from .standings_scope import standings_scopes

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


class _Names:
    """Who each player is across the series (`identity`) and the name the page gives them: the first
    record met is kept (`Series.people`). `masks`: {entry id: "Player <entry number>"} of the players
    who do not consent to public lists (issue 26), shown with their event's name beside it."""

    def __init__(self, records: dict[int, tuple[str, str]], masks: dict[int, str]):
        self.records = records
        self.masks = masks
        self.people: dict[str, Person] = {}

    def person(self, player_id: int, event: Event | None, entry_id: int | None) -> str:
        name, who = self.records.get(player_id, ("", f"record:{player_id}"))
        shown = self.masks.get(entry_id, name) if entry_id is not None else name
        if event is not None and shown != name:
            shown = f"{shown} of {event.name}"
        self.people.setdefault(who, Person(player_id, name, shown))
        return who

    def shown(self, who: str) -> str:
        return self.people[who].shown


def _standings_source(
    standings: list[dict[str, Any]], legs: list[Event], entry_of: dict[tuple[int, int], int], names: _Names
) -> Source:
    """The series standings' places, each player named as in the last leg they played."""
    order = {event.pk: index for index, event in enumerate(legs)}
    latest: dict[int, tuple[int, int]] = {}  # record -> (its last leg's position, its entry there)
    for (event_id, player_id), entry_id in entry_of.items():
        if player_id not in latest or order[event_id] > latest[player_id][0]:
            latest[player_id] = (order[event_id], entry_id)

    def placed(row: dict[str, Any]) -> Placed:
        leg, entry_id = latest.get(row["player_id"], (None, None))
        event = legs[leg] if leg is not None else None
        return Placed(names.person(row["player_id"], event, entry_id), row["place"], row["shared"])

    return Source(STANDINGS, True, tuple(placed(row) for row in standings))


def _qualifier(names: _Names, entered: set[str], source_name: str, item: Through) -> Qualifier:
    found = names.people[item.person]
    return Qualifier(
        person=item.person,
        player_id=found.player_id,
        name=found.name,
        shown=names.shown(item.person),
        source=source_name,
        place=place_words(item.row.place, item.row.shared),
        by_lot=item.by_lot,
        entered=item.person in entered,
    )


def _view(
    names: _Names, entered: set[str], key: str, name: str, event: Event | None, result, words: str
) -> LegView:
    """One source's outcome (`SourceOutcome`) as the page shows it."""
    found = result.cut
    tie = found.tie
    lot = found.lot

    def named(rows) -> list[Named]:
        return [Named(names.shown(row.person), place_words(row.place, row.shared)) for row in rows]

    return LegView(
        key=key,
        name=name,
        event=event,
        status=result.status,
        words=words,
        through=[_qualifier(names, entered, name, item) for item in found.through],
        passed_over=named(found.passed_over),
        next_in_line=named(found.next_in_line),
        tie=[names.shown(who) for who in tie.tied] if tie else [],
        tie_places=tie.places if tie else 0,
        tie_place=ordinal(tie.place) if tie else "",
        lot=(
            {
                "seed": lot.seed,
                "tied": [names.shown(who) for who in lot.tied],
                "through": [names.shown(who) for who in lot.order[: lot.places]],
            }
            if lot
            else None
        ),
    )


def _status_words(status: str, scope, blocker: str) -> str:
    """A leg's state in words; `blocker`: the first leg before it not decided."""
    if status == NOT_FINAL:
        return _leg_words(scope)
    if status == LOT:
        return "Final. A place shared at the cut waits for its lot."
    if status == DECIDED:
        return "Final."
    if scope.all_final():
        return f"Final; waiting for {blocker} to be decided."
    return f"{_leg_words(scope)} Then it waits for {blocker} to be decided."


STANDINGS_WORDS = {
    DECIDED: "Every leg is final.",
    LOT: "Every leg is final. A place shared at the cut waits for its lot.",
}


def series(
    season: Season,
    *,
    standings: list[dict[str, Any]] | None = None,
    public: bool = True,
    events: list[Event] | None = None,
) -> Series:
    """The series of `season` (its events are the legs, in date order; `season.final` the final).
    `standings`: the series standings' rows (the season's stored table, `RatingList.season_table`),
    needed when places come from them. `public`: a player who does not consent to public lists is
    "Player <entry number>" of the event shown beside it. `events`: the season's events already read
    (`season_events`), else read here."""
    final = season.final
    events = season_events(season) if events is None else events
    legs = [event for event in events if final is None or event.pk != final.pk]
    scopes = standings_scopes(legs, final_only=True)
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
    names = _Names(records, masks)
    sources = [
        Source(
            leg_key(event),
            event.pk in places,
            tuple(
                Placed(names.person(player_id, event, entry_id), place, shared)
                for player_id, entry_id, place, shared in places.get(event.pk, ())
            ),
        )
        for event in legs
    ]
    outcome = qualify_series(
        sources,
        per_leg=season.qualify_per_leg,
        standings=_standings_source(standings, legs, entry_of, names) if standings is not None else None,
        from_standings=season.qualify_from_standings,
        lots=stored_lots(season),
    )
    entered = {identity(name, membership) for _, _, name, membership in final_entries}

    leg_views = []
    blocker = ""  # the first leg not decided: the legs after it wait for it
    for event, result in zip(legs, outcome.legs, strict=True):
        words = _status_words(result.status, scopes[event.pk], blocker)
        leg_views.append(_view(names, entered, leg_key(event), event.name, event, result, words))
        if result.status != DECIDED and not blocker:
            blocker = event.name
    standings_view = None
    if outcome.standings is not None:
        result = outcome.standings
        words = STANDINGS_WORDS.get(result.status, "Waiting for every leg to be decided.")
        standings_view = _view(names, entered, STANDINGS, STANDINGS_NAME, None, result, words)
    source_names = {leg_key(event): event.name for event in legs} | {STANDINGS: STANDINGS_NAME}
    qualifiers = [_qualifier(names, entered, source_names[key], item) for key, item in outcome.through]
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
        people=names.people,
        events={leg_key(event): event for event in legs},
    )
