from django.urls import path

from seasons.api import views

urlpatterns = [
    path(
        "clubs/<slug:club_slug>/ratings/",
        views.ClubRatingsView.as_view(),
        name="api-club-ratings",
    ),
]
