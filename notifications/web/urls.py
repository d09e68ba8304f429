from django.urls import path

from notifications.web import views

urlpatterns = [
    path("account/notifications/", views.notification_settings, name="notification-settings"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("clubs/<slug:slug>/webhooks/", views.club_webhooks, name="club-webhooks"),
    path(
        "clubs/<slug:slug>/webhooks/<int:pk>/<slug:action>/",
        views.webhook_action,
        name="webhook-action",
    ),
]
