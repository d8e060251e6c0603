"""A group's name is unique per owner (letters in either case as one). Groups that share a name
today keep the oldest as it is; each later one becomes "name (2)", "name (3)", … (shortened to
fit the field where it must), so that nothing is lost and the constraint can be made."""

import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models

MAX_NAME = 60  # groups.models.MAX_NAME when this was written: a migration keeps its own copy


def _renamed(name: str, n: int, taken: set[str]) -> str:
    while True:
        suffix = f" ({n})"
        candidate = name[: MAX_NAME - len(suffix)] + suffix
        if candidate.lower() not in taken:
            return candidate
        n += 1


def rename_duplicates(apps, schema_editor):
    Group = apps.get_model("groups", "Group")
    groups = list(Group.objects.order_by("owner_id", "pk").only("pk", "owner_id", "name"))
    # Every name an owner's groups have, so that a new name never meets a later group's own.
    taken: dict[int, set[str]] = {}
    for group in groups:
        taken.setdefault(group.owner_id, set()).add(group.name.lower())
    kept: dict[int, set[str]] = {}
    for group in groups:
        first = kept.setdefault(group.owner_id, set())
        if group.name.lower() in first:
            group.name = _renamed(group.name, 2, taken[group.owner_id])
            group.save(update_fields=["name"])
            taken[group.owner_id].add(group.name.lower())
        first.add(group.name.lower())


class Migration(migrations.Migration):
    dependencies = [
        ("groups", "0002_house_formats"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(rename_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="group",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("name"), models.F("owner"), name="group_name_once_per_owner"
            ),
        ),
    ]
