"""A ruling outlives its deal: it keeps the set it was made in and, once the deal is deleted, the
deal's number; deleting a deal withdraws its rulings instead of deleting them (issue 10, part 3)."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def rulings_know_their_set(apps, schema_editor):
    Ruling = apps.get_model("adjudication", "Ruling")
    Deal = apps.get_model("scoring", "Deal")
    Ruling.objects.filter(game_set__isnull=True, deal__isnull=False).update(
        game_set=Subquery(Deal.objects.filter(pk=OuterRef("deal_id")).values("game_set_id")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("adjudication", "0002_audit_values_read_safely"),
        ("scoring", "0006_seasons_and_rating_lists"),
    ]

    # The schema changes come first and the rows are written last: PostgreSQL alters no table in the
    # transaction after writing its rows.
    operations = [
        migrations.AlterField(
            model_name="ruling",
            name="deal",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="rulings",
                to="scoring.deal",
            ),
        ),
        migrations.AddField(
            model_name="ruling",
            name="game_set",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rulings",
                to="scoring.gameset",
            ),
        ),
        migrations.AddField(
            model_name="ruling",
            name="deal_number",
            field=models.PositiveSmallIntegerField(
                blank=True, help_text="The deal's number, kept once the deal is deleted.", null=True
            ),
        ),
        migrations.RunPython(rulings_know_their_set, migrations.RunPython.noop),
    ]
