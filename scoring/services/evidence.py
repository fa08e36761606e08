"""The signed sheet as evidence (issue 23): a photo of a table's signed paper sheet, kept with its set.

A phone at the table (`self_entry.self_entry_photo`, the seat proven by its code) or the director's
desk (`sheet_photo_add`) sends a photo; `scoring.photos` checks it and makes it a small JPEG with no
EXIF, and it is stored in the database with who took it and when, audited
(`kalooki.set.photo_added`: never the picture, its SHA-256). Nothing about the results changes: the
set's version stays, so a form open on the director's page is not made stale by a phone's photo.
An archive's photos come back through `sheet_photos_restore`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from adjudication.audit import acting_user, audit_record

from ..evidence_models import BY_LENGTH
from ..games import game_of
from ..models import GameSet, SheetPhoto
from ..photos import PreparedPhoto, photo_kept, photo_prepared, too_large
from .guards import locked_set

# Photos of one table's sheet: enough for each page of a game's sheet taken again, not a gallery.
MAX_PHOTOS = 6


@dataclass(frozen=True)
class Upload:
    """An uploaded file as the services take it: its name (as the phone named it) and its size, and
    how to read it (only once the size is known to be acceptable)."""

    name: str
    size: int
    read: Any

    @classmethod
    def of(cls, uploaded) -> Upload | None:
        """A Django `UploadedFile` (None when no file was sent)."""
        if uploaded is None:
            return None
        return cls(
            name=str(uploaded.name or "the photo")[:100], size=int(uploaded.size or 0), read=uploaded.read
        )


def _checked(upload: Upload | None) -> PreparedPhoto:
    if upload is None:
        raise ValidationError({"photo": ["Choose a photo of the signed sheet (or take one) first."]})
    problem = too_large(upload.name, upload.size)
    if problem is not None:
        raise problem
    return photo_prepared(upload.read(), upload.name)


def _data(photo: SheetPhoto) -> dict[str, Any]:
    return {
        "taken_at": photo.taken_at,
        "by": photo.by,
        "sha256": photo.sha256,
        "bytes": photo.size,
        "width": photo.width,
        "height": photo.height,
    }


def _row(game_set: GameSet, prepared: PreparedPhoto, *, taken_at: datetime, by: str) -> SheetPhoto:
    return SheetPhoto(
        game_set=game_set,
        taken_at=taken_at,
        by=by[:BY_LENGTH],
        sha256=prepared.sha256,
        width=prepared.width,
        height=prepared.height,
        data=prepared.data,
    )


def _audit(game_set: GameSet, action: str, user, after: dict[str, Any], reason: str) -> None:
    audit_record(
        event=game_set.table.round.event,
        action=f"kalooki.set.{action}",
        user=user,
        obj=game_set,
        before=None,
        after=after,
        reason=reason,
    )


def photo_store(*, game_set: GameSet, upload: Upload | None, by: str, user=None) -> SheetPhoto:
    """Check and store one photo of `game_set`'s sheet (locked by the caller, in its transaction),
    taken `by` a seat or a director; audited. Refused (nothing stored) when the file is not a picture,
    too large, or the table has its `MAX_PHOTOS` already."""
    unit = game_of(game_set.table.round.event).unit
    held = SheetPhoto.objects.filter(game_set=game_set).count()
    if held >= MAX_PHOTOS:
        raise ValidationError(
            {
                "photo": [
                    f"The {unit} at table {game_set.table.number} has {held} photos of its sheet already: "
                    "the director keeps them; no more are taken."
                ]
            }
        )
    photo = _row(game_set, _checked(upload), taken_at=timezone.now(), by=by)
    photo.full_clean(exclude=("game_set",))
    photo.save()
    _audit(game_set, "photo_added", user, _data(photo), f"a photo of the signed sheet, taken by {photo.by}")
    return photo


@transaction.atomic
def sheet_photo_add(*, game_set: GameSet, user, upload: Upload | None) -> SheetPhoto:
    """The director's desk photographs (or scans) the table's signed sheet: kept with the set, at any
    time (a verified set's sheet too: a dispute may come later)."""
    game_set = locked_set(game_set)
    real = acting_user(user)
    by = f"director {real.get_username()}" if real is not None else "the director"
    return photo_store(game_set=game_set, upload=upload, by=by, user=user)


@dataclass(frozen=True)
class ArchivedPhoto:
    """A photo as an archive's `tables[].evidence` gives it, checked by the archive's reader (`data`: as
    `photos.photo_kept` makes it, so writing it back prepares nothing again)."""

    taken_at: datetime
    by: str
    data: bytes


@transaction.atomic
def sheet_photos_restore(*, game_set: GameSet, photos: Iterable[ArchivedPhoto], user, reason: str) -> int:
    """Put an archive's photos back with their set, as they were taken (a clean JPEG of ours byte for
    byte, anything else prepared as an upload is); one audit entry. Returns how many."""
    photos = list(photos)
    if not photos:
        return 0
    game_set = locked_set(game_set)
    rows = [
        _row(game_set, photo_kept(item.data, f"evidence[{index}]"), taken_at=item.taken_at, by=item.by)
        for index, item in enumerate(photos)
    ]
    SheetPhoto.objects.bulk_create(rows)
    _audit(game_set, "photos_restored", user, {"photos": [row.sha256 for row in rows]}, reason)
    return len(rows)
