from django.urls import path

from gameplay import views

urlpatterns = [
    path("score/", views.score_helper, name="score-helper"),
    path("score/<slug:game>/", views.score_helper, name="score-helper-game"),
    path("drafts/<int:pk>/", views.draft_pick, name="draft-pick"),
    path("drafts/<int:pk>/control/", views.draft_control, name="draft-control"),
    path("drafts/<int:pk>/watch/", views.draft_watch, name="draft-watch"),
    path(
        "tournaments/<int:tournament_pk>/drafts/<slug:action>/",
        views.draft_action,
        name="draft-action",
    ),
]
