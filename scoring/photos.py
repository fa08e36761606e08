"""A photo of a signed score sheet made fit to keep (issue 23): checked, turned upright, downscaled and
written again as a plain JPEG (Pillow), so what is stored carries no EXIF — no place, no camera, no
time — and stays small enough for every backup and archive.

Nothing here touches the database: `photo_prepared` takes the uploaded bytes and the file's name and
returns the JPEG to store, or raises a ValidationError naming the file and what is wrong with it.
`photo_kept` reads a photo an archive brings back: a clean JPEG of ours is kept byte for byte (so an
archive round-trips), anything else is prepared as an upload is.
"""

from __future__ import annotations

import hashlib
import warnings
from dataclasses import dataclass
from io import BytesIO

from django.core.exceptions import ValidationError
from PIL import Image, ImageOps, UnidentifiedImageError

# What a phone's camera sends (a few MB), with room to spare; anything larger is refused unread.
MAX_UPLOAD_BYTES = 15 * 1024 * 1024
# A picture of more pixels than a phone's camera takes is refused before it is decoded.
MAX_PIXELS = 50_000_000
# The stored photo: its long side at most this many pixels, and at most this many bytes.
LONG_SIDE = 2000
MAX_STORED_BYTES = 300 * 1024
# The formats a phone's camera or a scanner writes (MPO: a JPEG with a second view, from some cameras).
FORMATS = {"JPEG": "JPEG", "MPO": "JPEG", "PNG": "PNG", "WEBP": "WebP"}
QUALITIES = (82, 72, 62, 52)


@dataclass(frozen=True)
class PreparedPhoto:
    """The JPEG to store, its size in pixels and its SHA-256 (hex)."""

    data: bytes
    width: int
    height: int

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"


def _refused(name: str, problem: str) -> ValidationError:
    return ValidationError({"photo": [f"{name}: {problem}"]}, code="photo")


def too_large(name: str, size: int) -> ValidationError | None:
    """The refusal of a file of `size` bytes, said before it is read; None when it may be read."""
    if size > MAX_UPLOAD_BYTES:
        return _refused(
            name,
            f"the file is {_megabytes(size)}; a photo of the sheet may be at most "
            f"{_megabytes(MAX_UPLOAD_BYTES)}. Take it again at a lower resolution.",
        )
    if size == 0:
        return _refused(name, "the file is empty: take the photo again.")
    return None


def _opened(data: bytes, name: str) -> tuple[str, tuple[int, int]]:
    """The picture's format and size, checked without decoding it; refused when it is none we read."""
    not_a_photo = _refused(name, "this is not a photo: send a JPEG, PNG or WebP picture of the signed sheet.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(BytesIO(data)) as probe:
                found, size = probe.format or "", probe.size
                probe.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise not_a_photo from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _refused(name, f"the picture has more than {MAX_PIXELS:,} pixels.") from None
    if found not in FORMATS:
        raise _refused(name, f"a {found} picture; send a JPEG, PNG or WebP photo of the signed sheet.")
    if size[0] * size[1] > MAX_PIXELS:
        raise _refused(
            name, f"the picture is {size[0]} × {size[1]} pixels; at most {MAX_PIXELS:,} pixels are read."
        )
    return found, size


def photo_prepared(data: bytes, name: str) -> PreparedPhoto:
    """The upload as the JPEG to store: upright (its EXIF orientation applied), its long side at most
    `LONG_SIDE` pixels, at most `MAX_STORED_BYTES`, with no metadata at all. Raises ValidationError
    (keyed `photo`, naming the file) for a file too large, empty or not a picture."""
    problem = too_large(name, len(data))
    if problem is not None:
        raise problem
    _opened(data, name)
    try:
        with Image.open(BytesIO(data)) as image:
            image.load()
            upright = ImageOps.exif_transpose(image) or image
            picture = upright.convert("RGBA" if "A" in upright.getbands() else "RGB")
    except (OSError, SyntaxError, ValueError, EOFError):
        raise _refused(name, "the picture cannot be read (a damaged file?): take the photo again.") from None
    # A fresh image: nothing of the original's info (EXIF, XMP, ICC, comments) comes along.
    clean = Image.new("RGB", picture.size, "white")
    clean.paste(picture, mask=picture.getchannel("A") if picture.mode == "RGBA" else None)
    clean.thumbnail((LONG_SIDE, LONG_SIDE), Image.Resampling.LANCZOS)
    while True:
        for quality in QUALITIES:
            out = BytesIO()
            clean.save(out, "JPEG", quality=quality, optimize=True)
            if out.tell() <= MAX_STORED_BYTES:
                return PreparedPhoto(out.getvalue(), clean.width, clean.height)
        clean.thumbnail((clean.width * 3 // 4, clean.height * 3 // 4), Image.Resampling.LANCZOS)


METADATA_KEYS = ("exif", "xmp", "XML:com.adobe.xmp", "icc_profile", "comment")


def has_metadata(data: bytes) -> bool:
    """Whether a picture carries EXIF, XMP, an ICC profile, a comment or any JPEG segment but JFIF's
    (anything beyond the picture)."""
    with Image.open(BytesIO(data)) as image:
        segments = [marker for marker, _ in getattr(image, "applist", [])]
        return (
            bool(image.getexif())
            or any(key in image.info for key in METADATA_KEYS)
            or any(marker != "APP0" for marker in segments)
        )


def photo_kept(data: bytes, name: str) -> PreparedPhoto:
    """A photo an archive brings back: kept byte for byte when it is a JPEG as `photo_prepared` writes
    them (within the sizes, no metadata), else prepared as an upload is."""
    found, (width, height) = _opened(data, name)
    if (
        FORMATS[found] == "JPEG"
        and len(data) <= MAX_STORED_BYTES
        and max(width, height) <= LONG_SIDE
        and not has_metadata(data)
    ):
        return PreparedPhoto(data, width, height)
    return photo_prepared(data, name)
