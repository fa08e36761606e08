"""The photos of a table's signed sheet (issue 23), as the director's table page shows them beside the
grid and the verify form: who took each and when, its address (for the event's directors only), and
whether the event still wants one before the set is verified. Two queries at most.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models.functions import Length
from django.urls import reverse

from ..games import game_of
from ..models import GameSet, SheetPhoto


@dataclass(frozen=True)
class PhotoRow:
    pk: int
    taken_at: datetime
    by: str
    width: int
    height: int
    size: int
    url: str

    @property
    def kilobytes(self) -> int:
        return max(1, round(self.size / 1024))


@dataclass(frozen=True)
class SheetEvidence:
    photos: list[PhotoRow]
    # Why the set may not be verified yet for want of a photo (`photo_missing`), or "".
    needed: str
    upload_url: str


def _table_kwargs(game_set: GameSet) -> dict[str, object]:
    table = game_set.table
    return {"slug": table.round.event.slug, "number": table.round.number, "table": table.number}


def photo_missing(game_set: GameSet, *, photos: int | None = None) -> str:
    """Why the set may not be verified yet for want of a photo of its signed sheet, or "": the event
    requires one and the table entered deals itself. No query unless the event requires one (nor for
    the photos when their count is given)."""
    event = game_set.table.round.event
    if not event.sheet_photo_required:
        return ""
    if photos is None:
        photos = SheetPhoto.objects.filter(game_set=game_set).count()
    if photos or not game_set.self_entries.exists():
        return ""
    table = game_set.table
    return (
        f"Round {table.round.number}, table {table.number} entered its own "
        f"{game_of(event).deal_word}s, and this event keeps a photo of every such signed sheet: "
        f"photograph the signed sheet (on this page, or from a phone at the table) before verifying the "
        f"{game_of(event).unit}."
    )


def sheet_evidence(game_set: GameSet) -> SheetEvidence:
    """The set's photos (never their bytes) and whether one is still wanted."""
    kwargs = _table_kwargs(game_set)
    rows = (
        SheetPhoto.objects.filter(game_set=game_set)
        .annotate(bytes=Length("data"))
        .values_list("pk", "taken_at", "by", "width", "height", "bytes")
        .order_by("taken_at", "pk")
    )
    photos = [
        PhotoRow(
            pk,
            taken_at,
            by,
            width,
            height,
            size or 0,
            reverse("scoring:direct_photo", kwargs={**kwargs, "photo_id": pk}),
        )
        for pk, taken_at, by, width, height, size in rows
    ]
    return SheetEvidence(
        photos=photos,
        needed=photo_missing(game_set, photos=len(photos)),
        upload_url=reverse("scoring:direct_photo_add", kwargs=kwargs),
    )
