"""The photos of a table's signed sheet in an archive (issue 23): `tables[].evidence`, a list of
`{"taken_at", "by", "sha256", "jpeg_base64"}` (SCORESHEET.md, "An event archive").

Read with every check before anything is written: a photo that is not base64, not a picture, larger
than a stored photo may be, or whose `sha256` is not its own refuses the import, naming the place.
`scoring.services.evidence.sheet_photos_restore` writes them back with their set.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Any

from django.core.exceptions import ValidationError

from adjudication.engine.sheet import got
from scoring.evidence_models import BY_LENGTH
from scoring.photos import MAX_UPLOAD_BYTES, photo_kept
from scoring.services.evidence import MAX_PHOTOS, ArchivedPhoto

from .values import ArchiveError, list_at, moment_at, object_at, text_at

# Base64 text of the largest photo read back (a hand-made archive's photo is prepared as an upload is).
MAX_BASE64 = (MAX_UPLOAD_BYTES // 3 + 1) * 4


def read_evidence(raw: Any, path: str) -> tuple[ArchivedPhoto, ...]:
    """A table's `evidence` (absent: none), every photo checked; ArchiveError names the first problem."""
    if raw is None:
        return ()
    items = list_at(raw, path)
    if len(items) > MAX_PHOTOS:
        raise ArchiveError(path, f"{len(items)} photos; a table keeps at most {MAX_PHOTOS}")
    return tuple(_photo(item, f"{path}[{index}]") for index, item in enumerate(items))


def _photo(raw: Any, path: str) -> ArchivedPhoto:
    item = object_at(raw, path)
    taken_at = moment_at(item.get("taken_at"), f"{path}.taken_at")
    if taken_at is None:
        raise ArchiveError(f"{path}.taken_at", "missing: when the photo was taken")
    by = text_at(item.get("by"), f"{path}.by", required=True)
    if len(by) > BY_LENGTH:
        raise ArchiveError(f"{path}.by", f"at most {BY_LENGTH} characters, got {len(by)}")
    encoded = item.get("jpeg_base64")
    if not isinstance(encoded, str) or not encoded:
        raise ArchiveError(f"{path}.jpeg_base64", f"expected the photo as base64 text, got {got(encoded)}")
    if len(encoded) > MAX_BASE64:
        raise ArchiveError(f"{path}.jpeg_base64", f"{len(encoded):,} characters; at most {MAX_BASE64:,}")
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise ArchiveError(f"{path}.jpeg_base64", "not base64 text") from None
    digest = item.get("sha256")
    if digest is not None and digest != hashlib.sha256(data).hexdigest():
        raise ArchiveError(
            f"{path}.sha256",
            "is not the photo's own: the archive was changed or damaged after it was written",
        )
    try:
        # What the photo will be stored as (a clean photo of ours byte for byte): prepared once, here.
        data = photo_kept(data, "the photo").data
    except ValidationError as exc:
        raise ArchiveError(
            f"{path}.jpeg_base64", " ".join(exc.messages).removeprefix("the photo: ")
        ) from None
    return ArchivedPhoto(taken_at=taken_at, by=by, data=data)
