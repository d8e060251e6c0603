"""Decks public before followers existed count as announced (nobody is told of old decks), and
descriptions are rendered again so that their [[card]]s become links."""

from django.db import migrations, models


def announce_and_render(apps, schema_editor):
    from catalog.cardlinks import render_with_card_links

    deck = apps.get_model("decks", "Deck")
    deck.objects.filter(visibility="public").update(announced=True)
    for pk, text in deck.objects.filter(description__contains="[[").values_list("pk", "description").iterator():
        deck.objects.filter(pk=pk).update(description_html=render_with_card_links(text))


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0016_visibility"),
        ("catalog", "0010_scan_sources_and_leases"),
    ]

    operations = [
        migrations.AddField(
            model_name="deck",
            name="announced",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(announce_and_render, migrations.RunPython.noop),
    ]
