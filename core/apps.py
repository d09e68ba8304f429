from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Plumbing every app shares (DESIGN.md, "The house"): errors, audit, locks, queue,
    the embedded clock, health, and the web and API helpers. Imports no app of ours."""

    name = "core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Open sockets follow a session ended or a password changed (core.access): Django's
        # own pages (logout, password change and reset, the admin) tell us only so.
        from django.contrib.auth import get_user_model, user_logged_out
        from django.db.models.signals import post_save

        from core import access

        user_logged_out.connect(access.on_logged_out, dispatch_uid="core.access.logged_out")
        post_save.connect(
            access.on_user_saved, sender=get_user_model(), dispatch_uid="core.access.user_saved"
        )
