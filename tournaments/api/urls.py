from django.urls import path, re_path

from tournaments.api import (
    clubs,
    judge_calls,
    matches,
    people,
    pods,
    projector,
    registrations,
    rounds,
    stages,
    standings,
    tournaments,
)
from tournaments.api.caching import public

club_members = clubs.ClubMemberViewSet
registration_set = registrations.RegistrationViewSet

urlpatterns = [
    path("auth/token/", people.TokenView.as_view(), name="api-token"),
    path("me/", people.MeView.as_view(), name="api-me"),
    path("clubs/", clubs.ClubViewSet.as_view({"get": "list", "post": "create"}), name="api-clubs"),
    path("clubs/<slug:slug>/", clubs.ClubViewSet.as_view({"get": "retrieve"}), name="api-club"),
    path(
        "clubs/<slug:club_slug>/members/",
        club_members.as_view({"get": "list", "post": "create"}),
        name="api-club-members",
    ),
    path(
        "clubs/<slug:club_slug>/members/invite/",
        club_members.as_view({"post": "invite"}),
        name="api-club-invite",
    ),
    path(
        "clubs/<slug:club_slug>/members/<int:pk>/",
        club_members.as_view({"patch": "partial_update", "delete": "destroy"}),
        name="api-club-member",
    ),
    path(
        "tournaments/",
        tournaments.TournamentViewSet.as_view({"get": "list", "post": "create"}),
        name="api-tournaments",
    ),
    path(
        "tournaments/<int:pk>/",
        tournaments.TournamentViewSet.as_view({"get": "retrieve", "patch": "partial_update"}),
        name="api-tournament",
    ),
    path(
        "tournaments/<int:pk>/publish/",
        tournaments.TournamentViewSet.as_view({"post": "publish"}),
        name="api-tournament-publish",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/",
        registration_set.as_view({"get": "list", "post": "create"}),
        name="api-registrations",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/bulk/",
        registrations.BulkAddView.as_view(),
        name="api-registrations-bulk",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/check-in/",
        registrations.CheckInManyView.as_view(),
        name="api-registrations-check-in",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/<int:pk>/",
        registration_set.as_view({"delete": "destroy"}),
        name="api-registration",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/<int:pk>/check-in/",
        registration_set.as_view({"post": "check_in"}),
        name="api-registration-check-in",
    ),
    *(
        path(
            f"tournaments/<int:tournament_pk>/registrations/<int:pk>/{segment}/",
            registration_set.as_view({"post": name}),
            name=f"api-registration-{segment}",
        )
        for segment, name in (
            ("invite", "invite"),
            ("answer", "answer"),
            ("remove-teammate", "remove_teammate"),
            ("assign", "assign"),
            ("rename", "rename"),
        )
    ),
    path(
        "tournaments/<int:pk>/start/", tournaments.TournamentStartView.as_view(), name="api-start"
    ),
    path(
        "tournaments/<int:pk>/finish/",
        tournaments.TournamentFinishView.as_view(),
        name="api-finish",
    ),
    path("tournaments/<int:pk>/stages/", public(stages.StageListView.as_view()), name="api-stages"),
    path("tournaments/<int:pk>/pods/", pods.PodStageView.as_view(), name="api-pod-stage"),
    path("matches/<int:pk>/pod-report/", pods.PodReportView.as_view(), name="api-pod-report"),
    path("matches/<int:pk>/pod-confirm/", pods.PodConfirmView.as_view(), name="api-pod-confirm"),
    path("matches/<int:pk>/pod-judge/", pods.PodJudgeView.as_view(), name="api-pod-judge"),
    path(
        "tournaments/<int:pk>/stages/<int:number>/bracket/",
        public(stages.BracketView.as_view()),
        name="api-bracket",
    ),
    path(
        "tournaments/<int:pk>/stages/<int:number>/bracket.csv",
        public(stages.BracketExportView.as_view()),
        name="api-bracket-csv",
    ),
    path("tournaments/<int:pk>/swiss/", stages.SwissSettingsView.as_view(), name="api-swiss"),
    path("tournaments/<int:pk>/rounds/", public(rounds.RoundListView.as_view()), name="api-rounds"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/",
        public(rounds.RoundDetailView.as_view()),
        name="api-round",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/start/",
        rounds.RoundStartView.as_view(),
        name="api-round-start",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/extend/",
        rounds.RoundExtendView.as_view(),
        name="api-round-extend",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/repair/",
        rounds.RoundRepairView.as_view(),
        name="api-round-repair",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/swap/",
        rounds.RoundSwapView.as_view(),
        name="api-round-swap",
    ),
    path(
        "tournaments/<int:pk>/matches/", public(matches.MatchListView.as_view()), name="api-matches"
    ),
    path(
        "tournaments/<int:pk>/standings/",
        public(standings.StandingsView.as_view()),
        name="api-standings",
    ),
    path("tournaments/<int:pk>/events/", standings.EventFeedView.as_view(), name="api-events"),
    path(
        "tournaments/<int:pk>/announcement/",
        projector.AnnouncementView.as_view(),
        name="api-announcement",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/export/(?P<what>pairings|standings)\.(?P<fmt>csv|json)$",
        public(standings.ExportView.as_view()),
        name="api-export",
    ),
    path(
        "tournaments/<int:pk>/late-entrants/",
        registrations.LateEntrantView.as_view(),
        name="api-late-entrants",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/<int:pk>/drop/",
        registrations.DropView.as_view(),
        name="api-registration-drop",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/<int:pk>/readd/",
        registrations.ReaddView.as_view(),
        name="api-registration-readd",
    ),
    path("matches/<int:pk>/", matches.MatchDetailView.as_view(), name="api-match"),
    path("matches/<int:pk>/report/", matches.MatchReportView.as_view(), name="api-match-report"),
    path("matches/<int:pk>/confirm/", matches.MatchConfirmView.as_view(), name="api-match-confirm"),
    path("matches/<int:pk>/judge/", matches.MatchJudgeView.as_view(), name="api-match-judge"),
    path(
        "matches/<int:pk>/call-judge/",
        judge_calls.CallJudgeView.as_view(),
        name="api-match-call-judge",
    ),
    path(
        "judge-calls/<int:pk>/answer/",
        judge_calls.AnswerCallView.as_view(),
        name="api-judge-call-answer",
    ),
    path(
        "judge-calls/<int:pk>/close/",
        judge_calls.CloseCallView.as_view(),
        name="api-judge-call-close",
    ),
]
