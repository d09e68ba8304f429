from django.urls import path

from gameplay.web import drafts, score, tables

urlpatterns = [
    path("score/", score.score_helper, name="score-helper"),
    path("score/<slug:game>/", score.score_helper, name="score-helper-game"),
    path("drafts/<int:pk>/", drafts.draft_pick, name="draft-pick"),
    path("drafts/<int:pk>/control/", drafts.draft_control, name="draft-control"),
    path("drafts/<int:pk>/watch/", drafts.draft_watch, name="draft-watch"),
    path("matches/<int:match_pk>/table/", tables.open_table, name="open-table"),
    path("tables/<int:pk>/", tables.table_page, name="live-table"),
    path("tournaments/<int:tournament_pk>/tables/", tables.round_tables, name="round-tables"),
    path(
        "tournaments/<int:tournament_pk>/drafts/<slug:action>/",
        drafts.draft_action,
        name="draft-action",
    ),
]
