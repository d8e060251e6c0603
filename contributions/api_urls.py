"""The API's URLs for proposed card facts and the curators' review (under /api/, namespace `api`)."""

from django.urls import path

from contributions import api as contributions_api
from contributions import review_api, ruling_api

urlpatterns = [
    path("cards/<str:code>/proposals/", contributions_api.CardProposalsView.as_view(), name="card-proposals"),
    path("cards/<str:code>/rulings/", ruling_api.CardRulingsView.as_view(), name="card-rulings"),
    path("cards/<str:code>/reviews/", review_api.CardReviewsView.as_view(), name="card-reviews"),
    path("reviews/<int:review_id>/helpful/", review_api.HelpfulView.as_view(), name="review-helpful"),
    path("proposals/", contributions_api.ProposalListView.as_view(), name="proposal-list"),
    path("proposals/<int:proposal_id>/", contributions_api.ProposalDetailView.as_view(), name="proposal-detail"),
    path("proposals/<int:proposal_id>/photos/", contributions_api.ProposalPhotoView.as_view(), name="proposal-photos"),
    path("proposals/<int:proposal_id>/approve/", contributions_api.ApproveView.as_view(), name="proposal-approve"),
    path("proposals/<int:proposal_id>/reject/", contributions_api.RejectView.as_view(), name="proposal-reject"),
]
