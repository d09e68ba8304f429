from django.urls import path

from gameplay.api import views

urlpatterns = [
    path("rules/<str:game>/score/", views.ScoreView.as_view(), name="api-rules-score"),
    path("rules/<str:game>/outcome/", views.OutcomeView.as_view(), name="api-rules-outcome"),
]
