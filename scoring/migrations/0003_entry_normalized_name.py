"""Each entry keeps its player's name as compared (`scoring.names.name_key`), unique per event.

Entries made before the rule may clash once normalised (`Ann` and `ann`, or a full-width `Ａｎｎ`):
the later entry's player is renamed "Name (2)" (or the next free number), with an audit entry in each
event the player is entered in. The next migration adds the constraint (PostgreSQL cannot alter a
table in the transaction that just wrote its rows).
"""

from django.db import migrations, models
from django.utils import timezone

from scoring.names import name_key

RENAMED = "kalooki.player.renamed"
REASON = "two players of one event had the same name once normalised; the later entry was renamed"


def free_name(name, taken):
    number = 2
    while name_key(f"{name} ({number})") in taken:
        number += 1
    return f"{name} ({number})"


def normalise_and_rename_clashes(apps, schema_editor):
    Entry = apps.get_model("scoring", "Entry")
    AuditEntry = apps.get_model("adjudication", "AuditEntry")
    held = {}  # event id -> keys of the entries read so far
    entries = Entry.objects.select_related("player").order_by("created_at", "pk")
    for entry in entries:
        # The player may have been renamed since the rows were read.
        player = type(entry.player).objects.get(pk=entry.player_id)
        key = name_key(player.name)
        if key in held.setdefault(entry.event_id, set()):
            events = list(Entry.objects.filter(player=player).values_list("event_id", flat=True))
            # Every name of every event this player is in: the new one must be free in all of them.
            taken = {
                name_key(name)
                for name in Entry.objects.filter(event_id__in=events)
                .exclude(player=player)
                .values_list("player__name", flat=True)
            }
            before = player.name
            player.name = free_name(before, taken)
            player.save(update_fields=["name"])
            key = name_key(player.name)
            for event_id in events:
                if event_id != entry.event_id and event_id in held:
                    # Where this player was read already the old key was theirs; here it is the other's.
                    held[event_id].discard(name_key(before))
                    held[event_id].add(key)
                AuditEntry.objects.create(
                    event_id=event_id,
                    action=RENAMED,
                    created_at=timezone.now(),
                    object_type="scoring.player",
                    object_id=str(player.pk),
                    object_repr=player.name[:200],
                    before={"name": before},
                    after={"name": player.name},
                    reason=REASON,
                )
            Entry.objects.filter(player=player).update(normalized_name=key)
        held[entry.event_id].add(key)
        Entry.objects.filter(pk=entry.pk).update(normalized_name=key)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0002_void_deal_as_written_substitute_deal"),
        ("adjudication", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="normalized_name",
            field=models.TextField(default="", editable=False),
            preserve_default=False,
        ),
        migrations.RunPython(normalise_and_rename_clashes, migrations.RunPython.noop),
    ]
