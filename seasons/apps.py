from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class SeasonsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons"
    verbose_name = gettext_lazy("Seasons and ratings")

    def ready(self) -> None:
        from core.audit import event_recorded
        from core.demo import demo_seeded
        from seasons.services import announce, demo, leagues, ratings

        demo_seeded.connect(demo.on_demo_seeded, dispatch_uid="seasons.demo")

        event_recorded.connect(ratings.on_event_recorded, dispatch_uid="seasons.ratings")
        event_recorded.connect(announce.on_event_recorded, dispatch_uid="seasons.announce")
        event_recorded.connect(leagues.on_event_recorded, dispatch_uid="seasons.leagues")
