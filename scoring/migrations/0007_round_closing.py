"""A round records when it closed (its last seated table's set verified) and who closed it.

Rounds whose seated tables are all verified today are recorded as closed, at the moment their last set
was verified and by whoever verified it, with an audit entry in their event; no result changes.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

CLOSED = "kalooki.round.closed"
REASON = "every seated table of the round was verified when rounds began recording their closing"


def record_closed_rounds(apps, schema_editor):
    Round = apps.get_model("scoring", "Round")
    GameSet = apps.get_model("scoring", "GameSet")
    Table = apps.get_model("scoring", "Table")
    AuditEntry = apps.get_model("adjudication", "AuditEntry")
    seated = Table.objects.values_list("round_id", flat=True).distinct()
    still_open = Table.objects.exclude(game_set__status="verified").values_list("round_id", flat=True)
    for rnd in Round.objects.filter(pk__in=seated).exclude(pk__in=still_open).select_related("event"):
        last = (
            GameSet.objects.filter(table__round=rnd)
            .select_related("verified_by")
            .order_by("-verified_at", "-pk")
            .first()
        )
        rnd.closed_at = last.verified_at
        rnd.closed_by = last.verified_by
        rnd.save(update_fields=["closed_at", "closed_by"])
        tables = Table.objects.filter(round=rnd).count()
        AuditEntry.objects.create(
            event_id=rnd.event_id,
            action=CLOSED,
            created_at=timezone.now(),
            user=None,
            username="",
            object_type="scoring.round",
            object_id=str(rnd.pk),
            object_repr=f"{rnd.event.name} round {rnd.number}"[:200],
            before={"closed": False},
            after={
                "closed": True,
                "closed_at": rnd.closed_at.isoformat(),
                "closed_by": last.verified_by.username if last.verified_by else None,
                "tables": tables,
                "verified": tables,
            },
            reason=REASON,
        )


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0006_seasons_and_rating_lists"),
        ("adjudication", "0002_audit_values_read_safely"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="closed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="closed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(record_closed_rounds, migrations.RunPython.noop),
    ]
