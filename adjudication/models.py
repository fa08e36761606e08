"""Rulings on infractions and the append-only audit log.

Both are written only through services (`adjudication.services`, `adjudication.audit.audit_record`).
"""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Ruling(models.Model):
    """A director's ruling on a player in a deal.

    An over-call (R17) or contract error (R18) adds the ruleset's penalty; `other` adds `points` for
    another infraction, with a reason. While a ruling stands (standing, appealed or upheld) the
    matching DealResult flag is set; an overturned or withdrawn ruling clears it. Its history lives
    in the audit log (`kalooki.ruling.*`).
    """

    class Kind(models.TextChoices):
        OVERCALL = "overcall", "Over-call (R17)"
        CONTRACT_ERROR = "contract_error", "Contract error (R18)"
        OTHER = "other", "Other infraction"

    class Status(models.TextChoices):
        STANDING = "standing", "Standing"
        APPEALED = "appealed", "Appealed"
        UPHELD = "upheld", "Upheld on appeal"
        OVERTURNED = "overturned", "Overturned on appeal"
        WITHDRAWN = "withdrawn", "Withdrawn (result corrected)"

    # Statuses under which the ruling's points count.
    IN_FORCE = (Status.STANDING, Status.APPEALED, Status.UPHELD)
    DEFAULT_RULE = {Kind.OVERCALL: "R17", Kind.CONTRACT_ERROR: "R18", Kind.OTHER: ""}

    # A ruling outlives its deal: deleting the deal withdraws the ruling (its own audit entry) and
    # keeps it, with the set it was made in and the deal's number (`deal_number`).
    deal = models.ForeignKey(
        "scoring.Deal", on_delete=models.SET_NULL, null=True, blank=True, related_name="rulings"
    )
    game_set = models.ForeignKey(
        "scoring.GameSet", on_delete=models.CASCADE, null=True, blank=True, related_name="rulings"
    )
    deal_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The deal's number, kept once the deal is deleted."
    )
    entry = models.ForeignKey("scoring.Entry", on_delete=models.PROTECT, related_name="rulings")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # The points this ruling adds to the player's deal score (undoubled, R14).
    points = models.PositiveIntegerField(default=0)
    reason = models.TextField(blank=True)
    rule = models.CharField(max_length=20, blank=True, help_text="The rule cited, e.g. R17.")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.STANDING)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    issued_at = models.DateTimeField(default=timezone.now)
    appeal_reason = models.TextField(blank=True)
    appealed_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["deal__game_set", "deal__sequence", "issued_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="other") | Q(points__gte=1), name="ruling_other_has_points"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.entry} in deal {self.number_of_deal}"

    @property
    def in_force(self) -> bool:
        return self.status in self.IN_FORCE

    @property
    def deal_deleted(self) -> bool:
        return self.deal_id is None

    @property
    def number_of_deal(self) -> int | None:
        """The number of the deal ruled on, kept once that deal is deleted."""
        return self.deal.number if self.deal_id is not None else self.deal_number

    @property
    def set_ruled(self):
        """The set the ruling was made in (read through the deal while it exists: callers select it)."""
        return self.deal.game_set if self.deal_id is not None else self.game_set


class AppendOnlyError(RuntimeError):
    """Raised on any attempt to change or delete an audit entry."""


# What a log page shows for a before/after value too deeply nested for Python's JSON decoder (written
# before archives were held to the spec's depth): a note, so one entry cannot break every page listing it.
UNREADABLE_VALUE = "(a value nested too deeply to show)"


class AuditValueField(models.JSONField):
    """A JSON before/after value, read back as `UNREADABLE_VALUE` when the decoder cannot read it."""

    def from_db_value(self, value, expression, connection):
        try:
            return super().from_db_value(value, expression, connection)
        except RecursionError:
            return UNREADABLE_VALUE


class AuditQuerySet(models.QuerySet):
    def delete(self):
        raise AppendOnlyError("The audit log is append-only: entries cannot be deleted.")

    delete.alters_data = True
    delete.queryset_only = True

    def update(self, **kwargs):
        raise AppendOnlyError("The audit log is append-only: entries cannot be changed.")

    update.alters_data = True

    def bulk_update(self, objs, fields, batch_size=None):
        raise AppendOnlyError("The audit log is append-only: entries cannot be changed.")

    def _update(self, values):
        raise AppendOnlyError("The audit log is append-only: entries cannot be changed.")


class AuditEntry(models.Model):
    """One change, written once: who, when, what (before/after) and why. Never changed or deleted.

    `action` is a dotted name (`kalooki.deal.corrected`); `object_type` is `app_label.model`.
    """

    event = models.ForeignKey(
        "scoring.Event", on_delete=models.PROTECT, null=True, blank=True, related_name="audit"
    )
    action = models.CharField(max_length=100, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # Kept as written so the entry reads the same if the account is later renamed.
    username = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    object_type = models.CharField(max_length=100, blank=True)
    object_id = models.CharField(max_length=64, blank=True)
    object_repr = models.CharField(max_length=200, blank=True)
    before = AuditValueField(null=True, blank=True, encoder=DjangoJSONEncoder)
    after = AuditValueField(null=True, blank=True, encoder=DjangoJSONEncoder)
    reason = models.TextField(blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object_idx")]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.action} by {self.username or '—'}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError("The audit log is append-only: entries cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("The audit log is append-only: entries cannot be deleted.")
