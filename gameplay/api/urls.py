from django.urls import path, re_path

from gameplay.api import drafts, rules, tables

urlpatterns = [
    path("rules/<str:game>/score/", rules.ScoreView.as_view(), name="api-rules-score"),
    path("rules/<str:game>/outcome/", rules.OutcomeView.as_view(), name="api-rules-outcome"),
    path(
        "tournaments/<int:pk>/drafts/",
        drafts.TournamentPodsView.as_view(),
        name="api-tournament-drafts",
    ),
    path("drafts/<int:pk>/", drafts.PodView.as_view(), name="api-draft"),
    path("drafts/<int:pk>/pick/", drafts.PickView.as_view(), name="api-draft-pick"),
    path("drafts/<int:pk>/highlight/", drafts.HighlightView.as_view(), name="api-draft-highlight"),
    path("drafts/<int:pk>/start/", drafts.PodStartView.as_view(), name="api-draft-start"),
    path("drafts/<int:pk>/pause/", drafts.PodPauseView.as_view(), name="api-draft-pause"),
    path("drafts/<int:pk>/resume/", drafts.PodResumeView.as_view(), name="api-draft-resume"),
    path("drafts/<int:pk>/end/", drafts.PodEndView.as_view(), name="api-draft-end"),
    path(
        "drafts/<int:pk>/seats/<int:position>/auto/",
        drafts.SeatAutoView.as_view(),
        name="api-draft-seat-auto",
    ),
    path("matches/<int:pk>/table/", tables.OpenTableView.as_view(), name="api-open-table"),
    path("tables/<int:pk>/", tables.TableView.as_view(), name="api-table"),
    path("tables/<int:pk>/turns/", tables.TurnView.as_view(), name="api-table-turns"),
    path("tables/<int:pk>/undo/", tables.UndoView.as_view(), name="api-table-undo"),
    path("tables/<int:pk>/first/", tables.FirstView.as_view(), name="api-table-first"),
    path("tables/<int:pk>/scores/", tables.ScoresView.as_view(), name="api-table-scores"),
    path("tables/<int:pk>/confirm/", tables.ConfirmView.as_view(), name="api-table-confirm"),
    re_path(
        r"^tables/(?P<pk>[0-9]+)/turns\.(?P<fmt>csv|json)$",
        tables.TurnLogView.as_view(),
        name="api-table-turn-log",
    ),
    path(
        "tournaments/<int:pk>/tables/",
        tables.RoundTablesView.as_view(),
        name="api-tournament-tables",
    ),
    re_path(
        r"^drafts/(?P<pk>[0-9]+)/picks\.(?P<fmt>csv|json)$",
        drafts.PickLogView.as_view(),
        name="api-draft-picks",
    ),
]
