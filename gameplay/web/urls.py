from django.urls import path

from gameplay.web import drafts, score

urlpatterns = [
    path("score/", score.score_helper, name="score-helper"),
    path("score/<slug:game>/", score.score_helper, name="score-helper-game"),
    path("drafts/<int:pk>/", drafts.draft_pick, name="draft-pick"),
    path("drafts/<int:pk>/control/", drafts.draft_control, name="draft-control"),
    path("drafts/<int:pk>/watch/", drafts.draft_watch, name="draft-watch"),
    path(
        "tournaments/<int:tournament_pk>/drafts/<slug:action>/",
        drafts.draft_action,
        name="draft-action",
    ),
]
