from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Plumbing every app shares (DESIGN.md, "The house"): errors, audit, locks, queue,
    the embedded clock, health, and the web and API helpers. Imports no app of ours."""

    name = "core"
    default_auto_field = "django.db.models.BigAutoField"
