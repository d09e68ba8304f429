from django.urls import path

from seasons.api import leagues, players, ratings, seeding

urlpatterns = [
    path(
        "clubs/<slug:club_slug>/ratings/",
        ratings.ClubRatingsView.as_view(),
        name="api-club-ratings",
    ),
    *players.urlpatterns,
    *leagues.urlpatterns,
]
urlpatterns += seeding.urlpatterns
