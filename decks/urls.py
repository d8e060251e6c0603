from django.urls import path

from decks.views import analysis, builder, comments, general, home, likes, outputs, shopping
from decks.views import checker as check_views
from decks.views import decks as deck_views

app_name = "decks"
urlpatterns = [
    path("check/", check_views.check_deck, name="check"),
    path("check/many/", check_views.check_many, name="check-many"),
    path("decks/", deck_views.public_list, name="public"),
    path("decks/mine/", deck_views.my_decks, name="mine"),
    path("decks/saved/", likes.saved, name="saved"),
    path("decks/new/", deck_views.new_deck, name="new"),
    path("decks/import/", deck_views.import_deck, name="import"),
    path("decks/compare/", analysis.compare, name="compare"),
    path("decks/archive/", outputs.archive, name="archive"),
    path("decks/archive/decks.zip", outputs.archive_download, {"what": "decks"}, name="archive-decks"),
    path("decks/archive/everything.zip", outputs.archive_download, {"what": "everything"}, name="archive-all"),
    path("decks/shopping/", shopping.shopping, name="shopping"),
    path("decks/shopping/want/", shopping.shopping_want, name="shopping-want"),
    path("decks/<int:deck_id>/", deck_views.detail, name="detail"),
    path("decks/<int:deck_id>/build/", builder.build, name="build"),
    path("decks/<int:deck_id>/change/", builder.change, name="change"),
    path("decks/<int:deck_id>/paste/", builder.paste, name="paste"),
    path("decks/<int:deck_id>/delete/", deck_views.delete, name="delete"),
    path("decks/<int:deck_id>/clone/", deck_views.clone, name="clone"),
    path("decks/<int:deck_id>/like/", likes.like, name="like"),
    path("decks/<int:deck_id>/bookmark/", likes.bookmark, name="bookmark"),
    path("decks/<int:deck_id>/link/", deck_views.new_link, name="new-link"),
    path("decks/<int:deck_id>/feature/", home.feature, name="feature"),
    path("d/<str:token>/", deck_views.linked, name="linked"),
    path("decks/<int:deck_id>/comments/", comments.write, name="comment"),
    path("cards/<str:code>/decks/", general.general_decks, name="general"),
    path("comments/<int:comment_id>/edit/", comments.edit, name="comment-edit"),
    path("comments/<int:comment_id>/delete/", comments.delete, name="comment-delete"),
    path("comments/<int:comment_id>/hide/", comments.hide, name="comment-hide"),
    path("comments/<int:comment_id>/report/", comments.report, name="comment-report"),
    path("decks/<int:deck_id>/history/", deck_views.history, name="history"),
    path("decks/<int:deck_id>/history/publish/", deck_views.publish_history, name="publish-history"),
    path("decks/<int:deck_id>/history/<int:number>/restore/", deck_views.restore, name="restore"),
    path("decks/<int:deck_id>/export.txt", outputs.export_text, name="export"),
    path("decks/<int:deck_id>/sheet/", outputs.sheet, name="sheet"),
    path("decks/<int:deck_id>/proxies/", outputs.proxies, name="proxies"),
    path("decks/<int:deck_id>/image.png", outputs.deck_image, name="image"),
    path("decks/<int:deck_id>/odds/", analysis.deck_odds, name="odds"),
    path("decks/<int:deck_id>/sample/", analysis.deck_sample, name="sample"),
    path("decks/<int:deck_id>/want-missing/", shopping.want_missing, name="want-missing"),
]
