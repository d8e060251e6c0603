"""The API's URLs for the checker and saved decks (under /api/, namespace `api`)."""

from django.urls import path

from decks.api import card_stats as card_stats_api
from decks.api import checker as check_api
from decks.api import comments as comment_api
from decks.api import decks as deck_api

urlpatterns = [
    path("legality/", check_api.LegalityView.as_view(), name="legality"),
    path("decks/", deck_api.DeckListView.as_view(), name="deck-list"),
    path("decks/<int:deck_id>/", deck_api.DeckDetailView.as_view(), name="deck-detail"),
    path("decks/<int:deck_id>/legality/", deck_api.DeckLegalityView.as_view(), name="deck-legality"),
    path("decks/<int:deck_id>/missing/", deck_api.DeckMissingView.as_view(), name="deck-missing"),
    path("decks/<int:deck_id>/export/", deck_api.DeckExportView.as_view(), name="deck-export"),
    path("decks/<int:deck_id>/odds/", deck_api.DeckOddsView.as_view(), name="deck-odds"),
    path("decks/<int:deck_id>/like/", deck_api.DeckLikeView.as_view(), name="deck-like"),
    path("decks/<int:deck_id>/bookmark/", deck_api.DeckBookmarkView.as_view(), name="deck-bookmark"),
    path("decks/<int:deck_id>/comments/", comment_api.DeckCommentsView.as_view(), name="deck-comments"),
    path("cards/<str:code>/stats/", card_stats_api.CardStatsView.as_view(), name="card-stats"),
    path("comments/<int:comment_id>/", comment_api.CommentView.as_view(), name="comment"),
    path("comments/<int:comment_id>/report/", comment_api.CommentReportView.as_view(), name="comment-report"),
    path("comments/<int:comment_id>/hide/", comment_api.CommentHideView.as_view(), name="comment-hide"),
    path("decks/close/", deck_api.CloseEnoughView.as_view(), name="deck-close"),
    path("decks/compare/", deck_api.DeckCompareView.as_view(), name="deck-compare"),
]
