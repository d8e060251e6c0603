"""Each deck's card names on the deck row ("|"-joined, from its DeckName rows), and on
PostgreSQL a GIN index on their array: the search by cards reads it (decks.search.plays)."""

from django.db import migrations, models

FILL = {
    "postgresql": (
        "UPDATE decks_deck SET card_names = s.names FROM (SELECT deck_id, string_agg(name_key, '|' ORDER BY "
        "name_key) AS names FROM decks_deckname GROUP BY deck_id) s WHERE decks_deck.id = s.deck_id"
    ),
    # SQLite: group_concat takes no order, so the names are ordered in a subquery first.
    "sqlite": (
        "UPDATE decks_deck SET card_names = COALESCE((SELECT group_concat(name_key, '|') FROM (SELECT name_key "
        "FROM decks_deckname WHERE deck_id = decks_deck.id ORDER BY name_key)), '')"
    ),
}
INDEX = "deck_card_names_gin"


def fill_and_index(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor in FILL:
        schema_editor.execute(FILL[vendor])
    if vendor == "postgresql":
        schema_editor.execute(f"CREATE INDEX {INDEX} ON decks_deck USING gin (string_to_array(card_names, '|'))")


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0018_featured_decks"),
    ]

    operations = [
        migrations.AddField(
            model_name="deck",
            name="card_names",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.RunPython(fill_and_index, drop_index),
    ]
