from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token

from tournaments.api import views

club_members = views.ClubMemberViewSet
registrations = views.RegistrationViewSet

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("me/", views.MeView.as_view(), name="api-me"),
    path("clubs/", views.ClubViewSet.as_view({"get": "list", "post": "create"}), name="api-clubs"),
    path("clubs/<slug:slug>/", views.ClubViewSet.as_view({"get": "retrieve"}), name="api-club"),
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
        views.TournamentViewSet.as_view({"get": "list", "post": "create"}),
        name="api-tournaments",
    ),
    path(
        "tournaments/<int:pk>/",
        views.TournamentViewSet.as_view({"get": "retrieve", "patch": "partial_update"}),
        name="api-tournament",
    ),
    path(
        "tournaments/<int:pk>/publish/",
        views.TournamentViewSet.as_view({"post": "publish"}),
        name="api-tournament-publish",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/",
        registrations.as_view({"get": "list", "post": "create"}),
        name="api-registrations",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/<int:pk>/",
        registrations.as_view({"delete": "destroy"}),
        name="api-registration",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/<int:pk>/check-in/",
        registrations.as_view({"post": "check_in"}),
        name="api-registration-check-in",
    ),
]
