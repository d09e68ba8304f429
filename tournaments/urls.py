from django.urls import path

from tournaments import swiss_views as swiss
from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/signup/", views.sign_up, name="signup"),
    path("accounts/profile/", views.profile, name="profile"),
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/new/", views.club_create, name="club-create"),
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("clubs/<slug:slug>/members/<int:pk>/role/", views.member_role, name="member-role"),
    path("clubs/<slug:slug>/members/<int:pk>/remove/", views.member_remove, name="member-remove"),
    path("clubs/<slug:slug>/tournaments/new/", views.tournament_create, name="tournament-create"),
    path("invitations/<str:token>/", views.invitation_accept, name="invitation-accept"),
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament-detail"),
    path("tournaments/<int:pk>/edit/", views.tournament_edit, name="tournament-edit"),
    path("tournaments/<int:pk>/publish/", views.tournament_publish, name="tournament-publish"),
    path("tournaments/<int:pk>/audit/", views.tournament_audit, name="tournament-audit"),
    path("tournaments/<int:pk>/register/", views.tournament_register, name="tournament-register"),
    path(
        "tournaments/<int:pk>/players/add/",
        views.tournament_add_player,
        name="tournament-add-player",
    ),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/withdraw/",
        views.registration_withdraw,
        name="registration-withdraw",
    ),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/check-in/",
        views.registration_check_in,
        name="registration-check-in",
    ),
    path("tournaments/<int:pk>/rounds/", swiss.round_current, name="round-current"),
    path("tournaments/<int:pk>/rounds/<int:number>/", swiss.round_detail, name="round-detail"),
    path("tournaments/<int:pk>/rounds/<int:number>/slips/", swiss.round_slips, name="round-slips"),
    path("tournaments/<int:pk>/do/<slug:action>/", swiss.round_action, name="round-action"),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/<slug:action>/",
        swiss.registration_action,
        name="registration-action",
    ),
    path("tournaments/<int:pk>/late-entrant/", swiss.late_entrant, name="late-entrant"),
    path("tournaments/<int:pk>/standings/", swiss.standings, name="standings"),
    path("tournaments/<int:pk>/history/", swiss.history, name="history"),
    path("tournaments/<int:pk>/matches/<int:match_pk>/", swiss.match_detail, name="match"),
    path("tournaments/<int:pk>/judge/", swiss.judge_grid, name="judge"),
    path("tournaments/<int:pk>/swiss/", swiss.swiss_settings, name="swiss-settings"),
    path("tournaments/<int:pk>/timer/", swiss.round_timer, name="round-timer"),
]
