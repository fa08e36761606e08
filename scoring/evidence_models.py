"""The signed sheet as evidence (issue 23): a photo of a table's signed paper sheet, kept with its set
(beside `scoring.models`, which imports it so Django finds it there).

The photo is kept in the database, so it is in every backup, in the event's archive
(`tables[].evidence`) and deleted with the event (by cascade from its set). Only what
`scoring.photos` made of the upload is stored: a downscaled JPEG with no EXIF (no place, no camera),
written through `scoring.services.evidence` (audited). Only the event's directors see it.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

# Who took a photo ("seat 2 (Bob)", "director alice"): the upload cuts it, an archive is held to it.
BY_LENGTH = 120


class SheetPhoto(models.Model):
    """One photo of a table's signed sheet: who took it (`by`: "seat 2 (Bob)" or "director alice")
    and when, the JPEG itself and its SHA-256."""

    game_set = models.ForeignKey("scoring.GameSet", on_delete=models.CASCADE, related_name="photos")
    taken_at = models.DateTimeField(default=timezone.now)
    by = models.CharField(max_length=BY_LENGTH)
    sha256 = models.CharField(max_length=64)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        ordering = ["game_set", "taken_at", "pk"]

    def __str__(self) -> str:
        return f"Photo of the sheet of {self.game_set.table}, {self.by}"

    @property
    def size(self) -> int:
        return len(self.data)
