from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from core.audit import event_recorded
        from notifications.services import outbox

        event_recorded.connect(outbox.on_event_recorded, dispatch_uid="notifications.fan_out")
