from django.urls import path

from decks.views import checker as check_views
from decks.views import decks as deck_views

app_name = "decks"
urlpatterns = [
    path("check/", check_views.check_deck, name="check"),
    path("check/many/", check_views.check_many, name="check-many"),
    path("decks/", deck_views.public_list, name="public"),
    path("decks/mine/", deck_views.my_decks, name="mine"),
    path("decks/new/", deck_views.new_deck, name="new"),
    path("decks/import/", deck_views.import_deck, name="import"),
    path("decks/compare/", deck_views.compare, name="compare"),
    path("decks/archive/", deck_views.archive, name="archive"),
    path("decks/archive/decks.zip", deck_views.archive_download, {"what": "decks"}, name="archive-decks"),
    path("decks/archive/everything.zip", deck_views.archive_download, {"what": "everything"}, name="archive-all"),
    path("decks/shopping/", deck_views.shopping, name="shopping"),
    path("decks/shopping/want/", deck_views.shopping_want, name="shopping-want"),
    path("decks/<int:deck_id>/", deck_views.detail, name="detail"),
    path("decks/<int:deck_id>/build/", deck_views.build, name="build"),
    path("decks/<int:deck_id>/change/", deck_views.change, name="change"),
    path("decks/<int:deck_id>/paste/", deck_views.paste, name="paste"),
    path("decks/<int:deck_id>/delete/", deck_views.delete, name="delete"),
    path("decks/<int:deck_id>/clone/", deck_views.clone, name="clone"),
    path("decks/<int:deck_id>/history/", deck_views.history, name="history"),
    path("decks/<int:deck_id>/history/publish/", deck_views.publish_history, name="publish-history"),
    path("decks/<int:deck_id>/history/<int:number>/restore/", deck_views.restore, name="restore"),
    path("decks/<int:deck_id>/export.txt", deck_views.export_text, name="export"),
    path("decks/<int:deck_id>/sheet/", deck_views.sheet, name="sheet"),
    path("decks/<int:deck_id>/proxies/", deck_views.proxies, name="proxies"),
    path("decks/<int:deck_id>/image.png", deck_views.deck_image, name="image"),
    path("decks/<int:deck_id>/odds/", deck_views.deck_odds, name="odds"),
    path("decks/<int:deck_id>/sample/", deck_views.deck_sample, name="sample"),
    path("decks/<int:deck_id>/want-missing/", deck_views.want_missing, name="want-missing"),
]
