from django.urls import path

from tournaments.web import (
    accounts,
    clubs,
    control,
    final_results,
    judge_calls,
    pods,
    projector,
    registration,
    results,
    rounds,
    stages,
    standings,
    tournaments,
)
from tournaments.web.caching import public, public_clock

urlpatterns = [
    path("", accounts.home, name="home"),
    path("accounts/signup/", accounts.sign_up, name="signup"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("language/", accounts.choose_language, name="choose-language"),
    path("accounts/profile/claim/", accounts.claim, name="profile-claim"),
    path("clubs/", clubs.club_list, name="club-list"),
    path("clubs/new/", clubs.club_create, name="club-create"),
    path("clubs/<slug:slug>/", clubs.club_detail, name="club-detail"),
    path("clubs/<slug:slug>/members/<int:pk>/role/", clubs.member_role, name="member-role"),
    path("clubs/<slug:slug>/members/<int:pk>/remove/", clubs.member_remove, name="member-remove"),
    path(
        "clubs/<slug:slug>/tournaments/new/",
        tournaments.tournament_create,
        name="tournament-create",
    ),
    path("invitations/<str:token>/", clubs.invitation_accept, name="invitation-accept"),
    path("tournaments/", tournaments.tournament_list, name="tournament-list"),
    path("tournaments/<int:pk>/", tournaments.tournament_detail, name="tournament-detail"),
    path("tournaments/<int:pk>/edit/", tournaments.tournament_edit, name="tournament-edit"),
    path(
        "tournaments/<int:pk>/publish/", tournaments.tournament_publish, name="tournament-publish"
    ),
    path("tournaments/<int:pk>/audit/", tournaments.tournament_audit, name="tournament-audit"),
    path(
        "tournaments/<int:pk>/register/",
        registration.tournament_register,
        name="tournament-register",
    ),
    path(
        "tournaments/<int:pk>/players/add/",
        registration.tournament_add_player,
        name="tournament-add-player",
    ),
    path(
        "tournaments/<int:pk>/registrations/bulk/",
        registration.tournament_bulk_add,
        name="tournament-bulk-add",
    ),
    path(
        "tournaments/<int:pk>/registrations/check-in/",
        registration.tournament_check_in_many,
        name="tournament-check-in-many",
    ),
    path(
        "tournaments/<int:pk>/players/", registration.tournament_players, name="tournament-players"
    ),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/withdraw/",
        registration.registration_withdraw,
        name="registration-withdraw",
    ),
    path(
        "tournaments/<int:pk>/players/<int:player_pk>/undo-claim/",
        registration.player_undo_claim,
        name="player-undo-claim",
    ),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/check-in/",
        registration.registration_check_in,
        name="registration-check-in",
    ),
    path("tournaments/<int:pk>/rounds/", rounds.round_current, name="round-current"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/",
        public(rounds.round_detail),
        name="round-detail",
    ),
    path("tournaments/<int:pk>/rounds/<int:number>/slips/", rounds.round_slips, name="round-slips"),
    path("tournaments/<int:pk>/do/<slug:action>/", rounds.round_action, name="round-action"),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/team/invite/",
        registration.team_invite,
        name="team-invite",
    ),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/team/answer/",
        registration.team_answer,
        name="team-answer",
    ),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/team/remove-teammate/",
        registration.team_remove_teammate,
        name="team-remove-teammate",
    ),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/team/assign/",
        registration.team_assign,
        name="team-assign",
    ),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/team/rename/",
        registration.team_rename,
        name="team-rename",
    ),
    path(
        "tournaments/<int:pk>/registrations/<int:reg_pk>/<slug:action>/",
        registration.registration_action,
        name="registration-action",
    ),
    path("tournaments/<int:pk>/late-entrant/", registration.late_entrant, name="late-entrant"),
    path("tournaments/<int:pk>/standings/", public(standings.standings), name="standings"),
    path("tournaments/<int:pk>/history/", public(standings.history), name="history"),
    path(
        "tournaments/<int:pk>/results/", public(final_results.final_results), name="final-results"
    ),
    path(
        "tournaments/<int:pk>/results/card.svg",
        public(final_results.final_results_card),
        name="final-results-card",
    ),
    path("tournaments/<int:pk>/matches/<int:match_pk>/", results.match_detail, name="match"),
    path(
        "tournaments/<int:pk>/matches/<int:match_pk>/judge-call/",
        judge_calls.judge_call,
        name="judge-call",
    ),
    path("tournaments/<int:pk>/judge/", results.judge_grid, name="judge"),
    path("tournaments/<int:pk>/control/", control.control, name="control"),
    path("tournaments/<int:pk>/swiss/", stages.swiss_settings, name="swiss-settings"),
    path("tournaments/<int:pk>/stages/", stages.stage_list, name="stages"),
    path("tournaments/<int:pk>/pods/", pods.pod_stage, name="pods"),
    path("tournaments/<int:pk>/stages/<int:number>/pods/", pods.pod_stage, name="pod-stage"),
    path("tournaments/<int:pk>/pods/slips/", pods.pod_slips, name="pod-slips"),
    path(
        "tournaments/<int:pk>/stages/<int:number>/bracket/", public(stages.bracket), name="bracket"
    ),
    path(
        "tournaments/<int:pk>/stages/<int:number>/grid/",
        public(stages.round_robin_grid),
        name="round-robin",
    ),
    path("tournaments/<int:pk>/timer/", rounds.round_timer, name="round-timer"),
    path("tournaments/<int:pk>/projector/", projector.projector, name="projector"),
    path(
        "tournaments/<int:pk>/projector/content/",
        public_clock(projector.projector_content),
        name="projector-content",
    ),
    path(
        "tournaments/<int:pk>/projector/announcement/",
        projector.projector_announcement,
        name="projector-announcement",
    ),
    path("tournaments/<int:pk>/my-match/", projector.my_match, name="my-match"),
]
