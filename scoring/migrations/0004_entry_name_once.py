"""A name once per event, once normalised: the database refuses the second of two simultaneous entries."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0003_entry_normalized_name"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.UniqueConstraint(fields=("event", "normalized_name"), name="entry_name_once"),
        ),
    ]
