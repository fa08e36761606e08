"""Publishing a game's rating list: a dated copy that no later correction changes.

`rating_list_publish` takes the game's live list as it stands (computed again first when the results
moved, `ratings_current`), judges each player ranked and active on the list's day by the game's rule of
that moment, and stores every row as a copy (names, clubs, figures): one transaction, one audit entry
(`kalooki.rating_list.published`). A published list is never changed afterwards; the live list and the
players' pages measure their movement against the latest one.
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone
from django.utils.dateformat import format as format_date

from adjudication.audit import audit_record

from ..errors import field_errors
from ..games import Game
from ..models import PublishedList, PublishedRating
from ..selectors.ratings import rating_rows, rating_rule
from .ratings import BATCH, ratings_current


def list_title(game: Game, day: date) -> str:
    """>>> from scoring.games import JAMAICAN
    >>> list_title(JAMAICAN, date(2027, 3, 1))
    'Jamaican Kalooki list of 1 March 2027'
    """
    return f"{game.title} list of {format_date(day, 'j F Y')}"


@transaction.atomic
def rating_list_publish(*, game: Game, day: date, user, note: str = "") -> PublishedList:
    """Publish the game's live list as the list of `day`: frozen, audited. Refused (naming the field)
    for a day after today, or a day not after the game's latest published list."""
    today = timezone.localdate()
    if day > today:
        raise field_errors({"day": f"A list cannot be dated after today ({format_date(today, 'j F Y')})."})
    latest = PublishedList.objects.select_for_update().filter(game=game.family).order_by("-day").first()
    if latest is not None and day <= latest.day:
        raise field_errors(
            {"day": f"The {game.title} list of {format_date(latest.day, 'j F Y')} is already published: "
             "a new list must be dated after it."}
        )  # fmt: skip
    live = ratings_current(game=game)
    rule = rating_rule(game)
    rows = rating_rows(live, rule=rule, today=day)
    published = PublishedList.objects.create(
        game=game.family,
        day=day,
        slug=f"{game.family}-{day.isoformat()}",
        title=list_title(game, day),
        note=note,
        published_at=timezone.now(),
        published_by=user if getattr(user, "is_authenticated", False) else None,
        computed_at=live.computed_at,
        sets=live.sets,
        players=live.players,
        min_sets=rule.min_sets,
        inactive_months=rule.inactive_months,
    )
    official = 0
    copies = []
    for row in rows:
        on_official = row["ranked"] and row["active"]
        official += on_official
        copies.append(
            PublishedRating(
                published_list=published,
                position=row["position"],
                official=official if on_official else None,
                identity=row["identity"],
                player_id=row["player_id"],
                name=row["player"],
                membership=row["membership"],
                club=row["club"],
                mu=row["mu"],
                sigma=row["sigma"],
                ordinal=row["ordinal"],
                sets=row["sets"],
                events=row["events"],
                last_played=row["last_played"],
                ranked=row["ranked"],
                active=row["active"],
            )
        )
    PublishedRating.objects.bulk_create(copies, batch_size=BATCH)
    audit_record(
        event=None,
        action="kalooki.rating_list.published",
        user=user,
        obj=published,
        before=None,
        after={
            "game": game.family,
            "day": day.isoformat(),
            "slug": published.slug,
            "players": len(copies),
            "official": official,
            "sets": live.sets,
            "min_sets": rule.min_sets,
            "inactive_months": rule.inactive_months,
            "computed_at": live.computed_at.isoformat(),
        },
        reason=note,
    )
    return published
