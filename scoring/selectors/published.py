"""What the published rating lists show: each game's published lists, one list's rows as published, and
every live row's movement since the game's latest published list (rating and place, up or down).

A published list is read as it was stored (`scoring.rating_models`): nothing here looks at the
results. Movement compares people by identity (membership id, else exact name): the live list's place
and rating against the published one's, on the same kind of list (the official list's places when the
official list is shown, else the whole list's). A fixed number of queries each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, QuerySet

from ..games import Game
from ..models import PublishedList, PublishedRating
from .ratings import listed_name

PUBLISHED_FIELDS = (
    "position",
    "official",
    "player",
    "membership",
    "club",
    "mu",
    "sigma",
    "ordinal",
    "sets",
    "events",
    "last_played",
    "ranked",
    "active",
)


def published_lists(game: Game | None = None) -> QuerySet[PublishedList]:
    """Every published list (one game's), newest first."""
    found = PublishedList.objects.order_by("-day", "game")
    return found.filter(game=game.family) if game is not None else found


def latest_published(game: Game) -> PublishedList | None:
    """The game's latest published list, if any. One query."""
    return published_lists(game).first()


def published_rows(
    published: PublishedList, *, official: bool = False, public: bool = False
) -> list[dict[str, Any]]:
    """The list's rows as published, best first: the whole list, or the official list alone numbered
    among themselves (`position` is then the official place). One query. `public`: a player whose
    record does not consent to public lists now (issue 26) as "Player <place on the whole list>"."""
    rows = PublishedRating.objects.filter(published_list=published).order_by("position")
    if official:
        rows = rows.filter(official__isnull=False)
    found = []
    fields = ("player_id", "identity", "name", *PUBLISHED_FIELDS[:2], *PUBLISHED_FIELDS[3:])
    for item in rows.values(*fields, consent=F("player__details__consent_public")):
        consent = item.pop("consent")
        row = item | listed_name(
            item.pop("name"), item["membership"], consent, item["position"], public=public
        )
        row["provisional"] = not row["ranked"]
        row["game"] = published.game
        if official:
            row["position"] = row["official"]
        found.append(row)
    return found


@dataclass(frozen=True)
class Movement:
    """A player's movement since a published list: `rating` the change of μ − 3σ, `places` how many
    places they rose (negative: fell); `new` when they were not on that list (or, for the official list,
    not on its official list)."""

    since: PublishedList
    rating: float | None
    places: int | None
    was_place: int | None
    was_rating: float | None

    @property
    def new(self) -> bool:
        return self.was_place is None


def movement_of(
    rows: list[dict[str, Any]], published: PublishedList | None, *, official: bool
) -> dict[str, Movement]:
    """Each live row's movement (by identity) since `published`: rows need `identity`, `position` (the
    place on the list shown) and `ordinal`. One query."""
    if published is None:
        return {}
    column = "official" if official else "position"
    then = {
        identity: (place, ordinal)
        for identity, place, ordinal in PublishedRating.objects.filter(published_list=published).values_list(
            "identity", column, "ordinal"
        )
    }
    moved = {}
    for row in rows:
        place, ordinal = then.get(row["identity"], (None, None))
        moved[row["identity"]] = Movement(
            since=published,
            rating=row["ordinal"] - ordinal if ordinal is not None else None,
            places=place - row["position"] if place is not None else None,
            was_place=place,
            was_rating=ordinal,
        )
    return moved


@dataclass(frozen=True)
class PlayerMovement:
    """A player's movement since a published list: their line on it (None when they were not on it),
    and their place and rating on the live list now."""

    since: PublishedList
    then: PublishedRating | None
    position: int
    official: int | None
    ordinal: float

    @property
    def rating(self) -> float | None:
        return self.ordinal - self.then.ordinal if self.then is not None else None

    @property
    def places(self) -> int | None:
        return self.then.position - self.position if self.then is not None else None

    @property
    def official_places(self) -> int | None:
        if self.then is None or self.then.official is None or self.official is None:
            return None
        return self.then.official - self.official


def player_movement(
    published: PublishedList | None, identity: str, live_rows: list[dict[str, Any]]
) -> PlayerMovement | None:
    """The player's movement since `published`, from the live list's rows (`rating_rows`); None when
    nothing is published or the player is not on the live list. One query."""
    if published is None:
        return None
    official = 0
    for row in live_rows:
        official += row["ranked"] and row["active"]
        if row["identity"] == identity:
            then = PublishedRating.objects.filter(published_list=published, identity=identity).first()
            return PlayerMovement(
                since=published,
                then=then,
                position=row["position"],
                official=official if row["ranked"] and row["active"] else None,
                ordinal=row["ordinal"],
            )
    return None
