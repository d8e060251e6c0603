"""A deck is private, unlisted or public: the boolean `public` becomes `visibility`."""

from django.conf import settings
from django.db import migrations, models


def public_to_visibility(apps, schema_editor):
    apps.get_model("decks", "Deck").objects.filter(public=True).update(visibility="public")


def visibility_to_public(apps, schema_editor):
    apps.get_model("decks", "Deck").objects.filter(visibility="public").update(public=True)


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0010_scan_sources_and_leases"),
        ("collection", "0003_change_batches"),
        ("decks", "0015_comments"),
        ("groups", "0003_group_name_once_per_owner"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="deck",
            name="link_token",
            field=models.CharField(blank=True, editable=False, max_length=32, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="deck",
            name="visibility",
            field=models.CharField(
                choices=[("private", "Private"), ("unlisted", "Unlisted: anyone with its link"), ("public", "Public")],
                default="private",
                max_length=10,
            ),
        ),
        # Without loss: a public deck stays public, every other one private (as it was).
        migrations.RunPython(public_to_visibility, visibility_to_public),
        migrations.RemoveIndex(
            model_name="deck",
            name="decks_deck_public_822e7e_idx",
        ),
        migrations.RemoveIndex(
            model_name="deck",
            name="decks_deck_public_191bea_idx",
        ),
        migrations.RemoveIndex(
            model_name="deck",
            name="deck_most_liked",
        ),
        migrations.RemoveIndex(
            model_name="deck",
            name="deck_most_liked_week",
        ),
        migrations.RemoveIndex(
            model_name="deck",
            name="deck_most_commented",
        ),
        migrations.RemoveField(
            model_name="deck",
            name="public",
        ),
        migrations.AddIndex(
            model_name="deck",
            index=models.Index(fields=["visibility", "-updated", "-id"], name="deck_listed_updated"),
        ),
        migrations.AddIndex(
            model_name="deck",
            index=models.Index(fields=["visibility", "-created", "-id"], name="deck_listed_created"),
        ),
        migrations.AddIndex(
            model_name="deck",
            index=models.Index(fields=["visibility", "-like_count", "-id"], name="deck_most_liked"),
        ),
        migrations.AddIndex(
            model_name="deck",
            index=models.Index(fields=["visibility", "-likes_week", "-id"], name="deck_most_liked_week"),
        ),
        migrations.AddIndex(
            model_name="deck",
            index=models.Index(fields=["visibility", "-comment_count", "-id"], name="deck_most_commented"),
        ),
    ]
