from django.urls import path

from gameplay import views

urlpatterns = [
    path("score/", views.score_helper, name="score-helper"),
    path("score/<slug:game>/", views.score_helper, name="score-helper-game"),
]
