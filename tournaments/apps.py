from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = gettext_lazy("Clubs and tournaments")

    def ready(self) -> None:
        # Wiring (not a layer): the live pages listen for the services' changes.
        from core.audit import event_recorded
        from tournaments.realtime import broadcast
        from tournaments.services.projector import projector_changed
        from tournaments.services.stages import on_result_confirmed, stage_changed

        stage_changed.connect(broadcast.on_stage_changed, dispatch_uid="tournaments.stage_live")
        # Projector screens: every entry of a tournament's feed, and its announcement.
        event_recorded.connect(broadcast.on_event_recorded, dispatch_uid="tournaments.feed_live")
        projector_changed.connect(
            broadcast.on_projector_changed, dispatch_uid="tournaments.announcement_live"
        )
        # A player's language follows them: into the session at sign-in.
        from django.contrib.auth.signals import user_logged_in

        from tournaments.web.accounts import remember_language

        user_logged_in.connect(remember_language, dispatch_uid="tournaments.remember_language")
        # A confirmed result sets its stage advancing (a bracket, a round robin, pods).
        event_recorded.connect(on_result_confirmed, dispatch_uid="tournaments.stage_advance")
