from django.apps import AppConfig


class GameplayConfig(AppConfig):
    name = "gameplay"
    verbose_name = "Games at the table"

    def ready(self) -> None:
        # Wiring (not a layer): the live pages listen for the services' changes.
        from gameplay.realtime import broadcast
        from gameplay.services.drafts import pod_changed

        pod_changed.connect(broadcast.on_pod_changed, dispatch_uid="gameplay.broadcast")
