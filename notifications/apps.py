from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = gettext_lazy("Notifications")

    def ready(self) -> None:
        from core.audit import event_recorded
        from notifications.services import outbox

        event_recorded.connect(outbox.on_event_recorded, dispatch_uid="notifications.fan_out")
