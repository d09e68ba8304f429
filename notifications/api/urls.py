from django.urls import path

from notifications.api import views

urlpatterns = [
    path("me/notifications/", views.PreferencesView.as_view(), name="api-notification-settings"),
    path("push/key/", views.PushKeyView.as_view(), name="api-push-key"),
    path(
        "push/subscriptions/",
        views.PushSubscriptionsView.as_view(),
        name="api-push-subscriptions",
    ),
    path("clubs/<slug:slug>/webhooks/", views.WebhookListView.as_view(), name="api-webhooks"),
    path(
        "clubs/<slug:slug>/webhooks/<int:pk>/",
        views.WebhookDetailView.as_view(),
        name="api-webhook",
    ),
    path(
        "clubs/<slug:slug>/webhooks/<int:pk>/deliveries/",
        views.WebhookLogView.as_view(),
        name="api-webhook-deliveries",
    ),
]
