"""Every list sent before lists became players as they were sent (the day's pages used to make
them when read) gets its player now, once."""

from django.db import migrations


def players_for_every_list(apps, schema_editor):
    # The day's own rule (the verdict of each list in the event's format, one player per user),
    # run on the models as they are at this migration.
    from events.day import players_from_lists

    Event = apps.get_model("events", "Event")
    for event in Event.objects.filter(submissions__tournament_player__isnull=True).distinct():
        players_from_lists(event)


class Migration(migrations.Migration):
    dependencies = [("events", "0006_settings_bounds")]

    operations = [migrations.RunPython(players_for_every_list, migrations.RunPython.noop)]
