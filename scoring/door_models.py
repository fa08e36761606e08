"""The door's and the purse's tables (issue 26), kept beside `scoring.models` (which imports them, so
Django finds them there): an event's entry fees and the fee lines the door records.

Nothing here talks to a payment provider: a fee line is a note of money taken at the door (cash, card,
transfer) or of a fee waived, with a reason. A line is never changed or deleted: a mistake is voided,
with a reason, and every write is audited (`scoring.services.fees`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class EventFees(models.Model):
    """An event's fees (`schedule`: [{"name": "Member", "amount": 100000}], in the currency's smallest
    unit) and its currency."""

    event = models.OneToOneField("scoring.Event", on_delete=models.CASCADE, related_name="fees")
    currency = models.CharField(max_length=3, default="JMD")
    decimals = models.PositiveSmallIntegerField(default=2)
    schedule = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        verbose_name_plural = "event fees"

    def __str__(self) -> str:
        return f"Fees of {self.event_id}"


class FeeLine(models.Model):
    """One fee paid or waived at the door, for one entry."""

    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        CARD = "card", "Card"
        TRANSFER = "transfer", "Transfer"
        WAIVED = "waived", "Waived"

    event = models.ForeignKey("scoring.Event", on_delete=models.CASCADE, related_name="fee_lines")
    entry = models.ForeignKey("scoring.Entry", on_delete=models.CASCADE, related_name="fee_lines")
    fee = models.CharField(max_length=100)
    amount = models.PositiveBigIntegerField()
    method = models.CharField(max_length=10, choices=Method.choices)
    note = models.CharField(max_length=200, blank=True)
    # A waiver's reason (required for one); the amount is then the fee forgone, not money taken.
    reason = models.CharField(max_length=500, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["recorded_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(method="waived") | ~Q(reason=""), name="feeline_waiver_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.fee} {self.method} {self.amount}"

    @property
    def is_void(self) -> bool:
        return self.voided_at is not None


class EventWaitlist(models.Model):
    """An event's field cap (None: no cap) and when the missing are released and the waitlist promoted
    (`release_at`, or the director's button); `released_at` once done."""

    event = models.OneToOneField("scoring.Event", on_delete=models.CASCADE, related_name="waitlist")
    cap = models.PositiveIntegerField(null=True, blank=True)
    release_at = models.DateTimeField(null=True, blank=True)
    released_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)

    def __str__(self) -> str:
        return f"Waitlist of {self.event_id}"


class PlayerDetails(models.Model):
    """What a federation needs of a player beyond name, club and membership id (issue 26, item 5):
    parish (Jamaica) or county; a date of birth, private to organisers and never exported (asked only
    when a prize category needs an age); and consent to appear by name on public lists (without it
    they show "Player <entry number>"). No row: no parish, no date of birth, consent given."""

    player = models.OneToOneField("scoring.Player", on_delete=models.CASCADE, related_name="details")
    parish = models.CharField(max_length=100, blank=True)
    date_of_birth = models.DateField(null=True, blank=True)
    consent_public = models.BooleanField(default=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        verbose_name_plural = "player details"

    def __str__(self) -> str:
        return f"Details of {self.player_id}"
